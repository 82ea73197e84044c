//! The opening explorer at scale: `cargo bench -p server --bench explorer`, or `scripts/bench
//! explorer`. Loads `GAMES` (100,000) generated Copenhagen games into the database of
//! `DATABASE_URL` (a fresh SQLite file when absent; give an empty PostgreSQL database to
//! measure that backend), starts a server on it and times the explorer's answers over HTTP for
//! positions at every depth, then prints the storage per game.
//!
//! A generated game follows one of the bundled masters' games for a random number of plies and
//! then plays random legal moves, so that openings repeat as people's do and later positions
//! are each game's own, as they are in play.

use std::time::{Duration, Instant};

use engine::catalog::Catalog;
use engine::rng::MatchRng;
use server::explorer::line::{Step, play, start};
use server::explorer::store::Game;
use server::explorer::{BANDS, Ended, PLIES};
use server::store::{Backend, Store};

const RECORDS: &str = include_str!("../../engine/tests/data/copenhagen.csv");

fn masters_lines() -> Vec<Vec<&'static str>> {
    RECORDS
        .lines()
        .map(|l| {
            l.split(',')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .take_while(|m| *m != "timeout")
                .map(|m| m.split('x').next().unwrap_or(m))
                .collect()
        })
        .filter(|moves: &Vec<&str>| !moves.is_empty())
        .collect()
}

/// One generated game's counted steps.
fn generate(masters: &[Vec<&str>], rng: &mut MatchRng) -> Vec<Step> {
    let master = &masters[rng.below(masters.len() as u64) as usize];
    let follow = rng.below(PLIES as u64) as usize;
    let mut game = start("copenhagen").unwrap();
    let mut steps = Vec::new();
    while steps.len() < PLIES && game.to_move().is_some() {
        let position = game.hash();
        let text = match master.get(steps.len()).filter(|_| steps.len() < follow) {
            Some(m) => m.to_string(),
            None => {
                let moves = game.legal_moves();
                game.action_text(&moves[rng.below(moves.len() as u64) as usize])
            }
        };
        match play(&mut game, steps.len() + 1, &text) {
            Ok(action) => steps.push(Step { position, action }),
            Err(_) => break,
        }
    }
    steps
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100_000);
    let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| {
        let path = std::env::temp_dir().join(format!("explorer-bench-{}.db", std::process::id()));
        format!("sqlite://{}?mode=rwc", path.display())
    });
    let store = Store::connect(&url).await.unwrap();
    let backend = store.backend();
    let masters = masters_lines();
    let mut rng = MatchRng::from_seed(31);
    let loading = Instant::now();
    let mut probes: Vec<String> = Vec::new();
    let mut batch = Vec::new();
    for n in 0..games {
        let steps = generate(&masters, &mut rng);
        // Probe positions at every depth of some games: the moves that lead there.
        if n % (games / 200).max(1) == 0 {
            let depth = rng.below(steps.len() as u64 + 1) as usize;
            probes.push(
                steps[..depth]
                    .iter()
                    .map(|s| s.action.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
        let ended = [Ended::Attackers, Ended::Defenders, Ended::Draw][rng.below(3) as usize];
        batch.push((
            steps,
            rng.below(5) as i32,
            BANDS[rng.below(BANDS.len() as u64) as usize],
            ended,
        ));
        if batch.len() == 500 || n + 1 == games {
            let counted: Vec<Game> = batch
                .iter()
                .map(|(steps, speed, band, ended)| Game {
                    variant: "copenhagen",
                    steps,
                    speed: *speed,
                    band: *band,
                    ended: *ended,
                    rating: u64::from(*band) + 100,
                })
                .collect();
            store.explorer_count_games(&counted).await.unwrap();
            batch.clear();
        }
    }
    println!(
        "loaded {games} games in {:.1} s ({backend:?})",
        loading.elapsed().as_secs_f64()
    );
    let (rows, bytes) = storage(backend, &url).await;
    println!(
        "explorer_moves: {rows} rows, {:.1} MiB with its index: {:.0} bytes a game",
        bytes as f64 / 1048576.0,
        bytes as f64 / games as f64
    );
    store.close().await;

    let config = <server::config::Config as clap::Parser>::parse_from([
        "server",
        "--bind",
        "127.0.0.1:0",
        "--database-url",
        &url,
    ]);
    let running = server::start(config).await.unwrap();
    let client = reqwest::Client::new();
    let base = format!("http://{}/api/explorer/tafl/copenhagen", running.addr);
    let mut times = Vec::new();
    let mut answered = 0u64;
    for round in 0..3 {
        for moves in &probes {
            for filter in ["", "&speeds=blitz,rapid&bands=1600,1800"] {
                let started = Instant::now();
                let body: serde_json::Value = client
                    .get(format!("{base}?moves={moves}{filter}"))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                // The first round warms the caches.
                if round > 0 {
                    times.push(started.elapsed());
                    answered += body["total"]["games"].as_u64().unwrap_or(0);
                }
            }
        }
    }
    times.sort();
    println!(
        "answers: {} over {} positions, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} games through them)",
        times.len(),
        probes.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        answered
    );
    running.shutdown.trigger();
    let _ = running.task.await;
}

/// The table's rows, and its bytes with its index (SQLite: the whole file, which holds little
/// else).
async fn storage(backend: Backend, url: &str) -> (i64, i64) {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query(sql)
                .fetch_one(&pool)
                .await
                .unwrap()
                .get::<i64, _>(0)
        }
    };
    // What autovacuum does in time on a server that counts games as they finish: a loader
    // that wrote every row in the last minutes would leave no page all-visible.
    if backend == Backend::Postgres {
        sqlx::query("VACUUM ANALYZE explorer_moves")
            .execute(&pool)
            .await
            .unwrap();
    }
    let rows = count("SELECT COUNT(*) FROM explorer_moves").await;
    let bytes = match backend {
        Backend::Postgres => count("SELECT pg_total_relation_size('explorer_moves')").await,
        Backend::Sqlite => {
            count("PRAGMA wal_checkpoint(TRUNCATE)").await;
            let path = url
                .trim_start_matches("sqlite://")
                .split('?')
                .next()
                .unwrap();
            std::fs::metadata(path).map(|m| m.len() as i64).unwrap_or(0)
        }
    };
    pool.close().await;
    (rows, bytes)
}
