// The match page's state and its fold: what the page knows of its match, made from the socket's
// messages (a snapshot, then numbered events; rematch, series and watcher messages beside them)
// and from the page's own doings (the legal actions asked for, an earlier position looked at).
// Pure: no DOM, no socket, no clock; callers pass `now` (ms, any steady clock). The views draw
// from it, and the Node tests (web-tests/) check every rule of it without a browser.
//
// A state is never changed: every function returns a new one (or the same, when nothing changed).
//
//   matchId   the match the page shows
//   seq       the number of the last event folded in
//   match     everything known about the match, null until the first snapshot (and again after a
//             gap in the events, until the fresh snapshot asked for comes)
//   legal     the legal actions of the seat the user acts for, as last asked: {seq, seat, actions}
//   look      the earlier position looked at ({at: the moves before it, view}), null for the game
//             in play
//   rematch   the rematch, once the match is over, as the server last told it: offered
//             ({agreed}), declined or lapsed ({declined} or {lapsed}: the seat), or started
//             ({started}: the match)
//   offeredBy the seats whose player offered a rematch: each player offers once
//   series    a game of a two-game match: the series as last read or told
//   watchers  how many spectators follow the match, once the server said

export function initial(matchId) {
  return {
    matchId, seq: 0, match: null, legal: { seq: -1, seat: null, actions: [] }, look: null,
    rematch: null, offeredBy: [], series: null, watchers: null,
  };
}

// A message from the socket folded in. Returns the new state and what happened, for the page to
// act on: "snapshot"; "gap" (events were missed: the page watches again, without `since`, for a
// fresh snapshot); an event's kind ("acted", "finished", ...); a rematch message's type;
// "series"; "watchers"; or null when the message is not for this page or already seen.
export function fold(state, msg, now) {
  const nothing = { state, happened: null };
  if (msg.match_id !== state.matchId) return nothing;
  switch (msg.type) {
    case "snapshot":
      return { state: fromSnapshot(state, msg, now), happened: "snapshot" };
    case "event": {
      if (!state.match || msg.seq <= state.seq) return nothing;
      // A gap: start again from a fresh snapshot rather than show a wrong game.
      if (msg.seq !== state.seq + 1) return { state: { ...state, match: null }, happened: "gap" };
      return { state: applyEvent({ ...state, seq: msg.seq }, msg.event, now), happened: msg.event.kind };
    }
    case "watchers":
      return { state: { ...state, watchers: msg.watchers }, happened: "watchers" };
    case "series_finished":
      if (!state.match) return nothing;
      return { state: { ...state, series: msg.series }, happened: "series" };
    case "rematch_offered":
    case "rematch_declined":
    case "rematch_lapsed":
    case "rematch_started":
      if (!state.match) return nothing;
      return { state: rematchTold(state, msg), happened: msg.type };
    default:
      return nothing;
  }
}

function fromSnapshot(state, msg, now) {
  const s = msg.snapshot;
  const match = {
    game: s.game,
    variant: s.variant,
    rated: s.rated,
    clock: s.clock ?? null,
    seats: s.seats.map((seat) => ({
      player: seat.player ?? null, connected: seat.connected, clockMs: seat.clock_ms ?? null, vacationUntil: seat.vacation_until_ms ?? null,
      firstMoveMs: seat.first_move_ms ?? null,
    })),
    clockAt: now,
    yourSeats: s.your_seats,
    toAct: s.to_act,
    view: s.view,
    // A move's seat is known from its event, not from a snapshot.
    log: s.actions.map((action) => ({ seat: null, action })),
    drawOffer: s.draw_offer ?? null,
    takebacks: s.takebacks ?? false,
    takebackOffer: s.takeback_offer ?? null,
    result: s.result ?? null,
    series: s.series ?? null,
    // A tournament's game, which has no rematch.
    tournament: s.tournament ?? false,
    started: s.to_act.length > 0 || s.result != null || s.actions.length > 0,
  };
  // An offer of a rematch still standing is sent again after the snapshot.
  return { ...state, seq: msg.seq, match, look: null, rematch: null };
}

// One seat's part of the match changed.
function withSeat(match, seat, change) {
  return { ...match, seats: match.seats.map((s, i) => (i === seat ? { ...s, ...change } : s)) };
}

