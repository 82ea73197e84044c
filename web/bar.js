// The bar's page links on a narrow screen: folded behind one button, which style.css shows (and
// the links hide) under 760 px, so that the bar is one short line that stays at the top. Opened,
// the links are a panel under the bar; a link followed, a click elsewhere or Escape closes it.
import { el } from "./dom.js";
import { t } from "./i18n.js";

export function navMenu(nav) {
  const toggle = el("button", {
    type: "button", class: "nav-toggle", "data-testid": "nav-menu", "aria-controls": nav.id, "aria-expanded": "false",
  }, "\u2630\uFE0E");
  const open = () => nav.classList.contains("open");
  const set = (on) => {
    nav.classList.toggle("open", on);
    toggle.setAttribute("aria-expanded", String(on));
  };
  toggle.onclick = () => set(!open());
  nav.addEventListener("click", (e) => {
    if (e.target.closest("a")) set(false);
  });
  document.addEventListener("click", (e) => {
    if (open() && !toggle.contains(e.target) && !nav.contains(e.target)) set(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !open()) return;
    set(false);
    toggle.focus();
  });
  const draw = () => {
    toggle.title = t("nav.menu");
    toggle.setAttribute("aria-label", toggle.title);
  };
  draw();
  return { node: toggle, draw };
}
