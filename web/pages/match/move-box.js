// The move box, under a board: a move typed in the game's own notation, for every game (the match
// page and the analysis board).
import { el, errorLine } from "../../dom.js";
import { t } from "../../i18n.js";

// The legal action a typed move means: the action itself, or the one action it begins followed by
// more than a square name's letters and digits (tafl's `d1-d3` for `d1-d3xd4`, but not `a1-a1` for
// `a1-a10`); case and spaces around it do not matter. Null when it means none or several.
export function typedAction(text, legal) {
  const typed = text.trim().toLowerCase();
  if (!typed) return null;
  const exact = legal.find((action) => action.toLowerCase() === typed);
  if (exact) return exact;
  const begun = legal.filter((action) => {
    const lower = action.toLowerCase();
    return lower.startsWith(typed) && !/[a-z0-9]/.test(lower[typed.length]);
  });
  return begun.length === 1 ? begun[0] : null;
}

// The move box: type a move and press Enter (or Play). `update(legal, open)` gives it the legal
// actions now (offered as suggestions) and whether the user plays in this match at all;
// `example(text)` the game's example move (its board's `moveExample`), once its board is known;
// `refused(error)` shows the server's refusal of a move (typed or made on the board) under the box,
// where the player looks (null clears it).
export function moveBox(play) {
  const input = el("input", {
    type: "text", "data-testid": "move-input", autocomplete: "off", spellcheck: "false",
    "aria-label": t("move.type"), placeholder: t("move.type"), list: "legal-moves",
  });
  const options = el("datalist", { id: "legal-moves" });
  const error = errorLine("move-input-error");
  let legal = [];
  const form = el("form", { class: "move-form" }, input, options,
    el("button", { type: "submit", "data-testid": "move-submit" }, t("move.play")));
  form.onsubmit = (e) => {
    e.preventDefault();
    const action = typedAction(input.value, legal);
    if (!action) {
      error.show(new Error(legal.length ? t("move.illegal", { move: input.value.trim() }) : t("move.not-your-turn")));
      return;
    }
    error.show(null);
    input.value = "";
    play(action);
  };
  const node = el("div", { class: "move-box" }, form, error.node);
  return {
    node,
    refused: error.show,
    example(text) {
      input.placeholder = t("move.placeholder", { example: text });
    },
    update(actions, open) {
      node.hidden = !open;
      if (actions.join("\n") === legal.join("\n")) return;
      legal = actions;
      options.replaceChildren(...legal.map((action) => el("option", { value: action })));
    },
  };
}
