// A player's vacation switch, in the settings menu: while on vacation, the clocks of their
// correspondence matches stand still (and their opponents see it), up to an allowance a year.
// The server keeps it (`/api/me/vacation`); a visitor has none, and neither has a guest, whose
// account is thrown away.
import { el, errorLine } from "./dom.js";
import { DAY_MS } from "./clock-text.js";
import { t } from "./i18n.js";

export function vacationSetting(app) {
  if (!app.me || app.me.guest) return null;
  const box = el("input", { type: "checkbox", "data-testid": "vacation" });
  const state = el("p", { class: "muted", "data-testid": "vacation-state", "aria-live": "polite" });
  const show = (v) => {
    box.checked = v.on;
    const days = Math.floor(v.left_ms / DAY_MS);
    state.textContent = v.on
      ? t("vacation.until", { until: new Date(v.until_ms).toLocaleString() })
      : t("vacation.left", { count: days });
  };
  // Under the switch: what the server refused (more days than are left, say).
  const error = errorLine("vacation-error");
  app.api.get("/api/me/vacation").then(show, error.show);
  box.onchange = () => error.run(async () => {
    const on = box.checked;
    try {
      show(await app.api.put("/api/me/vacation", { on }));
    } catch (e) {
      box.checked = !on;
      throw e;
    }
  });
  return el("div", { class: "vacation" },
    el("label", { class: "check" }, box, t("vacation.label")), error.node,
    el("p", { class: "muted" }, t("vacation.hint")),
    state);
}
