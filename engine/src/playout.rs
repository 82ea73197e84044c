//! Random playouts over the game contract: the driver for property tests, benchmarks and the
//! command-line tools. Works for any [`Game`], whichever seats must act.

use crate::game::{Game, Seat};
use crate::rng::MatchRng;

/// What a playout did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout<A> {
    /// Every action taken, with its seat, in order: the match's action log.
    pub log: Vec<(Seat, A)>,
    /// Whether the game reached its end within the action limit.
    pub finished: bool,
}

/// Plays uniformly random legal actions (for the lowest-numbered seat that must act) until the
/// game ends or `max_actions` have been taken.
///
/// The choices come from `chooser`, the game's chance from `match_rng`: kept apart, exactly as
/// players and the match are, so that the match's seed and the log replay the game.
pub fn random_playout<G: Game>(
    game: &mut G,
    match_rng: &mut MatchRng,
    chooser: &mut MatchRng,
    max_actions: usize,
) -> Playout<G::Action> {
    let mut log = Vec::new();
    while log.len() < max_actions {
        let Some(seat) = game.to_act().iter().next() else {
            return Playout {
                log,
                finished: true,
            };
        };
        let Some(action) = game.random_action(seat, chooser) else {
            // A seat that must act but has no action is a bug in the game, not in the caller.
            panic!("{seat} must act but has no legal action");
        };
        game.play(seat, &action, match_rng)
            .unwrap_or_else(|e| panic!("a legal action was refused: {e}"));
        log.push((seat, action));
    }
    let finished = game.is_over();
    Playout { log, finished }
}

/// Perft through the game contract alone: the leaves `depth` actions down, every action
/// `legal_actions` lists tried with `explore` (checked and played as `play` does, captures made,
/// endings judged, then put back). A game that has ended is a leaf before its depth.
pub fn perft<G: Game>(game: &mut G, depth: u32, rng: &mut MatchRng) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some(seat) = game.to_act().iter().next() else {
        return 0;
    };
    game.legal_actions(seat)
        .iter()
        .map(|action| {
            // A leaf is counted where it is played, sparing a call per leaf.
            game.explore(seat, action, rng, |next, rng| match depth {
                1 => 1,
                _ => perft(next, depth - 1, rng),
            })
            .expect("a listed action is legal")
        })
        .sum()
}
