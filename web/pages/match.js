// The match page: players and clocks, the board, the move list, the controls (resign, draws,
// takebacks, abort, claim a win) and the result, with its rematch: offered, answered, lapsed
// when a player leaves, and once every player agreed, the way to the new match (where its
// players are taken).
// It follows the match over the shared socket: a snapshot,
// then numbered events; after a dropped connection it watches again from the last event seen
// (`since`), so the server replays what was missed (or sends a fresh snapshot).
//
// For the feel of play (see match-aids.js): moves sound and are spoken to screen readers, the tab
// title says when it is your move, a clock under 10 s turns red and your own ticks, a move may
// be typed, the board may be flipped, and a click on the move list shows that earlier position
// (read-only, marked) until Escape, End or the button returns to the game; a new move returns to
// it too, so the board in play is never a stale one.
//
// Its chat (chat.js): a player writes to the players, anyone else following to the spectators,
// and each reads only their own channel until the game is over, then both. The history is read
// over REST after every watch (and when the game ends, which opens the other channel); new
// messages come on the socket.
import { el, fill, clockSpecText, clockText, numberedLine, playerLink, recordLink, rulesLink, watchersText } from "../dom.js";
import { gameName, seatName, variantRules } from "../catalog.js";
import { t } from "../i18n.js";
import { describeResult, list as listOf, playerAndSide, reasonText, winners } from "../results.js";
import { boardFor, viewModule, viewToggle } from "../boards/index.js";
import { ServerError } from "../api.js";
import { chatPanel } from "../chat.js";
import { playSound } from "../sound.js";
import { LOW_TIME_MS, announcer, lowTimeTicker, moveBox, positions, settings, turnTitle } from "./match-aids.js";

