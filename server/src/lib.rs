//! The match server: axum + tokio. WebSocket sessions (`ws.rs`) talk to one actor per live match
//! (`room.rs`, found through `rooms.rs`); accounts (`auth.rs`) and the REST API (`http.rs`) share
//! the store (`store.rs`, PostgreSQL or SQLite); ratings are Elo (`ratings.rs`).

pub mod auth;
pub mod config;
pub mod error;
pub mod hosted;
pub mod http;
pub mod limits;
pub mod openapi;
pub mod queue;
pub mod ratings;
pub mod room;
pub mod rooms;
pub mod sockets;
pub mod state;
pub mod store;
pub mod tournament;
pub mod web;
pub mod ws;

use std::net::SocketAddr;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get};
use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::state::AppState;
use crate::store::Store;

/// Milliseconds since the Unix epoch: the timestamps stored with sessions, actions and results.
pub fn clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub fn app(state: AppState) -> Router {
    let body_limit = state.config().max_body_bytes;
    let cors = limits::cors(state.config());
    let router = Router::new()
        .route("/ws", get(ws::upgrade))
        .merge(http::routes())
        .merge(tournament::http::routes())
        .merge(web::routes())
        .merge(openapi::routes())
        // An unknown `/api/` path or a method a path does not serve gets a JSON error too.
        .route("/api/{*path}", any(error::no_endpoint))
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state);
    match cors {
        Some(cors) => router.layer(cors),
        None => router,
    }
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Connects the store, restores every unfinished match, binds and serves in a background task.
pub async fn start(config: Config) -> Result<Running, Box<dyn std::error::Error + Send + Sync>> {
    let store = Store::connect(&config.database_url).await?;
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let ai_players = store.ai_players().await?;
    let state = AppState::new(config, store, ai_players);
    state.start_actors();
    let restored = state.rooms().restore_all().await?;
    tracing::info!(%addr, restored, "serving");
    // No Nagle delay: an ack and an event go out as two small writes, and the second would
    // otherwise wait for the peer's delayed ACK (40 ms on Linux).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            // The peer's address, for the per-address limits.
            app(state).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    Ok(Running { addr, task })
}
