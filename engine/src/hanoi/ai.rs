//! The AI plays Hanoi with the generic search's default tuning: random playouts end soon.

use super::Hanoi;
use crate::ai::mcts::MctsGame;

impl MctsGame for Hanoi {}
