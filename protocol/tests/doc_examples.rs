//! Every JSON example in `docs/protocol.md` parses as the type its comment names, survives a round
//! trip, and together the examples show every message type, match event and error code.
//!
//! An example is a fenced block tagged `json`, preceded (blank lines aside) by an HTML comment
//! naming its type: `<!-- ServerMessage -->`. Examples of what the server sends must also be
//! written exactly as the server serialises them (same fields, same numbers), so that a client
//! author reading the doc sees the real output.

use std::collections::BTreeSet;
use std::fmt::Debug;

use protocol::{
    AddEntrant, AnalysisPosition, AnalysisReply, AnalysisRequest, Ban, ChatHistory, ChatReport,
    ClientMessage, CreateTournament, Credentials, ErrorBody, ErrorCode, ExplorerPosition, GameInfo,
    GameRules, Health, Leaderboard, LiveMatch, MatchEvent, MatchRecord, MatchReplay, MatchSummary,
    OngoingMatch, OpenData, PlayerProfile, PlayerRef, QueuePool, Report, SecurityEvent, Series,
    ServerMessage, Session, Settings, TournamentDetails, TournamentSummary, VacationState,
    VacationSwitch, VariantPreview,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

const DOC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md"));

/// Every `type` of a server message, as [`server_type`] names them.
const SERVER_TYPES: &[&str] = &[
    "welcome",
    "ack",
    "error",
    "event",
    "snapshot",
    "watchers",
    "pong",
    "matched",
    "seeks",
    "queue_pools",
    "tournament_round",
    "tournament_standings",
    "your_move",
    "rematch_offered",
    "rematch_declined",
    "rematch_lapsed",
    "rematch_started",
    "series_finished",
    "challenge_open",
    "challenge_ended",
    "chat",
    "shutdown",
];

/// Every `kind` of a match event, as [`event_kind`] names them.
const EVENT_KINDS: &[&str] = &[
    "seat_taken",
    "unrated",
    "started",
    "acted",
    "draw_offered",
    "draw_declined",
    "takeback_offered",
    "takeback_declined",
    "taken_back",
    "disconnected",
    "reconnected",
    "vacation",
    "vacation_over",
    "aborted",
    "finished",
];

/// Every error code, as [`error_code`] names them.
const ERROR_CODES: &[&str] = &[
    "malformed",
    "unknown_type",
    "bad_request",
    "too_large",
    "hello_first",
    "unsupported_version",
    "unauthorized",
    "forbidden",
    "not_found",
    "conflict",
    "illegal_action",
    "not_your_turn",
    "game_over",
    "rate_limited",
    "internal",
];

// The helpers below are exhaustive matches: a new variant does not compile until it is named
// here, and `lists_name_every_variant` checks that the lists above hold every name.

fn server_type(message: &ServerMessage) -> &'static str {
    match message {
        ServerMessage::Welcome { .. } => "welcome",
        ServerMessage::Ack { .. } => "ack",
        ServerMessage::Error { .. } => "error",
        ServerMessage::Event { .. } => "event",
        ServerMessage::Snapshot { .. } => "snapshot",
        ServerMessage::Watchers { .. } => "watchers",
        ServerMessage::Pong { .. } => "pong",
        ServerMessage::Matched { .. } => "matched",
        ServerMessage::Seeks { .. } => "seeks",
        ServerMessage::QueuePools { .. } => "queue_pools",
        ServerMessage::TournamentRound { .. } => "tournament_round",
        ServerMessage::TournamentStandings { .. } => "tournament_standings",
        ServerMessage::YourMove { .. } => "your_move",
        ServerMessage::RematchOffered { .. } => "rematch_offered",
        ServerMessage::RematchDeclined { .. } => "rematch_declined",
        ServerMessage::RematchLapsed { .. } => "rematch_lapsed",
        ServerMessage::RematchStarted { .. } => "rematch_started",
        ServerMessage::SeriesFinished { .. } => "series_finished",
        ServerMessage::ChallengeOpen { .. } => "challenge_open",
        ServerMessage::ChallengeEnded { .. } => "challenge_ended",
        ServerMessage::Chat { .. } => "chat",
        ServerMessage::Shutdown { .. } => "shutdown",
    }
}

