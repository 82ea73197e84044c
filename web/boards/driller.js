// Mr Driller's pit: 12 columns (a-l) and 24 rows counted down from the top (a row is a depth),
// packed with coloured blocks (`R`, `Y`, `B`, `G`; `.` empty). Both drillers choose a move each
// round at once: a path of up to three steps `U`/`D`/`L`/`R` (`DDL`). The user clicks the square
// to end on; the squares some legal path ends on light up, and when several paths end on the
// clicked square they are offered as buttons. A block's colour is written on it too (its letter),
// and a driller carries the initial of its name.
import { svg, el } from "../dom.js";
import { svgRoot, actionChoices, actingSeat, caption, seatColour, sent } from "./shared.js";
import { describeResult, list } from "../results.js";
import { seatColourIndex, seatName } from "../catalog.js";
import { t } from "../i18n.js";

const CELL = 28;
const PAD = 20;
const BLOCKS = { R: "#d94841", Y: "#e8c21b", B: "#2f6fd6", G: "#2e9e54" };
const STEPS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };

const squareName = (col, row) => String.fromCharCode(97 + col) + (row + 1);
const parseSquare = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];

/// A path in words: `DDL` -> "down, down, left".
const steps = (path) => [...path].map((step) => t(`driller.step.${step}`, {}, step)).join(", ");

/// The square a path ends on from `start`.
export function endOf(start, path) {
  let [col, row] = parseSquare(start);
  for (const step of path) {
    col += STEPS[step][0];
    row += STEPS[step][1];
  }
  return squareName(col, row);
}

export default {
  // The move box's example, in the game's own notation (one letter a step: up, down, left, right).
  moveExample: "DDL",
  create(host, { perspective, onAction }) {
    const root = svgRoot(10, 10, t("driller.board"));
    const info = caption("");
    const controls = el("div");
    host.append(root, info, controls);
    let state = null;
    let picked = null; // the end square clicked when several paths reach it

    function draw() {
      const view = state.view;
      const rows = view.board.length;
      const cols = view.board[0].length;
      const width = PAD * 2 + cols * CELL;
      const height = PAD * 2 + rows * CELL;
      root.setAttribute("viewBox", `0 0 ${width} ${height}`);
      const seat = actingSeat(state) ?? perspective ?? 0;
      const token = view.tokens[seat];
      const ends = new Map(); // end square -> paths reaching it
      for (const path of state.legal || []) {
        const end = endOf(token.square, path);
        ends.set(end, [...(ends.get(end) || []), path]);
      }

      root.replaceChildren(svg("rect", { width, height, class: "deep", rx: 8 }));
      view.board.forEach((line, row) => {
        [...line].forEach((block, col) => {
          const name = squareName(col, row);
          const x = PAD + col * CELL;
          const y = PAD + row * CELL;
          const target = ends.has(name);
          const cell = svg("g", {
            "data-testid": `sq-${name}`, class: target ? "target" : null, style: target ? "cursor: pointer" : null,
          });
          cell.append(svg("rect", {
            x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: BLOCKS[block] ?? null, class: BLOCKS[block] ? null : "deep-cell",
          }));
          if (BLOCKS[block]) {
            cell.append(svg("text", { x: x + CELL - 4, y: y + CELL - 4, "text-anchor": "end", "font-size": 9, class: "block-letter" }, block));
          }
          if (name === picked) {
            cell.append(svg("rect", { x: x + 2.5, y: y + 2.5, width: CELL - 5, height: CELL - 5, rx: 3, class: "deep-select", "stroke-width": 3 }));
          }
          if (target) cell.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 6, class: "deep-target" }));
          cell.addEventListener("click", () => pick(name, ends));
          root.append(cell);
        });
      });
      for (let row = 0; row < rows; row += 4) {
        root.append(svg("text", { x: 4, y: PAD + row * CELL + 18, "font-size": 9, class: "deep-label" }, String(row + 1)));
      }
      view.tokens.forEach((token, index) => {
        const [col, row] = parseSquare(token.square);
        const x = PAD + col * CELL + CELL / 2;
        const y = PAD + row * CELL + CELL / 2;
        root.append(svg("g", { "data-testid": `driller-${index}`, "pointer-events": "none" },
          svg("circle", { cx: x, cy: y, r: 11, fill: token.crushed ? "#555" : seatColour(seatColourIndex("driller", index)), stroke: "#fff", "stroke-width": 2.5 }),
          svg("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 11, class: "tag" }, seatName("driller", index).charAt(0))));
      });

      const outcome = state.result || view.outcome;
      const name = (i) => seatName("driller", i);
      const depths = view.tokens.map((token, i) =>
        t(view.chosen[i] ? "driller.depth-chosen" : "driller.depth", { side: name(i), depth: parseSquare(token.square)[1] + 1 })).join("; ");
      const last = view.last_round
        ? ` · ${t("driller.last-round", { moves: list(view.last_round.moves.map((m, i) => t("driller.drilled", { side: name(i), steps: steps(m) }))) })}`
        : "";
      const own = view.own_move ? ` · ${t("driller.own-move", { steps: steps(view.own_move) })}`
        : (state.legal || []).length ? ` · ${t("driller.your-turn")}` : "";
      info.textContent = outcome ? describeResult("driller", outcome) : `${t("driller.round", { round: view.rounds + 1, depths })}${own}${last}`;
      const choices = picked ? ends.get(picked) || [] : [];
      controls.replaceChildren(choices.length > 1 ? actionChoices(choices, send, (p) => t("driller.path", { path: p }), "paths") : "");
    }

    function send(path) {
      picked = null;
      state = sent(state);
      draw();
      onAction(path);
    }

    function pick(name, ends) {
      const paths = ends.get(name);
      if (!paths) return;
      if (paths.length === 1) return send(paths[0]);
      picked = name;
      draw();
    }

    return {
      update(next) {
        state = next;
        picked = null;
        draw();
      },
      destroy() {
        host.replaceChildren();
      },
    };
  },
};
