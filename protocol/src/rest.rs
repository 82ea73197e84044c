//! REST request and response bodies. Requests refuse unknown fields; responses accept them, so
//! the server may add fields without breaking older clients.

use serde::{Deserialize, Serialize};

use crate::{
    ChatChannel, ChatMessage, ClockSpec, MatchId, MatchResult, PlayerRef, ReportId, Seq, SeriesId,
    TimeControl, TournamentId,
};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// A new session: the bearer token (also set as a cookie) and who it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Session {
    pub token: String,
    pub player: PlayerRef,
}

/// One pool's rating of a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolRating {
    /// `game/variant`, e.g. `tafl/copenhagen`.
    pub pool: String,
    pub rating: f64,
    pub games: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderboardEntry {
    pub rank: u32,
    pub player: PlayerRef,
    pub rating: f64,
    pub games: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    pub pool: String,
    pub page: u32,
    pub per_page: u32,
    pub entries: Vec<LeaderboardEntry>,
}

/// A player's rating after one rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingPoint {
    pub pool: String,
    pub match_id: MatchId,
    pub before: f64,
    pub after: f64,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerProfile {
    pub player: PlayerRef,
    pub ratings: Vec<PoolRating>,
    pub history: Vec<RatingPoint>,
    /// Whom the player takes challenges from.
    pub challenges: ChallengePolicy,
}

/// Whom a player takes challenges from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChallengePolicy {
    /// Anyone logged in.
    #[default]
    Everyone,
    /// The accounts the player follows.
    Followed,
    /// Nobody.
    Nobody,
}

impl ChallengePolicy {
    pub const ALL: [ChallengePolicy; 3] = [
        ChallengePolicy::Everyone,
        ChallengePolicy::Followed,
        ChallengePolicy::Nobody,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ChallengePolicy::Everyone => "everyone",
            ChallengePolicy::Followed => "followed",
            ChallengePolicy::Nobody => "nobody",
        }
    }
}

/// `PUT /api/settings`: the logged-in player's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Whom the player takes challenges from.
    pub challenges: ChallengePolicy,
}

/// A match in a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// A match being played, in the list of live matches: its summary, how many watch it, and its
/// position, so that a list can show every match's board without following each one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveMatch {
    #[serde(flatten)]
    pub summary: MatchSummary,
    /// Spectator sockets following the match (its players' are not counted).
    pub watchers: u32,
    /// The spectators' view of the game now, as in a `snapshot`; absent when the server has
    /// no position at hand (a player's own match that nobody has followed for a while).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub view: Option<serde_json::Value>,
}

/// One of the asking player's ongoing matches (`GET /api/me/games`, `GET /api/me/waiting`): its
/// summary, the seats they hold, whose turn it is and until when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OngoingMatch {
    #[serde(flatten)]
    pub summary: MatchSummary,
    /// The seats the player holds.
    pub your_seats: Vec<u8>,
    /// The seats that must act now; empty while the match waits for players.
    pub to_act: Vec<u8>,
    /// When the running clock of a seat to act runs out (milliseconds since the Unix epoch):
    /// with a per-move clock, the deadline of the move. Absent when no clock runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<i64>,
    /// The seats whose player is on vacation (their per-move clocks stand still).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_vacation: Vec<u8>,
    /// The spectators' view of the game now, as in a `snapshot`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub view: Option<serde_json::Value>,
}

/// `PUT /api/me/vacation`: go on vacation (`true`) or come back (`false`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct VacationSwitch {
    pub on: bool,
}

/// A player's vacation: while on it, the clocks of their correspondence matches stand still, for
/// at most `allowance_ms` in any 365 days.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VacationState {
    pub on: bool,
    /// While on: when the vacation ends by itself, its allowance used up (milliseconds since the
    /// Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
    /// While on: the earliest the player may come back (a vacation lasts at least a day, or
    /// until it ends by itself if that is sooner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_from_ms: Option<i64>,
    /// Vacation time left in the last 365 days, as of now.
    pub left_ms: i64,
    /// Vacation time a player has in any 365 days.
    pub allowance_ms: i64,
}

/// One recorded action of a finished or public match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordedAction {
    pub seq: Seq,
    pub seat: u8,
    /// `null` while the game keeps this action secret from other seats.
    pub action: Option<String>,
    pub at_ms: i64,
}

