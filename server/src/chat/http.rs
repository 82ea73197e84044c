//! The chat's REST routes: a match's history (what the asker may read of it) and the lobby's,
//! reports of a message, and the admins' list of open reports.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{
    ChatChannel, ChatHistory, ChatId, ChatMessage, ChatReport, ErrorBody, ErrorReason, MatchId,
    Report, ReportId,
};

use super::rules::{self, Role};
use crate::accounts::auth::Authed;
use crate::accounts::moderation::{admin_only, reason};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Id};
use crate::matches::StoredMatch;
use crate::matches::http::Viewer;
use crate::state::AppState;

/// The most messages a history holds: the latest.
const HISTORY: u32 = 200;

/// The most open reports an admin is shown at once: the latest.
const REPORTS: u32 = 500;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/matches/{id}/chat", get(match_chat))
        .route("/api/chat/lobby", get(lobby_chat))
        .route("/api/chat/{id}/report", post(report))
        .route("/api/admin/chat-reports", get(reports))
        .route("/api/admin/chat-reports/{id}/close", post(close_report))
}

/// The channels of a match a viewer reads: their role's while the game is on, both after.
fn readable(m: &StoredMatch, viewer: &Viewer) -> Vec<ChatChannel> {
    let seated = viewer
        .player()
        .is_some_and(|p| m.players.iter().flatten().any(|x| x.id == p));
    rules::readable(Role::of(seated), m.status.is_over())
}

#[utoipa::path(
    get,
    path = "/api/matches/{id}/chat",
    tag = "chat",
    summary = "A match's chat",
    description = "The channels of the match the asker reads and their latest 200 messages, \
        oldest first: while the game is on, a player (by the session) reads the players' \
        channel and anyone else the spectators'; once it is over, everyone reads both (the \
        chat of a replay). Messages of authors the asker muted are left out.",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code"),
    ),
    responses(
        (status = 200, description = "The history", body = ChatHistory),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
    ),
)]
async fn match_chat(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<ChatHistory>> {
    let m = viewer.header(&state, MatchId(id)).await?;
    let channels = readable(&m, &viewer);
    let messages = state
        .store()
        .chat_history(Some(m.id), &channels, viewer.player(), HISTORY)
        .await?;
    Ok(Json(ChatHistory { channels, messages }))
}

#[utoipa::path(
    get,
    path = "/api/chat/lobby",
    tag = "chat",
    summary = "The lobby's chat",
    description = "Its latest 200 messages, oldest first, but those of authors the asker (by \
        the session, if any) muted.",
    responses((status = 200, description = "The history", body = ChatHistory)),
)]
async fn lobby_chat(State(state): State<AppState>, viewer: Viewer) -> ApiResult<Json<ChatHistory>> {
    let channels = vec![ChatChannel::Lobby];
    let messages = state
        .store()
        .chat_history(None, &channels, viewer.player(), HISTORY)
        .await?;
    Ok(Json(ChatHistory { channels, messages }))
}

/// A message the viewer may read: `not_found` otherwise, as for one that does not exist.
async fn readable_message(state: &AppState, viewer: &Viewer, id: i64) -> ApiResult<ChatMessage> {
    let not_found = || ApiError::new(ErrorReason::NotFound, format!("there is no message {id}"));
    let message = state
        .store()
        .chat_message(ChatId(id))
        .await?
        .ok_or_else(not_found)?;
    if let Some(match_id) = message.match_id {
        let m = viewer
            .header(state, match_id)
            .await
            .map_err(|_| not_found())?;
        if !readable(&m, viewer).contains(&message.channel) {
            return Err(not_found());
        }
    }
    Ok(message)
}

#[utoipa::path(
    post,
    path = "/api/chat/{id}/report",
    tag = "chat",
    summary = "Report a chat message to the admins",
    description = "Any logged-in player, guests too, reports a message they may read, once, \
        with a reason; admins find it in `GET /api/admin/chat-reports`.",
    security(("bearer" = []), ("cookie" = [])),
    params(
        ("id" = i64, Path, description = "The message's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code"),
    ),
    request_body = Report,
    responses(
        (status = 204, description = "Reported"),
        (status = 400, description = "`bad_request`: no reason, or a reason too long", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 404, description = "`not_found`: no such message, or one the asker may not read", body = ErrorBody),
        (status = 409, description = "`conflict`: the asker has reported this message already", body = ErrorBody),
    ),
)]
async fn report(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
    Body(body): Body<Report>,
) -> ApiResult<StatusCode> {
    let reporter = viewer
        .player()
        .ok_or_else(|| ApiError::new(ErrorReason::NotLoggedIn, "log in to report a message"))?;
    let reason = reason(&body.reason, "a report")?;
    let message = readable_message(&state, &viewer, id).await?;
    let now = crate::clock::now_ms();
    state
        .store()
        .report_chat(message.id, reporter, reason, now)
        .await?;
    tracing::info!(message = id, reporter = reporter.0, "chat message reported");
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/admin/chat-reports",
    tag = "admin",
    summary = "Open reports of chat messages",
    description = "The reports no admin has closed, newest first (the latest 500), each with \
        the message, its author and the reporter. Ban an author with `POST \
        /api/admin/players/{id}/ban`. Admins only.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The reports", body = Vec<ChatReport>),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not an admin", body = ErrorBody),
    ),
)]
async fn reports(
    State(state): State<AppState>,
    Authed(admin): Authed,
) -> ApiResult<Json<Vec<ChatReport>>> {
    admin_only(&state, &admin).await?;
    Ok(Json(state.store().open_reports(REPORTS).await?))
}

#[utoipa::path(
    post,
    path = "/api/admin/chat-reports/{id}/close",
    tag = "admin",
    summary = "Close a report",
    description = "The report is dealt with: it leaves the list of open reports (it stays \
        stored). Admins only.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The report's number")),
    responses(
        (status = 204, description = "Closed"),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not an admin", body = ErrorBody),
        (status = 404, description = "`not_found`: no such open report", body = ErrorBody),
    ),
)]
async fn close_report(
    State(state): State<AppState>,
    Authed(admin): Authed,
    Id(id): Id,
) -> ApiResult<StatusCode> {
    admin_only(&state, &admin).await?;
    let now = crate::clock::now_ms();
    if !state.store().close_report(ReportId(id), now).await? {
        return Err(ApiError::new(
            ErrorReason::NotFound,
            format!("there is no open report {id}"),
        ));
    }
    tracing::info!(report = id, admin = %admin.name, "chat report closed");
    Ok(StatusCode::NO_CONTENT)
}
