//! Messages from a client to the server.

use serde::{Deserialize, Serialize};

use crate::{ChallengeId, CommandId, MatchId, PlayerId, Seq, TournamentId};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message on a socket: the protocol version the client speaks.
    Hello {
        version: u32,
    },
    /// Create a match and take a seat in it (every seat, for a hot-seat match).
    CreateMatch {
        id: CommandId,
        #[serde(flatten)]
        spec: CreateMatch,
    },
    /// Take a seat in an open match by id, or in a private one by its invite code.
    JoinMatch {
        id: CommandId,
        #[serde(default)]
        match_id: Option<MatchId>,
        #[serde(default)]
        invite: Option<String>,
        /// The seat wanted; any free seat when absent.
        #[serde(default)]
        seat: Option<u8>,
    },
    /// Follow a match's events: as a player in it (with the seat's private view) or as a
    /// spectator. `since` is the last sequence number already seen, for a resume.
    Watch {
        id: CommandId,
        match_id: MatchId,
        #[serde(default)]
        since: Option<Seq>,
        /// A private match's invite code: a private match is visible only to its players and
        /// to holders of its code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// Stop following a match.
    Unwatch {
        id: CommandId,
        match_id: MatchId,
    },
    /// Ask for the actions one of your seats may play now; the ack carries them in `actions`.
    Legal {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    /// Play an action, in the game's own notation (`d1-d3` for tafl), for one of your seats.
    Act {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
        action: String,
    },
    Resign {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    OfferDraw {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    AnswerDraw {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
        accept: bool,
    },
    /// Ask the other seats to take back this seat's last action (and every action after it).
    AskTakeback {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    /// Accept or decline the takeback asked for, for one of your seats.
    AnswerTakeback {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
        accept: bool,
    },
    /// Call the match off; allowed until every seat has acted once.
    Abort {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    /// Claim the win when every opponent has been disconnected longer than the grace period.
    ClaimWin {
        id: CommandId,
        match_id: MatchId,
        seat: u8,
    },
    /// Wait in the matchmaking queue of a pool (game, variant, seats, time control, rated or
    /// casual) until the server pairs you; a `matched` message then names the match. Leaving
    /// the socket leaves the queue.
    QueueJoin {
        id: CommandId,
        game: String,
        #[serde(default)]
        variant: Option<String>,
        #[serde(default)]
        seats: Option<u8>,
        time_control: TimeControl,
        #[serde(default)]
        rated: bool,
        /// Play an AI of similar strength if no human is found within this many seconds.
        #[serde(default)]
        ai_after_secs: Option<u32>,
        /// A two-game match (sides swapped for the second game): paired only with players who
        /// ask for one too (or the AI, after `ai_after_secs`). Two-seat games only.
        #[serde(default)]
        two_games: bool,
    },
    /// Start a match against the AI at once: the player takes `seat` (0 by default) and AI
    /// players of `level` (1 weakest to 5 strongest) fill every other seat.
    PlayAi {
        id: CommandId,
        game: String,
        #[serde(default)]
        variant: Option<String>,
        #[serde(default)]
        seats: Option<u8>,
        level: u8,
        /// No clock when absent.
        #[serde(default)]
        time_control: Option<TimeControl>,
        #[serde(default)]
        rated: bool,
        #[serde(default)]
        seat: Option<u8>,
    },
    QueueLeave {
        id: CommandId,
    },
    /// Offer the players of a finished match the same match again, each seat's player moving
    /// to the next seat (the sides swapped, for two); agrees to the offer standing, if another
    /// player made one.
    OfferRematch {
        id: CommandId,
        match_id: MatchId,
    },
    /// Accept or decline the rematch offer standing in a finished match.
    AnswerRematch {
        id: CommandId,
        match_id: MatchId,
        accept: bool,
    },
    /// Challenge a named player to a two-player match; they are told on every socket of theirs
    /// and may accept until the challenge expires.
    Challenge {
        id: CommandId,
        #[serde(flatten)]
        spec: ChallengeSpec,
    },
    /// The challenged player accepts or declines a challenge.
    AnswerChallenge {
        id: CommandId,
        challenge_id: ChallengeId,
        accept: bool,
    },
    /// The challenger takes a challenge back.
    WithdrawChallenge {
        id: CommandId,
        challenge_id: ChallengeId,
    },
    /// Follow a tournament: its standings are sent at once, then again whenever a result or a
    /// new round changes them, until the socket closes.
    WatchTournament {
        id: CommandId,
        tournament_id: TournamentId,
    },
    /// Write in a chat: a match's (the players' channel for a player seated in it, the
    /// spectators' for anyone else following it) or, without `match_id`, the lobby's.
    Chat {
        id: CommandId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_id: Option<MatchId>,
        text: String,
    },
    /// Follow the lobby's chat: its messages are sent as they are written, until
    /// `unwatch_lobby` or the socket closes.
    WatchLobby {
        id: CommandId,
    },
    UnwatchLobby {
        id: CommandId,
    },
    /// Keeps the socket alive and measures lag; answered by `pong` with the same nonce.
    Ping {
        nonce: u64,
    },
}

/// Every `type` a client message may have: what a server tells a badly written known message
/// (`bad_request`) from an unknown one (`unknown_type`) by.
pub const CLIENT_TYPES: &[&str] = &[
    "hello",
    "create_match",
    "join_match",
    "watch",
    "unwatch",
    "legal",
    "act",
    "resign",
    "offer_draw",
    "answer_draw",
    "ask_takeback",
    "answer_takeback",
    "abort",
    "claim_win",
    "queue_join",
    "play_ai",
    "queue_leave",
    "offer_rematch",
    "answer_rematch",
    "challenge",
    "answer_challenge",
    "withdraw_challenge",
    "watch_tournament",
    "chat",
    "watch_lobby",
    "unwatch_lobby",
    "ping",
];

impl ClientMessage {
    /// The message's `type` on the wire: one of [`CLIENT_TYPES`].
    pub fn type_name(&self) -> &'static str {
        match self {
            ClientMessage::Hello { .. } => "hello",
            ClientMessage::CreateMatch { .. } => "create_match",
            ClientMessage::JoinMatch { .. } => "join_match",
            ClientMessage::Watch { .. } => "watch",
            ClientMessage::Unwatch { .. } => "unwatch",
            ClientMessage::Legal { .. } => "legal",
            ClientMessage::Act { .. } => "act",
            ClientMessage::Resign { .. } => "resign",
            ClientMessage::OfferDraw { .. } => "offer_draw",
            ClientMessage::AnswerDraw { .. } => "answer_draw",
            ClientMessage::AskTakeback { .. } => "ask_takeback",
            ClientMessage::AnswerTakeback { .. } => "answer_takeback",
            ClientMessage::Abort { .. } => "abort",
            ClientMessage::ClaimWin { .. } => "claim_win",
            ClientMessage::QueueJoin { .. } => "queue_join",
            ClientMessage::QueueLeave { .. } => "queue_leave",
            ClientMessage::PlayAi { .. } => "play_ai",
            ClientMessage::OfferRematch { .. } => "offer_rematch",
            ClientMessage::AnswerRematch { .. } => "answer_rematch",
            ClientMessage::Challenge { .. } => "challenge",
            ClientMessage::AnswerChallenge { .. } => "answer_challenge",
            ClientMessage::WithdrawChallenge { .. } => "withdraw_challenge",
            ClientMessage::WatchTournament { .. } => "watch_tournament",
            ClientMessage::Chat { .. } => "chat",
            ClientMessage::WatchLobby { .. } => "watch_lobby",
            ClientMessage::UnwatchLobby { .. } => "unwatch_lobby",
            ClientMessage::Ping { .. } => "ping",
        }
    }

    /// The seat command this message is, if it is one; the message itself otherwise.
    pub fn into_seat_command(self) -> Result<SeatCommand, ClientMessage> {
        let (id, match_id, seat, act) = match self {
            ClientMessage::Legal { id, match_id, seat } => (id, match_id, seat, SeatAct::Legal),
            ClientMessage::Act {
                id,
                match_id,
                seat,
                action,
            } => (id, match_id, seat, SeatAct::Act { action }),
            ClientMessage::Resign { id, match_id, seat } => (id, match_id, seat, SeatAct::Resign),
            ClientMessage::OfferDraw { id, match_id, seat } => {
                (id, match_id, seat, SeatAct::OfferDraw)
            }
            ClientMessage::AnswerDraw {
                id,
                match_id,
                seat,
                accept,
            } => (id, match_id, seat, SeatAct::AnswerDraw { accept }),
            ClientMessage::AskTakeback { id, match_id, seat } => {
                (id, match_id, seat, SeatAct::AskTakeback)
            }
            ClientMessage::AnswerTakeback {
                id,
                match_id,
                seat,
                accept,
            } => (id, match_id, seat, SeatAct::AnswerTakeback { accept }),
            ClientMessage::Abort { id, match_id, seat } => (id, match_id, seat, SeatAct::Abort),
            ClientMessage::ClaimWin { id, match_id, seat } => {
                (id, match_id, seat, SeatAct::ClaimWin)
            }
            other => return Err(other),
        };
        Ok(SeatCommand {
            id,
            match_id,
            seat,
            act,
        })
    }

    /// The command id to echo, if the message has one.
    pub fn command_id(&self) -> Option<&CommandId> {
        match self {
            ClientMessage::Hello { .. } | ClientMessage::Ping { .. } => None,
            ClientMessage::CreateMatch { id, .. }
            | ClientMessage::JoinMatch { id, .. }
            | ClientMessage::Watch { id, .. }
            | ClientMessage::Unwatch { id, .. }
            | ClientMessage::Legal { id, .. }
            | ClientMessage::Act { id, .. }
            | ClientMessage::Resign { id, .. }
            | ClientMessage::OfferDraw { id, .. }
            | ClientMessage::AnswerDraw { id, .. }
            | ClientMessage::AskTakeback { id, .. }
            | ClientMessage::AnswerTakeback { id, .. }
            | ClientMessage::Abort { id, .. }
            | ClientMessage::ClaimWin { id, .. }
            | ClientMessage::QueueJoin { id, .. }
            | ClientMessage::PlayAi { id, .. }
            | ClientMessage::QueueLeave { id }
            | ClientMessage::OfferRematch { id, .. }
            | ClientMessage::AnswerRematch { id, .. }
            | ClientMessage::Challenge { id, .. }
            | ClientMessage::AnswerChallenge { id, .. }
            | ClientMessage::WithdrawChallenge { id, .. }
            | ClientMessage::WatchTournament { id, .. }
            | ClientMessage::Chat { id, .. }
            | ClientMessage::WatchLobby { id }
            | ClientMessage::UnwatchLobby { id } => Some(id),
        }
    }
}

/// What a seat command asks of its seat: the messages that act for one seat of a match
/// (`legal`, `act`, `resign`, `offer_draw`, `answer_draw`, `ask_takeback`, `answer_takeback`,
/// `abort`, `claim_win`) differ only in
/// this, so a server carries them as one [`SeatCommand`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatAct {
    Legal,
    Act { action: String },
    Resign,
    OfferDraw,
    AnswerDraw { accept: bool },
    AskTakeback,
    AnswerTakeback { accept: bool },
    Abort,
    ClaimWin,
}

/// A command for one seat of a match, whichever message carried it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatCommand {
    /// The client's id for the command: a resent `act` with the same id is answered with its
    /// first ack instead of acting again.
    pub id: CommandId,
    pub match_id: MatchId,
    pub seat: u8,
    pub act: SeatAct,
}

/// What a new match is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// Game id, as the engine's catalog names it: `tafl`, `fox-geese`, ...
    pub game: String,
    /// Variant name; the game's default when absent.
    #[serde(default)]
    pub variant: Option<String>,
    /// Number of seats; the variant's fewest when absent.
    #[serde(default)]
    pub seats: Option<u8>,
    /// Rated matches change Elo ratings; hot-seat matches are always casual.
    #[serde(default)]
    pub rated: bool,
    /// Whether a rated match allows takebacks by agreement (casual ones always do).
    #[serde(default)]
    pub takebacks: bool,
    /// A Fischer clock, or a per-move clock of days (correspondence); untimed when absent.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub visibility: Visibility,
    /// One connection plays every seat (players sharing one machine).
    #[serde(default)]
    pub hotseat: bool,
    /// The creator's seat; seat 0 when absent.
    #[serde(default)]
    pub seat: Option<u8>,
}

/// A challenge to a named player: whom, and the two-player match they would play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeSpec {
    /// The player challenged.
    pub player: PlayerId,
    /// Game id, as for `create_match`; a game two can play.
    pub game: String,
    /// The game's default when absent.
    #[serde(default)]
    pub variant: Option<String>,
    /// The challenger's seat; seat 0 when absent.
    #[serde(default)]
    pub seat: Option<u8>,
    /// A Fischer or per-move clock, as for `create_match`; untimed when absent.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub rated: bool,
    /// A two-game match: a second game with the sides swapped follows the first.
    #[serde(default)]
    pub two_games: bool,
    /// Whether the match, if rated, allows takebacks by agreement (casual ones always do).
    #[serde(default)]
    pub takebacks: bool,
}

