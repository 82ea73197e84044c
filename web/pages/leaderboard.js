// The leaderboard of one rating pool (a game and a variant): choose the pool, then page through
// its players best first, with their rating and rated games played. The pool is in the route
// (`#/leaderboard/tafl/copenhagen`), so a pool's page can be linked to; the page number is not.
import { el, playerLink } from "../dom.js";
import { games, seatName } from "../catalog.js";
import { gameName } from "../names.js";
import { variantOptions } from "../pickers.js";
import { list } from "../results.js";
import { ServerError } from "../api.js";
import { t } from "../i18n.js";

const PER_PAGE = 20;

export default async function render(root, params, app) {
  const game = games.find((g) => g.id === params.game) ?? games[0];
  const variant = game.variants.includes(params.variant) ? params.variant : game.variants[0];
  let page = 1;
  // A pool rates players whichever side they play: the page says which sides those are.
  const [fewest, most] = game.seatsByVariant[variant] ?? game.seats;
  const sides = Array.from({ length: Math.max(fewest, most) }, (_, seat) => seatName(game.id, seat));

  const gameSelect = el("select", { "data-testid": "lb-game" },
    games.map((g) => el("option", { value: g.id, selected: g.id === game.id }, gameName(g.id))));
  const variantSelect = el("select", { "data-testid": "lb-variant" },
    variantOptions(game.id, game.variants, variant));
  // A new game starts at its first variant; either choice is a new route.
  gameSelect.onchange = () => {
    const chosen = games.find((g) => g.id === gameSelect.value);
    app.navigate(`#/leaderboard/${chosen.id}/${chosen.variants[0]}`);
  };
  variantSelect.onchange = () => app.navigate(`#/leaderboard/${game.id}/${variantSelect.value}`);

  const body = el("tbody");
  const message = el("p", { class: "muted", "data-testid": "lb-message" });
  const prev = el("button", { type: "button", class: "secondary", "data-testid": "lb-prev" }, t("page.previous"));
  const next = el("button", { type: "button", class: "secondary", "data-testid": "lb-next" }, t("page.next"));
  const pageLabel = el("span", { "data-testid": "lb-page" });
  root.append(
    el("h1", {}, t("leaderboard.title")),
    el("div", { class: "row" }, el("label", {}, t("form.game"), gameSelect), el("label", {}, t("form.variant"), variantSelect)),
    el("p", { class: "muted", "data-testid": "lb-sides" }, t("leaderboard.sides", { sides: list(sides) })),
    el("div", { class: "card" },
      el("table", { "data-testid": "leaderboard" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("leaderboard.player")), el("th", {}, t("leaderboard.rating")), el("th", {}, t("leaderboard.games")))),
        body),
      message,
      el("div", { class: "row" }, prev, pageLabel, next)),
    el("p", {}, el("a", { href: "#/open-data", "data-testid": "open-data-link" }, t("open-data.link"))),
  );

  async function load() {
    message.textContent = "";
    try {
      const board = await app.api.get(
        `/api/leaderboard/${encodeURIComponent(game.id)}/${encodeURIComponent(variant)}?page=${page}&per_page=${PER_PAGE}`);
      body.replaceChildren(...board.entries.map((entry) => el("tr", { "data-testid": `lb-row-${entry.player.id}` },
        el("td", {}, String(entry.rank)),
        el("td", {}, playerLink(entry.player)),
        el("td", {}, entry.rating.toFixed(0)),
        el("td", {}, String(entry.games)))));
      if (!board.entries.length) message.textContent = t(page === 1 ? "leaderboard.empty" : "leaderboard.no-more");
      pageLabel.textContent = t("page.number", { page });
      prev.disabled = page === 1;
      next.disabled = board.entries.length < board.per_page;
    } catch (e) {
      message.textContent = e instanceof ServerError ? e.message : String(e);
    }
  }
  prev.onclick = () => {
    page = Math.max(1, page - 1);
    load();
  };
  next.onclick = () => {
    page += 1;
    load();
  };
  await load();
}
