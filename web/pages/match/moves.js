// The match page's move list, whose moves are buttons to look back at the position after them,
// and the line that marks an earlier position shown ("Viewing move 3 of 9"), with the way back.
import { button, el, numberedLine } from "../../dom.js";
import { seatName } from "../../catalog.js";
import { t } from "../../i18n.js";

// The numbered lines of a move list: a two-seat game whose board lists moves in pairs (`pairs`)
// numbers each pair, the first mover's move first; any other numbers every move. Each move is
// {index, seat, action} (an action null when hidden from the user, a seat null when unknown).
export function moveLines(log, pairs) {
  const move = (index) => ({ index, ...log[index] });
  if (!pairs) return log.map((_, i) => ({ n: i + 1, moves: [move(i)] }));
  const lines = [];
  for (let i = 0; i < log.length; i += 2) lines.push({ n: i / 2 + 1, moves: i + 1 < log.length ? [move(i), move(i + 1)] : [move(i)] });
  return lines;
}

// What a key does to the position shown, `look` the moves before it (null: the game in play)
// and `length` the moves played: the number of moves to show, Infinity for the game in play,
// or null when the key does nothing here. Left goes a move back, Right a move on, Escape and
// End back to the game.
export function lookKey(key, look, length) {
  if (look !== null && (key === "Escape" || key === "End")) return Infinity;
  if (key === "ArrowLeft") return (look ?? length) - 1;
  if (key === "ArrowRight" && look !== null) return look + 1;
  return null;
}

const MOVE = '[data-testid^="move-"]:not([data-testid="move-list"])';
// The moves before the position a move's node shows.
const after = (node) => Number(node.dataset.testid.slice(5)) + 1;

// `lookBack(count)` shows the position after `count` moves.
export function movesView(lookBack) {
  const list = el("ol", { class: "moves", "data-testid": "move-list" });
  const marker = el("div", { class: "viewing", "data-testid": "viewing", hidden: true });

  list.addEventListener("click", (e) => {
    const node = e.target.closest?.(MOVE);
    if (node) lookBack(after(node));
  });

  return {
    list,
    marker,
    // The list, for a board that lists moves as `pairs` or not.
    draw(m, pairs) {
      const paired = pairs && m.seats.length === 2;
      const move = (a) => el("span", { class: "move", "data-testid": `move-${a.index}` }, a.action ?? "?");
      list.replaceChildren(...moveLines(m.log, paired).map(({ n, moves: [a, b] }) => (paired
        ? numberedLine(n, {}, move(a), " ", b ? move(b) : null)
        : numberedLine(n, {}, el("span", { "data-testid": `move-${a.index}` },
          a.seat !== null ? `${seatName(m.game, a.seat)}: ` : "", a.action ?? t("match.hidden-action"))))));
      list.scrollTop = list.scrollHeight;
    },
    // The moves as buttons, the one shown (`look`: the moves before it) marked.
    mark(look) {
      list.querySelectorAll(MOVE).forEach((node) => {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
        node.setAttribute("aria-label", t("match.show-move", { move: after(node) }));
        node.classList.toggle("current", after(node) === look);
      });
    },
    drawMarker(m, look) {
      marker.hidden = look === null;
      if (look === null) return;
      marker.replaceChildren(
        el("span", { "data-testid": "viewing-text" },
          t("match.viewing", {
            move: look, moves: m.log.length,
            action: look ? m.log[look - 1].action ?? t("match.hidden-action") : t("match.the-start"),
          })),
        button("back-to-live", t("match.back-to-live"), () => lookBack(Infinity)));
    },
    // Enter on a move in the list: the moves to show, else null.
    entered(e) {
      return e.key === "Enter" && list.contains(e.target) && e.target.matches(MOVE) ? after(e.target) : null;
    },
  };
}