/// A match's clock. A Fischer clock: `base_ms` per seat, `increment_ms` added after each of the
/// seat's actions. A per-move clock (`per_move`, correspondence play): each action must come
/// within `base_ms` of the turn passing to the seat, and the seat's time is full again after
/// it; `increment_ms` is 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub base_ms: u64,
    pub increment_ms: u64,
    /// A per-move clock: absent (false) for a Fischer clock.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_move: bool,
}

/// A day, in milliseconds: what correspondence clocks count in.
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// The days a move of the `correspondence` time control may take.
pub const CORRESPONDENCE_DAYS: u64 = 3;

/// Whether a match is listed and joinable by anyone, or only through its invite code.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Open,
    Private,
}

/// The time controls the matchmaking queue pairs for; each is one clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimeControl {
    /// 1 minute, no increment.
    Bullet,
    /// 5 minutes + 3 seconds.
    Blitz,
    /// 15 minutes + 10 seconds.
    Rapid,
    /// 30 minutes + 20 seconds.
    Classical,
    /// Three days a move (a per-move clock).
    Correspondence,
}

impl TimeControl {
    pub const ALL: [TimeControl; 5] = [
        TimeControl::Bullet,
        TimeControl::Blitz,
        TimeControl::Rapid,
        TimeControl::Classical,
        TimeControl::Correspondence,
    ];

    pub fn clock(self) -> ClockSpec {
        let (base_s, increment_s) = match self {
            TimeControl::Bullet => (60, 0),
            TimeControl::Blitz => (300, 3),
            TimeControl::Rapid => (900, 10),
            TimeControl::Classical => (1800, 20),
            TimeControl::Correspondence => {
                return ClockSpec {
                    base_ms: CORRESPONDENCE_DAYS * DAY_MS,
                    increment_ms: 0,
                    per_move: true,
                };
            }
        };
        ClockSpec {
            base_ms: base_s * 1000,
            increment_ms: increment_s * 1000,
            per_move: false,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TimeControl::Bullet => "bullet",
            TimeControl::Blitz => "blitz",
            TimeControl::Rapid => "rapid",
            TimeControl::Classical => "classical",
            TimeControl::Correspondence => "correspondence",
        }
    }
}
