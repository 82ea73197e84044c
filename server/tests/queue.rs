//! The matchmaking queue over real sockets.

mod common;

use common::{BACKENDS, Client, create, fresh_database, join, register, start};
use protocol::{ClientMessage, CommandId, ErrorCode, MatchId, ServerMessage, TimeControl};
use serde_json::json;

fn queue_join(id: CommandId, rated: bool) -> ClientMessage {
    ClientMessage::QueueJoin {
        id,
        game: "tafl".into(),
        variant: Some("brandubh".into()),
        seats: None,
        time_control: TimeControl::Blitz,
        rated,
        ai_after_secs: None,
        two_games: false,
    }
}

/// A casual Hanoi queue for three seats.
fn hanoi_for_three(id: CommandId) -> ClientMessage {
    ClientMessage::QueueJoin {
        id,
        game: "hanoi".into(),
        variant: None,
        seats: Some(3),
        time_control: TimeControl::Blitz,
        rated: false,
        ai_after_secs: None,
        two_games: false,
    }
}

/// Waits for the `matched` message.
async fn matched(client: &mut Client) -> (MatchId, Vec<u8>) {
    loop {
        let message = if client.pending.is_empty() {
            client.next().await
        } else {
            client.pending.remove(0)
        };
        if let ServerMessage::Matched { match_id, seats } = message {
            return (match_id, seats);
        }
    }
}

/// Gives a player a rating in the brandubh pool directly in the database.
async fn set_rating(url: &str, player: protocol::PlayerId, rating: f64) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    sqlx::query(
        "INSERT INTO ratings (player_id, pool, rating, games) VALUES ($1, 'tafl/brandubh', $2, 5)",
    )
    .bind(player.0)
    .bind(rating)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_players_are_paired_with_balanced_sides() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (a, b) = (
            register(addr, "astrid").await,
            register(addr, "birger").await,
        );
        let mut ca = Client::connect(addr, &a.token).await;
        let mut cb = Client::connect(addr, &b.token).await;
        // Astrid had seat 0 (attackers) in her last brandubh match.
        let m = ca
            .ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await
            .match_id
            .unwrap();
        cb.ok(|id| join(id, m)).await;
        ca.ok(|id| ClientMessage::Abort {
            id,
            match_id: m,
            seat: 0,
        })
        .await;

        ca.ok(|id| queue_join(id, true)).await;
        ca.refused(ErrorCode::Conflict, |id| queue_join(id, true))
            .await;
        cb.ok(|id| queue_join(id, true)).await;
        let (ma, sa) = matched(&mut ca).await;
        let (mb, sb) = matched(&mut cb).await;
        assert_eq!(ma, mb, "{backend:?}");
        assert_eq!((sa, sb), (vec![1], vec![0]), "sides balance recent seats");
        // The match is live and rated, with the blitz clock.
        let watched = ca
            .ok(|id| ClientMessage::Watch {
                invite: None,
                id,
                match_id: ma,
                since: None,
            })
            .await;
        assert_eq!(watched.seats, vec![1]);
        let record = common::get(addr, &format!("/api/matches/{}", ma.0)).await;
        assert_eq!(record["summary"]["status"], "live");
        assert_eq!(record["summary"]["rated"], true);
        assert_eq!(record["summary"]["clock"]["base_ms"], 300_000);
        // Nobody is left waiting.
        let pools = common::get(addr, "/api/queue").await;
        assert_eq!(pools, json!([]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn far_apart_ratings_wait_for_the_window_and_leaving_leaves() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        // The window starts at 100 and widens by 200 a second: 500 points apart meet after 2 s.
        let addr = start(
            &url,
            &["--queue-window", "100", "--queue-window-growth", "200"],
        )
        .await;
        let (a, b, c) = (
            register(addr, "eirik").await,
            register(addr, "frida").await,
            register(addr, "gorm").await,
        );
        set_rating(&url, a.player.id, 1300.0).await;
        set_rating(&url, b.player.id, 1800.0).await;
        let mut ca = Client::connect(addr, &a.token).await;
        let mut cb = Client::connect(addr, &b.token).await;
        let start = tokio::time::Instant::now();
        ca.ok(|id| queue_join(id, true)).await;
        cb.ok(|id| queue_join(id, true)).await;
        // Within the first second both are still waiting, visibly.
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let pools = common::get(addr, "/api/queue").await;
        assert_eq!(pools[0]["waiting"], 2, "{backend:?}: {pools}");
        let (ma, _) = matched(&mut ca).await;
        let (mb, _) = matched(&mut cb).await;
        assert_eq!(ma, mb);
        assert!(
            start.elapsed() >= std::time::Duration::from_millis(1900),
            "paired too early"
        );

        // A player who leaves (explicitly, or by closing the socket) is paired with nobody.
        let mut cc = Client::connect(addr, &c.token).await;
        cc.ok(|id| queue_join(id, false)).await;
        cc.ok(|id| ClientMessage::QueueLeave { id }).await;
        cc.refused(ErrorCode::Conflict, |id| ClientMessage::QueueLeave { id })
            .await;
        cc.ok(|id| queue_join(id, false)).await;
        cc.close().await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let pools = common::get(addr, "/api/queue").await;
        assert_eq!(pools, json!([]), "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_seat_games_form_groups_and_a_lone_player_may_get_the_ai() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let players = [
            register(addr, "halla").await,
            register(addr, "ingrid").await,
            register(addr, "jorunn").await,
        ];
        let mut clients = Vec::new();
        for p in &players {
            clients.push(Client::connect(addr, &p.token).await);
        }
        // Two of three are not a group: they wait for the third.
        clients[0].ok(hanoi_for_three).await;
        clients[1].ok(hanoi_for_three).await;
        tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
        let pools = common::get(addr, "/api/queue").await;
        assert_eq!(pools[0]["waiting"], 2, "{backend:?}: {pools}");
        clients[2].ok(hanoi_for_three).await;
        let mut seats = Vec::new();
        let mut ids = Vec::new();
        for c in &mut clients {
            let (m, s) = matched(c).await;
            ids.push(m);
            seats.extend(s);
        }
        assert!(ids.iter().all(|&m| m == ids[0]), "one match for the group");
        seats.sort();
        assert_eq!(seats, [0, 1, 2], "each player has a seat of their own");
        let record = common::get(addr, &format!("/api/matches/{}", ids[0].0)).await;
        assert_eq!(record["summary"]["status"], "live");
        assert_eq!(record["summary"]["players"].as_array().unwrap().len(), 3);

        // Alone in the brandubh queue, a player who asked for the AI after 1 s gets it.
        let start = tokio::time::Instant::now();
        clients[0]
            .ok(|id| ClientMessage::QueueJoin {
                id,
                game: "tafl".into(),
                variant: Some("brandubh".into()),
                seats: None,
                time_control: TimeControl::Blitz,
                rated: true,
                ai_after_secs: Some(1),
                two_games: false,
            })
            .await;
        let (m, _) = matched(&mut clients[0]).await;
        assert!(
            start.elapsed() >= std::time::Duration::from_millis(900),
            "AI came too early"
        );
        let record = common::get(addr, &format!("/api/matches/{}", m.0)).await;
        let names: Vec<&str> = record["summary"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"halla"), "{names:?}");
        assert!(
            names.iter().any(|n| n.starts_with("ai-level-")),
            "{backend:?}: an AI sits opposite: {names:?}"
        );
        assert_eq!(record["summary"]["status"], "live");
        let pools = common::get(addr, "/api/queue").await;
        assert_eq!(pools, json!([]), "{backend:?}");
    }
}
