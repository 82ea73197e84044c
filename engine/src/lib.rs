//! Pure, deterministic game rules for the match server.
//!
//! Every game implements the one contract in [`game`] and names itself in [`catalog`]: the tafl
//! family ([`tafl`]), Fox and Geese ([`fox_geese`]), Hanoi ([`hanoi`]), the Tower of Hanoi race
//! ([`tower_race`]), Tron ([`tron`]) and Mr Driller ([`driller`]). Nothing here performs I/O,
//! spawns tasks or reads a clock: given a configuration, a seed and an action log, a game always
//! reaches the same state.

pub mod ai;
pub mod catalog;
pub mod driller;
pub mod fox_geese;
pub mod game;
pub mod hanoi;
pub mod notation;
pub mod playout;
pub mod registry;
pub mod rng;
pub mod tafl;
pub mod tower_race;
pub mod tron;

pub use catalog::{Catalog, CatalogError};
pub use game::{Game, Outcome, PlayError, Seat, SeatSet, Viewer, replay};
pub use rng::MatchRng;
