//! Server configuration, from flags or environment variables.

use std::net::SocketAddr;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser, Clone, Debug)]
#[command(name = "server", version, about = "The tafl match server")]
pub struct Config {
    /// Without a command, the server serves.
    #[command(subcommand)]
    pub command: Option<Operation>,
    /// Address to listen on. The default is loopback only; a deployment sets 0.0.0.0:8080.
    #[arg(long, env = "TAFL_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// `postgres://user:pass@host/db` for PostgreSQL, or `sqlite://path` for the embedded
    /// database (created if missing).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://tafl.db")]
    pub database_url: String,
    /// Log filter, as `RUST_LOG` takes it (`info`, `server=debug`...).
    #[arg(long, env = "TAFL_LOG", default_value = "info")]
    pub log: String,
    #[arg(long, env = "TAFL_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Largest WebSocket frame (and message) accepted, in bytes (at least 256).
    #[arg(long, env = "TAFL_MAX_FRAME_BYTES", default_value_t = 64 * 1024, value_parser = at_least_usize(256))]
    pub max_frame_bytes: usize,
    /// Largest REST request body accepted, in bytes (at least 256).
    #[arg(long, env = "TAFL_MAX_BODY_BYTES", default_value_t = 16 * 1024, value_parser = at_least_usize(256))]
    pub max_body_bytes: usize,
    /// Address to serve `GET /metrics` (Prometheus) on, apart from the public port; unset, it
    /// is served on `--bind` with everything else.
    #[arg(long, env = "TAFL_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
    /// Logins each client address may try per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_LOGINS_PER_MINUTE", default_value_t = 10)]
    pub logins_per_minute: u32,
    /// Logins a client address may try in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_LOGIN_BURST", default_value_t = 20, value_parser = at_least_u32(1))]
    pub login_burst: u32,
    /// Registrations each client address may try per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_REGISTRATIONS_PER_MINUTE", default_value_t = 2)]
    pub registrations_per_minute: u32,
    /// Registrations a client address may try in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_REGISTRATION_BURST", default_value_t = 10, value_parser = at_least_u32(1))]
    pub registration_burst: u32,
    /// Guest accounts each client address may make per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_GUESTS_PER_MINUTE", default_value_t = 6)]
    pub guests_per_minute: u32,
    /// Guest accounts a client address may make in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_GUEST_BURST", default_value_t = 20, value_parser = at_least_u32(1))]
    pub guest_burst: u32,
    /// Positions (`POST /api/analysis/position`, which lessons play through) each client address
    /// without a session may ask for per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_VISITOR_POSITIONS_PER_MINUTE", default_value_t = 60)]
    pub visitor_positions_per_minute: u32,
    /// Positions a client address without a session may ask for in one burst before
    /// `rate_limited`.
    #[arg(long, env = "TAFL_VISITOR_POSITION_BURST", default_value_t = 30, value_parser = at_least_u32(1))]
    pub visitor_position_burst: u32,
    /// Chat messages each player may write per minute, on average, in every channel together
    /// (0: no limit).
    #[arg(long, env = "TAFL_CHAT_MESSAGES_PER_MINUTE", default_value_t = 12)]
    pub chat_messages_per_minute: u32,
    /// Chat messages a player may write in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_CHAT_BURST", default_value_t = 5, value_parser = at_least_u32(1))]
    pub chat_burst: u32,
    /// A guest account nobody has used for this many days is removed; its finished matches
    /// stay, under an anonymous name.
    #[arg(long, env = "TAFL_GUEST_IDLE_DAYS", default_value_t = 30, value_parser = at_least(1))]
    pub guest_idle_days: u64,
    /// Rated games the same two accounts may play against each other in 24 hours; later ones
    /// are played casual, and the players are told before they start.
    #[arg(long, env = "TAFL_RATED_GAMES_PER_PAIR", default_value_t = 5, value_parser = at_least_u32(1))]
    pub rated_games_per_pair: u32,
    /// Matches a player may have open (waiting for opponents) at once.
    #[arg(long, env = "TAFL_OPEN_MATCHES_PER_PLAYER", default_value_t = 3, value_parser = at_least_u32(1))]
    pub open_matches_per_player: u32,
    /// WebSocket connections one player may have open at once.
    #[arg(long, env = "TAFL_SOCKETS_PER_PLAYER", default_value_t = 10, value_parser = at_least_u32(1))]
    pub sockets_per_player: u32,
    /// WebSocket connections opened without a session (visitors, who may only watch) that one
    /// client address may have open at once.
    #[arg(long, env = "TAFL_VISITOR_SOCKETS_PER_ADDRESS", default_value_t = 20, value_parser = at_least_u32(1))]
    pub visitor_sockets_per_address: u32,
    /// Challenges each player may make per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_CHALLENGES_PER_MINUTE", default_value_t = 6)]
    pub challenges_per_minute: u32,
    /// Challenges a player may make in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_CHALLENGE_BURST", default_value_t = 6, value_parser = at_least_u32(1))]
    pub challenge_burst: u32,
    /// How long a challenge waits for its answer before it expires, in seconds.
    #[arg(long, env = "TAFL_CHALLENGE_SECS", default_value_t = 120, value_parser = at_least(1))]
    pub challenge_secs: u64,
    /// Tournaments one player may create in 24 hours.
    #[arg(long, env = "TAFL_TOURNAMENTS_PER_DAY", default_value_t = 3, value_parser = at_least_u32(1))]
    pub tournaments_per_day: u32,
    /// A casual match without a clock in which nobody has acted for this many minutes (or that
    /// nobody joined) is aborted.
    #[arg(long, env = "TAFL_IDLE_MATCH_MINS", default_value_t = 7 * 24 * 60, value_parser = at_least(1))]
    pub idle_match_mins: u64,
    /// How often the housekeeping runs (removing idle guests, aborting idle matches), in
    /// seconds.
    #[arg(long, env = "TAFL_HOUSEKEEPING_SECS", default_value_t = 60, value_parser = at_least(1))]
    pub housekeeping_secs: u64,
    /// Vacation each player has in any 365 days, in days: while a player is on vacation, the
    /// clocks of their correspondence matches stand still (0: no vacations).
    #[arg(long, env = "TAFL_VACATION_DAYS", default_value_t = 14)]
    pub vacation_days: u64,
    /// For tests only: a day's length in milliseconds (24 hours when unset). The days a
    /// `correspondence` move may take, the vacation allowance and its year of 365 days are
    /// counted in it, so that a test of correspondence play need not wait for days.
    #[arg(long, env = "TAFL_DAY_MS", default_value_t = protocol::DAY_MS, hide = true, value_parser = at_least(1))]
    pub day_ms: u64,
    /// Failed logins a username may have before each further failure locks it for a while.
    #[arg(long, env = "TAFL_LOGIN_FREE_FAILURES", default_value_t = 5)]
    pub login_free_failures: u32,
    /// The first lock after too many failed logins, in seconds; it doubles with each further
    /// failure...
    #[arg(long, env = "TAFL_LOGIN_BACKOFF_SECS", default_value_t = 2)]
    pub login_backoff_secs: u64,
    /// ...up to this; a username left alone this long after its last failure or lock starts
    /// afresh.
    #[arg(long, env = "TAFL_LOGIN_BACKOFF_MAX_SECS", default_value_t = 300)]
    pub login_backoff_max_secs: u64,
    /// The header a reverse proxy puts the client's address in (`X-Forwarded-For`,
    /// `X-Real-IP`), for the per-address limits; its last address is taken. Unset: the peer's
    /// address (set it only behind a proxy that writes the header, or clients could forge it).
    #[arg(long, env = "TAFL_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<axum::http::HeaderName>,
    /// The licence the open data files (every finished rated game, by month) are offered under,
    /// shown with them: an SPDX identifier or words.
    #[arg(long, env = "TAFL_OPEN_DATA_LICENCE", default_value = "CC0-1.0")]
    pub open_data_licence: String,
    /// Other origins whose pages may call the API from a browser (CORS), comma-separated, as
    /// `https://club.example`; `*` allows any. Unset: same-origin pages only.
    #[arg(long, env = "TAFL_CORS_ORIGINS", value_delimiter = ',', value_parser = parse_origin)]
    pub cors_origins: Vec<String>,
    /// Browsers reach the server over HTTPS (a TLS-terminating proxy in front): responses carry
    /// `Strict-Transport-Security` (a year) and the session cookie is `Secure`. Leave it off
    /// while the server is reached over plain HTTP, or browsers that saw it would refuse to.
    #[arg(long, env = "TAFL_HTTPS")]
    pub https: bool,
    /// How long a disconnected player's opponents wait before they may claim the win.
    #[arg(long, env = "TAFL_DISCONNECT_GRACE_SECS", default_value_t = 60)]
    pub disconnect_grace_secs: u64,
    /// How long the room of an unfinished match that nobody follows, with no clock running,
    /// stays in memory. The match stays stored; the next command for it wakes its room.
    #[arg(long, env = "TAFL_ROOM_SLEEP_SECS", default_value_t = 600, value_parser = at_least(1))]
    pub room_sleep_secs: u64,
    /// How long a session token stays valid (at least 1).
    #[arg(long, env = "TAFL_SESSION_DAYS", default_value_t = 30, value_parser = at_least(1))]
    pub session_days: u64,
    /// Seconds between server pings on an idle socket; a socket silent for three intervals is
    /// closed.
    #[arg(long, env = "TAFL_PING_SECS", default_value_t = 20, value_parser = at_least(1))]
    pub ping_secs: u64,
    /// This node's name in `/api/health`, `/metrics` and the logs, when several server processes
    /// share one PostgreSQL (the host name and process id when not given).
    #[arg(long, env = "TAFL_NODE_NAME")]
    pub node_name: Option<String>,
    /// Events each match keeps for resuming clients; older gaps get a snapshot.
    #[arg(long, env = "TAFL_RESUME_EVENTS", default_value_t = 64, value_parser = at_least_usize(1))]
    pub resume_events: usize,
    /// Searches the AI may run at once (each on its own blocking thread).
    #[arg(long, env = "TAFL_AI_THREADS", default_value_t = 2, value_parser = at_least_usize(1))]
    pub ai_threads: usize,
    /// Longest the AI thinks about one move, in milliseconds (less on a short clock).
    #[arg(long, env = "TAFL_AI_MOVE_MS", default_value_t = 1000)]
    pub ai_move_ms: u64,
    /// The bound on one analysis's search (`POST /api/analysis`), in milliseconds, and on its
    /// wait for an AI thread before it (then it is refused as busy).
    #[arg(long, env = "TAFL_ANALYSIS_MS", default_value_t = 2000, value_parser = at_least(1))]
    pub analysis_ms: u64,
    /// The most nodes (tafl) or iterations (the other games) one analysis searches.
    #[arg(long, env = "TAFL_ANALYSIS_NODES", default_value_t = 5_000_000, value_parser = at_least(1))]
    pub analysis_nodes: u64,
    /// Analyses each player may ask for per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_ANALYSES_PER_MINUTE", default_value_t = 30)]
    pub analyses_per_minute: u32,
    /// Analyses a player may ask for in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_ANALYSIS_BURST", default_value_t = 10, value_parser = at_least_u32(1))]
    pub analysis_burst: u32,
    /// Rating difference the matchmaking queue accepts at first...
    #[arg(long, env = "TAFL_QUEUE_WINDOW", default_value_t = 100.0)]
    pub queue_window: f64,
    /// ...widened by this much per second of waiting...
    #[arg(long, env = "TAFL_QUEUE_WINDOW_GROWTH", default_value_t = 25.0)]
    pub queue_window_growth: f64,
    /// ...up to this.
    #[arg(long, env = "TAFL_QUEUE_WINDOW_MAX", default_value_t = 800.0)]
    pub queue_window_max: f64,
    /// How long a tournament player has to come to their game (follow its match) before they
    /// forfeit it.
    #[arg(long, env = "TAFL_TOURNAMENT_NO_SHOW_SECS", default_value_t = 120)]
    pub tournament_no_show_secs: u64,
    /// How often the tournament director looks for finished games and rounds to start, in
    /// milliseconds.
    #[arg(long, env = "TAFL_TOURNAMENT_POLL_MS", default_value_t = 1000, value_parser = at_least(10))]
    pub tournament_poll_ms: u64,
    /// WebSocket messages each socket may send per second, on average.
    #[arg(long, env = "TAFL_WS_MESSAGES_PER_SEC", default_value_t = 30, value_parser = at_least_u32(1))]
    pub ws_messages_per_sec: u32,
    /// WebSocket messages a socket may send in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_WS_MESSAGE_BURST", default_value_t = 60, value_parser = at_least_u32(1))]
    pub ws_message_burst: u32,
    /// On SIGTERM or Ctrl-C, the longest the server takes to say goodbye to every socket, let
    /// every match finish what it is doing and close the database, in seconds.
    #[arg(long, env = "TAFL_SHUTDOWN_SECS", default_value_t = 10)]
    pub shutdown_secs: u64,
}

