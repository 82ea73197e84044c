//! Replays over REST: a match's positions one by one, rebuilt on the server from its stored
//! configuration, seed and log with the authoritative engine, so that a client (the browser's
//! replay page) can step through any game without knowing its rules.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorCode, MatchId, MatchReplay, ReplayAction};

use crate::error::{ApiError, ApiResult};
use crate::http::{Id, Viewer};
use crate::matches::Status;
use crate::matches::hosted;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/matches/{id}/replay", get(replay))
}

/// The spectators' view after every action. Only public views: a finished hidden-information
/// match shows its actions, as its record does, but never a seat's private hand.
#[utoipa::path(
    get,
    path = "/api/matches/{id}/replay",
    tag = "matches",
    summary = "A match position by position",
    description = "The public view before the first action and after each one, rebuilt by the \
        server, so that a client can step through any game without knowing its rules.",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code"),
    ),
    responses(
        (status = 200, description = "The replay", body = MatchReplay),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
    ),
)]
async fn replay(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<MatchReplay>> {
    let m = viewer.load(&state, MatchId(id)).await?;
    let over = matches!(m.status, Status::Finished | Status::Aborted);
    let mut game = hosted::host(
        &m.spec.game,
        &m.spec.variant,
        usize::from(m.spec.seats),
        m.spec.seed,
    )?;
    let secret = !over && game.hides_actions();
    let mut views = Vec::with_capacity(m.actions.len() + 1);
    views.push(game.view(None));
    let mut actions = Vec::with_capacity(m.actions.len());
    for a in &m.actions {
        // A stored action was legal when it was played; failing now means the engine changed
        // under the stored log, which the client cannot fix.
        game.play(a.seat, &a.action).map_err(|e| {
            ApiError::new(
                ErrorCode::Internal,
                format!("match {id} no longer replays at ply {}: {e}", a.ply),
            )
        })?;
        views.push(game.view(None));
        actions.push(ReplayAction {
            seat: a.seat,
            action: (!secret).then(|| a.action.clone()),
        });
    }
    Ok(Json(MatchReplay {
        match_id: m.id,
        game: m.spec.game,
        variant: m.spec.variant,
        seats: m.spec.seats,
        actions,
        views,
    }))
}