// The clocks as an event gives them (none: as they were), counted from now, with each seat's time
// left for its first move while its clock has not started (`firstMoves`, absent once every clock
// has).
function withClocks(match, clocks, now, firstMoves) {
  if (!clocks) return match;
  const seats = match.seats.map((s, i) => ({ ...s, clockMs: clocks[i], firstMoveMs: firstMoves?.[i] ?? null }));
  return { ...match, seats, clockAt: now };
}

function applyEvent(state, e, now) {
  const m = state.match;
  const set = (match) => ({ ...state, match });
  switch (e.kind) {
    case "seat_taken":
      return set(withSeat(m, e.seat, { player: e.player, connected: true }));
    case "started":
      return set(withClocks({ ...m, started: true, toAct: e.to_act }, e.clocks_ms, now, e.first_move_ms));
    case "acted": {
      const match = {
        ...m,
        log: [...m.log, { seat: e.seat, action: e.action ?? null }],
        view: e.view,
        toAct: e.to_act,
        // A move answers a draw offered by another seat; the mover's own offer stands.
        drawOffer: m.drawOffer !== e.seat ? null : m.drawOffer,
        // Any move makes a takeback asked for lapse.
        takebackOffer: null,
      };
      return { ...set(withClocks(match, e.clocks_ms, now, e.first_move_ms)), look: null };
    }
    case "draw_offered":
      return set({ ...m, drawOffer: e.seat });
    case "draw_declined":
      return set({ ...m, drawOffer: null });
    case "takeback_offered":
      return set({ ...m, takebackOffer: e.seat });
    case "takeback_declined":
      return set({ ...m, takebackOffer: null });
    case "taken_back": {
      const match = { ...m, log: m.log.slice(0, e.ply), view: e.view, toAct: e.to_act, takebackOffer: null };
      return { ...set(withClocks(match, e.clocks_ms, now, e.first_move_ms)), look: null };
    }
    case "disconnected":
      return set(withSeat(m, e.seat, { connected: false }));
    case "reconnected":
      return set(withSeat(m, e.seat, { connected: true }));
    case "vacation":
      return set(withClocks(withSeat(m, e.seat, { vacationUntil: e.until_ms }), e.clocks_ms, now, firstMovesOf(m)));
    case "vacation_over":
      return set(withClocks(withSeat(m, e.seat, { vacationUntil: null }), e.clocks_ms, now, firstMovesOf(m)));
    case "finished": {
      // The clocks stop where they stood.
      const seats = m.seats.map((s, i) => ({ ...s, clockMs: runningClock(m, i, now), firstMoveMs: null }));
      return set({ ...m, seats, clockAt: now, result: e.result, toAct: [], drawOffer: null, takebackOffer: null });
    }
    default:
      return state;
  }
}

function rematchTold(state, msg) {
  switch (msg.type) {
    case "rematch_offered":
      return {
        ...state,
        rematch: { agreed: msg.agreed },
        offeredBy: state.offeredBy.includes(msg.agreed[0]) ? state.offeredBy : [...state.offeredBy, msg.agreed[0]],
      };
    case "rematch_declined":
      return { ...state, rematch: { declined: msg.seat } };
    case "rematch_lapsed":
      return { ...state, rematch: { lapsed: msg.seat } };
    default:
      return { ...state, rematch: { started: msg.rematch } };
  }
}

// The series as read over REST.
export function seriesRead(state, series) {
  return { ...state, series };
}

// --- The page's own doings ------------------------------------------------------------------

// The legal actions the server gave for `seat` in the position after event `seq`.
export function legalGiven(state, seq, seat, actions) {
  return { ...state, legal: { seq, seat, actions } };
}

// A move is sent for `seat`: the position is spent, so that nothing stays movable for a second
// click until the server answers. `legalRefused(state, spent)` gives the actions back when the
// move was refused and the position has not moved on (else it returns the state as it is).
export function moveSent(state, seat) {
  return { ...state, legal: { seq: state.seq, seat, actions: [] } };
}

export function legalRefused(state, spent) {
  return state.seq === spent.seq ? { ...state, legal: spent } : state;
}

// Whether the legal actions of `seat` must be asked for: not yet asked in this position.
export function needsLegal(state, seat) {
  return seat !== undefined && !(state.legal.seq === state.seq && state.legal.seat === seat);
}

