// The Tower of Hanoi race: a square board (5x5 basic, 7x7 advanced) each seat crosses along its
// own clockwise spiral to the End-tile in the centre. Tiles show the viewer's path numbers; the
// die shows the turn's roll. A pyramid is drawn as a triangle in its owner's colour, sized by its
// size; clicking one of the acting seat's pyramids moves it (`m2`). Every other action (pass,
// wait, challenges and their answers) is a labelled button from the legal list. Nothing is told
// by colour alone: a pyramid carries its seat's number, a start tile the number of the seat
// starting there, a safe tile a ring, and the tile of the last challenge a dashed frame.
import { svg, el } from "../dom.js";
import { svgRoot, actionChoices, actingSeat, caption, seatColour, sent } from "./shared.js";
import { describeResult } from "../results.js";
import { seatName as nameOf } from "../catalog.js";
import { t } from "../i18n.js";

const TILE = 64;
const PAD = 24;
const HOME_ROW = 56;
const PIPS = {
  1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

/// A die face showing `value` (or blank), at (x, y), `size` wide.
export function die(x, y, size, value, testid = "die") {
  const group = svg("g", { "data-testid": testid, "data-value": value ?? "" });
  group.append(svg("rect", { x, y, width: size, height: size, rx: size / 6, fill: "#fff", stroke: "#333", "stroke-width": 2 }));
  for (const [i, j] of PIPS[value] || []) {
    group.append(svg("circle", { cx: x + size * (0.22 + i * 0.28), cy: y + size * (0.22 + j * 0.28), r: size / 11, fill: "#222" }));
  }
  return group;
}

// A pyramid in its seat's colour with the seat's number on it; one that may move is outlined with
// dashes.
function pyramid(x, y, size, max, seat, testid, clickable) {
  const h = 14 + (size / max) * 22;
  const w = h * 1.1;
  return svg("g", {},
    svg("polygon", {
      points: `${x},${y - h} ${x - w / 2},${y} ${x + w / 2},${y}`,
      fill: seatColour(seat), stroke: "#111", "stroke-width": clickable ? 3 : 1.5,
      "stroke-dasharray": clickable ? "5 3" : null,
      "data-testid": testid, class: clickable ? "movable" : null, style: clickable ? "cursor: pointer" : null,
    }),
    svg("text", { x, y: y - 3, "text-anchor": "middle", "font-size": 9, class: "tag" }, String(seat + 1)));
}

function label(text) {
  if (["pass", "wait", "accept", "refuse"].includes(text)) return t(`tower.${text}`);
  const move = text.match(/^m(\d)$/);
  if (move) return t("tower.move", { size: move[1] });
  const challenge = text.match(/^c(\d)x(\d)$/);
  if (challenge) return t("tower.challenge", { size: challenge[1], against: challenge[2] });
  return text;
}

export default {
  // The move box's example, in the game's own notation (move pyramid 2, or challenge with pyramid 1 over pyramid 3).
  moveExample: "m2, c1x3",
  create(host, { perspective, onAction }) {
    const root = svgRoot(10, 10, t("tower.board"));
    const info = caption("");
    const controls = el("div");
    const legend = el("p", { class: "legend", "data-testid": "legend" },
      t("tower.legend"));
    host.append(root, info, controls, legend);

    function send(state, text) {
      update(sent(state));
      onAction(text);
    }

    function update(state) {
      const view = state.view;
      const side = view.board === "advanced" ? 7 : 5;
      const seats = view.seats.length;
      const homeRows = Math.ceil(seats / 4);
      const width = PAD * 2 + side * TILE;
      // Under the tiles: the die, then the seats' home stacks, four seats to a row (`homeY` is
      // the foot of a row's pyramids).
      const dieY = PAD + side * TILE + 10;
      const homeY = (row) => dieY + 100 + row * HOME_ROW;
      const height = homeY(homeRows - 1) + PAD / 2;
      root.setAttribute("viewBox", `0 0 ${width} ${height}`);
      const acting = actingSeat(state);
      const legal = state.legal || [];
      const max = view.seats[0].pyramids.length;
      const movable = (seat, size) => seat === acting && legal.includes(`m${size}`);
      const viewer = view.seats[perspective ?? 0] || view.seats[0];
      const pathIndex = new Map(viewer.path.map((tile, i) => [tile, i + 1]));
      const starts = new Map(view.seats.map((s) => [s.start, s.seat]));
      const safe = new Set(view.safe_tiles);
      const stacks = new Map(view.stacks);
      const lastTile = view.last_challenge ? view.last_challenge.challenge.tile : null;

      root.replaceChildren(svg("rect", { width, height, class: "frame", rx: 10 }));
      for (let rank = side - 1; rank >= 0; rank--) {
        for (let file = 0; file < side; file++) {
          const name = "abcdefg"[file] + (rank + 1);
          const x = PAD + file * TILE;
          const y = PAD + (side - 1 - rank) * TILE;
          const start = starts.get(name);
          const cell = svg("g", { "data-testid": `sq-${name}` });
          const end = name === view.end_tile;
          cell.append(svg("rect", {
            x: x + 1, y: y + 1, width: TILE - 2, height: TILE - 2, rx: 6,
            class: end ? "goal" : safe.has(name) ? "cell safe" : "cell",
            // The seat's colour over the theme's outline (a class's colour beats an attribute's).
            style: start !== undefined ? `stroke: ${seatColour(start)}` : null,
            "stroke-width": start !== undefined ? 4 : 1.5,
          }));
          if (name === lastTile) {
            cell.append(svg("rect", { x: x + 5, y: y + 5, width: TILE - 10, height: TILE - 10, rx: 4, class: "mark-last-line", "stroke-width": 3, "stroke-dasharray": "8 4" }));
          }
          if (safe.has(name)) cell.append(svg("circle", { cx: x + TILE / 2, cy: y + 12, r: 5, class: "mark-safe", "stroke-width": 2 }));
          if (start !== undefined) {
            cell.append(svg("text", { x: x + TILE - 7, y: y + 15, "text-anchor": "end", "font-size": 12, "font-weight": 700, class: "label" }, String(start + 1)));
          }
          cell.append(svg("text", { x: x + 6, y: y + 14, "font-size": 11, class: end ? "goal-label" : "label" },
            end ? "END" : String(pathIndex.get(name) ?? "")));
          const stack = stacks.get(name) || [];
          stack.forEach((p, i) => {
            const px = x + TILE / 2 + (i - (stack.length - 1) / 2) * 16;
            cell.append(pyramid(px, y + TILE - 8, p.size, max, p.seat, `pyr-${p.seat}-${p.size}`, movable(p.seat, p.size)));
          });
          root.append(cell);
        }
      }

      // The die: the roll to move by now, else the last one rolled.
      const roll = view.stage.move ? view.stage.move.roll : view.last_roll ? view.last_roll.roll : null;
      root.append(die(PAD, dieY, 50, roll));
      const rollText = view.stage.move
        ? t("tower.rolled", { side: seatName(view.stage.move.seat), roll })
        : view.last_roll ? t("tower.last-rolled", { side: seatName(view.last_roll.seat), roll }) : "";
      root.append(svg("text", { x: PAD + 62, y: dieY + 30, "font-size": 16, class: "label", "data-testid": "roll" }, rollText));

      // Each seat's home stack (pyramids not yet on the board) and finished pyramids.
      view.seats.forEach((s, i) => {
        const x = PAD + (i % 4) * ((width - 2 * PAD) / 4);
        const y = homeY(Math.floor(i / 4));
        const group = svg("g", { "data-testid": `home-${s.seat}` });
        group.append(svg("text", { x, y: y - 40, "font-size": 12, class: "label" },
          s.loses_next_turn ? t("tower.skips", { side: seatName(s.seat) }) : seatName(s.seat)));
        let px = x + 12;
        s.pyramids.forEach((place, k) => {
          const size = k + 1;
          if (place === "home") {
            group.append(pyramid(px, y, size, max, s.seat, `pyr-${s.seat}-${size}`, movable(s.seat, size)));
            px += 24;
          }
        });
        const done = s.pyramids.filter((p) => p === "end").length;
        if (done) group.append(svg("text", { x: px + 4, y: y - 4, "font-size": 12, class: "label" }, t("tower.done", { count: done })));
        root.append(group);
      });
      root.querySelectorAll(".movable").forEach((node) => {
        const size = node.getAttribute("data-testid").split("-")[2];
        node.addEventListener("click", () => send(state, `m${size}`));
      });

      const outcome = state.result || view.outcome;
      const challenge = view.last_challenge;
      const rolls = challenge && challenge.answer.played
        ? ` · ${t("tower.challenge-rolls", { rolls: challenge.answer.played.rolls.map((r) => r.join(":")).join(", "), side: seatName(challenge.answer.played.winner) })}`
        : "";
      const yours = acting !== null && legal.some((a) => /^m\d$/.test(a)) ? `: ${t("tower.click-pyramid")}` : "";
      info.textContent = outcome ? describeResult("tower-race", outcome) : `${stageText(view.stage)}${yours}${rolls}`;
      controls.replaceChildren(legal.length ? actionChoices(legal, (text) => send(state, text), label) : "");
    }

    return {
      update,
      destroy() {
        host.replaceChildren();
      },
    };
  },
};

/// A seat as the board names it: by the colour its pyramids are drawn in.
function seatName(seat) {
  return nameOf("tower-race", seat);
}

function stageText(stage) {
  if (stage.move) return t("tower.stage-move", { side: seatName(stage.move.seat), count: stage.move.roll });
  if (stage.challenge) return t("tower.stage-challenge", { side: seatName(stage.challenge.seat) });
  if (stage.answer) return t("tower.stage-answer", { side: seatName(stage.answer.challenged.seat) });
  return "";
}
