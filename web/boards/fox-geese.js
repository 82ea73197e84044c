// Fox and Geese on the 33-point cross (files a-g, ranks 1-7, a1 bottom left; orthogonal lines
// only). Seat 0 plays the geese, seat 1 the fox. An action is a path of points, `a3-a4` or the
// fox's chain of jumps `d5-d3-f3`: the user clicks a piece, then each landing in turn; a path
// that is complete but could jump on gets a "stop here" button. The fox is orange and marked F,
// the geese white; the last move's points are framed, the pieces that may move ringed with
// dashes, the points picked so far ringed solid, and where the path may go next dotted.
import { svg, el } from "../dom.js";
import { svgRoot, actionChoices, caption, sent } from "./shared.js";
import { describeResult } from "../results.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";

const STEP = 60;
const PAD = 44;
const SIZE = PAD * 2 + STEP * 6;
const FILES = "abcdefg";

const onCross = (f, r) => (f >= 2 && f <= 4) || (r >= 2 && r <= 4);
const pointName = (f, r) => FILES[f] + (r + 1);
const at = (f, r) => [PAD + f * STEP, PAD + (6 - r) * STEP];

function points() {
  const list = [];
  for (let r = 0; r < 7; r++) for (let f = 0; f < 7; f++) if (onCross(f, r)) list.push([f, r]);
  return list;
}

/// The lines of the cross: each point joined to its right and upper neighbours.
function drawLines() {
  const group = svg("g", { class: "line", "stroke-width": 3 });
  for (const [f, r] of points()) {
    const [x, y] = at(f, r);
    if (onCross(f + 1, r) && f < 6) {
      const [x2] = at(f + 1, r);
      group.append(svg("line", { x1: x, y1: y, x2, y2: y }));
    }
    if (onCross(f, r + 1) && r < 6) {
      const [, y2] = at(f, r + 1);
      group.append(svg("line", { x1: x, y1: y, x2: x, y2 }));
    }
  }
  return group;
}

export default {
  // The move box's example, in the game's own notation (a step, or a jump chain as its points).
  moveExample: "d5-d4, d5-d3-f3",
  create(host, { onAction }) {
    const root = svgRoot(SIZE, SIZE, t("fox-geese.board"));
    const info = caption("");
    const controls = el("div");
    host.append(root, info, controls);
    let state = null;
    let path = []; // the points picked so far for the action being built

    function draw() {
      const view = state.view;
      const legal = state.legal || [];
      const prefix = path.join("-");
      const extensions = path.length
        ? legal.filter((a) => a.startsWith(prefix + "-"))
        : [];
      const next = new Set(extensions.map((a) => a.slice(prefix.length + 1).split("-")[0]));
      const starts = new Set(legal.map((a) => a.split("-")[0]));
      const lastPath = view.last_action ? view.last_action.split("-") : [];
      const geese = new Set(view.geese);

      root.replaceChildren(svg("rect", { width: SIZE, height: SIZE, class: "frame", rx: 12 }),
        drawLines());
      for (let i = 0; i < 7; i++) {
        const [x] = at(i, 0);
        const [, y] = at(0, i);
        root.append(svg("text", { x, y: SIZE - 6, "text-anchor": "middle", "font-size": 14, class: "label" }, FILES[i]));
        root.append(svg("text", { x: 10, y: y + 5, "text-anchor": "middle", "font-size": 14, class: "label" }, String(i + 1)));
      }
      for (const [f, r] of points()) {
        const name = pointName(f, r);
        const [x, y] = at(f, r);
        const picked = path.includes(name);
        const target = next.has(name);
        const selectable = !path.length && starts.has(name);
        const cell = svg("g", {
          "data-testid": `sq-${name}`,
          class: target ? "target" : selectable ? "movable" : null,
          style: target || selectable || picked ? "cursor: pointer" : null,
        });
        cell.append(svg("circle", { cx: x, cy: y, r: 26, fill: "transparent" }));
        if (lastPath.includes(name)) {
          cell.append(svg("rect", { x: x - 25, y: y - 25, width: 50, height: 50, rx: 6, class: "mark-last" }),
            svg("rect", { x: x - 25, y: y - 25, width: 50, height: 50, rx: 6, class: "mark-last-line", "stroke-width": 2.5 }));
        }
        cell.append(svg("circle", { cx: x, cy: y, r: 6, class: "point" }));
        if (view.fox === name) {
          cell.append(svg("circle", { cx: x, cy: y, r: 20, fill: "#d2691e", stroke: "#5a2d0c", "stroke-width": 3 }),
            svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 16, class: "tag" }, "F"));
        } else if (geese.has(name)) {
          cell.append(svg("circle", { cx: x, cy: y, r: 18, class: "piece-light", "stroke-width": 2 }));
        }
        if (picked) {
          cell.append(svg("circle", { cx: x, cy: y, r: 24, class: "mark-select", "stroke-width": 4 }));
        }
        if (target) cell.append(svg("circle", { cx: x, cy: y, r: 10, class: "mark-target" }));
        if (selectable) {
          cell.append(svg("circle", { cx: x, cy: y, r: 24, class: "mark-movable", "stroke-width": 2.5, "stroke-dasharray": "5 4" }));
        }
        cell.addEventListener("click", () => pick(name));
        root.append(cell);
      }

      const side = seatName("fox-geese", view.to_move === "fox" ? 1 : 0);
      info.textContent = state.result || view.outcome
        ? describeResult("fox-geese", state.result || view.outcome)
        : t("board.to-move", { side }) + (view.last_action ? ` · ${t("board.last", { action: view.last_action })}` : "");
      const complete = path.length > 1 && legal.includes(prefix) && extensions.length > 0;
      controls.replaceChildren(complete
        ? actionChoices([prefix], send, () => t("fox-geese.stop-at", { point: path[path.length - 1] }), "stop")
        : "");
    }

    function send(text) {
      path = [];
      state = sent(state);
      draw();
      onAction(text);
    }

    function pick(name) {
      const legal = state.legal || [];
      if (!path.length || (path.length === 1 && path[0] === name)) {
        path = path.length ? [] : legal.some((a) => a.startsWith(name + "-")) ? [name] : [];
      } else {
        const candidate = [...path, name].join("-");
        if (legal.some((a) => a.startsWith(candidate + "-"))) {
          path.push(name);
          return draw();
        }
        if (legal.includes(candidate)) return send(candidate);
        // A click elsewhere starts again from that piece, if it can move.
        path = legal.some((a) => a.startsWith(name + "-")) ? [name] : [];
      }
      draw();
    }

    return {
      update(next) {
        state = next;
        path = [];
        draw();
      },
      destroy() {
        host.replaceChildren();
      },
    };
  },
};
