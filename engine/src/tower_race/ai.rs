//! The AI's tuning for the tower race: a random game of eight takes thousands of actions, so
//! playouts stop after 200 and the seats are compared by how far their pyramids have travelled.

use super::{Place, TowerRace};
use crate::ai::mcts::{MctsGame, Tuning, soft_rewards};
use crate::game::{Game, Viewer};

impl MctsGame for TowerRace {
    /// The dice decide so much that the search stops gaining strength at about a thousand
    /// iterations, so the levels below 5 search fewer.
    fn tuning() -> Tuning<TowerRace> {
        Tuning {
            playout_depth: 200,
            evaluate: Some(score),
            levels: [20, 100, 500],
            ..Tuning::default()
        }
    }
}

/// The tiles each seat's pyramids have travelled along its path (what the turn limit ranks by,
/// after finished pyramids, which have travelled the whole path).
fn score(game: &TowerRace) -> Vec<f64> {
    let view = game.view(Viewer::Spectator);
    let scores: Vec<f64> = game
        .seat_list()
        .map(|seat| {
            let path = game.path(seat);
            view.seats[seat.index()]
                .pyramids
                .iter()
                .map(|place| match place {
                    Place::Home => 0,
                    Place::Tile(tile) => path.iter().position(|t| t == tile).map_or(0, |i| i + 1),
                    Place::End => path.len(),
                })
                .sum::<usize>() as f64
        })
        .collect();
    soft_rewards(&scores, 6.0)
}
