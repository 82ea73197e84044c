// The 2D tafl board, for every variant (7x7 to 19x19): an SVG drawn from the view's OpenTafl
// position. A piece moves by a click on it and then on a lit destination, by dragging it there, or
// from the keyboard (the arrow keys between squares, Enter or Space as a click); where it may go
// comes from the server's legal actions. The last move and its captures are marked. A defender
// sees the board from the defenders' side (turned half round), and `setFlip` turns it for anyone.
// While the opponent is to move, a player may queue one premove, played when the turn comes if it
// is legal then; right-button arrows and marks are drawn as on lichess (see interact.js).
import { svg } from "../dom.js";
import { pref } from "../prefs.js";
import { t } from "../i18n.js";
import { variantName } from "../names.js";
import { dragPieces, drawings, keyboard } from "./interact.js";
import { fileName, parseMove, parsePosition, squareCoords, squareName } from "./tafl-notation.js";

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

const PIECES = { t: "piece.attacker", T: "piece.defender", K: "piece.king" };
// How each piece is drawn (style.css): the attackers dark, the defenders light, the king marked.
const PIECE_CLASS = { t: "piece-dark", T: "piece-light", K: "king" };
// The pieces each seat moves: the attackers (seat 0) and the defenders with their king (seat 1).
const SEAT_PIECES = ["t", "TK"];

