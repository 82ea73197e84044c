// The match page's fold (web/pages/match/state.js): snapshots and numbered events made into the
// page's state, as the server's messages come, in and out of order.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fold, initial, seriesRead } from "../web/pages/match/state.js";
import { MATCH, acted, anna, bert, event, snapshot } from "./fixtures.js";

// Folds messages in turn, each at its time (`[msg, now]`, or a message at time 0).
function run(...messages) {
  let state = initial(MATCH);
  const happened = [];
  for (const item of messages) {
    const [msg, now] = Array.isArray(item) ? item : [item, 0];
    const out = fold(state, msg, now);
    state = out.state;
    happened.push(out.happened);
  }
  return { state, happened };
}

describe("a snapshot", () => {
  it("makes the match from nothing", () => {
    const { state, happened } = run([snapshot(4, { actions: ["a4-a5", "e4-e3"], to_act: [0] }), 1000]);
    assert.deepEqual(happened, ["snapshot"]);
    assert.equal(state.seq, 4);
    const m = state.match;
    assert.equal(m.game, "tafl");
    assert.deepEqual(m.log, [{ seat: null, action: "a4-a5" }, { seat: null, action: "e4-e3" }]);
    assert.deepEqual(m.seats.map((s) => [s.player.name, s.connected, s.clockMs, s.vacationUntil]), [["anna", true, 300000, null], ["bert", true, 300000, null]]);
    assert.equal(m.clockAt, 1000);
    assert.equal(m.started, true);
    assert.equal(m.drawOffer, null);
    assert.equal(m.result, null);
  });

  it("of a match waiting for players is not started", () => {
    const { state } = run(snapshot(1, { to_act: [], seats: [{ player: anna, connected: true }, { connected: false }] }));
    assert.equal(state.match.started, false);
    assert.equal(state.match.seats[1].player, null);
    assert.equal(state.match.seats[1].clockMs, null);
  });

  it("of a finished match counts as started, with its result", () => {
    const result = { places: [0, 1], reason: "resigned" };
    const { state } = run(snapshot(9, { to_act: [], result }));
    assert.equal(state.match.started, true);
    assert.deepEqual(state.match.result, result);
  });

  it("for another match changes nothing", () => {
    const before = initial(MATCH);
    const out = fold(before, { ...snapshot(3), match_id: MATCH + 1 }, 0);
    assert.equal(out.state, before);
    assert.equal(out.happened, null);
  });

  it("replaces the match, drops a rematch told before and returns to the game in play", () => {
    const start = run(snapshot(2, { to_act: [], result: { places: [0, 1], reason: "resigned" } }),
      { type: "rematch_offered", match_id: MATCH, agreed: [1] }).state;
    const looked = { ...start, look: { at: 0, view: {} } };
    const { state } = fold(looked, snapshot(5, { actions: ["a4-a5"] }), 0);
    assert.equal(state.rematch, null);
    assert.equal(state.look, null);
    assert.equal(state.seq, 5);
    assert.equal(state.match.log.length, 1);
    // Who offered is remembered: each player offers once.
    assert.deepEqual(state.offeredBy, [1]);
  });
});

describe("numbered events", () => {
  it("are ignored before the first snapshot", () => {
    const { state, happened } = run(acted(1, 0, "a4-a5"));
    assert.deepEqual(happened, [null]);
    assert.equal(state.match, null);
    assert.equal(state.seq, 0);
  });

  it("fold in one after another", () => {
    const { state, happened } = run(snapshot(3), acted(4, 0, "a4-a5"), acted(5, 1, "e4-e3"));
    assert.deepEqual(happened, ["snapshot", "acted", "acted"]);
    assert.equal(state.seq, 5);
    assert.deepEqual(state.match.log, [{ seat: 0, action: "a4-a5" }, { seat: 1, action: "e4-e3" }]);
    assert.deepEqual(state.match.view, { after: "e4-e3" });
    assert.deepEqual(state.match.toAct, [0]);
  });

  it("already seen (a resume that repeats them) change nothing", () => {
    const once = run(snapshot(3), acted(4, 0, "a4-a5")).state;
    for (const seq of [4, 3, 1]) {
      const out = fold(once, acted(seq, 0, "a4-a5"), 0);
      assert.equal(out.state, once, `seq ${seq}`);
      assert.equal(out.happened, null);
    }
  });

  it("after a gap drop the match, for a fresh snapshot", () => {
    const { state, happened } = run(snapshot(3), acted(5, 1, "e4-e3"));
    assert.deepEqual(happened, ["snapshot", "gap"]);
    assert.equal(state.match, null);
    // The last event seen stays, and later events wait for the snapshot.
    assert.equal(state.seq, 3);
    assert.equal(fold(state, acted(6, 0, "a4-a5"), 0).happened, null);
  });

  it("of another match are not this page's", () => {
    const { state, happened } = run(snapshot(3), event(4, { kind: "draw_offered", seat: 1 }, MATCH + 1));
    assert.deepEqual(happened, ["snapshot", null]);
    assert.equal(state.seq, 3);
    assert.equal(state.match.drawOffer, null);
  });

  it("of a kind this client does not know still count", () => {
    const { state, happened } = run(snapshot(3), event(4, { kind: "something_new" }));
    assert.deepEqual(happened, ["snapshot", "something_new"]);
    assert.equal(state.seq, 4);
  });

  it("never change the state they fold", () => {
    const before = run(snapshot(3)).state;
    const copy = structuredClone(before);
    fold(before, acted(4, 0, "a4-a5", [290000, 300000]), 5000);
    fold(before, event(4, { kind: "disconnected", seat: 1 }), 0);
    assert.deepEqual(before, copy);
  });
});

