//! Follows: whom a player follows, over REST and in the database. A player may take challenges
//! only from the accounts they follow (`offers/`).

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
use crate::store::{Store, StoreResult, player_from};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/{id}/follows", get(follows))
        .route("/api/players/{id}/follow", post(follow).delete(unfollow))
}

/// A player who may be followed: one who exists and was neither banned nor removed.
async fn reachable(state: &AppState, id: i64) -> ApiResult<Player> {
    state
        .store()
        .reachable_player(PlayerId(id))
        .await?
        .ok_or_else(|| {
            ApiError::new(
                ErrorReason::PlayerNotFound { id },
                format!("there is no player {id}"),
            )
        })
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
            ErrorReason::FollowSelf,
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

impl Store {
    /// A player others may follow and challenge: one who exists, is not banned and was not
    /// removed (an idle guest's row stays, nameless, for its old matches).
    pub async fn reachable_player(&self, id: PlayerId) -> StoreResult<Option<Player>> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, guest FROM players
             WHERE id = $1 AND banned_ms IS NULL AND removed_ms IS NULL",
        )
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| player_from(&r, "")).transpose()?)
    }

    /// `follower` follows `followed` from now on (again, changes nothing).
    pub async fn follow(
        &self,
        follower: PlayerId,
        followed: PlayerId,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO follows (follower_id, followed_id, created_ms) VALUES ($1, $2, $3)
             ON CONFLICT (follower_id, followed_id) DO NOTHING",
        )
        .bind(follower.0)
        .bind(followed.0)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn unfollow(&self, follower: PlayerId, followed: PlayerId) -> StoreResult<()> {
        sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2")
            .bind(follower.0)
            .bind(followed.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn follows(&self, follower: PlayerId, followed: PlayerId) -> StoreResult<bool> {
        let row = sqlx::query("SELECT 1 FROM follows WHERE follower_id = $1 AND followed_id = $2")
            .bind(follower.0)
            .bind(followed.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// The accounts a player follows, by name.
    pub async fn followed_by(&self, follower: PlayerId) -> StoreResult<Vec<Player>> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.password_hash, p.guest
             FROM follows f JOIN players p ON p.id = f.followed_id
             WHERE f.follower_id = $1 AND p.removed_ms IS NULL ORDER BY p.name_key",
        )
        .bind(follower.0)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| player_from(r, ""))
            .collect::<sqlx::Result<_>>()?)
    }
}
