// Tafl's notation as the boards read it (web/boards/tafl-notation.js): squares, OpenTafl
// positions and move texts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileName, parseMove, parsePosition, squareCoords, squareName } from "../web/boards/tafl-notation.js";

describe("squares", () => {
  it("are named by file letter and rank number, a1 bottom left", () => {
    assert.equal(fileName(0), "a");
    assert.equal(squareName(0, 0), "a1");
    assert.equal(squareName(10, 10), "k11");
  });

  it("are read back from their names, two-digit ranks too", () => {
    assert.deepEqual(squareCoords("e5"), [4, 4]);
    assert.deepEqual(squareCoords("k11"), [10, 10]);
    for (const [f, r] of [[0, 0], [3, 9], [12, 12]]) assert.deepEqual(squareCoords(squareName(f, r)), [f, r]);
  });
});

describe("an OpenTafl position", () => {
  it("reads its ranks, rank 1 first, digits counting empty squares", () => {
    assert.deepEqual(parsePosition("/1t1/TKT/3/"), [[null, "t", null], ["T", "K", "T"], [null, null, null]]);
  });

  it("reads empty runs of two digits", () => {
    const [rank] = parsePosition("/11/");
    assert.equal(rank.length, 11);
    assert.ok(rank.every((square) => square === null));
  });

  it("reads brandubh's start, every rank seven squares", () => {
    const ranks = parsePosition("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    assert.equal(ranks.length, 7);
    assert.ok(ranks.every((rank) => rank.length === 7));
    assert.equal(ranks[3][3], "K");
    assert.equal(ranks.flat().filter((square) => square === "t").length, 8);
  });
});

describe("a move text", () => {
  it("reads its squares", () => {
    assert.deepEqual(parseMove("d1-d3"), { from: "d1", to: "d3", captured: [] });
  });

  it("reads the squares it captured", () => {
    assert.deepEqual(parseMove("e5-e8xe9/f8"), { from: "e5", to: "e8", captured: ["e9", "f8"] });
  });
});
