//! A tafl game in progress on one board size: the position, the history that the repetition
//! rule needs, the record of moves played, and the verdict once the engine has found the end.

use std::sync::Arc;

use super::bitboard::Bits;
use super::board::Board;
use super::capture::Captures;
use super::ending::{Reason, Verdict};
use super::movegen::IllegalMove;
use super::position::Position;
use super::rules::Repetition;
use super::square::{Move, Side};
use crate::rng::MatchRng;

/// One move of the record with what it captured and the hash of the position it led to: the
/// positions the repetition rule counts are the start and these, kept in the record so that a
/// move is one push.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played<B> {
    pub mv: Move,
    pub captures: Captures<B>,
    pub hash: u64,
}

impl<B: Bits> Played<B> {
    fn captured(&self) -> bool {
        self.captures.men.any() || self.captures.king
    }
}

/// Where a game on stood, to come back to after exploring moves from it: a copy of the
/// position and two lengths, cheaper than working the moves and their captures backwards.
#[derive(Copy, Clone, Debug)]
pub struct Mark<B> {
    position: Position<B>,
    plies: usize,
    since_capture: usize,
}

#[derive(Clone, Debug)]
pub struct TaflGame<B> {
    board: Arc<Board<B>>,
    start: Position<B>,
    position: Position<B>,
    /// Where the positions since the last capture begin, counting the start as position 0 and
    /// the one the record's move `i` led to as `i + 1`: a capture can never be undone, so no
    /// earlier position can come back.
    since_capture: usize,
    record: Vec<Played<B>>,
    verdict: Option<Verdict>,
}

impl<B: Bits> TaflGame<B> {
    pub fn new(board: Arc<Board<B>>, start: Position<B>) -> TaflGame<B> {
        let mut game = TaflGame {
            board,
            start,
            position: start,
            since_capture: 0,
            record: Vec::new(),
            verdict: None,
        };
        if !start.has_moves(&game.board) {
            game.verdict = Some(Verdict {
                winner: Some(start.turn().opponent()),
                reason: Reason::NoMoves,
            });
        }
        game
    }

    pub fn board(&self) -> &Board<B> {
        &self.board
    }

    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    pub fn start(&self) -> &Position<B> {
        &self.start
    }

    pub fn record(&self) -> &[Played<B>] {
        &self.record
    }

    #[inline]
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// The side to move, or `None` once the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Side> {
        self.verdict.is_none().then(|| self.position.turn())
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        if self.verdict.is_some() {
            return Vec::new();
        }
        self.position.legal_moves(&self.board)
    }

    /// A uniformly random legal move, the one `rng.choose(&self.legal_moves())` would draw.
    pub fn random_move(&self, rng: &mut MatchRng) -> Option<Move> {
        if self.verdict.is_some() {
            return None;
        }
        self.position.random_move(&self.board, rng)
    }

    /// Checks and plays one move, then judges whether it ended the game: true if it did.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<bool, IllegalMove> {
        if self.verdict.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let piece = self.position.check_move(&self.board, mv)?;
        let mover = piece.side();
        let captures = self.position.play_piece(&self.board, mv, piece);
        let played = Played {
            mv,
            captures,
            hash: self.position.hash(),
        };
        self.record.push(played);
        if played.captured() {
            self.since_capture = self.record.len();
        }
        self.verdict = self
            .position
            .verdict_after(&self.board, mover, &captures)
            .or_else(|| self.repetition_verdict(mover));
        Ok(self.verdict.is_some())
    }

    /// Where the game stands now, which must be on: see [`TaflGame::return_to`].
    #[inline]
    pub fn mark(&self) -> Mark<B> {
        debug_assert!(
            self.verdict.is_none(),
            "a mark is taken while the game is on"
        );
        Mark {
            position: self.position,
            plies: self.record.len(),
            since_capture: self.since_capture,
        }
    }

    /// Takes back every move played since `mark` was taken: the game is exactly as it was then.
    #[inline]
    pub fn return_to(&mut self, mark: Mark<B>) {
        self.position = mark.position;
        self.record.truncate(mark.plies);
        self.since_capture = mark.since_capture;
        self.verdict = None;
    }

    /// Applies the repetition rule when the current position has now occurred three times.
    #[inline]
    fn repetition_verdict(&self, mover: Side) -> Option<Verdict> {
        // A position comes back four plies later at the soonest (each side must move a piece
        // away and back), so its third time is at least eight plies after its first: the
        // positions are only counted from nine on.
        if self.record.len() + 1 - self.since_capture < 9 || self.occurrences() < 3 {
            return None;
        }
        let ended = |winner| {
            Some(Verdict {
                winner,
                reason: Reason::Repetition,
            })
        };
        match self.board.rules.repetition {
            Repetition::Ignored => None,
            Repetition::Draw => ended(None),
            Repetition::MoverWins => ended(Some(mover)),
            Repetition::MoverLoses => ended(Some(mover.opponent())),
            Repetition::DefendersLose if mover == Side::Defenders => ended(Some(Side::Attackers)),
            Repetition::DefendersLose => None,
        }
    }

    /// How many times the current position has occurred since the last capture.
    fn occurrences(&self) -> usize {
        let now = self.position.hash();
        let start = usize::from(self.since_capture == 0 && self.start.hash() == now);
        let since_capture = &self.record[self.since_capture.saturating_sub(1)..];
        start
            + since_capture
                .iter()
                .filter(|played| played.hash == now)
                .count()
    }
}
