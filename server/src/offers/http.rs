//! The offers wing's REST routes: whom a player follows (and following or not), and the logged-in
//! player's settings, which say whom they take challenges from. Challenges and rematches
//! themselves go over the socket, where their players are told of them.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorCode, PlayerId, PlayerRef, Settings};

use crate::auth::Authed;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Id};
use crate::player::Player;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/{id}/follows", get(follows))
        .route("/api/players/{id}/follow", post(follow).delete(unfollow))
        .route("/api/settings", put(settings))
}

/// A player who may be followed: one who exists and was neither banned nor removed.
async fn reachable(state: &AppState, id: i64) -> ApiResult<Player> {
    state
        .store()
        .reachable_player(PlayerId(id))
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("there is no player {id}")))
}

#[utoipa::path(
    get,
    path = "/api/players/{id}/follows",
    tag = "players",
    summary = "The accounts a player follows",
    description = "By name. A player may take challenges only from the accounts they follow.",
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 200, description = "The accounts followed", body = Vec<PlayerRef>),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
pub async fn follows(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<Vec<PlayerRef>>> {
    let player = reachable(&state, id).await?;
    let followed = state.store().followed_by(player.id).await?;
    Ok(Json(followed.iter().map(Player::public).collect()))
}

#[utoipa::path(
    post,
    path = "/api/players/{id}/follow",
    tag = "players",
    summary = "Follow a player",
    description = "The logged-in player follows this one; following again changes nothing. \
        Accounts only: a guest, whose account is thrown away, is refused with `forbidden`.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player to follow")),
    responses(
        (status = 204, description = "Followed"),
        (status = 400, description = "`bad_request`: the player's own account", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: a guest", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
pub async fn follow(
    State(state): State<AppState>,
    Authed(me): Authed,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    crate::policy::accounts_only(&me, "follow players")?;
    let followed = reachable(&state, id).await?;
    if followed.id == me.id {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "you cannot follow yourself",
        ));
    }
    let now = crate::clock::now_ms();
    state.store().follow(me.id, followed.id, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = "/api/players/{id}/follow",
    tag = "players",
    summary = "Stop following a player",
    description = "Not following them already changes nothing.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player to follow no more")),
    responses(
        (status = 204, description = "Not followed"),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
pub async fn unfollow(
    State(state): State<AppState>,
    Authed(me): Authed,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    let followed = reachable(&state, id).await?;
    state.store().unfollow(me.id, followed.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    put,
    path = "/api/settings",
    tag = "players",
    summary = "Change the logged-in player's settings",
    description = "Whom the player takes challenges from: `everyone`, `followed` (the accounts \
        they follow) or `nobody`. A player's profile shows it.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = Settings,
    responses(
        (status = 200, description = "The settings now", body = Settings),
        (status = 400, description = "`malformed` or `bad_request`: a bad body", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
    ),
)]
pub async fn settings(
    State(state): State<AppState>,
    Authed(me): Authed,
    Body(settings): Body<Settings>,
) -> ApiResult<Json<Settings>> {
    state
        .store()
        .set_challenge_policy(me.id, settings.challenges)
        .await?;
    Ok(Json(settings))
}
