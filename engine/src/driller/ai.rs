//! The AI's tuning for Mr Driller: random games are short (a random driller is soon crushed),
//! but a careful one can last; past 60 actions the deeper driller is ahead.

use super::Driller;
use crate::ai::mcts::{MctsGame, Tuning, soft_rewards};

impl MctsGame for Driller {
    /// Each level searches about ten times the one below, level 4 well below what level 5
    /// searches in a second.
    fn tuning() -> Tuning<Driller> {
        Tuning {
            playout_depth: 60,
            evaluate: Some(|game: &Driller| {
                let depths = game.tokens().map(|token| f64::from(token.square().row()));
                soft_rewards(&depths, 2.0)
            }),
            levels: [50, 500, 4_000],
            ..Tuning::default()
        }
    }
}
