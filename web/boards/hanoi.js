// Hanoi on the 19-cell hex board (rows a-e bottom to top, diagonals 1-5, as on an Abalone
// board). A stack is drawn from above as concentric discs, the biggest at the bottom. An action
// moves the top disc of a stack along one of six lines, `c3-ne`; the user clicks a stack, the
// cells its top disc would land on light up (worked out here by the rules' landing rule, one per
// legal line), and a click on one plays that line. A stack's owner (its top disc's colour) is
// written on it too, by the initial of the side's name, and its discs are listed in its tooltip;
// the last placement's cells are framed, the stacks that may move ringed with dashes, the one
// chosen ringed thick.
import { svg, el } from "../dom.js";
import { svgRoot, actionChoices, caption, sent } from "./shared.js";
import { describeResult } from "../results.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";

const R = 40; // hexagon radius
const W = Math.sqrt(3) * R;
const H = 1.5 * R;
const WIDTH = W * 5 + 20;
const HEIGHT = H * 4 + 2 * R + 20;
// The players' colours, in seat order (White is seat 0).
export const COLOURS = { white: "#f7f7f2", blue: "#2f6fd6", red: "#d94841" };
// A disc's owner as a letter, so that colour is not the only sign of it: the initial of its side's
// name ("W" for White).
const initial = (colour) => seatName("hanoi", Object.keys(COLOURS).indexOf(colour)).charAt(0);
const DIRS = { e: [0, 1], w: [0, -1], ne: [1, 1], sw: [-1, -1], nw: [1, 0], se: [-1, 0] };

const onBoard = (row, diag) => row >= 0 && row < 5 && diag >= 0 && diag < 5 && Math.abs(row - diag) <= 2;
const cellName = (row, diag) => "abcde"[row] + (diag + 1);
const parseCell = (name) => [name.charCodeAt(0) - 97, Number(name[1]) - 1];
const centre = (row, diag) => [10 + W / 2 + (diag - row / 2 + 1) * W, 10 + R + (4 - row) * H];

function cells() {
  const list = [];
  for (let row = 0; row < 5; row++) for (let diag = 0; diag < 5; diag++) if (onBoard(row, diag)) list.push([row, diag]);
  return list;
}

/// Where the top disc of `from` lands moving along `dir`: the nearest stack whose top is one size
/// larger, else the furthest empty cell (the rules' landing rule); null when neither exists.
export function landing(stacks, from, dir) {
  const size = stacks.get(from).at(-1).size;
  let [row, diag] = parseCell(from);
  let furthestEmpty = null;
  for (;;) {
    row += DIRS[dir][0];
    diag += DIRS[dir][1];
    if (!onBoard(row, diag)) return furthestEmpty;
    const stack = stacks.get(cellName(row, diag));
    if (!stack) furthestEmpty = cellName(row, diag);
    else if (stack.at(-1).size === size + 1) return cellName(row, diag);
  }
}

// A hexagon's corners round (x, y), `scale` times a cell's size.
function hexagon(x, y, scale = 1) {
  const corners = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i + Math.PI / 6;
    corners.push(`${(x + scale * R * Math.cos(a)).toFixed(1)},${(y + scale * R * Math.sin(a)).toFixed(1)}`);
  }
  return corners.join(" ");
}

export default {
  // The move box's example, in the game's own notation (a stack's cell and a direction, or a pass).
  moveExample: "c3-ne, pass",
  create(host, { onAction }) {
    const root = svgRoot(WIDTH, HEIGHT, t("hanoi.board"));
    const info = caption("");
    const controls = el("div");
    host.append(root, info, controls);
    let state = null;
    let selected = null;

    function draw() {
      const view = state.view;
      const legal = (state.legal || []).filter((a) => a !== "pass");
      const stacks = new Map(view.stacks);
      const from = view.splitting || selected;
      const targets = new Map(); // landing cell -> action
      if (from && stacks.has(from)) {
        for (const action of legal.filter((a) => a.startsWith(from + "-"))) {
          const to = landing(stacks, from, action.split("-")[1]);
          if (to) targets.set(to, action);
        }
      }
      const starts = new Set(legal.map((a) => a.split("-")[0]));
      const last = view.last_placement;

      root.replaceChildren();
      for (const [row, diag] of cells()) {
        const name = cellName(row, diag);
        const [x, y] = centre(row, diag);
        const stack = stacks.get(name) || [];
        const isLast = last && (last.to === name || last.from === name);
        const cell = svg("g", {
          "data-testid": `sq-${name}`,
          class: targets.has(name) ? "target" : starts.has(name) ? "movable" : null,
          style: targets.has(name) || starts.has(name) ? "cursor: pointer" : null,
        });
        cell.append(svg("polygon", { points: hexagon(x, y), class: isLast ? "cell mark-last" : "cell", "stroke-width": 2 }));
        if (isLast) cell.append(svg("polygon", { points: hexagon(x, y, 0.85), class: "mark-last-line", "stroke-width": 2.5 }));
        if (from === name) {
          cell.append(svg("polygon", { points: hexagon(x, y, 0.9), class: "mark-select", "stroke-width": 5 }));
        } else if (starts.has(name)) {
          cell.append(svg("polygon", { points: hexagon(x, y, 0.85), class: "mark-movable", "stroke-width": 2.5, "stroke-dasharray": "6 4" }));
        }
        for (const disc of stack) {
          cell.append(svg("circle", {
            cx: x, cy: y - 3, r: 4 + disc.size * 5,
            fill: COLOURS[disc.colour], stroke: "#333", "stroke-width": 1.5,
          }));
        }
        if (stack.length) {
          cell.append(svg("text", { x, y: y + 1, "text-anchor": "middle", "font-size": 11, class: "tag" }, initial(stack.at(-1).colour)),
            svg("title", {}, `${name}: ${stack.map((d) => initial(d.colour) + d.size).join(" ")}`));
        }
        cell.append(svg("text", { x, y: y + R - 5, "text-anchor": "middle", "font-size": 9, class: "label" }, name));
        if (targets.has(name)) {
          cell.append(svg("circle", { cx: x, cy: y, r: 11, class: "mark-target" }));
        }
        cell.addEventListener("click", () => pick(name, targets, starts));
        root.append(cell);
      }

      const outcome = state.result || view.outcome;
      // Named only while the game goes on: a finished game has nobody to move.
      const mover = () => seatName("hanoi", Object.keys(COLOURS).indexOf(view.to_move));
      info.textContent = outcome
        ? describeResult("hanoi", outcome)
        : t(view.splitting ? "hanoi.to-split" : "board.to-move", { side: mover(), stack: view.splitting }) +
          (last ? ` · ${t("hanoi.last", { from: last.from, dir: last.dir, to: last.to })}` : "");
      controls.replaceChildren((state.legal || []).includes("pass")
        ? actionChoices(["pass"], send, () => t("board.pass")) : "");
    }

    function send(text) {
      selected = null;
      state = sent(state);
      draw();
      onAction(text);
    }

    function pick(name, targets, starts) {
      if (targets.has(name)) return send(targets.get(name));
      selected = starts.has(name) && selected !== name ? name : null;
      draw();
    }

    return {
      update(next) {
        state = next;
        selected = null;
        draw();
      },
      destroy() {
        host.replaceChildren();
      },
    };
  },
};
