//! What the client message parser refuses, and which messages carry a command id.

use protocol::{ClientMessage, CommandId, MatchId, Seq};

fn parse(json: &str) -> Result<ClientMessage, serde_json::Error> {
    serde_json::from_str(json)
}

#[test]
fn malformed_json_is_rejected() {
    for json in [
        "",
        "not json",
        r#"{"type": "hello", "version": 1"#,
        r#"{"type": "hello", "version": 1,}"#,
        r#"{'type': 'hello', 'version': 1}"#,
        "[]",
        "null",
        r#""hello""#,
    ] {
        assert!(parse(json).is_err(), "accepted {json:?}");
    }
}

#[test]
fn an_unknown_type_is_rejected() {
    for json in [
        r#"{"type": "move", "id": "c1", "match_id": 4217, "seat": 0, "action": "d1-d3"}"#,
        r#"{"type": "Hello", "version": 1}"#,
        r#"{"type": "", "version": 1}"#,
        r#"{"version": 1}"#,
    ] {
        assert!(parse(json).is_err(), "accepted {json:?}");
    }
    let error = parse(r#"{"type": "move"}"#).unwrap_err();
    assert!(
        error.to_string().contains("unknown variant `move`"),
        "{error}"
    );
}

#[test]
fn unknown_extra_fields_are_rejected() {
    for json in [
        r#"{"type": "hello", "version": 1, "client": "bot"}"#,
        r#"{"type": "ping", "nonce": 7, "id": "c1"}"#,
        r#"{"type": "act", "id": "c1", "match_id": 4217, "seat": 0, "action": "d1-d3", "promote": true}"#,
        r#"{"type": "watch", "id": "c1", "match_id": 4217, "since": 5, "until": 9}"#,
        // Fields of the flattened match description are checked too.
        r#"{"type": "create_match", "id": "c1", "game": "tafl", "colour": "white"}"#,
        r#"{"type": "create_match", "id": "c1", "game": "tafl", "clock": {"base_ms": 1, "increment_ms": 0, "delay_ms": 0}}"#,
        r#"{"type": "challenge", "id": "c1", "player": 31, "game": "tafl", "colour": "white"}"#,
    ] {
        assert!(parse(json).is_err(), "accepted {json:?}");
    }
}

#[test]
fn the_same_messages_without_the_extra_fields_are_accepted() {
    for json in [
        r#"{"type": "hello", "version": 1}"#,
        r#"{"type": "ping", "nonce": 7}"#,
        r#"{"type": "act", "id": "c1", "match_id": 4217, "seat": 0, "action": "d1-d3"}"#,
        r#"{"type": "watch", "id": "c1", "match_id": 4217, "since": 5}"#,
        r#"{"type": "create_match", "id": "c1", "game": "tafl"}"#,
        r#"{"type": "create_match", "id": "c1", "game": "tafl", "clock": {"base_ms": 1, "increment_ms": 0}}"#,
    ] {
        assert!(parse(json).is_ok(), "refused {json:?}: {:?}", parse(json));
    }
}

#[test]
fn command_id_is_the_id_of_commands() {
    let id = |text: &str| CommandId(text.to_string());
    let commands = [
        r#"{"type": "create_match", "id": "c1", "game": "tafl", "variant": "copenhagen"}"#,
        r#"{"type": "join_match", "id": "c2", "match_id": 4217}"#,
        r#"{"type": "watch", "id": "c3", "match_id": 4217}"#,
        r#"{"type": "unwatch", "id": "c4", "match_id": 4217}"#,
        r#"{"type": "act", "id": "c5", "match_id": 4217, "seat": 0, "action": "d1-d3"}"#,
        r#"{"type": "resign", "id": "c6", "match_id": 4217, "seat": 0}"#,
        r#"{"type": "offer_draw", "id": "c7", "match_id": 4217, "seat": 0}"#,
        r#"{"type": "answer_draw", "id": "c8", "match_id": 4217, "seat": 1, "accept": true}"#,
        r#"{"type": "abort", "id": "c9", "match_id": 4217, "seat": 0}"#,
        r#"{"type": "claim_win", "id": "c10", "match_id": 4217, "seat": 0}"#,
    ];
    for (n, json) in commands.iter().enumerate() {
        let message = parse(json).unwrap();
        assert_eq!(
            message.command_id(),
            Some(&id(&format!("c{}", n + 1))),
            "{json}"
        );
    }

    let watch = ClientMessage::Watch {
        invite: None,
        id: id("resume-1"),
        match_id: MatchId(4217),
        since: Some(Seq(5)),
    };
    assert_eq!(watch.command_id(), Some(&id("resume-1")));
}

#[test]
fn hello_and_ping_have_no_command_id() {
    assert_eq!(ClientMessage::Hello { version: 1 }.command_id(), None);
    assert_eq!(ClientMessage::Ping { nonce: 42 }.command_id(), None);
    assert_eq!(
        parse(r#"{"type": "hello", "version": 1}"#)
            .unwrap()
            .command_id(),
        None
    );
    assert_eq!(
        parse(r#"{"type": "ping", "nonce": 42}"#)
            .unwrap()
            .command_id(),
        None
    );
}
