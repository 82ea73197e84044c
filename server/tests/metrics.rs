//! Prometheus metrics: a few moves, a move out of turn, a missing match over REST, a player in the
//! queue and a game against the AI, all over real sockets; then `/metrics` is scraped and every
//! metric must have moved by exactly what happened. A finished match that nobody watches any
//! more must leave memory. Both storage backends.
//!
//! The metrics are one set per process, so this binary holds one test, and each check compares
//! a scrape with the one before it.

mod common;

use std::collections::BTreeMap;
use std::net::SocketAddr;

use common::{
    BACKENDS, Client, act, copenhagen_match, corpus_game, fresh_database, guest, http, start,
    two_guests,
};
use protocol::{ClientMessage, ErrorCode, MatchEvent, TimeControl};
use serde_json::json;

/// One scrape: every sample, by metric name and labels.
struct Scrape(Vec<(String, BTreeMap<String, String>, f64)>);

impl Scrape {
    async fn take(addr: SocketAddr) -> Scrape {
        let response = http()
            .get(format!("http://{addr}/metrics"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let kind = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(kind.starts_with("text/plain"), "{kind}");
        let text = response.text().await.unwrap();
        Scrape(text.lines().filter_map(sample).collect())
    }

    /// Scrapes until `done` holds of a scrape; fails after the tests' patience.
    async fn until(addr: SocketAddr, what: &str, done: impl Fn(&Scrape) -> bool) {
        let give_up = tokio::time::Instant::now() + common::PATIENCE;
        loop {
            if done(&Scrape::take(addr).await) {
                return;
            }
            assert!(
                tokio::time::Instant::now() < give_up,
                "waited too long for {what}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// The sum of the samples of `name` whose labels include `labels` (0 when there is none).
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.0
            .iter()
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).map(String::as_str) == Some(v))
            })
            .map(|(_, _, v)| v)
            .sum()
    }
}

