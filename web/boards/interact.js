// The ways of acting on a board of squares drawn in SVG, for any board whose squares are <rect>s
// carrying `data-sq` (their names): dragging a piece with the pointer (mouse, pen or touch),
// right-button arrows and square marks for thinking aloud (cleared by a left click), and the
// keyboard (arrow keys between squares, Enter or Space for a click). The board keeps its rules:
// these only report which square was pressed, dragged to or chosen.
import { svg } from "../dom.js";

// The name of the square under a point of the viewport, or null.
export function squareAt(x, y) {
  return document.elementFromPoint(x, y)?.closest?.("[data-sq]")?.dataset.sq ?? null;
}

// A pointer event's position in the SVG's own units.
function svgPoint(root, e) {
  return new DOMPoint(e.clientX, e.clientY).matrixTransform(root.getScreenCTM().inverse());
}

// How far (CSS pixels) a pressed pointer moves before the press is a drag, not a click.
export const DRAG_SLOP = 4;

// Drag and drop: a press on a square that `canLift(name)` starts a drag once the pointer moves;
// `lift(name)` is told (the board selects the piece), `piece(name)` gives the drawn piece to carry
// under the pointer, and `drop(from, to)` ends it (`to` null when dropped off the board or
// cancelled). The click that follows a drag is swallowed; a press that does not move stays a
// click, for the board's own click handling.
export function dragPieces(root, { canLift, lift, piece, drop }) {
  let press = null;
  let swallow = false;
  root.addEventListener("pointerdown", (e) => {
    swallow = false;
    const from = e.target.closest?.("[data-sq]")?.dataset.sq;
    if (e.button !== 0 || !from || !canLift(from)) return;
    press = { id: e.pointerId, from, x: e.clientX, y: e.clientY, start: svgPoint(root, e), node: null, moved: false };
  });
  root.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!press.moved) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_SLOP) return;
      press.moved = true;
      try {
        root.setPointerCapture(e.pointerId);
      } catch {
        // The pointer is gone already: its pointerup ends the drag.
      }
      lift(press.from);
      press.node = piece(press.from);
      press.node?.classList.add("dragging");
      press.node?.parentNode.append(press.node);
    }
    e.preventDefault();
    const at = svgPoint(root, e);
    press.node?.setAttribute("transform", `translate(${at.x - press.start.x} ${at.y - press.start.y})`);
  });
  const end = (e, cancelled) => {
    if (!press || e.pointerId !== press.id) return;
    const { from, moved, node } = press;
    press = null;
    if (!moved) return;
    swallow = true;
    node?.removeAttribute("transform");
    node?.classList.remove("dragging");
    drop(from, cancelled ? null : squareAt(e.clientX, e.clientY));
  };
  root.addEventListener("pointerup", (e) => end(e, false));
  root.addEventListener("pointercancel", (e) => end(e, true));
  root.addEventListener("click", (e) => {
    if (!swallow) return;
    swallow = false;
    e.stopImmediatePropagation();
  }, true);
}

// An arrow between two points, shortened at both ends so that it does not hide the pieces'
// centres, with a triangular head; `unit` is a square's side.
function arrowShape(a, b, unit) {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
  const tip = { x: b.x - ux * unit * 0.2, y: b.y - uy * unit * 0.2 };
  const base = { x: tip.x - ux * unit * 0.4, y: tip.y - uy * unit * 0.4 };
  const [wx, wy] = [-uy * unit * 0.25, ux * unit * 0.25];
  return svg("g", { class: "arrow" },
    svg("line", { x1: a.x + ux * unit * 0.25, y1: a.y + uy * unit * 0.25, x2: base.x, y2: base.y }),
    svg("polygon", { points: `${tip.x},${tip.y} ${base.x + wx},${base.y + wy} ${base.x - wx},${base.y - wy}` }));
}

// Right-button drawings, as on lichess: a right drag from one square to another draws an arrow,
// a right click on a square rings it; the same again removes it, and a left press clears them
// all. They are drawn into `layer` at `centre(name)` ({x, y} in the SVG's units); `redraw()`
// draws them again (after the board turned round).
export function drawings(root, layer, centre, unit) {
  const shapes = new Set();
  let from = null;
  const redraw = () => {
    layer.replaceChildren(...[...shapes].map((key) => {
      const [a, b] = key.split(">");
      const at = centre(a);
      const node = b ? arrowShape(at, centre(b), unit)
        : svg("circle", { class: "mark", cx: at.x, cy: at.y, r: unit * 0.44 });
      node.dataset.shape = key;
      return node;
    }));
  };
  root.addEventListener("contextmenu", (e) => e.preventDefault());
  root.addEventListener("pointerdown", (e) => {
    if (e.button === 2) {
      from = e.target.closest?.("[data-sq]")?.dataset.sq ?? null;
    } else if (e.button === 0 && shapes.size) {
      shapes.clear();
      redraw();
    }
  });
  root.addEventListener("pointerup", (e) => {
    if (e.button !== 2 || !from) return;
    const to = squareAt(e.clientX, e.clientY);
    const key = to && to !== from ? `${from}>${to}` : from;
    from = null;
    if (!to) return;
    if (!shapes.delete(key)) shapes.add(key);
    redraw();
  });
  return { redraw };
}

// The keyboard: the squares are one tab stop (the square last focused), the arrow keys move the
// focus to the square drawn next to it that way (so they follow a turned board), and Enter or
// Space acts on the focused square as a click would (`activate(name)`). The focused square is
// ringed in `layer` (above the pieces, where no neighbouring square hides the ring) when the
// keyboard brought it there. `reset()` makes the tab stop again after the squares were redrawn.
export function keyboard(root, layer, activate) {
  let current = null;
  const rects = () => [...root.querySelectorAll("rect[data-sq]")];
  const box = (node) => ["x", "y", "width", "height"].map((key) => Number(node.getAttribute(key)));
  const stop = (name) => {
    for (const node of rects()) node.setAttribute("tabindex", node.dataset.sq === name ? "0" : "-1");
  };
  root.addEventListener("focusin", (e) => {
    const node = e.target.closest?.("[data-sq]");
    if (!node) return;
    if (node.dataset.sq !== current) {
      current = node.dataset.sq;
      stop(current);
    }
    const [x, y, width, height] = box(node);
    layer.replaceChildren(...(node.matches(":focus-visible") ? [svg("rect", { x, y, width, height, class: "focus-ring" })] : []));
  });
  root.addEventListener("focusout", () => layer.replaceChildren());
  root.addEventListener("keydown", (e) => {
    const node = e.target.closest?.("[data-sq]");
    if (!node) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate(node.dataset.sq);
      return;
    }
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (!step) return;
    e.preventDefault();
    const [x, y, w, h] = box(node);
    const next = rects().find((n) => {
      const [nx, ny] = box(n);
      return Math.abs(nx - (x + step[0] * w)) < 0.01 && Math.abs(ny - (y + step[1] * h)) < 0.01;
    });
    next?.focus();
  });
  return {
    reset() {
      layer.replaceChildren();
      const names = rects().map((n) => n.dataset.sq);
      stop(names.includes(current) ? current : names[Math.floor(names.length / 2)]);
    },
  };
}
