//! Why the server refused something, finer than its [`ErrorCode`]: a stable `reason` with its
//! parameters, from which a client writes the message in its reader's language. Each reason
//! belongs to one code, so a client that knows only the codes acts as before.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ErrorCode;

/// The rule an action breaks, as the engine names it: a stable code (`blocked`, `too_far`) and
/// its parameters (`square`, `limit`), from which a client words it (`why.<code>`). Absent
/// (`why` is `None`) where the text is no action of the game at all. Sent inside the refusal's
/// `params` as `"why"` and `"why_params"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RuleBroken {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub why_params: BTreeMap<String, String>,
}

/// A refusal's stable reason and its parameters, sent as `"reason": "seat_taken"` and
/// `"params": {"seat": 1}` (no `params` for a reason that has none). The first reasons are
/// named after the codes: each is the reason for an error of its code that no finer reason
/// describes (a malformed frame, a database failure), where the `message` says the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "reason", content = "params", rename_all = "snake_case")]
pub enum ErrorReason {
    Malformed,
    UnknownType,
    BadRequest,
    TooLarge,
    HelloFirst,
    UnsupportedVersion,
    Unauthorized,
    Forbidden,
    NotFound,
    Conflict,
    IllegalAction,
    NotYourTurn,
    GameOver,
    /// Too many requests of one kind: the next may succeed after `seconds`.
    RateLimited {
        seconds: u64,
    },
    Internal,

    // Accounts and sessions.
    UsernameTaken {
        name: String,
    },
    UsernameInvalid,
    UsernameReserved,
    PasswordInvalid,
    WrongLogin,
    /// Too many failed logins for this username: it is locked for `seconds`.
    LoginLocked {
        seconds: u64,
    },
    /// An administrator banned the account, saying why.
    AccountBanned {
        why: String,
    },
    /// No session token came with the request.
    NotLoggedIn,
    /// The session token is unknown, expired or revoked.
    SessionEnded,
    GuestsPlayCasual,
    /// Following and vacations are for accounts that last.
    GuestsCannot,
    GuestsChatInOwnGames,
    AdminsOnly,
    FollowSelf,
    MuteSelf,
    BanSelf,
    /// A ban or a report gives its reason in 1 to `max` characters.
    ReasonLength {
        max: u32,
    },
    /// A vacation lasts at least a day: coming back is possible in `minutes`.
    VacationTooShort {
        minutes: u64,
    },
    /// The year's `days` of vacation are used up.
    VacationUsedUp {
        days: u64,
    },

    // Finding things.
    MatchNotFound {
        id: i64,
    },
    PlayerNotFound {
        id: i64,
    },
    TournamentNotFound {
        id: i64,
    },
    ChallengeNotFound,
    JoinCodeUnknown,
    UnknownGame {
        game: String,
    },

    // Setting up matches.
    VariantTooLong {
        max: u32,
    },
    CustomVariantRated,
    HotSeatRated,
    TwoGamesForTwo,
    QueueNamedVariants,
    AiLevelRange,
    /// The player has `limit` matches waiting for opponents already.
    TooManyOpenMatches {
        limit: u32,
    },
    AlreadyQueued,
    NotQueued,

    // Seats and play.
    MatchNotOpen,
    AlreadySeated,
    NoSuchSeat {
        seat: u8,
    },
    SeatTaken {
        seat: u8,
    },
    MatchFull,
    NotYourSeat,
    MatchNotStarted,
    MatchOver,
    TimeRanOut,
    /// `action` is not legal here (or not an action of this game at all), for the engine's
    /// reason `why` where it gives one.
    IllegalMove {
        action: String,
        // Boxed: every error carries an `ErrorReason`, which this would make twice as large.
        #[serde(flatten)]
        why: Box<RuleBroken>,
    },
    AbortAfterMoves,
    AbortSecondGame,
    ClaimCorrespondence,
    /// A win may be claimed once every opponent has been away `seconds`.
    ClaimTooEarly {
        seconds: u64,
    },
    RecordNotReady,

    // Challenges.
    ChallengeSelf,
    ChallengeAi,
    ChallengesFromNobody {
        name: String,
    },
    ChallengesFromFollowedOnly {
        name: String,
    },
    ChallengeGuestRated {
        name: String,
    },
    PlayerOffline {
        name: String,
    },
    ChallengeYours,
    ChallengeNotYours,

    // Chat.
    ChatEmpty,
    ChatTooLong {
        max: u32,
        chars: u32,
    },
    ChatOneLine,
    ChatDirection,

