// The settings menu in the bar, on every page: the interface's language, and the choices that
// change how the whole client looks, kept in this browser (prefs.js) and applied to the document
// as soon as this module loads, before any page is drawn. The colour theme follows the system's
// (prefers-color-scheme) unless the player picks light or dark; it is set as `data-theme` (light
// or dark), the board theme as `data-board`, which style.css reads. A new look is one more entry
// of LOOKS.
import { el } from "./dom.js";
import { LANGUAGES, chooseLanguage, language, t } from "./i18n.js";
import { choice, prefChoice } from "./prefs.js";

const root = document.documentElement;
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

// Each look: its name in prefs.js, its label's message, its options ([value, message], the first
// the default) and how a value is applied.
const LOOKS = [
  {
    name: "theme",
    label: "settings.theme",
    options: [["system", "settings.theme.system"], ["light", "settings.theme.light"], ["dark", "settings.theme.dark"]],
    apply(value) {
      root.dataset.theme = value === "system" ? (systemDark.matches ? "dark" : "light") : value;
    },
  },
  {
    name: "board",
    label: "settings.board",
    options: [["wood", "settings.board.wood"], ["slate", "settings.board.slate"], ["contrast", "settings.board.contrast"]],
    apply(value) {
      root.dataset.board = value;
    },
  },
];

const current = (look) => choice(look.name, look.options.map(([value]) => value));

for (const look of LOOKS) look.apply(current(look));
// The system's theme changing while the page is open: followed, unless one was picked.
systemDark.addEventListener("change", () => LOOKS[0].apply(current(LOOKS[0])));

// The menu: a button in the bar that opens a panel of drop-downs, one per look and one for the
// language (in each language's own name), then what `more()` gives (the player's settings kept
// by the server; drawn afresh each time the menu opens). A new language is loaded, the menu drawn
// in it and `onLanguage()` called, for the app to draw the rest. A click elsewhere or Escape
// closes it.
export function settingsMenu(onLanguage, more = () => null) {
  const summary = el("summary", { "data-testid": "settings" }, "\u2699\uFE0E");
  const panel = el("div", { class: "menu-panel" });
  const draw = () => {
    summary.setAttribute("aria-label", t("settings.title"));
    summary.title = t("settings.title");
    const languages = el("select", { "data-testid": "language" },
      Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, selected: code === language }, name)));
    languages.onchange = async () => {
      await chooseLanguage(languages.value);
      draw();
      onLanguage();
    };
    panel.replaceChildren(
      ...LOOKS.map((look) => prefChoice(look.name, t(look.label), look.options.map(([value, key]) => [value, t(key)]), look.apply)),
      el("label", {}, t("settings.language"), languages));
    const extra = more();
    if (extra) panel.append(extra);
  };
  draw();
  const menu = el("details", { class: "menu" }, summary, panel);
  menu.addEventListener("toggle", () => {
    if (menu.open) draw();
  });
  document.addEventListener("click", (e) => {
    if (menu.open && !menu.contains(e.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !menu.open) return;
    menu.open = false;
    summary.focus();
  });
  return menu;
}
