//! The REST API's server-wide routes: leaderboards, the games catalog, the queue, health (the
//! routes of accounts are in `accounts/`, of matches in `matches/http.rs`, of tournaments in
//! `tournament/http.rs`). Every error is an `ErrorBody` JSON with the status its code maps to.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{
    ErrorBody, ErrorReason, GameInfo, Health, Leaderboard, LeaderboardEntry, QueuePool,
    VariantPreview,
};
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::extract::Page;
use crate::matches::hosted;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/leaderboard/{game}/{variant}", get(leaderboard))
        .route("/api/queue", get(queue))
        .route("/api/games", get(games))
        .route("/api/games/{game}/preview", get(preview))
        .route("/api/health", get(health))
}

#[utoipa::path(
    get,
    path = "/api/leaderboard/{game}/{variant}",
    tag = "players",
    summary = "A pool's leaderboard",
    description = "The players rated in one pool (a game and variant), best first, with their \
        rated games played.",
    params(
        ("game" = String, Path, description = "A game, as `tafl`"),
        ("variant" = String, Path, description = "One of its variants, as `copenhagen`"),
        Page,
    ),
    responses(
        (status = 200, description = "One page of the leaderboard", body = Leaderboard),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: no such game or variant", body = ErrorBody),
    ),
)]
async fn leaderboard(
    State(state): State<AppState>,
    Path((game, variant)): Path<(String, String)>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Leaderboard>> {
    let (page, per_page) = Page::read(page)?;
    let pool = format!("{game}/{variant}");
    hosted::settle(&game, Some(&variant), None, true)
        .map_err(|_| ApiError::new(ErrorReason::NotFound, format!("there is no pool {pool}")))?;
    let rows = state.store().leaderboard(&pool, page, per_page).await?;
    let first_rank = (page - 1) * per_page + 1;
    let entries = rows
        .into_iter()
        .enumerate()
        .map(|(i, (player, rating, games))| LeaderboardEntry {
            rank: first_rank + i as u32,
            player: player.public(),
            rating,
            games,
        })
        .collect();
    Ok(Json(Leaderboard {
        pool,
        page,
        per_page,
        entries,
    }))
}

/// The longest the health check waits for the database.
const HEALTH_PATIENCE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Whether the server can serve matches: its database answers. Also says which node answered,
/// which nodes of the cluster are live, and how many matches the answering node owns.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "server",
    summary = "Health check",
    description = "Whether this node can serve matches (its database answers), the protocol \
        versions it serves, which node it is, the cluster's live nodes, and how many matches this node owns. Any node serves any \
        request: a load balancer may send each to any live node.",
    responses(
        (status = 200, description = "Serving", body = Health),
        (status = 503, description = "The database does not answer", body = Health),
    ),
)]
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    // A database that hangs must not hang the health check: a load balancer waits for it.
    let ping = tokio::time::timeout(HEALTH_PATIENCE, state.store().ping()).await;
    let (status, text, database) = match ping {
        Ok(Ok(())) => (StatusCode::OK, "ok", "ok"),
        Ok(Err(_)) | Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "unavailable",
        ),
    };
    let cluster = state.cluster();
    let health = Health {
        status: text.into(),
        database: database.into(),
        protocol_version: protocol::PROTOCOL_VERSION,
        oldest_protocol_version: protocol::OLDEST_PROTOCOL_VERSION,
        node: cluster.me(),
        nodes: cluster.live_nodes(),
        owned_matches: state.rooms().count() as u64,
    };
    (status, Json(health))
}

/// The games the server plays, from the engine's catalog.
#[utoipa::path(
    get,
    path = "/api/games",
    tag = "matches",
    summary = "The games, their variants and seats",
    description = "Every game the server plays, from the engine's catalog: its named variants \
        (the default first) with their seat counts and, where the game has one, their rules in \
        an interchange notation (tafl: OpenTafl's rules string), and the names of its seats. \
        Clients build their pickers and boards from it.",
    responses((status = 200, description = "The games", body = Vec<GameInfo>)),
)]
async fn games() -> Json<Vec<GameInfo>> {
    Json(hosted::catalog())
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreviewOf {
    /// A named variant, or for tafl any OpenTafl rules string (a custom variant).
    variant: Option<String>,
    /// Seats; the variant's fewest when absent.
    seats: Option<u8>,
}

/// A variant's start position, to show before creating a match: how the browser previews a
/// custom tafl variant as its rules string is typed, with the engine's own error (naming the
/// switch it refuses) when the string is not one it plays.
#[utoipa::path(
    get,
    path = "/api/games/{game}/preview",
    tag = "matches",
    summary = "A variant's start, before creating a match",
    params(("game" = String, Path, description = "A game, as `tafl`"), PreviewOf),
    responses(
        (status = 200, description = "The start", body = VariantPreview),
        (status = 400, description = "`bad_request`: no such game, or a variant or seat count it does not play (the message says why)", body = ErrorBody),
    ),
)]
async fn preview(
    Path(game): Path<String>,
    query: Result<Query<PreviewOf>, QueryRejection>,
) -> ApiResult<Json<VariantPreview>> {
    let Query(asked) = query.map_err(|e| ApiError::new(ErrorReason::BadRequest, e.body_text()))?;
    let settled = hosted::settle(&game, asked.variant.as_deref(), asked.seats, false)?;
    let (variant, seats) = (settled.variant, settled.seats);
    let start = hosted::host(&game, &variant, usize::from(seats), 0)?;
    Ok(Json(VariantPreview {
        named: settled.named,
        rules: hosted::rules_text(&game, &variant),
        view: start.view(None),
        game,
        variant,
        seats,
    }))
}

/// The matchmaking pools with players waiting.
#[utoipa::path(
    get,
    path = "/api/queue",
    tag = "matches",
    summary = "Matchmaking pools with players waiting",
    responses((status = 200, description = "The pools", body = Vec<QueuePool>)),
)]
async fn queue(State(state): State<AppState>) -> ApiResult<Json<Vec<QueuePool>>> {
    Ok(Json(state.queue().pools().await?))
}
