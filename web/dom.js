// The one DOM builder of the client, for HTML and SVG alike, and the small pieces of DOM that
// several pages show (player and rules links, the move list's numbered line).
import { t } from "./i18n.js";
import { playerName } from "./names.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Children as `el`, `svg` and `fill` take them: arrays flattened, and undefined, null and false
// left out, so that `cond ? node : null` adds nothing (the DOM itself would print "null").
const present = (children) => children.flat().filter((c) => c !== undefined && c !== null && c !== false);

// Sets an attribute; `style` through the CSSOM, which the Content-Security-Policy allows (it
// refuses style attributes, as it does inline styles).
export function setAttr(node, name, value) {
  if (name === "style") node.style.cssText = value;
  else node.setAttribute(name, value);
}

// Gives a new element its attributes and children. An attribute that is undefined, null or false
// is left out, and one that is true is set empty; a function under an `on<event>` name listens
// for that event.
function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else setAttr(node, name, value === true ? "" : value);
  }
  node.append(...present(children));
  return node;
}

// An HTML element without a framework: el("p", {class: "x"}, "text", child).
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// The same for SVG elements, which live in their own namespace.
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

// A button with its test id, its label, what a click does and its class (none, "secondary",
// "danger").
export function button(testid, text, onclick, cls) {
  return el("button", { "data-testid": testid, class: cls, onclick }, text);
}

// A control's error line, put beside it (under a form's buttons, where the player looks after
// pressing one): `run(act)` clears it and runs `act`, showing what it throws (a server's refusal
// in the reader's language, see `ServerError`); `show(e)` shows an error caught elsewhere (null
// clears it). A shown error is scrolled into view: on a phone the control may sit at the screen's
// bottom edge, its error line under it.
export function errorLine(testid) {
  const node = el("p", { class: "error", "data-testid": testid, "aria-live": "assertive" });
  const show = (e) => {
    node.textContent = e ? e.message : "";
    if (e && node.isConnected) node.scrollIntoView({ block: "nearest" });
  };
  const run = async (act) => {
    show(null);
    try {
      await act();
    } catch (e) {
      show(e);
    }
  };
  return { node, run, show };
}

// Replaces a node's children, taking them as `el` does.
export function fill(node, ...children) {
  node.replaceChildren(...present(children));
}

// The page shown for a link to something that does not exist (a match, a malformed id): what was
// not found, and the way back.
export function notFound(text) {
  return el("section", { class: "card not-found", "data-testid": "not-found" },
    el("h1", {}, t("not-found.title")),
    el("p", {}, text),
    el("p", {}, el("a", { href: "#/", "data-testid": "not-found-lobby" }, t("match.back-to-lobby"))));
}

// A numbered line of a move list (`ol.moves`): its number written out ("147."), in a box that
// widens with its digits so that none is ever cut off, then its content.
export function numberedLine(n, attrs, ...content) {
  return el("li", attrs, el("span", { class: "n" }, `${n}.`), " ", ...content);
}

// A player's name, linking to their page.
export function playerLink(player) {
  if (!player) return el("span", { class: "muted" }, t("seat.free"));
  return el("a", { href: `#/player/${player.id}` }, playerName(player.name));
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
