// The rules of a game (`#/rules/<game>`), readable without logging in: the game's page of
// `docs/rules/` as the server renders it (`GET /api/games/<game>/rules`), under links to every
// game's rules. Tables and board diagrams scroll sideways on a narrow screen.
import { el } from "../dom.js";
import { ServerError } from "../api.js";
import { games, loadCatalog } from "../catalog.js";
import { gameName } from "../names.js";
import { language, t } from "../i18n.js";

export default async function render(root, params, app) {
  const game = params.game || "tafl";
  const [rules] = await Promise.all([
    app.api.get(`/api/games/${encodeURIComponent(game)}/rules`).catch((e) => e),
    loadCatalog().catch(() => {}),
  ]);
  root.append(el("nav", { class: "rules-games", "data-testid": "rules-games" },
    games.map((g) => el("a", { href: `#/rules/${g.id}`, class: g.id === game ? "current" : undefined, "data-testid": `rules-of-${g.id}` }, gameName(g.id)))),
    el("p", {}, el("a", { href: `#/learn/${encodeURIComponent(game)}`, class: "button", "data-testid": "rules-learn" }, t("learn.rules-link"))));
  if (rules instanceof Error) {
    root.append(el("p", { class: "error", "data-testid": "rules-error" }, rules instanceof ServerError ? rules.message : t("error.no-answer", { message: rules.message })));
    return;
  }
  document.title = t("rules.title", { game: rules.name });
  const page = el("article", { class: "card rules", "data-testid": "rules" });
  // The server's own rendering of its own documents.
  page.innerHTML = rules.html;
  for (const table of page.querySelectorAll("table")) {
    const scroll = el("div", { class: "scroll" });
    table.before(scroll);
    scroll.append(table);
  }
  // The rules are written in English only (docs/rules/): a reader of another language is told so.
  if (language !== "en") root.append(el("p", { class: "muted", "data-testid": "rules-language" }, t("rules.in-english")));
  root.append(page);
  return () => {
    document.title = t("app.name");
  };
}
