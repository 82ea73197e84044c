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
use crate::game::{Explain, Why};
use crate::rng::MatchRng;

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

impl Explain for IllegalMove {
    fn why(&self) -> Why {
        match self {
            IllegalMove::GameOver => Why::new("game_over"),
            IllegalMove::OffBoard => Why::new("off_board"),
            IllegalMove::NoPiece(square) => Why::new("no_piece").with("square", square),
            IllegalMove::NotYourPiece { square, side } => Why::new("not_your_piece")
                .with("square", square)
                .with("side", side),
            IllegalMove::NoMovement(square) => Why::new("no_movement").with("square", square),
            IllegalMove::NotStraight { from, to } => {
                Why::new("not_straight").with("from", from).with("to", to)
            }
            IllegalMove::Blocked(square) => Why::new("blocked").with("square", square),
            IllegalMove::CannotPass { piece, square } => Why::new("cannot_pass")
                .with("piece", piece_code(*piece))
                .with("square", square),
            IllegalMove::CannotStop { piece, square } => Why::new("cannot_stop")
                .with("piece", piece_code(*piece))
                .with("square", square),
            IllegalMove::TooFar { piece, limit } => Why::new("too_far")
                .with("piece", piece_code(*piece))
                .with("limit", limit),
        }
    }
}

/// A piece's kind as a reason's parameter names it.
fn piece_code(piece: Piece) -> &'static str {
    match piece {
        Piece::Attacker => "attacker",
        Piece::Defender => "defender",
        Piece::King => "king",
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Attacker => "an attacker",
        Piece::Defender => "a defender",
        Piece::King => "the king",
    }
}

impl<B: Bits> Position<B> {
    /// The pieces of the side to move by kind, in the order moves are listed.
    fn groups(&self) -> [(B, Piece); 2] {
        match self.turn {
            Side::Attackers => [(self.attackers, Piece::Attacker), (B::EMPTY, Piece::King)],
            Side::Defenders => [(self.defenders, Piece::Defender), (self.king, Piece::King)],
        }
    }

