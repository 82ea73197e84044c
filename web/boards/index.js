// The board of each game, by game id (the `game` field of a match), loaded on demand so a page
// only fetches the board it shows. Every module follows the board contract in web/README.md:
// `export default { create(el, options) -> { update(state), destroy() } }`.
const modules = {
  tafl: () => import("./tafl.js"),
  "fox-geese": () => import("./fox-geese.js"),
  hanoi: () => import("./hanoi.js"),
  "tower-race": () => import("./tower-race.js"),
  tron: () => import("./tron.js"),
  driller: () => import("./driller.js"),
};

/// The board module for a game id; rejects for a game without a browser board.
export async function boardFor(game) {
  const load = modules[game];
  if (!load) throw new Error(`no board for the game '${game}'`);
  return (await load()).default;
}

export const games = Object.keys(modules);