fn event_kind(event: &MatchEvent) -> &'static str {
    match event {
        MatchEvent::SeatTaken { .. } => "seat_taken",
        MatchEvent::Unrated { .. } => "unrated",
        MatchEvent::Started { .. } => "started",
        MatchEvent::Acted { .. } => "acted",
        MatchEvent::DrawOffered { .. } => "draw_offered",
        MatchEvent::DrawDeclined { .. } => "draw_declined",
        MatchEvent::TakebackOffered { .. } => "takeback_offered",
        MatchEvent::TakebackDeclined { .. } => "takeback_declined",
        MatchEvent::TakenBack { .. } => "taken_back",
        MatchEvent::Disconnected { .. } => "disconnected",
        MatchEvent::Reconnected { .. } => "reconnected",
        MatchEvent::Vacation { .. } => "vacation",
        MatchEvent::VacationOver { .. } => "vacation_over",
        MatchEvent::Aborted { .. } => "aborted",
        MatchEvent::Finished { .. } => "finished",
    }
}

fn error_code(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Malformed => "malformed",
        ErrorCode::UnknownType => "unknown_type",
        ErrorCode::BadRequest => "bad_request",
        ErrorCode::TooLarge => "too_large",
        ErrorCode::HelloFirst => "hello_first",
        ErrorCode::UnsupportedVersion => "unsupported_version",
        ErrorCode::Unauthorized => "unauthorized",
        ErrorCode::Forbidden => "forbidden",
        ErrorCode::NotFound => "not_found",
        ErrorCode::Conflict => "conflict",
        ErrorCode::IllegalAction => "illegal_action",
        ErrorCode::NotYourTurn => "not_your_turn",
        ErrorCode::GameOver => "game_over",
        ErrorCode::RateLimited => "rate_limited",
        ErrorCode::Internal => "internal",
    }
}

/// One ```json block of the doc.
struct Example {
    /// 1-based line of the opening fence.
    line: usize,
    /// The type named by the comment before it, if there is one.
    type_name: Option<String>,
    json: String,
}

/// Every ```json block with the type comment before it. Other fenced blocks are skipped; a fence
/// whose tag starts with `json` but is not exactly `json` (` ```jsonc`) is an error, so that no
/// example goes unchecked by a typo.
fn examples(doc: &str) -> Result<Vec<Example>, Vec<String>> {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let mut last_text: Option<&str> = None;
    let mut lines = doc.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim();
        let Some(tag) = trimmed.strip_prefix("```") else {
            if !trimmed.is_empty() {
                last_text = Some(trimmed);
            }
            continue;
        };
        let tag = tag.trim();
        if tag != "json" && tag.starts_with("json") {
            errors.push(format!(
                "line {}: fence tagged `{tag}`; examples must be tagged exactly `json`",
                index + 1
            ));
        }
        let mut body = String::new();
        let mut closed = false;
        for (_, inner) in lines.by_ref() {
            if inner.trim() == "```" {
                closed = true;
                break;
            }
            body.push_str(inner);
            body.push('\n');
        }
        if !closed {
            errors.push(format!("line {}: fenced block never closed", index + 1));
        }
        if tag == "json" {
            let type_name = last_text
                .and_then(|text| text.strip_prefix("<!--"))
                .and_then(|text| text.strip_suffix("-->"))
                .map(|name| name.trim().to_string());
            found.push(Example {
                line: index + 1,
                type_name,
                json: body,
            });
        }
        last_text = None;
    }
    if errors.is_empty() {
        Ok(found)
    } else {
        Err(errors)
    }
}

/// Parses `json` as `T`, serialises it and parses that again, expecting the same value. With
/// `exact`, the serialised JSON must also equal the example's (what the server sends is shown
/// exactly as it sends it).
fn round_trip<T>(json: &str, exact: bool) -> Result<T, String>
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let parsed: T = serde_json::from_str(json).map_err(|e| format!("does not parse: {e}"))?;
    let written = serde_json::to_string(&parsed).map_err(|e| format!("does not serialise: {e}"))?;
    let reparsed: T =
        serde_json::from_str(&written).map_err(|e| format!("{written} does not parse: {e}"))?;
    if reparsed != parsed {
        return Err(format!(
            "changes in a round trip: {parsed:?} became {reparsed:?}"
        ));
    }
    if exact {
        let original: Value = serde_json::from_str(json).expect("parsed once already");
        let canonical: Value = serde_json::from_str(&written).expect("parsed once already");
        if original != canonical {
            return Err(format!(
                "is not written as the server writes it, which is\n{}",
                serde_json::to_string_pretty(&canonical).expect("a Value serialises")
            ));
        }
    }
    Ok(parsed)
}

/// The `type`, `kind` and `code` names the examples show.
#[derive(Default)]
struct Seen {
    client_types: BTreeSet<&'static str>,
    server_types: BTreeSet<&'static str>,
    event_kinds: BTreeSet<&'static str>,
    error_codes: BTreeSet<&'static str>,
}

