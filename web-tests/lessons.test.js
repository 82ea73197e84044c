// The lesson player's logic (web/lessons/player.js): the request for a step's position, the
// judging of a move, the engine's reason for a refused one, moving between steps, and the
// finished lessons kept in the browser; and that every lesson file is listed and well formed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import {
  LESSONS, answerMoves, answered, back, engineReason, finishedAll, finishedLessons, judge,
  markFinished, next, startAt, stepRequest, stepText,
} from "../web/lessons/player.js";

const dir = new URL("../web/lessons/", import.meta.url);
const read = (game) => JSON.parse(readFileSync(new URL(`${game}.json`, dir), "utf8"));

// localStorage as the player uses it.
function storage(items = {}) {
  const map = new Map(Object.entries(items));
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, String(v)) };
}

describe("the lessons", () => {
  it("lists exactly the lesson files, tafl first", () => {
    const files = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
    assert.deepEqual([...LESSONS].sort(), files.sort());
    assert.equal(LESSONS[0], "tafl");
  });

  it("gives every game a lesson of its own game, tafl's long and the others three to five steps", () => {
    for (const game of LESSONS) {
      const lesson = read(game);
      assert.equal(lesson.game, game);
      const ids = lesson.steps.map((s) => s.id);
      assert.equal(new Set(ids).size, ids.length, `${game}: step ids repeat`);
      if (game === "tafl") assert.ok(lesson.steps.length >= 10);
      else assert.ok(lesson.steps.length >= 3 && lesson.steps.length <= 5, game);
    }
  });
});

describe("a step's request", () => {
  const tafl = read("tafl");
  it("starts a tafl step from its position, with the learner to move", () => {
    const step = tafl.steps[0];
    assert.deepEqual(stepRequest(tafl, step), {
      game: "tafl", variant: "copenhagen", seat: step.seat, actions: [], position: step.position, to_move: step.seat,
    });
  });

  it("plays the setup first, then the learner's move and the replies", () => {
    const lesson = { game: "driller", variant: "standard" };
    const step = { id: "x", seat: 0, setup: [[1, "D"], [0, "L"]], replies: [[1, "R"]], right: ["D"] };
    const body = stepRequest(lesson, step, answerMoves(step, "DD"));
    assert.deepEqual(body.actions, [
      { seat: 1, action: "D" }, { seat: 0, action: "L" }, { seat: 0, action: "DD" }, { seat: 1, action: "R" },
    ]);
    assert.equal(body.seat, undefined, "after the learner's move another seat may be to act");
    assert.equal(body.position, undefined);
    assert.equal(body.to_move, undefined);
  });

  it("names the seat count and seed where the lesson gives them", () => {
    const body = stepRequest({ game: "tron", variant: "standard", seats: 3 }, { id: "x", seat: 2, seed: 5, right: "any" });
    assert.equal(body.seats, 3);
    assert.equal(body.seed, 5);
  });
});

describe("judging a move", () => {
  it("is right only for a listed right move", () => {
    const step = { right: ["e3-e7"] };
    assert.equal(judge(step, "e3-e7"), "right");
    assert.equal(judge(step, "e3-e6"), "wrong");
  });

  it("is wrong only for a listed wrong move", () => {
    const step = { wrong: ["d4-d5"] };
    assert.equal(judge(step, "d4-d5"), "wrong");
    assert.equal(judge(step, "d4-d6"), "right");
  });

  it("takes any move where the step says so", () => {
    assert.equal(judge({ right: "any" }, "tail f5"), "right");
  });
});

describe("the engine's reason", () => {
  it("drops the analysis service's note of which action it was", () => {
    assert.equal(engineReason("action 9 (seat 1: d4-d9): no such square d9"), "no such square d9");
  });

  it("keeps a message without such a note", () => {
    assert.equal(engineReason("there is no seat 4"), "there is no seat 4");
  });
});

describe("moving through a lesson", () => {
  const lesson = { steps: [{}, {}, {}] };
  it("goes on only after a right answer", () => {
    const at = startAt(1);
    assert.deepEqual(next(answered(at, "wrong")), answered(at, "wrong"));
    assert.deepEqual(next(answered(at, "illegal")), answered(at, "illegal"));
    assert.deepEqual(next(answered(at, "right")), startAt(2));
  });

  it("goes back, but not before the first step", () => {
    assert.deepEqual(back(startAt(2)), startAt(1));
    assert.deepEqual(back(startAt(0)), startAt(0));
  });

  it("is finished past the last step", () => {
    assert.equal(finishedAll(startAt(2), lesson), false);
    assert.equal(finishedAll(next(answered(startAt(2), "right")), lesson), true);
  });

  it("names a step's texts", () => {
    assert.equal(stepText("tafl", { id: "capture" }, "goal"), "learn.tafl.capture.goal");
  });
});

describe("the finished lessons", () => {
  it("are kept once each", () => {
    const kept = storage();
    assert.deepEqual(finishedLessons(kept), []);
    markFinished(kept, "hanoi");
    markFinished(kept, "tafl");
    markFinished(kept, "hanoi");
    assert.deepEqual(finishedLessons(kept), ["hanoi", "tafl"]);
  });

  it("survive a damaged or foreign entry", () => {
    assert.deepEqual(finishedLessons(storage({ "tafl.lessons-finished": "{not json" })), []);
    assert.deepEqual(finishedLessons(storage({ "tafl.lessons-finished": "{\"a\":1}" })), []);
    assert.deepEqual(finishedLessons(storage({ "tafl.lessons-finished": "[\"chess\",\"tron\"]" })), ["tron"]);
  });
});
