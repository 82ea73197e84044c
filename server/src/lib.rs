//! The match server: axum + tokio. WebSocket sessions (`ws.rs`) talk to one actor per live match
//! (`room.rs`, found through `rooms.rs`); accounts (`accounts/`) and the REST API share
//! the store (`store.rs`, PostgreSQL or SQLite); ratings are Elo (`ratings.rs`).

pub mod accounts;
pub mod analysis;
pub mod chat;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod error;
pub mod explorer;
pub mod extract;
pub mod headers;
pub mod housekeeping;
pub mod http;
pub mod limits;
pub mod lobby;
pub mod matches;
pub mod metrics;
pub mod offers;
pub mod open_data;
pub mod openapi;
pub mod origin;
pub mod policy;
pub mod queue;
pub mod ratings;
pub mod request_id;
pub mod resends;
pub mod rules;
pub mod security;
pub mod series;
pub mod shutdown;
pub mod sockets;
pub mod state;
pub mod store;
pub mod tournament;
pub mod web;
pub mod ws;

use std::future::IntoFuture;
use std::net::SocketAddr;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get};
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;

use crate::config::Config;
use crate::state::AppState;
use crate::store::Store;

pub fn app(state: AppState) -> Router {
    let body_limit = state.config().max_body_bytes;
    let cors = limits::cors(state.config());
    let https = state.config().https;
    let mut router = Router::new().route("/ws", get(ws::upgrade));
    // With an address of their own, the metrics are not on the public port.
    if state.config().metrics_bind.is_none() {
        router = router.route("/metrics", get(metrics::serve));
    }
    let router = router
        .merge(accounts::routes())
        .merge(http::routes())
        .merge(matches::http::routes())
        .merge(tournament::http::routes())
        .merge(series::http::routes())
        .merge(analysis::http::routes())
        .merge(explorer::http::routes())
        .merge(open_data::http::routes())
        .merge(chat::http::routes())
        .merge(rules::routes())
        .merge(web::routes())
        .merge(openapi::routes())
        // An unknown `/api/` path or a method a path does not serve gets a JSON error too.
        .route("/api/{*path}", any(error::no_endpoint))
        .method_not_allowed_fallback(error::method_not_allowed)
        // Brotli or gzip, as the client takes them, for what is not compressed already (the
        // client's own files are, once: see `web.rs`). Empty answers, a socket's upgrade among
        // them, and images go as they are.
        .layer(CompressionLayer::new())
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            origin::guard,
        ))
        .layer(axum::middleware::from_fn(request_id::span))
        .with_state(state);
    let router = match cors {
        Some(cors) => router.layer(cors),
        None => router,
    };
    // Outermost, so that every answer has them, the CORS layer's own too.
    headers::secure(router, https)
}

/// The limits in force, in one line, so that an operator sees what the server enforces.
fn log_limits(c: &Config) {
    tracing::info!(
        logins_per_minute = c.logins_per_minute,
        registrations_per_minute = c.registrations_per_minute,
        guests_per_minute = c.guests_per_minute,
        visitor_positions_per_minute = c.visitor_positions_per_minute,
        analyses_per_minute = c.analyses_per_minute,
        analysis_ms = c.analysis_ms,
        chat_messages_per_minute = c.chat_messages_per_minute,
        ws_messages_per_sec = c.ws_messages_per_sec,
        sockets_per_player = c.sockets_per_player,
        visitor_sockets_per_address = c.visitor_sockets_per_address,
        open_matches_per_player = c.open_matches_per_player,
        tournaments_per_day = c.tournaments_per_day,
        challenges_per_minute = c.challenges_per_minute,
        challenge_secs = c.challenge_secs,
        rated_games_per_pair = c.rated_games_per_pair,
        guest_idle_days = c.guest_idle_days,
        idle_match_mins = c.idle_match_mins,
        session_days = c.session_days,
        max_frame_bytes = c.max_frame_bytes,
        cors_origins = ?c.cors_origins,
        "limits in force"
    );
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Triggers the graceful shutdown; `task` ends once it is done.
    pub shutdown: shutdown::Shutdown,
}

