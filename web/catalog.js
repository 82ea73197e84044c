// The games the server plays, their variants, seat counts, seat names and rules, from the
// engine's catalog (`GET /api/games`), loaded once before the first page renders. Pages import
// `games` and read it after that.
import { DAY_MS } from "./clock-text.js";
import { t } from "./i18n.js";

export const games = [];

// Fills `games` from the server (once).
let loading = null;
export function loadCatalog() {
  loading ??= fetch("/api/games")
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`the catalog: ${r.status}`))))
    .then((list) => {
      games.push(...list.map((g) => ({
        id: g.id,
        // The server's name for it, for a game the reader's catalog does not name.
        serverName: g.name,
        variants: g.variants.map((v) => v.name),
        seats: [g.variants[0].min_seats, g.variants[0].max_seats],
        seatsByVariant: Object.fromEntries(g.variants.map((v) => [v.name, [v.min_seats, v.max_seats]])),
        rulesByVariant: Object.fromEntries(g.variants.map((v) => [v.name, v.rules ?? null])),
        seatNames: g.seat_names,
      })));
    });
  return loading;
}

// The seat range [fewest, most] of a game's variant.
export function seatRange(gameId, variant) {
  const game = games.find((g) => g.id === gameId);
  return game.seatsByVariant[variant] ?? game.seats;
}

// A variant's rules in the game's interchange notation (tafl: OpenTafl's rules string), for the
// boards that draw from it. A custom tafl variant is its own rules string.
export function variantRules(gameId, variant) {
  const game = games.find((g) => g.id === gameId);
  return game?.rulesByVariant[variant] ?? (variant.includes(":") ? variant : null);
}

export const timeControls = ["bullet", "blitz", "rapid", "classical", "correspondence"];

// The clock of a time control, as the server's `TimeControl` has it, or of a per-move choice
// `days-<n>`: a Fischer clock, or a correspondence clock of days a move.
const CLOCKS = { bullet: [60000, 0], blitz: [300000, 3000], rapid: [900000, 10000], classical: [1800000, 20000] };
const CORRESPONDENCE_DAYS = 3;
export function clockOf(control) {
  const days = control === "correspondence" ? CORRESPONDENCE_DAYS : Number(/^days-(\d+)$/.exec(control)?.[1]);
  if (days) return { base_ms: days * DAY_MS, increment_ms: 0, per_move: true };
  const clock = CLOCKS[control];
  return clock ? { base_ms: clock[0], increment_ms: clock[1] } : null;
}

// Games whose seats have no side of their own are told apart by colour: seat `s` is drawn in
// palette colour `s + first` (the driller's tokens start past the colours of its blocks).
const FIRST_COLOUR = { "tower-race": 0, tron: 0, driller: 4 };

// The palette colour a seat is drawn in, for the games that tell seats apart by colour.
export function seatColourIndex(gameId, seat) {
  return (FIRST_COLOUR[gameId] ?? 0) + seat;
}

// A seat's name everywhere, with its colour: its side as the game names it ("Attackers
// (black)", "Fox (orange)", "Blue"), or the colour it is drawn in.
export function seatName(gameId, seat) {
  return t(`side.${gameId}.${seat}`, {}, null) ?? t(`colour.${seatColourIndex(gameId, seat) % 8}`);
}
