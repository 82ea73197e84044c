// The rules pages' pure parts: a tafl variant's differences from Copenhagen read from the rules
// strings the engine writes (docs/rules/tafl.md has them), and the small diagrams' text.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import "./messages.js";
import { differences, facts, valueText } from "../web/rules-facts.js";
import { readdirSync, readFileSync } from "node:fs";
import { parseDiagram, pieceLetters, stackOf } from "../web/rules-diagram.js";

const START = "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const COPENHAGEN = `dim:11 name:copenhagen sw:s efe:y tfr:c ${START}`;
const BRANDUBH = "dim:7 name:brandubh ks:c surf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const HNEFATAFL = `dim:11 name:hnefatafl atkf:n esc:e corh: cenh: cenhe:K cenp:K corp:tTK cors:tTK surf:n ${START}`;
const TAWLBWRDD = `dim:11 name:tawlbwrdd esc:e cor: cen: ks:n surf:n ${START}`;
const ALEA = "dim:19 name:alea-evangelii cor:a1,b1,r1,s1,a2,b2,r2,s2,a18,b18,r18,s18,a19,b19,r19,s19, cen: surf:n start:/19/";

const table = (variant) => Object.fromEntries(differences(COPENHAGEN, variant).map((d) => [d.row, [valueText(d.standard), valueText(d.variant)]]));

describe("a tafl variant's differences from Copenhagen", () => {
  it("Copenhagen against itself: its board only", () => {
    assert.deepEqual(table(COPENHAGEN), { board: ["11×11", "11×11"] });
  });

  it("Brandubh: a smaller board, a king weak away from the throne, no shieldwall, fort or encirclement, a draw by repetition", () => {
    assert.deepEqual(table(BRANDUBH), {
      board: ["11×11", "7×7"],
      "king-capture": ["on four sides (or three and the throne)", "on four sides on and beside the throne, between two elsewhere"],
      shieldwall: ["yes, a corner may close it", "no"],
      "edge-fort": ["yes", "no"],
      encirclement: ["yes", "no"],
      repetition: ["the defenders lose if they repeat", "a draw"],
    });
  });

  it("the Haven concept's game: the defenders first, edge escape, ordinary corners, a throne for the king alone", () => {
    const rows = table(HNEFATAFL);
    assert.deepEqual(rows.first, ["the attackers", "the defenders"]);
    assert.deepEqual(rows.escape, ["a corner square", "any edge square"]);
    assert.deepEqual(rows["corner-stop"], ["the king only", "everyone"]);
    assert.deepEqual(rows["corner-hostile"], ["everyone", "nobody"]);
    assert.deepEqual(rows["throne-pass"], ["everyone", "the king only"]);
    assert.deepEqual(rows["throne-hostile-empty"], ["everyone", "the king only"]);
    assert.deepEqual(rows["throne-hostile-king"], ["the attackers", "nobody"]);
    assert.equal(rows["throne-stop"], undefined, "the king alone stops there in both");
    assert.equal(rows["king-armed"], undefined);
  });

  it("no throne and no corners say so once, without their rules", () => {
    const rows = table(TAWLBWRDD);
    assert.deepEqual(rows.throne, ["the centre square", "no throne"]);
    assert.deepEqual(rows.corners, ["the four corner squares", "no special corners"]);
    assert.equal(rows["throne-stop"], undefined);
    assert.equal(rows["corner-hostile"], undefined);
    assert.deepEqual(rows["king-capture"][1], "between two attackers, like a man");
  });

  it("corner blocks are told from corner squares", () => {
    assert.equal(facts(ALEA).find((f) => f.row === "escape").value, "escape-blocks");
    assert.deepEqual(table(ALEA).corners, ["the four corner squares", "a block of four squares in each corner"]);
    assert.equal(facts(COPENHAGEN).find((f) => f.row === "escape").value, "escape-corner");
  });

  it("OpenTafl's other letters for a strong and a weak king", () => {
    assert.equal(facts("dim:7 ks:s start:/7/").find((f) => f.row === "king-capture").value, "king-y");
    assert.equal(facts("dim:7 ks:w start:/7/").find((f) => f.row === "king-capture").value, "king-n");
  });
});

describe("a rules diagram", () => {
  it("is read as panels of rows, with a move", () => {
    const panels = parseDiagram(". A .\n# D .\nmove b2-c2\n\n. A .\n# d A\n");
    assert.equal(panels.length, 2);
    assert.deepEqual(panels[0].rows, [[".", "A", "."], ["#", "D", "."]]);
    assert.deepEqual(panels[0].move, { from: [1, 1], to: [2, 1] });
    assert.deepEqual(panels[1].rows[1], ["#", "d", "A"]);
    assert.equal(panels[1].move, null);
  });
});

// Every diagram of every page, as { where, game, panels }.
const PAGES = new URL("../docs/rules-for-players/", import.meta.url);
const diagrams = readdirSync(PAGES).flatMap((language) => readdirSync(new URL(`${language}/`, PAGES)).flatMap((file) => {
  const game = file.replace(/\.md$/, "");
  const page = readFileSync(new URL(`${language}/${file}`, PAGES), "utf8");
  return [...page.matchAll(/```diagram\n([\s\S]*?)```/g)].map((m) => ({ where: `${language}/${file}`, game, panels: parseDiagram(m[1]) }));
}));

describe("the rules pages' diagrams", () => {
  it("every game's page has one in every language", () => {
    const languages = readdirSync(PAGES);
    for (const language of languages) {
      for (const file of readdirSync(new URL(`${language}/`, PAGES))) {
        assert.ok(diagrams.some((d) => d.where === `${language}/${file}`), `${language}/${file}`);
      }
    }
  });

  it("are written in their game's letters, in rows of one width, with moves on the board", () => {
    for (const { where, game, panels } of diagrams) {
      const letters = new Set(pieceLetters(game));
      assert.ok(letters.size, `${where}: a game with a diagram form`);
      for (const { rows, move } of panels) {
        assert.equal(new Set(rows.map((r) => r.length)).size, 1, `${where}: rows of one width`);
        for (const token of rows.flat()) {
          const known = [".", "#", "_", "*"].includes(token) || letters.has(token.toUpperCase())
            || stackOf(token).every((p) => letters.has(p.owner) && p.size >= 1 && p.size <= 5);
          assert.ok(known, `${where}: ${token}`);
        }
        for (const [file, rank] of move ? [move.from, move.to] : []) {
          assert.ok(rows[rows.length - 1 - rank]?.[file] !== undefined, `${where}: a move off the board`);
        }
      }
    }
  });

  // The stacks are true to the games: a Hanoi disc stands only on one a size bigger; a tower
  // race stack grows upward, one pyramid a size.
  it("stack as the games stack", () => {
    const order = { hanoi: (below, above) => below.size === above.size + 1, "tower-race": (below, above) => below.size < above.size };
    for (const { where, game, panels } of diagrams.filter((d) => order[d.game])) {
      for (const token of panels.flatMap((p) => p.rows.flat()).filter((t) => /\d$/.test(t))) {
        const stack = stackOf(token);
        assert.ok(stack.slice(1).every((above, i) => order[game](stack[i], above)), `${where}: ${token}`);
      }
    }
  });
});
