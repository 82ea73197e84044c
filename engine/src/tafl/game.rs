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
use super::square::{Move, Side, Square};
use crate::rng::MatchRng;

/// One move of the record with what it captured, and what taking it back needs besides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played<B> {
    pub mv: Move,
    pub captures: Captures<B>,
    /// The king's square before the move, to put him back if it took him.
    king_before: Option<Square>,
}

impl<B: Bits> Played<B> {
    fn captured(&self) -> bool {
        self.captures.men.any() || self.captures.king
    }
}

#[derive(Clone, Debug)]
pub struct TaflGame<B> {
    board: Arc<Board<B>>,
    start: Position<B>,
    position: Position<B>,
    /// Hashes of every position since the last capture, the current one last. A capture can
    /// never be undone, so no earlier position can come back.
    history: Vec<u64>,
    record: Vec<Played<B>>,
    verdict: Option<Verdict>,
}

impl<B: Bits> TaflGame<B> {
    pub fn new(board: Arc<Board<B>>, start: Position<B>) -> TaflGame<B> {
        let mut game = TaflGame {
            board,
            start,
            position: start,
            history: vec![start.hash()],
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

    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// The side to move, or `None` once the game is over.
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

    /// Checks and plays one move, then judges whether it ended the game.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.verdict.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let piece = self.position.check_move(&self.board, mv)?;
        let mover = piece.side();
        let king_before = self.position.king_square();
        let captures = self.position.play(&self.board, mv);
        if captures.men.any() || captures.king {
            self.history.clear();
        }
        self.history.push(self.position.hash());
        self.verdict = self
            .position
            .verdict_after(&self.board, mover, &captures)
            .or_else(|| self.repetition_verdict(mover));
        self.record.push(Played {
            mv,
            captures,
            king_before,
        });
        Ok(())
    }

    /// Takes back the last move played, if any: the game is exactly as it was before it.
    pub fn undo(&mut self) {
        let Some(played) = self.record.pop() else {
            return;
        };
        (self.position).unplay(played.mv, &played.captures, played.king_before);
        // A move is played only while the game is on.
        self.verdict = None;
        if played.captured() {
            self.history = self.history_since_capture();
        } else {
            self.history.pop();
        }
    }

    /// The hashes of the positions since the last capture, read back from the record: what a
    /// capture cleared, when it is taken back.
    fn history_since_capture(&self) -> Vec<u64> {
        let mut position = self.position;
        let mut hashes = vec![position.hash()];
        for played in self.record.iter().rev().take_while(|p| !p.captured()) {
            position.unplay(played.mv, &played.captures, played.king_before);
            hashes.push(position.hash());
        }
        hashes.reverse();
        hashes
    }

    /// Applies the repetition rule when the current position has now occurred three times.
    fn repetition_verdict(&self, mover: Side) -> Option<Verdict> {
        let now = self.position.hash();
        if self.history.iter().filter(|&&h| h == now).count() < 3 {
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
}
