//! The nodes' table stays as small as the cluster: the row of a node gone for a day is deleted
//! once nothing refers to it (no single job, nobody online, no unfinished match), and the
//! queries that read it find their rows by index however many nodes came and went.

mod common;

use common::{BACKENDS, Backend, fresh_database};
use protocol::PlayerId;
use server::cluster::process::Process;
use server::cluster::store::{OWNING_NODES, Played, matches_of_nodes_sql};
use server::cluster::{FORGOTTEN_AFTER, NodeId};
use server::store::Store;

/// The ids in the nodes' table.
async fn node_ids(url: &str) -> Vec<i64> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let rows = sqlx::query("SELECT id FROM nodes ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    rows.iter()
        .map(|r| sqlx::Row::try_get::<i64, _>(r, "id").unwrap())
        .collect()
}

#[tokio::test]
async fn a_node_gone_for_a_day_is_forgotten_once_nothing_refers_to_it() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let store = Store::connect(&url).await.unwrap();
        let now = server::clock::now_ms();
        let day_ago = now - FORGOTTEN_AFTER.as_millis() as i64;
        let long_ago = day_ago - 1;
        let node = async |name: &str, seen_ms: i64| {
            store
                .add_node(name, &Process::current(), seen_ms)
                .await
                .unwrap()
        };
        let gone = node("gone", long_ago).await;
        let owned_a_finished_match = node("finished", long_ago).await;
        let holds_a_job = node("job", long_ago).await;
        let has_someone_online = node("online", long_ago).await;
        let owns_a_live_match = node("live", long_ago).await;
        let recent = node("recent", now).await;

        let finished = store
            .create_match(&mut common::brandubh_opening())
            .await
            .unwrap();
        assert!(
            store
                .claim_unowned(finished, owned_a_finished_match)
                .await
                .unwrap()
                .is_some()
        );
        common::alter_database(
            &url,
            "UPDATE matches SET status = 'finished' WHERE id = $1",
            &[finished.0],
        )
        .await;
        let live = store
            .create_match(&mut common::brandubh_opening())
            .await
            .unwrap();
        assert!(
            store
                .claim_unowned(live, owns_a_live_match)
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            store
                .claim_singleton("queue", None, holds_a_job)
                .await
                .unwrap()
        );
        store
            .set_online(has_someone_online, PlayerId(1), true)
            .await
            .unwrap();

        assert_eq!(store.forget_nodes(day_ago).await.unwrap(), 2, "{backend:?}");
        let kept = [holds_a_job, has_someone_online, owns_a_live_match, recent];
        assert_eq!(
            node_ids(&url).await,
            kept.iter().map(|n: &NodeId| n.0).collect::<Vec<_>>(),
            "{backend:?}: {gone:?} and {owned_a_finished_match:?} were forgotten"
        );
        // Their owner forgotten, the finished match still has its record.
        assert!(store.load_match(finished).await.unwrap().is_some());
        // Nothing more to forget until a day goes by.
        assert_eq!(store.forget_nodes(day_ago).await.unwrap(), 0);
    }
}

/// The plan PostgreSQL chooses for `sql` with the parameters `params`.
async fn plan(url: &str, sql: &str, params: &[i64]) -> String {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut query = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN {sql}")));
    for &param in params {
        query = query.bind(param);
    }
    let rows = query.fetch_all(&pool).await.unwrap();
    pool.close().await;
    rows.iter()
        .map(|row| sqlx::Row::try_get::<String, _>(row, 0).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `statements` on the database, each with the match `first` as `$1` where it has one,
/// then has the planner's statistics brought up to date.
async fn seed(url: &str, first: protocol::MatchId, statements: &[&'static str]) {
    for statement in statements {
        let ids: &[i64] = match statement.contains("$1") {
            true => &[first.0],
            false => &[],
        };
        common::alter_database(url, statement, ids).await;
    }
    common::alter_database(url, "ANALYZE", &[]).await;
}

/// 4,999 live copies of the match `$1`: with it, 5,000 matches being played.
const LIVE_CLONES: &str = "INSERT INTO matches (game, variant, seats, rated, private, hotseat,
                                     seed, status, last_seq, created_ms)
     SELECT game, variant, seats, rated, private, hotseat, seed, 'live', last_seq, created_ms
     FROM matches CROSS JOIN generate_series(1, 4999) WHERE id = $1";

/// Once a day of restarts has filled the table (each node having owned a match and had someone
/// online), finding the live nodes (every heartbeat) and the nodes to forget (every
/// housekeeping pass) reads the few rows they are after, by the index of the last heartbeat,
/// and looks for what refers to each by index too, rather than reading every row.
#[tokio::test]
async fn the_nodes_are_found_by_their_last_heartbeat_however_many_ran() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let first = store
        .create_match(&mut common::brandubh_opening())
        .await
        .unwrap();
    let history = [
        "INSERT INTO nodes (name, started_ms, seen_ms)
         SELECT 'n' || i, i, i FROM generate_series(1, 5000) AS i",
        "INSERT INTO matches (game, variant, seats, rated, private, hotseat, seed, status,
                              last_seq, created_ms)
         SELECT game, variant, seats, rated, private, hotseat, seed, 'finished', last_seq,
                created_ms
         FROM matches CROSS JOIN generate_series(1, 4999) WHERE id = $1",
        "INSERT INTO match_owners (match_id, node, epoch) SELECT id, id, 1 FROM matches",
        "INSERT INTO online_players (node, player_id) SELECT id, id FROM nodes",
    ];
    seed(&url, first, &history).await;

    let live = plan(
        &url,
        &server::cluster::store::live_nodes_sql(server::store::Backend::Postgres),
        &[4_990],
    )
    .await;
    assert!(live.contains("nodes_seen"), "{live}");
    assert!(!live.contains("Seq Scan on nodes"), "{live}");

    let forget = plan(&url, server::cluster::store::FORGET_NODES, &[10]).await;
    assert!(forget.contains("nodes_seen"), "{forget}");
    for table in ["nodes", "match_owners", "matches", "online_players"] {
        assert!(
            !forget.contains(&format!("Seq Scan on {table} ")),
            "{forget}"
        );
    }
    drop(store);
}

