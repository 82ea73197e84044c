// The games the server plays, their variants, seat counts, seat names and rules, from the
// engine's catalog (`GET /api/games`), loaded once before the first page renders. Pages import
// `games` and read it after that.
export const games = [];

// Fills `games` from the server (once).
let loading = null;
export function loadCatalog() {
  loading ??= fetch("/api/games")
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`the catalog: ${r.status}`))))
    .then((list) => {
      games.push(...list.map((g) => ({
        id: g.id,
        name: g.name,
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

// A seat's name, as the game names its sides (tafl: seat 0 attacks, seat 1 defends).
export function seatName(gameId, seat) {
  const game = games.find((g) => g.id === gameId);
  return game?.seatNames[seat] ?? `seat ${seat + 1}`;
}
