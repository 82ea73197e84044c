//! The logged-in player's settings, which say whom they take challenges from, over REST and in
//! the database.

use axum::extract::State;
use axum::routing::put;
use axum::{Json, Router};
use protocol::{ChallengePolicy, ErrorBody, PlayerId, Settings};
use sqlx::Row;

use super::auth::Authed;
use crate::error::ApiResult;
use crate::extract::Body;
use crate::state::AppState;
use crate::store::{Store, StoreResult};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/settings", put(settings))
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

fn policy_from(text: &str) -> ChallengePolicy {
    ChallengePolicy::ALL
        .into_iter()
        .find(|p| p.name() == text)
        .unwrap_or_default()
}

impl Store {
    pub async fn challenge_policy(&self, player: PlayerId) -> StoreResult<ChallengePolicy> {
        let row = sqlx::query("SELECT challenges FROM players WHERE id = $1")
            .bind(player.0)
            .fetch_optional(&self.pool)
            .await?;
        let text: Option<String> = row.map(|r| r.try_get("challenges")).transpose()?;
        Ok(text.map(|t| policy_from(&t)).unwrap_or_default())
    }

    pub async fn set_challenge_policy(
        &self,
        player: PlayerId,
        policy: ChallengePolicy,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE players SET challenges = $1 WHERE id = $2")
            .bind(policy.name())
            .bind(player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
