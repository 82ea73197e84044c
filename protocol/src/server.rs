//! Messages from the server to a client. Clients should ignore fields they do not know, so these
//! types accept them: the server may add fields without breaking older clients.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    ChallengeId, ChatId, ClockSpec, CommandId, ErrorReason, MatchId, PlayerId, Seq, Series,
    SeriesId, Standing, TournamentId,
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// Answer to `hello`: the version in use and who this socket is: a player, or a visitor
    /// (a socket opened without a session token: no `player`), who may watch but not play.
    Welcome {
        version: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<PlayerRef>,
    },
    /// A command was carried out.
    Ack {
        id: CommandId,
        #[serde(flatten)]
        ack: Ack,
    },
    /// A message was refused; nothing changed and the socket stays open.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<CommandId>,
        #[serde(flatten)]
        error: ErrorBody,
    },
    /// Something happened in a match this socket follows.
    Event {
        match_id: MatchId,
        seq: Seq,
        event: MatchEvent,
    },
    /// The whole state of a match as this socket may see it, as of event `seq`: sent when a
    /// socket starts following a match, or resumes after a gap too old to replay.
    Snapshot {
        match_id: MatchId,
        seq: Seq,
        snapshot: MatchSnapshot,
    },
    /// How many spectators follow a match this socket follows: sockets that hold no seat in it
    /// (its players' sockets are not counted). Sent when the socket starts following the match,
    /// then whenever the number changes, at most once a second. Not a match event: it has no
    /// sequence number and is not replayed on a resume.
    Watchers {
        match_id: MatchId,
        watchers: u32,
    },
    Pong {
        nonce: u64,
    },
    /// The matchmaking queue paired this socket's player: `watch` the match to play it.
    Matched {
        match_id: MatchId,
        seats: Vec<u8>,
    },
    /// The seeks: public matches waiting for players, newest first, at most 50. Sent to a
    /// socket when it starts following the lobby (`watch_lobby`), then to every socket
    /// following it, on every node, whenever a seek is posted, taken or withdrawn, or goes with
    /// its poster. Not a match event: the whole list each time.
    Seeks {
        seeks: Vec<crate::MatchSummary>,
    },
    /// The matchmaking pools with players waiting (the cluster's queue), as `GET /api/queue`
    /// lists them. Sent to a socket when it starts following the lobby, then to every socket
    /// following it whenever a pool's count changes.
    QueuePools {
        pools: Vec<crate::QueuePool>,
    },
    /// A round of a tournament this socket's player entered has started and this is their game
    /// in it: `watch` the match to play it.
    TournamentRound {
        tournament_id: TournamentId,
        round: u32,
        match_id: MatchId,
        seats: Vec<u8>,
    },
    /// A tournament's standings after a result or a new round: sent to its entrants and to the
    /// sockets that watch it.
    TournamentStandings {
        tournament_id: TournamentId,
        /// The round being played (the last one, once finished).
        round: u32,
        finished: bool,
        standings: Vec<Standing>,
    },
    /// It is this socket's player's turn in one of their correspondence matches (a per-move
    /// clock): sent to every open socket of the player, whatever they follow, when the turn
    /// passes to them. `deadline_ms` is when their time for the move runs out.
    YourMove {
        match_id: MatchId,
        game: String,
        variant: String,
        /// The other players in the match.
        opponents: Vec<PlayerRef>,
        /// Milliseconds since the Unix epoch.
        deadline_ms: i64,
    },
    /// A rematch of a finished match this socket follows is offered: the seats whose players
    /// have agreed so far (the offerer's first). Sent when it changes, and to a socket that
    /// starts following the match while it stands. Like `watchers`, not a match event.
    RematchOffered {
        match_id: MatchId,
        agreed: Vec<u8>,
    },
    /// The player of `seat` declined (or, having offered it, withdrew) the rematch offer: it is
    /// gone.
    RematchDeclined {
        match_id: MatchId,
        seat: u8,
    },
    /// The player of `seat` left the finished match, and the rematch offer with them.
    RematchLapsed {
        match_id: MatchId,
        seat: u8,
    },
    /// Every player agreed: the rematch is `rematch`, every player already seated in it.
    /// Also sent when game 1 of a two-game match ends: `rematch` is then game 2, opened at
    /// once with the sides swapped.
    RematchStarted {
        match_id: MatchId,
        rematch: MatchId,
        /// The rematch's invite code, when it is private: sent to its players only, who may
        /// pass it on to whom they like.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// Game 2 of a two-game match ended, and with it the series: both games, the score and
    /// what broke a tie. Sent to the sockets following game 2; not a match event.
    SeriesFinished {
        match_id: MatchId,
        series: Series,
    },
    /// A challenge to a named player stands: sent to every socket of both players when it is
    /// made, and of each when it says `hello`, until the challenge ends.
    ChallengeOpen {
        challenge: Challenge,
    },
    /// A challenge ended, told to every socket of both players; accepted, it names the match,
    /// both players already seated in it.
    ChallengeEnded {
        challenge_id: ChallengeId,
        reason: ChallengeEnd,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_id: Option<MatchId>,
    },
    /// A chat message in a channel this socket reads: a match it follows, or the lobby it
    /// watches. Not a match event: it has no sequence number and is not replayed on a resume
    /// (the chat's history is read over REST).
    Chat {
        message: ChatMessage,
    },
    /// The server is stopping (a restart or an upgrade): it closes this socket next, with close
    /// code 1012 "service restart". Every acknowledged command is stored, and every live match
    /// goes on when a server is back: reconnect after about `reconnect_after_ms` (retrying with
    /// back-off while it is not), say `hello` and `watch` the matches again with `since`.
    Shutdown {
        reconnect_after_ms: u64,
    },
}

