// What follows from the match page's state (web/pages/match/state.js): the controls offered and
// the seat each acts for, the clocks as they run, the legal actions, the board's state, looking
// back.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  answeringSeat, boardState, controls, fold, initial, legalGiven, legalNow, legalRefused, lookedAt, moveSent, needsLegal,
  firstMoveLeft, playsAgainst, runningClock, toActMine,
} from "../web/pages/match/state.js";
import { MATCH, acted, anna, bert, event, snapshot } from "./fixtures.js";

const stateOf = (...messages) => messages.reduce((state, msg) => fold(state, msg, 0).state, initial(MATCH));
const matchOf = (...messages) => stateOf(...messages).match;

describe("the seats the user acts for", () => {
  it("are theirs that are to act, none once the match is over", () => {
    assert.deepEqual(toActMine(matchOf(snapshot(1, { your_seats: [0], to_act: [0] }))), [0]);
    assert.deepEqual(toActMine(matchOf(snapshot(1, { your_seats: [1], to_act: [0] }))), []);
    assert.deepEqual(toActMine(matchOf(snapshot(1, { to_act: [0], result: { places: [0, 1], reason: "resigned" } }))), []);
    assert.deepEqual(toActMine(null), []);
  });

  it("tell a player from a spectator and from the hot seat", () => {
    assert.equal(playsAgainst(matchOf(snapshot(1, { your_seats: [1] }))), true);
    assert.equal(playsAgainst(matchOf(snapshot(1, { your_seats: [] }))), false);
    assert.equal(playsAgainst(matchOf(snapshot(1, { your_seats: [0, 1] }))), false);
  });
});

describe("the controls", () => {
  it("of a player in a game under way: resign, offer a draw and claim nothing", () => {
    const c = controls(matchOf(snapshot(1, { your_seats: [1], to_act: [0], actions: ["a4-a5", "e4-e3", "a5-a6"] })));
    assert.equal(c.seat, 1);
    assert.equal(c.resign, true);
    assert.equal(c.offerDraw, true);
    assert.equal(c.abort, false);
    assert.equal(c.claimWin, false);
  });

  it("to a spectator: none", () => {
    const c = controls(matchOf(snapshot(1, { your_seats: [] })));
    assert.deepEqual([c.resign, c.offerDraw, c.takeBack, c.abort, c.claimWin], [false, false, null, false, false]);
  });

  it("once the match is over: none", () => {
    const c = controls(matchOf(snapshot(1, { to_act: [], actions: ["a4-a5"], result: { places: [0, 1], reason: "resigned" } })));
    assert.deepEqual([c.resign, c.offerDraw, c.takeBack, c.abort, c.claimWin], [false, false, null, false, false]);
  });

  it("abort only until every seat has acted", () => {
    const m = matchOf(snapshot(3), acted(4, 0, "a4-a5"));
    assert.equal(controls(m).abort, true);
    assert.equal(controls(fold({ ...initial(MATCH), seq: 4, match: m }, acted(5, 1, "e4-e3"), 0).state.match).abort, false);
  });

  it("no draw offer while one stands, nor in the hot seat", () => {
    assert.equal(controls(matchOf(snapshot(3), event(4, { kind: "draw_offered", seat: 1 }))).offerDraw, false);
    assert.equal(controls(matchOf(snapshot(3, { your_seats: [0, 1] }))).offerDraw, false);
  });

  it("take back once the asker has moved, when takebacks are allowed and none is asked", () => {
    assert.equal(controls(matchOf(snapshot(3))).takeBack, null);
    assert.equal(controls(matchOf(snapshot(3), acted(4, 0, "a4-a5"))).takeBack, 0);
    assert.equal(controls(matchOf(snapshot(3, { takebacks: false }), acted(4, 0, "a4-a5"))).takeBack, null);
    assert.equal(controls(matchOf(snapshot(3), acted(4, 0, "a4-a5"), event(5, { kind: "takeback_offered", seat: 0 }))).takeBack, null);
    // The opponent's move alone is not the user's to take back.
    assert.equal(controls(matchOf(snapshot(3, { your_seats: [1], to_act: [0] }), acted(4, 0, "a4-a5"))).takeBack, null);
  });

  it("take back a move of the snapshot, whose seat is unknown", () => {
    assert.equal(controls(matchOf(snapshot(3, { your_seats: [1], actions: ["a4-a5", "e4-e3"] }))).takeBack, 1);
  });

  it("in the hot seat, take back the last move's seat", () => {
    const m = matchOf(snapshot(3, { your_seats: [0, 1] }), acted(4, 0, "a4-a5"), acted(5, 1, "e4-e3"));
    assert.equal(controls(m).takeBack, 1);
    // The seat to act acts for the other controls.
    assert.equal(controls(m).seat, 0);
  });

  it("claim the win while an opponent is away, but not in correspondence", () => {
    const away = [snapshot(3), event(4, { kind: "disconnected", seat: 1 })];
    assert.equal(controls(matchOf(...away)).claimWin, true);
    assert.equal(controls(matchOf(snapshot(3), event(4, { kind: "disconnected", seat: 0 }))).claimWin, false);
    const slow = snapshot(3, { clock: { base_ms: 86400000, increment_ms: 0, per_move: true } });
    assert.equal(controls(matchOf(slow, away[1])).claimWin, false);
  });

  it("answer an offer of the other seat, not one's own, nor as a spectator", () => {
    const m = matchOf(snapshot(3, { your_seats: [0] }));
    assert.equal(answeringSeat(m, 1), 0);
    assert.equal(answeringSeat(m, 0), undefined);
    assert.equal(answeringSeat(m, null), undefined);
    assert.equal(answeringSeat(matchOf(snapshot(3, { your_seats: [] })), 1), undefined);
  });
});

