// The match page's controls: resign (in two clicks, so that a slip does not lose the game), offer
// a draw, take back, abort, claim the win, the board's own buttons, and the open offers of a draw
// or a takeback with the way to answer them.
import { button, el, fill } from "../../dom.js";
import { seatName } from "../../catalog.js";
import { playerName } from "../../names.js";
import { t } from "../../i18n.js";
import { answeringSeat, controls } from "./state.js";

// `send(msg)` sends a seat command of the match.
export function actionsView(send) {
  const row = el("div", { class: "row controls" });
  const drawBox = el("div", { class: "row draw", hidden: true });
  const takebackBox = el("div", { class: "row draw", hidden: true });

  // An open offer (`kind`: a draw, a takeback) made by seat `offering`: what it is, and to the
  // players of the other seats the way to answer it.
  const offerLine = (m, box, offering, kind, text) => {
    const answering = answeringSeat(m, offering);
    const appears = box.hidden;
    box.hidden = offering === null || m.result !== null;
    if (offering === null) return;
    const who = playerName(m.seats[offering].player?.name) ?? seatName(m.game, offering);
    const answer = (accept) => send({ type: `answer_${kind}`, seat: answering, accept });
    fill(box, el("span", { "data-testid": `${kind}-offer` }, text(who)),
      answering !== undefined ? button(`accept-${kind}`, t("match.accept"), () => answer(true)) : null,
      answering !== undefined ? button(`decline-${kind}`, t("match.decline"), () => answer(false), "secondary") : null);
    // Under the board on a phone: brought into view to be answered.
    if (appears && answering !== undefined) box.scrollIntoView({ block: "nearest" });
  };

  return {
    row, drawBox, takebackBox,
    // The controls of match `m`, then `extra` buttons (the board's).
    draw(m, extra) {
      const c = controls(m);
      const seat = c.seat;
      const list = [];
      if (c.resign) {
        const resign = button("resign", t("match.resign"), () => {
          resign.replaceWith(button("resign-confirm", t("match.resign-confirm"), () => send({ type: "resign", seat }), "danger"));
        }, "danger");
        list.push(resign);
      }
      if (c.offerDraw) list.push(button("offer-draw", t("match.offer-draw"), () => send({ type: "offer_draw", seat })));
      if (c.takeBack !== null) list.push(button("take-back", t("match.take-back"), () => send({ type: "ask_takeback", seat: c.takeBack }), "secondary"));
      if (c.abort) list.push(button("abort", t("match.abort"), () => send({ type: "abort", seat })));
      if (c.claimWin) list.push(button("claim-win", t("match.claim-win"), () => send({ type: "claim_win", seat })));
      row.replaceChildren(...list, ...extra);
      offerLine(m, drawBox, m.drawOffer, "draw", (who) => t("match.draw-offered", { who }));
      offerLine(m, takebackBox, m.takebackOffer, "takeback", (who) => t("match.takeback-asked", { who }));
    },
  };
}
