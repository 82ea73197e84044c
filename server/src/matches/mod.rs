//! Matches: everything about one match, from its creation to its record. A live match is one
//! actor, its room (`room.rs`, its parts in `room/`), reached through the registry
//! (`registry.rs`) with a [`Command`] (`command.rs`); the room plays the
//! game through the game-blind adapter (`hosted.rs`), keeps its clocks (`clocks.rs`) and its
//! followers (`followers.rs`), and writes through the match storage (`store.rs`, with the
//! group-commit writer of actions in `writer.rs`). A new match is built and checked in one place
//! (`new_match.rs`), whoever opens it: a player, the AI, the queue or a tournament. The REST
//! routes that read matches are in `http.rs`.

pub mod clocks;
pub mod command;
pub mod delivery;
pub mod followers;
pub mod glance;
pub mod hosted;
pub mod http;
pub mod new_match;
pub mod registry;
pub mod room;
pub mod store;
pub mod writer;

pub use command::Command;
pub use new_match::NewMatch;
pub use registry::Rooms;
pub use room::rematch::{Deal, RematchAnswer};
pub use store::{Entry, Status, StoredAction, StoredMatch};
