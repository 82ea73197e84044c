// The match page's move list and looking back (web/pages/match/moves.js), the move box's reading
// of a typed move (move-box.js), and the switch between a board's views (boards/index.js).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import "./messages.js";
import { lookKey, moveLines } from "../web/pages/match/moves.js";
import { typedAction } from "../web/pages/match/move-box.js";
import { viewToggle } from "../web/boards/index.js";

const log = [{ seat: 0, action: "a4-a5" }, { seat: 1, action: null }, { seat: 0, action: "d7-d6" }];

describe("the move list", () => {
  it("numbers every move when not listed in pairs", () => {
    const lines = moveLines(log, false);
    assert.deepEqual(lines.map((l) => l.n), [1, 2, 3]);
    assert.deepEqual(lines[1].moves, [{ index: 1, seat: 1, action: null }]);
  });

  it("numbers pairs, the first mover's move first, the last pair maybe half", () => {
    const lines = moveLines(log, true);
    assert.deepEqual(lines.map((l) => [l.n, l.moves.map((a) => a.index)]), [[1, [0, 1]], [2, [2]]]);
    assert.equal(lines[1].moves[0].action, "d7-d6");
  });

  it("is empty before the first move", () => {
    assert.deepEqual(moveLines([], true), []);
    assert.deepEqual(moveLines([], false), []);
  });
});

describe("looking back with the keys", () => {
  it("goes a move back from the game in play, or from the position shown", () => {
    assert.equal(lookKey("ArrowLeft", null, 9), 8);
    assert.equal(lookKey("ArrowLeft", 4, 9), 3);
  });

  it("goes a move on, and back to the game, only while looking back", () => {
    assert.equal(lookKey("ArrowRight", 4, 9), 5);
    assert.equal(lookKey("ArrowRight", null, 9), null);
    assert.equal(lookKey("Escape", 4, 9), Infinity);
    assert.equal(lookKey("End", 0, 9), Infinity);
    assert.equal(lookKey("Escape", null, 9), null);
  });

  it("leaves other keys alone", () => {
    assert.equal(lookKey("a", 4, 9), null);
    assert.equal(lookKey("Enter", null, 9), null);
  });
});

describe("a typed move", () => {
  const legal = ["d1-d3", "d1-d2", "a1-a10", "b2-b4 d4"];

  it("is a legal action, whatever its case and spaces", () => {
    assert.equal(typedAction(" D1-D3 ", legal), "d1-d3");
  });

  it("may be the start of its one action, up to what follows a square name", () => {
    assert.equal(typedAction("b2-b4", legal), "b2-b4 d4");
  });

  it("is not the start of a longer square name", () => {
    assert.equal(typedAction("a1-a1", legal), null);
  });

  it("means nothing when empty, illegal or begun by several actions", () => {
    assert.equal(typedAction("  ", legal), null);
    assert.equal(typedAction("e5-e6", legal), null);
    assert.equal(typedAction("d1", ["d1 d3", "d1 d4"]), null);
  });
});

describe("a board's views", () => {
  const board = { views: [{ id: "2d", label: "2D board" }, { id: "3d", label: "3D board" }] };

  it("switch round, under the second view's test id", () => {
    assert.deepEqual(viewToggle(board, 0), { testid: "toggle-3d", label: "3D board", next: 1 });
    assert.deepEqual(viewToggle(board, 1), { testid: "toggle-3d", label: "2D board", next: 0 });
  });

  it("offer no switch for a board of one view", () => {
    assert.equal(viewToggle({}, 0), null);
    assert.equal(viewToggle({ views: [board.views[0]] }, 0), null);
  });
});
