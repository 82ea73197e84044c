// The games the server plays, their variants and seat counts, for the lobby's choices. This
// mirrors the engine's catalog (engine/src/catalog.rs and each game's `Catalog` impl); the server
// refuses anything else with `bad_request`, so a stale entry shows up as a clear error.
export const games = [
  {
    id: "tafl",
    name: "Tafl",
    variants: [
      "copenhagen", "fetlar", "brandubh", "tablut", "tawlbwrdd", "hnefatafl",
      "hnefatafl-weaponless", "hnefatafl-second-board", "copenhagen-13", "alea-evangelii",
      "hnefatafl-axes", "hnefatafl-13", "tawlbwrdd-13", "fithcheall", "ard-ri", "irish-board",
    ],
    seats: [2, 2],
  },
  { id: "fox-geese", name: "Fox and Geese", variants: ["hala-tafl"], seats: [2, 2] },
  { id: "hanoi", name: "Hanoi", variants: ["standard"], seats: [2, 3] },
  { id: "tower-race", name: "Tower race", variants: ["basic", "advanced"], seats: [2, 4], seatsByVariant: { basic: [2, 4], advanced: [4, 8] } },
  { id: "tron", name: "Tron", variants: ["standard"], seats: [3, 8] },
  { id: "driller", name: "Mr Driller", variants: ["standard"], seats: [2, 2] },
];

// The seat range [fewest, most] of a game's variant.
export function seatRange(gameId, variant) {
  const game = games.find((g) => g.id === gameId);
  return game.seatsByVariant?.[variant] ?? game.seats;
}

export const timeControls = ["bullet", "blitz", "rapid", "classical", "correspondence"];

// The seat names of a game, where the game has them (tafl: seat 0 attacks, seat 1 defends; fox and geese: seat 0 the geese).
export function seatName(gameId, seat) {
  if (gameId === "tafl") return seat === 0 ? "attackers" : "defenders";
  if (gameId === "fox-geese") return seat === 0 ? "geese" : "fox";
  return `seat ${seat + 1}`;
}
