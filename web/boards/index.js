// The board of each game, by game id (the `game` field of a match), loaded on demand so a page
// only fetches the board it shows. Every board module exports a default object:
//
//   create(el, { game, variant, seats, perspective, onAction }) -> { update(state), destroy() }
//
// drawing into the empty element `el`; `perspective` is the seat the user sees from (null for a
// spectator) and `onAction(text)` is called with an action in the game's own notation, always
// one of `state.legal`. `update(state)` takes { view, toAct, mySeats, legal, log, last, result }:
// the game's view exactly as the server sends it, the seats to act, the seats this user may act
// for now, their legal actions, the actions so far as [{seat, action}], the last one and the
// result (null while the match goes on). Interactive elements carry `data-testid`s (squares
// `sq-<name>`) for the browser tests.
const modules = {
  tafl: () => import("./tafl.js"),
  "fox-geese": () => import("./fox-geese.js"),
  hanoi: () => import("./hanoi.js"),
  "tower-race": () => import("./tower-race.js"),
  tron: () => import("./tron.js"),
  driller: () => import("./driller.js"),
};

// The board module for a game id; rejects for a game without a browser board.
export async function boardFor(game) {
  const load = modules[game];
  if (!load) throw new Error(`no board for the game '${game}'`);
  return (await load()).default;
}

export const games = Object.keys(modules);
