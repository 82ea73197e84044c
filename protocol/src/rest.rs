//! REST request and response bodies. Requests refuse unknown fields; responses accept them, so
//! the server may add fields without breaking older clients.

use serde::{Deserialize, Serialize};

use crate::{ClockSpec, MatchId, MatchResult, PlayerRef, Seq};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// A new session: the bearer token (also set as a cookie) and who it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    pub token: String,
    pub player: PlayerRef,
}

/// One pool's rating of a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolRating {
    /// `game/variant`, e.g. `tafl/copenhagen`.
    pub pool: String,
    pub rating: f64,
    pub games: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    pub rank: u32,
    pub player: PlayerRef,
    pub rating: f64,
    pub games: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub pool: String,
    pub page: u32,
    pub per_page: u32,
    pub entries: Vec<LeaderboardEntry>,
}

/// A player's rating after one rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub pool: String,
    pub match_id: MatchId,
    pub before: f64,
    pub after: f64,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerProfile {
    pub player: PlayerRef,
    pub ratings: Vec<PoolRating>,
    pub history: Vec<RatingPoint>,
}

/// A match in a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    pub id: MatchId,
    pub game: String,
    pub variant: String,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// Who sits where; `null` for a free seat.
    pub players: Vec<Option<PlayerRef>>,
    /// `waiting`, `live`, `finished` or `aborted`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MatchResult>,
    pub created_ms: i64,
}

/// One recorded action of a finished or public match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    pub seq: Seq,
    pub seat: u8,
    /// `null` while the game keeps this action secret from other seats.
    pub action: Option<String>,
    pub at_ms: i64,
}

/// A match with its full record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub summary: MatchSummary,
    /// The match's random seed, published once the match is over (before, it would let anyone
    /// predict the match's chance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub actions: Vec<RecordedAction>,
    /// The game in OpenTafl record notation, for tafl matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opentafl: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    pub status: String,
    pub database: String,
}

/// One matchmaking pool and how many players wait in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuePool {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub time_control: crate::TimeControl,
    pub rated: bool,
    pub waiting: u32,
}
