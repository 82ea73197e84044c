// The small positions of the rules pages, written in the page as a `diagram` block and drawn
// here. A block holds one or more panels (a position before a move and after it), separated by
// a blank line. A panel is its rows of squares, top row first, one token per square:
//
//   .  an empty square          #  a square with rules of its own (a corner, the throne)
//   _  no square (Fox and Geese's cut corners)   *  a marked square (where a piece may go)
//   a piece letter, upper case: on the board; lower case: taken by the move shown
//   a stack, in a game of stacks: its pieces from the bottom up, `W2/W1` (see GAMES)
//
// and may end with `roll 3` (the die's roll, written on the arrow) and `move c1-c3` (an arrow
// from square to square; files a, b, ... from the left, ranks 1, 2, ... from the bottom). Piece
// letters are the game's: tafl A attacker, D defender, K king; Fox and Geese F fox, G goose;
// Mr Driller R G Y B blocks of that colour, 1 2 drillers; Tron H1 a head, T1 its tail, F a flag;
// Hanoi's owners W B R; the tower race's 1, 2, ... (the seats).
import { el, svg } from "./dom.js";
import { SEAT_COLOURS } from "./boards/shared.js";
import { COLOURS as HANOI_COLOURS } from "./boards/hanoi.js";

// A piece's drawing: its shape (`disc`, `block` a square, `trail` a light-cycle's tail, `flag`),
// the theme's class or a seat's colour, a tag written on it, a king's cross.
const piece = (shape, { cls = "", fill = null, tag = null, kingMark = false } = {}) => ({ shape, cls, fill, tag, kingMark });
const seats = (make) => Object.fromEntries(SEAT_COLOURS.map((colour, i) => make(colour, i)));

// Each game's diagram form, as data. A game of pieces on squares or points names its piece
// letters; a game of stacks (Hanoi's discs, the tower race's pyramids) writes a cell's stack as
// its pieces from the bottom up, `W2/W1`, each an owner's letter and a size, and draws a line of
// its cells, a stack seen from the side.
const GAMES = {
  tafl: { pieces: { A: piece("disc", { cls: "piece-dark" }), D: piece("disc", { cls: "piece-light" }), K: piece("disc", { cls: "king", kingMark: true }) } },
  "fox-geese": { points: true, pieces: { F: piece("disc", { cls: "fox", tag: "F" }), G: piece("disc", { cls: "piece-light" }) } },
  // Mr Driller counts its rows from the top: its diagrams go without coordinates.
  driller: {
    coordinates: false,
    pieces: {
      ...Object.fromEntries(["R", "G", "Y", "B"].map((c) => [c, piece("block", { cls: `block-${c}` })])),
      1: piece("disc", { cls: "driller-1", tag: "1" }), 2: piece("disc", { cls: "driller-2", tag: "2" }),
    },
  },
  // Tron: H1 the head of player 1's light-cycle, T1 its tail, F a flag.
  tron: {
    pieces: {
      ...seats((fill, i) => [`H${i + 1}`, piece("disc", { cls: "cycle-head", fill, tag: String(i + 1) })]),
      ...seats((fill, i) => [`T${i + 1}`, piece("trail", { fill })]),
      F: piece("flag"),
    },
  },
  hanoi: { coordinates: false, stacks: { shape: "disc", grow: 1.5, owners: { W: HANOI_COLOURS.white, B: HANOI_COLOURS.blue, R: HANOI_COLOURS.red } } },
  "tower-race": { coordinates: false, stacks: { shape: "pyramid", grow: 2, owners: seats((fill, i) => [String(i + 1), fill]) } },
};

