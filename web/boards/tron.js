// Tron: light-cycles on a square grid (12x12 for three players, two wider per extra player;
// columns a.., rows 1.. from the bottom). Heads are drawn as arrows facing their way, tails as
// a trail in the seat's colour, flags as pennants, crushers as bars across a grid line. Below
// the grid: the scores and the cards turned over, then the user's own hand, which only this
// user's private view carries (`view.hand`; null for a spectator). Placing a head or tail is a
// click on a square (`head c5`); a card is played by clicking it (`play dash`); the decisions
// cards need later (`go left 2`, `keep 3`, `crusher c5-c6`) are offered from the legal list.
// A seat's colour is never alone: its head and a flag it bars carry its number, which the scores
// give beside a sample of the colour and the seat's name. Squares that may be clicked are dotted.
import { svg, el } from "../dom.js";
import { svgRoot, actionChoices, caption, seatColour, sent } from "./shared.js";
import { describeResult, reasonText } from "../results.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";

const CELL = 32;
const PAD = 22;
const ARROW = { north: "0,-1", south: "0,1", east: "1,0", west: "-1,0" };
const REGULAR = ["forward", "left", "right"];

const cellName = (col, row) => String.fromCharCode(97 + col) + (row + 1);
const parseCell = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];

export default {
  // The move box's example, in the game's own notation (the card for the round, then its move).
  moveExample: "play forward, go left 2",
  create(host, { onAction }) {
    const root = svgRoot(10, 10, t("tron.board"));
    const info = caption("");
    const scores = el("div", { class: "tron-scores", "data-testid": "tron-scores" });
    const hand = el("div", { class: "tron-hand", "data-testid": "hand" });
    const controls = el("div");
    host.append(root, info, scores, hand, controls);

    function update(state) {
      const send = (text) => {
        update(sent(state));
        onAction(text);
      };
      const view = state.view;
      const n = view.size;
      const side = PAD * 2 + n * CELL;
      root.setAttribute("viewBox", `0 0 ${side} ${side}`);
      const legal = state.legal || [];
      const at = (col, row) => [PAD + col * CELL, PAD + (n - 1 - row) * CELL];
      const centre = (name) => {
        const [x, y] = at(...parseCell(name));
        return [x + CELL / 2, y + CELL / 2];
      };
      // Squares the user may click: a head or tail placement in the legal list.
      const placements = new Map();
      for (const action of legal) {
        const [verb, square] = action.split(" ");
        if ((verb === "head" || verb === "tail") && square) placements.set(square, action);
      }

      root.replaceChildren(svg("rect", { width: side, height: side, class: "deep", rx: 8 }));
      for (let row = 0; row < n; row++) {
        for (let col = 0; col < n; col++) {
          const name = cellName(col, row);
          const [x, y] = at(col, row);
          const target = placements.has(name);
          const cell = svg("rect", {
            x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 3,
            "data-testid": `sq-${name}`, class: target ? "deep-cell target" : "deep-cell", style: target ? "cursor: pointer" : null,
          });
          if (target) cell.addEventListener("click", () => send(placements.get(name)));
          root.append(cell);
          if (target) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 4, class: "deep-target", "pointer-events": "none" }));
        }
      }
      for (let i = 0; i < n; i++) {
        const [x, y] = at(i, i);
        root.append(svg("text", { x: x + CELL / 2, y: side - 6, "text-anchor": "middle", "font-size": 10, class: "deep-label" }, String.fromCharCode(97 + i)),
          svg("text", { x: PAD / 2, y: y + CELL / 2 + 4, "text-anchor": "middle", "font-size": 10, class: "deep-label" }, String(i + 1)));
      }
      for (const flag of view.flags) {
        const [x, y] = centre(flag.at);
        root.append(svg("g", { "data-testid": `flag-${flag.at}`, "pointer-events": "none" },
          svg("line", { x1: x - 6, y1: y + 10, x2: x - 6, y2: y - 10, stroke: "#eee", "stroke-width": 2 }),
          svg("polygon", { points: `${x - 6},${y - 10} ${x + 9},${y - 5} ${x - 6},${y}`, fill: flag.barred === null ? "#f5d742" : seatColour(flag.barred) }),
          flag.barred === null ? null : svg("text", { x: x + 4, y: y + 10, "text-anchor": "middle", "font-size": 9, class: "tag" }, String(flag.barred + 1))));
      }
      view.seats.forEach((seat, index) => {
        const cycle = seat.cycle;
        if (!cycle) return;
        const colour = cycle.alive ? seatColour(index) : "#777";
        const points = [...cycle.tail, cycle.head].map(centre);
        root.append(svg("polyline", {
          points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: colour,
          "stroke-width": 10, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.55, "pointer-events": "none",
        }));
        const [x, y] = centre(cycle.head);
        const [dx, dy] = ARROW[cycle.facing].split(",").map(Number);
        // An arrowhead pointing the way the cycle faces (screen y grows downward).
        const tip = [x + dx * 12, y + dy * 12];
        const left = [x - dx * 8 + dy * 9, y - dy * 8 - dx * 9];
        const right = [x - dx * 8 - dy * 9, y - dy * 8 + dx * 9];
        root.append(svg("polygon", {
          points: [tip, left, right].map((p) => p.join(",")).join(" "), fill: colour, stroke: "#fff", "stroke-width": 1.5,
          "data-testid": `head-${index}`, "pointer-events": "none",
        }), svg("text", { x, y: y + 3.5, "text-anchor": "middle", "font-size": 10, class: "tag" }, String(index + 1)));
      });
      for (const line of view.crushers) {
        const [a, b] = line.split("-").map(centre);
        const [mx, my] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const vertical = a[1] === b[1]; // squares side by side: the bar stands upright between them
        root.append(svg("rect", {
          x: mx - (vertical ? 3 : CELL / 2), y: my - (vertical ? CELL / 2 : 3),
          width: vertical ? 6 : CELL, height: vertical ? CELL : 6, fill: "#e74c3c", "data-testid": `crusher-${line}`, "pointer-events": "none",
        }));
      }

      scores.replaceChildren(...view.seats.map((seat, index) => el("span", { class: "tron-seat", "data-testid": `score-${index}` },
        el("span", { class: "swatch", style: `background: ${seatColour(index)}` }), el("b", {}, `${index + 1} `),
        t("tron.score", { side: seatName("tron", index), points: seat.score, count: seat.specials }) + (seat.chosen ? " ✓" : "") +
        (view.played[index] ? ` [${view.played[index]}]` : ""))));

      // The user's own hand: the three regular cards and their special cards.
      hand.replaceChildren();
      if (view.hand) {
        hand.append(el("span", {}, `${t("tron.your-cards")} `));
        for (const card of [...REGULAR, ...view.hand]) {
          const action = `play ${card}`;
          const playable = legal.includes(action);
          hand.append(el("button", {
            type: "button", class: playable ? "tron-card playable" : "tron-card secondary", "data-testid": `card-${card}`,
            disabled: playable ? null : "disabled", onclick: () => send(action),
          }, card));
        }
        if (view.pending) hand.append(el("span", { "data-testid": "pending" }, ` · ${t("tron.chosen", { card: view.pending })}`));
      }
      const others = legal.filter((a) => !/^(play|head|tail) /.test(a));
      controls.replaceChildren(others.length ? actionChoices(others, send) : "");

      const outcome = state.result || view.outcome;
      const events = view.events.length ? " · " + view.events.map(eventText).join("; ") : "";
      info.textContent = outcome
        ? describeResult("tron", outcome)
        : `${t(view.over_drive ? "tron.round-over-drive" : "tron.round", { round: view.round, target: view.target })} · ${stageText(view.stage)}${events}`;
    }

    return {
      update,
      destroy() {
        host.replaceChildren();
      },
    };
  },
};

function stageText(stage) {
  switch (stage.stage) {
    case "place_head": return t("tron.place-head", { side: seatName("tron", stage.seat) });
    case "place_tail": return t("tron.place-tail", { side: seatName("tron", stage.seat), head: stage.head });
    case "choose": return t("tron.choose");
    case "enact": return t("tron.enact", { phase: stage.phase });
    default: return "";
  }
}

function eventText(event) {
  const side = event.seat === undefined ? "" : seatName("tron", event.seat);
  switch (event.event) {
    case "died": return t("tron.died", { side, cause: reasonText(event.cause.kind) });
    case "captured": return t("tron.captured", { side, at: event.at });
    case "flag_placed": return t("tron.flag-placed", { at: event.at });
    case "cut": return t("tron.cut", { side, owner: seatName("tron", event.owner), at: event.at });
    case "crusher_placed": return t("tron.crusher-placed", { side, to: event.to });
    default: return event.event.replace(/_/g, " ") + (side ? ` (${side})` : "");
  }
}
