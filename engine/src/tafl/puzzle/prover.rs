//! The puzzle prover: an exact AND/OR search that decides whether the side to move (the solver)
//! reaches its goal within `n` of its own moves whatever the opponent answers, and finds the
//! solution when exactly one first move does.
//!
//! A node of the solver's is won when one move reaches the goal (a move that wins the game always
//! does); a node of the opponent's when every reply fails. Nothing is estimated: every move of
//! both sides is tried unless one already settles the node, so "no" is as proven as "yes". The
//! order moves are tried in (threats and captures first, for both sides; the reply that last
//! refuted a move at the same depth first for the opponent) only decides how soon a node settles.
//!
//! Results are kept per (position, moves left, men won so far), so a position met again through
//! another order of moves is not searched twice. A node budget bounds the work: a search that
//! runs out of it proves nothing, and the caller drops the position. The count of nodes depends
//! only on the position, so the same position always gives the same answer.
//!
//! Repetition is not judged: a puzzle is a position without a history, and no shortest forced
//! line of at most nine plies can make a position occur three times.

use std::collections::HashMap;

use super::super::bitboard::Bits;
use super::super::board::Board;
use super::super::eval::{
    capture_squares, escape_approaches, king_can_escape, king_capture, king_reach,
};
use super::super::position::Position;
use super::super::square::{Move, Side};

/// What the solver is after.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Winning the game: the king escapes or is taken, an exit fort, an encirclement, the
    /// opponent left without a move.
    Win,
    /// Being a man up (men taken minus men lost) once the opponent has answered, without losing
    /// the game; winning the game counts too.
    Material,
}

/// How far and how long the prover looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most moves of the solver's a solution may take (1 to [`MAX_MOVES`]).
    pub max_moves: u8,
    /// The most nodes one position may cost, over every depth tried and the line's proof.
    pub max_nodes: u64,
}

/// The longest solution, in the solver's moves: a person can follow five.
pub const MAX_MOVES: u8 = 5;

/// Why a position is not a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The solver cannot reach the goal within the limit.
    NoSolution,
    /// More than one move reaches it in the fewest moves, at some step of the solver's.
    NotUnique,
    /// The node budget ran out before the question was settled.
    OutOfBudget,
}

/// A proven solution: the solver's moves and the opponent's replies, ending with the solver's
/// last move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub line: Vec<Move>,
    /// The solver's moves in the line.
    pub moves: u8,
    /// Nodes the proof cost.
    pub nodes: u64,
}

/// Proves the position's puzzle for `goal`: the fewest solver moves `n` within `limits.max_moves`
/// that reach the goal, the one first move that does, and after it the reply that holds out
/// longest (the first in the move list's order among equals whose continuation is itself unique),
/// and so on to the end. Every step of the solver's must be the only move reaching the goal in
/// the moves left; other moves may reach it later.
pub(in crate::tafl) fn prove<B: Bits>(
    board: &Board<B>,
    pos: &Position<B>,
    goal: Goal,
    limits: &Limits,
) -> Result<Proof, Unsolved> {
    let mut prover = Prover {
        board,
        solver: pos.turn,
        goal,
        nodes: 0,
        max_nodes: limits.max_nodes,
        exhausted: false,
        known: HashMap::new(),
        refutations: [None; 2 * MAX_MOVES as usize + 2],
    };
    let max = limits.max_moves.clamp(1, MAX_MOVES);
    for n in 1..=max {
        let winners = prover.winners(pos, n, 0);
        if prover.exhausted {
            return Err(Unsolved::OutOfBudget);
        }
        match winners.len() {
            0 => continue,
            1 => {
                let line = prover.line(pos, n, 0)?;
                return Ok(Proof {
                    line,
                    moves: n,
                    nodes: prover.nodes,
                });
            }
            _ => return Err(Unsolved::NotUnique),
        }
    }
    Err(Unsolved::NoSolution)
}

struct Prover<'a, B> {
    board: &'a Board<B>,
    solver: Side,
    goal: Goal,
    nodes: u64,
    max_nodes: u64,
    exhausted: bool,
    /// Settled solver nodes: (hash, moves left, men won) to whether the goal is reached.
    known: HashMap<(u64, u8, i8), bool>,
    /// The opponent's last refuting reply at each number of moves left.
    refutations: [Option<Move>; 2 * MAX_MOVES as usize + 2],
}

