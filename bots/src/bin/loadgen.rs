//! `loadgen`: the load generator for the match server. Every run goes to this machine only
//! (loopback addresses or `localhost`), opens the sockets asked for, runs for a bounded time and
//! prints a report.
//!
//! ```text
//! loadgen play --url http://127.0.0.1:8080 --sockets 1000 --duration 20s
//! loadgen play --url http://127.0.0.1:8081 --url http://127.0.0.1:8082 --sockets 200
//! loadgen failover --url http://127.0.0.1:8081 --url http://127.0.0.1:8082 --owner-pid PID
//! loadgen echo-server --bind 127.0.0.1:0
//! loadgen echo --url ws://127.0.0.1:PORT --sockets 1000 --duration 20s
//! loadgen idle --url http://127.0.0.1:8080 --sockets 5000 --hold 10s --server-pid PID
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use bots::echo::{EchoOptions, echo, serve};
use bots::failover::{FailoverOptions, failover};
use bots::idle::{IdleOptions, idle};
use bots::journal::Journal;
use bots::play::{PlayOptions, play};
use bots::target::server_url;
use clap::{Parser, Subcommand};
use reqwest::Url;

#[derive(Parser)]
#[command(
    name = "loadgen",
    version,
    about = "Load generator for the match server (loopback only)"
)]
struct Cli {
    /// Worker threads of the client's runtime (default: one per core).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Guest players paired into casual matches, playing random legal moves; measures act → ack.
    /// Given several nodes of a cluster, each match is created on one node and joined from the
    /// next, and the report splits the moves by whether they were sent on the match's owner.
    Play {
        /// The match server, e.g. http://127.0.0.1:8080. Give `--url` once per node of a cluster
        /// (repeat the option; not comma-separated): the sockets are spread round robin over
        /// the nodes, each match's two players on two different nodes.
        #[arg(long = "url", value_name = "URL", required = true)]
        urls: Vec<String>,
        #[arg(long, default_value_t = 100)]
        sockets: usize,
        /// How long to play once every socket is open: 20s, 500ms, 2m.
        #[arg(long, default_value = "20s", value_parser = parse_duration)]
        duration: Duration,
        /// How long to play before `--duration` begins, without counting: at a human pace the
        /// first seconds are the matches being created.
        #[arg(long, default_value = "0s", value_parser = parse_duration)]
        warmup: Duration,
        #[arg(long, default_value = "tafl")]
        game: String,
        #[arg(long, default_value = "brandubh")]
        variant: String,
        /// Sockets opened at once while connecting.
        #[arg(long, default_value_t = 64)]
        connect_concurrency: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Messages each socket sends per second at most (the server allows 30); 0 for no
        /// pacing: every move is sent as soon as the previous one has been seen.
        #[arg(long, default_value_t = bots::play::DEFAULT_RATE)]
        rate: f64,
    },
    /// Kills the node that owns a match (SIGKILL) and measures how long until the next move is
    /// acknowledged on a surviving node; prints `failover_ms=<n>`. The match is created on the
    /// first `--url`, joined from the second, and a few legal moves are played first.
    Failover {
        /// Every node of the cluster, once per `--url` (repeat the option): the first is the
        /// node that is killed, the second is where the opponent plays from; the player to
        /// move reconnects to the surviving ones (second, third...) in turn.
        #[arg(long = "url", value_name = "URL", required = true)]
        urls: Vec<String>,
        /// The process id of the first node's server, which is killed: a process of this
        /// machine whose command line (or TAFL_BIND) names the first URL's port.
        #[arg(long)]
        owner_pid: u32,
        /// Legal moves played before the kill. In tafl (the first seat moves first), an even
        /// number leaves the move to the creator on the killed node (who reconnects first), an
        /// odd one to the opponent on the second node.
        #[arg(long, default_value_t = 2)]
        moves: usize,
        /// How long to wait for the move's acknowledgement after the kill before giving up.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        give_up: Duration,
        #[arg(long, default_value = "tafl")]
        game: String,
        #[arg(long, default_value = "brandubh")]
        variant: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// A bare WebSocket echo server on a loopback address; prints its address and serves until
    /// `--for` has passed.
    EchoServer {
        #[arg(long, default_value = "127.0.0.1:0")]
        bind: SocketAddr,
        /// How long to serve before exiting by itself.
        #[arg(long = "for", default_value = "1h", value_parser = parse_duration)]
        serve_for: Duration,
        /// A loopback PostgreSQL URL: relayed frames are stored there, one group commit at a
        /// time, before they are passed on (the ceiling for a durable move).
        #[arg(long)]
        journal: Option<String>,
    },
    /// Sockets that send an act-sized frame to an echo server and wait for it, in a loop;
    /// with `--relay`, in pairs that take turns, each frame coming back and going to the
    /// partner too, as a move's ack and event do.
    Echo {
        /// The echo server, e.g. ws://127.0.0.1:9000.
        #[arg(long)]
        url: String,
        #[arg(long, default_value_t = 100)]
        sockets: usize,
        #[arg(long, default_value = "20s", value_parser = parse_duration)]
        duration: Duration,
        #[arg(long, default_value_t = 64)]
        connect_concurrency: usize,
        /// Pairs of sockets taking turns, each frame echoed and relayed to the partner.
        #[arg(long)]
        relay: bool,
    },
    /// Authenticated sockets that say hello and stay idle, to measure server memory per socket.
    Idle {
        #[arg(long)]
        url: String,
        #[arg(long, default_value_t = 1000)]
        sockets: usize,
        /// How long the sockets stay open once all are.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        hold: Duration,
        /// The server's process id, whose VmRSS is read before and while the sockets are open.
        #[arg(long)]
        server_pid: Option<u32>,
        #[arg(long, default_value_t = 64)]
        connect_concurrency: usize,
    },
}

/// Server URLs given with `--url`, each checked: loopback, one per option.
fn server_urls(texts: &[String]) -> bots::Result<Vec<Url>> {
    texts
        .iter()
        .map(|text| {
            if text.contains(',') {
                return Err(format!(
                    "'{text}': give --url once per node (repeat the option), not comma-separated"
                )
                .into());
            }
            server_url(text)
        })
        .collect()
}

/// `20s`, `500ms`, `2m`, `1h`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let n: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a duration such as 20s or 500ms"))?;
    let seconds = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("unknown unit in '{text}': use ms, s, m or h")),
    };
    Ok(Duration::from_secs_f64(seconds))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    runtime.enable_all();
    if let Some(n) = cli.threads {
        runtime.worker_threads(n.max(1));
    }
    let runtime = runtime.build().expect("a tokio runtime");
    match runtime.block_on(run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("loadgen: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> bots::Result<()> {
    match command {
        Command::Play {
            urls,
            sockets,
            duration,
            warmup,
            game,
            variant,
            connect_concurrency,
            seed,
            rate,
        } => {
            let servers = server_urls(&urls)?;
            let mut options = PlayOptions::new(servers[0].clone(), sockets, duration);
            options.servers = servers;
            options.warmup = warmup;
            options.game = game;
            options.variant = Some(variant);
            options.connect_concurrency = connect_concurrency;
            options.seed = seed;
            options.rate = (rate > 0.0).then_some(rate);
            print!("{}", play(&options).await?);
        }
        Command::Failover {
            urls,
            owner_pid,
            moves,
            give_up,
            game,
            variant,
            seed,
        } => {
            let mut options = FailoverOptions::new(server_urls(&urls)?, owner_pid);
            options.moves = moves;
            options.give_up = give_up;
            options.game = game;
            options.variant = Some(variant);
            options.seed = seed;
            let measured = failover(&options).await?;
            eprint!("{measured}");
            println!("failover_ms={}", measured.elapsed.as_millis());
        }
        Command::EchoServer {
            bind,
            serve_for,
            journal,
        } => {
            let journal = match journal {
                Some(url) => Some(Journal::open(&url).await?),
                None => None,
            };
            let server = serve(bind, journal).await?;
            println!("ws://{}", server.addr);
            let _ = tokio::time::timeout(serve_for, server.task).await;
        }
        Command::Echo {
            url,
            sockets,
            duration,
            connect_concurrency,
            relay,
        } => {
            let mut options = EchoOptions::new(url, sockets, duration);
            options.connect_concurrency = connect_concurrency;
            options.relay = relay;
            print!("{}", echo(&options).await?);
        }
        Command::Idle {
            url,
            sockets,
            hold,
            server_pid,
            connect_concurrency,
        } => {
            let options = IdleOptions {
                server: server_url(&url)?,
                sockets,
                hold,
                server_pid,
                connect_concurrency,
            };
            print!("{}", idle(&options).await?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("3d").is_err());
    }

    #[test]
    fn urls_are_given_once_per_node() {
        let cli = Cli::try_parse_from([
            "loadgen",
            "play",
            "--url",
            "http://127.0.0.1:8081",
            "--url",
            "http://127.0.0.1:8082",
        ])
        .unwrap();
        let Command::Play { urls, .. } = cli.command else {
            panic!("play");
        };
        assert_eq!(server_urls(&urls).unwrap().len(), 2);
        let one = vec!["http://127.0.0.1:8081,http://127.0.0.1:8082".to_string()];
        assert!(
            server_urls(&one)
                .unwrap_err()
                .to_string()
                .contains("once per node")
        );
        assert!(Cli::try_parse_from(["loadgen", "play"]).is_err());
        let far = vec![
            "http://127.0.0.1:8081".to_string(),
            "http://10.0.0.2:8081".to_string(),
        ];
        assert!(server_urls(&far).is_err());
    }
}
