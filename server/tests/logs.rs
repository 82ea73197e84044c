//! Structured logs: the real server binary with JSON logs. A line a match room logs carries the
//! match id; a line about an HTTP request carries its request id, which the response echoes in
//! `x-request-id`; a line a socket logs carries its connection and player.

mod common;

use common::process::ServerProcess;
use common::{Backend, copenhagen_match, fresh_database, http, two_guests};
use protocol::ClientMessage;
use serde_json::{Value, json};

/// Every JSON line the server has written.
fn lines(server: &ServerProcess) -> Vec<Value> {
    server
        .output()
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line: {line}: {e}"))
        })
        .collect()
}

/// The lines with this message.
fn saying<'a>(lines: &'a [Value], message: &str) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|l| l["fields"]["message"] == message)
        .collect()
}

/// A field of any span a line was logged in.
fn span_field<'a>(line: &'a Value, field: &str) -> Option<&'a Value> {
    line["spans"]
        .as_array()?
        .iter()
        .find_map(|span| span.get(field))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_log_lines_carry_match_request_and_connection_ids() {
    let url = fresh_database(Backend::Sqlite).await;
    let args = ["--log-format", "json", "--log", "info,server=debug"];
    let server = ServerProcess::start_with(&url, &args).await;
    let addr = server.addr;

    // A request id chosen by a proxy is kept; one is made up when there is none.
    let given = http()
        .get(format!("http://{addr}/api/health"))
        .header("x-request-id", "proxy-7f3a")
        .send()
        .await
        .unwrap();
    assert_eq!(given.headers()["x-request-id"], "proxy-7f3a");
    let made = http()
        .get(format!("http://{addr}/api/health"))
        .send()
        .await
        .unwrap();
    let made = made.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(made.len(), 16, "{made}");
    assert!(made.chars().all(|c| c.is_ascii_hexdigit()), "{made}");
    let bad = http()
        .get(format!("http://{addr}/api/health"))
        .header("x-request-id", "two words")
        .send()
        .await
        .unwrap();
    assert_ne!(bad.headers()["x-request-id"], "two words");

    let (alice, _, mut a, mut b) = two_guests(addr).await;
    let match_id = copenhagen_match(&mut a, &mut b, json!({})).await;
    // Both sides move: a match resigned before that is called off, not finished.
    a.ok(|id| common::act(id, match_id, 0, "d1-d3")).await;
    b.ok(|id| common::act(id, match_id, 1, "f4-c4")).await;
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id,
        seat: 0,
    })
    .await;
    a.close().await;
    b.close().await;
    server.terminate();
    let mut server = server;
    server
        .exit_within(common::PATIENCE)
        .await
        .expect("the server stops");

    let lines = lines(&server);
    for message in ["match live", "match finished"] {
        let about = saying(&lines, message);
        assert_eq!(about.len(), 1, "{message}: {about:?}");
        assert_eq!(
            span_field(about[0], "match_id"),
            Some(&json!(match_id.0)),
            "{}",
            about[0]
        );
    }

    let served = saying(&lines, "served");
    for id in ["proxy-7f3a", made.as_str()] {
        assert!(
            served
                .iter()
                .any(|l| span_field(l, "request_id") == Some(&json!(id))),
            "no line about request {id}: {served:?}"
        );
    }

    let opened = saying(&lines, "socket open");
    let alice_socket = opened
        .iter()
        .find(|l| span_field(l, "player") == Some(&json!(alice.player.id.0)))
        .unwrap_or_else(|| panic!("no line about alice's socket: {opened:?}"));
    assert!(span_field(alice_socket, "conn").is_some(), "{alice_socket}");
    assert!(
        span_field(alice_socket, "request_id").is_some(),
        "the upgrade's request id: {alice_socket}"
    );
}
