//! Bad input, on both backends: malformed frames, unknown types, oversized frames, illegal and
//! out-of-turn moves, moves for another seat, strangers and spectators trying to play, bad and
//! expired tokens, unknown invite codes, bad REST bodies and usernames. Each gets its error,
//! nothing changes, and the server keeps serving. A seeded fuzz test throws thousands of random
//! frames at one socket while a legal game goes on beside it.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{
    BACKENDS, Client, PATIENCE, act, copenhagen_match, create, fresh_database, get, guest, http,
    join, post, register, short_copenhagen_game, start, two_guests,
};
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, ErrorBody, ErrorCode, MatchId, MatchSnapshot, ServerMessage};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data as OpData, OpCode};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Server flags that lift the per-socket rate limit, for tests that send many refused commands
/// quickly (the limit itself is tested with the default flags).
const UNLIMITED: [&str; 4] = [
    "--ws-messages-per-sec",
    "1000000",
    "--ws-message-burst",
    "1000000",
];

// --- Helpers ---------------------------------------------------------------------------------

/// The next direct answer on a socket (welcome, ack, error or pong); events, snapshots and
/// watcher counts that arrive meanwhile are kept in `pending`.
async fn answer(c: &mut Client) -> ServerMessage {
    loop {
        let message = c.next().await;
        match message {
            ServerMessage::Event { .. }
            | ServerMessage::Snapshot { .. }
            | ServerMessage::Watchers { .. } => c.pending.push(message),
            other => return other,
        }
    }
}

/// Sends a raw text frame and expects an error with this code and this echoed id.
async fn refused_raw(c: &mut Client, text: &str, code: ErrorCode, id: Option<&str>) -> String {
    c.send_text(text).await;
    expect_error(answer(c).await, code, id, text)
}

fn expect_error(message: ServerMessage, code: ErrorCode, id: Option<&str>, sent: &str) -> String {
    match message {
        ServerMessage::Error {
            id: got,
            error: ErrorBody {
                code: c, message, ..
            },
        } => {
            assert_eq!(c, code, "{sent:.200} was refused with {c:?}: {message}");
            assert_eq!(
                got.as_ref().map(|i| i.0.as_str()),
                id,
                "{sent:.200}: the error's id"
            );
            assert!(!message.is_empty(), "every error has a sentence");
            message
        }
        other => panic!("{sent:.200}: expected error {code:?}, got {other:?}"),
    }
}

async fn ping_pong(c: &mut Client, nonce: u64) {
    c.send(&ClientMessage::Ping { nonce }).await;
    match answer(c).await {
        ServerMessage::Pong { nonce: n } => assert_eq!(n, nonce),
        other => panic!("expected pong {nonce}, got {other:?}"),
    }
}

/// The match as a spectator sees it now: a fresh snapshot, taken by (re)watching.
async fn snapshot(observer: &mut Client, match_id: MatchId) -> (u64, MatchSnapshot) {
    observer.pending.clear();
    observer
        .ok(|id| ClientMessage::Watch {
            invite: None,
            id,
            match_id,
            since: None,
        })
        .await;
    loop {
        let message = if observer.pending.is_empty() {
            observer.next().await
        } else {
            observer.pending.remove(0)
        };
        if let ServerMessage::Snapshot {
            match_id: m,
            seq,
            snapshot,
        } = message
            && m == match_id
        {
            return (seq.0, snapshot);
        }
    }
}

/// The actions of a match's stored record, as REST serves them.
async fn recorded_actions(addr: SocketAddr, match_id: MatchId) -> Vec<String> {
    let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
    record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap().to_string())
        .collect()
}

/// Two players with a live, untimed Copenhagen match between them (seat 0 to move), and a
/// spectator's socket to check its state with. Guests all: registering hashes a password, which
/// is slow by design.
struct Table {
    a: Client,
    b: Client,
    observer: Client,
    match_id: MatchId,
}

async fn table(addr: SocketAddr) -> Table {
    let (_, _, mut a, mut b) = two_guests(addr).await;
    let watcher = guest(addr).await;
    let observer = Client::connect(addr, &watcher.token).await;
    let match_id = copenhagen_match(&mut a, &mut b, json!({})).await;
    Table {
        a,
        b,
        observer,
        match_id,
    }
}

async fn connect_socket(addr: SocketAddr, token: &str) -> Socket {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request
        .headers_mut()
        .insert("Authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// Tries a WebSocket upgrade with `token` presented as `how` (`bearer`, `cookie`, `query` or
/// `none`); returns the HTTP status and, for a refusal, its body.
async fn upgrade(addr: SocketAddr, how: &str, token: &str) -> (u16, Option<ErrorBody>) {
    let url = match how {
        "query" => format!("ws://{addr}/ws?token={token}"),
        _ => format!("ws://{addr}/ws"),
    };
    let mut request = url.into_client_request().unwrap();
    let headers = request.headers_mut();
    match how {
        "bearer" => {
            headers.insert("Authorization", format!("Bearer {token}").parse().unwrap());
        }
        "cookie" => {
            headers.insert("Cookie", format!("session={token}").parse().unwrap());
        }
        _ => {}
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut ws, response)) => {
            let _ = ws.close(None).await;
            (response.status().as_u16(), None)
        }
        Err(tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().unwrap_or_default();
            let error = serde_json::from_slice::<ErrorBody>(body).unwrap_or_else(|e| {
                panic!(
                    "the refusal is not an ErrorBody ({e}): {}",
                    String::from_utf8_lossy(body)
                )
            });
            (response.status().as_u16(), Some(error))
        }
        Err(e) => panic!("the upgrade failed without an HTTP answer: {e}"),
    }
}

fn assert_unauthorized(outcome: (u16, Option<ErrorBody>), what: &str) {
    assert_eq!(outcome.0, 401, "{what}");
    let body = outcome.1.unwrap_or_else(|| panic!("{what}: no body"));
    assert_eq!(body.code, ErrorCode::Unauthorized, "{what}");
    assert!(!body.message.is_empty());
}

/// Sends a request and expects an `ErrorBody` with this status and code.
async fn rest_error(request: reqwest::RequestBuilder, status: u16, code: ErrorCode, what: &str) {
    let response = request.send().await.unwrap();
    assert_eq!(response.status().as_u16(), status, "{what}");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{what}: content type {content_type}"
    );
    let text = response.text().await.unwrap();
    let body: ErrorBody = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{what}: not an ErrorBody ({e}): {text}"));
    assert_eq!(body.code, code, "{what}: {}", body.message);
    assert!(!body.message.is_empty(), "{what}");
}