    // Tournaments.
    TournamentTooFew {
        count: u32,
    },
    TournamentNotRegistering,
    TournamentCreatorOnly,
    /// The player has created `limit` tournaments in the last 24 hours.
    TournamentsPerDay {
        limit: u32,
    },

    // Load and the cluster.
    /// Action `index` (from 1) of an analysis request, `action`, is not legal where it stands,
    /// for the engine's reason `why` where it gives one.
    IllegalInLine {
        index: u32,
        action: String,
        // Boxed: every error carries an `ErrorReason`, which this would make twice as large.
        #[serde(flatten)]
        why: Box<RuleBroken>,
    },
    /// Every analysis thread is busy: try again in `seconds`.
    AnalysisBusy {
        seconds: u64,
    },
    TooManyMessages,
    /// The player (or, for visitors, the address) has `most` sockets open.
    TooManySockets {
        most: u32,
    },
    ServerRestarting,
    MatchMoved,
    NodeUnreachable,
}

impl ErrorReason {
    /// The coarse code this reason belongs to.
    pub fn code(&self) -> ErrorCode {
        use ErrorReason as R;
        match self {
            R::Malformed => ErrorCode::Malformed,
            R::UnknownType => ErrorCode::UnknownType,
            R::TooLarge => ErrorCode::TooLarge,
            R::HelloFirst => ErrorCode::HelloFirst,
            R::UnsupportedVersion => ErrorCode::UnsupportedVersion,
            R::NotYourTurn => ErrorCode::NotYourTurn,
            R::BadRequest
            | R::UsernameInvalid
            | R::UsernameReserved
            | R::PasswordInvalid
            | R::FollowSelf
            | R::MuteSelf
            | R::BanSelf
            | R::ReasonLength { .. }
            | R::UnknownGame { .. }
            | R::VariantTooLong { .. }
            | R::CustomVariantRated
            | R::HotSeatRated
            | R::TwoGamesForTwo
            | R::QueueNamedVariants
            | R::AiLevelRange
            | R::NoSuchSeat { .. }
            | R::MatchNotStarted
            | R::ChallengeSelf
            | R::ChallengeAi
            | R::ChatEmpty
            | R::ChatTooLong { .. }
            | R::ChatOneLine
            | R::ChatDirection => ErrorCode::BadRequest,
            R::Unauthorized | R::WrongLogin | R::NotLoggedIn | R::SessionEnded => {
                ErrorCode::Unauthorized
            }
            R::Forbidden
            | R::AccountBanned { .. }
            | R::GuestsPlayCasual
            | R::GuestsCannot
            | R::GuestsChatInOwnGames
            | R::AdminsOnly
            | R::NotYourSeat
            | R::ChallengesFromNobody { .. }
            | R::ChallengesFromFollowedOnly { .. }
            | R::ChallengeGuestRated { .. }
            | R::ChallengeYours
            | R::ChallengeNotYours
            | R::TournamentCreatorOnly => ErrorCode::Forbidden,
            R::NotFound
            | R::MatchNotFound { .. }
            | R::PlayerNotFound { .. }
            | R::TournamentNotFound { .. }
            | R::ChallengeNotFound
            | R::JoinCodeUnknown => ErrorCode::NotFound,
            R::Conflict
            | R::UsernameTaken { .. }
            | R::VacationTooShort { .. }
            | R::VacationUsedUp { .. }
            | R::TooManyOpenMatches { .. }
            | R::AlreadyQueued
            | R::NotQueued
            | R::MatchNotOpen
            | R::AlreadySeated
            | R::SeatTaken { .. }
            | R::MatchFull
            | R::AbortAfterMoves
            | R::AbortSecondGame
            | R::ClaimCorrespondence
            | R::ClaimTooEarly { .. }
            | R::RecordNotReady
            | R::PlayerOffline { .. }
            | R::TournamentTooFew { .. }
            | R::TournamentNotRegistering => ErrorCode::Conflict,
            R::IllegalAction | R::IllegalMove { .. } => ErrorCode::IllegalAction,
            R::IllegalInLine { .. } => ErrorCode::BadRequest,
            R::GameOver | R::MatchOver | R::TimeRanOut => ErrorCode::GameOver,
            R::RateLimited { .. }
            | R::LoginLocked { .. }
            | R::TournamentsPerDay { .. }
            | R::AnalysisBusy { .. }
            | R::TooManyMessages
            | R::TooManySockets { .. } => ErrorCode::RateLimited,
            R::Internal | R::ServerRestarting | R::MatchMoved | R::NodeUnreachable => {
                ErrorCode::Internal
            }
        }
    }
}
