// The rules pages' pure parts: a tafl variant's differences from Copenhagen read from the rules
// strings the engine writes (docs/rules/tafl.md has them), and the small diagrams' text.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import "./messages.js";
import { differences, facts, valueText } from "../web/rules-facts.js";
import { parseDiagram } from "../web/rules-diagram.js";

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
