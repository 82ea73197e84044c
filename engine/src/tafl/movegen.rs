//! Move generation. All pieces move like rooks; restricted squares (throne, corners) may be
//! passed or stopped on only by the kinds the rules allow.
//!
//! Generation works a whole side at a time: every piece of a kind is slid one step in a
//! direction with a single shift, then again, and the squares reached at step `n` are exactly the
//! destinations at distance `n`. Listing, counting and "is there any move" all share that sweep.

use std::fmt;
use std::ops::ControlFlow;

use super::bitboard::Bits;
use super::board::Board;
use super::position::Position;
use super::square::{Coord, Dir, Move, Piece, Side, Square};

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// No move is legal once the game has ended.
    GameOver,
    OffBoard,
    NoPiece(Coord),
    NotYourPiece {
        square: Coord,
        side: Side,
    },
    NoMovement(Coord),
    NotStraight {
        from: Coord,
        to: Coord,
    },
    Blocked(Coord),
    /// The piece may not pass over this square (the throne or a corner).
    CannotPass {
        piece: Piece,
        square: Coord,
    },
    /// The piece may not stop on this square.
    CannotStop {
        piece: Piece,
        square: Coord,
    },
    /// The move is longer than the rules' speed limit for the piece.
    TooFar {
        piece: Piece,
        limit: u8,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::OffBoard => write!(f, "the move leaves the board"),
            IllegalMove::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            IllegalMove::NotYourPiece { square, side } => {
                write!(
                    f,
                    "the piece on {square} does not belong to the {side}, who are to move"
                )
            }
            IllegalMove::NoMovement(sq) => {
                write!(f, "the piece on {sq} must move at least one square")
            }
            IllegalMove::NotStraight { from, to } => {
                write!(f, "{from} to {to} is not along a rank or a file")
            }
            IllegalMove::Blocked(sq) => write!(f, "the way is blocked by the piece on {sq}"),
            IllegalMove::CannotPass { piece, square } => {
                write!(f, "{} may not pass over {square}", piece_name(*piece))
            }
            IllegalMove::CannotStop { piece, square } => {
                write!(f, "{} may not stop on {square}", piece_name(*piece))
            }
            IllegalMove::TooFar { piece, limit } => {
                write!(f, "{} moves at most {limit} squares", piece_name(*piece))
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Attacker => "an attacker",
        Piece::Defender => "a defender",
        Piece::King => "the king",
    }
}

impl<B: Bits> Position<B> {
    /// Calls `visit(dir, distance, destinations)` for every non-empty set of destinations of the
    /// side to move, until `visit` breaks.
    fn sweep(
        &self,
        board: &Board<B>,
        mut visit: impl FnMut(Dir, u32, B) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let empty = board.all & !self.occupied();
        let groups = match self.turn {
            Side::Attackers => [(self.attackers, Piece::Attacker), (B::EMPTY, Piece::King)],
            Side::Defenders => [(self.defenders, Piece::Defender), (self.king, Piece::King)],
        };
        for (pieces, kind) in groups {
            if pieces.is_empty() {
                continue;
            }
            let pass = board.passable(kind);
            let stop = board.stoppable(kind);
            let enter = empty & (pass | stop);
            let limit = board.rules.speed[kind.index()].map_or(u32::MAX, u32::from);
            for dir in Dir::ALL {
                let mut front = pieces;
                let mut distance = 0;
                while distance < limit {
                    let reached = board.shift(front, dir) & enter;
                    if reached.is_empty() {
                        break;
                    }
                    distance += 1;
                    let destinations = reached & stop;
                    if destinations.any() {
                        visit(dir, distance, destinations)?;
                    }
                    front = reached & pass;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Appends every legal move of the side to move to `out`.
    pub fn legal_moves_into(&self, board: &Board<B>, out: &mut Vec<Move>) {
        let _ = self.sweep(board, |dir, distance, destinations| {
            let back = board.delta(dir) * distance as isize;
            for to in destinations.squares() {
                let from = Square::from_index((to.index() as isize - back) as usize);
                out.push(Move { from, to });
            }
            ControlFlow::Continue(())
        });
    }

    pub fn legal_moves(&self, board: &Board<B>) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.legal_moves_into(board, &mut out);
        out
    }

    /// How many legal moves the side to move has, without listing them.
    pub fn count_moves(&self, board: &Board<B>) -> u64 {
        let mut n = 0u64;
        let _ = self.sweep(board, |_, _, destinations| {
            n += u64::from(destinations.count());
            ControlFlow::Continue(())
        });
        n
    }

    pub fn has_moves(&self, board: &Board<B>) -> bool {
        self.sweep(board, |_, _, _| ControlFlow::Break(()))
            .is_break()
    }

    /// Checks one move and says exactly what is wrong with it; returns the moving piece.
    pub fn check_move(&self, board: &Board<B>, mv: Move) -> Result<Piece, IllegalMove> {
        let dim = board.dim;
        let size = usize::from(dim) * usize::from(dim);
        if mv.from.index() >= size || mv.to.index() >= size {
            return Err(IllegalMove::OffBoard);
        }
        let (from, to) = (mv.from.coord(dim), mv.to.coord(dim));
        let piece = self.piece_at(mv.from).ok_or(IllegalMove::NoPiece(from))?;
        if piece.side() != self.turn {
            return Err(IllegalMove::NotYourPiece {
                square: from,
                side: self.turn,
            });
        }
        if mv.from == mv.to {
            return Err(IllegalMove::NoMovement(from));
        }
        let dir = match (from.file.cmp(&to.file), from.rank.cmp(&to.rank)) {
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Less) => Dir::North,
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Greater) => Dir::South,
            (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => Dir::East,
            (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => Dir::West,
            _ => return Err(IllegalMove::NotStraight { from, to }),
        };
        if let Some(limit) = board.rules.speed[piece.index()] {
            let distance = from.file.abs_diff(to.file) + from.rank.abs_diff(to.rank);
            if distance > limit {
                return Err(IllegalMove::TooFar { piece, limit });
            }
        }
        let occupied = self.occupied();
        let mut sq = mv.from;
        while let Some(next) = board.step(sq, dir) {
            sq = next;
            if occupied.has(sq) {
                return Err(IllegalMove::Blocked(sq.coord(dim)));
            }
            if sq == mv.to {
                break;
            }
            if !board.passable(piece).has(sq) {
                return Err(IllegalMove::CannotPass {
                    piece,
                    square: sq.coord(dim),
                });
            }
        }
        if !board.stoppable(piece).has(mv.to) {
            return Err(IllegalMove::CannotStop { piece, square: to });
        }
        Ok(piece)
    }
}