export default {
  // The move box's example, in the game's own notation (a piece's square, then where it goes).
  moveExample: "d1-d3",
  // How the pages show tafl (see boards/index.js).
  views: [
    { id: "2d", get label() { return t("board.view-2d"); }, load: () => import("./tafl.js") },
    { id: "3d", get label() { return t("board.view-3d"); }, load: () => import("./tafl3d.js") },
  ],
  moveList: "pairs",
  premoves: true,
  // A move that captured: its view's last move lists the captured squares after an "x".
  captured: (view) => !!view?.last_move?.includes("x"),
  customRules: {
    get label() {
      return t("tafl.custom-rules");
    },
    placeholder: "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
  },
  // An analysis board may start from a position typed in OpenTafl's position notation.
  positionNotation: {
    get label() {
      return t("tafl.position");
    },
    placeholder: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
  },
  lobbyVariants: { main: "copenhagen", short: "brandubh" },
  variantDifferences: { standard: "copenhagen" },

  create(el, { variant, rules, perspective = null, flip = false, onAction }) {
    let special = null;
    let dim = 0;
    let squares = new Map();
    let layer = null;
    let state = null;
    let ranks = [];
    let selected = null;
    // The queued premove, {from, to}, or null.
    let premove = null;
    // Turned half round: the defenders' side at the bottom.
    let turned = (perspective === 1) !== flip;
    const root = svg("svg", { class: "board-svg tafl", role: "group", "aria-label": t("board.label", { variant: variantName("tafl", variant) }), "data-cell": UNIT });
    el.append(root);

    const left = (f) => (turned ? dim - 1 - f : f) * UNIT;
    const top = (r) => (turned ? r : dim - 1 - r) * UNIT;
    const centre = (name) => {
      const [f, r] = squareCoords(name);
      return { x: left(f) + UNIT / 2, y: top(r) + UNIT / 2 };
    };
    const pieceOn = (name) => {
      const [f, r] = squareCoords(name);
      return ranks[r]?.[f] ?? null;
    };

    // The squares, labels and layers, drawn once the size is known (from the first view) and
    // again when the board turns.
    const build = (size) => {
      dim = size;
      special = specialSquares(rules, dim);
      squares = new Map();
      const margin = 6;
      root.setAttribute("viewBox", `${-margin} 0 ${dim * UNIT + margin} ${dim * UNIT + margin}`);
      root.dataset.turned = String(turned);
      // The frame under the squares and the coordinates.
      root.replaceChildren(svg("rect", { x: -margin, y: 0, width: dim * UNIT + margin, height: dim * UNIT + margin, rx: 1.5, class: "frame" }));
      const isCorner = (f, r) => special.escape === "corner" && special.corners.has(squareName(f, r));
      const isEdge = (f, r) => special.escape === "edge" && (f === 0 || r === 0 || f === dim - 1 || r === dim - 1);
      const middle = (dim - 1) / 2;
      for (let r = 0; r < dim; r += 1) {
        for (let f = 0; f < dim; f += 1) {
          const name = squareName(f, r);
          const kind = isCorner(f, r) ? "corner" : special.throne && f === middle && r === middle ? "throne" : isEdge(f, r) ? "edge" : "plain";
          const rect = svg("rect", {
            x: left(f), y: top(r), width: UNIT, height: UNIT, role: "button", tabindex: "-1",
            class: `sq ${kind}`, "data-testid": `sq-${name}`, "data-sq": name, "data-kind": kind,
          });
          root.append(rect);
          squares.set(name, rect);
        }
      }
      for (let i = 0; i < dim; i += 1) {
        root.append(svg("text", { x: left(i) + UNIT / 2, y: dim * UNIT + 4.5, class: "label" }, fileName(i)));
        root.append(svg("text", { x: -3, y: top(i) + UNIT / 2 + 1.2, class: "label" }, String(i + 1)));
      }
      layer = svg("g", { class: "pieces" });
      root.append(layer, drawn, ring);
      notes.redraw();
      keys.reset();
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

    // Premoves are for a player while the opponent is to move (or the move just sent is on its
    // way): the board then offers nothing legal, and the player's pieces may be queued to go to
    // any square in line (the position may change first; the turn checks the move).
    const premoving = () => perspective !== null && !!state && !state.result && !state.past
      && state.legal.length === 0 && pref("premoves");
    const premovesFrom = (from) => {
      const out = new Map();
      if (!SEAT_PIECES[perspective]?.includes(pieceOn(from))) return out;
      const [f, r] = squareCoords(from);
      for (let i = 0; i < dim; i += 1) {
        if (i !== f) out.set(squareName(i, r), `${from}-${squareName(i, r)}`);
        if (i !== r) out.set(squareName(f, i), `${from}-${squareName(f, i)}`);
      }
      return out;
    };
    const choices = (from) => (premoving() ? premovesFrom(from) : movesFrom(from));

    // What a square says to a screen reader: its name, its piece and what it offers.
    const describe = (name, piece, targets) => [
      name,
      t(PIECES[piece] ?? "square.empty"),
      squares.get(name).dataset.kind === "plain" ? null : t(`square.${squares.get(name).dataset.kind}`),
      name === selected ? t("square.selected") : null,
      targets.has(name) ? t(premoving() ? "square.premove-here" : "square.move-here") : null,
      premove && name === premove.from ? t("square.premove-from") : null,
      premove && name === premove.to ? t("square.premove-to") : null,
    ].filter(Boolean).join(", ");

    const draw = () => {
      ranks = parsePosition(state.view.position);
      if (ranks.length !== dim) build(ranks.length);
      const last = state.view.last_move ? parseMove(state.view.last_move) : null;
      const targets = selected ? choices(selected) : new Map();
      const early = premoving();
      const inset = (name, cls) => {
        const { x, y } = centre(name);
        return svg("rect", { x: x - UNIT / 2 + 0.8, y: y - UNIT / 2 + 0.8, width: UNIT - 1.6, height: UNIT - 1.6, class: cls });
      };
      const items = [];
      for (const [name, rect] of squares) {
        const piece = pieceOn(name) ?? "";
        const { x: cx, y: cy } = centre(name);
        // The piece on the square, for tests and assistive tools (the drawn pieces lie above).
        rect.dataset.piece = piece;
        const wasLast = !!last && (name === last.from || name === last.to);
        const queued = !!premove && (name === premove.from || name === premove.to);
        rect.classList.toggle("last", wasLast);
        rect.classList.toggle("captured", !!last && last.captured.includes(name));
        rect.classList.toggle("selected", name === selected);
        rect.classList.toggle("target", !early && targets.has(name));
        rect.classList.toggle("pretarget", early && targets.has(name));
        rect.classList.toggle("premove", queued);
        rect.classList.toggle("movable", !selected && movesFrom(name).size > 0);
        rect.setAttribute("aria-label", describe(name, piece, targets));
        // Every marker has a shape of its own, not only a colour.
        if (wasLast) items.push(inset(name, "mark-last-line"));
        if (rect.classList.contains("movable")) items.push(inset(name, "mark-movable"));
        if (queued) items.push(inset(name, "premove-mark"));
        if (piece) {
          items.push(svg("g", { class: "piece-at", "data-on": name },
            svg("circle", { cx, cy, r: UNIT * 0.36, class: PIECE_CLASS[piece] }),
            name === selected ? svg("circle", { cx, cy, r: UNIT * 0.45, class: "mark-select" }) : null,
            piece === "K" ? svg("path", { d: `M${cx - 2.2} ${cy}h4.4M${cx} ${cy - 2.2}v4.4`, class: "king-mark" }) : null));
        }
        if (targets.has(name)) items.push(svg("circle", { cx, cy, r: UNIT * 0.14, class: early ? "mark-target pre" : "mark-target" }));
        if (last?.captured.includes(name)) items.push(svg("path", { d: `M${cx - 2.5} ${cy - 2.5}l5 5M${cx + 2.5} ${cy - 2.5}l-5 5`, class: "mark-capture" }));
      }
      layer.replaceChildren(...items);
    };

    // A click (or Enter) on a square: it cancels a queued premove; with a piece selected, a lit
    // destination plays the move (or queues it as the premove); else it selects the piece there.
    const pick = (name) => {
      if (!state) return;
      premove = null;
      if (selected) {
        const action = choices(selected).get(name);
        if (action) {
          if (premoving()) premove = { from: selected, to: name };
          selected = null;
          draw();
          if (!premove) onAction(action);
          return;
        }
      }
      selected = choices(name).size > 0 && name !== selected ? name : null;
      draw();
    };

    const ring = svg("g", { class: "focus" });
    const keys = keyboard(root, ring, pick);
    const drawn = svg("g", { class: "drawings" });
    const notes = drawings(root, drawn, centre, UNIT);
    root.addEventListener("click", (e) => {
      const name = e.target.closest("[data-sq]")?.dataset.sq;
      if (name) pick(name);
    });
    dragPieces(root, {
      canLift: (name) => !!state && choices(name).size > 0,
      lift: (name) => {
        premove = null;
        selected = name;
        draw();
      },
      piece: (name) => layer.querySelector(`[data-on="${name}"]`),
      drop: (from, to) => {
        if (to && to !== from && choices(from).has(to)) pick(to);
        else if (to !== from) {
          selected = null;
          draw();
        }
      },
    });

    return {
      update(next) {
        state = next;
        if (premove && state.legal.length) {
          // The turn has come: the premove is played if it is legal now, else forgotten.
          const action = movesFrom(premove.from).get(premove.to);
          premove = null;
          selected = null;
          if (action) {
            draw();
            queueMicrotask(() => onAction(action));
            return;
          }
        }
        if (state.result) premove = null;
        if (selected && choices(selected).size === 0) selected = null;
        draw();
      },
      setFlip(on) {
        turned = (perspective === 1) !== on;
        dim = 0;
        if (state) draw();
      },
      destroy() {
        root.remove();
      },
    };
  },
};
