// A match step by step: `GET /api/matches/<id>/replay` gives every action and the public view
// after each, and the game's own board shows them read-only (`legal: []`). First, previous,
// next and last buttons (and the arrow keys) step through it; a click on the move list jumps. A
// board that can turn round offers a flip button. The match's chat is shown beside it, to read:
// once the match is over, both its channels.
import { el, numberedLine, playerLink, recordLink, rulesLink } from "../dom.js";
import { boardFor, mountBoard, viewModule, viewToggle } from "../boards/index.js";
import { boardZoom } from "../boards/zoom.js";
import { seatName, variantRules } from "../catalog.js";
import { gameName, variantName } from "../names.js";
import { ServerError } from "../api.js";
import { chatPanel } from "../chat.js";
import { describeResult, playerAndSide } from "../results.js";
import { t } from "../i18n.js";
import { explorerPanel } from "../explorer.js";

export default async function render(root, params, app) {
  const id = Number(params.id);
  const invite = app.invites.get(id);
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let replay;
  let record = null;
  let said = null;
  try {
    // The record adds the players and the result, the chat what was said; the replay alone is
    // enough to step through.
    [replay, record, said] = await Promise.all([
      app.api.get(`/api/matches/${id}/replay`),
      app.api.get(`/api/matches/${id}`).catch(() => null),
      app.api.get(`/api/matches/${id}/chat${query}`).catch(() => null),
    ]);
  } catch (e) {
    root.append(el("p", { class: "error", "data-testid": "replay-error" }, e instanceof ServerError ? e.message : String(e)));
    return;
  }
  const last = replay.views.length - 1;
  const result = record?.summary.result ?? null;
  let at = 0;
  // The game's board module, the board drawn and which of the module's views it is.
  let game = null;
  let board = null;
  let view = 0;
  let flip = false;

  const boardBox = el("div", { class: "board-box", "data-testid": "board" });
  const position = el("span", { "data-testid": "replay-position" });
  const button = (testid, label, go) => {
    const node = el("button", { type: "button", class: "secondary", "data-testid": testid }, label);
    node.onclick = () => show(go());
    return node;
  };
  const buttons = {
    first: button("replay-first", t("replay.first"), () => 0),
    prev: button("replay-prev", t("replay.prev"), () => at - 1),
    next: button("replay-next", t("replay.next"), () => at + 1),
    last: button("replay-last", t("replay.last"), () => last),
  };
  const moves = el("ol", { class: "moves", "data-testid": "replay-moves" });
  // The switch between the board's views, for a board that has more than one.
  const toggle = el("button", { type: "button", class: "secondary" });
  toggle.onclick = () => mount(viewToggle(game, view).next);
  const flipper = el("button", { type: "button", class: "secondary", "data-testid": "flip-board" }, t("board.flip"));
  flipper.onclick = () => {
    flip = !flip;
    board?.setFlip?.(flip);
  };
  const controls = el("div", { class: "row" }, buttons.first, buttons.prev, position, buttons.next, buttons.last);
  // The position shown, on the analysis board.
  const analyse = el("a", { href: `#/analysis/match/${id}/0`, "data-testid": "analyse-link" }, t("analysis.open"));
  const chat = chatPanel(app);
  // The moves played from the position shown in other games; the game's own move is marked,
  // and picking it steps on.
  const explorer = explorerPanel(app, { onPick: (action) => replay.actions[at]?.action === action && show(at + 1) });
  if (said) {
    chat.set({ channels: said.channels });
    chat.add(said.messages);
  }
  const players = record
    ? el("p", { "data-testid": "replay-players" }, record.summary.players.flatMap((p, i) => [i ? t("match.versus") : "", seatName(replay.game, i), " ", playerLink(p)]))
    : null;
  // Laid out as the match page: the board (with the buttons that step through the match) beside
  // what is said about the match and the move list, or above them on a narrow screen.
  root.append(el("div", { class: "match" },
    el("div", { class: "match-info" },
      el("h1", {}, t("replay.title", { game: gameName(replay.game), variant: variantName(replay.game, replay.variant) })),
      players,
      result ? el("p", { class: "banner", "data-testid": "replay-result" }, describeResult(replay.game, result, (seat) => playerAndSide(replay.game, seat, record?.summary.players[seat]))) : null,
      el("p", { class: "row" }, rulesLink(replay.game), result ? recordLink(id, invite) : null, analyse)),
    el("div", { class: "match-board" }, boardBox, boardZoom(boardBox).node, controls),
    el("aside", { class: "match-side card" }, el("h3", {}, t("match.moves")), moves, explorer.node,
      said ? [el("h3", {}, t("chat.title")), chat.node] : null)));

  moves.append(...replay.actions.map((a, i) => {
    const item = numberedLine(i + 1, { "data-testid": `replay-move-${i + 1}` },
      el("a", { href: "#", class: "move" }, a.action ?? t("match.hidden-action")), el("small", { class: "muted" }, ` (${seatName(replay.game, a.seat)})`));
    item.onclick = (e) => {
      e.preventDefault();
      show(i + 1);
    };
    return item;
  }));

  const state = () => ({
    view: replay.views[at],
    toAct: [],
    mySeats: [],
    legal: [],
    log: replay.actions.slice(0, at),
    last: at > 0 ? replay.actions[at - 1] : null,
    result: at === last ? result : null,
  });

  // Draws view `which` of the game's board.
  async function mount(which) {
    const module = await viewModule(game, which);
    board?.destroy();
    view = which;
    board = mountBoard(boardBox, module, {
      game: replay.game, variant: replay.variant, rules: variantRules(replay.game, replay.variant),
      seats: replay.seats, perspective: null, flip, onAction: () => {},
    });
    board.update(state());
    if (board.setFlip) controls.append(flipper);
    else flipper.remove();
    const next = viewToggle(game, view);
    if (next) {
      toggle.dataset.testid = next.testid;
      toggle.textContent = next.label;
      controls.append(toggle);
    }
  }

  function show(step) {
    at = Math.max(0, Math.min(last, step));
    position.textContent = `${at} / ${last}`;
    analyse.href = `#/analysis/match/${id}/${at}`;
    buttons.first.disabled = buttons.prev.disabled = at === 0;
    buttons.next.disabled = buttons.last.disabled = at === last;
    [...moves.children].forEach((item, i) => {
      item.style.fontWeight = i + 1 === at ? "700" : "";
    });
    board?.update(state());
    explorer.update({
      game: replay.game, variant: replay.variant,
      moves: replay.actions.slice(0, at).map((a) => a.action), next: replay.actions[at]?.action ?? null,
    });
  }

  const onKey = (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowLeft") show(at - 1);
    if (e.key === "ArrowRight") show(at + 1);
  };
  document.addEventListener("keydown", onKey);

  try {
    game = await boardFor(replay.game);
    await mount(0);
  } catch (e) {
    boardBox.append(el("p", { class: "error" }, e.message));
  }
  show(at);
  return () => {
    document.removeEventListener("keydown", onKey);
    board?.destroy();
  };
}

