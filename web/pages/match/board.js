// The match page's board: the game's board module (boards/index.js) drawing the state's position,
// which of its views is shown and whether the user turned it round, their buttons, and the box to
// type a move in under it. The board is a component of its own: this view creates it, gives it
// the state to draw (`boardState`) and passes its moves on; it keeps nothing of the match.
import { button, el } from "../../dom.js";
import { variantRules } from "../../catalog.js";
import { t } from "../../i18n.js";
import { boardFor, mountBoard, viewModule, viewToggle } from "../../boards/index.js";
import { boardZoom } from "../../boards/zoom.js";
import { moveBox } from "./move-box.js";
import { boardState, legalNow, playsAgainst } from "./state.js";

// `play(action)` plays a move from the board or the move box; `redraw()` draws the controls again
// (the board's buttons among them) once another view is drawn.
export function boardView({ play, redraw }) {
  const box = el("div", { class: "board-box", "data-testid": "board" });
  const typed = moveBox(play);
  const zoom = boardZoom(box);
  const node = el("div", { class: "match-board" }, box, zoom.node, typed.node);
  // The game's board module (with the options it declares), the board drawn and which of the
  // module's views it is; the board turned round by the user (from its default for their seat).
  let game = null;
  let board = null;
  let view = 0;
  let flip = false;

  // Draws view `at` of the game's board.
  const show = async (state, at) => {
    const m = state.match;
    const module = await viewModule(game, at);
    board?.destroy();
    view = at;
    board = mountBoard(box, module, {
      game: m.game,
      variant: m.variant,
      rules: variantRules(m.game, m.variant),
      seats: m.seats.length,
      perspective: playsAgainst(m) ? m.yourSeats[0] : null,
      flip,
      onAction: play,
    });
    board.update(boardState(state));
  };

  return {
    node,
    drawn: () => board !== null,
    // The board module, loaded once: it says how moves are listed and what the page offers.
    async module(gameId) {
      game ??= await boardFor(gameId);
      typed.example(game.moveExample);
      return game;
    },
    // The first drawing, once the module is loaded.
    async start(state) {
      await show(state, 0);
    },
    update(state) {
      board?.update(boardState(state));
    },
    // The server's refusal of a move, under the move box (just under the board).
    refused: typed.refused,
    // The move box: the legal actions it offers now, and whether it shows at all.
    offer(state) {
      typed.update(state.look === null ? legalNow(state) : [], state.match.yourSeats.length > 0 && !state.match.result);
    },
    // An earlier position shown, marked as such.
    marked(past) {
      box.classList.toggle("past", past);
    },
    // How the board module lists moves (in pairs or not), and whether a move's view captured.
    pairs: () => game?.moveList === "pairs",
    captured: (view) => Boolean(game?.captured?.(view)),
    // The board's buttons: the switch to its next view (`current()` gives the state then) and the
    // flip.
    buttons(current, fail) {
      const list = [];
      const toggle = game && viewToggle(game, view);
      if (toggle) list.push(button(toggle.testid, toggle.label, () => show(current(), toggle.next).then(redraw).catch(fail), "secondary"));
      if (board?.setFlip) {
        list.push(button("flip-board", t("board.flip"), () => {
          flip = !flip;
          board.setFlip(flip);
        }, "secondary"));
      }
      return list;
    },
    destroy() {
      board?.destroy();
    },
  };
}
