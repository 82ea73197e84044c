// What the game boards share beyond the DOM builder (dom.js): the SVG root, seat colours, the
// list of action buttons a board offers for actions it has no picture for, the caption. Every
// action a board offers comes from `state.legal`; these helpers never make up action text.

import { el, svg } from "../dom.js";
import { t } from "../i18n.js";

/// An <svg> root, scaled to the room it has through its viewBox (style.css sizes it), and drawn
/// in the board theme's colours through the `board-svg` classes of style.css.
export function svgRoot(width, height, label) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "board-svg" });
}

/// One colour per seat, distinct on light and dark backgrounds (named in the message catalog as
/// `colour.<index>`). A seat's colour is never the only sign of it: boards write its number or
/// name too.
export const SEAT_COLOURS = [
  "#d94841", "#2f6fd6", "#2e9e54", "#e0a21b", "#8e44ad", "#17a2b8", "#e8579b", "#7a5c3a",
];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/// The seat whose legal actions `state.legal` holds: the first seat to act that the user may
/// act for (the match page asks the server for that seat's actions), or null.
export function actingSeat(state) {
  const mine = state.mySeats || [];
  return (state.toAct || []).find((seat) => mine.includes(seat)) ?? null;
}

/// A stable test id for an action text: `act-` and the text with spaces made dashes.
export function actionTestId(text) {
  return "act-" + text.replace(/[^A-Za-z0-9-]+/g, "-");
}

/// Buttons for `actions` (legal texts), labelled by `label(text)`, each calling `onPick(text)`.
/// A long list becomes a drop-down with one button, so a phone screen is not filled with them.
export function actionChoices(actions, onPick, label = (text) => text, testid = "choices") {
  const box = el("div", { class: "board-actions", "data-testid": testid });
  if (actions.length <= 12) {
    for (const text of actions) {
      box.append(el("button", {
        type: "button",
        "data-testid": actionTestId(text),
        onclick: () => onPick(text),
      }, label(text)));
    }
    return box;
  }
  const select = el("select", { "data-testid": `${testid}-select` },
    actions.map((text) => el("option", { value: text }, label(text))));
  box.append(select, el("button", {
    type: "button",
    "data-testid": `${testid}-play`,
    onclick: () => onPick(select.value),
  }, t("move.play")));
  return box;
}

/// The state a board shows once it has sent an action: the same, offering nothing, since the
/// legal list it was drawn from is stale until the next update (no second action is sent for a
/// position the server has moved on from).
export function sent(state) {
  return { ...state, legal: [] };
}

/// A one-line caption under a board (whose turn, the result, what was last done).
export function caption(text, testid = "board-caption") {
  return el("p", { class: "board-caption", "data-testid": testid }, text);
}