// An earlier position shown: after `at` moves (the game in play from the last move on).
export function lookedAt(state, at, view) {
  return { ...state, look: at >= state.match.log.length ? null : { at, view } };
}

// --- What follows from the state ------------------------------------------------------------

// The seats the user holds that are to act now.
export function toActMine(m) {
  return m && !m.result ? m.toAct.filter((s) => m.yourSeats.includes(s)) : [];
}

// The seat a control acts for: the one to act when it is ours (a hot-seat match holds every
// seat), else the first we hold.
export function actingSeat(m) {
  return toActMine(m)[0] ?? m.yourSeats[0];
}

// The user plays against others: seated, but not in every seat (a hot-seat match).
export function playsAgainst(m) {
  return m.yourSeats.length > 0 && m.yourSeats.length < m.seats.length;
}

// Each seat's time left for its first move, as last told (a vacation's event leaves it as it was).
function firstMovesOf(m) {
  return m.seats.map((s) => s.firstMoveMs);
}

// Whether a seat's time counts down now: it is to act in a game in play, its player not on
// vacation.
function counts(m, seat) {
  return m.started && !m.result && m.toAct.includes(seat) && m.seats[seat].vacationUntil === null;
}

// A seat's clock as it stands at `now`: counted down while it runs, which it does not while its
// player is on vacation, nor before its first move (a clock starts with it). Null for a match
// without a clock.
export function runningClock(m, seat, now) {
  const s = m.seats[seat];
  if (s.clockMs === null) return null;
  const runs = counts(m, seat) && s.firstMoveMs === null;
  return runs ? s.clockMs - (now - m.clockAt) : s.clockMs;
}

// Until a seat's clock starts, the time it has left for its first move as it stands at `now`
// (counted down while it is to act); null once its clock has started.
export function firstMoveLeft(m, seat, now) {
  const left = m.seats[seat].firstMoveMs;
  if (left === null) return null;
  return counts(m, seat) ? Math.max(0, left - (now - m.clockAt)) : left;
}

// The legal actions the board and the move box may offer now.
export function legalNow(state) {
  const { legal } = state;
  return legal.seq === state.seq && toActMine(state.match).includes(legal.seat) ? legal.actions : [];
}

// What the board is given to draw (see boards/index.js): the game in play, or an earlier
// position, read-only: nothing to play, nor to premove.
export function boardState(state) {
  const m = state.match;
  if (state.look) {
    const { at, view } = state.look;
    return { view, toAct: [], mySeats: [], legal: [], log: m.log.slice(0, at), last: m.log[at - 1] ?? null, result: null, past: true };
  }
  return { view: m.view, toAct: m.toAct, mySeats: toActMine(m), legal: legalNow(state), log: m.log, last: m.log.at(-1) ?? null, result: m.result };
}

// The controls the user is offered, and the seat each acts for: resign, offer a draw, take back
// (`takeBack`: the seat asking, or null), abort (before every seat has acted) and claim the win
// (an opponent away, but in correspondence, where the clock ends the match).
export function controls(m) {
  const seat = actingSeat(m);
  const playing = m.yourSeats.length > 0 && !m.result;
  const live = playing && m.started;
  const everyoneActed = new Set(m.log.map((a) => a.seat)).size >= m.seats.length || m.log.length >= m.seats.length;
  // In a hot-seat match, the last move's seat (when known) takes back just that move.
  const asker = m.yourSeats.length === 1 ? seat : (m.log.at(-1)?.seat ?? seat);
  // A move's seat unknown (from a snapshot) may be the asker's.
  const askerMoved = m.log.some((a) => a.seat === asker || a.seat === null);
  const opponentsAway = !m.clock?.per_move && m.seats.some((s, i) => !m.yourSeats.includes(i) && s.player && !s.connected);
  return {
    seat,
    resign: live,
    offerDraw: live && m.drawOffer === null && m.yourSeats.length < m.seats.length,
    takeBack: live && m.takebacks && m.takebackOffer === null && askerMoved ? asker : null,
    abort: playing && !everyoneActed,
    claimWin: live && opponentsAway,
  };
}

// The seat of ours that answers an offer (a draw, a takeback) made by seat `offering`, or
// undefined when we do not answer it.
export function answeringSeat(m, offering) {
  const playing = m.yourSeats.length > 0 && !m.result;
  return offering !== null && playing ? m.yourSeats.find((s) => s !== offering) : undefined;
}
