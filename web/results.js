// How a match ended, in words: who won, by their side ("Defenders (white) won: the king
// escaped"), or a draw, and why.
import { language, t } from "./i18n.js";
import { seatName } from "./catalog.js";
import { playerName } from "./names.js";

// Why a match ended, from its stable reason code (a game's own, or the server's: resigned,
// timeout...); a code the catalog does not know is shown as it is.
export function reasonText(reason) {
  return reason ? t(`reason.${reason}`, {}, reason.replace(/_/g, " ")) : "";
}

// The seats in first place of a result (`places`: 0 best, equal places tie).
export function winners(result) {
  const best = Math.min(...result.places);
  return result.places.flatMap((place, seat) => (place === best ? [seat] : []));
}

// "Defenders (white) won: the king escaped", "Draw: repetition", from a view's outcome or a
// match result; `names(seat)` may name the players instead of their sides.
export function describeResult(gameId, result, names = (seat) => seatName(gameId, seat)) {
  if (!result || !Array.isArray(result.places)) return "";
  const first = winners(result);
  const reason = reasonText(result.reason);
  if (first.length === result.places.length) return t(reason ? "result.draw-because" : "result.draw", { reason });
  const who = list(first.map(names));
  return t(reason ? "result.won-because" : "result.won", { who, reason, count: first.length });
}

// Names joined as the language joins them ("Red, Blue and Green").
export function list(names) {
  return new Intl.ListFormat(language, { type: "conjunction" }).format(names);
}

// A seat named by its player and side ("anna, Defenders (white)"), by its side alone when free.
export function playerAndSide(gameId, seat, player) {
  const side = seatName(gameId, seat);
  return player ? t("result.player-side", { player: playerName(player.name), side }) : side;
}
