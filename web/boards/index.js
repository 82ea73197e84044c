// The board of each game, by game id (the `game` field of a match), loaded on demand so a page
// only fetches the board it shows. Every board module exports a default object:
//
//   create(el, { game, variant, rules, seats, perspective, flip, onAction })
//     -> { update(state), destroy(), setFlip?(flip) }
//
// drawing into the empty element `el`; `rules` is the variant's rules text from the catalog (or
// a custom variant's own), `perspective` is the seat the user sees from (null for a spectator
// and in a hot-seat match), `flip` whether the user turned the board round from the way it faces
// that seat, and `onAction(text)` is called with an action in the game's own notation, always one
// of `state.legal`. `update(state)` takes { view, toAct, mySeats, legal, log, last, result, past }:
// the game's view exactly as the server sends it, the seats to act, the seats this user may act
// for now, their legal actions, the actions so far as [{seat, action}], the last one, the result
// (null while the match goes on) and `past`, true while the page shows an earlier position of a
// match in play (nothing may be played or queued then). A board that can turn round has
// `setFlip(flip)`, and the pages then offer a `flip-board` button. Interactive elements carry
// `data-testid`s (squares `sq-<name>`) for the browser tests; boards/interact.js has the drag,
// right-button drawing and keyboard handling shared by boards of squares. A board of squares
// gives its <svg> `data-cell`, a square's side in the drawing's units, so that the pages offer
// zoom where its squares are drawn small (boards/zoom.js).
//
// The object may also declare how the pages show the game; pages read these, never game ids:
//
//   views: [{ id, label, load }, ...]  other ways to draw the same match, the first being this
//       module: `load()` imports a module with the same `create`. The match and replay pages
//       show a button (`toggle-<the second view's id>`) labelled with the next view, going round.
//   moveExample: "d1-d3"  a move or two in the game's notation, which the move box shows as its
//       example (required: every game takes typed moves).
//   moveList: "pairs"  a two-seat match's moves listed as numbered pairs, the first mover's first
//       (the default, "plain", lists every move with its seat's name).
//   customRules: { label, placeholder }  the game plays a free-form variant text (its own rules
//       string): the lobby's private match form offers a box for it, titled `label`, previewed
//       through `GET /api/games/<game>/preview?variant=<text>`. Custom variants are casual.
//   premoves: true  while the opponent is to move, the board lets a player queue a move, which it
//       plays (through `onAction`) once `state.legal` has it; the match page shows the switch.
//   captured(view) -> boolean  whether the move that led to a view captured (the match page then
//       sounds a capture).
//   positionNotation: { label, placeholder }  the game has a position notation (tafl: OpenTafl's):
//       the analysis board offers a box, titled `label`, to start from a typed position.
//   lobbyVariants: { main, short }  the variants the lobby's pickers start on when they start on
//       this game (the catalog's first): `main` for quick play and private matches, `short` (a
//       quick one) for the AI and hot seat; else the catalog's first variant of the game.
//   variantDifferences: { standard }  the rules page shows, under each other variant's start, a
//       table of how its rules string differs from the family's standard variant (rules-facts.js
//       reads OpenTafl's rules strings).
import { el } from "../dom.js";
import { variantRules } from "../catalog.js";
const modules = {
  tafl: () => import("./tafl.js"),
  "fox-geese": () => import("./fox-geese.js"),
  hanoi: () => import("./hanoi.js"),
  "tower-race": () => import("./tower-race.js"),
  tron: () => import("./tron.js"),
  driller: () => import("./driller.js"),
};

// The board module for a game id; rejects for a game without a browser board.
export async function boardFor(game) {
  const load = modules[game];
  if (!load) throw new Error(`no board for the game '${game}'`);
  return (await load()).default;
}

export const games = Object.keys(modules);

// A match's position drawn small and read-only into the empty element `target`, by the game's
// own board, for lists (the lobby's live matches): seen from no seat, nothing to play, out of the
// keyboard's and the pointer's way, and without the test ids of the board in play. Returns the
// board, to `destroy()`.
export async function miniBoard(target, { game, variant, rules, seats, view }) {
  const board = (await boardFor(game)).create(target, { game, variant, rules, seats, perspective: null, onAction: () => {} });
  board.update({ view, toAct: [], mySeats: [], legal: [], log: [], last: null, result: null });
  target.inert = true;
  target.querySelectorAll("[data-testid]").forEach((node) => node.removeAttribute("data-testid"));
  return board;
}

// The small boards of a list of matches (the lobby's live matches, the player's games), each a
// link to its match's page, drawn again only when its position changed. `box(m, attrs)` is the
// board of a match as the REST lists give it (with `view`; none drawn without one), in an
// element with these attributes; `keep(ids)` destroys the boards of the matches no longer
// listed, `destroy()` every one.
export function miniBoards() {
  const minis = new Map();
  return {
    async box(m, attrs) {
      const key = JSON.stringify(m.view ?? null);
      const kept = minis.get(m.id);
      if (kept?.key === key) return kept.box;
      kept?.board?.destroy();
      const box = el("a", { href: `#/match/${m.id}`, class: "mini", ...attrs });
      const mini = { key, box, board: null };
      minis.set(m.id, mini);
      if (m.view) {
        const target = el("div", { class: "board" });
        box.append(target);
        const { game, variant } = m;
        const drawn = { game, variant, rules: variantRules(game, variant), seats: m.players.length, view: m.view };
        mini.board = await miniBoard(target, drawn).catch(() => null);
      }
      return box;
    },
    keep(ids) {
      for (const [id, mini] of minis) {
        if (!ids.includes(id)) {
          mini.board?.destroy();
          minis.delete(id);
        }
      }
    },
    destroy() {
      this.keep([]);
    },
  };
}

// The board module of view `at` of a board (the board itself when it declares no views).
export async function viewModule(board, at) {
  const view = board.views?.[at];
  return view ? (await view.load()).default : board;
}

// Draws a board module into `box`, emptied for it: `options` as `create` takes them. Returns the
// board.
export function mountBoard(box, module, options) {
  const target = el("div", { class: "board" });
  box.replaceChildren(target);
  return module.create(target, options);
}

// The button that switches a board's views, for a page to draw: its test id, its label (the
// view it switches to) and that view's index; null for a board with one view.
export function viewToggle(board, at) {
  const views = board.views ?? [];
  if (views.length < 2) return null;
  const next = (at + 1) % views.length;
  return { testid: `toggle-${views[1].id}`, label: views[next].label, next };
}
