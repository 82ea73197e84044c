//! The REST route of series: `GET /api/series/{id}`.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, Series, SeriesId};

use crate::error::{ApiError, ApiResult};
use crate::extract::Id;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/series/{id}", get(show))
}

#[utoipa::path(
    get,
    path = "/api/series/{id}",
    tag = "matches",
    summary = "A two-game match",
    description = "A series of two games between the same players, the sides swapped for the \
        second: both games (each player's points, the moves played, the time each player used), \
        the score, and once decided the winner and the tiebreak that decided a tie of points \
        (the shorter win, then less time used). Two-game matches are made by challenges, the \
        queue and tournaments, which are all public.",
    params(("id" = i64, Path, description = "The series' number")),
    responses(
        (status = 200, description = "The series", body = Series),
        (status = 404, description = "`not_found`: no such series", body = ErrorBody),
    ),
)]
async fn show(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<Series>> {
    let series = state.store().series(SeriesId(id)).await?;
    series
        .map(Json)
        .ok_or_else(|| ApiError::new(ErrorReason::NotFound, format!("there is no series {id}")))
}
