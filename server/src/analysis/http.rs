//! `POST /api/analysis`: the AI's evaluation and best line for a position; and
//! `POST /api/analysis/position`: the same position without a search, for an analysis board to
//! draw and play from between evaluations.
//!
//! An analysis needs a session, a guest's will do: the rate limit is per player, which an
//! address cannot be (players behind one address would share it, and one client could starve
//! them), and guests are themselves limited per address. Everything that can be wrong with a
//! request is found before the search, and such a request costs nothing from the player's rate.
//!
//! A position searches nothing, so a visitor may ask for one without a session (lessons play
//! through it): limited per client address then, as logins and guests are.

use std::time::Instant;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use protocol::{
    AnalysisPosition, AnalysisReply, AnalysisRequest, ErrorBody, ErrorReason, PlayerId,
};

use super::request::{self, Start};
use crate::accounts::auth::Authed;
use crate::accounts::sessions::refused_if_limited;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::limits::ClientIp;
use crate::matches::hosted::{self, Hosted};
use crate::matches::http::Viewer;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/analysis", post(analyse))
        .route("/api/analysis/position", post(position_only))
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorReason::BadRequest, message)
}

/// The position a request names: its game, variant and seat count, and the game there.
struct Position {
    game: String,
    variant: String,
    seats: u8,
    hosted: Box<dyn Hosted>,
}

/// A request's position with its actions played, and the seat the request is for.
struct Prepared {
    position: Position,
    to_act: Vec<u8>,
    seat: u8,
}

/// Builds the position a request names and plays its actions, finding everything wrong with it
/// (before any search, and before the player's rate is charged).
async fn prepare(
    state: &AppState,
    player: Option<PlayerId>,
    body: AnalysisRequest,
) -> ApiResult<Prepared> {
    let checked = request::check(body)?;
    let mut position = position(state, player, checked.start).await?;
    let Position {
        game,
        variant,
        hosted,
        ..
    } = &mut position;
    for (index, a) in checked.actions.iter().enumerate() {
        hosted.play(a.seat, &a.action).map_err(|e| {
            let message = format!(
                "action {} (seat {}: {}): {}",
                index + 1,
                a.seat,
                a.action,
                e.message
            );
            match e.reason {
                // The engine's reason goes on, for the client to word (a lesson's refusal).
                ErrorReason::IllegalMove { action, why } => ApiError::new(
                    ErrorReason::IllegalInLine {
                        index: index as u32 + 1,
                        action,
                        why,
                    },
                    message,
                ),
                _ => bad(message),
            }
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
    Ok(Prepared {
        position,
        to_act,
        seat,
    })
}

#[utoipa::path(
    post,
    path = "/api/analysis",
    tag = "analysis",
    summary = "The AI's analysis of a position",
    description = "The AI's expected result for a seat and the line of play it expects, from a \
        finished match's position, a position in the game's notation (tafl: OpenTafl) or a \
        variant's start, with actions played from there; for tafl also the king's escape \
        routes and the pieces under threat. Bounded in time (the search, and the wait for a \
        thread before it) and in nodes, and run on the AI's threads without taking the last of \
        them from live games. Any player, a guest too, may ask so many a minute.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = AnalysisRequest,
    responses(
        (status = 200, description = "The analysis", body = AnalysisReply),
        (status = 400, description = "`malformed` or `bad_request`: a bad body, an unknown game or variant, a position or action the game refuses (the message says which and why), a ply past the match's end, or a seat that need not act", body = ErrorBody),
        (status = 401, description = "`unauthorized`: no session", body = ErrorBody),
        (status = 404, description = "`not_found`: no such match, or a private one this player may not see", body = ErrorBody),
        (status = 409, description = "`conflict`: the match is not over", body = ErrorBody),
        (status = 429, description = "`rate_limited`: the player asked for too many analyses, or no thread analyses may use came free within the bound; `Retry-After` says when to retry", body = ErrorBody),
    ),
)]
pub async fn analyse(
    State(state): State<AppState>,
    Authed(player): Authed,
    Body(body): Body<AnalysisRequest>,
) -> ApiResult<Json<AnalysisReply>> {
    let arrived = Instant::now();
    let Prepared {
        position:
            Position {
                game,
                variant,
                seats,
                hosted,
            },
        to_act,
        seat,
    } = prepare(&state, Some(player.id), body).await?;
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

#[utoipa::path(
    post,
    path = "/api/analysis/position",
    tag = "analysis",
    summary = "A position for an analysis board, without a search",
    description = "The position an analysis request names (a finished match's, a position in the \
        game's notation or a variant's start, with actions played from there): its view, the \
        seats to act, the legal actions of the seat asked for, and for tafl the king's escape \
        routes and the pieces under threat. No search runs, so it is not rate-limited as \
        analyses are: an analysis board asks for it after every free move. A visitor may ask \
        without a session (lessons do), so many a minute from one client address.",
    security((), ("bearer" = []), ("cookie" = [])),
    request_body = AnalysisRequest,
    responses(
        (status = 200, description = "The position", body = AnalysisPosition),
        (status = 400, description = "`malformed` or `bad_request`: as for `/api/analysis`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such match, or a private one this player may not see", body = ErrorBody),
        (status = 409, description = "`conflict`: the match is not over", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many positions without a session from this address", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ),
)]
pub async fn position_only(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    viewer: Viewer,
    Body(body): Body<AnalysisRequest>,
) -> ApiResult<Json<AnalysisPosition>> {
    let player = viewer.player();
    if player.is_none() {
        refused_if_limited(&state, ip, None, state.limits().visitor_position(ip))?;
    }
    let Prepared {
        position:
            Position {
                game,
                variant,
                seats,
                hosted,
            },
        to_act,
        seat,
    } = prepare(&state, player, body).await?;
    let legal = if to_act.is_empty() {
        Vec::new()
    } else {
        hosted.legal(seat)
    };
    Ok(Json(AnalysisPosition {
        game,
        variant,
        seats,
        view: hosted.view(None),
        to_act,
        seat,
        legal,
        insights: hosted.insights(),
    }))
}

/// The game at the request's starting place, before its actions.
async fn position(state: &AppState, player: Option<PlayerId>, start: Start) -> ApiResult<Position> {
    match start {
        Start::Match { id, ply, invite } => {
            let m = Viewer::new(player, invite).load(state, id).await?;
            if !m.status.is_over() {
                return Err(ApiError::new(
                    ErrorReason::Conflict,
                    format!(
                        "match {} is being played: its positions may be analysed once it is over",
                        id.0
                    ),
                ));
            }
            let played = m.actions();
            let ply = ply.map_or(played.len(), |p| p as usize);
            if ply > played.len() {
                return Err(bad(format!(
                    "match {} has {} actions: ply {ply} is past its end",
                    id.0,
                    played.len()
                )));
            }
            let mut hosted = hosted::host(
                &m.spec.game,
                &m.spec.variant,
                usize::from(m.spec.seats),
                m.spec.seed,
            )?;
            for (index, a) in played[..ply].iter().enumerate() {
                hosted.play(a.seat, &a.action).map_err(|e| {
                    ApiError::new(
                        ErrorReason::Internal,
                        format!("match {} no longer replays at ply {index}: {e}", id.0),
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