export default async function render(root, params, app) {
  const matchId = Number(params.id);
  if (!Number.isInteger(matchId)) {
    root.append(el("p", { class: "error" }, t("match.no-such", { id: params.id })));
    return;
  }
  const socket = app.socket;
  // Everything known about the match; null until the first snapshot.
  let m = null;
  let lastSeq = 0;
  let legal = { seq: -1, seat: null, actions: [] };
  // The game's board module (with the options it declares), the board drawn and which of the
  // module's views it is.
  let game = null;
  let board = null;
  let view = 0;
  let closed = false;
  // The board turned round by the user (from its default for their seat), and the position
  // looked back at (the number of moves before it), null for the game in play.
  let flip = false;
  let viewing = null;
  let viewed = null;
  // The rematch, once the match is over, as the server last told it: offered ({agreed}),
  // declined or lapsed ({declined} or {lapsed}: the seat), or started ({started}: the match).
  let rematch = null;
  // The seats whose player offered a rematch: each player offers once, and the server refuses a
  // second offer.
  const offeredBy = new Set();
  // A game of a two-game match: the series as last read or told (null until then).
  let series = null;
  const past = positions(app.api, matchId);
  const title = turnTitle();
  const tick = lowTimeTicker();
  const speech = announcer();

  const header = el("div", { class: "match-head" });
  const players = el("div", { class: "players" });
  const turn = el("p", { class: "turn", "data-testid": "turn" });
  // How many spectators follow the match, as the server tells every follower.
  const watchers = el("p", { class: "muted", "data-testid": "watchers", hidden: true });
  const banner = el("div", { class: "banner", "data-testid": "result", hidden: true });
  const seriesLine = el("p", { class: "notice", "data-testid": "series", hidden: true });
  // A tournament's next game of ours, once its round starts: offered, not forced on the page.
  const nextGame = el("p", { class: "notice", hidden: true });
  const invite = el("p", { class: "invite", hidden: true });
  const boardBox = el("div", { class: "board-box", "data-testid": "board" });
  const controls = el("div", { class: "row controls" });
  const drawBox = el("div", { class: "row draw", hidden: true });
  const takebackBox = el("div", { class: "row draw", hidden: true });
  const moves = el("ol", { class: "moves", "data-testid": "move-list" });
  const message = el("p", { class: "error", "data-testid": "match-error" });
  const marker = el("div", { class: "viewing", "data-testid": "viewing", hidden: true });
  const typed = moveBox((action) => play(action));
  const switches = el("div");
  const chat = chatPanel(app, { send: (text) => socket.send({ type: "chat", match_id: matchId, text }) });
  // Beside the board on a wide screen (which keeps the whole board in view whatever is said
  // about the match), above it on a narrow one.
  root.append(
    el("div", { class: "match" },
      el("div", { class: "match-info" }, header, seriesLine, players, turn, watchers, banner, nextGame, invite, marker),
      el("div", { class: "match-board" }, boardBox, typed.node),
      el("aside", { class: "match-side card" }, controls, drawBox, takebackBox, message, switches, el("h3", {}, t("match.moves")), moves,
        el("h3", {}, t("chat.title")), chat.node)),
    speech.node,
  );

  const fail = (e) => {
    if (!closed) message.textContent = e instanceof ServerError ? e.message : String(e);
  };
  const mySeats = () => (m ? m.yourSeats : []);
  const toActMine = () => (m && !m.result ? m.toAct.filter((s) => m.yourSeats.includes(s)) : []);
  // The seat a control acts for: the one to act when it is ours (a hot-seat match holds every
  // seat), else the first we hold.
  const actingSeat = () => toActMine()[0] ?? mySeats()[0];

  const send = async (msg) => {
    message.textContent = "";
    try {
      return await socket.send({ match_id: matchId, ...msg });
    } catch (e) {
      fail(e);
      return null;
    }
  };

  // --- Following the match -------------------------------------------------------------------

  const watch = async () => {
    const msg = { type: "watch", match_id: matchId };
    if (m) msg.since = lastSeq;
    if (await send(msg)) loadChat();
  };

  // --- Chat -----------------------------------------------------------------------------------

  // What was said before, as the user may read it now; merged with what the socket brought.
  const loadChat = async () => {
    const invite = app.invites.get(matchId);
    const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    const history = await app.api.get(`/api/matches/${matchId}/chat${query}`).catch(() => null);
    if (!history || closed) return;
    chat.set({ channels: history.channels });
    chat.add(history.messages);
  };

  // Where the user writes (a player to the players, an account following to the spectators;
  // a visitor nowhere, a guest only in their own matches) and who reads it.
  const drawChat = () => {
    const seated = m.yourSeats.length > 0;
    const over = m.result !== null;
    let writes = seated ? "players" : "spectators";
    let hint = over ? null : t(seated ? "chat.players-only" : "chat.spectators-only");
    if (!app.me) [writes, hint] = [null, t("chat.visitor")];
    else if (!seated && app.me.guest) [writes, hint] = [null, t("chat.guest-spectators")];
    chat.set({ writes, hint });
  };

  const onChat = (msg) => {
    if (msg.message.match_id === matchId) chat.add([msg.message]);
  };

  const onSnapshot = (msg) => {
    if (msg.match_id !== matchId) return;
    const s = msg.snapshot;
    lastSeq = msg.seq;
    const now = performance.now();
    m = {
      game: s.game,
      variant: s.variant,
      rated: s.rated,
      clock: s.clock ?? null,
      seats: s.seats.map((seat) => ({
        player: seat.player ?? null, connected: seat.connected, clockMs: seat.clock_ms ?? null, vacationUntil: seat.vacation_until_ms ?? null,
      })),
      clockAt: now,
      yourSeats: s.your_seats,
      toAct: s.to_act,
      view: s.view,
      log: s.actions.map((action) => ({ seat: null, action })),
      drawOffer: s.draw_offer ?? null,
      takebacks: s.takebacks ?? false,
      takebackOffer: s.takeback_offer ?? null,
      result: s.result ?? null,
      series: s.series ?? null,
      started: s.to_act.length > 0 || s.result != null || s.actions.length > 0,
    };
    past.keep(s.actions.length, s.view);
    viewing = null;
    // An offer standing is sent again after the snapshot.
    rematch = null;
    drawChat();
    refresh();
    loadSeries();
  };

  // The series' score is read when the page opens and when a game ends; its result comes with
  // series_finished, or is read here when game 2 had ended before.
  const loadSeries = async () => {
    if (!m?.series) return;
    try {
      series = await app.api.get(`/api/series/${m.series.series_id}`);
    } catch {
      return;
    }
    if (!closed) drawSeries();
  };
  const scoreText = (s) => t("series.score", { first: s.players[0].name, a: s.score[0], b: s.score[1], second: s.players[1].name });
  const seriesResult = (s) => {
    if (s.status !== "finished") return null;
    if (s.winner === undefined) return t("series.drawn");
    const who = s.players[s.winner].name;
    return s.tiebreak ? t(`series.won-${s.tiebreak}`, { who }) : t("series.won", { who });
  };
  const drawSeries = () => {
    seriesLine.hidden = !m.series;
    if (!m.series) return;
    fill(seriesLine, t("series.game-of", { game: m.series.game }), series ? ` · ${scoreText(series)}` : "");
    drawBanner();
  };
  const onSeries = (msg) => {
    if (msg.match_id !== matchId || !m || closed) return;
    series = msg.series;
    drawSeries();
  };

  const onEvent = (msg) => {
    if (msg.match_id !== matchId || !m) return;
    if (msg.seq <= lastSeq) return;
    if (msg.seq !== lastSeq + 1) {
      // A gap: start again from a fresh snapshot rather than show a wrong game.
      m = null;
      watch();
      return;
    }
    lastSeq = msg.seq;
    apply(msg.event);
    refresh();
  };

  const setClocks = (clocks) => {
    if (!clocks) return;
    clocks.forEach((ms, i) => {
      m.seats[i].clockMs = ms;
    });
    m.clockAt = performance.now();
  };

  const apply = (e) => {
    switch (e.kind) {
      case "seat_taken":
        m.seats[e.seat].player = e.player;
        m.seats[e.seat].connected = true;
        break;
      case "started":
        m.started = true;
        m.toAct = e.to_act;
        setClocks(e.clocks_ms);
        break;
      case "acted":
        m.log.push({ seat: e.seat, action: e.action ?? null });
        m.view = e.view;
        past.keep(m.log.length, e.view);
        viewing = null;
        playSound(game?.captured?.(e.view) ? "capture" : "move");
        speech.say(`${seatName(m.game, e.seat)}: ${e.action ?? t("match.moved")}`);
        m.toAct = e.to_act;
        if (m.drawOffer !== null && m.drawOffer !== e.seat) m.drawOffer = null;
        // Any move makes a takeback asked for lapse.
        m.takebackOffer = null;
        setClocks(e.clocks_ms);
        break;
      case "draw_offered":
        m.drawOffer = e.seat;
        break;
      case "draw_declined":
        m.drawOffer = null;
        break;
      case "takeback_offered":
        m.takebackOffer = e.seat;
        break;
      case "takeback_declined":
        m.takebackOffer = null;
        break;
      case "taken_back":
        m.log = m.log.slice(0, e.ply);
        m.view = e.view;
        past.keep(e.ply, e.view);
        viewing = null;
        speech.say(t("match.taken-back"));
        m.toAct = e.to_act;
        m.takebackOffer = null;
        setClocks(e.clocks_ms);
        break;
      case "disconnected":
        m.seats[e.seat].connected = false;
        break;
      case "reconnected":
        m.seats[e.seat].connected = true;
        break;
      case "vacation":
        m.seats[e.seat].vacationUntil = e.until_ms;
        setClocks(e.clocks_ms);
        break;
      case "vacation_over":
        m.seats[e.seat].vacationUntil = null;
        setClocks(e.clocks_ms);
        break;
      case "finished":
        // Freeze the clocks where they stood.
        m.seats.forEach((seat, i) => {
          seat.clockMs = runningClock(i);
        });
        m.clockAt = performance.now();
        m.result = e.result;
        m.toAct = [];
        m.drawOffer = null;
        m.takebackOffer = null;
        drawChat();
        loadChat();
        loadSeries();
        break;
      default:
        break;
    }
  };

  // --- Drawing --------------------------------------------------------------------------------

  // A seat's clock as it stands now: counted down locally while it runs, which it does not while
  // its player is on vacation.
  const runningClock = (seat) => {
    const s = m.seats[seat];
    if (s.clockMs === null) return null;
    const running = m.started && !m.result && m.toAct.includes(seat) && s.vacationUntil === null;
    return running ? s.clockMs - (performance.now() - m.clockAt) : s.clockMs;
  };

  const drawClocks = () => {
    if (!m) return;
    m.seats.forEach((_, i) => {
      const node = players.querySelector(`[data-testid="clock-${i}"]`);
      const ms = runningClock(i);
      if (!node || ms === null) return;
      node.textContent = clockText(ms);
      node.classList.toggle("low", ms < LOW_TIME_MS);
      if (m.yourSeats.includes(i) && m.started && !m.result && m.toAct.includes(i)) tick(ms);
    });
  };

  const drawPlayers = () => {
    players.replaceChildren(...m.seats.map((s, i) => el("div", {
      class: `player${m.toAct.includes(i) ? " to-act" : ""}${m.yourSeats.includes(i) ? " mine" : ""}`,
      "data-testid": `player-${i}`,
    },
    el("span", { class: "side" }, seatName(m.game, i)), " ", playerLink(s.player),
    s.vacationUntil !== null
      ? el("span", { class: "muted", "data-testid": `vacation-${i}` }, ` (${t("match.on-vacation", { until: new Date(s.vacationUntil).toLocaleString() })})`)
      : null,
    // Who is away matters while the game is played; after it, nobody is told who comes and goes.
    s.player && !s.connected && s.vacationUntil === null && !m.result ? el("span", { class: "muted" }, ` (${t("match.away")})`) : null,
    s.clockMs !== null ? el("span", { class: "clock", "data-testid": `clock-${i}` }, clockText(runningClock(i))) : null)));
  };

  // "You win: the king escaped" to a player; the winners by player and side to anyone else
  // (and in a hot-seat match, where the user plays every side).
  const resultText = (r) => {
    if (r.reason === "aborted") return t("result.aborted");
    const first = winners(r);
    const player = m.yourSeats.length > 0 && m.yourSeats.length < m.seats.length;
    if (player && first.length < r.places.length) {
      return t(first.some((s) => m.yourSeats.includes(s)) ? "result.you-win" : "result.you-lose", { reason: reasonText(r.reason) });
    }
    return describeResult(m.game, r, (s) => playerAndSide(m.game, s, m.seats[s].player));
  };

  const drawBanner = () => {
    banner.hidden = !m.result;
    if (!m.result) return;
    const ratings = (m.result.ratings ?? []).map((r) => {
      const name = playerAndSide(m.game, r.seat, m.seats[r.seat].player);
      const delta = r.after - r.before;
      return el("li", { "data-testid": `rating-${r.seat}` },
        `${name}: ${Math.round(r.before)} → ${Math.round(r.after)} (${delta >= 0 ? "+" : ""}${delta.toFixed(1)})`);
    });
    const decided = m.series?.game === 2 && series ? seriesResult(series) : null;
    fill(banner,
      el("strong", { "data-testid": "result-text" }, resultText(m.result)),
      decided ? el("p", { "data-testid": "series-result" }, `${decided} · ${scoreText(series)}`) : null,
      ratings.length ? el("ul", { class: "plain" }, ratings) : null,
      el("div", {}, el("a", { href: `#/replay/${matchId}` }, t("player.replay")), " · ",
        el("a", { href: `#/analysis/match/${matchId}/${m.log.length}`, "data-testid": "analyse-link" }, t("analysis.open")), " · ",
        recordLink(matchId, app.invites.get(matchId)),
        " · ", el("a", { href: "#/" }, t("match.back-to-lobby"))),
      rematchLine(),
    );
  };

  // The rematch: to its players, the way to offer or answer it; to everyone, what stands.
  const rematchLine = () => {
    const name = (seat) => m.seats[seat].player?.name ?? seatName(m.game, seat);
    const playing = app.me && m.yourSeats.length > 0 && m.seats.every((s) => s.player);
    const r = rematch ?? {};
    if (r.started) {
      return el("div", { class: "rematch" }, el("a", { href: `#/match/${r.started}`, "data-testid": "rematch-link" }, t("rematch.watch")));
    }
    const answer = (accept) => send({ type: "answer_rematch", accept });
    let text = null;
    let buttons = [];
    if (r.agreed) {
      const agreed = m.yourSeats.every((s) => r.agreed.includes(s));
      const waiting = [...new Set(m.seats.map((_, i) => i).filter((i) => !r.agreed.includes(i)).map(name))];
      text = playing && agreed ? t("rematch.waiting", { who: listOf(waiting) }) : t("rematch.offered-by", { who: name(r.agreed[0]) });
      if (playing && agreed) buttons = [button("rematch-take-back", t("rematch.take-back"), () => answer(false), "secondary")];
      else if (playing) buttons = [button("rematch-accept", t("match.accept"), () => answer(true)), button("rematch-decline", t("match.decline"), () => answer(false), "secondary")];
    } else {
      if (r.declined !== undefined) text = t("rematch.declined", { who: name(r.declined) });
      if (r.lapsed !== undefined) text = t("rematch.lapsed", { who: name(r.lapsed) });
      if (playing && !m.yourSeats.some((s) => offeredBy.has(s))) {
        buttons = [button("rematch", t("rematch.offer"), async () => {
          const ack = await send({ type: "offer_rematch" });
          // The last agreement (against the AI, in the hot seat) opens the rematch at once.
          if (ack && !closed && ack.match_id !== matchId) {
            if (ack.invite) app.invites.set(ack.match_id, ack.invite);
            app.navigate(`#/match/${ack.match_id}`);
          }
        })];
      }
    }
    if (!text && !buttons.length) return null;
    return el("div", { class: "row rematch", "data-testid": "rematch-box" }, text ? el("span", { "data-testid": "rematch-text" }, text) : null, ...buttons);
  };

  const drawTurn = () => {
    const toPlay = (name) => t("match.to-play", { who: listOf(m.toAct.map(name)) });
    if (m.result) turn.textContent = t("match.over");
    else if (!m.started) turn.textContent = t("match.waiting-for-seats");
    else if (toActMine().length) turn.textContent = m.yourSeats.length === m.seats.length ? toPlay((s) => seatName(m.game, s)) : t("title.your-move");
    else turn.textContent = toPlay((s) => m.seats[s].player?.name ?? seatName(m.game, s));
    if (!m.yourSeats.length) turn.textContent += ` (${t("match.watching")})`;
    const code = app.invites.get(matchId);
    const waiting = m.seats.some((s) => !s.player);
    invite.hidden = !(code && waiting);
    if (code && waiting) {
      const link = `${location.origin}/#/join/${code}`;
      invite.replaceChildren(`${t("match.invite-code")} `, el("code", { "data-testid": "invite-code" }, code),
        ` ${t("match.invite-link")} `, el("a", { href: link, "data-testid": "invite-link" }, link));
    }
  };

  const drawMoves = () => {
    const items = [];
    if (game?.moveList === "pairs" && m.seats.length === 2) {
      // Numbered pairs of moves, the first mover's first.
      for (let i = 0; i < m.log.length; i += 2) {
        items.push(numberedLine(i / 2 + 1, {},
          el("span", { class: "move", "data-testid": `move-${i}` }, m.log[i].action ?? "?"), " ",
          m.log[i + 1] ? el("span", { class: "move", "data-testid": `move-${i + 1}` }, m.log[i + 1].action ?? "?") : null));
      }
    } else {
      m.log.forEach((a, i) => items.push(numberedLine(i + 1, {}, el("span", { "data-testid": `move-${i}` },
        a.seat !== null ? `${seatName(m.game, a.seat)}: ` : "", a.action ?? t("match.hidden-action")))));
    }
    moves.replaceChildren(...items);
    moves.scrollTop = moves.scrollHeight;
  };

  const button = (testid, text, onclick, cls) => {
    const b = el("button", { "data-testid": testid, class: cls });
    b.textContent = text;
    b.onclick = onclick;
    return b;
  };

  const drawControls = () => {
    const seat = actingSeat();
    const playing = m.yourSeats.length > 0 && !m.result;
    const started = m.started;
    const everyoneActed = new Set(m.log.map((a) => a.seat)).size >= m.seats.length || m.log.length >= m.seats.length;
    const list = [];
    if (playing && started) {
      // Two clicks, so that a slip does not lose the game.
      const resign = button("resign", t("match.resign"), () => {
        const sure = button("resign-confirm", t("match.resign-confirm"), () => send({ type: "resign", seat }), "danger");
        resign.replaceWith(sure);
      }, "danger");
      list.push(resign);
    }
    if (playing && started && m.drawOffer === null && m.yourSeats.length < m.seats.length) {
      list.push(button("offer-draw", t("match.offer-draw"), () => send({ type: "offer_draw", seat })));
    }
    // In a hot-seat match, the last move's seat (when known) takes back just that move.
    const asker = m.yourSeats.length === 1 ? seat : (m.log.at(-1)?.seat ?? seat);
    // A move's seat is known from its event, not from a snapshot: unknown, it may be the asker's.
    const askerMoved = m.log.some((a) => a.seat === asker || a.seat === null);
    if (playing && started && m.takebacks && m.takebackOffer === null && askerMoved) {
      list.push(button("take-back", t("match.take-back"), () => send({ type: "ask_takeback", seat: asker }), "secondary"));
    }
    if (playing && !everyoneActed) list.push(button("abort", t("match.abort"), () => send({ type: "abort", seat })));
    // In correspondence, players come and go: the clock, not their absence, ends the match.
    const opponentsAway = !m.clock?.per_move && m.seats.some((s, i) => !m.yourSeats.includes(i) && s.player && !s.connected);
    if (playing && started && opponentsAway) list.push(button("claim-win", t("match.claim-win"), () => send({ type: "claim_win", seat })));
    const toggle = game && viewToggle(game, view);
    if (toggle) list.push(button(toggle.testid, toggle.label, () => switchBoard(toggle.next).catch(fail), "secondary"));
    if (board?.setFlip) {
      list.push(button("flip-board", t("board.flip"), () => {
        flip = !flip;
        board.setFlip(flip);
      }, "secondary"));
    }
    controls.replaceChildren(...list);

    offerLine(drawBox, m.drawOffer, "draw", (who) => t("match.draw-offered", { who }), playing);
    offerLine(takebackBox, m.takebackOffer, "takeback", (who) => t("match.takeback-asked", { who }), playing);
  };

  // An open offer (`kind`: a draw, a takeback) made by seat `offering`: what it is, and to the
  // players of the other seats the way to answer it.
  const offerLine = (box, offering, kind, text, playing) => {
    const answering = offering !== null && playing ? m.yourSeats.find((s) => s !== offering) : undefined;
    const appears = box.hidden;
    box.hidden = offering === null || m.result !== null;
    if (offering === null) return;
    const who = m.seats[offering].player?.name ?? seatName(m.game, offering);
    const answer = (accept) => send({ type: `answer_${kind}`, seat: answering, accept });
    fill(box, el("span", { "data-testid": `${kind}-offer` }, text(who)),
      answering !== undefined ? button(`accept-${kind}`, t("match.accept"), () => answer(true)) : null,
      answering !== undefined ? button(`decline-${kind}`, t("match.decline"), () => answer(false), "secondary") : null);
    // Under the board on a phone: brought into view to be answered.
    if (appears && answering !== undefined) box.scrollIntoView({ block: "nearest" });
  };

  const boardState = () => (viewing !== null ? pastState() : {
    view: m.view,
    toAct: m.toAct,
    mySeats: toActMine(),
    legal: legal.seq === lastSeq && toActMine().includes(legal.seat) ? legal.actions : [],
    log: m.log,
    last: m.log.at(-1) ?? null,
    result: m.result,
  });

  // An earlier position, read-only: nothing to play, nor to premove.
  const pastState = () => ({
    view: viewed,
    toAct: [],
    mySeats: [],
    legal: [],
    log: m.log.slice(0, viewing),
    last: m.log[viewing - 1] ?? null,
    result: null,
    past: true,
  });

  // Sends a move from the board or the move box.
  const play = async (action) => {
    const seat = toActMine()[0];
    if (seat === undefined || viewing !== null) return;
    // The position is spent once a move is sent: until the server answers, nothing stays
    // movable for a second click (it would select a piece the answer then deselects).
    const spent = legal;
    legal = { seq: lastSeq, seat, actions: [] };
    board?.update(boardState());
    drawAids();
    const ack = await send({ type: "act", seat, action });
    if (!ack && lastSeq === spent.seq) {
      legal = spent;
      board?.update(boardState());
      drawAids();
    }
  };

  // Draws view `at` of the game's board.
  const switchBoard = async (at) => {
    const module = await viewModule(game, at);
    board?.destroy();
    boardBox.replaceChildren();
    const target = el("div", { class: "board" });
    boardBox.append(target);
    view = at;
    board = module.create(target, {
      game: m.game,
      variant: m.variant,
      rules: variantRules(m.game, m.variant),
      seats: m.seats.length,
      perspective: m.yourSeats.length && m.yourSeats.length < m.seats.length ? m.yourSeats[0] : null,
      flip,
      onAction: play,
    });
    board.update(boardState());
    drawControls();
  };

  // Asks the server for the legal actions of the seat we must act for, once per position.
  const fetchLegal = async () => {
    const seat = toActMine()[0];
    if (seat === undefined || (legal.seq === lastSeq && legal.seat === seat)) return;
    const asked = lastSeq;
    const ack = await send({ type: "legal", seat });
    if (ack && asked === lastSeq && m && !closed) {
      legal = { seq: asked, seat, actions: ack.actions ?? [] };
      board?.update(boardState());
      drawAids();
    }
  };

  const refresh = async () => {
    if (!m || closed) return;
    header.replaceChildren(el("h1", {}, `${gameName(m.game)} · ${m.variant}`),
      el("p", {}, rulesLink(m.game)),
      el("p", { class: "muted" }, t(m.rated ? "match.rated-clock" : "match.casual-clock", { clock: clockSpecText(m.clock) })));
    drawPlayers();
    drawClocks();
    drawTurn();
    drawBanner();
    drawMarker();
    drawAids();
    if (!board) {
      try {
        // The module first: it says how the moves are listed.
        game ??= await boardFor(m.game);
        if (!m || closed) return;
        switches.replaceChildren(settings(game.premoves && m.yourSeats.length > 0 && m.yourSeats.length < m.seats.length));
        drawMoves();
        markMoves();
        await switchBoard(0);
      } catch (e) {
        if (m) drawMoves();
        fail(e);
        return;
      }
    } else {
      drawMoves();
      markMoves();
      drawControls();
      board.update(boardState());
    }
    fetchLegal();
  };

  // --- Feel: the title, the move box, looking back -------------------------------------------

  const drawAids = () => {
    const mine = toActMine().length > 0 && m.yourSeats.length < m.seats.length;
    title.set(mine, m.log.at(-1)?.action);
    typed.update(viewing === null ? boardState().legal : [], m.yourSeats.length > 0 && !m.result);
  };

  // The moves in the list are buttons to look back; the one shown is marked.
  const MOVE = '[data-testid^="move-"]:not([data-testid="move-list"])';
  const markMoves = () => {
    moves.querySelectorAll(MOVE).forEach((node) => {
      const at = Number(node.dataset.testid.slice(5)) + 1;
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.setAttribute("aria-label", t("match.show-move", { move: at }));
      node.classList.toggle("current", at === viewing);
    });
  };

  // Shows the position after `count` moves (the game in play from the last one on).
  const lookBack = async (count) => {
    if (!m || !board) return;
    const at = Math.max(0, Math.min(count, m.log.length));
    if (at === m.log.length) {
      viewing = null;
    } else {
      const shown = await past.get(at).catch((e) => {
        fail(e);
        return null;
      });
      if (!shown || !m || at >= m.log.length) return;
      viewing = at;
      viewed = shown;
    }
    drawMarker();
    markMoves();
    drawAids();
    board.update(boardState());
  };

  const drawMarker = () => {
    marker.hidden = viewing === null;
    boardBox.classList.toggle("past", viewing !== null);
    if (viewing !== null) {
      marker.replaceChildren(
        el("span", { "data-testid": "viewing-text" },
          t("match.viewing", {
            move: viewing, moves: m.log.length,
            action: viewing ? m.log[viewing - 1].action ?? t("match.hidden-action") : t("match.the-start"),
          })),
        button("back-to-live", t("match.back-to-live"), () => lookBack(Infinity)));
    }
  };

  moves.addEventListener("click", (e) => {
    const node = e.target.closest?.(MOVE);
    if (node) lookBack(Number(node.dataset.testid.slice(5)) + 1);
  });
  const onKey = (e) => {
    if (!m || e.target.closest?.("input, select, textarea, [data-sq]")) return;
    if (e.key === "Enter" && moves.contains(e.target) && e.target.matches(MOVE)) {
      lookBack(Number(e.target.dataset.testid.slice(5)) + 1);
    } else if (viewing !== null && (e.key === "Escape" || e.key === "End")) {
      lookBack(Infinity);
    } else if (e.key === "ArrowLeft") {
      lookBack((viewing ?? m.log.length) - 1);
    } else if (e.key === "ArrowRight" && viewing !== null) {
      lookBack(viewing + 1);
    } else {
      return;
    }
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  // Our next tournament game has started: the page stays on what it shows (the result of the
  // last game, most likely) and offers the way there.
  const onRound = (msg) => {
    if (msg.match_id === matchId || closed) return;
    nextGame.hidden = false;
    fill(nextGame, `${t("match.round-begun", { round: msg.round })} `,
      button("next-round", t("match.next-round"), () => app.navigate(`#/match/${msg.match_id}`)));
  };

  const onRematch = (msg) => {
    if (msg.match_id !== matchId || !m || closed) return;
    if (msg.type === "rematch_offered") {
      rematch = { agreed: msg.agreed };
      offeredBy.add(msg.agreed[0]);
    }
    if (msg.type === "rematch_declined") rematch = { declined: msg.seat };
    if (msg.type === "rematch_lapsed") rematch = { lapsed: msg.seat };
    if (msg.type === "rematch_started") {
      rematch = { started: msg.rematch };
      // A private rematch's code, which its players are given to pass on.
      if (msg.invite) app.invites.set(msg.rematch, msg.invite);
      // Its players are taken there; anyone else may follow.
      if (m.yourSeats.length) app.navigate(`#/match/${msg.rematch}`);
    }
    drawBanner();
    // An offer to answer, where the banner may be out of sight (under the board on a phone).
    if (msg.type === "rematch_offered" && m.yourSeats.some((s) => !msg.agreed.includes(s))) banner.scrollIntoView({ block: "nearest" });
  };
  const REMATCH = ["rematch_offered", "rematch_declined", "rematch_lapsed", "rematch_started"];

  const onWatchers = (msg) => {
    if (msg.match_id !== matchId) return;
    watchers.hidden = false;
    watchers.textContent = watchersText(msg.watchers);
  };

  const onOpen = () => watch();
  const onDown = () => {
    message.textContent = "";
  };
  socket.on("snapshot", onSnapshot);
  socket.on("event", onEvent);
  socket.on("watchers", onWatchers);
  socket.on("chat", onChat);
  socket.on("open", onOpen);
  socket.on("down", onDown);
  socket.on("tournament_round", onRound);
  for (const type of REMATCH) socket.on(type, onRematch);
  socket.on("series_finished", onSeries);
  const ticker = setInterval(drawClocks, 100);
  if (socket.ready) watch();

  return () => {
    closed = true;
    title.restore();
    document.removeEventListener("keydown", onKey);
    clearInterval(ticker);
    socket.off("snapshot", onSnapshot);
    socket.off("event", onEvent);
    socket.off("watchers", onWatchers);
    socket.off("chat", onChat);
    socket.off("open", onOpen);
    socket.off("down", onDown);
    socket.off("tournament_round", onRound);
    for (const type of REMATCH) socket.off(type, onRematch);
  socket.off("series_finished", onSeries);
    board?.destroy();
    if (socket.ready) socket.send({ type: "unwatch", match_id: matchId }).catch(() => {});
  };
}
