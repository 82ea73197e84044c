//! Costs that do not grow with history: a finished match leaves no ownership row behind once
//! its room closes (a node reads its rows every beat), and whoever opens it again takes it at
//! the next epoch, never one held before. An unfinished match keeps its row while its room
//! sleeps: that row is how another node knows whom to ask. Both storage backends.

mod common;

use std::time::Duration;

use common::{BACKENDS, Client, copenhagen_match, fresh_database, start, two_guests, watch};
use protocol::{ClientMessage, MatchId, ServerMessage};
use serde_json::json;
use sqlx::{AnyPool, Row};

/// The match's ownership row (its epoch), if it has one, and the epoch it was last given up at.
async fn ownership(db: &AnyPool, id: MatchId) -> (Option<i64>, i64) {
    let owner = sqlx::query("SELECT epoch FROM match_owners WHERE match_id = $1")
        .bind(id.0)
        .fetch_optional(db)
        .await
        .unwrap()
        .map(|r| r.get::<i64, _>("epoch"));
    let released = sqlx::query("SELECT released_epoch FROM matches WHERE id = $1")
        .bind(id.0)
        .fetch_one(db)
        .await
        .unwrap()
        .get::<i64, _>("released_epoch");
    (owner, released)
}

/// Waits until the match's ownership is `wanted`.
async fn until_ownership(db: &AnyPool, id: MatchId, wanted: (Option<i64>, i64), what: &str) {
    let give_up = tokio::time::Instant::now() + common::PATIENCE;
    loop {
        let now = ownership(db, id).await;
        if now == wanted {
            return;
        }
        assert!(
            tokio::time::Instant::now() < give_up,
            "{what}: the ownership is {now:?}, not {wanted:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_finished_match_leaves_no_owner_row_and_is_taken_at_a_new_epoch_when_opened() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &["--room-sleep-secs", "1"]).await;
        sqlx::any::install_default_drivers();
        let db = AnyPool::connect(&url).await.unwrap();
        let (alice, _, mut a, mut b) = two_guests(addr).await;
        let finished = copenhagen_match(&mut a, &mut b, json!({})).await;
        let unfinished = copenhagen_match(&mut a, &mut b, json!({})).await;
        assert_eq!(ownership(&db, finished).await, (Some(1), 0), "{backend:?}");
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: finished,
            seat: 0,
        })
        .await;
        // Over, but followed: the room stays, and so does its row.
        assert_eq!(ownership(&db, finished).await, (Some(1), 0), "{backend:?}");

        a.close().await;
        b.close().await;
        until_ownership(&db, finished, (None, 1), "the finished room closed").await;
        // The unfinished match's room sleeps too (after a second), but keeps its row.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(
            ownership(&db, unfinished).await,
            (Some(1), 0),
            "{backend:?}"
        );

        // Watched again: taken at the next epoch, shown as it ended, given up once more.
        let mut a = Client::connect(addr, &alice.token).await;
        a.ok(|id| watch(id, finished, None)).await;
        match a.next_of(finished).await {
            ServerMessage::Snapshot { snapshot, .. } => {
                assert!(snapshot.result.is_some(), "{backend:?}: {snapshot:?}")
            }
            other => panic!("expected a snapshot, got {other:?}"),
        }
        assert_eq!(ownership(&db, finished).await, (Some(2), 1), "{backend:?}");
        a.close().await;
        until_ownership(&db, finished, (None, 2), "the room closed again").await;
        db.close().await;
    }
}
