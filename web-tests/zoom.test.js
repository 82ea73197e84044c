// The zoom of a board of small squares (web/boards/zoom.js): its levels, and the scrolling that
// keeps the middle of the view in the middle as the zoom changes.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { FINGER, READABLE, keepMiddle, zoomLevels } from "../web/boards/zoom.js";

describe("the zoom levels", () => {
  it("are fitted only when the squares are readable fitted", () => {
    assert.deepEqual(zoomLevels(READABLE), [1]);
    assert.deepEqual(zoomLevels(40), [1]);
  });
  it("make small squares readable, then finger-sized", () => {
    const square = 18.7;
    const levels = zoomLevels(square);
    assert.equal(levels.length, 3);
    assert.equal(levels[0], 1);
    assert.ok(levels[1] * square >= READABLE && levels[1] * square < READABLE + 0.2, `${levels[1] * square}`);
    assert.ok(levels[2] * square >= FINGER && levels[2] * square < FINGER + 0.2, `${levels[2] * square}`);
  });
  it("offer nothing for a board not drawn yet", () => {
    assert.deepEqual(zoomLevels(0), [1]);
    assert.deepEqual(zoomLevels(NaN), [1]);
  });
});

describe("keeping the middle in view", () => {
  it("keeps the middle of a fitted board in the middle when zooming in", () => {
    // A 300 px view on a 300 px drawing that doubles: its middle (150) is at 300 now.
    assert.equal(keepMiddle(0, 300, 300, 600), 150);
  });
  it("keeps a point off the middle where it was", () => {
    // Scrolled 100 px into a 600 px drawing, the middle is 250; at 900 px it is 375.
    assert.equal(keepMiddle(100, 300, 600, 900), 225);
  });
  it("stays within the drawing", () => {
    assert.equal(keepMiddle(300, 300, 600, 300), 0);
    assert.equal(keepMiddle(0, 300, 300, 310), 5);
    // Scrolled to the end of a 600 px drawing shrinking to 500 px: its end, 200.
    assert.equal(keepMiddle(300, 300, 600, 500), 200);
  });
});