/// Binds a listener, or says which address could not be had and why.
async fn listen(addr: SocketAddr, what: &str) -> Result<TcpListener, String> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| format!("could not listen for {what} on {addr}: {e}"))
}

/// The address to open in a browser for a listener bound to `addr`.
fn url_of(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        format!(
            "http://localhost:{}/ (listening on every interface)",
            addr.port()
        )
    } else {
        format!("http://{addr}/")
    }
}

/// Connects the store, restores every unfinished match, binds and serves in a background task.
/// Every failure names what failed: the setting, the address, or the database.
pub async fn start(config: Config) -> Result<Running, Box<dyn std::error::Error + Send + Sync>> {
    config.validate()?;
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        "tafl match server starting"
    );
    let database = store::describe(&config.database_url);
    let store = Store::connect(&config.database_url)
        .await?
        .claim_sole_server(&config.database_url)?;
    tracing::info!(%database, "database open, migrations applied");
    let listener = listen(config.bind, "HTTP and WebSocket").await?;
    let addr = listener.local_addr()?;
    let metrics_listener = match config.metrics_bind {
        Some(at) => Some(listen(at, "metrics").await?),
        None => None,
    };
    let ai_players = store.ai_players(clock::now_ms()).await?;
    let solo = store.backend() == store::Backend::Sqlite;
    let url = &config.database_url;
    let cluster = cluster::Cluster::join(&store, url, &config.node_name(), solo).await?;
    tracing::info!(
        node_id = cluster.node().0,
        node = cluster.name(),
        solo,
        "joined the cluster"
    );
    let state = AppState::new(config, store, cluster, ai_players);
    // The node's heartbeat and its messages first: the actors may send some.
    cluster::heartbeat::start(state.clone());
    state.start_actors();
    housekeeping::start(state.clone());
    explorer::indexer::start(state.clone());
    let restored = state.rooms().restore_all().await?;
    let held = state.store().counts().await?;
    tracing::info!(
        restored_matches = restored,
        players = held.players,
        finished_matches = held.finished_matches,
        running_tournaments = held.running_tournaments,
        "restored every unfinished match"
    );
    log_limits(state.config());
    let metrics_addr = match metrics_listener {
        Some(listener) => {
            let at = listener.local_addr()?;
            let metrics_app = Router::new().route("/metrics", get(metrics::serve));
            tokio::spawn(async move { axum::serve(listener, metrics_app).await });
            at
        }
        None => addr,
    };
    tracing::info!(
        url = %url_of(addr),
        websocket = %format!("ws://{addr}/ws"),
        metrics = %format!("http://{metrics_addr}/metrics"),
        "serving: open the url in a browser"
    );
    // No Nagle delay: an ack and an event go out as two small writes, and the second would
    // otherwise wait for the peer's delayed ACK (40 ms on Linux).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let shutdown = state.shutdown().clone();
    let stop_after = std::time::Duration::from_secs(state.config().shutdown_secs);
    let task = tokio::spawn(async move {
        // The HTTP server stops once every socket has said goodbye: it would cut an upgraded
        // connection it still holds without a close frame.
        let goodbyes = {
            let state = state.clone();
            async move {
                state.shutdown().stopped().await;
                let deadline = tokio::time::Instant::now() + stop_after;
                state.shutdown().sessions.idle(deadline).await;
            }
        };
        let serving = axum::serve(
            listener,
            // The peer's address, for the per-address limits.
            app(state.clone()).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(goodbyes)
        .into_future();
        tokio::pin!(serving);
        tokio::select! {
            // Once stopping, serving may end before this task looks again: the stop must win,
            // so that the rooms and the store are drained.
            biased;
            () = state.shutdown().stopped() => {
                // The sockets say goodbye, requests in progress finish (in time), then the
                // rooms and the store close.
                let deadline = tokio::time::Instant::now() + stop_after;
                let served = tokio::time::timeout_at(deadline, serving).await;
                state.drain(deadline).await;
                match served {
                    Ok(served) => served?,
                    Err(_) => tracing::warn!("HTTP requests still in progress at the shutdown deadline"),
                }
            }
            served = &mut serving => served?,
        }
        Ok(())
    });
    Ok(Running {
        addr,
        task,
        shutdown,
    })
}