// The panels of a block: { rows: [[token, ...], ...], move: { from: [file, rank], to } | null,
// roll: the die's number, from a line `roll 3` before the move, or null }.
export function parseDiagram(text) {
  const square = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
  return text.trim().split(/\n\s*\n/).map((panel) => {
    let lines = panel.trim().split("\n").map((line) => line.trim());
    const move = lines.at(-1).match(/^move ([a-z]\d+)-([a-z]\d+)$/);
    if (move) lines = lines.slice(0, -1);
    const roll = lines.at(-1).match(/^roll (\d)$/);
    if (roll) lines = lines.slice(0, -1);
    const rows = lines.map((line) => line.split(/\s+/));
    return { rows, move: move ? { from: square(move[1]), to: square(move[2]) } : null, roll: roll ? Number(roll[1]) : null };
  });
}

// A stack token's pieces, bottom first: `W5/B4` is [{ owner: "W", size: 5 }, { owner: "B", size: 4 }].
export const stackOf = (token) => token.split("/").map((p) => ({ owner: p.slice(0, -1), size: Number(p.slice(-1)) }));

const UNIT = 10;

// The pieces a game draws, by letter.
export const pieceLetters = (game) => Object.keys(GAMES[game]?.pieces ?? GAMES[game]?.stacks?.owners ?? {});

// One piece of a game of pieces, centred on (cx, cy); one whose letter is lower case is taken,
// crossed out.
function drawPiece(root, token, kind, cx, cy) {
  if (kind.shape === "block") root.append(svg("rect", { x: cx - UNIT / 2 + 0.5, y: cy - UNIT / 2 + 0.5, width: UNIT - 1, height: UNIT - 1, class: `piece ${kind.cls}` }));
  if (kind.shape === "trail") root.append(svg("rect", { x: cx - 3.5, y: cy - 3.5, width: 7, height: 7, rx: 1.5, fill: kind.fill, class: "diagram-trail" }));
  if (kind.shape === "flag") {
    root.append(svg("path", { d: `M${cx - 2} ${cy + 3.5}V${cy - 3.5}l5 1.8l-5 1.8`, class: "diagram-flag" }));
  }
  if (kind.shape === "disc") root.append(svg("circle", { cx, cy, r: UNIT * 0.36, fill: kind.fill, class: `piece ${kind.cls}` }));
  if (kind.kingMark) root.append(svg("path", { d: `M${cx - 2.2} ${cy}h4.4M${cx} ${cy - 2.2}v4.4`, class: "king-mark" }));
  if (kind.tag) root.append(svg("text", { x: cx, y: cy + 1.8, class: "tag diagram-tag" }, kind.tag));
  if (token !== token.toUpperCase()) root.append(svg("path", { d: `M${cx - 3} ${cy - 3}l6 6M${cx + 3} ${cy - 3}l-6 6`, class: "mark-capture diagram-taken" }));
}

// A stack seen from the side, standing on (cx, bottom): each piece as wide as its size (`grow`
// wider a size), in its owner's colour, its size written on it.
function drawStack(root, token, { shape, grow, owners }, cx, bottom) {
  stackOf(token).forEach(({ owner, size }, i) => {
    const [w, y] = [2 + size * grow, bottom - (i + 1) * STACK_PIECE];
    const slope = shape === "pyramid" ? 1 : 0;
    root.append(svg("path", {
      d: `M${cx - w / 2} ${y + STACK_PIECE}L${cx - w / 2 + slope} ${y}H${cx + w / 2 - slope}L${cx + w / 2} ${y + STACK_PIECE}Z`,
      fill: owners[owner], class: "diagram-stacked",
    }), svg("text", { x: cx, y: y + STACK_PIECE - 0.6, class: "tag diagram-size" }, String(size)));
  });
}

// A stacked piece's height, and the height of a game of stacks' cell: a stack of five under room
// for the move's arrow.
const STACK_PIECE = 3;
const STACK_CELL = 19;

