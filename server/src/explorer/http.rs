//! `GET /api/explorer/{game}/{variant}`: the moves played from a position, with results and
//! average ratings, from the server's finished games (filtered by time control and rating band)
//! or from the masters' games. Open to visitors: an answer reads one position's rows.

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use protocol::{
    ErrorBody, ErrorReason, ExplorerMove, ExplorerPosition, ExplorerSource, ExplorerTally,
    TimeControl,
};
use serde::Deserialize;

use super::line::{self, LineError};
use super::{BANDS, PLIES, Tally, masters, speed_code};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/explorer/{game}/{variant}", get(explore))
}

/// The most moves a request may play from its start.
const MAX_MOVES: usize = 1000;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct Asked {
    /// Moves played from the start (or from `position`), comma-separated, in the game's
    /// notation (`d1-d3,e5-e2`).
    #[serde(default)]
    moves: Option<String>,
    /// A position in OpenTafl notation to start from instead of the variant's start.
    #[serde(default)]
    position: Option<String>,
    /// The seat to move in `position`: 0 the attackers, 1 the defenders.
    #[serde(default)]
    to_move: Option<u8>,
    /// `games` (the server's, the default) or `masters`.
    #[serde(default)]
    #[param(value_type = Option<String>)]
    source: Option<ExplorerSource>,
    /// Time controls to count, comma-separated (`blitz,rapid`); all when absent. The server's
    /// games only.
    #[serde(default)]
    speeds: Option<String>,
    /// Rating bands to count by their lower bound, comma-separated (`1600,1800`; the bands
    /// start at 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200 and 2500); all when absent. The
    /// server's games only.
    #[serde(default)]
    bands: Option<String>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorReason::BadRequest, message)
}

/// The items of a comma-separated list, none when the list is absent or empty.
fn items(list: Option<&str>) -> Vec<&str> {
    list.map(|l| {
        l.split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

fn speeds(list: Option<&str>) -> ApiResult<Vec<i32>> {
    items(list)
        .into_iter()
        .map(|name| {
            TimeControl::ALL
                .into_iter()
                .find(|c| c.name() == name)
                .map(speed_code)
                .ok_or_else(|| {
                    bad(format!(
                        "no time control '{name}': choose bullet, blitz, rapid, classical or correspondence"
                    ))
                })
        })
        .collect()
}

fn bands(list: Option<&str>) -> ApiResult<Vec<u32>> {
    items(list)
        .into_iter()
        .map(|text| {
            text.parse::<u32>()
                .ok()
                .filter(|b| BANDS.contains(b))
                .ok_or_else(|| {
                    bad(format!(
                        "no rating band '{text}': the bands start at {BANDS:?}"
                    ))
                })
        })
        .collect()
}

impl From<LineError> for ApiError {
    fn from(e: LineError) -> ApiError {
        bad(e.to_string())
    }
}

fn tally(t: Tally, rated: bool) -> ExplorerTally {
    let games = t.games();
    ExplorerTally {
        games,
        attackers: t.attackers,
        defenders: t.defenders,
        draws: t.draws,
        average_rating: (rated && games > 0).then(|| (t.rating_sum / games) as u32),
    }
}

#[utoipa::path(
    get,
    path = "/api/explorer/{game}/{variant}",
    tag = "analysis",
    summary = "The moves played from a position",
    description = "For a position of a tafl variant (its start, a position in OpenTafl \
        notation, and moves played from either), the moves played from it in the server's \
        finished games, or in the masters' Copenhagen games the server ships with: for each, \
        how many games, how they ended and the players' average rating; most played first. \
        A position reached by another order of moves is the same position. Each game's first \
        `counted_plies` plies are counted, within a second or two of its end. No session \
        needed.",
    params(
        ("game" = String, Path, description = "`tafl`"),
        ("variant" = String, Path, description = "A preset variant, as `copenhagen`"),
        Asked,
    ),
    responses(
        (status = 200, description = "The moves", body = ExplorerPosition),
        (status = 400, description = "`bad_request`: a game other than tafl, a variant the explorer does not count (custom rules), a position or move the game refuses (the message says which and why), an unknown time control or band", body = ErrorBody),
    ),
)]
pub async fn explore(
    State(state): State<AppState>,
    Path((game, variant)): Path<(String, String)>,
    asked: Result<Query<Asked>, QueryRejection>,
) -> ApiResult<Json<ExplorerPosition>> {
    let Query(asked) = asked.map_err(|e| bad(e.body_text()))?;
    if game != "tafl" {
        return Err(ApiError::new(
            ErrorReason::UnknownGame { game: game.clone() },
            format!("the explorer counts tafl games, not '{game}'"),
        ));
    }
    let mut board = match (asked.position.as_deref(), asked.to_move) {
        (Some(position), Some(to_move)) => line::setup(&variant, position, to_move)?,
        (None, None) => line::start(&variant)?,
        _ => return Err(bad("a position needs to_move, and to_move a position")),
    };
    let moves = items(asked.moves.as_deref());
    if moves.len() > MAX_MOVES {
        return Err(bad(format!("at most {MAX_MOVES} moves may be played")));
    }
    for (index, text) in moves.into_iter().enumerate() {
        line::play(&mut board, index + 1, text)?;
    }
    let position = board.hash();
    let (speeds, bands) = (
        speeds(asked.speeds.as_deref())?,
        bands(asked.bands.as_deref())?,
    );
    let source = asked.source.unwrap_or_default();
    let mut by_move: BTreeMap<String, Tally> = BTreeMap::new();
    match source {
        ExplorerSource::Masters => {
            if variant == masters::VARIANT
                && let Some(moves) = masters::book().get(&position)
            {
                for (action, t) in moves {
                    by_move.entry(action.clone()).or_default().add(*t);
                }
            }
        }
        ExplorerSource::Games => {
            for row in state.store().explorer_rows(&variant, position).await? {
                let wanted = (speeds.is_empty() || speeds.contains(&row.speed))
                    && (bands.is_empty() || bands.contains(&row.band));
                if wanted {
                    by_move.entry(row.action).or_default().add(row.tally);
                }
            }
        }
    }
    let rated = source == ExplorerSource::Games;
    let mut total = Tally::default();
    let mut moves: Vec<ExplorerMove> = by_move
        .into_iter()
        .map(|(action, t)| {
            total.add(t);
            ExplorerMove {
                action,
                tally: tally(t, rated),
            }
        })
        .collect();
    // Most played first; the notation orders equals, so an answer is the same every time.
    moves.sort_by(|a, b| {
        b.tally
            .games
            .cmp(&a.tally.games)
            .then(a.action.cmp(&b.action))
    });
    Ok(Json(ExplorerPosition {
        game,
        variant,
        source,
        position: format!("{position:016x}"),
        total: tally(total, rated),
        moves,
        counted_plies: PLIES as u32,
    }))
}