describe("seats", () => {
  it("are taken, and the match starts with its clocks", () => {
    const { state } = run(
      [snapshot(1, { to_act: [], seats: [{ player: anna, connected: true, clock_ms: 60000 }, { connected: false, clock_ms: 60000 }] }), 0],
      event(2, { kind: "seat_taken", seat: 1, player: bert }),
      [event(3, { kind: "started", to_act: [0], clocks_ms: [59000, 60000] }), 700],
    );
    assert.deepEqual(state.match.seats[1].player, bert);
    assert.equal(state.match.seats[1].connected, true);
    assert.equal(state.match.started, true);
    assert.deepEqual(state.match.toAct, [0]);
    assert.equal(state.match.seats[0].clockMs, 59000);
    assert.equal(state.match.clockAt, 700);
  });

  it("go away and come back", () => {
    const away = run(snapshot(3), event(4, { kind: "disconnected", seat: 1 })).state;
    assert.equal(away.match.seats[1].connected, false);
    assert.equal(away.match.seats[0].connected, true);
    const back = fold(away, event(5, { kind: "reconnected", seat: 1 }), 0).state;
    assert.equal(back.match.seats[1].connected, true);
  });

  it("go on vacation, which sets the clocks, and come back", () => {
    const { state } = run(snapshot(3, { clock: { base_ms: 86400000, increment_ms: 0, per_move: true } }),
      [event(4, { kind: "vacation", seat: 1, until_ms: 5e12, clocks_ms: [86400000, 80000000] }), 300]);
    assert.equal(state.match.seats[1].vacationUntil, 5e12);
    assert.equal(state.match.seats[1].clockMs, 80000000);
    assert.equal(state.match.clockAt, 300);
    const over = fold(state, event(5, { kind: "vacation_over", seat: 1 }), 900).state;
    assert.equal(over.match.seats[1].vacationUntil, null);
    // No clocks in the event: they stand as they were.
    assert.equal(over.match.seats[1].clockMs, 80000000);
    assert.equal(over.match.clockAt, 300);
  });
});

describe("moves", () => {
  it("set the clocks as the event gives them, counted from its arrival", () => {
    const { state } = run([snapshot(3), 0], [acted(4, 0, "a4-a5", [297000, 300000]), 2500]);
    assert.deepEqual(state.match.seats.map((s) => s.clockMs), [297000, 300000]);
    assert.equal(state.match.clockAt, 2500);
  });

  it("keep a hidden action as null", () => {
    const { state } = run(snapshot(3), event(4, { kind: "acted", seat: 1, view: {}, to_act: [0] }));
    assert.deepEqual(state.match.log, [{ seat: 1, action: null }]);
  });

  it("answer another seat's draw offer but keep the mover's own", () => {
    const offered = run(snapshot(3), event(4, { kind: "draw_offered", seat: 1 })).state;
    assert.equal(offered.match.drawOffer, 1);
    assert.equal(fold(offered, acted(5, 1, "e4-e3"), 0).state.match.drawOffer, 1);
    assert.equal(fold(offered, acted(5, 0, "a4-a5"), 0).state.match.drawOffer, null);
  });

  it("make a takeback asked for lapse", () => {
    const { state } = run(snapshot(3), event(4, { kind: "takeback_offered", seat: 1 }), acted(5, 0, "a4-a5"));
    assert.equal(state.match.takebackOffer, null);
  });

  it("return to the game in play from an earlier position", () => {
    const before = run(snapshot(3, { actions: ["a4-a5"] })).state;
    const looking = { ...before, look: { at: 0, view: { position: "start" } } };
    assert.equal(fold(looking, acted(4, 1, "e4-e3"), 0).state.look, null);
  });
});

