//! A finished match's record as a file to download, over real HTTP: tafl's OpenTafl record, the
//! action log (one action a line, with its seat) for a game without a record format, private
//! matches only for their players and holders of their code, and nothing before the end.

mod common;

use std::net::SocketAddr;

use common::{Backend, Client, act, create, fresh_database, header, http, register, start};
use protocol::{ClientMessage, MatchEvent, MatchId};
use serde_json::{Value, json};

async fn download(addr: SocketAddr, path: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = http().get(format!("http://{addr}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

async fn finished(c: &mut Client, m: MatchId) {
    c.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tafl_match_downloads_as_its_opentafl_record() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (_, _, mut a, mut b) = common::two_players(addr).await;
    let m = common::copenhagen_match(&mut a, &mut b, json!({})).await;
    let path = format!("/api/matches/{}/record", m.0);

    // Not before the end.
    let early = download(addr, &path, None).await;
    assert_eq!(early.status(), 409);
    let error: Value = early.json().await.unwrap();
    assert_eq!(error["code"], "conflict");
    assert!(
        error["message"].as_str().unwrap().contains("not over"),
        "{error}"
    );

    let (line, _) = common::short_copenhagen_game();
    for (i, mv) in line.iter().enumerate() {
        let (player, seat) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
        let plain = mv.split('x').next().unwrap();
        player.ok(|id| act(id, m, seat, plain)).await;
    }
    finished(&mut a, m).await;

    let file = download(addr, &path, None).await;
    assert_eq!(file.status(), 200);
    assert_eq!(header(&file, "content-type"), "text/plain; charset=utf-8");
    assert_eq!(
        header(&file, "content-disposition"),
        format!("attachment; filename=\"match-{}.opentafl.txt\"", m.0)
    );
    let text = file.text().await.unwrap();
    // The same record as the match's JSON carries.
    let record = common::get(addr, &format!("/api/matches/{}", m.0)).await;
    assert_eq!(record["record"]["format"], "opentafl");
    assert_eq!(text, record["record"]["text"].as_str().unwrap());
    assert!(text.starts_with("[variant:copenhagen]\n"), "{text}");
    assert!(text.contains(&format!("1. {} ", line[0])), "{text}");

    for nothing in ["999999", "x"] {
        let none = download(addr, &format!("/api/matches/{nothing}/record"), None).await;
        assert_eq!(none.status(), 404, "{nothing}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_record_format_downloads_its_actions_with_their_seats() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let host = register(addr, "host").await;
    let other = register(addr, "other").await;
    let mut h = Client::connect(addr, &host.token).await;
    // A private hot-seat Fox and Geese match: two actions, then the fox resigns.
    let created = h
        .ok(|id| {
            create(
                id,
                "fox-geese",
                "hala-tafl",
                json!({"hotseat": true, "visibility": "private"}),
            )
        })
        .await;
    let m = created.match_id.unwrap();
    let invite = created.invite.expect("an invite code");
    let mut played = Vec::new();
    for seat in [0, 1] {
        let legal = h
            .ok(|id| ClientMessage::Legal {
                id,
                match_id: m,
                seat,
            })
            .await;
        let action = legal.actions.unwrap()[0].clone();
        h.ok(|id| act(id, m, seat, &action)).await;
        played.push(action);
    }
    h.ok(|id| ClientMessage::Resign {
        id,
        match_id: m,
        seat: 1,
    })
    .await;
    finished(&mut h, m).await;

    let path = format!("/api/matches/{}/record", m.0);
    let file = download(addr, &path, Some(&host.token)).await;
    assert_eq!(file.status(), 200);
    assert_eq!(
        header(&file, "content-disposition"),
        format!("attachment; filename=\"match-{}.actions.txt\"", m.0)
    );
    assert_eq!(
        file.text().await.unwrap(),
        format!("geese: {}\nfox: {}\n", played[0], played[1])
    );
    // Private: not for another player or a visitor, unless they hold the code.
    for token in [Some(other.token.as_str()), None] {
        assert_eq!(download(addr, &path, token).await.status(), 404);
    }
    let with_code = download(addr, &format!("{path}?invite={invite}"), None).await;
    assert_eq!(with_code.status(), 200);
}

/// The match's JSON record carries the game's record as `record` and, for version 1's clients,
/// its deprecated `opentafl` text beside it: the same text, stored matches on both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tafl_record_carries_the_deprecated_opentafl_text_beside_record() {
    for backend in common::BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = common::two_players(addr).await;
        let m = common::copenhagen_match(&mut a, &mut b, json!({})).await;
        a.ok(|id| act(id, m, 0, "d1-d3")).await;
        b.ok(|id| act(id, m, 1, "f4-c4")).await;
        let record = common::get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["record"]["format"], "opentafl", "{backend:?}");
        let text = record["record"]["text"].as_str().unwrap();
        assert!(text.contains("1. d1-d3 f4-c4"), "{backend:?}: {text}");
        assert_eq!(record["opentafl"], record["record"]["text"], "{backend:?}");
        // A version-1 client reads it where it always did.
        let v1: protocol::MatchRecord = serde_json::from_value(record.clone()).unwrap();
        assert_eq!(v1.opentafl.as_deref(), Some(text), "{backend:?}");
    }
}
