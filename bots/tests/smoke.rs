//! The load generator against a real match server started in this process (on SQLite), and
//! against its own echo server and relay (durable on the test PostgreSQL server): short runs
//! that must answer round trips without errors.

use std::time::Duration;

use bots::echo::{EchoOptions, echo, serve};
use bots::idle::{IdleOptions, idle};
use bots::journal::Journal;
use bots::play::{PlayOptions, play};
use bots::target::server_url;
use clap::Parser;

async fn match_server() -> std::net::SocketAddr {
    let dir = std::env::temp_dir().join("tafl-bots-tests");
    std::fs::create_dir_all(&dir).unwrap();
    // A file of its own: the tests of this binary run at the same time, each with its server.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let db = dir.join(format!("smoke-{}-{nanos}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    let config = server::config::Config::parse_from([
        "server",
        "--bind",
        "127.0.0.1:0",
        "--database-url",
        &url,
        "--log",
        "warn",
    ]);
    server::start(config).await.unwrap().addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_brandubh_matches_and_report_acked_moves() {
    let addr = match_server().await;
    let options = PlayOptions::new(
        server_url(&format!("http://{addr}")).unwrap(),
        10,
        Duration::from_secs(2),
    );
    let report = play(&options).await.unwrap();
    println!("{report}");
    assert_eq!(report.connected, 10);
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.stats.matches_started >= 5, "{report}");
    assert!(report.stats.round_trips >= 50, "{report}");
    assert!(report.rate() > 0.0);
    assert!(report.quantile_ms(0.99) > 0.0);
    assert!(report.elapsed >= Duration::from_millis(1900), "{report}");

    // The server keeps serving after the bots have gone: the records say moves were stored.
    let live: serde_json::Value = reqwest::get(format!("http://{addr}/api/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(live.is_object(), "{live}");
}

/// A paced run's warm-up is played but not counted: the report covers `duration` alone, and
/// holds no more moves than the sockets' rate allows in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warm_up_is_played_but_not_counted() {
    let addr = match_server().await;
    let mut options = PlayOptions::new(
        server_url(&format!("http://{addr}")).unwrap(),
        10,
        Duration::from_secs(1),
    );
    options.warmup = Duration::from_secs(1);
    options.rate = Some(5.0);
    let report = play(&options).await.unwrap();
    println!("{report}");
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.elapsed <= Duration::from_millis(1100), "{report}");
    assert!(report.stats.round_trips > 0, "{report}");
    // Ten sockets at five messages a second for one counted second, and a move each in flight.
    assert!(report.stats.round_trips <= 10 * 5 + 10, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_round_trips_are_counted() {
    let server = serve("127.0.0.1:0".parse().unwrap(), None).await.unwrap();
    let options = EchoOptions::new(format!("ws://{}", server.addr), 10, Duration::from_secs(2));
    let report = echo(&options).await.unwrap();
    println!("{report}");
    assert_eq!(report.connected, 10);
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.stats.round_trips >= 100, "{report}");
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relayed_turns_reach_both_sockets_of_each_pair() {
    let server = serve("127.0.0.1:0".parse().unwrap(), None).await.unwrap();
    let mut options = EchoOptions::new(format!("ws://{}", server.addr), 10, Duration::from_secs(2));
    options.relay = true;
    let report = echo(&options).await.unwrap();
    println!("{report}");
    assert_eq!(report.mode, "relay");
    assert_eq!(report.connected, 10);
    // A turn counts once its sender has its frame back, and the next waits for the partner's
    // copy: without the relay, each pair would stop after its first turn.
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.stats.round_trips >= 100, "{report}");
    server.task.abort();
}

/// A new database on the test PostgreSQL server (started by `./scripts/test`).
async fn fresh_postgres() -> String {
    use sqlx::Connection;
    let admin = std::env::var("TEST_POSTGRES_URL")
        .expect("TEST_POSTGRES_URL is not set: run ./scripts/test, which starts PostgreSQL");
    let name = format!("relay{:016x}", rand_u64());
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .unwrap();
    format!("{}/{name}", admin.rsplit_once('/').unwrap().0)
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::time::SystemTime::now())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_durable_relay_stores_every_frame_it_passes_on() {
    use sqlx::Connection;
    let url = fresh_postgres().await;
    let journal = Journal::open(&url).await.unwrap();
    let server = serve("127.0.0.1:0".parse().unwrap(), Some(journal))
        .await
        .unwrap();
    let mut options = EchoOptions::new(format!("ws://{}", server.addr), 10, Duration::from_secs(2));
    options.relay = true;
    let report = echo(&options).await.unwrap();
    println!("{report}");
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.stats.round_trips >= 50, "{report}");
    // Every turn counted was stored; at most one turn per pair was still on its way when the
    // run ended.
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let stored: i64 = sqlx::query_scalar(
        "SELECT COALESCE(SUM(array_length(string_to_array(frames, chr(10)), 1)), 0)::BIGINT
         FROM relay_journal",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    let turns = report.stats.round_trips as i64;
    assert!(
        stored >= turns && stored <= turns + 5,
        "{stored} stored, {turns} turns"
    );
    server.task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sockets_stay_open_for_the_hold() {
    let addr = match_server().await;
    let options = IdleOptions {
        server: server_url(&format!("http://{addr}")).unwrap(),
        sockets: 20,
        hold: Duration::from_secs(2),
        // The server runs in this process: its memory is ours.
        server_pid: Some(std::process::id()),
        connect_concurrency: 8,
    };
    let report = idle(&options).await.unwrap();
    println!("{report}");
    assert_eq!(report.connected, 20);
    assert!(report.stats.errors.is_empty(), "{report}");
    assert!(report.server_rss_kib.is_some());
}

#[tokio::test]
async fn targets_off_this_machine_are_refused() {
    let e = server_url("http://10.1.2.3:8080").unwrap_err();
    assert!(e.to_string().contains("refusing target"), "{e}");
    let options = EchoOptions::new("ws://192.168.0.10:9000", 1, Duration::from_secs(1));
    let e = echo(&options).await.unwrap_err();
    assert!(e.to_string().contains("refusing target"), "{e}");
    let e = serve("0.0.0.0:0".parse().unwrap(), None)
        .await
        .err()
        .unwrap();
    assert!(e.to_string().contains("refusing target"), "{e}");
    let e = Journal::open("postgres://postgres@10.1.2.3/x")
        .await
        .err()
        .unwrap();
    assert!(e.to_string().contains("refusing target"), "{e}");
}