/// Parses `name{a="x",b="y"} 1.5`; comments and blank lines are not samples.
fn sample(line: &str) -> Option<(String, BTreeMap<String, String>, f64)> {
    if line.starts_with('#') || line.trim().is_empty() {
        return None;
    }
    let (series, value) = line.rsplit_once(' ').unwrap();
    let value: f64 = value.parse().unwrap();
    let Some((name, labels)) = series.split_once('{') else {
        return Some((series.to_string(), BTreeMap::new(), value));
    };
    let labels = labels
        .trim_end_matches('}')
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap();
            (k.to_string(), v.trim_matches('"').to_string())
        })
        .collect();
    Some((name.to_string(), labels, value))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_what_happened_over_real_sockets() {
    let (moves, _) = corpus_game(10);
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &["--ai-move-ms", "50"]).await;
        let before = Scrape::take(addr).await;

        let (_, _, mut a, mut b) = two_guests(addr).await;
        let match_id = copenhagen_match(&mut a, &mut b, json!({})).await;
        for (i, mv) in moves.iter().enumerate().take(3) {
            let mover = if i % 2 == 0 { &mut a } else { &mut b };
            mover.ok(|id| act(id, match_id, (i % 2) as u8, mv)).await;
        }
        // Alice again, out of turn.
        a.refused(ErrorCode::NotYourTurn, |id| act(id, match_id, 0, &moves[4]))
            .await;
        let missing = http()
            .get(format!("http://{addr}/api/matches/999999999"))
            .send()
            .await
            .unwrap();
        assert_eq!(missing.status(), 404);

        // Carla waits in the queue; the queue answers in order, so once it has listed its pools
        // it has counted her.
        let carla = guest(addr).await;
        let mut c = Client::connect(addr, &carla.token).await;
        c.ok(|id| ClientMessage::QueueJoin {
            id,
            game: "tafl".into(),
            variant: Some("copenhagen".into()),
            seats: None,
            time_control: TimeControl::Blitz,
            rated: false,
            ai_after_secs: None,
            two_games: false,
        })
        .await;
        common::get(addr, "/api/queue").await;

        // Dora plays the defenders against the level-1 AI, which moves first, then resigns.
        let dora = guest(addr).await;
        let mut d = Client::connect(addr, &dora.token).await;
        let ai_match = d
            .ok(|id| common::play_ai(id, "copenhagen", 1, 1))
            .await
            .match_id
            .unwrap();
        d.event_where(ai_match, |e| matches!(e, MatchEvent::Acted { seat: 0, .. }))
            .await;
        // Dora moves once: a match resigned before every seat has moved is called off, with no
        // result to store.
        let legal = d
            .ok(|id| ClientMessage::Legal {
                id,
                match_id: ai_match,
                seat: 1,
            })
            .await
            .actions
            .unwrap();
        d.ok(|id| act(id, ai_match, 1, &legal[0])).await;

        let during = Scrape::take(addr).await;
        d.ok(|id| ClientMessage::Resign {
            id,
            match_id: ai_match,
            seat: 1,
        })
        .await;
        let after = Scrape::take(addr).await;
        // Dora stops watching the match she resigned: nobody follows it now, so its room ends
        // and leaves memory.
        d.ok(|id| ClientMessage::Unwatch {
            id,
            match_id: ai_match,
        })
        .await;
        let rooms =
            |s: &Scrape| s.value("tafl_match_rooms", &[]) - before.value("tafl_match_rooms", &[]);
        Scrape::until(addr, "the unwatched room to end", |s| rooms(s) == 1.0).await;

        let moved = |name: &str, labels: &[(&str, &str)]| {
            after.value(name, labels) - before.value(name, labels)
        };
        // Four moves by people and at least one by the AI.
        assert!(moved("tafl_actions_total", &[]) >= 5.0, "{backend:?}");
        assert_eq!(moved("tafl_ack_seconds_count", &[]), 4.0, "{backend:?}");
        assert!(moved("tafl_ack_seconds_sum", &[]) > 0.0, "{backend:?}");
        assert_eq!(
            moved("tafl_ack_seconds_bucket", &[("le", "+Inf")]),
            4.0,
            "{backend:?}"
        );
        let appends = [("op", "append_action")];
        assert!(
            moved("tafl_db_seconds_count", &appends) >= 5.0,
            "{backend:?}"
        );
        assert_eq!(
            moved("tafl_db_seconds_count", &[("op", "finish_match")]),
            1.0,
            "{backend:?}: the resignation"
        );
        assert!(
            moved("tafl_ai_move_seconds_count", &[]) >= 1.0,
            "{backend:?}"
        );
        let out_of_turn = [("code", "not_your_turn"), ("via", "socket")];
        assert_eq!(moved("tafl_errors_total", &out_of_turn), 1.0, "{backend:?}");
        let not_found = [("code", "not_found"), ("via", "http")];
        assert_eq!(moved("tafl_errors_total", &not_found), 1.0, "{backend:?}");

        // Gauges: what is open and live right now.
        assert!(during.value("tafl_open_sockets", &[]) >= 4.0, "{backend:?}");
        assert_eq!(rooms(&during), 2.0, "{backend:?}: the two matches' rooms");
        assert_eq!(rooms(&after), 2.0, "{backend:?}: Dora still watches");
        let tafl = [("game", "tafl")];
        assert_eq!(
            during.value("tafl_live_matches", &tafl) - before.value("tafl_live_matches", &tafl),
            2.0,
            "{backend:?}: the people's match and the AI's"
        );
        assert_eq!(
            during.value("tafl_live_matches", &tafl) - after.value("tafl_live_matches", &tafl),
            1.0,
            "{backend:?}: the resigned match is no longer live"
        );
        let pool = [
            ("game", "tafl"),
            ("variant", "copenhagen"),
            ("seats", "2"),
            ("time_control", "blitz"),
            ("rated", "false"),
        ];
        assert_eq!(
            during.value("tafl_queue_waiting", &pool),
            1.0,
            "{backend:?}"
        );

        for client in [a, b, c, d] {
            client.close().await;
        }
    }
}