/// What a carried-out command produced; fields that do not apply are absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ack {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<MatchId>,
    /// The seats this socket now holds in the match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<u8>,
    /// The code another player joins a private match with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The sequence number of the event the command caused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<Seq>,
    /// The legal actions asked for with `legal`, in the game's notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<String>>,
    /// The challenge a `challenge` made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_id: Option<ChallengeId>,
    /// For `queue_join`: the AI level (1 to 5) whose rating in the pool is nearest the
    /// player's, to offer while they wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
}

/// A challenge to a named player, waiting for their answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: ChallengeId,
    /// Who challenges.
    pub from: PlayerRef,
    /// Who is challenged.
    pub to: PlayerRef,
    pub game: String,
    pub variant: String,
    /// The challenger's seat; the challenged player takes the other.
    pub seat: u8,
    pub rated: bool,
    /// Whether the match, if rated, allows takebacks by agreement.
    #[serde(default)]
    pub takebacks: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// A two-game match, the sides swapped for the second game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub two_games: bool,
    /// When it expires unanswered, in milliseconds since the Unix epoch.
    pub expires_ms: i64,
}

/// Why a challenge ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    Accepted,
    Declined,
    Withdrawn,
    Expired,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub code: ErrorCode,
    /// A sentence for people, in English; clients act on `code` and write their own message
    /// from `reason` and `params`.
    pub message: String,
    /// The finer reason and its parameters (`reason`, `params`).
    #[serde(flatten)]
    pub reason: ErrorReason,
}

/// Stable, machine-readable error codes, shared by the WebSocket protocol and the REST API.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not an object.
    Malformed,
    /// A `type` this protocol does not have.
    UnknownType,
    /// A known message with missing or invalid fields.
    BadRequest,
    /// The frame or body is larger than the server accepts.
    TooLarge,
    /// The client spoke before saying `hello`, or said it twice.
    HelloFirst,
    UnsupportedVersion,
    /// Missing, bad, expired or revoked credentials.
    Unauthorized,
    /// The credentials are fine but do not allow this (another player's seat, say).
    Forbidden,
    NotFound,
    /// The username is taken, the seat is taken, the match is full...
    Conflict,
    /// The action breaks the game's rules.
    IllegalAction,
    NotYourTurn,
    GameOver,
    /// Too many requests; slow down.
    RateLimited,
    Internal,
}

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerRef {
    pub id: PlayerId,
    pub name: String,
    pub guest: bool,
}