/// A match with its full record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MatchRecord {
    pub summary: MatchSummary,
    /// The match's random seed, published once the match is over (before, it would let anyone
    /// predict the match's chance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub actions: Vec<RecordedAction>,
    /// The game as a record in a notation other software reads, where the game has one (tafl:
    /// an OpenTafl game record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<GameRecord>,
    /// Deprecated since protocol version 2, kept for at least one more release: the text of
    /// `record` when its format is `opentafl` (a tafl match), where version 1 put it. Read
    /// `record`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(deprecated))]
    pub opentafl: Option<String>,
}

/// A game written in a notation other software reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRecord {
    /// The notation: `opentafl` (an OpenTafl game record).
    pub format: String,
    pub text: String,
}

impl GameRecord {
    /// The text of an OpenTafl record: what version 1's `opentafl` field carried.
    pub fn opentafl(&self) -> Option<&str> {
        (self.format == "opentafl").then_some(self.text.as_str())
    }
}

/// A match step by step, for replays: the public view after every action, so that a client
/// can show any position without knowing the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MatchReplay {
    pub match_id: MatchId,
    pub game: String,
    pub variant: String,
    pub seats: u8,
    /// The actions in order; `action` is absent while a game that hides actions is live.
    pub actions: Vec<ReplayAction>,
    /// `views[i]` is the spectators' view after `i` actions: one more than `actions`.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub views: Vec<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplayAction {
    pub seat: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    pub status: String,
    pub database: String,
    /// The protocol version the server speaks (the `welcome` of a client saying `hello` with it).
    pub protocol_version: u32,
    /// The oldest protocol version the server still serves.
    pub oldest_protocol_version: u32,
    /// The node that answered.
    pub node: NodeHealth,
    /// The cluster's live nodes (this one included), oldest first; one without a cluster.
    pub nodes: Vec<NodeHealth>,
    /// How many matches the answering node owns (runs the rooms of).
    pub owned_matches: u64,
}

/// A server node of the cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeHealth {
    /// Its id: a new one each time a server process starts.
    pub id: i64,
    /// Its name (`--node-name`; the host name and process id by default).
    pub name: String,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_ms: i64,
}

/// One matchmaking pool and how many players wait in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuePool {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub time_control: crate::TimeControl,
    pub rated: bool,
    /// A pool of two-game matches.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub two_games: bool,
    pub waiting: u32,
}

/// How a tournament pairs its entrants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// Everyone plays everyone once (Berger tables; a bye a round for an odd field).
    RoundRobin,
    /// Everyone plays everyone twice, seats swapped the second time.
    DoubleRoundRobin,
    /// A chosen number of rounds, each pairing entrants with equal scores who have not met.
    Swiss,
    /// A seeded single-elimination bracket; a drawn game is followed by a decider.
    Knockout,
}

impl TournamentFormat {
    pub fn name(self) -> &'static str {
        match self {
            TournamentFormat::RoundRobin => "round_robin",
            TournamentFormat::DoubleRoundRobin => "double_round_robin",
            TournamentFormat::Swiss => "swiss",
            TournamentFormat::Knockout => "knockout",
        }
    }
}

/// `POST /api/tournaments`: a new tournament, open for registration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    pub name: String,
    /// A two-seat game, as for `create_match`.
    pub game: String,
    /// The game's default variant when absent.
    #[serde(default)]
    pub variant: Option<String>,
    pub format: TournamentFormat,
    /// The number of rounds: Swiss only (round robins and knockouts have as many as their
    /// field needs).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The clock of every game: `rapid` when absent; `correspondence` is refused, since its
    /// days a move would hold a round up for weeks.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    #[serde(default)]
    pub rated: bool,
    /// When registration closes and the first round starts (milliseconds since the Unix
    /// epoch); when absent, the creator starts the tournament.
    #[serde(default)]
    pub starts_ms: Option<i64>,
    /// Every pairing is a two-game match (a series, sides swapped), scored as one.
    #[serde(default)]
    pub two_games: bool,
}

