//! Exactly-once commands: an action is stored with the id of the command that sent it, so a
//! client that lost the ack (the server was killed between storing the action and sending the
//! ack) and sends the same command again after a restart gets the original ack, and nothing is
//! applied twice. Shown in Hanoi, where the mover acts several times in a row (a split), so that
//! the same action sent twice would be legal twice.

mod common;

use std::time::Duration;

use common::process::ServerProcess;
use common::{BACKENDS, Client, act, create, fresh_database, join, two_players};
use protocol::{Ack, ClientMessage, CommandId, MatchId, Seq, ServerMessage};
use serde_json::{Value, json};
use server::matches::hosted::host;

/// How many actions the database holds for a match.
async fn stored_actions(url: &str, m: MatchId) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM match_actions WHERE match_id = $1")
        .bind(m.0)
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    n
}

/// White's first disc of a split, then a next disc that White could move the same way again
/// right after: the action a double application would repeat.
fn a_split_that_could_repeat() -> (String, String) {
    let mut game = host("hanoi", "standard", 2, 0).unwrap();
    for first in game.legal(0) {
        let mut after_first = game.boxed_clone();
        after_first.play(0, &first).unwrap();
        for second in after_first.legal(0) {
            let mut after_second = after_first.boxed_clone();
            after_second.play(0, &second).unwrap();
            if after_second.to_act() == vec![0] && after_second.legal(0).contains(&second) {
                return (first, second);
            }
        }
        game = host("hanoi", "standard", 2, 0).unwrap();
    }
    panic!("no split of White's first turn repeats a line");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_resent_after_a_lost_ack_is_answered_once_and_applied_once() {
    let (first, second) = a_split_that_could_repeat();
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (white, _, mut w, mut b) = two_players(server.addr).await;
        let m = w
            .ok(|id| create(id, "hanoi", "standard", json!({})))
            .await
            .match_id
            .unwrap();
        b.ok(|id| join(id, m)).await;
        w.ok(|id| act(id, m, 0, &first)).await;

        // The second disc: sent, stored, and the server killed before White reads the ack.
        let lost = CommandId(format!("split-{:08x}", rand::random::<u32>()));
        w.send(&act(lost.clone(), m, 0, &second)).await;
        let stored = async {
            while stored_actions(&url, m).await < 2 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        };
        tokio::time::timeout(common::PATIENCE, stored)
            .await
            .expect("the action was stored");
        server.kill();
        drop((w, b));

        // After a restart White sends the same command again.
        let server = ServerProcess::start(&url).await;
        let mut w = Client::connect(server.addr, &white.token).await;
        w.send(&act(lost.clone(), m, 0, &second)).await;
        let ack = match w.answer(&lost).await {
            ServerMessage::Ack { ack, .. } => ack,
            other => panic!("{backend:?}: expected the original ack, got {other:?}"),
        };
        assert_eq!(
            stored_actions(&url, m).await,
            2,
            "{backend:?}: applied twice"
        );
        // The original ack: the event the action caused (seat taken twice, started, first).
        let original = Ack {
            match_id: Some(m),
            seq: Some(Seq(5)),
            ..Ack::default()
        };
        assert_eq!(ack, original, "{backend:?}");
        // Again, on the same socket: the same answer.
        w.send(&act(lost.clone(), m, 0, &second)).await;
        assert!(matches!(w.answer(&lost).await, ServerMessage::Ack { ack, .. } if ack == original));
        // The same id for another action is a new command, not a resend.
        let next = w
            .ok(|id| ClientMessage::Legal {
                id,
                match_id: m,
                seat: 0,
            })
            .await
            .actions
            .unwrap();
        let other = next.iter().find(|a| **a != second).expect("another line");
        w.send(&act(lost.clone(), m, 0, other)).await;
        match w.answer(&lost).await {
            ServerMessage::Ack { ack, .. } => assert_eq!(ack.seq, Some(Seq(6)), "{backend:?}"),
            other => panic!("{backend:?}: {other:?}"),
        }
        assert_eq!(stored_actions(&url, m).await, 3);
    }
}

