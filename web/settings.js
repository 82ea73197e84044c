// The settings menu in the bar, on every page: the choices that change how the whole client
// looks, kept in this browser (prefs.js) and applied to the document as soon as this module
// loads, before any page is drawn. The colour theme follows the system's (prefers-color-scheme)
// unless the player picks light or dark; it is set as `data-theme` (light or dark), the board
// theme as `data-board`, which style.css reads. A new setting is one more entry of SETTINGS.
import { el } from "./dom.js";
import { choice, prefChoice } from "./prefs.js";

const root = document.documentElement;
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

// Each setting: its name in prefs.js, its label, its options ([value, label], the first the
// default) and how a value is applied.
const SETTINGS = [
  {
    name: "theme",
    label: "Theme",
    options: [["system", "As the system"], ["light", "Light"], ["dark", "Dark"]],
    apply(value) {
      root.dataset.theme = value === "system" ? (systemDark.matches ? "dark" : "light") : value;
    },
  },
  {
    name: "board",
    label: "Board",
    options: [["wood", "Wood"], ["slate", "Slate"], ["contrast", "High contrast"]],
    apply(value) {
      root.dataset.board = value;
    },
  },
];

const current = (setting) => choice(setting.name, setting.options.map(([value]) => value));

for (const setting of SETTINGS) setting.apply(current(setting));
// The system's theme changing while the page is open: followed, unless one was picked.
systemDark.addEventListener("change", () => SETTINGS[0].apply(current(SETTINGS[0])));

// The menu: a button in the bar that opens a panel of the settings' drop-downs. A click
// elsewhere or Escape closes it.
export function settingsMenu() {
  const panel = el("div", { class: "menu-panel" },
    SETTINGS.map((setting) => prefChoice(setting.name, setting.label, setting.options, (value) => setting.apply(value))));
  const summary = el("summary", { "data-testid": "settings", "aria-label": "Settings", title: "Settings" }, "\u2699\uFE0E");
  const menu = el("details", { class: "menu" }, summary, panel);
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