/// `POST /api/tournaments/{id}/entrants`: the creator enters an AI level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AddEntrant {
    pub ai_level: u8,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub creator: PlayerRef,
    pub game: String,
    pub variant: String,
    pub format: TournamentFormat,
    /// How many rounds: Swiss as chosen; round robins and knockouts once they have started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    pub rated: bool,
    /// Every pairing is a two-game match.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub two_games: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_ms: Option<i64>,
    /// `registering`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// The round being played; 0 before the start.
    pub round: u32,
    /// How many entrants have registered.
    pub entrants: u32,
    /// Why the tournament was cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub created_ms: i64,
}

/// One entrant: their number in the tournament, who they are and the rating they were seeded
/// by (known from the start).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentEntrant {
    pub entrant: u32,
    pub player: PlayerRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
}

/// How a tournament game ended, from seat 0's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    Win,
    Draw,
    Loss,
}

/// One game of a tournament round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentGame {
    /// 0 for the top board.
    pub board: u32,
    /// The match, once opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<MatchId>,
    /// The entrants in seat 0 and seat 1.
    pub seats: [u32; 2],
    /// A knockout decider after a drawn game.
    pub decider: bool,
    /// Seat 0's result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<GameOutcome>,
    /// Why the game ended (the match's reason); for a two-game match, what decided it:
    /// `score`, `shorter_win`, `less_time` or `tied`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A two-game match: its series, whose first game is `match_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_id: Option<SeriesId>,
}

/// One round: its games in board order and the entrants with a bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentRound {
    pub round: u32,
    pub games: Vec<TournamentGame>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<u32>,
}

/// One row of a tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Standing {
    /// 1-based; entrants level on points, Buchholz and Sonneborn-Berger share a rank.
    pub rank: u32,
    pub entrant: u32,
    pub player: PlayerRef,
    /// A win or a bye 1, a draw 0.5.
    pub points: f64,
    /// The sum of the opponents' points.
    pub buchholz: f64,
    /// The points of the opponents beaten, plus half those of the opponents drawn with.
    pub sonneborn_berger: f64,
    /// Games played (byes are not games); in a tournament of two-game matches, the matches.
    pub games: u32,
    /// In a tournament of two-game matches: the points of every game (a win 1, a draw 0.5),
    /// beside `points`, which counts the matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_points: Option<f64>,
}

/// `GET /api/tournaments/{id}`: a tournament with its entrants, rounds and standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentDetails {
    pub summary: TournamentSummary,
    pub entrants: Vec<TournamentEntrant>,
    pub rounds: Vec<TournamentRound>,
    pub standings: Vec<Standing>,
    /// The winner's entrant number, once finished: the knockout's last winner, or the entrant
    /// alone at the top of the standings (absent when the top is shared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<u32>,
}

/// A security event, as admins see it (`GET /api/admin/security-events`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SecurityEvent {
    /// When it first happened, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// When it last happened: repeats from one address within a minute are counted on one event.
    pub last_ms: i64,
    /// `login_refused`, `login_locked`, `banned_login`, `rate_limited`, `origin_refused`,
    /// `too_many_sockets`, `banned` or `unbanned`.
    pub kind: String,
    /// The username concerned, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The client address, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    pub detail: String,
    pub count: u32,
}

/// Why an account is banned: shown to it when it tries to log in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Ban {
    pub reason: String,
}

/// A chat's history as one reader may read it: the channels they may read, and the latest
/// messages of those channels, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatHistory {
    pub channels: Vec<ChatChannel>,
    pub messages: Vec<ChatMessage>,
}

/// Why a chat message is reported to the admins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub reason: String,
}

/// A report of a chat message, as admins see it (`GET /api/admin/chat-reports`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatReport {
    pub id: ReportId,
    pub message: ChatMessage,
    pub reporter: PlayerRef,
    pub reason: String,
    pub at_ms: i64,
}

/// A variant's start, to preview before creating a match (a custom tafl variant's rules string,
/// say): the view every seat and spectator gets before the first action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariantPreview {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    /// Whether it is one of the game's named variants (rated play, queue, leaderboard) or a
    /// custom one (casual matches only).
    pub named: bool,
    /// Its rules in a notation other software reads, where the game has one (tafl: OpenTafl's
    /// rules string, from which a board draws its special squares).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub view: serde_json::Value,
}

/// A game the server plays, from the engine's catalog (`GET /api/games`): what a client builds
/// its pickers and boards from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameInfo {
    /// The game's id on the wire: `tafl`, `fox-geese`...
    pub id: String,
    /// Its name, for people.
    pub name: String,
    /// Its named variants, the default first.
    pub variants: Vec<VariantInfo>,
    /// The name of each seat, as many as the game's largest variant has (`attackers`,
    /// `defenders`; `seat 3` where the game only numbers its seats).
    pub seat_names: Vec<String>,
}

