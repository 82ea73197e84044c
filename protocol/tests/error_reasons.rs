//! Every error reason serialises as its stable code (with its parameters as `params`, none for a
//! reason without them) and reads back the same; and `docs/protocol.md` lists every reason with
//! its parameters and its error code, which the browser client's catalogs are checked against
//! (`server/tests/i18n.rs`).

use std::collections::BTreeSet;

use protocol::ErrorReason as R;
use protocol::RuleBroken;
use serde_json::Value;

const DOC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md"));

/// One of each reason, with its stable code. `covered` makes a new reason a compile error here
/// until it is added.
fn examples() -> Vec<(R, &'static str)> {
    vec![
        (R::Malformed, "malformed"),
        (R::UnknownType, "unknown_type"),
        (R::BadRequest, "bad_request"),
        (R::TooLarge, "too_large"),
        (R::HelloFirst, "hello_first"),
        (R::UnsupportedVersion, "unsupported_version"),
        (R::Unauthorized, "unauthorized"),
        (R::Forbidden, "forbidden"),
        (R::NotFound, "not_found"),
        (R::Conflict, "conflict"),
        (R::IllegalAction, "illegal_action"),
        (R::NotYourTurn, "not_your_turn"),
        (R::GameOver, "game_over"),
        (R::RateLimited { seconds: 5 }, "rate_limited"),
        (R::Internal, "internal"),
        (
            R::UsernameTaken {
                name: "astrid".into(),
            },
            "username_taken",
        ),
        (R::UsernameInvalid, "username_invalid"),
        (R::UsernameReserved, "username_reserved"),
        (R::PasswordInvalid, "password_invalid"),
        (R::WrongLogin, "wrong_login"),
        (R::LoginLocked { seconds: 5 }, "login_locked"),
        (
            R::AccountBanned {
                why: "insults in chat".into(),
            },
            "account_banned",
        ),
        (R::NotLoggedIn, "not_logged_in"),
        (R::SessionEnded, "session_ended"),
        (R::GuestsPlayCasual, "guests_play_casual"),
        (R::GuestsCannot, "guests_cannot"),
        (R::GuestsChatInOwnGames, "guests_chat_in_own_games"),
        (R::AdminsOnly, "admins_only"),
        (R::FollowSelf, "follow_self"),
        (R::MuteSelf, "mute_self"),
        (R::BanSelf, "ban_self"),
        (R::ReasonLength { max: 3 }, "reason_length"),
        (R::VacationTooShort { minutes: 5 }, "vacation_too_short"),
        (R::VacationUsedUp { days: 5 }, "vacation_used_up"),
        (R::MatchNotFound { id: 4217 }, "match_not_found"),
        (R::PlayerNotFound { id: 4217 }, "player_not_found"),
        (R::TournamentNotFound { id: 4217 }, "tournament_not_found"),
        (R::ChallengeNotFound, "challenge_not_found"),
        (R::JoinCodeUnknown, "join_code_unknown"),
        (
            R::UnknownGame {
                game: "chess".into(),
            },
            "unknown_game",
        ),
        (R::VariantTooLong { max: 3 }, "variant_too_long"),
        (R::CustomVariantRated, "custom_variant_rated"),
        (R::HotSeatRated, "hot_seat_rated"),
        (R::TwoGamesForTwo, "two_games_for_two"),
        (R::QueueNamedVariants, "queue_named_variants"),
        (R::AiLevelRange, "ai_level_range"),
        (R::TooManyOpenMatches { limit: 3 }, "too_many_open_matches"),
        (R::AlreadyQueued, "already_queued"),
        (R::NotQueued, "not_queued"),
        (R::MatchNotOpen, "match_not_open"),
        (R::AlreadySeated, "already_seated"),
        (R::NoSuchSeat { seat: 1 }, "no_such_seat"),
        (R::SeatTaken { seat: 1 }, "seat_taken"),
        (R::MatchFull, "match_full"),
        (R::NotYourSeat, "not_your_seat"),
        (R::MatchNotStarted, "match_not_started"),
        (R::MatchOver, "match_over"),
        (R::TimeRanOut, "time_ran_out"),
        (
            R::IllegalMove {
                action: "d1-d9".into(),
                why: Box::default(),
            },
            "illegal_move",
        ),
        (R::AbortAfterMoves, "abort_after_moves"),
        (R::AbortSecondGame, "abort_second_game"),
        (R::ClaimCorrespondence, "claim_correspondence"),
        (R::ClaimTooEarly { seconds: 5 }, "claim_too_early"),
        (R::RecordNotReady, "record_not_ready"),
        (R::ChallengeSelf, "challenge_self"),
        (R::ChallengeAi, "challenge_ai"),
        (
            R::ChallengesFromNobody {
                name: "astrid".into(),
            },
            "challenges_from_nobody",
        ),
        (
            R::ChallengesFromFollowedOnly {
                name: "astrid".into(),
            },
            "challenges_from_followed_only",
        ),
        (
            R::ChallengeGuestRated {
                name: "astrid".into(),
            },
            "challenge_guest_rated",
        ),
        (
            R::PlayerOffline {
                name: "astrid".into(),
            },
            "player_offline",
        ),
        (R::ChallengeYours, "challenge_yours"),
        (R::ChallengeNotYours, "challenge_not_yours"),
        (R::ChatEmpty, "chat_empty"),
        (R::ChatTooLong { max: 3, chars: 3 }, "chat_too_long"),
        (R::ChatOneLine, "chat_one_line"),
        (R::ChatDirection, "chat_direction"),
        (R::TournamentTooFew { count: 3 }, "tournament_too_few"),
        (R::TournamentNotRegistering, "tournament_not_registering"),
        (R::TournamentCreatorOnly, "tournament_creator_only"),
        (R::TournamentsPerDay { limit: 3 }, "tournaments_per_day"),
        (
            R::IllegalInLine {
                index: 2,
                action: "d1-d9".into(),
                why: Box::default(),
            },
            "illegal_in_line",
        ),
        (R::AnalysisBusy { seconds: 5 }, "analysis_busy"),
        (R::TooManyMessages, "too_many_messages"),
        (R::TooManySockets { most: 3 }, "too_many_sockets"),
        (R::ServerRestarting, "server_restarting"),
        (R::MatchMoved, "match_moved"),
        (R::NodeUnreachable, "node_unreachable"),
    ]
}

