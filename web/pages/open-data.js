// Open data, `#/open-data`: every finished rated game, by month, as two files to download (the
// games' records, and a table of who played whom, rated how, with what result and clock), with
// the licence the club offers them under (`GET /api/open-data`).
import { el } from "../dom.js";
import { ServerError } from "../api.js";
import { t } from "../i18n.js";

// The licences people know by name, linked to their text.
const LICENCES = {
  "CC0-1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
  "CC-BY-4.0": "https://creativecommons.org/licenses/by/4.0/",
  "CC-BY-SA-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
  "ODbL-1.0": "https://opendatacommons.org/licenses/odbl/1-0/",
};

export default async function render(root, params, app) {
  root.append(el("h1", {}, t("open-data.title")), el("p", {}, t("open-data.intro")));
  let data;
  try {
    data = await app.api.get("/api/open-data");
  } catch (e) {
    root.append(el("p", { class: "error", "data-testid": "open-data-error" }, e instanceof ServerError ? e.message : String(e)));
    return;
  }
  const url = LICENCES[data.licence];
  root.append(el("p", { "data-testid": "open-data-licence" }, t("open-data.licence"), " ",
    url ? el("a", { href: url, rel: "license" }, data.licence) : el("strong", {}, data.licence)));
  if (!data.months.length) {
    root.append(el("p", { class: "muted", "data-testid": "open-data-empty" }, t("open-data.empty")));
    return;
  }
  // Newest first: the month a player looks for is usually the last.
  const rows = [...data.months].reverse().map((m) => el("tr", { "data-testid": `open-data-${m.month}` },
    el("td", {}, m.month),
    el("td", { "data-label": t("open-data.games") }, m.games.toLocaleString()),
    el("td", {}, el("a", { href: m.records, download: "" }, t("open-data.records"))),
    el("td", {}, el("a", { href: m.table, download: "" }, t("open-data.table")))));
  root.append(el("div", { class: "card" },
    el("table", { class: "stack" },
      el("thead", {}, el("tr", {}, [t("open-data.month"), t("open-data.games"), t("open-data.records-head"), t("open-data.table-head")].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows))),
    el("p", { class: "muted" }, t("open-data.formats")));
}
