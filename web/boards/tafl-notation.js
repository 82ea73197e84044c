// Tafl's notation, shared by the 2D and 3D boards: squares named by file letter and rank number
// (`a1` bottom left), OpenTafl positions and move texts.

export const fileName = (f) => String.fromCharCode(97 + f);
export const squareName = (f, r) => `${fileName(f)}${r + 1}`;

// "e5" -> [4, 4]: the square's file and rank, counted from 0.
export const squareCoords = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];

// An OpenTafl position's ranks, rank 1 first, each an array of null | "t" | "T" | "K": ranks
// from rank 1 upward with `/` between them, digits counting empty squares, `t` an attacker, `T`
// a defender, `K` the king.
export function parsePosition(text) {
  return text.split("/").filter((r) => r.length).map((rank) => {
    const squares = [];
    for (const [, digits, piece] of rank.matchAll(/(\d+)|([tTK])/g)) {
      if (digits) squares.push(...Array(Number(digits)).fill(null));
      else squares.push(piece);
    }
    return squares;
  });
}

// "e5-e8xe9/f8" -> {from: "e5", to: "e8", captured: ["e9", "f8"]}.
export function parseMove(text) {
  const [move, captures] = text.split("x");
  const [from, to] = move.split("-");
  return { from, to, captured: captures ? captures.split("/") : [] };
}