fn covered(reason: &R) {
    match reason {
        R::Malformed => {}
        R::UnknownType => {}
        R::BadRequest => {}
        R::TooLarge => {}
        R::HelloFirst => {}
        R::UnsupportedVersion => {}
        R::Unauthorized => {}
        R::Forbidden => {}
        R::NotFound => {}
        R::Conflict => {}
        R::IllegalAction => {}
        R::NotYourTurn => {}
        R::GameOver => {}
        R::RateLimited { .. } => {}
        R::Internal => {}
        R::UsernameTaken { .. } => {}
        R::UsernameInvalid => {}
        R::UsernameReserved => {}
        R::PasswordInvalid => {}
        R::WrongLogin => {}
        R::LoginLocked { .. } => {}
        R::AccountBanned { .. } => {}
        R::NotLoggedIn => {}
        R::SessionEnded => {}
        R::GuestsPlayCasual => {}
        R::GuestsCannot => {}
        R::GuestsChatInOwnGames => {}
        R::AdminsOnly => {}
        R::FollowSelf => {}
        R::MuteSelf => {}
        R::BanSelf => {}
        R::ReasonLength { .. } => {}
        R::VacationTooShort { .. } => {}
        R::VacationUsedUp { .. } => {}
        R::MatchNotFound { .. } => {}
        R::PlayerNotFound { .. } => {}
        R::TournamentNotFound { .. } => {}
        R::ChallengeNotFound => {}
        R::JoinCodeUnknown => {}
        R::UnknownGame { .. } => {}
        R::VariantTooLong { .. } => {}
        R::CustomVariantRated => {}
        R::HotSeatRated => {}
        R::TwoGamesForTwo => {}
        R::QueueNamedVariants => {}
        R::AiLevelRange => {}
        R::TooManyOpenMatches { .. } => {}
        R::AlreadyQueued => {}
        R::NotQueued => {}
        R::MatchNotOpen => {}
        R::AlreadySeated => {}
        R::NoSuchSeat { .. } => {}
        R::SeatTaken { .. } => {}
        R::MatchFull => {}
        R::NotYourSeat => {}
        R::MatchNotStarted => {}
        R::MatchOver => {}
        R::TimeRanOut => {}
        R::IllegalMove { .. } => {}
        R::AbortAfterMoves => {}
        R::AbortSecondGame => {}
        R::ClaimCorrespondence => {}
        R::ClaimTooEarly { .. } => {}
        R::RecordNotReady => {}
        R::ChallengeSelf => {}
        R::ChallengeAi => {}
        R::ChallengesFromNobody { .. } => {}
        R::ChallengesFromFollowedOnly { .. } => {}
        R::ChallengeGuestRated { .. } => {}
        R::PlayerOffline { .. } => {}
        R::ChallengeYours => {}
        R::ChallengeNotYours => {}
        R::ChatEmpty => {}
        R::ChatTooLong { .. } => {}
        R::ChatOneLine => {}
        R::ChatDirection => {}
        R::TournamentTooFew { .. } => {}
        R::TournamentNotRegistering => {}
        R::TournamentCreatorOnly => {}
        R::TournamentsPerDay { .. } => {}
        R::IllegalInLine { .. } => {}
        R::AnalysisBusy { .. } => {}
        R::TooManyMessages => {}
        R::TooManySockets { .. } => {}
        R::ServerRestarting => {}
        R::MatchMoved => {}
        R::NodeUnreachable => {}
    }
}

