//! The AI's tuning for Tron: a random game runs for hundreds of rounds, so playouts stop after
//! 120 actions (some rounds) and the seats are compared by score.

use super::Tron;
use crate::ai::mcts::{MctsGame, Tuning, soft_rewards};
use crate::game::{Game, Seat};

impl MctsGame for Tron {
    /// An iteration is costly and the search gains little past a few thousand, so level 4 stays
    /// far below what level 5 searches in a second.
    fn tuning() -> Tuning<Tron> {
        Tuning {
            playout_depth: 120,
            evaluate: Some(|game: &Tron| {
                let scores: Vec<f64> = (0..game.seat_count())
                    .filter_map(Seat::new)
                    .map(|seat| f64::from(game.score(seat).unwrap_or(0)))
                    .collect();
                soft_rewards(&scores, 3.0)
            }),
            levels: [25, 250, 1_000],
            ..Tuning::default()
        }
    }
}
