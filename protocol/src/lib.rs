//! The match server's wire protocol: every WebSocket message and REST body, typed once here and
//! shared by the server, the bots and any Rust client. `docs/protocol.md` shows every message as
//! JSON; a test parses each of those examples into these types.
//!
//! WebSocket frames are JSON text, one message per frame, tagged by `type`. A client first says
//! which protocol version it speaks (`hello`); commands that change state carry a client-chosen
//! `id` that the server echoes in its `ack` or `error`. Every event of a match carries a
//! per-match sequence number, so a client that reconnects can ask for exactly what it missed.

mod client;
mod error_reason;
mod rest;
mod server;

pub use client::{
    CLIENT_TYPES, CORRESPONDENCE_DAYS, ChallengeSpec, ClientMessage, ClockSpec, CreateMatch,
    DAY_MS, SeatAct, SeatCommand, TimeControl, Visibility,
};
pub use error_reason::{ErrorReason, RuleBroken};
pub use rest::*;
pub use server::{
    Ack, Challenge, ChallengeEnd, ChatChannel, ChatMessage, ErrorBody, ErrorCode, MatchEvent,
    MatchResult, MatchSnapshot, PlayerRef, RatingChange, SeatState, SeriesRef, ServerMessage,
};

use serde::{Deserialize, Serialize};

/// The protocol version this crate speaks, named in `welcome` and `/api/health`. It rises with
/// each breaking change to the wire (`CHANGELOG.md` lists them; `docs/protocol.md`, "Versions",
/// says what counts as one).
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest protocol version a server still serves: a client saying `hello` with it gets the
/// forms of its day where they differ. Kept for at least one release after a version is
/// superseded; any version outside `OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION` is refused with
/// `unsupported_version`.
pub const OLDEST_PROTOCOL_VERSION: u32 = 1;

/// A match, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct MatchId(pub i64);

/// A player account, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct PlayerId(pub i64);

/// A client-chosen command id, echoed in the server's answer (at most 64 characters).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CommandId(pub String);

/// A tournament, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct TournamentId(pub i64);

/// A challenge to a named player, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ChallengeId(pub i64);

/// A two-game match (a series), as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct SeriesId(pub i64);

/// A chat message, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ChatId(pub i64);

/// A report of a chat message, as numbered by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ReportId(pub i64);

/// Position of an event in its match's stream: 1 for the first event, counting up without gaps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct Seq(pub u64);