/// A game's rules for players (`GET /api/games/{game}/rules`): its page as HTML, in `language`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRules {
    /// The game's id on the wire: `tafl`, `fox-geese`...
    pub game: String,
    /// Its name, for people.
    pub name: String,
    /// The language the page is written in (`en`, `sv`...): the asked one, or English when the
    /// page is not written in it. Absent from servers before player pages (English).
    #[serde(default = "english")]
    pub language: String,
    /// The rules as an HTML fragment (headings, lists, tables; boards to draw as `start` and
    /// `diagram` code blocks).
    pub html: String,
}

/// The language of a page from a server that wrote in English only.
fn english() -> String {
    "en".into()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariantInfo {
    pub name: String,
    pub min_seats: u8,
    pub max_seats: u8,
    /// Its rules in a notation other software reads, where the game has one (tafl: OpenTafl's
    /// rules string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
}

/// One action with the seat that takes it, in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatAction {
    pub seat: u8,
    pub action: String,
}

/// `POST /api/analysis`: a position for the AI to analyse. The position starts from one of
/// three places: a finished match (`match_id`, and `ply`), a position in the game's notation
/// (`game`, `position` and `to_move`), or the start of a variant (`game` alone). The `actions`
/// are then played from there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The game, unless the position is a match's (a match names its own).
    #[serde(default)]
    pub game: Option<String>,
    /// The game's default when absent; for tafl also any OpenTafl rules string.
    #[serde(default)]
    pub variant: Option<String>,
    /// The variant's fewest when absent.
    #[serde(default)]
    pub seats: Option<u8>,
    /// The seed of the game's chance (dice, shuffles), 0 when absent; a match has its own.
    #[serde(default)]
    pub seed: Option<u64>,
    /// A finished match whose position to start from.
    #[serde(default)]
    pub match_id: Option<MatchId>,
    /// How many of the match's actions to play first (0: its start); all when absent.
    #[serde(default)]
    pub ply: Option<u32>,
    /// A private match's invite code, for those who are not its players.
    #[serde(default)]
    pub invite: Option<String>,
    /// A position in the game's position notation (tafl: an OpenTafl position such as
    /// `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`), for games that have one.
    #[serde(default)]
    pub position: Option<String>,
    /// The seat to move in `position` (tafl: 0 the attackers, 1 the defenders).
    #[serde(default)]
    pub to_move: Option<u8>,
    /// Actions played from the starting position, in order.
    #[serde(default)]
    pub actions: Vec<SeatAction>,
    /// The seat to evaluate for: the first seat to act when absent (seat 0 once the game is
    /// over).
    #[serde(default)]
    pub seat: Option<u8>,
}

/// The AI's analysis of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysisReply {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    /// The position analysed, as spectators see it.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub view: serde_json::Value,
    /// The seats that must act in it; empty once the game is over.
    pub to_act: Vec<u8>,
    /// The seat the score is for.
    pub seat: u8,
    /// That seat's expected result: 0 lost, 1 won, 0.5 even (between, a share of the other
    /// seats beaten). A finished game's is its result.
    pub score: f64,
    /// The line of play the AI expects, `seat`'s action first; empty once the game is over.
    pub line: Vec<SeatAction>,
    /// What the position shows at a glance, for games that say (tafl).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insights: Option<AnalysisInsights>,
    /// The work done: nodes searched (tafl) or iterations (the other games).
    pub nodes: u64,
    /// Milliseconds from the request's arrival to the answer's.
    pub elapsed_ms: u64,
    /// The bound on the search, and on waiting for a thread before it, in milliseconds.
    pub bound_ms: u64,
    /// The bound on `nodes`.
    pub node_bound: u64,
}

/// `POST /api/analysis/position`: the position an `AnalysisRequest` names, without a search: what
/// an analysis board draws and lets the user play from, between evaluations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysisPosition {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    /// The position, as spectators see it.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub view: serde_json::Value,
    /// The seats that must act in it; empty once the game is over.
    pub to_act: Vec<u8>,
    /// The seat the request is for (its `seat`, else the first to act).
    pub seat: u8,
    /// That seat's legal actions, in the game's notation; empty once the game is over.
    pub legal: Vec<String>,
    /// What the position shows at a glance, for games that say (tafl).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insights: Option<AnalysisInsights>,
}

