//! How a tafl game ends. The engine decides, after every move, in this order: the king is
//! captured; the king escapes; an exit fort is made; the defenders are encircled; the side to
//! move has no legal move. Threefold repetition needs the game's history and is judged in
//! `game.rs`.

use super::bitboard::Bits;
use super::board::Board;
use super::capture::Captures;
use super::position::Position;
use super::square::{Dir, Piece, Side};

/// Why the game ended; serialised as its [`Reason::code`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    ExitFort,
    Encirclement,
    NoMoves,
    Repetition,
}

impl Reason {
    /// Stable machine-readable code, used in outcomes and on the wire.
    pub const fn code(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::ExitFort => "exit_fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no_moves",
            Reason::Repetition => "repetition",
        }
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Verdict {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl<B: Bits> Position<B> {
    /// Judges the position right after `mover` played a move that captured `captures`.
    #[inline]
    pub fn verdict_after(
        &self,
        board: &Board<B>,
        mover: Side,
        captures: &Captures<B>,
    ) -> Option<Verdict> {
        let win = |side, reason| {
            Some(Verdict {
                winner: Some(side),
                reason,
            })
        };
        if captures.king {
            return win(Side::Attackers, Reason::KingCaptured);
        }
        match mover {
            Side::Defenders => {
                if (self.king & board.escape).any() {
                    return win(Side::Defenders, Reason::KingEscaped);
                }
                // A fort needs the king on the edge: looked at first, as a fort is rare.
                if board.rules.edge_fort
                    && (self.king & board.edge).any()
                    && self.is_exit_fort(board)
                {
                    return win(Side::Defenders, Reason::ExitFort);
                }
            }
            Side::Attackers => {
                if board.rules.encirclement && self.is_encircled(board) {
                    return win(Side::Attackers, Reason::Encirclement);
                }
            }
        }
        if !self.has_moves(board) {
            return win(mover, Reason::NoMoves);
        }
        None
    }

    /// An exit fort: the king stands on the edge and can move, the empty squares he can reach
    /// (short of squares no attacker may enter) touch no attacker, and every defender walling
    /// them in is unbreakable.
    ///
    /// Unbreakable is found as a fixed point: start from all defenders and drop any that could
    /// be sandwiched, i.e. that have, along a rank or a file, no neighbour that is off the board,
    /// inside the fort (and not a square hostile to defenders), or another remaining defender.
    /// What is left can never be captured, because none of it can be captured first.
    pub fn is_exit_fort(&self, board: &Board<B>) -> bool {
        let Some(k) = self.king_square() else {
            return false;
        };
        if !board.edge.has(k) {
            return false;
        }
        let empty = self.empty(board);
        if (board.neighbours(self.king) & empty & board.stoppable(Piece::King)).is_empty() {
            return false;
        }
        // Squares no attacker may enter (a corner, usually) are neither inside the fort nor a gap
        // in its wall: the fill must not run through an empty corner to an attacker beyond it.
        let closed =
            board.all & !(board.passable(Piece::Attacker) | board.stoppable(Piece::Attacker));
        let inside = flood(board, self.king, (self.king | empty) & !closed);
        let wall = board.neighbours(inside) & !inside & !closed;
        if (wall & self.attackers).any() {
            return false;
        }
        let shelter = (inside & !board.hostile_when_empty(Piece::Defender)) | self.king;
        // Squares whose neighbour in a direction is off the board.
        let off = |dir: Dir| board.all & !board.shift(board.all, dir.opposite());
        let mut solid = self.defenders;
        loop {
            let cover = shelter | solid;
            let covered_from = |dir: Dir| off(dir) | board.shift(cover, dir.opposite());
            let along_file = covered_from(Dir::North) | covered_from(Dir::South);
            let along_rank = covered_from(Dir::East) | covered_from(Dir::West);
            let next = solid & along_file & along_rank;
            if next == solid {
                break;
            }
            solid = next;
        }
        (wall & !solid).is_empty()
    }

    /// The attackers have shut the king and every defender away from the edge: nothing the
    /// defenders hold can reach an edge square without passing an attacker.
    pub fn is_encircled(&self, board: &Board<B>) -> bool {
        let defenders = self.side_bits(Side::Defenders);
        let within = board.all & !self.attackers;
        // The fill stops as soon as it touches the edge: usually after a step or two.
        let mut reach = defenders;
        loop {
            if (reach & board.edge).any() {
                return false;
            }
            let next = (reach | board.neighbours(reach)) & within;
            if next == reach {
                return true;
            }
            reach = next;
        }
    }
}

/// Every square of `within` connected orthogonally to `seeds` through `within`.
fn flood<B: Bits>(board: &Board<B>, seeds: B, within: B) -> B {
    let mut reach = seeds;
    loop {
        let next = (reach | board.neighbours(reach)) & within;
        if next == reach {
            return reach;
        }
        reach = next;
    }
}
