import { t } from "./i18n.js";

// Children as `el` and `fill` take them: arrays flattened, and undefined, null and false left
// out, so that `cond ? node : null` adds nothing (the DOM itself would print "null").
const present = (children) => children.flat().filter((c) => c !== undefined && c !== null && c !== false);

// Sets an attribute; `style` through the CSSOM, which the Content-Security-Policy allows (it
// refuses style attributes, as it does inline styles).
export function setAttr(node, name, value) {
  if (name === "style") node.style.cssText = value;
  else node.setAttribute(name, value);
}

// A small helper to build DOM trees without a framework: el("p", {class: "x"}, "text", child).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    setAttr(node, name, value === true ? "" : value);
  }
  node.append(...present(children));
  return node;
}

// Replaces a node's children, taking them as `el` does.
export function fill(node, ...children) {
  node.replaceChildren(...present(children));
}

// A numbered line of a move list (`ol.moves`): its number written out ("147."), in a box that
// widens with its digits so that none is ever cut off, then its content.
export function numberedLine(n, attrs, ...content) {
  return el("li", attrs, el("span", { class: "n" }, `${n}.`), " ", ...content);
}

// The same for SVG elements, which live in their own namespace.
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) setAttr(node, name, value);
  }
  node.append(...children);
  return node;
}

// A player's name, linking to their page.
export function playerLink(player) {
  if (!player) return el("span", { class: "muted" }, t("seat.free"));
  return el("a", { href: `#/player/${player.id}` }, player.name);
}

export const DAY_MS = 24 * 3600 * 1000;

// A duration in ms as m:ss (h:mm:ss past an hour; days and hours past a day, as a
// correspondence clock reads); tenths under ten seconds.
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t >= DAY_MS) return days(t);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// A match's clock as players write it: a Fischer clock's base of whole minutes in minutes, a
// shorter one in seconds, then the increment in seconds ("15+10", "30s+0"); a per-move clock as
// days a move; no clock, said so.
export function clockSpecText(clock) {
  if (!clock) return t("time.none");
  if (clock.per_move) return perMoveText(clock.base_ms);
  const base = clock.base_ms % 60000 ? `${clock.base_ms / 1000}s` : `${clock.base_ms / 60000}`;
  return `${base}+${clock.increment_ms / 1000}`;
}

// A per-move (correspondence) clock's time for a move, as players say it: "3 days a move".
export function perMoveText(ms) {
  return ms % DAY_MS ? t("time.per-move", { time: clockText(ms) }) : t("time.days-a-move", { count: ms / DAY_MS });
}

// Days and hours, in the reader's language ("2 d 5 h").
function days(ms) {
  const hours = Math.floor(ms / 3600000);
  return t("time.days-hours", { days: Math.floor(hours / 24), hours: hours % 24 });
}

// How many spectators follow a match, as the lobby and the match page say it.
export function watchersText(count) {
  return t("match.watchers", { count });
}

// A link to a game's rules page.
export function rulesLink(gameId, text = t("nav.rules"), testid = "rules-link") {
  return el("a", { href: `#/rules/${encodeURIComponent(gameId)}`, "data-testid": testid }, text);
}

// A link that downloads a finished match's record (`GET /api/matches/<id>/record`, with the
// invite code of a private match when the page has it; the session cookie says who asks).
export function recordLink(matchId, invite) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return el("a", { href: `/api/matches/${matchId}/record${query}`, download: "", "data-testid": "download-record" }, t("record.download"));
}
