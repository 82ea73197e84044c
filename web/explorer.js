// The opening explorer's panel, beside the analysis board and the replay: the moves played from
// the position shown, in this server's finished games (by time control and rating band) or in the
// masters' games, each with its games, how they ended (a bar: attackers' wins, draws,
// defenders' wins) and the players' average rating. `update(where)` asks for a position; a row
// picked calls `onPick(action)` (the analysis board plays it; the replay steps on when it is the
// game's move). Tafl's preset variants only: for anything else the panel stays hidden.
import { el, errorLine, fill } from "./dom.js";
import { timeName } from "./names.js";
import { t } from "./i18n.js";
import { BANDS, MASTERS_VARIANTS, explorerPath, shares } from "./explorer-query.js";

const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"];

export function explorerPanel(app, { onPick = null } = {}) {
  let where = null;
  let asked = 0;
  const select = (testid, options, onchange) => {
    const node = el("select", { "data-testid": testid }, options.map(([value, text]) => el("option", { value }, text)));
    node.onchange = onchange;
    return node;
  };
  const source = select("explorer-source", [["games", t("explorer.source-games")], ["masters", t("explorer.source-masters")]], () => redraw());
  const speed = select("explorer-speed", [["", t("explorer.speed-all")], ...SPEEDS.map((s) => [s, timeName(s)])], () => redraw());
  const band = select("explorer-band", [["", t("explorer.band-all")], ...BANDS.map((low, i) => [String(low), bandName(low, BANDS[i + 1])])], () => redraw());
  const summary = el("p", { class: "muted", "data-testid": "explorer-total" });
  const rows = el("tbody", { "data-testid": "explorer-moves" });
  const message = errorLine("explorer-error");
  const table = el("table", { class: "explorer" },
    el("thead", {}, el("tr", {}, [t("explorer.move"), t("explorer.games"), t("explorer.results"), t("explorer.rating")].map((h) => el("th", {}, h)))),
    rows);
  // The masters' games have no ratings: their column goes.
  const ratingHead = table.querySelector("th:last-child");
  const node = el("section", { class: "explorer-panel", "data-testid": "explorer", hidden: true },
    el("h3", {}, t("explorer.title")),
    el("div", { class: "row explorer-filters" }, source, speed, band),
    summary, table, legend(), message.node);

  async function redraw() {
    if (!where || where.game !== "tafl") {
      node.hidden = true;
      return;
    }
    const masters = source.value === "masters";
    speed.hidden = band.hidden = masters;
    source.querySelector("option[value=masters]").disabled = !MASTERS_VARIANTS.includes(where.variant);
    if (source.value === "masters" && !MASTERS_VARIANTS.includes(where.variant)) source.value = "games";
    const mine = ++asked;
    let found;
    try {
      found = await app.api.get(explorerPath({ ...where, source: source.value, speed: speed.value, band: band.value }));
    } catch (e) {
      if (mine !== asked) return;
      // A custom variant has no explorer; anything else is said.
      node.hidden = e.code === "bad_request" && !where.moves?.length && where.position === undefined;
      message.show(e);
      return;
    }
    // An answer for a position no longer shown is dropped.
    if (mine !== asked) return;
    message.show(null);
    node.hidden = false;
    fill(summary, found.total.games
      ? t("explorer.total", { count: found.total.games, plies: found.counted_plies })
      : t("explorer.none"));
    const rated = found.source === "games";
    ratingHead.hidden = !rated;
    rows.replaceChildren(...found.moves.map((m) => row(m, rated)));
  }

  function row(move, rated) {
    const share = shares(move);
    const bar = el("div", { class: "explorer-bar", role: "img", "aria-label": t("explorer.shares", share) },
      ...["attackers", "draws", "defenders"].map((part) =>
        el("span", { class: `explorer-${part}`, style: `width: ${share[part]}%` }, share[part] >= 30 ? `${share[part]}%` : "")));
    const played = where.next === move.action;
    const tr = el("tr", { "data-testid": `explorer-move-${move.action}`, class: played ? "played" : "" },
      el("td", {}, onPick ? el("a", { href: "#", class: "move" }, move.action) : move.action, played ? el("small", { class: "muted" }, t("explorer.played")) : null),
      el("td", {}, move.games.toLocaleString()),
      el("td", {}, bar),
      rated ? el("td", {}, move.average_rating ? String(move.average_rating) : "–") : null);
    if (onPick) {
      tr.onclick = (e) => {
        e.preventDefault();
        onPick(move.action);
      };
    }
    return tr;
  }

  // `where`: { game, variant, and either position with toMove or moves; next: the move the
  // game went on with, marked }.
  return {
    node,
    update(next) {
      where = next;
      redraw();
    },
  };
}

// What the bar's colours mean, under the table.
function legend() {
  return el("p", { class: "explorer-legend muted" }, ["attackers", "draws", "defenders"].map((part) =>
    el("span", {}, el("i", { class: `explorer-${part}` }), t(`explorer.${part}`))));
}

// A rating band's name: "1600–1799", the top one "2500+".
function bandName(low, next) {
  return next ? `${low}–${next - 1}` : `${low}+`;
}