impl Config {
    /// Checks what one setting alone cannot say; the error names the settings.
    /// This node's name: as configured, or the host name and process id.
    pub fn node_name(&self) -> String {
        self.node_name.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "node".to_string());
            format!("{host}-{}", std::process::id())
        })
    }

    pub fn validate(&self) -> Result<(), String> {
        let window = [
            ("--queue-window", self.queue_window),
            ("--queue-window-growth", self.queue_window_growth),
            ("--queue-window-max", self.queue_window_max),
        ];
        if let Some((name, value)) = window.iter().find(|(_, v)| !v.is_finite() || *v < 0.0) {
            return Err(format!(
                "{name} must be a number of at least 0, not {value}"
            ));
        }
        if self.queue_window_max < self.queue_window {
            return Err(format!(
                "--queue-window-max ({}) must be at least --queue-window ({})",
                self.queue_window_max, self.queue_window
            ));
        }
        if self.login_backoff_max_secs < self.login_backoff_secs {
            return Err(format!(
                "--login-backoff-max-secs ({}) must be at least --login-backoff-secs ({})",
                self.login_backoff_max_secs, self.login_backoff_secs
            ));
        }
        if self
            .metrics_bind
            .is_some_and(|m| m == self.bind && m.port() != 0)
        {
            return Err(format!(
                "--metrics-bind ({}) must differ from --bind",
                self.bind
            ));
        }
        Ok(())
    }
}