#[test]
fn every_reason_serialises_to_its_stable_code_with_its_params() {
    let examples = examples();
    let codes: BTreeSet<&str> = examples.iter().map(|(_, code)| *code).collect();
    assert_eq!(codes.len(), examples.len(), "each reason has its own code");
    for (reason, code) in examples {
        covered(&reason);
        let json = serde_json::to_value(&reason).unwrap();
        assert_eq!(json["reason"], code, "{reason:?}");
        match &json["params"] {
            Value::Object(params) => assert!(!params.is_empty(), "{code}: empty params"),
            Value::Null => assert!(json.as_object().unwrap().len() == 1, "{code}: {json}"),
            other => panic!("{code}: params {other}"),
        }
        let back: R = serde_json::from_value(json).unwrap();
        assert_eq!(back, reason);
    }
}

/// The rows of the doc's table of reasons: each reason's code, its parameters, its error code.
fn documented() -> Vec<(String, BTreeSet<String>, String)> {
    let section = DOC
        .split("\n## Error reasons\n")
        .nth(1)
        .expect("the doc has its section");
    let section = section.split("\n## ").next().unwrap();
    let cell = |text: &str| text.trim().trim_matches('`').to_string();
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let params = cells[1]
                .split(',')
                .map(cell)
                .filter(|p| !p.is_empty())
                .collect();
            (
                cell(cells[0].trim_start_matches('|')),
                params,
                cell(cells[2]),
            )
        })
        .collect()
}

#[test]
fn the_doc_lists_every_reason_with_its_params_and_error_code() {
    let rows = documented();
    let examples = examples();
    assert_eq!(rows.len(), examples.len(), "{rows:?}");
    for ((reason, code), (row_reason, row_params, row_code)) in examples.iter().zip(rows) {
        assert_eq!(*code, row_reason, "the doc's rows follow the enum's order");
        let json = serde_json::to_value(reason).unwrap();
        let params: BTreeSet<String> = json["params"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        assert_eq!(params, row_params, "{code}: the doc's params");
        let error_code = serde_json::to_value(reason.code()).unwrap();
        assert_eq!(
            error_code,
            row_code.as_str(),
            "{code}: the doc's error code"
        );
    }
}

/// The engine's reason rides in the refusal's `params`, beside the action, and only where the
/// engine gives one: a client that knows only `action` reads the refusal as before.
#[test]
fn an_illegal_move_carries_the_engines_reason_in_its_params() {
    let why = RuleBroken {
        why: Some("not_straight".into()),
        why_params: [("from", "d2"), ("to", "e3")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
    };
    let reason = R::IllegalMove {
        action: "d2-e3".into(),
        why: Box::new(why),
    };
    let json = serde_json::to_value(&reason).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "reason": "illegal_move",
            "params": {
                "action": "d2-e3",
                "why": "not_straight",
                "why_params": {"from": "d2", "to": "e3"}
            }
        })
    );
    assert_eq!(serde_json::from_value::<R>(json).unwrap(), reason);
}