// One panel as an <svg>, in the board theme's colours, labelled for a screen reader by `label`.
function drawPanel({ rows, move, roll }, game, label) {
  const form = GAMES[game] ?? {};
  const height = rows.length;
  const width = Math.max(...rows.map((r) => r.length));
  const tall = form.stacks ? STACK_CELL / UNIT : 1;
  // Room for the coordinates at the left and below; a line of stacks has none, and room at the right.
  const margin = form.stacks ? 1 : 5;
  const root = svg("svg", {
    viewBox: `${-margin} 0 ${width * UNIT + margin * (form.stacks ? 2 : 1)} ${height * UNIT * tall + margin}`, role: "img", "aria-label": label,
    class: `board-svg tafl rules-diagram-board${form.points ? " points" : ""}${form.stacks ? " stacks" : ""}`,
  });
  const centre = (f, r) => [f * UNIT + UNIT / 2, ((height - 1 - r) + 0.5) * UNIT * tall];
  const there = (x, y) => rows[y]?.[x] !== undefined && rows[y][x] !== "_";
  // Under the pieces: a points board's frame and lines.
  const lines = svg("g", { class: "line diagram-line" });
  if (form.points) root.append(svg("rect", { x: -margin, y: 0, width: width * UNIT + margin, height: height * UNIT + margin, rx: 1.5, class: "frame" }), lines);
  rows.forEach((row, y) => row.forEach((token, f) => {
    if (token === "_") return;
    const r = height - 1 - y;
    const [cx, cy] = centre(f, r);
    const [top, side] = [y * UNIT * tall, UNIT * tall];
    if (form.points) {
      // Each point joined to its right and lower neighbours.
      if (there(f + 1, y)) lines.append(svg("line", { x1: cx, y1: cy, x2: cx + UNIT, y2: cy }));
      if (there(f, y + 1)) lines.append(svg("line", { x1: cx, y1: cy, x2: cx, y2: cy + UNIT }));
      root.append(svg("circle", { cx, cy, r: 1.1, class: "point" }));
    } else {
      root.append(svg("rect", { x: f * UNIT, y: top, width: UNIT, height: side, class: `sq ${token === "#" ? "corner" : "plain"}` }));
    }
    if (move && move.to[0] === f && move.to[1] === r) root.append(svg("rect", { x: f * UNIT + 0.8, y: top + 0.8, width: UNIT - 1.6, height: side - 1.6, class: "mark-last" }));
    if (form.stacks && /\d$/.test(token)) drawStack(root, token, form.stacks, cx, top + side - 1);
    const kind = form.pieces?.[token] ?? form.pieces?.[token.toUpperCase()];
    if (kind) drawPiece(root, token, kind, cx, cy);
    if (token === "*") root.append(svg("circle", { cx, cy, r: UNIT * 0.16, class: "mark-target" }));
  }));
  if (form.coordinates !== false) drawCoordinates(root, width, height);
  if (move) {
    // A game of stacks has its arrow above the stacks, the die's roll on it.
    const lift = form.stacks ? STACK_CELL / 2 - 2.5 : 0;
    const [x1, y1] = centre(...move.from).map((v, i) => v - i * lift);
    const [x2, y2] = centre(...move.to).map((v, i) => v - i * lift);
    const length = Math.hypot(x2 - x1, y2 - y1);
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    // The shaft stops short of the head, which ends at the destination's piece.
    const [hx, hy] = [x2 - ux * 3.2, y2 - uy * 3.2];
    const [bx, by] = [hx - ux * 3, hy - uy * 3];
    root.append(
      svg("line", { x1, y1, x2: bx, y2: by, class: "diagram-arrow" }),
      svg("path", { d: `M${hx} ${hy}L${bx - uy * 2} ${by + ux * 2}L${bx + uy * 2} ${by - ux * 2}Z`, class: "diagram-arrow-head" }),
    );
    if (roll) {
      const [mx, my] = [(x1 + bx) / 2, (y1 + by) / 2];
      root.append(svg("g", { "data-testid": "rules-diagram-roll" },
        svg("rect", { x: mx - 2.5, y: my - 2.5, width: 5, height: 5, rx: 0.9, class: "diagram-die" }),
        svg("text", { x: mx, y: my + 1.5, class: "diagram-die-number" }, String(roll))));
    }
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
