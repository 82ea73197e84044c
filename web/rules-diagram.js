// The small positions of the rules pages, written in the page as a `diagram` block and drawn
// here. A block holds one or more panels (a position before a move and after it), separated by
// a blank line. A panel is its rows of squares, top row first, one token per square:
//
//   .  an empty square          #  a square with rules of its own (a corner, the throne)
//   _  no square (Fox and Geese's cut corners)   *  a marked square (where a piece may go)
//   a piece letter, upper case: on the board; lower case: taken by the move shown
//
// and may end with `move c1-c3` (an arrow from square to square; files a, b, ... from the left,
// ranks 1, 2, ... from the bottom). Piece letters are the game's: tafl A attacker, D defender,
// K king; Fox and Geese F fox, G goose; Mr Driller R G Y B blocks of that colour, 1 2 drillers.
import { el, svg } from "./dom.js";

const PIECES = {
  tafl: { A: "piece-dark", D: "piece-light", K: "king" },
  "fox-geese": { F: "fox", G: "piece-light" },
  driller: { R: "block-R", G: "block-G", Y: "block-Y", B: "block-B", 1: "driller-1", 2: "driller-2" },
};

// The panels of a block: { rows: [[token, ...], ...], move: { from: [file, rank], to } | null }.
export function parseDiagram(text) {
  const square = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
  return text.trim().split(/\n\s*\n/).map((panel) => {
    const lines = panel.trim().split("\n").map((line) => line.trim());
    const move = lines.at(-1).match(/^move ([a-z]\d+)-([a-z]\d+)$/);
    const rows = (move ? lines.slice(0, -1) : lines).map((line) => line.split(/\s+/));
    return { rows, move: move ? { from: square(move[1]), to: square(move[2]) } : null };
  });
}

// The games whose boards are points joined by lines (drawn so), not squares.
const POINTS = new Set(["fox-geese"]);

const UNIT = 10;

// The pieces a game draws, by letter.
export const pieceLetters = (game) => Object.keys(PIECES[game] ?? {});

// One panel as an <svg>, in the board theme's colours, labelled for a screen reader by `label`.
function drawPanel({ rows, move }, game, label) {
  const height = rows.length;
  const width = Math.max(...rows.map((r) => r.length));
  const margin = 5;
  const root = svg("svg", {
    viewBox: `${-margin} 0 ${width * UNIT + margin} ${height * UNIT + margin}`, role: "img", "aria-label": label,
    class: `board-svg tafl rules-diagram-board${POINTS.has(game) ? " points" : ""}`,
  });
  const kinds = PIECES[game] ?? {};
  const centre = (f, r) => [f * UNIT + UNIT / 2, (height - 1 - r) * UNIT + UNIT / 2];
  const points = POINTS.has(game);
  const there = (x, y) => rows[y]?.[x] !== undefined && rows[y][x] !== "_";
  // Under the pieces: a points board's frame and lines.
  const lines = svg("g", { class: "line diagram-line" });
  if (points) root.append(svg("rect", { x: -margin, y: 0, width: width * UNIT + margin, height: height * UNIT + margin, rx: 1.5, class: "frame" }), lines);
  rows.forEach((row, y) => row.forEach((token, f) => {
    if (token === "_") return;
    const r = height - 1 - y;
    const [cx, cy] = centre(f, r);
    if (points) {
      // Each point joined to its right and lower neighbours.
      if (there(f + 1, y)) lines.append(svg("line", { x1: cx, y1: cy, x2: cx + UNIT, y2: cy }));
      if (there(f, y + 1)) lines.append(svg("line", { x1: cx, y1: cy, x2: cx, y2: cy + UNIT }));
      root.append(svg("circle", { cx, cy, r: 1.1, class: "point" }));
    } else {
      root.append(svg("rect", { x: f * UNIT, y: y * UNIT, width: UNIT, height: UNIT, class: `sq ${token === "#" ? "corner" : "plain"}` }));
    }
    if (move && move.to[0] === f && move.to[1] === r) root.append(svg("rect", { x: f * UNIT + 0.8, y: y * UNIT + 0.8, width: UNIT - 1.6, height: UNIT - 1.6, class: "mark-last" }));
    const kind = kinds[token] ?? kinds[token.toUpperCase()];
    if (kind?.startsWith("block-")) {
      root.append(svg("rect", { x: f * UNIT + 0.5, y: y * UNIT + 0.5, width: UNIT - 1, height: UNIT - 1, class: `piece ${kind}` }));
    } else if (kind) {
      root.append(svg("circle", { cx, cy, r: UNIT * 0.36, class: `piece ${kind}` }));
      if (token === "K") root.append(svg("path", { d: `M${cx - 2.2} ${cy}h4.4M${cx} ${cy - 2.2}v4.4`, class: "king-mark" }));
      if (kind.startsWith("driller-") || kind === "fox") root.append(svg("text", { x: cx, y: cy + 1.8, class: "tag diagram-tag" }, token.toUpperCase()));
    }
    if (kind && token !== token.toUpperCase()) {
      root.append(svg("path", { d: `M${cx - 3} ${cy - 3}l6 6M${cx + 3} ${cy - 3}l-6 6`, class: "mark-capture diagram-taken" }));
    }
    if (token === "*") root.append(svg("circle", { cx, cy, r: UNIT * 0.16, class: "mark-target" }));
  }));
  // Mr Driller counts its rows from the top: its diagrams go without coordinates.
  if (game !== "driller") drawCoordinates(root, width, height);
  if (move) {
    const [x1, y1] = centre(...move.from);
    const [x2, y2] = centre(...move.to);
    const length = Math.hypot(x2 - x1, y2 - y1);
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    // The shaft stops short of the head, which ends at the destination's piece.
    const [hx, hy] = [x2 - ux * 3.2, y2 - uy * 3.2];
    const [bx, by] = [hx - ux * 3, hy - uy * 3];
    root.append(
      svg("line", { x1, y1, x2: bx, y2: by, class: "diagram-arrow" }),
      svg("path", { d: `M${hx} ${hy}L${bx - uy * 2} ${by + ux * 2}L${bx + uy * 2} ${by - ux * 2}Z`, class: "diagram-arrow-head" }),
    );
  }
  return root;
}

// Files a, b, ... under a diagram, ranks 1, 2, ... beside it from the bottom.
function drawCoordinates(root, width, height) {
  for (let f = 0; f < width; f += 1) root.append(svg("text", { x: f * UNIT + UNIT / 2, y: height * UNIT + 4, class: "label" }, String.fromCharCode(97 + f)));
  for (let r = 0; r < height; r += 1) root.append(svg("text", { x: -2.5, y: (height - 1 - r) * UNIT + UNIT / 2 + 1.2, class: "label" }, String(r + 1)));
}

// A block's panels, side by side with an arrow between them, as a <figure>.
export function drawDiagram(text, game, label) {
  const panels = parseDiagram(text);
  const figure = el("figure", { class: "rules-diagram", "data-testid": "rules-diagram" });
  panels.forEach((panel, i) => {
    if (i > 0) figure.append(el("span", { class: "rules-diagram-then", "aria-hidden": "true" }, "→"));
    figure.append(drawPanel(panel, game, label));
  });
  return figure;
}
