//! Rooms nobody follows leave memory: the room of an unfinished match with no clock running,
//! whose players have all gone, sleeps after `--room-sleep-secs`, and the next command for the
//! match wakes it from the store where it was: a watch or a move. A match whose clock runs stays
//! awake, so that its flag falls on time. Counted with the `tafl_match_rooms` gauge, which is one
//! per process: this binary holds one test. Both storage backends.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{
    BACKENDS, Client, act, copenhagen_match, fresh_database, get_text, short_copenhagen_game,
    start, two_guests, watch,
};
use protocol::{MatchId, ServerMessage};
use serde_json::json;

/// The rooms in the server's memory, as its metrics count them.
async fn rooms(addr: SocketAddr) -> f64 {
    get_text(addr, "/metrics")
        .await
        .lines()
        .find_map(|line| line.strip_prefix("tafl_match_rooms "))
        .expect("the room gauge is exported")
        .parse()
        .unwrap()
}

async fn until_rooms(addr: SocketAddr, wanted: f64, what: &str) {
    let give_up = tokio::time::Instant::now() + common::PATIENCE;
    while rooms(addr).await != wanted {
        assert!(
            tokio::time::Instant::now() < give_up,
            "waited too long for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The actions a new watcher of the match is shown.
async fn actions_seen(client: &mut Client, match_id: MatchId) -> Vec<Option<String>> {
    client.ok(|id| watch(id, match_id, None)).await;
    match client.next_of(match_id).await {
        ServerMessage::Snapshot { snapshot, .. } => snapshot.actions,
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

/// Moves as the match records them: without the captures the corpus notes.
fn recorded(moves: &[String]) -> Vec<Option<String>> {
    moves
        .iter()
        .map(|m| m.split('x').next().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn a_room_nobody_follows_sleeps_and_wakes_where_it_was() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--room-sleep-secs", "1"]).await;
        let before = rooms(addr).await;
        let (alice, bjorn, mut a, mut b) = two_guests(addr).await;
        let casual = copenhagen_match(&mut a, &mut b, json!({})).await;
        let clock = json!({"base_ms": 600_000, "increment_ms": 0});
        let clocked = copenhagen_match(&mut a, &mut b, json!({"clock": clock})).await;
        let (moves, _) = short_copenhagen_game();
        for m in [casual, clocked] {
            a.ok(|id| act(id, m, 0, &moves[0])).await;
            b.ok(|id| act(id, m, 1, &moves[1])).await;
        }
        until_rooms(addr, before + 2.0, "both rooms").await;

        a.close().await;
        b.close().await;
        until_rooms(addr, before + 1.0, "the casual room to sleep").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            rooms(addr).await,
            before + 1.0,
            "{backend:?}: the room whose clock runs stays awake"
        );

        // A watch wakes it, with every move so far, and play goes on from there.
        let mut a = Client::connect(addr, &alice.token).await;
        assert_eq!(actions_seen(&mut a, casual).await, recorded(&moves[..2]));
        assert_eq!(rooms(addr).await, before + 2.0, "{backend:?}: awake again");
        a.ok(|id| act(id, casual, 0, &moves[2])).await;

        // So does a move from a player who does not follow the match.
        a.close().await;
        until_rooms(addr, before + 1.0, "the casual room to sleep again").await;
        let mut b = Client::connect(addr, &bjorn.token).await;
        b.ok(|id| act(id, casual, 1, &moves[3])).await;
        let mut a = Client::connect(addr, &alice.token).await;
        assert_eq!(
            actions_seen(&mut a, casual).await,
            recorded(&moves[..4]),
            "{backend:?}"
        );
        a.ok(|id| act(id, casual, 0, &moves[4])).await;

        // The gauge is the process's: what this server keeps is counted in the next `before`.
        a.close().await;
        b.close().await;
        until_rooms(addr, before + 1.0, "the casual room to sleep at the end").await;
    }
}
