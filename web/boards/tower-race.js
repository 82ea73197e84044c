// The Tower of Hanoi race: a square board (5x5 basic, 7x7 advanced) each seat crosses along its
// own clockwise spiral to the End-tile in the centre. Tiles show the viewer's path numbers; the
// die shows the turn's roll. A pyramid is drawn as a triangle in its owner's colour, sized by its
// size; clicking one of the acting seat's pyramids moves it (`m2`). Every other action (pass,
// wait, challenges and their answers) is a labelled button from the legal list.
import { svg, html, svgRoot, actionChoices, actingSeat, caption, seatColour, sent } from "./svg.js";
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

function pyramid(x, y, size, max, seat, testid, clickable) {
  const h = 14 + (size / max) * 22;
  const w = h * 1.1;
  return svg("polygon", {
    points: `${x},${y - h} ${x - w / 2},${y} ${x + w / 2},${y}`,
    fill: seatColour(seat), stroke: "#111", "stroke-width": clickable ? 3 : 1.5,
    "stroke-dasharray": clickable ? "5 3" : null,
    "data-testid": testid, class: clickable ? "movable" : null, style: clickable ? "cursor: pointer" : null,
  });
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
  create(el, { perspective, onAction }) {
    const root = svgRoot(10, 10, t("tower.board"));
    const info = caption("");
    const controls = html("div");
    const legend = html("p", { class: "legend", "data-testid": "legend" },
      t("tower.legend"));
    el.append(root, info, controls, legend);

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
      const height = PAD * 2 + side * TILE + 90 + homeRows * HOME_ROW;
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

      root.replaceChildren(svg("rect", { width, height, fill: "#f4efe3", rx: 10 }));
      for (let rank = side - 1; rank >= 0; rank--) {
        for (let file = 0; file < side; file++) {
          const name = "abcdefg"[file] + (rank + 1);
          const x = PAD + file * TILE;
          const y = PAD + (side - 1 - rank) * TILE;
          const start = starts.get(name);
          const cell = svg("g", { "data-testid": `sq-${name}` });
          cell.append(svg("rect", {
            x: x + 1, y: y + 1, width: TILE - 2, height: TILE - 2, rx: 6,
            fill: name === view.end_tile ? "#f2d15c" : safe.has(name) ? "#cfe8cf" : "#fffaf0",
            stroke: start !== undefined ? seatColour(start) : name === lastTile ? "#e07b00" : "#b8a98a",
            "stroke-width": start !== undefined || name === lastTile ? 4 : 1.5,
          }));
          cell.append(svg("text", { x: x + 6, y: y + 14, "font-size": 11, fill: "#7a6a4a" },
            name === view.end_tile ? "END" : String(pathIndex.get(name) ?? "")));
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
      const dieY = PAD + side * TILE + 10;
      root.append(die(PAD, dieY, 50, roll));
      const rollText = view.stage.move
        ? t("tower.rolled", { side: seatName(view.stage.move.seat), roll })
        : view.last_roll ? t("tower.last-rolled", { side: seatName(view.last_roll.seat), roll }) : "";
      root.append(svg("text", { x: PAD + 62, y: dieY + 30, "font-size": 16, "data-testid": "roll" }, rollText));

      // Each seat's home stack (pyramids not yet on the board) and finished pyramids.
      view.seats.forEach((s, i) => {
        const x = PAD + (i % 4) * ((width - 2 * PAD) / 4);
        const y = dieY + 100 + Math.floor(i / 4) * HOME_ROW;
        const group = svg("g", { "data-testid": `home-${s.seat}` });
        group.append(svg("text", { x, y: y - 40, "font-size": 12, fill: seatColour(s.seat) },
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
        if (done) group.append(svg("text", { x: px + 4, y: y - 4, "font-size": 12 }, t("tower.done", { count: done })));
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
        el.replaceChildren();
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
