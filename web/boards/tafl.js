// The 2D tafl board, for every variant (7x7 to 19x19): an SVG drawn from the view's OpenTafl
// position. Click a piece to see where it may go (from the server's legal actions), then click a
// destination. The last move and its captures are marked.
import { svg } from "../dom.js";

// The special squares of a variant, read from its OpenTafl rules string (the catalog's, or a
// custom variant's own): where the king escapes (`esc:e`, any edge square; else the corners),
// the corner squares (`cor:`, a list; the four corners when absent) and whether the centre is a
// throne (`cen:` with an empty list: no throne).
function specialSquares(rules, dim) {
  const field = (key) => rules?.match(new RegExp(`(?:^| )${key}:(\\S*)`))?.[1] ?? null;
  const last = dim - 1;
  const fourCorners = [[0, 0], [0, last], [last, 0], [last, last]].map(([f, r]) => squareName(f, r));
  const cor = field("cor");
  return {
    escape: field("esc") === "e" ? "edge" : "corner",
    corners: new Set(cor === null ? fourCorners : cor.split(",").filter((sq) => sq)),
    throne: field("cen") !== "",
  };
}

const UNIT = 10;

// The position's ranks, rank 1 first, each an array of null | "t" | "T" | "K".
function parsePosition(text) {
  return text.split("/").filter((r) => r.length).map((rank) => {
    const squares = [];
    for (const [, digits, piece] of rank.matchAll(/(\d+)|([tTK])/g)) {
      if (digits) squares.push(...Array(Number(digits)).fill(null));
      else squares.push(piece);
    }
    return squares;
  });
}

const fileName = (f) => String.fromCharCode(97 + f);
const squareName = (f, r) => `${fileName(f)}${r + 1}`;

// "e5-e8xe9/f8" -> {from: "e5", to: "e8", captured: ["e9", "f8"]}.
function parseMove(text) {
  const [move, captures] = text.split("x");
  const [from, to] = move.split("-");
  return { from, to, captured: captures ? captures.split("/") : [] };
}

export default {
  // How the pages show tafl (see boards/index.js).
  views: [
    { id: "2d", label: "2D board", load: () => import("./tafl.js") },
    { id: "3d", label: "3D board", load: () => import("./tafl3d.js") },
  ],
  moveList: "pairs",
  customRules: {
    label: "Custom rules (OpenTafl notation)",
    placeholder: "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
  },
  lobbyVariants: { main: "copenhagen", short: "brandubh" },

  create(el, { variant, rules, onAction }) {
    let special = null;
    let dim = 0;
    let squares = new Map();
    let layer = null;
    let state = null;
    let selected = null;
    const root = svg("svg", { class: "tafl", role: "img", "aria-label": `${variant} board` });
    el.append(root);

    // The squares and labels, drawn once the size is known (from the first view).
    const build = (size) => {
      dim = size;
      special = specialSquares(rules, dim);
      squares = new Map();
      const margin = 6;
      root.setAttribute("viewBox", `${-margin} 0 ${dim * UNIT + margin} ${dim * UNIT + margin}`);
      root.replaceChildren();
      const isCorner = (f, r) => special.escape === "corner" && special.corners.has(squareName(f, r));
      const isEdge = (f, r) => special.escape === "edge" && (f === 0 || r === 0 || f === dim - 1 || r === dim - 1);
      const centre = (dim - 1) / 2;
      for (let r = 0; r < dim; r += 1) {
        for (let f = 0; f < dim; f += 1) {
          const name = squareName(f, r);
          const kind = isCorner(f, r) ? "corner" : special.throne && f === centre && r === centre ? "throne" : isEdge(f, r) ? "edge" : "plain";
          const rect = svg("rect", {
            x: f * UNIT, y: (dim - 1 - r) * UNIT, width: UNIT, height: UNIT,
            class: `sq ${kind}`, "data-testid": `sq-${name}`, "data-sq": name,
          });
          root.append(rect);
          squares.set(name, rect);
        }
      }
      for (let i = 0; i < dim; i += 1) {
        root.append(svg("text", { x: i * UNIT + UNIT / 2, y: dim * UNIT + 4.5, class: "coord" }, fileName(i)));
        root.append(svg("text", { x: -3, y: (dim - 1 - i) * UNIT + UNIT / 2 + 1.2, class: "coord" }, String(i + 1)));
      }
      layer = svg("g", { class: "pieces" });
      root.append(layer);
    };

    // The legal actions starting on a square, by destination.
    const movesFrom = (from) => {
      const out = new Map();
      for (const action of state?.legal ?? []) {
        const m = parseMove(action);
        if (m.from === from) out.set(m.to, action);
      }
      return out;
    };

    const draw = () => {
      const ranks = parsePosition(state.view.position);
      if (ranks.length !== dim) build(ranks.length);
      const last = state.view.last_move ? parseMove(state.view.last_move) : null;
      const targets = selected ? movesFrom(selected) : new Map();
      for (const [name, rect] of squares) {
        const [, file, rank] = name.match(/([a-z])(\d+)/);
        // The piece on the square, for tests and assistive tools (the drawn pieces lie above).
        rect.dataset.piece = ranks[Number(rank) - 1][file.charCodeAt(0) - 97] ?? "";
        rect.classList.toggle("last", !!last && (name === last.from || name === last.to));
        rect.classList.toggle("captured", !!last && last.captured.includes(name));
        rect.classList.toggle("selected", name === selected);
        rect.classList.toggle("target", targets.has(name));
        rect.classList.toggle("movable", !selected && movesFrom(name).size > 0);
      }
      const items = [];
      ranks.forEach((rank, r) => rank.forEach((piece, f) => {
        const cx = f * UNIT + UNIT / 2;
        const cy = (dim - 1 - r) * UNIT + UNIT / 2;
        // A movable piece's square is outlined just inside its edges, above every square, so
        // that the next square drawn does not cover half of it.
        if (squares.get(squareName(f, r)).classList.contains("movable")) {
          items.push(svg("rect", { x: cx - UNIT / 2 + 0.3, y: cy - UNIT / 2 + 0.3, width: UNIT - 0.6, height: UNIT - 0.6, class: "outline" }));
        }
        if (piece) {
          const cls = piece === "t" ? "attacker" : piece === "T" ? "defender" : "king";
          items.push(svg("circle", { cx, cy, r: UNIT * 0.36, class: `piece ${cls}` }));
          if (piece === "K") items.push(svg("path", { d: `M${cx - 2.2} ${cy}h4.4M${cx} ${cy - 2.2}v4.4`, class: "king-mark" }));
        }
        const name = squareName(f, r);
        if (targets.has(name)) items.push(svg("circle", { cx, cy, r: UNIT * 0.14, class: "dot" }));
        if (last?.captured.includes(name)) items.push(svg("path", { d: `M${cx - 2.5} ${cy - 2.5}l5 5M${cx + 2.5} ${cy - 2.5}l-5 5`, class: "cross" }));
      }));
      layer.replaceChildren(...items);
    };

    root.addEventListener("click", (e) => {
      const name = e.target.closest("[data-sq]")?.dataset.sq;
      if (!name || !state) return;
      if (selected) {
        const action = movesFrom(selected).get(name);
        if (action) {
          selected = null;
          draw();
          onAction(action);
          return;
        }
      }
      selected = movesFrom(name).size > 0 && name !== selected ? name : null;
      draw();
    });

    return {
      update(next) {
        state = next;
        if (selected && movesFrom(selected).size === 0) selected = null;
        draw();
      },
      destroy() {
        root.remove();
      },
    };
  },
};
