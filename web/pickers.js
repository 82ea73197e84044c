// The pickers of the forms that make a match (the lobby's, the player page's challenge): a game
// with its variant and seat count, the user's seat in it, a time control, a drop-down.
import { el, rulesLink } from "./dom.js";
import { games, seatName, seatRange, timeControls } from "./catalog.js";
import { gameName, groupName, timeName, variantGroups, variantName } from "./names.js";
import { t } from "./i18n.js";

// The options of a game's variants, by name and in their groups (tafl's: played today, the basic
// game's boards, historical reconstructions, custom), `selected` chosen.
export function variantOptions(gameId, variants, selected) {
  const option = (v) => el("option", { value: v, selected: v === selected }, variantName(gameId, v));
  return variantGroups(gameId, variants).flatMap(([group, members]) =>
    group ? [el("optgroup", { label: groupName(group), "data-group": group }, members.map(option))] : members.map(option));
}

// A game, variant and (where the game allows a choice) seat count picker; `name` prefixes the
// test ids so that every form's pickers can be told apart. It starts on the catalog's first game.
export function gamePicker(name, { twoSeatsOnly = false, initial = games[0]?.id, variant } = {}) {
  const choices = twoSeatsOnly ? games.filter((g) => g.seats[0] === 2) : games;
  const game = el("select", { "data-testid": `${name}-game` },
    choices.map((g) => el("option", { value: g.id, selected: g.id === initial }, gameName(g.id))));
  const variantSelect = el("select", { "data-testid": `${name}-variant` });
  const seats = el("input", { type: "number", "data-testid": `${name}-seats` });
  const seatsLabel = el("label", {}, t("lobby.players"), seats);
  const refresh = (wanted) => {
    const g = games.find((x) => x.id === game.value);
    variantSelect.replaceChildren(...variantOptions(g.id, g.variants, wanted));
    refreshSeats();
  };
  const refreshSeats = () => {
    const [least, most] = seatRange(game.value, variantSelect.value);
    seats.min = least;
    seats.max = twoSeatsOnly ? least : most;
    seats.value = least;
    seatsLabel.hidden = twoSeatsOnly || least === most;
  };
  // The picked game's rules, a click away.
  const rules = el("p", { class: "rules-hint" });
  const refreshRules = () => {
    const g = games.find((x) => x.id === game.value);
    rules.replaceChildren(rulesLink(g.id, t("lobby.rules-of", { game: gameName(g.id) }), `${name}-rules`));
  };
  game.onchange = () => {
    refresh();
    refreshRules();
  };
  variantSelect.onchange = refreshSeats;
  refresh(variant);
  refreshRules();
  return {
    nodes: [el("label", {}, t("form.game"), game), rules, el("label", {}, t("form.variant"), variantSelect), seatsLabel],
    value: () => ({ game: game.value, variant: variantSelect.value, seats: Number(seats.value) }),
  };
}

// A choice of the user's seat in the game a picker shows, named as the game names its sides.
export function seatSelect(picker, testid) {
  const seat = el("select", { "data-testid": testid });
  const refresh = () => {
    const { game, seats } = picker.value();
    seat.replaceChildren(...Array.from({ length: seats }, (_, s) => el("option", { value: s }, seatName(game, s))));
  };
  picker.nodes.forEach((n) => n.addEventListener("change", refresh));
  refresh();
  return seat;
}

// Whether a rated match allows takebacks by agreement: it follows the form's rated box, since a
// casual match always allows them.
export function takebacksBox(rated, testid) {
  const box = el("input", { type: "checkbox", "data-testid": testid });
  const follow = () => {
    box.disabled = !rated.checked;
    if (!rated.checked) box.checked = false;
  };
  rated.addEventListener("change", follow);
  follow();
  return {
    node: el("label", { class: "check", title: t("form.takebacks-hint") }, box, t("form.takebacks")),
    value: () => box.checked,
  };
}

export function select(testid, options, selected) {
  return el("select", { "data-testid": testid },
    options.map(([value, text]) => el("option", { value, selected: value === selected }, text)));
}

export const timeOptions = () => timeControls.map((c) => [c, timeName(c)]);
