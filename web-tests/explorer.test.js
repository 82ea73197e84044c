// The opening explorer's request paths and result shares.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { explorerPath, shares } from "../web/explorer-query.js";

describe("the explorer's request for a position", () => {
  it("the start of a variant asks for nothing more", () => {
    assert.equal(explorerPath({ game: "tafl", variant: "copenhagen" }), "/api/explorer/tafl/copenhagen");
  });

  it("a position with its side to move, moves and filters", () => {
    const path = explorerPath({ game: "tafl", variant: "brandubh", position: "/3t3/7/", toMove: 1, speed: "blitz", band: 1600 });
    const url = new URL(path, "http://x");
    assert.equal(url.pathname, "/api/explorer/tafl/brandubh");
    assert.equal(url.searchParams.get("position"), "/3t3/7/");
    assert.equal(url.searchParams.get("to_move"), "1");
    assert.equal(url.searchParams.get("speeds"), "blitz");
    assert.equal(url.searchParams.get("bands"), "1600");
  });

  it("the masters' games take no filters; band 0 is a band", () => {
    const masters = new URL(explorerPath({ game: "tafl", variant: "copenhagen", moves: ["d1-d3", "e5-e2"], source: "masters", speed: "blitz", band: 1600 }), "http://x");
    assert.equal(masters.searchParams.get("moves"), "d1-d3,e5-e2");
    assert.equal(masters.searchParams.get("source"), "masters");
    assert.equal(masters.searchParams.get("speeds"), null);
    assert.equal(masters.searchParams.get("bands"), null);
    const lowest = new URL(explorerPath({ game: "tafl", variant: "copenhagen", band: 0 }), "http://x");
    assert.equal(lowest.searchParams.get("bands"), "0");
  });
});

describe("a tally's shares", () => {
  it("add up to 100 however they round", () => {
    assert.deepEqual(shares({ games: 3, attackers: 1, draws: 1, defenders: 1 }), { attackers: 34, draws: 33, defenders: 33 });
    assert.deepEqual(shares({ games: 7, attackers: 5, draws: 0, defenders: 2 }), { attackers: 71, draws: 0, defenders: 29 });
    for (let games = 1; games < 40; games++) {
      for (let a = 0; a <= games; a++) {
        const s = shares({ games, attackers: a, draws: Math.floor((games - a) / 3), defenders: games - a - Math.floor((games - a) / 3) });
        assert.equal(s.attackers + s.draws + s.defenders, 100, `${games} ${a}`);
      }
    }
  });

  it("are all zero without games", () => {
    assert.deepEqual(shares({ games: 0, attackers: 0, draws: 0, defenders: 0 }), { attackers: 0, draws: 0, defenders: 0 });
  });
});