/// A whole number setting with a floor: clap's error then names the setting and the range.
fn at_least(min: u64) -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(min..)
}

fn at_least_u32(min: u32) -> clap::builder::RangedU64ValueParser<u32> {
    clap::builder::RangedU64ValueParser::<u32>::new().range(u64::from(min)..)
}

fn at_least_usize(min: usize) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(min as u64..)
}

/// An origin as browsers send it: `*`, or a scheme and a host with an optional port, and nothing
/// after (a trailing slash or a path would never match a browser's `Origin` header).
fn parse_origin(origin: &str) -> Result<String, String> {
    let origin = origin.trim();
    let host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    match host {
        _ if origin == "*" => Ok(origin.to_string()),
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', ' ']) => {
            Ok(origin.to_string())
        }
        _ => Err(format!(
            "'{origin}' is not an origin such as https://club.example or http://localhost:3000"
        )),
    }
}

/// What an operator runs instead of serving.
#[derive(Subcommand, Clone, Debug)]
pub enum Operation {
    /// Account administration, on the database of `--database-url` (the server may be running).
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
    /// The open data files, on the database of `--database-url`.
    OpenData {
        #[command(subcommand)]
        action: OpenDataAction,
    },
    /// The opening explorer, on the database of `--database-url`.
    Explorer {
        #[command(subcommand)]
        action: ExplorerAction,
    },
}

#[derive(Subcommand, Clone, Debug)]
pub enum OpenDataAction {
    /// Writes a month's finished rated games to a folder, as `GET /api/open-data` serves them:
    /// `tafl-YYYY-MM-records.txt` and `tafl-YYYY-MM-games.csv`.
    Export {
        /// The month, `YYYY-MM`, in UTC.
        #[arg(long)]
        month: String,
        /// The folder to write to (made if missing).
        #[arg(long, default_value = ".")]
        dir: std::path::PathBuf,
    },
}

#[derive(Subcommand, Clone, Debug)]
pub enum ExplorerAction {
    /// Forgets the explorer's counts and counts every finished tafl game again: after an
    /// upgrade that changes what is counted (the release notes say so). Best run with the
    /// server stopped; a running server counts games that finish meanwhile as usual.
    Rebuild,
}

#[derive(Subcommand, Clone, Debug)]
pub enum AdminAction {
    /// Makes an account an admin: it may then ban accounts and read security events over REST.
    Grant { name: String },
    /// Makes an admin an ordinary account again.
    Revoke { name: String },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}