/// Tafl's insights: the king's ways out and the pieces one move from capture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysisInsights {
    /// The king's escapes (one move that wins) and routes (two moves along open lines, with
    /// nothing else moving, the second winning), were it the defenders' move.
    pub escapes: Vec<EscapeRoute>,
    /// Pieces of either side that the other side could capture with one move, were it its turn.
    pub threatened: Vec<ThreatenedPiece>,
}

/// Moves of one seat that end in a win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EscapeRoute {
    pub seat: u8,
    pub actions: Vec<String>,
}

/// A piece one move from capture: where it stands, whose it is, and the moves that capture it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThreatenedPiece {
    pub square: String,
    pub seat: u8,
    pub by: Vec<String>,
}

/// What broke a tie of points in a two-game match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SeriesTiebreak {
    /// The player whose win took fewer moves (plies).
    ShorterWin,
    /// The player who used less time over both games.
    LessTime,
}

/// `GET /api/series/{id}`, and the `series_finished` message: a two-game match, its games and
/// how it stands or was decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Series {
    pub id: SeriesId,
    /// The two players: the first has seat 0 in game 1 and seat 1 in game 2.
    pub players: Vec<PlayerRef>,
    /// `live`, `finished`, or `aborted` (a game of it was called off).
    pub status: String,
    /// Game 1, then game 2 once it exists.
    pub games: Vec<SeriesGame>,
    /// Each player's points so far, in `players` order: a win 1, a draw 0.5.
    pub score: Vec<f64>,
    /// Once finished: the winner's index in `players`; absent for a drawn series.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<u8>,
    /// What decided a series level on points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiebreak: Option<SeriesTiebreak>,
}

/// One game of a series, from the series' players' side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeriesGame {
    /// 1 or 2.
    pub game: u8,
    pub match_id: MatchId,
    /// `waiting`, `live`, `finished` or `aborted`.
    pub status: String,
    /// Once over: each player's points in this game, in the series' `players` order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<f64>>,
    /// The moves (plies) played.
    pub plies: u32,
    /// The time each player's moves took, in `players` order: from the move before (or the
    /// game's start) to theirs.
    pub used_ms: Vec<u64>,
}

/// Whose games the explorer counts: the server's own finished games, or the masters' games it
/// ships with (Copenhagen games played by people; no ratings or clocks).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExplorerSource {
    #[default]
    Games,
    Masters,
}

/// How the games through a position or move ended, and how strong their players were.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerTally {
    pub games: u64,
    /// Games the attackers won.
    pub attackers: u64,
    /// Games the defenders won.
    pub defenders: u64,
    pub draws: u64,
    /// The players' average rating over these games; absent for the masters' games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_rating: Option<u32>,
}

/// One move played from a position, in the explorer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerMove {
    /// The move in the game's notation.
    pub action: String,
    #[serde(flatten)]
    pub tally: ExplorerTally,
}

/// `GET /api/explorer/{game}/{variant}`: the moves played from a position, most played first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerPosition {
    pub game: String,
    pub variant: String,
    pub source: ExplorerSource,
    /// The position's hash (16 hex digits): the same position reached by another order of
    /// moves has the same hash, and the same counts.
    pub position: String,
    /// Every game counted through the position.
    pub total: ExplorerTally,
    pub moves: Vec<ExplorerMove>,
    /// Only each game's first this many plies are counted.
    pub counted_plies: u32,
}

/// `GET /api/open-data`: the months whose finished rated games can be downloaded, oldest first,
/// and the licence they are offered under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpenData {
    /// What the operator offers the files under (an SPDX identifier such as `CC0-1.0`, or
    /// words).
    pub licence: String,
    pub months: Vec<OpenDataMonth>,
}

/// One month's files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpenDataMonth {
    /// `YYYY-MM`, in UTC.
    pub month: String,
    /// Finished rated games that month.
    pub games: u64,
    /// The path of its records (`/api/open-data/2026-11/records.txt`).
    pub records: String,
    /// The path of its table, a CSV row per seat (`/api/open-data/2026-11/games.csv`).
    pub table: String,
}
