// The opening explorer's pure parts: the request for a position (`GET /api/explorer/...`) and a
// tally's shares of wins and draws, in whole percents that add up to 100.

// The path and query for a position: a position in the game's notation with the seat to move
// (the analysis board, whatever it started from) or the moves from the variant's start (a
// replay); a source and at most one time control and one rating band.
export function explorerPath({ game, variant, position = null, toMove = null, moves = [], source = "games", speed = "", band = "" }) {
  const query = new URLSearchParams();
  if (position !== null) {
    query.set("position", position);
    query.set("to_move", String(toMove));
  }
  if (moves.length) query.set("moves", moves.join(","));
  if (source !== "games") query.set("source", source);
  if (source === "games" && speed) query.set("speeds", speed);
  if (source === "games" && band !== "") query.set("bands", String(band));
  const text = query.toString();
  return `/api/explorer/${encodeURIComponent(game)}/${encodeURIComponent(variant)}${text ? `?${text}` : ""}`;
}

// Attackers' wins, draws and defenders' wins as percents of the games, rounded so that they add
// up to 100 (the largest remainders get the spare points); all zero without games.
export function shares({ games, attackers, draws, defenders }) {
  if (!games) return { attackers: 0, draws: 0, defenders: 0 };
  const parts = [["attackers", attackers], ["draws", draws], ["defenders", defenders]]
    .map(([name, count]) => ({ name, exact: (count * 100) / games }));
  for (const part of parts) part.whole = Math.floor(part.exact);
  let spare = 100 - parts.reduce((sum, p) => sum + p.whole, 0);
  for (const part of [...parts].sort((a, b) => (b.exact - b.whole) - (a.exact - a.whole))) {
    if (spare-- <= 0) break;
    part.whole += 1;
  }
  return Object.fromEntries(parts.map((p) => [p.name, p.whole]));
}

// The variants with bundled masters' games.
export const MASTERS_VARIANTS = ["copenhagen"];

// The rating bands' lower bounds, as the server counts them.
export const BANDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];
