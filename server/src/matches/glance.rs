//! What the lists of matches show of a live match, kept up to date by its room, so that listing
//! a page of matches never waits on their rooms.

use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::time::Instant;

/// What the lists of matches show of a room's match (see [`super::Rooms::glimpses`]), kept up
/// to date by the room, so that listing a page of matches never waits on their rooms.
#[derive(Clone, Default)]
pub struct Glance {
    /// Since when every human player has been away: `None` while one of them follows the match,
    /// and when no human plays in it.
    pub away_since: Option<Instant>,
    /// Spectator sockets following the match.
    pub watchers: u32,
    /// The spectators' view of the game, as of its last action.
    pub view: Value,
    /// The seats that must act now; none unless the match is live.
    pub to_act: Vec<u8>,
    /// When the first running clock runs out.
    pub deadline: Option<Instant>,
    /// The seats whose player is on vacation.
    pub on_vacation: Vec<u8>,
}

/// What the lists of matches show of one, from its room's [`Glance`]: as it travels between
/// nodes, its times on the wall clock.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Glimpse {
    /// Someone plays it: a human player follows it or left it less than the disconnect grace
    /// ago (a match the AI plays on every seat always is).
    pub attended: bool,
    pub watchers: u32,
    pub view: Value,
    pub to_act: Vec<u8>,
    /// When the first running clock runs out, in milliseconds since the Unix epoch.
    pub deadline_ms: Option<i64>,
    pub on_vacation: Vec<u8>,
}

/// Where a room keeps its [`Glance`] for the registry to read.
#[derive(Clone, Default)]
pub struct GlanceCell(Arc<Mutex<Glance>>);

impl GlanceCell {
    pub fn read<T>(&self, read: impl FnOnce(&Glance) -> T) -> T {
        read(&self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    pub fn update(&self, update: impl FnOnce(&mut Glance)) {
        update(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }
}
