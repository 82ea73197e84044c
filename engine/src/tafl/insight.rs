//! What a tafl position shows at a glance, for an analysis board: the king's escape routes and
//! the pieces under threat. Both are found by playing moves with the engine's own move
//! generation, captures and verdicts, so they follow every rule of the variant (the throne and
//! corners, the king's strength, edge escapes, exit forts, shieldwalls, speed limits).
//!
//! * **Escapes**: the king's moves that would win the game at once (an escape square reached,
//!   or an exit fort made), were it the defenders' move.
//! * **Routes**: the pairs of king moves, the first not ending the game, after which the second
//!   would win at once, if nothing else moved in between, on a square no escape reaches: the
//!   escape squares the king reaches along open lines in two moves and not in one. Two routes
//!   with the same first move are a fork the attackers must answer at once.
//! * **Threatened pieces**: the pieces, of either side, that the other side could capture with
//!   one move were it its turn, with the moves that capture each. The king counts when an
//!   attacker's move would capture him.
//!
//! Repetition is left out: it depends on the game's history, not on the position.

use super::bitboard::Bits;
use super::board::Board;
use super::ending::Verdict;
use super::position::Position;
use super::square::{Move, Piece, Side, Square};

/// What a position shows: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaflInsights {
    /// King moves that win at once.
    pub escapes: Vec<Move>,
    /// Two king moves, the second winning at once on a square no escape reaches.
    pub routes: Vec<[Move; 2]>,
    /// Pieces one move from capture, in square order.
    pub threatened: Vec<Threat>,
}

/// A piece the other side could capture with one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    pub square: Square,
    pub piece: Piece,
    /// The moves that capture it, in move generation order.
    pub by: Vec<Move>,
}

/// The insights of a position, whoever is to move.
pub(super) fn insights<B: Bits>(pos: &Position<B>, board: &Board<B>) -> TaflInsights {
    let defenders = to_move(pos, Side::Defenders);
    let mut escapes = Vec::new();
    let mut routes = Vec::new();
    for first in king_moves(&defenders, board) {
        let (after, verdict) = play(&defenders, board, first);
        match verdict {
            Some(verdict) if verdict.winner == Some(Side::Defenders) => escapes.push(first),
            Some(_) => {}
            None => {
                let again = to_move(&after, Side::Defenders);
                routes.extend(
                    king_moves(&again, board)
                        .into_iter()
                        .filter(|&second| {
                            play(&again, board, second)
                                .1
                                .is_some_and(|v| v.winner == Some(Side::Defenders))
                        })
                        .map(|second| [first, second]),
                );
            }
        }
    }
    // The king's slower ways to squares he reaches in one move are no news.
    routes.retain(|[_, second]| escapes.iter().all(|escape| escape.to != second.to));
    let mut threatened: Vec<Threat> = Vec::new();
    for side in [Side::Attackers, Side::Defenders] {
        let mover = to_move(pos, side);
        for mv in mover.legal_moves(board) {
            let mut after = mover;
            let captures = after.play(board, mv);
            let king = pos.king_square().filter(|_| captures.king);
            for square in captures.men.squares().chain(king) {
                match threatened.iter_mut().find(|t| t.square == square) {
                    Some(threat) => threat.by.push(mv),
                    None => threatened.push(Threat {
                        square,
                        piece: pos.piece_at(square).expect("a captured piece stood there"),
                        by: vec![mv],
                    }),
                }
            }
        }
    }
    threatened.sort_by_key(|t| t.square);
    TaflInsights {
        escapes,
        routes,
        threatened,
    }
}

/// The position with `side` to move.
fn to_move<B: Bits>(pos: &Position<B>, side: Side) -> Position<B> {
    let mut pos = *pos;
    if pos.turn != side {
        pos.pass_turn();
    }
    pos
}

/// The king's legal moves, the defenders to move: none for a king already out (on an escape
/// square, the game won), whose ways out are no news.
fn king_moves<B: Bits>(pos: &Position<B>, board: &Board<B>) -> Vec<Move> {
    let Some(king) = pos.king_square() else {
        return Vec::new();
    };
    if (pos.king & board.escape).any() {
        return Vec::new();
    }
    let mut moves = pos.legal_moves(board);
    moves.retain(|mv| mv.from == king);
    moves
}

/// The position after the defenders' `mv`, and the verdict it brings.
fn play<B: Bits>(pos: &Position<B>, board: &Board<B>, mv: Move) -> (Position<B>, Option<Verdict>) {
    let mut after = *pos;
    let captures = after.play(board, mv);
    let verdict = after.verdict_after(board, Side::Defenders, &captures);
    (after, verdict)
}
