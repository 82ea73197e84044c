//! Protocol versions (docs/protocol.md, "Versions"): the server speaks version 2 and still serves
//! version 1. A client saying `hello` with 1 is welcomed as before and plays; `welcome` and
//! `/api/health` name the versions; a version-1 socket without a session is refused, as version
//! 1 refused such an upgrade, and may say `hello` again with 2 to watch. (The record's deprecated
//! `opentafl` beside `record` is checked in records.rs, on both backends.)

mod common;

use common::{Backend, Client, act, copenhagen_match, fresh_database, register, start};
use protocol::{ErrorCode, PlayerRef, ServerMessage};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_client_is_still_served() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (alice, bjorn) = (register(addr, "alice").await, register(addr, "bjorn").await);
    let mut a = Client::connect_raw(addr, &alice.token).await;
    a.send_text(r#"{"type":"hello","version":1}"#).await;
    // Welcomed in version 1, with the player its clients always found there.
    assert_eq!(
        a.next().await,
        ServerMessage::Welcome {
            version: 1,
            player: Some(PlayerRef {
                id: alice.player.id,
                name: "alice".into(),
                guest: false,
            }),
        }
    );
    // And it plays, against a client of version 2.
    let mut b = Client::connect(addr, &bjorn.token).await;
    let m = copenhagen_match(&mut a, &mut b, json!({})).await;
    let ack = a.ok(|id| act(id, m, 0, "d1-d3")).await;
    assert!(ack.seq.is_some(), "{ack:?}");
    b.ok(|id| act(id, m, 1, "f4-c4")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn welcome_and_health_name_version_2_and_the_oldest_served() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let alice = register(addr, "alice").await;
    let mut a = Client::connect_raw(addr, &alice.token).await;
    for version in [0, 3] {
        a.send_text(&format!(r#"{{"type":"hello","version":{version}}}"#))
            .await;
        match a.next().await {
            ServerMessage::Error { error, .. } => {
                assert_eq!(error.code, ErrorCode::UnsupportedVersion);
                assert!(
                    error.message.contains("versions 1 to 2"),
                    "{}",
                    error.message
                );
            }
            other => panic!("expected unsupported_version, got {other:?}"),
        }
    }
    a.send_text(r#"{"type":"hello","version":2}"#).await;
    match a.next().await {
        ServerMessage::Welcome { version, player } => {
            assert_eq!(version, 2);
            assert_eq!(player.map(|p| p.id), Some(alice.player.id));
        }
        other => panic!("expected welcome, got {other:?}"),
    }
    assert_eq!(protocol::PROTOCOL_VERSION, 2);
    let health = common::get(addr, "/api/health").await;
    assert_eq!(health["protocol_version"], 2, "{health}");
    assert_eq!(health["oldest_protocol_version"], 1, "{health}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_socket_without_a_session_is_refused_and_may_say_hello_with_2() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let mut v = Client::open(addr, None).await;
    v.send_text(r#"{"type":"hello","version":1}"#).await;
    match v.next().await {
        ServerMessage::Error { id: None, error } => {
            assert_eq!(error.code, ErrorCode::Unauthorized);
            assert!(error.message.contains("version 2"), "{}", error.message);
        }
        other => panic!("expected unauthorized, got {other:?}"),
    }
    // Still open, and still before hello: a visitor of version 2 is welcomed without a player.
    v.send_text(r#"{"type":"hello","version":2}"#).await;
    assert_eq!(
        v.next().await,
        ServerMessage::Welcome {
            version: 2,
            player: None
        }
    );
}