/// Every heartbeat looks for the matches of dead nodes. With thousands of live matches owned
/// by live nodes, the matches of a node that is not live are found by the owners' index rather
/// than by reading every owner row; and every match of a node that dies is found.
#[tokio::test]
async fn looking_for_orphans_reads_only_the_dead_nodes_matches() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let first = store
        .create_match(&mut common::brandubh_opening())
        .await
        .unwrap();
    let live_matches = [
        "INSERT INTO nodes (name, started_ms, seen_ms) SELECT 'n' || i, i, i
         FROM generate_series(1, 3) AS i",
        LIVE_CLONES,
        "INSERT INTO match_owners (match_id, node, epoch) SELECT id, 1 + id % 2, 1 FROM matches",
    ];
    seed(&url, first, &live_matches).await;
    let sql = matches_of_nodes_sql(&[NodeId(3)], Played::Unfinished);
    let orphans = plan(&url, &sql, &[]).await;
    assert!(orphans.contains("match_owners_node"), "{orphans}");
    for table in ["match_owners", "matches"] {
        assert!(
            !orphans.contains(&format!("Seq Scan on {table} ")),
            "{orphans}"
        );
    }
    let (one, two, three) = (NodeId(1), NodeId(2), NodeId(3));
    assert!(
        store
            .orphaned_matches(&[one, two])
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .orphaned_matches(&[one, two, three])
            .await
            .unwrap()
            .is_empty()
    );
    // A node that dies leaves its matches to be found, oldest first.
    let orphans = store.orphaned_matches(&[one, three]).await.unwrap();
    assert_eq!(orphans.len(), 2500, "node 2's matches");
    assert!(orphans.windows(2).all(|w| w[0].0.0 < w[1].0.0));
    drop(store);
}

/// Giving up the finished matches of gone nodes (every beat) reads the owning nodes from the
/// owners' index, one look each, rather than one owner row per live match; only a gone node's
/// rows are read. A node forgotten while a finished match of its was still owned is found all
/// the same.
#[tokio::test]
async fn giving_up_the_finished_matches_of_gone_nodes_reads_only_theirs() {
    let url = fresh_database(Backend::Postgres).await;
    let store = Store::connect(&url).await.unwrap();
    let first = store
        .create_match(&mut common::brandubh_opening())
        .await
        .unwrap();
    let matches = [
        "INSERT INTO nodes (name, started_ms, seen_ms) SELECT 'n' || i, i, i
         FROM generate_series(1, 2) AS i",
        LIVE_CLONES,
        "INSERT INTO matches (game, variant, seats, rated, private, hotseat, seed, status,
                              last_seq, created_ms)
         SELECT game, variant, seats, rated, private, hotseat, seed, 'finished', last_seq,
                created_ms
         FROM matches CROSS JOIN generate_series(1, 10) WHERE id = $1",
        // Node 7, long forgotten, still owns the finished ones.
        "INSERT INTO match_owners (match_id, node, epoch)
         SELECT id, CASE WHEN status = 'finished' THEN 7 ELSE 1 + id % 2 END, 1 FROM matches",
    ];
    seed(&url, first, &matches).await;
    let owning = plan(&url, OWNING_NODES, &[]).await;
    assert!(owning.contains("match_owners_node"), "{owning}");
    assert!(!owning.contains("Seq Scan on match_owners"), "{owning}");
    let finished = plan(
        &url,
        &matches_of_nodes_sql(&[NodeId(7)], Played::Finished),
        &[],
    )
    .await;
    assert!(!finished.contains("Seq Scan on match_owners"), "{finished}");

    let live = [NodeId(1), NodeId(2)];
    assert_eq!(store.release_finished_of_gone(&live).await.unwrap(), 10);
    assert_eq!(store.release_finished_of_gone(&live).await.unwrap(), 0);
    let owned = store.orphaned_matches(&[NodeId(1)]).await.unwrap();
    assert_eq!(owned.len(), 2500, "node 2's live matches are still owned");
    drop(store);
}
