// The match page: players and clocks, the board, the move list, the controls (resign, draws,
// takebacks, abort, claim a win) and the result, with its rematch: offered, answered, lapsed
// when a player leaves, and once every player agreed, the way to the new match (where its
// players are taken). Its parts are in match/: the state and its pure fold (state.js), one view
// per section (board, players, moves, actions, banners, chat), the socket's glue (socket.js) and
// the aids to the feel of play (aids.js, move-box.js). This module wires them: it folds each
// message into the state, acts on what happened (sounds, speech, loading the chat and the
// series) and has the views draw.
//
// It follows the match over the shared socket: a snapshot, then numbered events; after a dropped
// connection it watches again from the last event seen (`since`), so the server replays what was
// missed (or sends a fresh snapshot).
//
// For the feel of play: moves sound and are spoken to screen readers, the tab title says when it
// is your move, a clock under 10 s turns red and your own ticks, a move may be typed, the board
// may be flipped, and a click on the move list shows that earlier position (read-only, marked)
// until Escape, End or the button returns to the game; a new move returns to it too, so the
// board in play is never a stale one.
import { el, errorLine, notFound } from "../dom.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";
import { ServerError } from "../api.js";
import { playSound } from "../sound.js";
import { announcer, lowTimeTicker, positions, settings, turnTitle } from "./match/aids.js";
import { fold, initial, legalGiven, legalRefused, lookedAt, moveSent, needsLegal, playsAgainst, seriesRead, toActMine } from "./match/state.js";
import { follow } from "./match/socket.js";
import { actionsView } from "./match/actions.js";
import { bannersView } from "./match/banners.js";
import { boardView } from "./match/board.js";
import { matchChat } from "./match/chat.js";
import { lookKey, movesView } from "./match/moves.js";
import { playersView } from "./match/players.js";

