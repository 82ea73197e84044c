//! `POST /api/analysis`: the AI's evaluation and best line for a position.
//!
//! A session is required, a guest's will do: the rate limit is per player, which an address
//! cannot be (players behind one address would share it, and one client could starve them),
//! and guests are themselves limited per address. Everything that can be wrong with a request
//! is found before the search, and such a request costs nothing from the player's rate.

use std::time::Instant;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use protocol::{AnalysisReply, AnalysisRequest, ErrorBody, ErrorCode, PlayerId};

use super::request::{self, Start};
use crate::auth::Authed;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::matches::hosted::{self, Hosted};
use crate::matches::http::Viewer;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/analysis", post(analyse))
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}

/// The position a request names: its game, variant and seat count, and the game there.
struct Position {
    game: String,
    variant: String,
    seats: u8,
    hosted: Box<dyn Hosted>,
}

#[utoipa::path(
    post,
    path = "/api/analysis",
    tag = "analysis",
    summary = "The AI's analysis of a position",
    description = "The AI's expected result for a seat and the line of play it expects, from a \
        finished match's position, a position in the game's notation (tafl: OpenTafl) or a \
        variant's start, with actions played from there; for tafl also the king's escape \
        routes and the pieces under threat. Bounded in time (waiting for a thread included) \
        and in nodes, and run on the AI's threads without taking the last of them from live \
        games. Any player, a guest too, may ask so many a minute.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = AnalysisRequest,
    responses(
        (status = 200, description = "The analysis", body = AnalysisReply),
        (status = 400, description = "`malformed` or `bad_request`: a bad body, an unknown game or variant, a position or action the game refuses (the message says which and why), a ply past the match's end, or a seat that need not act", body = ErrorBody),
        (status = 401, description = "`unauthorized`: no session", body = ErrorBody),
        (status = 404, description = "`not_found`: no such match, or a private one this player may not see", body = ErrorBody),
        (status = 409, description = "`conflict`: the match is not over", body = ErrorBody),
        (status = 429, description = "`rate_limited`: the player asked for too many analyses, or every thread analyses may use is busy; `Retry-After` says when to retry", body = ErrorBody),
    ),
)]
pub async fn analyse(
    State(state): State<AppState>,
    Authed(player): Authed,
    Body(body): Body<AnalysisRequest>,
) -> ApiResult<Json<AnalysisReply>> {
    let arrived = Instant::now();
    let checked = request::check(body)?;
    let Position {
        game,
        variant,
        seats,
        mut hosted,
    } = position(&state, player.id, checked.start).await?;
    for (index, a) in checked.actions.iter().enumerate() {
        hosted.play(a.seat, &a.action).map_err(|e| {
            bad(format!(
                "action {} (seat {}: {}): {}",
                index + 1,
                a.seat,
                a.action,
                e.message
            ))
        })?;
    }
    let to_act = hosted.to_act();
    let seat = match (checked.seat, to_act.first()) {
        (Some(seat), _) => seat,
        (None, Some(&first)) => first,
        (None, None) => 0,
    };
    if usize::from(seat) >= hosted.seat_count() {
        return Err(bad(format!("{game} {variant} has no seat {seat}")));
    }
    if !to_act.is_empty() && !to_act.contains(&seat) {
        return Err(bad(format!(
            "seat {seat} need not act here; the seats to act are {to_act:?}"
        )));
    }
    state.limits().analysis(player.id)?;
    let view = hosted.view(None);
    let found = state.analyst().run(hosted, seat, arrived).await?;
    Ok(Json(AnalysisReply {
        game,
        variant,
        seats,
        view,
        to_act,
        seat,
        score: found.analysed.score,
        line: found.analysed.line,
        insights: found.insights,
        nodes: found.analysed.nodes,
        elapsed_ms: arrived.elapsed().as_millis() as u64,
        bound_ms: found.bound.as_millis() as u64,
        node_bound: found.max_nodes,
    }))
}

/// The game at the request's starting place, before its actions.
async fn position(state: &AppState, player: PlayerId, start: Start) -> ApiResult<Position> {
    match start {
        Start::Match { id, ply, invite } => {
            let m = Viewer::new(player, invite).load(state, id).await?;
            if !m.status.is_over() {
                return Err(ApiError::new(
                    ErrorCode::Conflict,
                    format!(
                        "match {} is being played: its positions may be analysed once it is over",
                        id.0
                    ),
                ));
            }
            let ply = ply.map_or(m.actions.len(), |p| p as usize);
            if ply > m.actions.len() {
                return Err(bad(format!(
                    "match {} has {} actions: ply {ply} is past its end",
                    id.0,
                    m.actions.len()
                )));
            }
            let mut hosted = hosted::host(
                &m.spec.game,
                &m.spec.variant,
                usize::from(m.spec.seats),
                m.spec.seed,
            )?;
            for a in &m.actions[..ply] {
                hosted.play(a.seat, &a.action).map_err(|e| {
                    ApiError::new(
                        ErrorCode::Internal,
                        format!("match {} no longer replays at ply {}: {e}", id.0, a.ply),
                    )
                })?;
            }
            Ok(Position {
                game: m.spec.game,
                variant: m.spec.variant,
                seats: m.spec.seats,
                hosted,
            })
        }
        Start::Game {
            game,
            variant,
            seats,
            seed,
            position,
        } => {
            let settled = hosted::settle(&game, variant.as_deref(), seats, false)?;
            let count = usize::from(settled.seats);
            let hosted = match &position {
                Some((text, to_move)) => {
                    hosted::host_position(&game, &settled.variant, count, seed, (text, *to_move))?
                }
                None => hosted::host(&game, &settled.variant, count, seed)?,
            };
            Ok(Position {
                game,
                variant: settled.variant,
                seats: settled.seats,
                hosted,
            })
        }
    }
}