impl<B: Bits> Prover<'_, B> {
    /// Counts a node; false once the budget is spent.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// Whether the side to move can win the game with its next move by the king's escape or
    /// capture (the cheap tests; other wins need the move played).
    fn wins_at_once(&self, pos: &Position<B>) -> bool {
        match pos.turn {
            Side::Defenders => king_can_escape(pos, self.board),
            Side::Attackers => king_capture(pos, self.board).is_some(),
        }
    }

    /// The solver's moves at `pos` that reach the goal within `left` moves, in move order.
    fn winners(&mut self, pos: &Position<B>, left: u8, won: i8) -> Vec<Move> {
        let moves = self.solver_moves(pos);
        let mut found = Vec::new();
        for mv in moves {
            if self.reaches(pos, mv, left, won) {
                found.push(mv);
            }
            if self.exhausted {
                break;
            }
        }
        found
    }

    /// A solver node: whether some move reaches the goal within `left` moves.
    fn attack(&mut self, pos: &Position<B>, left: u8, won: i8) -> bool {
        if !self.tick() {
            return false;
        }
        let key = (pos.hash(), left, won);
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let result = self.wins_at_once(pos) || {
            let moves = self.solver_moves(pos);
            moves.into_iter().any(|mv| self.reaches(pos, mv, left, won))
        };
        if !self.exhausted {
            self.known.insert(key, result);
        }
        result
    }

    /// Whether the solver's move `mv` reaches the goal within `left` moves (this one included).
    fn reaches(&mut self, pos: &Position<B>, mv: Move, left: u8, won: i8) -> bool {
        let mut child = *pos;
        let captures = child.play(self.board, mv);
        let won = won + captures.men.count() as i8;
        if let Some(verdict) = child.verdict_after(self.board, self.solver, &captures) {
            return verdict.winner == Some(self.solver);
        }
        // The opponent cannot add to the men won, so a last move must have made them enough.
        if left == 1 && (self.goal == Goal::Win || won < 1) {
            return false;
        }
        self.defend(&child, left, won)
    }

    /// An opponent node after the solver's move with `left` moves (that one included): whether
    /// every reply still lets the solver reach the goal.
    fn defend(&mut self, pos: &Position<B>, left: u8, won: i8) -> bool {
        if !self.tick() {
            return false;
        }
        let replies = self.replies(pos, left);
        for reply in replies {
            let after = self.answer(pos, reply, left, won);
            if self.exhausted {
                return false;
            }
            if !after {
                self.refutations[usize::from(left)] = Some(reply);
                return false;
            }
        }
        true
    }

    /// Whether the solver still reaches the goal after the opponent's `reply`.
    fn answer(&mut self, pos: &Position<B>, reply: Move, left: u8, won: i8) -> bool {
        let (child, won) = self.after_reply(pos, reply, won);
        match child {
            None => false,
            Some(_) if self.goal == Goal::Material && won >= 1 => true,
            Some(_) if left == 1 => false,
            Some(child) => self.attack(&child, left - 1, won),
        }
    }

    /// The position after the opponent's reply and the men the solver is up; no position when
    /// the reply ended the game (only ever in the opponent's favour).
    fn after_reply(&self, pos: &Position<B>, reply: Move, won: i8) -> (Option<Position<B>>, i8) {
        let mut child = *pos;
        let captures = child.play(self.board, reply);
        let won = won - captures.men.count() as i8;
        let ended = child
            .verdict_after(self.board, self.solver.opponent(), &captures)
            .is_some();
        ((!ended).then_some(child), won)
    }

    /// The solver's moves, likely winners first: captures, then moves onto the king's lines
    /// (attackers) or the king's moves towards an escape (defenders). The sort is stable, so the
    /// order is the move generator's among equals.
    fn solver_moves(&self, pos: &Position<B>) -> Vec<Move> {
        let board = self.board;
        let mut moves = pos.legal_moves(board);
        let captures = capture_squares(pos, board, pos.turn);
        let hot = match pos.turn {
            Side::Defenders => escape_approaches(pos, board) | board.escape,
            Side::Attackers => board.neighbours(pos.king),
        };
        let king = pos.king;
        moves.sort_by_key(|mv| {
            let onto_line = hot.has(mv.to) && (pos.turn == Side::Attackers || king.has(mv.from));
            std::cmp::Reverse(2 * u8::from(captures.has(mv.to)) + u8::from(onto_line))
        });
        moves
    }

    /// The opponent's replies, likely refutations first: the last reply that refuted at this
    /// depth, then moves onto the king's lines or beside him, the king's own moves, captures.
    fn replies(&self, pos: &Position<B>, left: u8) -> Vec<Move> {
        let board = self.board;
        let mut moves = pos.legal_moves(board);
        let lines = king_reach(pos, board) | board.neighbours(pos.king);
        let captures = capture_squares(pos, board, pos.turn);
        let last = self.refutations[usize::from(left)];
        moves.sort_by_key(|mv| {
            let key = 8 * u8::from(Some(*mv) == last)
                + 2 * u8::from(lines.has(mv.to))
                + u8::from(pos.king.has(mv.from))
                + u8::from(captures.has(mv.to));
            std::cmp::Reverse(key)
        });
        moves
    }

    /// The fewest solver moves (at most `left`) within which the solver reaches the goal after
    /// the opponent's reply, 0 when the reply leaves the goal already reached; `None` when it
    /// does not within `left`.
    fn distance(&mut self, pos: &Position<B>, reply: Move, left: u8, won: i8) -> Option<u8> {
        let (child, won) = self.after_reply(pos, reply, won);
        let child = child?;
        if self.goal == Goal::Material && won >= 1 {
            return Some(0);
        }
        (1..=left).find(|&n| self.attack(&child, n, won))
    }

    /// The solution from a solver node known to reach the goal in exactly `left` moves: its one
    /// move doing so, then the longest-resisting reply, and on.
    fn line(&mut self, pos: &Position<B>, left: u8, won: i8) -> Result<Vec<Move>, Unsolved> {
        let winners = self.winners(pos, left, won);
        if self.exhausted {
            return Err(Unsolved::OutOfBudget);
        }
        let [mv] = winners[..] else {
            return Err(Unsolved::NotUnique);
        };
        let mut child = *pos;
        let captures = child.play(self.board, mv);
        let won = won + captures.men.count() as i8;
        if child
            .verdict_after(self.board, self.solver, &captures)
            .is_some()
        {
            return Ok(vec![mv]);
        }
        // Every reply lets the solver reach the goal in at most `left - 1` moves: find how soon.
        let mut replies = Vec::new();
        for reply in child.legal_moves(self.board) {
            let distance = self.distance(&child, reply, left - 1, won);
            if self.exhausted {
                return Err(Unsolved::OutOfBudget);
            }
            replies.push((
                reply,
                distance.expect("the move was proven to reach the goal"),
            ));
        }
        let longest = replies.iter().map(|&(_, d)| d).max().unwrap_or(0);
        if longest == 0 {
            // Every reply leaves the man won: the line ends with the winning capture.
            return Ok(vec![mv]);
        }
        let mut last = Err(Unsolved::NotUnique);
        for &(reply, distance) in &replies {
            if distance != longest {
                continue;
            }
            let (next, next_won) = self.after_reply(&child, reply, won);
            let next = next.expect("a reply that ended the game refutes");
            match self.line(&next, longest, next_won) {
                Ok(rest) => {
                    let mut line = vec![mv, reply];
                    line.extend(rest);
                    return Ok(line);
                }
                Err(Unsolved::OutOfBudget) => return Err(Unsolved::OutOfBudget),
                Err(other) => last = Err(other),
            }
        }
        last
    }
}

/// How many of the side to move's moves other than `solution` look good: they capture a man,
/// or leave a win on the spot threatened (the king's escape or capture).
pub(in crate::tafl) fn decoys<B: Bits>(
    board: &Board<B>,
    pos: &Position<B>,
    solution: Move,
) -> usize {
    let side = pos.turn;
    pos.legal_moves(board)
        .into_iter()
        .filter(|&mv| mv != solution)
        .filter(|&mv| {
            let mut child = *pos;
            let captures = child.play(board, mv);
            let threat = match side {
                Side::Defenders => king_can_escape(&child, board),
                Side::Attackers => king_capture(&child, board).is_some(),
            };
            captures.men.any() || threat
        })
        .count()
}