async fn health(addr: SocketAddr) -> u16 {
    http()
        .get(format!("http://{addr}/api/health"))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

// --- Frames ----------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_frames_are_refused_and_the_socket_stays_open() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &UNLIMITED).await;
        let mut t = table(addr).await;
        let m = t.match_id.0;
        let (seq_before, before) = snapshot(&mut t.observer, t.match_id).await;
        let alice = guest(addr).await;
        let mut c = Client::connect_raw(addr, &alice.token).await;

        // Before hello: commands are refused with hello_first (with their id); bad frames are
        // still reported as what they are.
        let act_frame =
            format!(r#"{{"type":"act","id":"h1","match_id":{m},"seat":0,"action":"d1-d3"}}"#);
        refused_raw(&mut c, &act_frame, ErrorCode::HelloFirst, Some("h1")).await;
        let watch = format!(r#"{{"type":"watch","id":"h2","match_id":{m}}}"#);
        refused_raw(&mut c, &watch, ErrorCode::HelloFirst, Some("h2")).await;
        refused_raw(&mut c, "hello", ErrorCode::Malformed, None).await;
        // Versions the server does not speak, then a hello with bad fields; the socket stays open.
        for v in ["0", "3", "4294967295"] {
            let hello = format!(r#"{{"type":"hello","version":{v}}}"#);
            refused_raw(&mut c, &hello, ErrorCode::UnsupportedVersion, None).await;
        }
        for hello in [
            r#"{"type":"hello"}"#,
            r#"{"type":"hello","version":"1"}"#,
            r#"{"type":"hello","version":-1}"#,
            r#"{"type":"hello","version":1.5}"#,
            r#"{"type":"hello","version":4294967296}"#,
        ] {
            refused_raw(&mut c, hello, ErrorCode::BadRequest, None).await;
        }
        refused_raw(
            &mut c,
            r#"{"type":"hello","version":1,"id":"x1"}"#,
            ErrorCode::BadRequest,
            Some("x1"),
        )
        .await;
        // Still nobody: a command is still refused.
        refused_raw(&mut c, &watch, ErrorCode::HelloFirst, Some("h2")).await;
        c.send_text(r#"{"type":"hello","version":1}"#).await;
        match answer(&mut c).await {
            ServerMessage::Welcome { version, player } => {
                let player = player.expect("a player's socket");
                assert_eq!((version, player.id), (1, alice.player.id), "{backend:?}");
            }
            other => panic!("expected welcome, got {other:?}"),
        }
        // A second hello, with any version, is refused.
        refused_raw(
            &mut c,
            r#"{"type":"hello","version":1}"#,
            ErrorCode::HelloFirst,
            None,
        )
        .await;
        refused_raw(
            &mut c,
            r#"{"type":"hello","version":2}"#,
            ErrorCode::HelloFirst,
            None,
        )
        .await;

        // Not JSON.
        for text in [
            "",
            " ",
            "not json",
            "{",
            "{\"type\":\"ping\",\"nonce\":1",
            "{\"type\":\"ping\",\"nonce\":1}}",
            "{'type':'ping','nonce':1}",
            "{\"type\":\"ping\",\"nonce\":01}",
            "\u{0}\u{1}\u{7f}",
            "NaN",
            "ping 1",
        ] {
            refused_raw(&mut c, text, ErrorCode::Malformed, None).await;
        }
        // JSON, but not an object.
        for text in [
            "[]",
            r#"[{"type":"ping","nonce":1}]"#,
            r#""ping""#,
            "42",
            "-0.5e10",
            "null",
            "true",
        ] {
            refused_raw(&mut c, text, ErrorCode::Malformed, None).await;
        }
        // Arrays that serde would read as messages, field by field, are not messages either.
        for text in [
            r#"["ping", 5]"#.to_string(),
            format!(r#"["watch", "a1", {m}]"#),
            format!(r#" ["act", "a2", {m}, 0, "d1-d3"]"#),
            format!(r#"["resign", "a3", {m}, 0]"#),
        ] {
            refused_raw(&mut c, &text, ErrorCode::Malformed, None).await;
        }
        // A binary frame, even one holding a valid message.
        c.send_message(Message::Binary(
            br#"{"type":"ping","nonce":5}"#.to_vec().into(),
        ))
        .await;
        expect_error(answer(&mut c).await, ErrorCode::Malformed, None, "binary");
        c.send_message(Message::Binary(vec![0xff, 0x00, 0x13].into()))
            .await;
        expect_error(answer(&mut c).await, ErrorCode::Malformed, None, "binary");
        // An object without a string type; the id is echoed when it is a string.
        refused_raw(&mut c, "{}", ErrorCode::Malformed, None).await;
        refused_raw(
            &mut c,
            r#"{"id":"t1","nonce":1}"#,
            ErrorCode::Malformed,
            Some("t1"),
        )
        .await;
        refused_raw(
            &mut c,
            r#"{"type":5,"id":"t2"}"#,
            ErrorCode::Malformed,
            Some("t2"),
        )
        .await;
        refused_raw(&mut c, r#"{"type":null}"#, ErrorCode::Malformed, None).await;
        refused_raw(
            &mut c,
            r#"{"type":["act"],"id":"t3"}"#,
            ErrorCode::Malformed,
            Some("t3"),
        )
        .await;
        // Unknown types, with the id echoed when there is one.
        refused_raw(
            &mut c,
            r#"{"type":"move","id":"c16","match_id":1}"#,
            ErrorCode::UnknownType,
            Some("c16"),
        )
        .await;
        refused_raw(&mut c, r#"{"type":"move"}"#, ErrorCode::UnknownType, None).await;
        refused_raw(
            &mut c,
            r#"{"type":"Act","id":"u2"}"#,
            ErrorCode::UnknownType,
            Some("u2"),
        )
        .await;
        refused_raw(
            &mut c,
            r#"{"type":"","id":"u3"}"#,
            ErrorCode::UnknownType,
            Some("u3"),
        )
        .await;
        refused_raw(
            &mut c,
            r#"{"type":"welcome","id":"u4"}"#,
            ErrorCode::UnknownType,
            Some("u4"),
        )
        .await;
        // Known types with missing, extra or mistyped fields: bad_request, id echoed.
        let bad = [
            format!(r#"{{"type":"act","id":"c17","match_id":{m},"action":"d1-d3"}}"#),
            format!(r#"{{"type":"act","id":"b1","match_id":{m},"seat":0}}"#),
            r#"{"type":"act","id":"b2","seat":0,"action":"d1-d3"}"#.to_string(),
            format!(
                r#"{{"type":"act","id":"b3","match_id":{m},"seat":0,"action":"d1-d3","promote":true}}"#
            ),
            format!(r#"{{"type":"act","id":"b4","match_id":"{m}","seat":0,"action":"d1-d3"}}"#),
            format!(r#"{{"type":"act","id":"b5","match_id":{m},"seat":-1,"action":"d1-d3"}}"#),
            format!(r#"{{"type":"act","id":"b6","match_id":{m},"seat":256,"action":"d1-d3"}}"#),
            format!(r#"{{"type":"act","id":"b7","match_id":{m},"seat":0,"action":["d1-d3"]}}"#),
            format!(r#"{{"type":"act","id":"b8","match_id":{m},"seat":0.5,"action":"d1-d3"}}"#),
            r#"{"type":"act","id":"b9","match_id":99999999999999999999,"seat":0,"action":"d1-d3"}"#
                .to_string(),
            format!(r#"{{"type":"resign","id":"b10","match_id":{m}}}"#),
            format!(r#"{{"type":"answer_draw","id":"b11","match_id":{m},"seat":0}}"#),
            format!(
                r#"{{"type":"answer_draw","id":"b12","match_id":{m},"seat":0,"accept":"yes"}}"#
            ),
            format!(r#"{{"type":"watch","id":"b13","match_id":{m},"since":-1}}"#),
            format!(r#"{{"type":"watch","id":"b14","match_id":{m},"seat":0}}"#),
            r#"{"type":"create_match","id":"b15"}"#.to_string(),
            r#"{"type":"create_match","id":"b16","game":"tafl","colour":"white"}"#.to_string(),
            r#"{"type":"create_match","id":"b17","game":"tafl","clock":{"base_ms":1000}}"#
                .to_string(),
            r#"{"type":"create_match","id":"b18","game":"tafl","clock":{"base_ms":1000,"increment_ms":0,"delay_ms":5}}"#
                .to_string(),
            r#"{"type":"create_match","id":"b19","game":"tafl","visibility":"secret"}"#
                .to_string(),
            r#"{"type":"create_match","id":"b20","game":"chess"}"#.to_string(),
            r#"{"type":"create_match","id":"b21","game":"tafl","variant":"copenhagn"}"#
                .to_string(),
            r#"{"type":"create_match","id":"b22","game":"tafl","seats":3}"#.to_string(),
            r#"{"type":"create_match","id":"b23","game":"tafl","seat":2}"#.to_string(),
            r#"{"type":"create_match","id":"b24","game":"tafl","rated":"yes"}"#.to_string(),
            r#"{"type":"create_match","id":"b25","game":"tafl","clock":{"base_ms":0,"increment_ms":0}}"#
                .to_string(),
            r#"{"type":"join_match","id":"b26"}"#.to_string(),
            format!(r#"{{"type":"unwatch","id":"b27","match_id":{m},"since":1}}"#),
            format!(r#"{{"type":"claim_win","id":"b28","match_id":{m},"seat":0,"force":true}}"#),
            format!(r#"{{"type":"watch","id":"{}","match_id":{m}}}"#, "i".repeat(65)),
        ];
        for text in &bad {
            let id: Value = serde_json::from_str::<Value>(text).unwrap()["id"].clone();
            refused_raw(&mut c, text, ErrorCode::BadRequest, id.as_str()).await;
        }
        // An id that is not a string cannot be echoed.
        let numeric_id = format!(r#"{{"type":"watch","id":7,"match_id":{m}}}"#);
        refused_raw(&mut c, &numeric_id, ErrorCode::BadRequest, None).await;
        for text in [
            r#"{"type":"ping"}"#,
            r#"{"type":"ping","nonce":-1}"#,
            r#"{"type":"ping","nonce":"1"}"#,
            r#"{"type":"ping","nonce":18446744073709551616}"#,
            r#"{"type":"ping","nonce":1,"extra":1}"#,
        ] {
            refused_raw(&mut c, text, ErrorCode::BadRequest, None).await;
        }
        ping_pong(&mut c, 18446744073709551615).await;

        // Oversized frames (the default limit is 64 KiB) are refused unread, whatever they hold,
        // and the socket carries on.
        for size in [64 * 1024 + 1, 70_000, 200_000] {
            let pad = "x".repeat(size);
            let frame = format!(
                r#"{{"type":"act","id":"big","match_id":{m},"seat":0,"action":"d1-d3","pad":"{pad}"}}"#
            );
            refused_raw(&mut c, &frame, ErrorCode::TooLarge, None).await;
            ping_pong(&mut c, size as u64).await;
        }
        let just_fits = format!(
            r#"{{"type":"ping","nonce":9,"p":"{}"}}"#,
            "y".repeat(65_000)
        );
        assert!(just_fits.len() <= 64 * 1024);
        refused_raw(&mut c, &just_fits, ErrorCode::BadRequest, None).await;

        // A frame far past any limit costs the sender its socket (closed with 1009, tested
        // below), but nobody else anything.
        let mut reckless = connect_socket(addr, &alice.token).await;
        let _ = reckless
            .send(Message::Text("z".repeat(4 << 20).into()))
            .await;
        drop(reckless);
        assert_eq!(health(addr).await, 200);
        ping_pong(&mut c, 77).await;

        // Nothing of all that created a match or touched the one being played.
        let mine = get(addr, &format!("/api/players/{}/matches", alice.player.id.0)).await;
        assert_eq!(mine.as_array().unwrap().len(), 0, "{backend:?}: {mine}");
        let (seq_after, after) = snapshot(&mut t.observer, t.match_id).await;
        assert_eq!((seq_after, &after), (seq_before, &before), "{backend:?}");
        assert!(recorded_actions(addr, t.match_id).await.is_empty());
        // The server still serves: the match goes on.
        let ack = t.a.ok(|id| act(id, t.match_id, 0, "d1-d3")).await;
        assert_eq!(ack.seq.unwrap().0, seq_before + 1, "{backend:?}");
        let (_, now) = snapshot(&mut t.observer, t.match_id).await;
        assert_eq!(now.actions, vec![Some("d1-d3".to_string())]);
        assert_eq!(now.to_act, vec![1]);
    }
}

/// Reads a socket until the server ends it: its close frame, or what came instead (`Err`).
async fn server_close(
    ws: &mut (impl futures_util::Stream<Item = Result<Message, tungstenite::Error>> + Unpin),
) -> Result<CloseFrame, String> {
    loop {
        match tokio::time::timeout(PATIENCE, ws.next()).await {
            Err(_) => return Err("the socket was not closed in time".into()),
            Ok(Some(Ok(Message::Close(Some(close))))) => return Ok(close),
            Ok(Some(Ok(Message::Close(None)))) => return Err("a close frame without a code".into()),
            Ok(Some(Ok(Message::Text(text)))) => {
                return Err(format!("a text frame before the close: {text:.200}"));
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(e))) => return Err(format!("the connection failed without a close: {e}")),
            Ok(None) => return Err("the connection ended without a close frame".into()),
        }
    }
}

/// Sends one message past the hard cap on a fresh socket (as one frame, or in fragments none
/// of which is past it) and expects the server to close that socket with 1009.
///
/// The client reads while it sends, as a browser does: the server stops reading at the frame
/// that crosses the cap, so a large send only ends when the connection is reset, a moment after
/// the close frame. (A client that only reads once its send failed may still find the close
/// frame, but tungstenite's does not: it answers the server's keep-alive ping first, on the
/// reset connection, and fails there.)
async fn sent_past_the_cap(addr: SocketAddr, token: &str, frames: Vec<Frame>, limit: usize) {
    let what = format!(
        "{} frame(s) of {} bytes in all",
        frames.len(),
        frames.iter().map(|f| f.payload().len()).sum::<usize>()
    );
    let (mut sink, mut stream) = connect_socket(addr, token).await.split();
    let sending = tokio::spawn(async move {
        for frame in frames {
            if sink.send(Message::Frame(frame)).await.is_err() {
                break;
            }
        }
    });
    let close = server_close(&mut stream)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(close.code, CloseCode::Size, "{what}: {close:?}");
    assert_eq!(u16::from(close.code), 1009);
    assert!(
        close.reason.contains(&limit.to_string()),
        "{what}: the reason says the limit: {close:?}"
    );
    tokio::time::timeout(PATIENCE, sending)
        .await
        .expect("the sending ended with the connection")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_past_the_hard_cap_closes_its_socket_with_1009() {
    let text = |bytes: usize| Frame::message("z".repeat(bytes), OpCode::Data(OpData::Text), true);
    let fragment = |first: bool, bytes: usize, last: bool| {
        let opcode = if first {
            OpData::Text
        } else {
            OpData::Continue
        };
        Frame::message("f".repeat(bytes), OpCode::Data(opcode), last)
    };
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &UNLIMITED).await;
        let alice = guest(addr).await;
        let mut bystander = Client::connect(addr, &alice.token).await;
        // The default limit is 64 KiB, and the hard cap four times that: one byte past it, far
        // past it, and a message whose fragments are each under the cap but not all together.
        let (limit, cap) = (64 * 1024, 4 * 64 * 1024);
        sent_past_the_cap(addr, &alice.token, vec![text(cap + 1)], limit).await;
        sent_past_the_cap(addr, &alice.token, vec![text(8 << 20)], limit).await;
        let fragments = vec![
            fragment(true, 100_000, false),
            fragment(false, 100_000, false),
            fragment(false, 100_000, true),
        ];
        sent_past_the_cap(addr, &alice.token, fragments, limit).await;
        // Up to the cap, a message is refused with too_large and its socket stays open.
        let mut c = Client::connect(addr, &alice.token).await;
        c.send_message(Message::Frame(text(cap))).await;
        expect_error(answer(&mut c).await, ErrorCode::TooLarge, None, "the cap");
        ping_pong(&mut c, 1).await;
        // Nobody else noticed: the bystander's socket, new sockets and REST all still serve.
        ping_pong(&mut bystander, 2).await;
        let mut after = Client::connect(addr, &alice.token).await;
        ping_pong(&mut after, 3).await;
        after
            .ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await;
        assert_eq!(health(addr).await, 200, "{backend:?}");

        // The cap follows the operator's limit.
        let addr = start(
            &fresh_database(backend).await,
            &["--max-frame-bytes", "1000"],
        )
        .await;
        let bob = guest(addr).await;
        let mut c = Client::connect(addr, &bob.token).await;
        c.send_message(Message::Frame(text(4000))).await;
        expect_error(
            answer(&mut c).await,
            ErrorCode::TooLarge,
            None,
            "4000 bytes",
        );
        ping_pong(&mut c, 4).await;
        sent_past_the_cap(addr, &bob.token, vec![text(4001)], 1000).await;
        ping_pong(&mut c, 5).await;
    }
}

// --- Moves, seats and matches ----------------------------------------------------------------

/// Every command that acts for a seat, for `seat` of `match_id`.
fn seat_commands(
    match_id: MatchId,
    seat: u8,
) -> Vec<Box<dyn FnOnce(protocol::CommandId) -> ClientMessage>> {
    vec![
        Box::new(move |id| {
            act(
                id,
                match_id,
                seat,
                if seat == 0 { "d1-d3" } else { "f4-b4" },
            )
        }),
        Box::new(move |id| ClientMessage::Resign { id, match_id, seat }),
        Box::new(move |id| ClientMessage::OfferDraw { id, match_id, seat }),
        Box::new(move |id| ClientMessage::AnswerDraw {
            id,
            match_id,
            seat,
            accept: true,
        }),
        Box::new(move |id| ClientMessage::Abort { id, match_id, seat }),
        Box::new(move |id| ClientMessage::ClaimWin { id, match_id, seat }),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_foreign_and_unknown_commands_change_nothing() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &UNLIMITED).await;
        let mut t = table(addr).await;
        let m = t.match_id;
        let (seq0, start_state) = snapshot(&mut t.observer, m).await;
        assert_eq!(start_state.to_act, vec![0]);
        let carl = register(addr, "carl").await;
        let mut stranger = Client::connect(addr, &carl.token).await;
        let visitor = guest(addr).await;
        let mut guest_socket = Client::connect(addr, &visitor.token).await;

        // Illegal moves for the seat to act.
        for bad in [
            "zz", "", "d1-e2", "a1-a2", "f6-f7", "d1-d1", "d1-d12", "d1-d3-d4", "d1 d3",
        ] {
            let why =
                t.a.refused(ErrorCode::IllegalAction, |id| act(id, m, 0, bad))
                    .await;
            assert!(!why.is_empty(), "{bad}");
        }
        // A move for a seat that need not act now.
        t.b.refused(ErrorCode::NotYourTurn, |id| act(id, m, 1, "f4-b4"))
            .await;
        // Each player only for their own seat, even with a move legal for that seat.
        t.b.refused(ErrorCode::Forbidden, |id| act(id, m, 0, "d1-d3"))
            .await;
        for command in seat_commands(m, 1) {
            t.a.refused(ErrorCode::Forbidden, command).await;
        }
        for command in seat_commands(m, 0) {
            t.b.refused(ErrorCode::Forbidden, command).await;
        }
        // Strangers (registered or guest), also once they watch: every seat, every command.
        for client in [&mut stranger, &mut guest_socket] {
            for seat in [0, 1] {
                for command in seat_commands(m, seat) {
                    client.refused(ErrorCode::Forbidden, command).await;
                }
            }
            client
                .ok(|id| ClientMessage::Watch {
                    invite: None,
                    id,
                    match_id: m,
                    since: None,
                })
                .await;
            for seat in [0, 1] {
                for command in seat_commands(m, seat) {
                    client.refused(ErrorCode::Forbidden, command).await;
                }
            }
            // A full match has no seat for them.
            client.refused(ErrorCode::Conflict, |id| join(id, m)).await;
            client
                .refused(ErrorCode::Conflict, |id| ClientMessage::JoinMatch {
                    id,
                    match_id: Some(m),
                    invite: None,
                    seat: Some(1),
                })
                .await;
        }
        // A seat the match does not have.
        t.a.refused(ErrorCode::BadRequest, |id| act(id, m, 2, "d1-d3"))
            .await;
        t.a.refused(ErrorCode::BadRequest, |id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 255,
        })
        .await;
        // The seated player's own refusals: no offer to answer, an opponent still connected.
        t.a.refused(ErrorCode::Conflict, |id| ClientMessage::AnswerDraw {
            id,
            match_id: m,
            seat: 0,
            accept: true,
        })
        .await;
        t.a.refused(ErrorCode::Conflict, |id| ClientMessage::ClaimWin {
            id,
            match_id: m,
            seat: 0,
        })
        .await;

        // Matches and invite codes that do not exist.
        let nowhere = MatchId(m.0 + 1_000_000);
        for missing in [nowhere, MatchId(0), MatchId(-1), MatchId(i64::MAX)] {
            for command in seat_commands(missing, 0) {
                stranger.refused(ErrorCode::NotFound, command).await;
            }
            stranger
                .refused(ErrorCode::NotFound, |id| ClientMessage::Watch {
                    invite: None,
                    id,
                    match_id: missing,
                    since: Some(protocol::Seq(3)),
                })
                .await;
            stranger
                .refused(ErrorCode::NotFound, |id| join(id, missing))
                .await;
        }
        for code in ["nope", "", "kX7p2Q", "' OR 1=1 --", &"x".repeat(500)] {
            stranger
                .refused(ErrorCode::NotFound, |id| ClientMessage::JoinMatch {
                    id,
                    match_id: None,
                    invite: Some(code.to_string()),
                    seat: None,
                })
                .await;
        }
        // A private match is joined with its invite code, never by its id alone: without the
        // code it does not exist (fair_play.rs).
        let private =
            t.a.ok(|id| create(id, "tafl", "brandubh", json!({"visibility": "private"})))
                .await;
        let (pm, invite) = (private.match_id.unwrap(), private.invite.unwrap());
        stranger
            .refused(ErrorCode::NotFound, |id| join(id, pm))
            .await;
        stranger
            .refused(ErrorCode::NotFound, |id| ClientMessage::JoinMatch {
                id,
                match_id: None,
                invite: Some(invite.to_uppercase()),
                seat: None,
            })
            .await;
        let record = get(addr, &format!("/api/matches/{}?invite={invite}", pm.0)).await;
        assert_eq!(record["summary"]["status"], "waiting", "{backend:?}");
        assert!(record["summary"]["players"][1].is_null());
        let joined = guest_socket
            .ok(|id| ClientMessage::JoinMatch {
                id,
                match_id: None,
                invite: Some(invite.clone()),
                seat: None,
            })
            .await;
        assert_eq!((joined.match_id, joined.seats), (Some(pm), vec![1]));

        // After all that, the match is exactly as it was.
        let (seq1, state1) = snapshot(&mut t.observer, m).await;
        assert_eq!((seq1, &state1), (seq0, &start_state), "{backend:?}");
        assert!(recorded_actions(addr, m).await.is_empty());

        // It goes on; out-of-turn and foreign moves are still refused at every step.
        t.a.ok(|id| act(id, m, 0, "d1-d3")).await;
        t.a.refused(ErrorCode::NotYourTurn, |id| act(id, m, 0, "h1-h3"))
            .await;
        t.a.refused(ErrorCode::Forbidden, |id| act(id, m, 1, "f4-b4"))
            .await;
        stranger
            .refused(ErrorCode::Forbidden, |id| act(id, m, 1, "f4-b4"))
            .await;
        t.b.refused(ErrorCode::IllegalAction, |id| act(id, m, 1, "f4-f1"))
            .await;
        t.b.ok(|id| act(id, m, 1, "f4-b4")).await;
        // Every seat has now acted, so even its players may not abort; strangers still may not.
        t.a.refused(ErrorCode::Conflict, |id| ClientMessage::Abort {
            id,
            match_id: m,
            seat: 0,
        })
        .await;
        let (seq2, state2) = snapshot(&mut t.observer, m).await;
        assert_eq!(seq2, seq0 + 2, "{backend:?}");
        assert_eq!(
            state2.actions,
            vec![Some("d1-d3".to_string()), Some("f4-b4".to_string())]
        );
        assert_eq!(state2.to_act, vec![0]);
        assert_eq!(recorded_actions(addr, m).await, vec!["d1-d3", "f4-b4"]);

        // Once the match is over, strangers are still strangers and players get game_over.
        t.b.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 1,
        })
        .await;
        t.a.refused(ErrorCode::GameOver, |id| act(id, m, 0, "h1-h3"))
            .await;
        stranger
            .refused(ErrorCode::Forbidden, |id| ClientMessage::ClaimWin {
                id,
                match_id: m,
                seat: 0,
            })
            .await;
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["summary"]["result"]["reason"], "resigned");
        assert_eq!(record["summary"]["result"]["places"], json!([0, 1]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_and_the_socket_recovers() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let mut t = table(addr).await;
        let m = t.match_id;
        let (seq0, state0) = snapshot(&mut t.observer, m).await;

        // Well over the burst of 60, sent at once; then a move, which must not be played.
        let flood = 300;
        for nonce in 0..flood {
            t.a.send(&ClientMessage::Ping { nonce }).await;
        }
        let move_id = t.a.fresh_id();
        t.a.send(&act(move_id.clone(), m, 0, "d1-d3")).await;
        let (mut pongs, mut limited) = (0, 0);
        for _ in 0..flood {
            match answer(&mut t.a).await {
                ServerMessage::Pong { .. } => pongs += 1,
                ServerMessage::Error { id: None, error }
                    if error.code == ErrorCode::RateLimited =>
                {
                    limited += 1
                }
                other => panic!("{backend:?}: expected pong or rate_limited, got {other:?}"),
            }
        }
        // The burst of 60, less the hello and create_match this socket already sent.
        assert!(pongs >= 58, "{backend:?}: the burst is served ({pongs})");
        assert!(
            limited >= flood / 3,
            "{backend:?}: the flood is refused ({limited})"
        );
        assert_eq!(pongs + limited, flood);
        let refused = answer(&mut t.a).await;
        expect_error(refused, ErrorCode::RateLimited, Some(&move_id.0), "act");

        // The match did not change; another socket was not limited meanwhile.
        let (seq1, state1) = snapshot(&mut t.observer, m).await;
        assert_eq!((seq1, &state1), (seq0, &state0), "{backend:?}");
        ping_pong(&mut t.b, 1).await;

        // After a pause (30 messages a second come back), the socket is served again.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        ping_pong(&mut t.a, 2).await;
        t.a.ok(|id| act(id, m, 0, "d1-d3")).await;
        assert_eq!(recorded_actions(addr, m).await, vec!["d1-d3"]);
    }
}

// --- Tokens ----------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upgrades_with_a_token_that_is_not_live_are_unauthorized() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let dora = guest(addr).await;

        // A good token works in each of its three places (the control).
        for how in ["bearer", "cookie", "query"] {
            assert_eq!(upgrade(addr, how, &dora.token).await.0, 101, "{how}");
        }
        // No token is a visitor's socket (visitors.rs); garbage in any place is refused.
        assert_eq!(upgrade(addr, "none", "").await.0, 101, "no token");
        for how in ["bearer", "cookie", "query"] {
            for garbage in ["garbage", "0000", &"f".repeat(64), &dora.token[1..]] {
                assert_unauthorized(upgrade(addr, how, garbage).await, how);
            }
        }
        // Expired: a session row whose expiry has passed, written straight into the store.
        let store = server::store::Store::connect(&url).await.unwrap();
        let now = server::clock::now_ms();
        let (expired, hash) = server::accounts::token::new_token();
        store
            .create_session(&hash, dora.player.id, now - 60_000, now - 1_000)
            .await
            .unwrap();
        let (fresh, hash) = server::accounts::token::new_token();
        store
            .create_session(&hash, dora.player.id, now, now + 60_000)
            .await
            .unwrap();
        assert_unauthorized(upgrade(addr, "bearer", &expired).await, "expired");
        assert_unauthorized(upgrade(addr, "query", &expired).await, "expired");
        assert_eq!(upgrade(addr, "bearer", &fresh).await.0, 101, "{backend:?}");
        // An expired token cannot log out either.
        rest_error(
            http()
                .post(format!("http://{addr}/api/logout"))
                .bearer_auth(&expired),
            401,
            ErrorCode::Unauthorized,
            "logout with an expired token",
        )
        .await;

        // Revoked: logged out first.
        let response = http()
            .post(format!("http://{addr}/api/logout"))
            .bearer_auth(&dora.token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
        for how in ["bearer", "cookie", "query"] {
            assert_unauthorized(upgrade(addr, how, &dora.token).await, "revoked");
        }
        rest_error(
            http()
                .post(format!("http://{addr}/api/logout"))
                .bearer_auth(&dora.token),
            401,
            ErrorCode::Unauthorized,
            "a second logout",
        )
        .await;
        // The player's other session is untouched.
        assert_eq!(upgrade(addr, "cookie", &fresh).await.0, 101, "{backend:?}");
        assert_eq!(health(addr).await, 200);
    }
}

/// The next text frame; the server's keep-alive pings may come first.
async fn next_text(ws: &mut Socket) -> String {
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .expect("the server answered in time")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(text) = frame {
            return text.to_string();
        }
    }
}

/// Waits for the socket to be closed by the server: a close frame, or the end of the stream.
async fn closed(ws: &mut Socket) -> bool {
    loop {
        match tokio::time::timeout(PATIENCE, ws.next()).await {
            Err(_) => return false,
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
            Ok(Some(Ok(Message::Text(text)))) => panic!("after the revocation: {text}"),
            Ok(Some(Ok(_))) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_of_a_revoked_session_are_told_and_closed() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let erik = guest(addr).await;
        // A second session of the same player (as from a second login), made in the store.
        let store = server::store::Store::connect(&url).await.unwrap();
        let (other, hash) = server::accounts::token::new_token();
        let now = server::clock::now_ms();
        store
            .create_session(&hash, erik.player.id, now, now + 60_000)
            .await
            .unwrap();

        let mut first = connect_socket(addr, &erik.token).await;
        let mut second = connect_socket(addr, &erik.token).await;
        for ws in [&mut first, &mut second] {
            ws.send(Message::Text(r#"{"type":"hello","version":1}"#.into()))
                .await
                .unwrap();
            let welcome = next_text(ws).await;
            assert!(welcome.contains("welcome"), "{welcome}");
        }
        let mut kept = Client::connect(addr, &other).await;

        let response = http()
            .post(format!("http://{addr}/api/logout"))
            .bearer_auth(&erik.token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
        for ws in [&mut first, &mut second] {
            let text = next_text(ws).await;
            let message: ServerMessage = serde_json::from_str(&text).unwrap();
            expect_error(message, ErrorCode::Unauthorized, None, "revoked");
            assert!(closed(ws).await, "{backend:?}: the socket is closed");
        }
        // The same player's other session keeps its socket.
        ping_pong(&mut kept, 3).await;
        kept.ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await;
    }
}

// --- REST ------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_refuses_bad_bodies_names_and_ids() {
    for backend in BACKENDS {
        // Dozens of registrations from one address: no limit on them here (tests/limits.rs
        // tests it).
        let addr = start(
            &fresh_database(backend).await,
            &["--registrations-per-minute", "0"],
        )
        .await;
        let alice = register(addr, "Alice").await;
        let register_url = format!("http://{addr}/api/register");
        let raw = |body: String| {
            http()
                .post(&register_url)
                .header("content-type", "application/json")
                .body(body)
        };

        // Bodies that are not JSON, or not an object.
        for body in ["", "{", r#"{"username": "zed""#, "username=zed", "{'a':1}"] {
            rest_error(raw(body.into()), 400, ErrorCode::Malformed, body).await;
        }
        for body in ["[]", "null", "42", r#""zed""#] {
            rest_error(raw(body.into()), 400, ErrorCode::Malformed, body).await;
        }
        // Missing, unknown and mistyped fields.
        for body in [
            json!({"username": "zed"}),
            json!({"password": "correct horse battery"}),
            json!({"username": "zed", "password": "correct horse battery", "admin": true}),
            json!({"username": 7, "password": "correct horse battery"}),
            json!({"username": "zed", "password": null}),
        ] {
            rest_error(
                http().post(&register_url).json(&body),
                400,
                ErrorCode::BadRequest,
                &body.to_string(),
            )
            .await;
        }
        // Larger than the 16 KiB the server accepts.
        let huge = json!({"username": "zed", "password": "p".repeat(20 * 1024)});
        rest_error(
            http().post(&register_url).json(&huge),
            413,
            ErrorCode::TooLarge,
            "huge body",
        )
        .await;
        let huge_login = json!({"username": "zed", "password": "p".repeat(20 * 1024)});
        rest_error(
            http()
                .post(format!("http://{addr}/api/login"))
                .json(&huge_login),
            413,
            ErrorCode::TooLarge,
            "huge login",
        )
        .await;

        // Usernames: 3 to 24 letters, digits, '_' or '-', starting with a letter.
        let too_long = "a".repeat(25);
        for name in [
            "",
            "ab",
            &too_long,
            "has space",
            "bad!name",
            "ünïcode",
            "1abc",
            "_abc",
            "-abc",
            "a.b.c",
            "tab\tname",
            "semi;colon",
            "émile",
            "ab\u{0}c",
        ] {
            let body = json!({"username": name, "password": "correct horse battery"});
            rest_error(
                http().post(&register_url).json(&body),
                400,
                ErrorCode::BadRequest,
                &format!("username {name:?}"),
            )
            .await;
        }
        // Taken, in any case.
        let body = json!({"username": "aLiCE", "password": "another password"});
        rest_error(
            http().post(&register_url).json(&body),
            409,
            ErrorCode::Conflict,
            "aLiCE",
        )
        .await;
        // Passwords: 8 to 256 characters.
        for password in ["", "short", "7chars!", &"p".repeat(257)] {
            let body = json!({"username": "zed", "password": password});
            rest_error(
                http().post(&register_url).json(&body),
                400,
                ErrorCode::BadRequest,
                &format!("password of {}", password.len()),
            )
            .await;
        }
        // Wrong credentials.
        let login_url = format!("http://{addr}/api/login");
        for body in [
            // The refused registrations above did not change Alice's password.
            json!({"username": "Alice", "password": "another password"}),
            json!({"username": "nobody", "password": "correct horse battery"}),
            json!({"username": "", "password": ""}),
            json!({"username": "zed", "password": "correct horse battery"}),
        ] {
            rest_error(
                http().post(&login_url).json(&body),
                401,
                ErrorCode::Unauthorized,
                &body.to_string(),
            )
            .await;
        }
        rest_error(
            http().post(&login_url).json(&json!({"username": "Alice"})),
            400,
            ErrorCode::BadRequest,
            "login without a password",
        )
        .await;
        // Logging out needs a live session.
        rest_error(
            http().post(format!("http://{addr}/api/logout")),
            401,
            ErrorCode::Unauthorized,
            "logout without a token",
        )
        .await;
        rest_error(
            http()
                .post(format!("http://{addr}/api/logout"))
                .bearer_auth("garbage"),
            401,
            ErrorCode::Unauthorized,
            "logout with garbage",
        )
        .await;

        // Unknown players, matches and pools.
        for path in [
            "/api/players/999999",
            "/api/players/999999/matches",
            "/api/players/0",
            "/api/players/-5",
            "/api/players/abc",
            "/api/players/abc/matches",
            "/api/players/99999999999999999999",
            "/api/matches/999999",
            "/api/matches/0",
            "/api/matches/abc",
            "/api/leaderboard/chess/standard",
            "/api/leaderboard/tafl/nope",
        ] {
            rest_error(
                http().get(format!("http://{addr}{path}")),
                404,
                ErrorCode::NotFound,
                path,
            )
            .await;
        }

        // A page that is not a number.
        for query in ["page=abc", "per_page=-1", "page=99999999999"] {
            rest_error(
                http().get(format!(
                    "http://{addr}/api/leaderboard/tafl/copenhagen?{query}"
                )),
                400,
                ErrorCode::BadRequest,
                query,
            )
            .await;
        }
        let board = get(addr, "/api/leaderboard/tafl/copenhagen?page=2&per_page=1").await;
        assert_eq!(board["entries"], json!([]));

        // Nothing of that changed anything: Alice keeps her password (and no refused name
        // exists: logging in as zed failed above).
        let ok = post(
            addr,
            "/api/login",
            json!({"username": "alice", "password": "correct horse battery"}),
        )
        .await;
        assert_eq!(ok.status(), 200, "{backend:?}");
        let session: protocol::Session = ok.json().await.unwrap();
        assert_eq!(session.player.id, alice.player.id);
        assert_eq!(session.player.name, "Alice");
        // The boundaries are accepted (the control for the refusals above).
        let longest = format!("z_9-{}", "b".repeat(20));
        for (name, password) in [("abc", "12345678".to_string()), (&longest, "p".repeat(256))] {
            let body = json!({"username": name, "password": password});
            let response = post(addr, "/api/register", body).await;
            assert_eq!(response.status(), 200, "{backend:?} {name}");
        }
        assert_eq!(health(addr).await, 200);
    }
}

// --- Fuzz ------------------------------------------------------------------------------------

/// SplitMix64: small, seeded, and the same everywhere, so a failing run can be replayed with
/// `FUZZ_SEED=<seed>`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// A placeholder for a number JSON can write but `serde_json::Value` cannot hold.
const HUGE: &str = "\u{1}huge\u{1}";

const TYPES: [&str; 12] = [
    "hello",
    "create_match",
    "join_match",
    "watch",
    "unwatch",
    "act",
    "resign",
    "offer_draw",
    "answer_draw",
    "abort",
    "claim_win",
    "ping",
];

struct Fuzzer {
    rng: Rng,
    /// Matches worth aiming at: the legal game, the fuzzer's own, someone's open one, and ids
    /// that do not exist.
    matches: Vec<i64>,
    invites: Vec<String>,
}

impl Fuzzer {
    fn string(&mut self) -> String {
        let rng = &mut self.rng;
        match rng.below(6) {
            0 => String::new(),
            1 => rng.pick(&TYPES).to_string(),
            2 => rng
                .pick(&[
                    "tafl",
                    "copenhagen",
                    "brandubh",
                    "fox-geese",
                    "hanoi",
                    "tron",
                    "driller",
                    "tower-race",
                    "basic",
                    "standard",
                    "open",
                    "private",
                ])
                .to_string(),
            3 => "\u{fffd}é☃𝄞\"\\/\n\t"
                .chars()
                .cycle()
                .skip(rng.below(9) as usize)
                .take(rng.below(12) as usize)
                .collect(),
            4 => "x".repeat(rng.below(200) as usize),
            _ => {
                let n = rng.below(16);
                (0..n)
                    .map(|_| (b'a' + rng.below(26) as u8) as char)
                    .collect()
            }
        }
    }

    /// Any text at all: a mix of printable ASCII, JSON punctuation, controls and other scripts.
    fn text(&mut self) -> String {
        let n = self.rng.below(120);
        (0..n)
            .map(|_| match self.rng.below(10) {
                0..=4 => (0x20 + self.rng.below(95) as u8) as char,
                5 => *self.rng.pick(&['{', '}', '[', ']', '"', ':', ',', '\\']),
                6 => (self.rng.below(32) as u8) as char,
                _ => char::from_u32(self.rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'),
            })
            .collect()
    }

    fn number(&mut self) -> Value {
        match self.rng.below(10) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(u64::MAX),
            3 => json!(i64::MIN),
            4 => json!(i64::MAX),
            5 => json!(1.5),
            6 => json!(-1e300),
            7 => json!(HUGE),
            8 => json!(self.rng.below(300)),
            _ => json!(self.rng.next() as i64),
        }
    }

    fn json(&mut self, depth: u32) -> Value {
        let choice = if depth >= 4 {
            self.rng.below(4)
        } else {
            self.rng.below(6)
        };
        match choice {
            0 => Value::Null,
            1 => json!(self.rng.percent(50)),
            2 => self.number(),
            3 => json!(self.string()),
            4 => Value::Array(
                (0..self.rng.below(5))
                    .map(|_| self.json(depth + 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..self.rng.below(5))
                    .map(|_| (self.string(), self.json(depth + 1)))
                    .collect(),
            ),
        }
    }

    fn match_id(&mut self) -> Value {
        if self.rng.percent(85) {
            json!(*self.rng.pick(&self.matches))
        } else {
            self.number()
        }
    }

    fn seat(&mut self) -> Value {
        match self.rng.below(10) {
            0..=3 => json!(0),
            4..=6 => json!(1),
            7 => json!(self.rng.below(8)),
            8 => json!(255),
            _ => self.number(),
        }
    }

    /// Actions in many notations, mostly near misses.
    fn action(&mut self) -> String {
        let square =
            |rng: &mut Rng| format!("{}{}", (b'a' + rng.below(14) as u8) as char, rng.below(14));
        if self.rng.percent(20) {
            return self.string();
        }
        let rng = &mut self.rng;
        match rng.below(6) {
            0..=2 => format!("{}-{}", square(rng), square(rng)),
            3 => format!("{}-{}x{}", square(rng), square(rng), square(rng)),
            4 => (0..rng.below(6))
                .map(|_| *rng.pick(&['U', 'D', 'L', 'R', 'u', 'x']))
                .collect(),
            _ => rng
                .pick(&[
                    "pass",
                    "roll",
                    "split 1 2",
                    "accept",
                    "refuse",
                    "dash",
                    "retract",
                    "1",
                    "0-0",
                    "-",
                    "a1-",
                    "-a1",
                    "a1--a2",
                ])
                .to_string(),
        }
    }

    /// A valid message of a random type, aimed at random matches and seats.
    fn valid(&mut self, id: &str) -> Value {
        let m = self.match_id();
        let seat = self.seat();
        match self.rng.below(14) {
            0 => json!({"type": "hello", "version": 1}),
            1 => json!({"type": "ping", "nonce": self.rng.next()}),
            2 => {
                let (game, variant) = *self.rng.pick(&[
                    ("tafl", "copenhagen"),
                    ("tafl", "brandubh"),
                    ("fox-geese", "hala-tafl"),
                    ("hanoi", "standard"),
                    ("tron", "standard"),
                    ("driller", "standard"),
                    ("tower-race", "basic"),
                ]);
                let mut body =
                    json!({"type": "create_match", "id": id, "game": game, "variant": variant});
                let extras = [
                    ("hotseat", json!(true)),
                    ("visibility", json!("private")),
                    ("seat", json!(self.rng.below(3))),
                    ("seats", json!(self.rng.below(9))),
                    (
                        "clock",
                        json!({"base_ms": self.rng.below(100_000_000), "increment_ms": self.rng.below(5000)}),
                    ),
                    ("rated", json!(self.rng.percent(50))),
                ];
                for (key, value) in extras {
                    if self.rng.percent(30) {
                        body[key] = value;
                    }
                }
                body
            }
            3 => {
                if self.rng.percent(50) {
                    let invite = self.rng.pick(&self.invites).clone();
                    json!({"type": "join_match", "id": id, "invite": invite})
                } else {
                    json!({"type": "join_match", "id": id, "match_id": m, "seat": seat})
                }
            }
            4 => json!({"type": "watch", "id": id, "match_id": m, "since": self.rng.below(12)}),
            5 => json!({"type": "unwatch", "id": id, "match_id": m}),
            6..=9 => {
                let action = self.action();
                json!({"type": "act", "id": id, "match_id": m, "seat": seat, "action": action})
            }
            10 => json!({"type": "offer_draw", "id": id, "match_id": m, "seat": seat}),
            11 => {
                json!({"type": "answer_draw", "id": id, "match_id": m, "seat": seat, "accept": self.rng.percent(50)})
            }
            12 => {
                let kind = *self.rng.pick(&["resign", "abort", "claim_win"]);
                json!({"type": kind, "id": id, "match_id": m, "seat": seat})
            }
            _ => json!({"type": "watch", "id": id, "match_id": m}),
        }
    }

    /// A valid message with one to three of its fields broken.
    fn mutated(&mut self, id: &str) -> Value {
        let mut message = self.valid(id);
        let object = message.as_object_mut().unwrap();
        for _ in 0..1 + self.rng.below(3) {
            let keys: Vec<String> = object.keys().cloned().collect();
            let key = self.rng.pick(&keys).clone();
            match self.rng.below(7) {
                0 => {
                    object.remove(&key);
                }
                1 => {
                    let value = self.json(2);
                    object.insert(format!("{}{}", self.string(), self.rng.below(10)), value);
                }
                2 => {
                    let value = self.json(1);
                    object.insert(key, value);
                }
                3 => {
                    let value = self.number();
                    object.insert(key, value);
                }
                4 => {
                    let kind = self.rng.pick(&TYPES).to_string();
                    object.insert("type".into(), json!(kind));
                }
                5 => {
                    let value = if self.rng.percent(70) {
                        json!(self.string())
                    } else {
                        self.json(2)
                    };
                    object.insert("id".into(), value);
                }
                _ => {
                    let value = json!(self.string());
                    object.insert(key, value);
                }
            }
            if object.is_empty() {
                break;
            }
        }
        message
    }

    fn nested(&mut self) -> String {
        let depth = 50 + self.rng.below(3000) as usize;
        match self.rng.below(3) {
            0 => format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
            1 => format!(
                r#"{{"type":"ping","nonce":{}1{}}}"#,
                r#"{"a":"#.repeat(depth),
                "}".repeat(depth)
            ),
            _ => format!(
                "{}{}",
                r#"{"type":"act","x":"#.repeat(depth),
                "}".repeat(depth)
            ),
        }
    }

    /// The `n`th frame: its text (or bytes, for a binary frame).
    fn frame(&mut self, n: usize) -> Message {
        let id = format!("f{n}");
        let text = match self.rng.below(100) {
            0..=8 => self.text(),
            9..=13 => {
                let full = self.valid(&id).to_string();
                let cut = self.rng.below(full.len() as u64 + 1) as usize;
                full.chars().take(cut).collect()
            }
            14..=18 => self.json(0).to_string(),
            19..=23 => {
                // A message's values as an array, the type first: serde could read that.
                let mut message = self.valid(&id);
                let object = message.as_object_mut().unwrap();
                let kind = object.remove("type").unwrap();
                let mut values: Vec<Value> = vec![kind];
                values.extend(object.values().cloned());
                Value::Array(values).to_string()
            }
            24..=43 => self.valid(&id).to_string(),
            44..=69 => self.mutated(&id).to_string(),
            70..=77 => {
                let mut object = serde_json::Map::new();
                object.insert("type".into(), json!(self.string()));
                if self.rng.percent(70) {
                    object.insert("id".into(), json!(id));
                }
                for _ in 0..self.rng.below(4) {
                    object.insert(self.string(), self.json(2));
                }
                Value::Object(object).to_string()
            }
            78..=81 => {
                let mut message = self.valid(&id);
                let keys: Vec<String> = message.as_object().unwrap().keys().cloned().collect();
                let key = self.rng.pick(&keys).clone();
                if key != "type" {
                    message[key.as_str()] = json!(HUGE);
                }
                message.to_string()
            }
            82..=84 => self.nested(),
            85..=87 => {
                let bytes: Vec<u8> = if self.rng.percent(50) {
                    self.valid(&id).to_string().into_bytes()
                } else {
                    (0..self.rng.below(64))
                        .map(|_| self.rng.next() as u8)
                        .collect()
                };
                return Message::Binary(bytes.into());
            }
            88 => {
                let size = 64 * 1024 + 1 + self.rng.below(100_000) as usize;
                format!(
                    r#"{{"type":"ping","nonce":1,"pad":"{}"}}"#,
                    "p".repeat(size)
                )
            }
            _ => json!({"type": "ping", "nonce": self.rng.next()}).to_string(),
        };
        let huge = *self.rng.pick(&[
            "18446744073709551616",
            "-9223372036854775809",
            "1e400",
            "123456789012345678901234567890",
            "-0",
            "0.0000000000000000000000001",
        ]);
        Message::Text(text.replace(&json!(HUGE).to_string(), huge).into())
    }
}

/// The string `id` of a frame, if it has one the server could echo.
fn frame_id(message: &Message) -> Option<String> {
    let Message::Text(text) = message else {
        return None;
    };
    let value: Value = serde_json::from_str(text.as_str()).ok()?;
    value.get("id")?.as_str().map(str::to_string)
}

/// What the fuzzed socket received: every answer, in order.
#[derive(Default)]
struct Heard {
    answers: usize,
    ids: HashMap<String, usize>,
    internal: Vec<String>,
    other_frames: usize,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_random_frames_change_nothing_they_should_not() {
    let base_seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7af1_2026);
    for (b, backend) in BACKENDS.into_iter().enumerate() {
        let seed = base_seed.wrapping_add(b as u64);
        let began = Instant::now();
        // No rate limit for the fuzzer: every frame is to be parsed and answered.
        let addr = start(&fresh_database(backend).await, &UNLIMITED).await;
        let mut t = table(addr).await;
        let fuzzer_session = guest(addr).await;
        let carl = guest(addr).await;

        // The fuzzer's own matches (every seat its own, so random actions reach every game's
        // rules), a private one's invite, and someone else's open match.
        let mut own = Client::connect(addr, &fuzzer_session.token).await;
        let mut matches = vec![t.match_id.0, 0, -1, i64::MAX, t.match_id.0 + 10_000];
        let mut invites = vec!["nope".to_string(), String::new()];
        for (game, variant, seats) in [
            ("tafl", "copenhagen", 2),
            ("tafl", "brandubh", 2),
            ("fox-geese", "hala-tafl", 2),
            ("hanoi", "standard", 3),
            ("tower-race", "basic", 4),
            ("tron", "standard", 3),
            ("driller", "standard", 2),
        ] {
            let ack = own
                .ok(|id| create(id, game, variant, json!({"hotseat": true, "seats": seats})))
                .await;
            matches.push(ack.match_id.unwrap().0);
        }
        let private = own
            .ok(|id| create(id, "tafl", "brandubh", json!({"visibility": "private"})))
            .await;
        matches.push(private.match_id.unwrap().0);
        invites.push(private.invite.unwrap());
        own.close().await;
        let mut carl_socket = Client::connect(addr, &carl.token).await;
        let open = carl_socket
            .ok(|id| create(id, "tafl", "copenhagen", json!({})))
            .await;
        matches.push(open.match_id.unwrap().0);

        let mut fuzzer = Fuzzer {
            rng: Rng(seed),
            matches,
            invites,
        };
        let ws = connect_socket(addr, &fuzzer_session.token).await;
        let (mut sink, mut stream) = ws.split();
        const LAST: u64 = 0xfeed_face_cafe_f00d;
        let reader = tokio::spawn(async move {
            let mut heard = Heard::default();
            loop {
                let frame = tokio::time::timeout(PATIENCE, stream.next())
                    .await
                    .expect("the fuzzed socket keeps answering")
                    .expect("the fuzzed socket stays open")
                    .expect("a frame");
                let text = match frame {
                    Message::Text(text) => text,
                    Message::Close(close) => panic!("the server closed the socket: {close:?}"),
                    _ => continue,
                };
                let message: ServerMessage = serde_json::from_str(text.as_str())
                    .unwrap_or_else(|e| panic!("not a server message ({e}): {text}"));
                match message {
                    ServerMessage::Welcome { .. } => heard.answers += 1,
                    ServerMessage::Pong { nonce } => {
                        heard.answers += 1;
                        if nonce == LAST {
                            return heard;
                        }
                    }
                    ServerMessage::Ack { id, .. } => {
                        heard.answers += 1;
                        *heard.ids.entry(id.0).or_default() += 1;
                    }
                    ServerMessage::Error { id, error } => {
                        heard.answers += 1;
                        if let Some(id) = id {
                            *heard.ids.entry(id.0).or_default() += 1;
                        }
                        if error.code == ErrorCode::Internal {
                            heard.internal.push(error.message);
                        }
                    }
                    // Events and snapshots of the matches the fuzzer follows.
                    _ => heard.other_frames += 1,
                }
            }
        });

        sink.send(Message::Text(r#"{"type":"hello","version":1}"#.into()))
            .await
            .unwrap();
        let (moves, _) = short_copenhagen_game();
        // FUZZ_FRAMES=<n> throws more (or fewer) frames, for a longer hunt.
        let frames: usize = std::env::var("FUZZ_FRAMES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3_000);
        let every = (frames / moves.len().min(40)).max(1);
        let mut played = Vec::new();
        let mut sent_ids: HashMap<String, usize> = HashMap::new();
        for n in 0..frames {
            let frame = fuzzer.frame(n);
            if let Some(id) = frame_id(&frame) {
                *sent_ids.entry(id).or_default() += 1;
            }
            sink.send(frame).await.unwrap();
            // The legal game goes on beside the fuzz, a move every so often.
            if n % every == every - 1 && played.len() < moves.len().min(40) {
                let i = played.len();
                let mv = moves[i].split('x').next().unwrap().to_string();
                let (mover, seat) = if i % 2 == 0 {
                    (&mut t.a, 0)
                } else {
                    (&mut t.b, 1)
                };
                mover.ok(|id| act(id, t.match_id, seat, &mv)).await;
                played.push(mv);
            }
        }
        sink.send(Message::Text(
            format!(r#"{{"type":"ping","nonce":{LAST}}}"#).into(),
        ))
        .await
        .unwrap();
        let heard = reader.await.unwrap();

        let context = format!("{backend:?}, FUZZ_SEED={base_seed}");
        // One answer per frame: the hello, every fuzzed frame, and the last ping.
        assert_eq!(heard.answers, frames + 2, "{context}");
        for (id, count) in &heard.ids {
            let sent = sent_ids.get(id).copied().unwrap_or(0);
            assert!(
                *count <= sent,
                "{context}: {count} answers for id {id:?}, sent {sent} times"
            );
        }
        assert!(heard.internal.is_empty(), "{context}: {:?}", heard.internal);
        // The legal match holds exactly the legal moves.
        assert!(!played.is_empty());
        assert_eq!(
            recorded_actions(addr, t.match_id).await,
            played,
            "{context}"
        );
        let (_, state) = snapshot(&mut t.observer, t.match_id).await;
        let expected: Vec<Option<String>> = played.iter().cloned().map(Some).collect();
        assert_eq!(state.actions, expected, "{context}");
        // The fuzzed socket and the server still serve.
        let mut after = Client::connect(addr, &fuzzer_session.token).await;
        ping_pong(&mut after, 1).await;
        assert_eq!(health(addr).await, 200, "{context}");
        if played.len() < moves.len() {
            let i = played.len();
            let mv = moves[i].split('x').next().unwrap();
            let (mover, seat) = if i % 2 == 0 {
                (&mut t.a, 0)
            } else {
                (&mut t.b, 1)
            };
            mover.ok(|id| act(id, t.match_id, seat, mv)).await;
        }
        eprintln!(
            "{context}: {frames} frames, {} events and snapshots, {:?}",
            heard.other_frames,
            began.elapsed()
        );
    }
}

/// A `legal` message with a bad field is a known message badly written, as for every other type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_legal_is_a_bad_request() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    let mut c = Client::connect(addr, &guest(addr).await.token).await;
    c.send_text(r#"{"type": "legal", "id": "l1", "match_id": "four", "seat": 0}"#)
        .await;
    match c.answer(&protocol::CommandId("l1".into())).await {
        ServerMessage::Error { error, .. } => assert_eq!(error.code, ErrorCode::BadRequest),
        other => panic!("{other:?}"),
    }
}