export default async function render(root, params, app) {
  // A match id is a whole number: anything else is no match, and neither is one the server
  // does not know (said when the page watches it).
  const matchId = /^\d+$/.test(params.id) ? Number(params.id) : NaN;
  const noSuchMatch = () => root.replaceChildren(notFound(t("match.no-such", { id: params.id })));
  if (!Number.isSafeInteger(matchId)) {
    noSuchMatch();
    return;
  }
  let state = initial(matchId);
  let closed = false;
  const past = positions(app.api, matchId);
  const title = turnTitle();
  const speech = announcer();
  // Each refusal shows beside the control that caused it: the controls' (resign, draws,
  // takebacks) under them, a move's under the move box, a rematch's under its banner.
  const message = errorLine("match-error");
  const rematchError = errorLine("rematch-error");
  const switches = el("div");

  const fail = (e) => {
    if (!closed) message.show(e);
  };
  // A command of the match; its ack, or null when refused (the error shown by `refused`).
  const send = async (msg, refused = fail) => {
    refused(null);
    try {
      return await link.send(msg);
    } catch (e) {
      if (!closed) refused(e);
      return null;
    }
  };
  const looking = () => state.look?.at ?? null;

  const players = playersView(app, matchId, lowTimeTicker());
  const board = boardView({ play: (action) => play(action), redraw: () => drawControls() });
  const moves = movesView((count) => lookBack(count));
  const actions = actionsView(send);
  const banners = bannersView(app, matchId, {
    answer: (accept) => send({ type: "answer_rematch", accept }, rematchError.show),
    offer: async () => {
      const ack = await send({ type: "offer_rematch" }, rematchError.show);
      // The last agreement (against the AI, in the hot seat) opens the rematch at once.
      if (ack && !closed && ack.match_id !== matchId) {
        if (ack.invite) app.invites.set(ack.match_id, ack.invite);
        app.navigate(`#/match/${ack.match_id}`);
      }
    },
    navigate: (hash) => app.navigate(hash),
  });
  const chat = matchChat(app, matchId, (text) => link.send({ type: "chat", text }));
  // Beside the board on a wide screen (which keeps the whole board in view whatever is said
  // about the match), above it on a narrow one.
  root.append(
    el("div", { class: "match" },
      el("div", { class: "match-info" }, players.header, banners.seriesLine, players.players, players.turn, players.watchers,
        banners.banner, rematchError.node, banners.nextGame, players.invite, moves.marker),
      board.node,
      el("aside", { class: "match-side card" }, actions.row, actions.drawBox, actions.takebackBox, message.node, switches,
        el("h3", {}, t("match.moves")), moves.list, el("h3", {}, t("chat.title")), chat.node)),
    speech.node,
  );

  // --- Following the match -------------------------------------------------------------------

  const watch = async () => {
    const msg = { type: "watch" };
    if (state.match) msg.since = state.seq;
    message.show(null);
    try {
      await link.send(msg);
    } catch (e) {
      if (e instanceof ServerError && e.code === "not_found" && !state.match && !closed) noSuchMatch();
      else fail(e);
      return;
    }
    chat.load(() => closed);
  };

  // The series' score is read when the page opens and when a game ends; its result comes with
  // series_finished, or is read here when game 2 had ended before.
  const loadSeries = async () => {
    const series = state.match?.series;
    if (!series) return;
    try {
      const read = await app.api.get(`/api/series/${series.series_id}`);
      if (closed || !state.match) return;
      state = seriesRead(state, read);
    } catch {
      return;
    }
    banners.drawSeries(state);
  };

  const receive = (msg) => {
    const folded = fold(state, msg, performance.now());
    state = folded.state;
    const m = state.match;
    switch (folded.happened) {
      case null:
        return;
      case "gap":
        watch();
        return;
      case "watchers":
        players.drawWatchers(state.watchers);
        return;
      case "series":
        banners.drawSeries(state);
        return;
      case "snapshot":
        past.keep(m.log.length, m.view);
        chat.draw(m);
        refresh();
        loadSeries();
        return;
      case "rematch_offered":
      case "rematch_declined":
      case "rematch_lapsed":
      case "rematch_started":
        rematchTold(msg);
        return;
      case "acted":
        past.keep(m.log.length, m.view);
        playSound(board.captured(m.view) ? "capture" : "move");
        speech.say(`${seatName(m.game, msg.event.seat)}: ${msg.event.action ?? t("match.moved")}`);
        break;
      case "taken_back":
        past.keep(msg.event.ply, m.view);
        speech.say(t("match.taken-back"));
        break;
      case "finished":
        chat.draw(m);
        chat.load(() => closed);
        loadSeries();
        break;
      default:
        break;
    }
    refresh();
  };

  const rematchTold = (msg) => {
    const m = state.match;
    if (msg.type === "rematch_started") {
      // A private rematch's code, which its players are given to pass on.
      if (msg.invite) app.invites.set(msg.rematch, msg.invite);
      // Game 2 of a two-game match: game 1's result and the score stay in view a moment first.
      if (m.series?.game === 1) {
        banners.seriesGoesOn(state, msg.rematch, m.yourSeats.length > 0);
        return;
      }
      // Its players are taken there; anyone else may follow.
      if (m.yourSeats.length) app.navigate(`#/match/${msg.rematch}`);
    }
    banners.drawBanner(state);
    // An offer to answer, where the banner may be out of sight (under the board on a phone).
    if (msg.type === "rematch_offered" && m.yourSeats.some((s) => !msg.agreed.includes(s))) banners.banner.scrollIntoView({ block: "nearest" });
  };

  // --- Drawing --------------------------------------------------------------------------------

  const drawControls = () => actions.draw(state.match, board.buttons(() => state, fail));
  const drawMoves = () => {
    moves.draw(state.match, board.pairs());
    moves.mark(looking());
  };
  const drawMarker = () => {
    moves.drawMarker(state.match, looking());
    board.marked(state.look !== null);
  };
  // The tab title and the move box.
  const drawAids = () => {
    const m = state.match;
    title.set(toActMine(m).length > 0 && playsAgainst(m), m.log.at(-1)?.action);
    board.offer(state);
  };

  const refresh = async () => {
    if (!state.match || closed) return;
    players.draw(state.match, performance.now());
    banners.drawBanner(state);
    drawMarker();
    drawAids();
    if (!board.drawn()) {
      try {
        // The module first: it says how the moves are listed.
        const game = await board.module(state.match.game);
        if (!state.match || closed) return;
        switches.replaceChildren(settings(game.premoves && playsAgainst(state.match)));
        drawMoves();
        await board.start(state);
        drawControls();
      } catch (e) {
        if (state.match) moves.draw(state.match, board.pairs());
        fail(e);
        return;
      }
    } else {
      drawMoves();
      drawControls();
      board.update(state);
    }
    fetchLegal();
  };

  // --- Playing --------------------------------------------------------------------------------

  // Sends a move from the board or the move box.
  const play = async (action) => {
    const seat = toActMine(state.match)[0];
    if (seat === undefined || state.look !== null) return;
    const spent = state.legal;
    state = moveSent(state, seat);
    board.update(state);
    drawAids();
    const ack = await send({ type: "act", seat, action }, board.refused);
    const back = legalRefused(state, spent);
    if (!ack && back !== state) {
      state = back;
      board.update(state);
      drawAids();
    }
  };

  // Asks the server for the legal actions of the seat we must act for, once per position.
  const fetchLegal = async () => {
    const seat = toActMine(state.match)[0];
    if (!needsLegal(state, seat)) return;
    const asked = state.seq;
    const ack = await send({ type: "legal", seat });
    if (ack && asked === state.seq && state.match && !closed) {
      state = legalGiven(state, asked, seat, ack.actions ?? []);
      board.update(state);
      drawAids();
    }
  };

  // --- Looking back ---------------------------------------------------------------------------

  // Shows the position after `count` moves (the game in play from the last one on).
  const lookBack = async (count) => {
    if (!state.match || !board.drawn()) return;
    const at = Math.max(0, Math.min(count, state.match.log.length));
    let shown = null;
    if (at < state.match.log.length) {
      shown = await past.get(at).catch((e) => {
        fail(e);
        return null;
      });
      if (!shown || !state.match || at >= state.match.log.length) return;
    }
    state = lookedAt(state, at, shown);
    drawMarker();
    moves.mark(looking());
    drawAids();
    board.update(state);
  };

  const onKey = (e) => {
    if (!state.match || e.target.closest?.("input, select, textarea, [data-sq]")) return;
    const count = moves.entered(e) ?? lookKey(e.key, looking(), state.match.log.length);
    if (count === null) return;
    lookBack(count);
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  const link = follow(app.socket, matchId, {
    receive,
    chat: (msg) => chat.told(msg),
    // Our next tournament game has started elsewhere.
    round: (msg) => {
      if (msg.match_id !== matchId && !closed) banners.drawNextGame(msg.round, msg.match_id);
    },
    open: () => watch(),
    down: () => {
      message.show(null);
    },
  });
  const ticker = setInterval(() => {
    if (state.match) players.drawClocks(state.match, performance.now());
  }, 100);
  if (link.ready) watch();

  return () => {
    closed = true;
    title.restore();
    document.removeEventListener("keydown", onKey);
    clearInterval(ticker);
    banners.stop();
    link.stop();
    board.destroy();
  };
}
