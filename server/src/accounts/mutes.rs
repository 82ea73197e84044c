//! Mutes: the players a player muted, over REST and in the database. The chat sends a muted
//! author's messages to none of their muters (`chat/`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, PlayerId, PlayerRef};

use super::auth::Authed;
use super::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::extract::Id;
use crate::state::AppState;
use crate::store::{Store, StoreResult, player_ref};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/mutes", get(mutes))
        .route("/api/mutes/{id}", post(mute).delete(unmute))
}

#[utoipa::path(
    get,
    path = "/api/mutes",
    tag = "chat",
    summary = "The players the asker muted",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The muted players, by name", body = Vec<PlayerRef>),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
    ),
)]
async fn mutes(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Json<Vec<PlayerRef>>> {
    Ok(Json(state.store().mutes_of(me.id).await?))
}

/// The player a mute is about: anyone but the asker.
async fn other_player(state: &AppState, me: &Player, id: i64) -> ApiResult<PlayerId> {
    if id == me.id.0 {
        return Err(ApiError::new(
            ErrorReason::MuteSelf,
            "you cannot mute yourself",
        ));
    }
    match state.store().player(PlayerId(id)).await? {
        Some(p) => Ok(p.id),
        None => Err(ApiError::new(
            ErrorReason::PlayerNotFound { id },
            format!("there is no player {id}"),
        )),
    }
}

#[utoipa::path(
    post,
    path = "/api/mutes/{id}",
    tag = "chat",
    summary = "Mute a player",
    description = "Their chat messages, in every channel, are no longer sent to the asker, nor \
        in the histories the asker reads, until unmuted. Muting again changes nothing.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 204, description = "Muted"),
        (status = 400, description = "`bad_request`: the asker's own account", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
async fn mute(
    State(state): State<AppState>,
    Authed(me): Authed,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    let muted = other_player(&state, &me, id).await?;
    let now = crate::clock::now_ms();
    state.store().mute(me.id, muted, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = "/api/mutes/{id}",
    tag = "chat",
    summary = "Unmute a player",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 204, description = "Not muted (any more)"),
        (status = 400, description = "`bad_request`: the asker's own account", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
async fn unmute(
    State(state): State<AppState>,
    Authed(me): Authed,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    let muted = other_player(&state, &me, id).await?;
    state.store().unmute(me.id, muted).await?;
    Ok(StatusCode::NO_CONTENT)
}

impl Store {
    /// `muter` mutes `muted` (again: no change).
    pub async fn mute(&self, muter: PlayerId, muted: PlayerId, now_ms: i64) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO chat_mutes (muter_id, muted_id, at_ms) VALUES ($1, $2, $3)
             ON CONFLICT (muter_id, muted_id) DO NOTHING",
        )
        .bind(muter.0)
        .bind(muted.0)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn unmute(&self, muter: PlayerId, muted: PlayerId) -> StoreResult<()> {
        sqlx::query("DELETE FROM chat_mutes WHERE muter_id = $1 AND muted_id = $2")
            .bind(muter.0)
            .bind(muted.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The players `muter` muted, by name.
    pub async fn mutes_of(&self, muter: PlayerId) -> StoreResult<Vec<PlayerRef>> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.guest FROM chat_mutes m JOIN players p ON p.id = m.muted_id
             WHERE m.muter_id = $1 ORDER BY p.name_key",
        )
        .bind(muter.0)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| player_ref(r, ""))
            .collect::<sqlx::Result<_>>()?)
    }
}