impl Seen {
    fn server_message(&mut self, message: &ServerMessage) {
        self.server_types.insert(server_type(message));
        match message {
            ServerMessage::Event { event, .. } => {
                self.event_kinds.insert(event_kind(event));
            }
            ServerMessage::Error { error, .. } => {
                self.error_codes.insert(error_code(error.code));
            }
            _ => {}
        }
    }
}

/// Checks one example against its named type, recording what it shows.
fn check(example: &Example, seen: &mut Seen) -> Result<(), String> {
    let Some(type_name) = example.type_name.as_deref() else {
        return Err("has no `<!-- Type -->` comment before it".to_string());
    };
    let json = example.json.as_str();
    match type_name {
        "ClientMessage" => {
            let message: ClientMessage = round_trip(json, false)?;
            if !protocol::CLIENT_TYPES.contains(&message.type_name()) {
                return Err(format!("CLIENT_TYPES lacks '{}'", message.type_name()));
            }
            seen.client_types.insert(message.type_name());
            tag_matches(json, "type", message.type_name())?;
        }
        "ServerMessage" => {
            let message: ServerMessage = round_trip(json, true)?;
            seen.server_message(&message);
            tag_matches(json, "type", server_type(&message))?;
        }
        "Credentials" => {
            round_trip::<Credentials>(json, false)?;
        }
        "Session" => {
            round_trip::<Session>(json, true)?;
        }
        "Leaderboard" => {
            round_trip::<Leaderboard>(json, true)?;
        }
        "PlayerProfile" => {
            round_trip::<PlayerProfile>(json, true)?;
        }
        "PlayerRefList" => {
            let list: Vec<PlayerRef> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one player".to_string());
            }
        }
        "Settings" => {
            round_trip::<Settings>(json, true)?;
        }
        "MatchSummary" => {
            round_trip::<MatchSummary>(json, true)?;
        }
        "MatchSummaryList" => {
            let list: Vec<MatchSummary> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one summary".to_string());
            }
        }
        "LiveMatchList" => {
            let list: Vec<LiveMatch> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one match".to_string());
            }
        }
        "OngoingMatchList" => {
            let list: Vec<OngoingMatch> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one match".to_string());
            }
        }
        "VacationState" => {
            round_trip::<VacationState>(json, true)?;
        }
        "VacationSwitch" => {
            round_trip::<VacationSwitch>(json, false)?;
        }
        "MatchRecord" => {
            round_trip::<MatchRecord>(json, true)?;
        }
        "Health" => {
            round_trip::<Health>(json, true)?;
        }
        "MatchReplay" => {
            round_trip::<MatchReplay>(json, true)?;
        }
        "GameInfoList" => {
            let list: Vec<GameInfo> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one game".to_string());
            }
        }
        "GameRules" => {
            round_trip::<GameRules>(json, true)?;
        }
        "Ban" => {
            round_trip::<Ban>(json, false)?;
        }
        "VariantPreview" => {
            round_trip::<VariantPreview>(json, true)?;
        }
        "SecurityEventList" => {
            let list: Vec<SecurityEvent> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one event".to_string());
            }
        }
        "QueuePoolList" => {
            round_trip::<Vec<QueuePool>>(json, true)?;
        }
        "CreateTournament" => {
            round_trip::<CreateTournament>(json, false)?;
        }
        "AddEntrant" => {
            round_trip::<AddEntrant>(json, false)?;
        }
        "TournamentSummaryList" => {
            let list: Vec<TournamentSummary> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one tournament".to_string());
            }
        }
        "Series" => {
            round_trip::<Series>(json, true)?;
        }
        "TournamentDetails" => {
            round_trip::<TournamentDetails>(json, true)?;
        }
        "AnalysisRequest" => {
            round_trip::<AnalysisRequest>(json, false)?;
        }
        "AnalysisReply" => {
            round_trip::<AnalysisReply>(json, true)?;
        }
        "AnalysisPosition" => {
            round_trip::<AnalysisPosition>(json, true)?;
        }
        "OpenData" => {
            round_trip::<OpenData>(json, true)?;
        }
        "ExplorerPosition" => {
            round_trip::<ExplorerPosition>(json, true)?;
        }
        "ChatHistory" => {
            round_trip::<ChatHistory>(json, true)?;
        }
        "Report" => {
            round_trip::<Report>(json, false)?;
        }
        "ChatReportList" => {
            let list: Vec<ChatReport> = round_trip(json, true)?;
            if list.is_empty() {
                return Err("is an empty list; show at least one report".to_string());
            }
        }
        "ErrorBody" => {
            let body: ErrorBody = round_trip(json, true)?;
            seen.error_codes.insert(error_code(body.code));
        }
        other => return Err(format!("names an unknown type `{other}`")),
    }
    Ok(())
}