/// One event in a match's stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MatchEvent {
    /// A player took a seat.
    SeatTaken {
        seat: u8,
        player: PlayerRef,
    },
    /// The match was created rated but is played casual (sent before `started`): the same
    /// players have played the day's rated games against each other.
    Unrated {
        reason: String,
    },
    /// Every seat is taken; the game started (and a per-move clock: a Fischer clock starts with
    /// its seat's first action).
    Started {
        to_act: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks_ms: Option<Vec<u64>>,
        /// Until every seat's clock has started (a Fischer clock starts with its seat's first
        /// action): each seat's time left for its first action, `null` for a seat whose clock
        /// has started. Absent once every clock has.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<Vec<Option<u64>>>,
    },
    /// A seat acted. `action` is present when the viewer may know it (always for the acting
    /// seat; for others unless the game hides actions, as Tron's card choices). `view` is the
    /// state as the recipient may see it after the action.
    Acted {
        seat: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<String>,
        view: Value,
        to_act: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks_ms: Option<Vec<u64>>,
        /// As in `started`: until every seat's clock has started (a Fischer clock starts with its seat's first
        /// action): each seat's time left for its first action, `null` for a seat whose clock
        /// has started. Absent once every clock has.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<Vec<Option<u64>>>,
    },
    DrawOffered {
        seat: u8,
    },
    DrawDeclined {
        seat: u8,
    },
    /// A seat asks to take back its last action; the other seats may answer with
    /// `answer_takeback`.
    TakebackOffered {
        seat: u8,
    },
    TakebackDeclined {
        seat: u8,
    },
    /// Every seat agreed: the match went back to the position after its first `ply` actions,
    /// undoing `seat`'s last action and every action after it. `view` is the state as the
    /// recipient may see it then; clocks keep the time they had.
    TakenBack {
        seat: u8,
        ply: u32,
        view: Value,
        to_act: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks_ms: Option<Vec<u64>>,
        /// As in `started`: until every seat's clock has started (a Fischer clock starts with its seat's first
        /// action): each seat's time left for its first action, `null` for a seat whose clock
        /// has started. Absent once every clock has.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_move_ms: Option<Vec<Option<u64>>>,
    },
    /// The seat's player has no socket left; after `claim_after_ms` without them, their
    /// opponents may claim the win.
    Disconnected {
        seat: u8,
        claim_after_ms: u64,
    },
    Reconnected {
        seat: u8,
    },
    /// The seat's player went on vacation: their per-move clock stands still until `until_ms`
    /// (milliseconds since the Unix epoch), when their vacation allowance runs out, or until
    /// they come back sooner. `clocks_ms` as in `acted`.
    Vacation {
        seat: u8,
        until_ms: i64,
        clocks_ms: Vec<u64>,
    },
    /// The seat's player is back from vacation: their clock runs again while they must act.
    VacationOver {
        seat: u8,
        clocks_ms: Vec<u64>,
    },
    Aborted {
        seat: u8,
    },
    Finished {
        result: MatchResult,
    },
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MatchResult {
    /// Place of each seat, 0 best; equal places are ties.
    pub places: Vec<u8>,
    /// Stable reason code: a game's own (`king_captured`...) or `resigned`, `timeout`,
    /// `draw_agreed`, `abandoned`, `no_show`, `aborted` (called off before every seat had
    /// acted, unrated), `idle` (a casual match without a clock left alone, unrated), `forfeit`
    /// (a player was banned: their seats lose).
    pub reason: String,
    /// Rating changes, for rated matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<RatingChange>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingChange {
    pub seat: u8,
    pub player: PlayerId,
    pub before: f64,
    pub after: f64,
}

/// One seat of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatState {
    pub seat: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerRef>,
    pub connected: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// The seat's Fischer clock has not started (it has not made its first action): the time it
    /// has left for that action, counting down while it is to act. Its clock stands still
    /// until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
    /// The seat's player is on vacation until then (milliseconds since the Unix epoch): their
    /// per-move clock stands still.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation_until_ms: Option<i64>,
}

/// The whole state of a match as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSnapshot {
    pub game: String,
    pub variant: String,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    pub seats: Vec<SeatState>,
    /// The seats this socket holds.
    pub your_seats: Vec<u8>,
    pub to_act: Vec<u8>,
    pub view: Value,
    /// Every action so far that this viewer may know, in order (`null` for a hidden one).
    pub actions: Vec<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<u8>,
    /// Whether its players may take actions back by agreement.
    #[serde(default)]
    pub takebacks: bool,
    /// The seat asking for a takeback, if one is asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_offer: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MatchResult>,
    /// A game of a two-game match: which series, and which game of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesRef>,
    /// A tournament's game: it has no rematch (the tournament pairs the next games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tournament: bool,
}

/// Where a match stands in its two-game match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesRef {
    pub series_id: SeriesId,
    /// 1 or 2.
    pub game: u8,
}

/// Where a chat message is written: a match's players' or spectators' channel, or the lobby.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// A match's players: read by them alone until the game is over, then by everyone.
    Players,
    /// A match's spectators: never shown to its players before the game is over.
    Spectators,
    Lobby,
}

impl ChatChannel {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
            ChatChannel::Lobby => "lobby",
        }
    }
}

/// One chat message, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatMessage {
    /// Numbered in the order messages are written (across channels): clients show them by it.
    pub id: ChatId,
    /// The match; absent in the lobby.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<MatchId>,
    pub channel: ChatChannel,
    pub author: PlayerRef,
    /// As written, trimmed: to be shown as text, never as markup.
    pub text: String,
    pub at_ms: i64,
}
