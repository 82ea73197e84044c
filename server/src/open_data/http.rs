//! `GET /api/open-data` (the months and the licence) and `GET /api/open-data/{month}/{file}`
//! (a month's records or table), streamed page by page. No session needed.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::StreamExt;
use protocol::{ErrorBody, ErrorReason, OpenData, OpenDataMonth};

use super::files::FileKind;
use super::month::Month;
use super::store::file;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/open-data", get(months))
        .route("/api/open-data/{month}/{file}", get(download))
}

/// A month's path for one of its files.
fn path(month: Month, kind: FileKind) -> String {
    format!("/api/open-data/{month}/{}", kind.name())
}

#[utoipa::path(
    get,
    path = "/api/open-data",
    tag = "matches",
    summary = "Every finished rated game, by month: the files and their licence",
    description = "The months (UTC) with finished rated games, oldest first, each with its \
        number of games and the paths of its two files, and the licence the operator offers \
        them under (`--open-data-licence`, `CC0-1.0` by default).",
    responses((status = 200, description = "The months", body = OpenData)),
)]
pub async fn months(State(state): State<AppState>) -> ApiResult<Json<OpenData>> {
    let months = state.store().open_data_months().await?;
    Ok(Json(OpenData {
        licence: state.config().open_data_licence.clone(),
        months: months
            .into_iter()
            .map(|(month, games)| OpenDataMonth {
                month: month.to_string(),
                games,
                records: path(month, FileKind::Records),
                table: path(month, FileKind::Table),
            })
            .collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/open-data/{month}/{file}",
    tag = "matches",
    summary = "A month's finished rated games, as a file",
    description = "`records.txt`: each game's headers (`[match:…]`, `[finished:…]`, \
        `[game:…]`, `[pool:…]`, `[clock:…]`, `[seat0:…]`…, `[format:…]`) and its record (tafl: \
        an OpenTafl game record; other games: their actions, one a line), a blank line after \
        each. `games.csv`: a header, then a row per seat: `match_id, finished_at, game, \
        variant, clock, seat, player, rating_before, rating_after, place, reason, plies`. Games \
        in the order they ended; streamed as they are read. A month without games gives the \
        header alone.",
    params(
        ("month" = String, Path, description = "`YYYY-MM`, in UTC"),
        ("file" = String, Path, description = "`records.txt` or `games.csv`"),
    ),
    responses(
        (status = 200, description = "The file", body = String),
        (status = 400, description = "`bad_request`: no such month", body = ErrorBody),
        (status = 404, description = "`not_found`: no such file", body = ErrorBody),
    ),
)]
pub async fn download(
    State(state): State<AppState>,
    Path((month, name)): Path<(String, String)>,
) -> ApiResult<Response> {
    let month = Month::parse(&month).map_err(|e| ApiError::new(ErrorReason::BadRequest, e))?;
    let kind = FileKind::parse(&name).ok_or_else(|| {
        ApiError::new(
            ErrorReason::NotFound,
            format!("a month has records.txt and games.csv, not '{name}'"),
        )
    })?;
    let chunks = file(state.store().clone(), month, kind).map(|chunk| {
        chunk.map_err(|e| {
            // The status is sent: a failure now can only cut the file short.
            tracing::warn!(error = %e, "an open data file was cut short");
            std::io::Error::other(e.to_string())
        })
    });
    let disposition = format!("attachment; filename=\"tafl-{month}-{}\"", kind.name());
    Ok((
        [
            (header::CONTENT_TYPE, kind.content_type().to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        Body::from_stream(chunks),
    )
        .into_response())
}