/// Spellings of `text` that `game`'s notation reads as the same action: other cases, spacing, a
/// capture suffix (tafl reads `b5-b4xb3` as `b5-b4`, whatever the suffix says). Only those the
/// notation accepts are kept, and the canonical text itself is not among them.
fn other_spellings(game: &dyn server::matches::hosted::Hosted, text: &str) -> Vec<String> {
    let candidates = [
        text.to_uppercase(),
        text.to_lowercase(),
        format!(" {text} "),
        format!("{text}xa1"),
        format!("{text}xa1/b1"),
    ];
    let mut kept: Vec<String> = Vec::new();
    for c in candidates {
        if c != text && !kept.contains(&c) && game.canonical(&c).as_deref() == Some(text) {
            kept.push(c);
        }
    }
    kept
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_spelling_of_an_action_resent_after_a_kill_gets_the_original_ack() {
    let games: Vec<(String, String)> = server::matches::hosted::catalog()
        .into_iter()
        .map(|g| (g.id, g.variants[0].name.clone()))
        .collect();
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let player = common::new_player(server.addr).await;
        let mut c = Client::connect(server.addr, &player.token).await;
        // One hot-seat match per game; in each, one action sent first in one spelling, and the
        // server killed once every one is stored.
        let mut sent = Vec::new();
        for (game, variant) in &games {
            let created = c
                .ok(|id| create(id, game, variant, json!({"hotseat": true})))
                .await;
            let m = created.match_id.unwrap();
            let seats = created.seats.clone();
            let mut chosen = None;
            for &seat in &seats {
                let legal = c
                    .ok(|id| ClientMessage::Legal {
                        id,
                        match_id: m,
                        seat,
                    })
                    .await
                    .actions
                    .unwrap_or_default();
                if let Some(action) = legal.first() {
                    chosen = Some((seat, action.clone()));
                    break;
                }
            }
            let (seat, canonical) = chosen.unwrap_or_else(|| panic!("{game}: nobody may act"));
            let probe = host(game, variant, seats.len(), 0).unwrap();
            let spellings = other_spellings(probe.as_ref(), &canonical);
            // The first send uses another spelling where the notation has one.
            let first = spellings.first().cloned().unwrap_or(canonical.clone());
            let id = CommandId(format!("spell-{game}-{:08x}", rand::random::<u32>()));
            c.send(&act(id.clone(), m, seat, &first)).await;
            let ack = match c.answer(&id).await {
                ServerMessage::Ack { ack, .. } => ack,
                other => panic!("{backend:?} {game}: '{first}' refused: {other:?}"),
            };
            sent.push((game.clone(), m, seat, id, ack, canonical, spellings));
        }
        assert!(
            sent.iter().any(|s| s.0 == "tafl" && s.6.len() >= 2),
            "tafl reads a move with capture suffixes as the move"
        );
        server.kill();
        drop(c);

        let server = ServerProcess::start(&url).await;
        let mut c = Client::connect(server.addr, &player.token).await;
        for (game, m, seat, id, original, canonical, spellings) in &sent {
            for spelling in std::iter::once(canonical).chain(spellings) {
                c.send(&act(id.clone(), *m, *seat, spelling)).await;
                match c.answer(id).await {
                    ServerMessage::Ack { ack, .. } => assert_eq!(
                        &ack, original,
                        "{backend:?} {game}: '{spelling}' resent is answered as first"
                    ),
                    other => panic!("{backend:?} {game}: '{spelling}' resent: {other:?}"),
                }
            }
            assert_eq!(
                stored_actions(&url, *m).await,
                1,
                "{backend:?} {game}: applied once"
            );
        }
    }
}

/// Sends a command with this id and returns the server's answer to it.
async fn send_as(c: &mut Client, message: ClientMessage) -> ServerMessage {
    let id = message.command_id().cloned().expect("a command");
    c.send(&message).await;
    c.answer(&id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_resent_after_a_kill_gets_its_original_ack_and_acts_once() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (alice, _, mut a, mut b) = two_players(server.addr).await;
        let m = common::copenhagen_match(&mut a, &mut b, json!({})).await;
        let id = |name: &str| CommandId(format!("{name}-{:08x}", rand::random::<u32>()));
        let commands = [
            ClientMessage::Chat {
                id: id("chat"),
                match_id: None,
                text: "said once".into(),
            },
            create(id("create"), "tafl", "brandubh", json!({})),
            ClientMessage::Resign {
                id: id("resign"),
                match_id: m,
                seat: 0,
            },
        ];
        let mut originals = Vec::new();
        for command in &commands {
            match send_as(&mut a, command.clone()).await {
                ServerMessage::Ack { ack, .. } => originals.push(ack),
                other => panic!("{backend:?}: {command:?}: {other:?}"),
            }
        }
        server.kill();
        drop((a, b));

        let server = ServerProcess::start(&url).await;
        let mut a = Client::connect(server.addr, &alice.token).await;
        for (command, original) in commands.iter().zip(&originals) {
            match send_as(&mut a, command.clone()).await {
                ServerMessage::Ack { ack, .. } => {
                    assert_eq!(&ack, original, "{backend:?}: {command:?}")
                }
                other => panic!("{backend:?}: {command:?} resent: {other:?}"),
            }
        }
        let lobby = common::get(server.addr, "/api/chat/lobby").await;
        let said: Vec<&Value> = lobby["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["text"] == "said once")
            .collect();
        assert_eq!(said.len(), 1, "{backend:?}: {lobby}");
        // The same id for another command is a new command.
        let reused = commands[0].command_id().cloned().unwrap();
        let other = ClientMessage::Chat {
            id: reused,
            match_id: None,
            text: "said again".into(),
        };
        assert!(matches!(
            send_as(&mut a, other).await,
            ServerMessage::Ack { .. }
        ));
        let lobby = common::get(server.addr, "/api/chat/lobby").await;
        let texts: Vec<&str> = lobby["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["text"].as_str())
            .collect();
        assert_eq!(texts, ["said once", "said again"], "{backend:?}");
    }
}
