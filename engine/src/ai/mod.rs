//! Computer opponents. Every game can be played by the AI at levels 1 (a random-ish beginner) to
//! 5 (the strongest the budget allows): tafl with an alpha-beta search of its own
//! (`tafl::search`), every other game with a generic Monte Carlo tree search over the game
//! contract (`mcts.rs`), which determinises hidden information and samples chance. A game that
//! uses the generic search implements [`mcts::MctsGame`], with its tuning, in its own folder.
//!
//! The engine has no clock: a search runs until its node budget is spent or the caller's `stop`
//! says so, which is how the server imposes a per-move time limit.
//!
//! The same searches also analyse a position ([`Ai::analyse`]): how a seat stands, on the scale
//! of a game's result, and the line of play the search expects.

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

/// What an analysis of a position found for one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<A> {
    /// The seat's expected result, on the scale of [`mcts::rewards`]: 1 for first place, 0 for
    /// last, 0.5 for an even game. Each search says how it estimates it.
    pub score: f64,
    /// The line of play the search expects, best action first: each action with the seat that
    /// takes it, in the order they are played. Replayed from the position before it is
    /// returned, so every action is legal where it stands (where chance decides, under the
    /// chance of that replay).
    pub line: Vec<(Seat, A)>,
    /// The work done: nodes searched (tafl) or iterations (the generic search).
    pub nodes: u64,
}

/// The analysis of a finished game: its result for `seat`, and nothing left to play.
pub fn concluded<G: Game>(game: &G, seat: Seat) -> Option<Analysis<G::Action>> {
    let outcome = game.outcome()?;
    Some(Analysis {
        score: *mcts::rewards(outcome).get(seat.index())?,
        line: Vec::new(),
        nodes: 0,
    })
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

    /// Analyses the position for `seat` within `budget`: a finished game's result (see
    /// [`concluded`]), or for a seat among those to act its expected result and best line.
    /// `None` when the game goes on and `seat` need not act. Given the same `rng` and a budget
    /// without `stop`, the analysis is the same every time.
    fn analyse(
        &self,
        seat: Seat,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Analysis<Self::Action>>;
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

    fn analyse(
        &self,
        seat: Seat,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Analysis<Self::Action>> {
        mcts::analyse_with(self, seat, budget, rng, &G::tuning())
    }
}
