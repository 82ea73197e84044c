//! The group-commit writer behind `ActionLog::append`: actions (and takebacks) of many matches
//! arriving at once are all stored, in order per match, with each match's event count; an
//! action that cannot be stored fails alone, without sinking the others written with it; and
//! an action written under an epoch another node has since taken the match at is refused
//! (fenced), alone too.

mod common;

use std::time::Duration;

use common::{BACKENDS, Backend, fresh_database};
use futures_util::future::join_all;
use protocol::MatchId;
use server::cluster::{Epoch, FIRST_EPOCH, NodeId};
use server::matches::store::{Start, StoredTakeback};
use server::matches::writer::ActionLog;
use server::matches::{Entry, StoredAction};
use server::store::{Store, StoreError};

/// A match stored and owned by `node` at the first epoch, as a room that opened it would.
async fn owned_match(store: &Store, node: NodeId) -> MatchId {
    let id = store
        .create_match(&mut common::brandubh_opening())
        .await
        .unwrap();
    assert_eq!(
        store.claim_unowned(id, node).await.unwrap(),
        Some(FIRST_EPOCH)
    );
    id
}

/// The action at `ply`, as event `ply + 10` (as if a few other events came before).
fn action(ply: u32) -> Entry {
    Entry::Action(StoredAction {
        ply,
        seq: u64::from(ply) + 10,
        seat: (ply % 2) as u8,
        action: format!("a{}-b{}", ply + 1, ply + 2),
        clock_ms: ply.is_multiple_of(3).then_some(1000 * u64::from(ply)),
        at_ms: 100 + i64::from(ply),
        command_id: ply.is_multiple_of(2).then(|| format!("cmd-{ply}")),
    })
}

/// A takeback at `ply` back to the first two actions.
fn takeback(ply: u32) -> Entry {
    Entry::Takeback(StoredTakeback {
        ply,
        seq: u64::from(ply) + 10,
        seat: 0,
        back_to: 2,
        clocks_ms: Some(vec![1000, 2000]),
        at_ms: 100 + i64::from(ply),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_of_many_matches_at_once_are_all_stored_and_a_bad_one_fails_alone() {
    for backend in BACKENDS {
        let store = Store::connect(&fresh_database(backend).await)
            .await
            .unwrap();
        let log = ActionLog::start(&store);
        let node = store
            .add_node("test", &server::cluster::process::Process::current(), 1)
            .await
            .unwrap();
        let mut ids: Vec<MatchId> = Vec::new();
        for _ in 0..40 {
            ids.push(owned_match(&store, node).await);
        }
        // Every match plays five actions, one after the other, all matches at the same time.
        let playing = ids.iter().map(|&id| {
            let log = log.clone();
            tokio::spawn(async move {
                for ply in 0..5 {
                    log.append(id, FIRST_EPOCH, &action(ply)).await.unwrap();
                }
            })
        });
        for played in join_all(playing).await {
            played.unwrap();
        }
        // A ply stored twice is refused; the takebacks sent with it are stored all the same.
        let (again, sixth) = (action(2), takeback(5));
        let refused = log.append(ids[0], FIRST_EPOCH, &again);
        let others = join_all(ids.iter().map(|&id| log.append(id, FIRST_EPOCH, &sixth)));
        let (refused, others) = tokio::join!(refused, others);
        assert!(refused.is_err(), "{backend:?}");
        for result in others {
            result.unwrap();
        }
        for &id in &ids {
            let stored = store.load_match(id).await.unwrap().unwrap();
            let mut expected: Vec<Entry> = (0..5).map(action).collect();
            expected.push(takeback(5));
            assert_eq!(stored.log, expected, "{backend:?} match {}", id.0);
            let kept: Vec<Entry> = stored
                .actions()
                .into_iter()
                .cloned()
                .map(Entry::Action)
                .collect();
            assert_eq!(kept, expected[..2], "{backend:?}: the takeback folded in");
            assert_eq!(stored.last_seq, 15, "{backend:?}");
        }
    }
}

/// The writers keep their PostgreSQL connections between batches. When the database drops them
/// while the server is quiet (as a database restart does), the next moves are stored all the
/// same, on new connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_after_the_database_dropped_the_writers_connections_are_stored() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let log = ActionLog::start(&store);
    let node = store
        .add_node("test", &server::cluster::process::Process::current(), 1)
        .await
        .unwrap();
    let id = owned_match(&store, node).await;
    log.append(id, FIRST_EPOCH, &action(0)).await.unwrap();
    let database = url.rsplit_once('/').unwrap().1;
    let admin = sqlx::PgPool::connect(&std::env::var("TEST_POSTGRES_URL").unwrap())
        .await
        .unwrap();
    let dropped: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
    )
    .bind(database)
    .fetch_all(&admin)
    .await
    .unwrap();
    assert!(!dropped.is_empty() && dropped.iter().all(|&d| d));
    // Quiet for longer than a writer trusts its connection unchecked.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for ply in 1..4 {
        log.append(id, FIRST_EPOCH, &action(ply)).await.unwrap();
    }
    let stored = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(stored.log, (0..4).map(action).collect::<Vec<_>>());
}