describe("a running clock", () => {
  it("counts down the seat to act from the event that set it", () => {
    const m = fold(initial(MATCH), snapshot(3), 1000).state.match;
    assert.equal(runningClock(m, 0, 4000), 297000);
    assert.equal(runningClock(m, 1, 4000), 300000);
  });

  it("stands before the start, after the end and on vacation", () => {
    const waiting = fold(initial(MATCH), snapshot(1, { to_act: [] }), 0).state.match;
    assert.equal(runningClock({ ...waiting, toAct: [0] }, 0, 5000), 300000);
    const done = { ...matchOf(snapshot(3)), result: { places: [0, 1], reason: "resigned" } };
    assert.equal(runningClock(done, 0, 5000), 300000);
    const away = matchOf(snapshot(3, { seats: [{ player: anna, connected: true, clock_ms: 300000, vacation_until_ms: 5e12 }, { player: bert, connected: true, clock_ms: 300000 }] }));
    assert.equal(runningClock(away, 0, 5000), 300000);
  });

  it("stands still until its seat's first move, while the time for that move runs", () => {
    const seats = [{ player: anna, connected: true, clock_ms: 300000, first_move_ms: 30000 }, { player: bert, connected: true, clock_ms: 300000, first_move_ms: 30000 }];
    const m = fold(initial(MATCH), snapshot(1, { seats, to_act: [0], actions: [] }), 1000).state.match;
    assert.equal(runningClock(m, 0, 6000), 300000);
    assert.equal(firstMoveLeft(m, 0, 6000), 25000);
    assert.equal(firstMoveLeft(m, 0, 99000), 0);
    // The seat not to act: its time for its first move waits too.
    assert.equal(firstMoveLeft(m, 1, 6000), 30000);
    // Once the first move is made, the event says so, and the clock runs from the next turn.
    const moved = fold({ ...initial(MATCH), seq: 1, match: m }, event(2, { kind: "acted", seat: 0, action: "a4-a5", view: {}, to_act: [1], clocks_ms: [300000, 300000], first_move_ms: [null, 30000] }), 7000).state.match;
    assert.equal(firstMoveLeft(moved, 0, 9000), null);
    assert.equal(firstMoveLeft(moved, 1, 9000), 28000);
    assert.equal(runningClock(moved, 1, 9000), 300000);
    const both = fold({ ...initial(MATCH), seq: 2, match: moved }, event(3, { kind: "acted", seat: 1, action: "e4-e3", view: {}, to_act: [0], clocks_ms: [300000, 300000] }), 9000).state.match;
    assert.deepEqual([firstMoveLeft(both, 0, 10000), firstMoveLeft(both, 1, 10000)], [null, null]);
    assert.equal(runningClock(both, 0, 10000), 299000);
  });

  it("is null without a clock", () => {
    const m = matchOf(snapshot(3, { clock: null, seats: [{ player: anna, connected: true }, { player: bert, connected: true }] }));
    assert.equal(runningClock(m, 0, 5000), null);
  });
});

describe("the legal actions", () => {
  it("are asked for once a position, for a seat to act", () => {
    const state = stateOf(snapshot(3));
    assert.equal(needsLegal(state, 0), true);
    assert.equal(needsLegal(state, undefined), false);
    const given = legalGiven(state, 3, 0, ["a4-a5"]);
    assert.equal(needsLegal(given, 0), false);
    assert.deepEqual(legalNow(given), ["a4-a5"]);
    // The next position wants them again, and the old ones are not offered.
    const moved = fold(given, acted(4, 0, "a4-a5"), 0).state;
    assert.deepEqual(legalNow(moved), []);
  });

  it("are spent once a move is sent, and given back if it is refused in the same position", () => {
    const given = legalGiven(stateOf(snapshot(3)), 3, 0, ["a4-a5", "a4-a6"]);
    const sent = moveSent(given, 0);
    assert.deepEqual(legalNow(sent), []);
    assert.deepEqual(legalNow(legalRefused(sent, given.legal)), ["a4-a5", "a4-a6"]);
    const movedOn = fold(sent, acted(4, 0, "a4-a5"), 0).state;
    assert.equal(legalRefused(movedOn, given.legal), movedOn);
  });
});

describe("the board's state", () => {
  it("is the game in play, with the legal actions of the seat to act", () => {
    const state = legalGiven(stateOf(snapshot(3), acted(4, 1, "e4-e3")), 4, 0, ["a4-a5"]);
    const b = boardState(state);
    assert.deepEqual(b.view, { after: "e4-e3" });
    assert.deepEqual(b.mySeats, [0]);
    assert.deepEqual(b.legal, ["a4-a5"]);
    assert.deepEqual(b.last, { seat: 1, action: "e4-e3" });
    assert.equal(b.past, undefined);
  });

  it("is an earlier position, read-only, while the user looks back", () => {
    const state = legalGiven(stateOf(snapshot(3, { actions: ["a4-a5", "e4-e3", "a5-a6"] })), 3, 0, ["a6-a7"]);
    const back = lookedAt(state, 1, { earlier: true });
    const b = boardState(back);
    assert.deepEqual(b.view, { earlier: true });
    assert.deepEqual([b.toAct, b.mySeats, b.legal], [[], [], []]);
    assert.deepEqual(b.log, [{ seat: null, action: "a4-a5" }]);
    assert.deepEqual(b.last, { seat: null, action: "a4-a5" });
    assert.equal(b.past, true);
    assert.equal(boardState(lookedAt(state, 0, { start: true })).last, null);
    // The last move on is the game in play.
    assert.equal(lookedAt(back, 3, null).look, null);
  });
});