/// The example's `type` is the name the helper gives its variant (keeps the helpers honest).
fn tag_matches(json: &str, field: &str, name: &str) -> Result<(), String> {
    let value: Value = serde_json::from_str(json).expect("parsed once already");
    match value.get(field).and_then(Value::as_str) {
        Some(tag) if tag == name => Ok(()),
        tag => Err(format!("has {field} {tag:?} but parses as `{name}`")),
    }
}

fn missing(all: &[&'static str], seen: &BTreeSet<&'static str>) -> Vec<&'static str> {
    all.iter()
        .copied()
        .filter(|name| !seen.contains(name))
        .collect()
}

#[test]
fn every_example_parses_as_its_type_and_round_trips() {
    let examples = examples(DOC).unwrap_or_else(|errors| {
        panic!("docs/protocol.md:\n{}", errors.join("\n"));
    });
    assert!(
        !examples.is_empty(),
        "docs/protocol.md has no ```json examples"
    );
    let mut seen = Seen::default();
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            check(example, &mut seen).err().map(|reason| {
                format!(
                    "docs/protocol.md line {}: the example {reason}\n{}",
                    example.line, example.json
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));

    let gaps = [
        (
            "client message types",
            missing(protocol::CLIENT_TYPES, &seen.client_types),
        ),
        (
            "server message types",
            missing(SERVER_TYPES, &seen.server_types),
        ),
        ("match event kinds", missing(EVENT_KINDS, &seen.event_kinds)),
        ("error codes", missing(ERROR_CODES, &seen.error_codes)),
    ];
    let gaps: Vec<String> = gaps
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(what, names)| format!("{what} without an example: {}", names.join(", ")))
        .collect();
    assert!(gaps.is_empty(), "docs/protocol.md:\n{}", gaps.join("\n"));
}

/// The names serde accepts for a tag, read from its "unknown variant" error, which lists them all.
fn serde_variant_names<T: DeserializeOwned + Debug>(json: &str) -> Vec<String> {
    let error = serde_json::from_str::<T>(json).expect_err("no variant has this name");
    let message = error.to_string();
    let list = message
        .split_once("expected one of ")
        .map(|(_, list)| list)
        .unwrap_or_else(|| panic!("unexpected serde error: {message}"));
    list.split(", ")
        .map(|name| {
            name.split('`')
                .nth(1)
                .unwrap_or_else(|| panic!("unexpected serde error: {message}"))
                .to_string()
        })
        .collect()
}

#[test]
fn lists_name_every_variant() {
    let cases: [(&str, Vec<String>, &[&str]); 4] = [
        (
            "ClientMessage",
            serde_variant_names::<ClientMessage>(r#"{"type": "?"}"#),
            protocol::CLIENT_TYPES,
        ),
        (
            "ServerMessage",
            serde_variant_names::<ServerMessage>(r#"{"type": "?"}"#),
            SERVER_TYPES,
        ),
        (
            "MatchEvent",
            serde_variant_names::<MatchEvent>(r#"{"kind": "?"}"#),
            EVENT_KINDS,
        ),
        (
            "ErrorCode",
            serde_variant_names::<ErrorCode>(r#""?""#),
            ERROR_CODES,
        ),
    ];
    for (name, from_serde, listed) in cases {
        assert_eq!(
            from_serde, listed,
            "the list of {name} names in this test is out of date"
        );
    }
}

#[test]
fn example_finder_needs_a_type_comment_and_an_exact_tag() {
    let doc = "<!-- Health -->\n```json\n{\"status\": \"ok\", \"database\": \"ok\"}\n```\n\n\
               Some prose.\n```json\n{}\n```\n```text\n```json\n```\n";
    let found = examples(doc).expect("well formed");
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].line, 2);
    assert_eq!(found[0].type_name.as_deref(), Some("Health"));
    assert_eq!(found[1].type_name, None);
    assert!(check(&found[1], &mut Seen::default()).is_err());

    let unknown = Example {
        line: 1,
        type_name: Some("Nonsense".to_string()),
        json: "{}".to_string(),
    };
    assert!(check(&unknown, &mut Seen::default()).is_err());

    assert!(examples("```jsonc\n{}\n```\n").is_err());
    assert!(examples("```json\n{}\n").is_err());
}
