//! Pure, deterministic game rules for the match server.
//!
//! Every game implements the one contract in [`game`]; the tafl family lives in [`tafl`], the
//! Fox and Geese hunt game in [`fox_geese`]. Nothing here performs I/O, spawns tasks or reads a
//! clock: given a configuration, a seed and an action log, a game always reaches the same state.

pub mod fox_geese;
pub mod game;
pub mod playout;
pub mod rng;
pub mod tafl;

pub use game::{Game, Outcome, PlayError, Seat, SeatSet, Viewer, replay};
pub use rng::MatchRng;