describe("offers", () => {
  it("of a draw stand until declined", () => {
    const { state, happened } = run(snapshot(3), event(4, { kind: "draw_offered", seat: 0 }), event(5, { kind: "draw_declined", seat: 1 }));
    assert.deepEqual(happened.slice(1), ["draw_offered", "draw_declined"]);
    assert.equal(state.match.drawOffer, null);
  });

  it("of a takeback stand until declined", () => {
    const asked = run(snapshot(3), event(4, { kind: "takeback_offered", seat: 0 })).state;
    assert.equal(asked.match.takebackOffer, 0);
    assert.equal(fold(asked, event(5, { kind: "takeback_declined", seat: 1 }), 0).state.match.takebackOffer, null);
  });

  it("of a takeback, accepted, cut the log and set the position, the turn and the clocks", () => {
    const { state, happened } = run(snapshot(3), acted(4, 0, "a4-a5"), acted(5, 1, "e4-e3"),
      event(6, { kind: "takeback_offered", seat: 0 }),
      [event(7, { kind: "taken_back", ply: 1, view: { after: "a4-a5" }, to_act: [1], clocks_ms: [280000, 290000] }), 4000]);
    assert.equal(happened.at(-1), "taken_back");
    assert.deepEqual(state.match.log, [{ seat: 0, action: "a4-a5" }]);
    assert.deepEqual(state.match.view, { after: "a4-a5" });
    assert.deepEqual(state.match.toAct, [1]);
    assert.equal(state.match.takebackOffer, null);
    assert.equal(state.match.seats[1].clockMs, 290000);
    assert.equal(state.match.clockAt, 4000);
  });
});

describe("the result", () => {
  it("ends the turn and the offers and stops the clocks where they stood", () => {
    const result = { places: [1, 0], reason: "timeout" };
    const { state } = run([snapshot(3), 0], event(4, { kind: "draw_offered", seat: 1 }),
      [event(5, { kind: "finished", result }), 1500]);
    const m = state.match;
    assert.deepEqual(m.result, result);
    assert.deepEqual(m.toAct, []);
    assert.equal(m.drawOffer, null);
    assert.equal(m.takebackOffer, null);
    // Seat 0 was to act: its clock ran for 1.5 s; seat 1's stood.
    assert.deepEqual(m.seats.map((s) => s.clockMs), [298500, 300000]);
    assert.equal(m.clockAt, 1500);
  });

  it("of a match without a clock leaves no clock", () => {
    const { state } = run(snapshot(3, { clock: null, seats: [{ player: anna, connected: true }, { player: bert, connected: true }] }),
      event(4, { kind: "finished", result: { places: [0, 0], reason: "repetition" } }));
    assert.deepEqual(state.match.seats.map((s) => s.clockMs), [null, null]);
  });
});

describe("rematches", () => {
  const over = () => run(snapshot(9, { to_act: [], result: { places: [0, 1], reason: "resigned" } })).state;

  it("are offered, each player once", () => {
    let state = over();
    state = fold(state, { type: "rematch_offered", match_id: MATCH, agreed: [1] }, 0).state;
    assert.deepEqual(state.rematch, { agreed: [1] });
    state = fold(state, { type: "rematch_offered", match_id: MATCH, agreed: [1] }, 0).state;
    assert.deepEqual(state.offeredBy, [1]);
  });

  it("are declined, lapse and start", () => {
    const told = (msg) => fold(over(), { match_id: MATCH, ...msg }, 0);
    assert.deepEqual(told({ type: "rematch_declined", seat: 0 }).state.rematch, { declined: 0 });
    assert.deepEqual(told({ type: "rematch_lapsed", seat: 1 }).state.rematch, { lapsed: 1 });
    const started = told({ type: "rematch_started", rematch: 12 });
    assert.deepEqual(started.state.rematch, { started: 12 });
    assert.equal(started.happened, "rematch_started");
  });

  it("are not folded before the match is known", () => {
    const out = fold(initial(MATCH), { type: "rematch_offered", match_id: MATCH, agreed: [0] }, 0);
    assert.equal(out.happened, null);
    assert.equal(out.state.rematch, null);
  });
});

describe("the series and the watchers", () => {
  it("take the series as told or read", () => {
    const series = { series_id: 3, status: "finished", score: [1, 1], players: [anna, bert] };
    const state = run(snapshot(3, { series: { series_id: 3, game: 2 } })).state;
    assert.deepEqual(state.match.series, { series_id: 3, game: 2 });
    const told = fold(state, { type: "series_finished", match_id: MATCH, series }, 0);
    assert.equal(told.happened, "series");
    assert.deepEqual(told.state.series, series);
    assert.deepEqual(seriesRead(state, series).series, series);
  });

  it("count the watchers, even before the snapshot", () => {
    const { state, happened } = run({ type: "watchers", match_id: MATCH, watchers: 3 });
    assert.deepEqual(happened, ["watchers"]);
    assert.equal(state.watchers, 3);
  });
});
