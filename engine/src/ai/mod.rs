//! Computer opponents. Every game can be played by the AI at levels 1 (a random-ish beginner) to
//! 5 (the strongest the budget allows): tafl with an alpha-beta search of its own
//! (`tafl::search`), every other game with a generic Monte Carlo tree search over the game
//! contract (`mcts.rs`), which determinises hidden information and samples chance. A game that
//! uses the generic search implements [`mcts::MctsGame`], with its tuning, in its own folder.
//!
//! The engine has no clock: a search runs until its node budget is spent or the caller's `stop`
//! says so, which is how the server imposes a per-move time limit.

pub mod mcts;

use crate::game::{Game, Seat};
use crate::rng::MatchRng;
use mcts::MctsGame;

/// AI strength, 1 to 5.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    pub const ALL: [Level; 5] = [Level(1), Level(2), Level(3), Level(4), Level(5)];

    pub const fn new(level: u8) -> Option<Level> {
        if level >= 1 && level <= 5 {
            Some(Level(level))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }
}

/// How much a search may do: at most `max_nodes` units of work (nodes searched, or playouts),
/// and it stops early as soon as `stop()` returns true (checked often, so a time limit enforced
/// through it is kept closely).
pub struct Budget<'a> {
    pub max_nodes: u64,
    pub stop: &'a dyn Fn() -> bool,
}

impl Budget<'_> {
    /// A budget with no outside stop.
    pub fn nodes(max_nodes: u64) -> Budget<'static> {
        Budget {
            max_nodes,
            stop: &|| false,
        }
    }
}

/// A game the AI can play.
pub trait Ai: Game {
    /// An action for `seat`, which must be among the seats to act; `None` when it has none.
    /// Random choices (ties, the beginner's mistakes, sampling) come from `rng`, which is the
    /// AI's own, never the match's.
    fn choose(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Self::Action>;
}

impl<G: MctsGame> Ai for G {
    fn choose(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Self::Action> {
        mcts::choose_with(self, seat, level, budget, rng, &G::tuning())
    }
}
