// The names players read for the server's ids, in English and Swedish: games, variants with
// their board sizes, custom and unknown variants tidied, rating pools, time controls, the AI's
// accounts, and the tafl variant picker's groups.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { catalog, english } from "./messages.js";
import { useMessages } from "../web/i18n.js";
import { games } from "../web/catalog.js";
import { gameName, playerName, poolIdName, poolName, tidy, timeName, variantGroups, variantName } from "../web/names.js";

const TAFL = ["hnefatafl", "hnefatafl-weaponless", "hnefatafl-second-board", "copenhagen", "fetlar", "brandubh", "tablut",
  "tawlbwrdd", "copenhagen-13", "alea-evangelii", "hnefatafl-axes", "hnefatafl-13", "tawlbwrdd-13", "fithcheall", "ard-ri", "irish-board"];
games.push({ id: "tafl", serverName: "Tafl", variants: TAFL, rulesByVariant: { copenhagen: "dim:11 esc:c" } },
  { id: "newgame", serverName: "New Game", variants: ["big-board"], rulesByVariant: { "big-board": "dim:15" } });
after(() => games.splice(0));

describe("a name", () => {
  it("of a game, a variant with its board and a pool", () => {
    assert.equal(gameName("fox-geese"), "Fox and Geese");
    assert.equal(variantName("tafl", "copenhagen"), "Copenhagen 11×11");
    assert.equal(variantName("tafl", "brandubh"), "Brandubh 7×7");
    assert.equal(variantName("tafl", "hnefatafl-weaponless"), "Hnefatafl, weaponless king 11×11");
    assert.equal(poolName("tafl", "copenhagen-13"), "Tafl · Copenhagen 13×13");
    assert.equal(poolIdName("tafl/brandubh"), "Tafl · Brandubh 7×7");
  });

  it("of a time control carries its clock, and the AI's accounts read as the AI", () => {
    assert.equal(timeName("blitz"), "Blitz 5+3");
    assert.equal(timeName("correspondence"), "Correspondence, 3 days a move");
    assert.equal(playerName("ai-level-3"), "AI, level 3");
    assert.equal(playerName("anna"), "anna");
    assert.equal(playerName("ai-level-x"), "ai-level-x");
  });

  it("of what no catalog names is its id tidied, with the board a rules string gives", () => {
    assert.equal(tidy("new-variant_2"), "New variant 2");
    assert.equal(gameName("newgame"), "New Game");
    assert.equal(gameName("unheard-of"), "Unheard of");
    assert.equal(variantName("newgame", "big-board"), "Big board 15×15");
    assert.equal(variantName("tafl", "dim:9 esc:e start:/9/9/9/9/4K4/9/9/9/9/"), "Custom 9×9");
    assert.equal(timeName("lightning"), "Lightning");
  });

  it("is in the reader's language", () => {
    useMessages("sv", catalog("sv"), english);
    try {
      assert.equal(variantName("tafl", "copenhagen"), "Köpenhamn 11×11");
      assert.equal(playerName("ai-level-2"), "AI, nivå 2");
      assert.equal(timeName("blitz"), "Blixt 5+3");
    } finally {
      useMessages("en", english);
    }
  });
});

describe("the tafl variant picker's groups", () => {
  it("put every preset in one group, in order, and anything else under custom", () => {
    const groups = variantGroups("tafl", [...TAFL, "dim:9 esc:e"]);
    assert.deepEqual(groups.map(([g]) => g), ["today", "seed", "historical", "custom"]);
    assert.deepEqual(groups[0][1], ["copenhagen", "fetlar", "brandubh", "copenhagen-13"]);
    assert.deepEqual(groups[2][1], ["tablut", "tawlbwrdd", "alea-evangelii"]);
    assert.deepEqual(groups[3][1], ["dim:9 esc:e"]);
    assert.equal(groups.flatMap(([, members]) => members).length, TAFL.length + 1);
  });

  it("leave out empty groups, and other games' variants ungrouped", () => {
    assert.deepEqual(variantGroups("tafl", TAFL).map(([g]) => g), ["today", "seed", "historical"]);
    assert.deepEqual(variantGroups("tower-race", ["basic", "advanced"]), [[null, ["basic", "advanced"]]]);
  });
});
