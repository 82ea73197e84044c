//! Moderation. An operator makes an account an admin from the command line, against the same
//! database (`server admin grant NAME`); admins then ban and unban accounts and read recent
//! security events over REST (and the chat's reports: `chat/http.rs`). A ban revokes the account's sessions and closes its sockets,
//! refuses its logins with the reason, takes it off the leaderboards and out of the queue, and
//! ends its matches: a live one lost by forfeit, one waiting for players called off.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{Ban, ErrorBody, ErrorReason, PlayerId, SecurityEvent};
use serde::Deserialize;

use super::auth::Authed;
use super::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Id};
use crate::limits::ClientIp;
use crate::matches::Command;
use crate::security::Kind;
use crate::state::AppState;
use crate::store::Store;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/players/{id}/ban", post(ban).delete(unban))
        .route("/api/admin/security-events", get(security_events))
}

/// The longest reason a ban may give.
const MAX_REASON: usize = 500;

/// A reason given for a ban or a report, trimmed: 1 to `MAX_REASON` characters. `what` names
/// what gives it in the refusal ("a ban").
pub fn reason<'a>(text: &'a str, what: &str) -> ApiResult<&'a str> {
    let reason = text.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON {
        return Err(ApiError::new(
            ErrorReason::ReasonLength {
                max: MAX_REASON as u32,
            },
            format!("{what} gives its reason, 1 to {MAX_REASON} characters"),
        ));
    }
    Ok(reason)
}

/// Refuses anyone but an admin.
pub async fn admin_only(state: &AppState, player: &Player) -> ApiResult<()> {
    if state.store().is_admin(player.id).await? {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorReason::AdminsOnly,
            "only admins may do this (an operator makes an admin with `server admin grant NAME`)",
        ))
    }
}

async fn target(state: &AppState, id: i64) -> ApiResult<Player> {
    state.store().player(PlayerId(id)).await?.ok_or_else(|| {
        ApiError::new(
            ErrorReason::PlayerNotFound { id },
            format!("there is no player {id}"),
        )
    })
}

#[utoipa::path(
    post,
    path = "/api/admin/players/{id}/ban",
    tag = "admin",
    summary = "Ban an account",
    description = "Bans the account: its sessions are revoked and its sockets closed, its logins \
        are refused with the reason, it leaves the leaderboards and the matchmaking queue, and \
        its live matches are lost by forfeit (reason `forfeit`, rated as any result; a match \
        still waiting for players is called off). Admins only.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player's number")),
    request_body = Ban,
    responses(
        (status = 204, description = "Banned"),
        (status = 400, description = "`bad_request`: no reason, a reason too long, or the admin's own account", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not an admin", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
pub async fn ban(
    State(state): State<AppState>,
    Authed(admin): Authed,
    ClientIp(ip): ClientIp,
    Id(id): Id,
    Body(body): Body<Ban>,
) -> ApiResult<StatusCode> {
    admin_only(&state, &admin).await?;
    let reason = reason(&body.reason, "a ban")?;
    let player = target(&state, id).await?;
    if player.id == admin.id {
        return Err(ApiError::new(
            ErrorReason::BanSelf,
            "an admin cannot ban their own account",
        ));
    }
    state
        .store()
        .ban(player.id, reason, crate::clock::now_ms())
        .await?;
    state.revoke_player(player.id);
    state.queue().remove_player(player.id).await?;
    // Their matches end with them: lost by forfeit, or called off while waiting for players.
    // Game 1 of a two-game match that ends so opens game 2, which the second pass ends too.
    for _pass in 0..2 {
        for m in state.store().ongoing_matches_of(player.id).await? {
            let banned = player.id;
            let ended = state
                .rooms()
                .ask::<bool>(m.id, Command::Banned { player: banned });
            ended.await?;
        }
    }
    state.security().record(
        Kind::Banned,
        Some(&player.name),
        Some(ip),
        &format!("banned by {}: {reason}", admin.name),
    );
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = "/api/admin/players/{id}/ban",
    tag = "admin",
    summary = "Lift a ban",
    description = "The account may log in again. Admins only.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 204, description = "The ban is lifted"),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not an admin", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
pub async fn unban(
    State(state): State<AppState>,
    Authed(admin): Authed,
    ClientIp(ip): ClientIp,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    admin_only(&state, &admin).await?;
    let player = target(&state, id).await?;
    state.store().unban(player.id).await?;
    state.security().record(
        Kind::Unbanned,
        Some(&player.name),
        Some(ip),
        &format!("ban lifted by {}", admin.name),
    );
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Limit {
    /// How many events, at least 1 (at most the 1000 kept); 100 when absent.
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = "/api/admin/security-events",
    tag = "admin",
    summary = "Recent security events",
    description = "Refused logins, locked usernames, rate limiting, refused origins and sockets, \
        bans: newest first, as this server process saw them (kept in memory, the latest 1000; \
        repeats from one address within a minute are counted on one event). Admins only.",
    security(("bearer" = []), ("cookie" = [])),
    params(Limit),
    responses(
        (status = 200, description = "The events", body = Vec<SecurityEvent>),
        (status = 400, description = "`bad_request`: a `limit` that is not a number, or 0", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not an admin", body = ErrorBody),
    ),
)]
pub async fn security_events(
    State(state): State<AppState>,
    Authed(admin): Authed,
    limit: Result<Query<Limit>, QueryRejection>,
) -> ApiResult<Json<Vec<SecurityEvent>>> {
    admin_only(&state, &admin).await?;
    let Query(limit) = limit.map_err(|e| ApiError::new(ErrorReason::BadRequest, e.body_text()))?;
    let limit = match limit.limit.unwrap_or(100) {
        0 => {
            let why = "limit is how many events to list: at least 1";
            return Err(ApiError::new(ErrorReason::BadRequest, why));
        }
        limit => limit.min(1000),
    };
    Ok(Json(state.security().recent(limit)))
}

/// `server admin grant NAME` / `server admin revoke NAME`: run by an operator against the
/// server's database. Returns what to print.
pub async fn set_admin(database_url: &str, name: &str, admin: bool) -> Result<String, String> {
    let store = Store::connect(database_url)
        .await
        .map_err(|e| e.to_string())?;
    let found = store
        .set_admin(name, admin)
        .await
        .map_err(|e| e.to_string())?;
    store.close().await;
    match (found, admin) {
        (false, _) => Err(format!("there is no account named '{name}'")),
        (true, true) => Ok(format!("{name} is an admin")),
        (true, false) => Ok(format!("{name} is no longer an admin")),
    }
}