/// A node that lost a match (another took it over, raising its epoch) cannot append to it: the
/// write is refused as fenced, changes nothing, and the other matches written in the same
/// batch are stored. The new owner writes under the new epoch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_under_a_passed_epoch_is_refused_alone() {
    for backend in BACKENDS {
        let store = Store::connect(&fresh_database(backend).await)
            .await
            .unwrap();
        let log = ActionLog::start(&store);
        let (old, new) = (
            store
                .add_node("old", &server::cluster::process::Process::current(), 1)
                .await
                .unwrap(),
            store
                .add_node("new", &server::cluster::process::Process::current(), 1)
                .await
                .unwrap(),
        );
        let mut ids = Vec::new();
        for _ in 0..10 {
            ids.push(owned_match(&store, old).await);
        }
        assert!(
            store
                .take_over(ids[0], FIRST_EPOCH, new, i64::MAX)
                .await
                .unwrap()
        );
        // The takeover saw the epoch it raised: a second one from the same reading fails.
        assert!(
            !store
                .take_over(ids[0], FIRST_EPOCH, old, i64::MAX)
                .await
                .unwrap()
        );
        let first = action(0);
        let written = join_all(ids.iter().map(|&id| log.append(id, FIRST_EPOCH, &first))).await;
        assert!(
            matches!(written[0], Err(StoreError::Fenced(id)) if id == ids[0]),
            "{backend:?}: {:?}",
            written[0]
        );
        for w in &written[1..] {
            assert!(w.is_ok(), "{backend:?}: {w:?}");
        }
        assert!(
            store
                .load_match(ids[0])
                .await
                .unwrap()
                .unwrap()
                .log
                .is_empty()
        );
        log.append(ids[0], Epoch(2), &action(0)).await.unwrap();
        assert_eq!(
            store.load_match(ids[0]).await.unwrap().unwrap().log,
            vec![action(0)]
        );
        // Every other write of a match is fenced the same way.
        let start = Start {
            seq: 20,
            at_ms: 5,
            casual: false,
        };
        let stale = store.set_live(ids[0], FIRST_EPOCH, &start).await;
        assert!(
            matches!(stale, Err(StoreError::Fenced(_))),
            "{backend:?}: {stale:?}"
        );
        store.set_live(ids[0], Epoch(2), &start).await.unwrap();
    }
}

/// However many matches a database has hosted, appending a move finds its match's owner by the
/// owner's key: a scan of every owner row would make each move cost more as history grows. The
/// plan is read with 5,000 matches hosted and the statistics up to date, where a join planned
/// for the whole batch scanned and hashed every owner row.
#[tokio::test]
async fn an_append_finds_its_owner_by_key_however_many_matches_were_hosted() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let first = owned_match(&store, NodeId(1)).await;
    let history = [
        "INSERT INTO matches (game, variant, seats, rated, private, hotseat, seed, status,
                              last_seq, created_ms)
         SELECT game, variant, seats, rated, private, hotseat, seed, 'finished', last_seq,
                created_ms
         FROM matches CROSS JOIN generate_series(1, 4999) WHERE id = $1",
        "INSERT INTO match_owners (match_id, node, epoch)
         SELECT id, 1, 1 FROM matches WHERE id <> $1",
    ];
    for statement in history {
        common::alter_database(&url, statement, &[first.0]).await;
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("ANALYZE").execute(&pool).await.unwrap();
    let batch: Vec<serde_json::Value> = (0..3)
        .map(|ply| {
            serde_json::json!({"match_id": first.0, "epoch": 1, "ply": ply, "seq": ply + 1,
                                      "seat": 0, "action": "a1-a2", "at_ms": 0})
        })
        .collect();
    let explain = format!("EXPLAIN {}", server::matches::writer::APPEND_ACTIONS);
    let rows = sqlx::query(sqlx::AssertSqlSafe(explain))
        .bind(serde_json::to_string(&batch).unwrap())
        .fetch_all(&pool)
        .await
        .unwrap();
    let plan: Vec<String> = rows
        .iter()
        .map(|row| sqlx::Row::try_get::<String, _>(row, 0).unwrap())
        .collect();
    let plan = plan.join("\n");
    assert!(!plan.contains("Seq Scan on match_owners"), "{plan}");
    assert!(
        plan.contains("Index Scan using match_owners_pkey"),
        "{plan}"
    );
    pool.close().await;
}
