//! A player's profile over REST: the account, its ratings and their history, and whom it takes
//! challenges from.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, PlayerId, PlayerProfile, PoolRating, RatingPoint};

use crate::error::{ApiError, ApiResult};
use crate::extract::Id;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/players/{id}", get(profile))
}

#[utoipa::path(
    get,
    path = "/api/players/{id}",
    tag = "players",
    summary = "A player's profile",
    description = "The player, their rating in every pool they played rated in, their \
        rating after each rated match, and whom they take challenges from.",
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 200, description = "The profile", body = PlayerProfile),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
async fn profile(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<PlayerProfile>> {
    let id = PlayerId(id);
    let player = state.store().player(id).await?.ok_or_else(|| {
        ApiError::new(
            ErrorReason::PlayerNotFound { id: id.0 },
            format!("there is no player {}", id.0),
        )
    })?;
    let ratings = state
        .store()
        .ratings_of(id)
        .await?
        .into_iter()
        .map(|(pool, rating, games)| PoolRating {
            pool,
            rating,
            games,
        })
        .collect();
    let history = state
        .store()
        .rating_history(id)
        .await?
        .into_iter()
        .map(|(pool, match_id, before, after, at_ms)| RatingPoint {
            pool,
            match_id,
            before,
            after,
            at_ms,
        })
        .collect();
    Ok(Json(PlayerProfile {
        player: player.public(),
        ratings,
        history,
        challenges: state.store().challenge_policy(id).await?,
    }))
}
