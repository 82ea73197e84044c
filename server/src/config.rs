//! Server configuration, from flags or environment variables.

use std::net::SocketAddr;

use clap::{Parser, ValueEnum};

#[derive(Parser, Clone, Debug)]
#[command(name = "server", version, about = "The tafl match server")]
pub struct Config {
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
    /// Largest WebSocket frame (and message) accepted, in bytes.
    #[arg(long, env = "TAFL_MAX_FRAME_BYTES", default_value_t = 64 * 1024)]
    pub max_frame_bytes: usize,
    /// Largest REST request body accepted, in bytes.
    #[arg(long, env = "TAFL_MAX_BODY_BYTES", default_value_t = 16 * 1024)]
    pub max_body_bytes: usize,
    /// Logins each client address may try per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_LOGINS_PER_MINUTE", default_value_t = 10)]
    pub logins_per_minute: u32,
    /// Logins a client address may try in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_LOGIN_BURST", default_value_t = 20)]
    pub login_burst: u32,
    /// Registrations each client address may try per minute, on average (0: no limit).
    #[arg(long, env = "TAFL_REGISTRATIONS_PER_MINUTE", default_value_t = 2)]
    pub registrations_per_minute: u32,
    /// Registrations a client address may try in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_REGISTRATION_BURST", default_value_t = 10)]
    pub registration_burst: u32,
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
    /// Other origins whose pages may call the API from a browser (CORS), comma-separated, as
    /// `https://club.example`; `*` allows any. Unset: same-origin pages only.
    #[arg(long, env = "TAFL_CORS_ORIGINS", value_delimiter = ',', value_parser = parse_origin)]
    pub cors_origins: Vec<String>,
    /// How long a disconnected player's opponents wait before they may claim the win.
    #[arg(long, env = "TAFL_DISCONNECT_GRACE_SECS", default_value_t = 60)]
    pub disconnect_grace_secs: u64,
    /// How long the room of an unfinished match that nobody follows, with no clock running,
    /// stays in memory. The match stays stored; the next command for it wakes its room.
    #[arg(long, env = "TAFL_ROOM_SLEEP_SECS", default_value_t = 600)]
    pub room_sleep_secs: u64,
    /// How long a session token stays valid.
    #[arg(long, env = "TAFL_SESSION_DAYS", default_value_t = 30)]
    pub session_days: u64,
    /// Seconds between server pings on an idle socket; a socket silent for three intervals is
    /// closed.
    #[arg(long, env = "TAFL_PING_SECS", default_value_t = 20)]
    pub ping_secs: u64,
    /// Events each match keeps for resuming clients; older gaps get a snapshot.
    #[arg(long, env = "TAFL_RESUME_EVENTS", default_value_t = 64)]
    pub resume_events: usize,
    /// Searches the AI may run at once (each on its own blocking thread).
    #[arg(long, env = "TAFL_AI_THREADS", default_value_t = 2)]
    pub ai_threads: usize,
    /// Longest the AI thinks about one move, in milliseconds (less on a short clock).
    #[arg(long, env = "TAFL_AI_MOVE_MS", default_value_t = 1000)]
    pub ai_move_ms: u64,
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
    #[arg(long, env = "TAFL_TOURNAMENT_POLL_MS", default_value_t = 1000)]
    pub tournament_poll_ms: u64,
    /// WebSocket messages each socket may send per second, on average.
    #[arg(long, env = "TAFL_WS_MESSAGES_PER_SEC", default_value_t = 30)]
    pub ws_messages_per_sec: u32,
    /// WebSocket messages a socket may send in one burst before `rate_limited`.
    #[arg(long, env = "TAFL_WS_MESSAGE_BURST", default_value_t = 60)]
    pub ws_message_burst: u32,
    /// On SIGTERM or Ctrl-C, the longest the server takes to say goodbye to every socket, let
    /// every match finish what it is doing and close the database, in seconds.
    #[arg(long, env = "TAFL_SHUTDOWN_SECS", default_value_t = 10)]
    pub shutdown_secs: u64,
}

impl Config {
    /// The matchmaking window these settings describe.
    pub fn queue_window(&self) -> crate::queue::wave::Window {
        crate::queue::wave::Window {
            initial: self.queue_window,
            per_second: self.queue_window_growth,
            max: self.queue_window_max,
        }
    }
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}