    /// Slides every piece of `pieces` (all of kind `kind`) in `dir` over the `empty` squares:
    /// calls `visit(distance, destinations)` for every non-empty set of destinations, nearest
    /// first, until `visit` breaks.
    fn slide(
        &self,
        board: &Board<B>,
        empty: B,
        (pieces, kind): (B, Piece),
        dir: Dir,
        mut visit: impl FnMut(u32, B) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let pass = board.passable(kind);
        let stop = board.stoppable(kind);
        let enter = empty & (pass | stop);
        let limit = board.rules.speed[kind.index()].map_or(u32::MAX, u32::from);
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
                visit(distance, destinations)?;
            }
            front = reached & pass;
        }
        ControlFlow::Continue(())
    }

    /// Calls `visit(kind, dir, distance, destinations)` for every non-empty set of destinations
    /// of the side to move, in the order moves are listed, until `visit` breaks.
    fn sweep(
        &self,
        board: &Board<B>,
        mut visit: impl FnMut(Piece, Dir, u32, B) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let empty = self.empty(board);
        for (pieces, kind) in self.groups() {
            if pieces.is_empty() {
                continue;
            }
            for dir in Dir::ALL {
                self.slide(
                    board,
                    empty,
                    (pieces, kind),
                    dir,
                    |distance, destinations| visit(kind, dir, distance, destinations),
                )?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Appends every legal move of the side to move to `out`.
    pub fn legal_moves_into(&self, board: &Board<B>, out: &mut Vec<Move>) {
        let _ = self.sweep(board, |_, dir, distance, destinations| {
            // Every move of the set comes the same way: from as far back along `dir`.
            let back = board.delta(dir) * distance as isize;
            out.extend(destinations.squares().map(|to| Move {
                from: Square::from_index((to.index() as isize - back) as usize),
                to,
            }));
            ControlFlow::Continue(())
        });
    }

    pub fn legal_moves(&self, board: &Board<B>) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.legal_moves_into(board, &mut out);
        out
    }

    /// Every destination of the side to move, by kind of piece and direction. Along one
    /// direction no two pieces reach the same square (the nearer one stands in the farther
    /// one's way), so each set's size is the number of those moves.
    fn destinations(&self, board: &Board<B>) -> [[B; 4]; 3] {
        let mut reached = [[B::EMPTY; 4]; 3];
        let _ = self.sweep(board, |kind, dir, _, destinations| {
            reached[kind.index()][dir.index()] |= destinations;
            ControlFlow::Continue(())
        });
        reached
    }

    /// How many legal moves the side to move has by kind of piece and direction.
    fn move_counts(&self, board: &Board<B>) -> [[u64; 4]; 3] {
        self.destinations(board)
            .map(|by_dir| by_dir.map(|b| u64::from(b.count())))
    }

    /// How many legal moves the side to move has, without listing them.
    pub fn count_moves(&self, board: &Board<B>) -> u64 {
        let reached = self.destinations(board);
        reached.iter().flatten().map(|b| u64::from(b.count())).sum()
    }

    /// A uniformly random legal move, the one `rng.choose(&self.legal_moves(board))` would
    /// draw, found without listing the others: the draw picks a kind and direction by their
    /// counts, then the move among that slide's destinations.
    pub fn random_move(&self, board: &Board<B>, rng: &mut MatchRng) -> Option<Move> {
        // Counted once: a count is many instructions where the processor has no instruction
        // for it.
        let counts = self.move_counts(board);
        let count: u64 = counts.iter().flatten().sum();
        if count == 0 {
            return None;
        }
        let mut left = rng.below(count);
        let empty = self.empty(board);
        for (pieces, kind) in self.groups() {
            for dir in Dir::ALL {
                let here = counts[kind.index()][dir.index()];
                if left >= here {
                    left -= here;
                    continue;
                }
                let mut found = None;
                let _ = self.slide(
                    board,
                    empty,
                    (pieces, kind),
                    dir,
                    |distance, destinations| {
                        let count = u64::from(destinations.count());
                        if left >= count {
                            left -= count;
                            return ControlFlow::Continue(());
                        }
                        let to = destinations.squares().nth(left as usize).expect("counted");
                        found = Some(Move {
                            from: board.back(to, dir, distance),
                            to,
                        });
                        ControlFlow::Break(())
                    },
                );
                return found;
            }
        }
        unreachable!("the draw is below the count of moves")
    }

    #[inline]
    pub fn has_moves(&self, board: &Board<B>) -> bool {
        // Almost always a piece has an empty square next to it that it may stop on (every
        // speed limit allows a step), and the first man usually has: one look-up, on every
        // move, before the search of the others. Squares to stop on lie on the board, so the
        // empty ones among them need no mask by the board.
        let (men, man) = match self.turn {
            Side::Attackers => (self.attackers, Piece::Attacker),
            Side::Defenders => (self.defenders, Piece::Defender),
        };
        if let Some(first) = men.lowest()
            && (board.around(first) & board.stoppable(man) & !self.occupied()).any()
        {
            return true;
        }
        self.has_other_moves(board, self.empty(board))
    }

    /// Whether the side to move has a move, `empty` being the empty squares: some piece has a
    /// step (a few shifts of every piece at once), or else the sweep finds one.
    fn has_other_moves(&self, board: &Board<B>, empty: B) -> bool {
        let steps = |pieces: B, kind: Piece| {
            (board.neighbours(pieces) & empty & board.stoppable(kind)).any()
        };
        let next_door = match self.turn {
            Side::Attackers => steps(self.attackers, Piece::Attacker),
            Side::Defenders => {
                steps(self.defenders, Piece::Defender) || steps(self.king, Piece::King)
            }
        };
        next_door
            || self
                .sweep(board, |_, _, _, _| ControlFlow::Break(()))
                .is_break()
    }

    /// Checks one move and says exactly what is wrong with it; returns the moving piece.
    #[inline]
    pub fn check_move(&self, board: &Board<B>, mv: Move) -> Result<Piece, IllegalMove> {
        // Nearly every move checked is legal (it was listed or drawn): a few word operations
        // settle that, and only a move they refuse is taken through the checks one by one.
        match self.legal_piece(board, mv) {
            Some(piece) => Ok(piece),
            None => self.explain_move(board, mv),
        }
    }

    /// The piece that `mv` moves, if the move is legal; `None` may also mean that it is legal
    /// after all, which [`Position::explain_move`] then finds.
    #[inline]
    fn legal_piece(&self, board: &Board<B>, mv: Move) -> Option<Piece> {
        let squares = board.squares();
        if mv.from.index() >= squares || mv.to.index() >= squares {
            return None;
        }
        let (start, end) = (board.coord(mv.from), board.coord(mv.to));
        // Along a rank or a file: exactly one coordinate the same (both is no move at all).
        let along_rank = start.rank == end.rank;
        if along_rank == (start.file == end.file) {
            return None;
        }
        let from = B::single(mv.from);
        let piece = match self.turn {
            Side::Attackers if (self.attackers & from).any() => Piece::Attacker,
            Side::Defenders if (self.defenders & from).any() => Piece::Defender,
            Side::Defenders if (self.king & from).any() => Piece::King,
            _ => return None,
        };
        if board.too_far(piece, start, end).is_some() {
            return None;
        }
        let dir = Dir::from_index(2 * usize::from(along_rank) + usize::from(mv.to < mv.from));
        // The squares passed and the one stopped on, all to be empty and passable (a square
        // the piece may stop on but not pass is left to the rules one by one), the last one
        // a square the piece may stop on.
        let path = board.ray(mv.from, dir) & !board.ray(mv.to, dir);
        let refused = path & (self.occupied() | !board.passable(piece));
        (refused.is_empty() && board.stoppable(piece).has(mv.to)).then_some(piece)
    }

    /// Checks one move rule by rule, to say exactly what is wrong with it; returns the moving
    /// piece if nothing is.
    #[cold]
    fn explain_move(&self, board: &Board<B>, mv: Move) -> Result<Piece, IllegalMove> {
        let squares = board.squares();
        if mv.from.index() >= squares || mv.to.index() >= squares {
            return Err(IllegalMove::OffBoard);
        }
        let (from, to) = (board.coord(mv.from), board.coord(mv.to));
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
        if from.file != to.file && from.rank != to.rank {
            return Err(IllegalMove::NotStraight { from, to });
        }
        if let Some(limit) = board.too_far(piece, from, to) {
            return Err(IllegalMove::TooFar { piece, limit });
        }
        let dir = board.line(mv.from, mv.to);
        let mut sq = mv.from;
        while sq != mv.to {
            sq = board.step(sq, dir).expect("the move ends on the board");
            if self.occupied().has(sq) {
                return Err(IllegalMove::Blocked(board.coord(sq)));
            }
            if sq != mv.to && !board.passable(piece).has(sq) {
                return Err(IllegalMove::CannotPass {
                    piece,
                    square: board.coord(sq),
                });
            }
        }
        if !board.stoppable(piece).has(mv.to) {
            return Err(IllegalMove::CannotStop { piece, square: to });
        }
        Ok(piece)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::bitboard::Wide;
    use crate::tafl::rules::Rules;
    use crate::tafl::variants;

    /// Along a random game, now and then, every pair of squares (and two off the board) is
    /// checked both ways: the quick check must accept exactly what the rules one by one do.
    fn checks_agree<B: Bits>(rules: Rules) {
        let board = Board::<B>::new(rules.clone()).unwrap();
        let turn = if rules.attackers_first {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let mut pos = Position::<B>::from_layout(&rules.start, turn);
        let mut rng = MatchRng::from_seed(7);
        let squares = board.squares() + 2;
        for ply in 0..90 {
            if ply % 30 == 0 {
                for (from, to) in (0..squares).flat_map(|f| (0..squares).map(move |t| (f, t))) {
                    let mv = Move {
                        from: Square::from_index(from),
                        to: Square::from_index(to),
                    };
                    assert_eq!(
                        pos.legal_piece(&board, mv),
                        pos.explain_move(&board, mv).ok(),
                        "{} ply {ply}: {mv:?}",
                        rules.name
                    );
                }
            }
            let Some(mv) = pos.random_move(&board, &mut rng) else {
                break;
            };
            let mover = pos.turn();
            let captures = pos.play(&board, mv);
            if pos.verdict_after(&board, mover, &captures).is_some() {
                break;
            }
        }
    }

    #[test]
    fn the_quick_move_check_agrees_with_the_rules_one_by_one() {
        let mut limited = variants::preset("copenhagen").unwrap();
        limited.speed = [Some(2), Some(3), Some(1)];
        let presets = variants::NAMES
            .iter()
            .map(|name| variants::preset(name).unwrap());
        for rules in presets.chain([limited]) {
            if usize::from(rules.dim()).pow(2) <= u128::CAPACITY {
                checks_agree::<u128>(rules);
            } else {
                checks_agree::<Wide>(rules);
            }
        }
    }

    #[test]
    fn every_illegal_move_has_its_own_stable_code_and_names_its_squares() {
        let e4 = Coord { file: 4, rank: 3 };
        let f5 = Coord { file: 5, rank: 4 };
        let king = Piece::King;
        let every = [
            IllegalMove::GameOver,
            IllegalMove::OffBoard,
            IllegalMove::NoPiece(e4),
            IllegalMove::NotYourPiece {
                square: e4,
                side: Side::Defenders,
            },
            IllegalMove::NoMovement(e4),
            IllegalMove::NotStraight { from: e4, to: f5 },
            IllegalMove::Blocked(e4),
            IllegalMove::CannotPass {
                piece: king,
                square: e4,
            },
            IllegalMove::CannotStop {
                piece: king,
                square: e4,
            },
            IllegalMove::TooFar {
                piece: king,
                limit: 3,
            },
        ];
        let codes: Vec<&str> = every.iter().map(|e| e.why().code).collect();
        // The codes are the client's catalog keys (`why.<code>`): renaming one loses its words.
        assert_eq!(
            codes,
            [
                "game_over",
                "off_board",
                "no_piece",
                "not_your_piece",
                "no_movement",
                "not_straight",
                "blocked",
                "cannot_pass",
                "cannot_stop",
                "too_far",
            ]
        );
        let distinct: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(distinct.len(), every.len());
        assert_eq!(
            every[5].why().params,
            [("from", "e4".to_string()), ("to", "f5".to_string())]
        );
        assert_eq!(
            every[9].why().params,
            [("piece", "king".to_string()), ("limit", "3".to_string())]
        );
    }
}
