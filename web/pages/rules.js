// The rules of a game (`#/rules/<game>`), for players and readable without logging in: the
// game's page as the server renders it (`GET /api/games/<game>/rules?lang=`), in the page's
// language when written in it, under links to every game's rules. The page's boards are drawn
// here: each `start` block is a variant's start as the engine lays it out (its preview), with a
// table of how the variant differs from its family's standard where the game has one; each
// `diagram` block is a small position written in the page (rules-diagram.js). Tables scroll
// sideways on a narrow screen.
import { el } from "../dom.js";
import { ServerError } from "../api.js";
import { games, loadCatalog, variantRules } from "../catalog.js";
import { gameName, variantName } from "../names.js";
import { language, t } from "../i18n.js";
import { boardFor, miniBoard } from "../boards/index.js";
import { drawDiagram } from "../rules-diagram.js";
import { differences, rowText, valueText } from "../rules-facts.js";

export default async function render(root, params, app) {
  const game = params.game || "tafl";
  const [rules] = await Promise.all([
    app.api.get(`/api/games/${encodeURIComponent(game)}/rules?lang=${language}`).catch((e) => e),
    loadCatalog().catch(() => {}),
  ]);
  root.append(el("nav", { class: "rules-games", "data-testid": "rules-games" },
    games.map((g) => el("a", { href: `#/rules/${g.id}`, class: g.id === game ? "current" : undefined, "data-testid": `rules-of-${g.id}` }, gameName(g.id)))),
    el("p", {}, el("a", { href: `#/learn/${encodeURIComponent(game)}`, class: "button", "data-testid": "rules-learn" }, t("learn.rules-link"))));
  if (rules instanceof Error) {
    root.append(el("p", { class: "error", "data-testid": "rules-error" }, rules instanceof ServerError ? rules.message : t("error.no-answer", { message: rules.message })));
    return;
  }
  document.title = t("rules.title", { game: gameName(game) });
  const page = el("article", { class: "card rules", "data-testid": "rules", lang: rules.language ?? "en" });
  // The server's own rendering of its own documents.
  page.innerHTML = rules.html;
  for (const table of page.querySelectorAll("table")) scrolling(table);
  // A page not yet written in the reader's language comes in English, and says so.
  if ((rules.language ?? "en") !== language) root.append(el("p", { class: "muted", "data-testid": "rules-language" }, t("rules.in-english")));
  root.append(page);
  const boards = await drawBoards(page, game, app.api);
  page.dataset.drawn = "true";
  return () => {
    for (const board of boards) board?.destroy();
    document.title = t("app.name");
  };
}

// A table in a box of its own that scrolls sideways, so the page does not.
function scrolling(table) {
  const scroll = el("div", { class: "scroll" });
  table.replaceWith(scroll);
  scroll.append(table);
  return scroll;
}

// Draws the page's `diagram` and `start` blocks in place; returns the boards drawn, to destroy.
async function drawBoards(page, game, api) {
  for (const code of page.querySelectorAll("pre > code.language-diagram")) {
    code.parentElement.replaceWith(drawDiagram(code.textContent, game, t("rules.diagram")));
  }
  const module = await boardFor(game).catch(() => null);
  const starts = [...page.querySelectorAll("pre > code.language-start")].map((code) => {
    const variant = code.textContent.trim();
    const figure = el("figure", { class: "rules-start", "data-testid": `rules-start-${variant}` });
    code.parentElement.replaceWith(figure);
    return drawStart(figure, { game, variant, standard: module?.variantDifferences?.standard, api });
  });
  return Promise.all(starts);
}

// A variant's start as the engine lays it out, drawn by the game's own board, captioned with its
// name; under it, where the game has a standard and this is another variant, how it differs.
async function drawStart(figure, { game, variant, standard, api }) {
  const target = el("div", { class: "board" });
  // A game of one variant is named by the game's name ("Tron"), not its variant's ("Standard").
  const named = games.find((g) => g.id === game)?.variants.length > 1 ? variantName(game, variant) : gameName(game);
  figure.append(target, el("figcaption", {}, t("rules.start-of", { variant: named })));
  const rules = variantRules(game, variant);
  if (standard && variant !== standard && rules && variantRules(game, standard)) {
    figure.after(scrolling(differenceTable(game, standard, variant)));
  }
  const board = await api.get(`/api/games/${encodeURIComponent(game)}/preview?variant=${encodeURIComponent(variant)}`)
    .then((start) => miniBoard(target, { game, variant, rules: start.rules ?? rules, seats: start.seats, view: start.view }))
    .catch(() => null);
  if (!board) target.replaceWith(el("p", { class: "error" }, t("rules.no-board")));
  figure.dataset.drawn = String(Boolean(board));
  return board;
}

// The rows where a variant's rules differ from the standard's, in the reader's language.
function differenceTable(game, standard, variant) {
  const rows = differences(variantRules(game, standard), variantRules(game, variant));
  return el("table", { class: "rules-differences", "data-testid": `rules-differences-${variant}` },
    el("caption", {}, t("rules.differences", { variant: variantName(game, variant), standard: variantName(game, standard) })),
    el("thead", {}, el("tr", {}, el("th", {}, t("rules.rule")), el("th", {}, variantName(game, standard)), el("th", {}, variantName(game, variant)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, el("th", { scope: "row" }, rowText(r.row)), el("td", {}, valueText(r.standard)), el("td", {}, valueText(r.variant))))));
}
