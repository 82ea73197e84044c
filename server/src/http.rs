//! The REST API: accounts, leaderboards, profiles, match records, live matches, health. Every
//! error is an `ErrorBody` JSON with the status its code maps to.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::tafl::opentafl::export_record;
use protocol::{
    ClockSpec, Credentials, ErrorCode, Health, Leaderboard, LeaderboardEntry, MatchId, MatchRecord,
    MatchResult, MatchSummary, PlayerId, PlayerProfile, PoolRating, QueuePool, RatingPoint,
    RecordedAction, Seq, Session,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::auth::{self, check_password, check_username, hash_password, new_token};
use crate::error::{ApiError, ApiResult};
use crate::hosted;
use crate::state::AppState;
use crate::store::{Status, StoredMatch};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/guest", post(guest))
        .route("/api/logout", post(logout))
        .route("/api/leaderboard/{game}/{variant}", get(leaderboard))
        .route("/api/players/{id}", get(profile))
        .route("/api/players/{id}/matches", get(player_matches))
        .route("/api/matches/live", get(live_matches))
        .route("/api/matches/{id}", get(match_record))
        .route("/api/queue", get(queue))
        .route("/api/health", get(health))
}

/// A JSON body whose every rejection is one of our errors.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> ApiResult<Body<T>> {
        // Read as any JSON first, so that a body that is not an object is told apart (malformed)
        // from an object with bad fields (bad_request).
        match Json::<serde_json::Value>::from_request(req, state).await {
            Ok(Json(value @ serde_json::Value::Object(_))) => serde_json::from_value(value)
                .map(Body)
                .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string())),
            Ok(Json(_)) => Err(ApiError::new(
                ErrorCode::Malformed,
                "the body is not a JSON object",
            )),
            Err(JsonRejection::JsonSyntaxError(e)) => {
                Err(ApiError::new(ErrorCode::Malformed, e.body_text()))
            }
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::new(
                    ErrorCode::TooLarge,
                    "the request body is too large",
                ))
            }
            Err(e) => Err(ApiError::new(ErrorCode::BadRequest, e.body_text())),
        }
    }
}

/// A numeric id from the path. Anything else names nothing here: `not_found`, as an `ErrorBody`
/// like every other error (axum's own rejection is plain text).
pub struct Id(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> ApiResult<Id> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))?;
        raw.parse().map(Id).map_err(|_| {
            ApiError::new(
                ErrorCode::NotFound,
                format!("there is nothing numbered '{raw}'"),
            )
        })
    }
}

/// Starts a session for a player: the token in the body and as an HTTP-only cookie.
async fn start_session(state: &AppState, player: crate::store::Player) -> ApiResult<Response> {
    let (token, hash) = new_token();
    let now = crate::clock_ms();
    let days = state.config().session_days;
    let expires = now + (days * 24 * 3600 * 1000) as i64;
    state
        .store()
        .create_session(&hash, player.id, now, expires)
        .await?;
    let cookie = format!(
        "session={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}",
        days * 24 * 3600
    );
    let body = Session {
        token,
        player: player.public(),
    };
    Ok(([(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

async fn register(
    State(state): State<AppState>,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    check_username(&c.username)?;
    check_password(&c.password)?;
    let hash = hash_password(c.password).await?;
    let player = state
        .store()
        .create_player(&c.username, Some(&hash), false, crate::clock_ms())
        .await?;
    start_session(&state, player).await
}

async fn login(State(state): State<AppState>, Body(c): Body<Credentials>) -> ApiResult<Response> {
    let wrong = || ApiError::new(ErrorCode::Unauthorized, "wrong username or password");
    let player = state
        .store()
        .player_by_name(&c.username)
        .await?
        .ok_or_else(wrong)?;
    let hash = player.password_hash.clone().ok_or_else(wrong)?;
    if !auth::verify_password(hash, c.password).await {
        return Err(wrong());
    }
    start_session(&state, player).await
}

/// A guest account: a fresh `guest-xxxxxxxx` name and a session, with nothing to fill in.
async fn guest(State(state): State<AppState>) -> ApiResult<Response> {
    let name = format!("guest-{}", hex::encode(rand::random::<[u8; 4]>()));
    let player = state
        .store()
        .create_player(&name, None, true, crate::clock_ms())
        .await?;
    start_session(&state, player).await
}

async fn logout(
    State(state): State<AppState>,
    parts: axum::http::request::Parts,
) -> ApiResult<StatusCode> {
    let token = auth::request_token(&parts)
        .ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "no session token"))?;
    state.authenticate(&token).await?;
    state.revoke(&token).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
struct Page {
    page: Option<u32>,
    per_page: Option<u32>,
}

async fn leaderboard(
    State(state): State<AppState>,
    Path((game, variant)): Path<(String, String)>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Leaderboard>> {
    let Query(page) = page.map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))?;
    let pool = format!("{game}/{variant}");
    hosted::defaults(&game, Some(&variant))
        .and_then(|(variant, seats)| hosted::host(&game, &variant, seats, 0))
        .map_err(|_| ApiError::new(ErrorCode::NotFound, format!("there is no pool {pool}")))?;
    let per_page = page.per_page.unwrap_or(50).clamp(1, 200);
    let page = page.page.unwrap_or(1).max(1);
    let rows = state.store().leaderboard(&pool, page, per_page).await?;
    let first_rank = (page - 1) * per_page + 1;
    let entries = rows
        .into_iter()
        .enumerate()
        .map(|(i, (player, rating, games))| LeaderboardEntry {
            rank: first_rank + i as u32,
            player: player.public(),
            rating,
            games,
        })
        .collect();
    Ok(Json(Leaderboard {
        pool,
        page,
        per_page,
        entries,
    }))
}

async fn profile(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<PlayerProfile>> {
    let id = PlayerId(id);
    let player = state.store().player(id).await?.ok_or_else(|| {
        ApiError::new(ErrorCode::NotFound, format!("there is no player {}", id.0))
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
    }))
}

fn summary(m: &StoredMatch) -> MatchSummary {
    MatchSummary {
        id: m.id,
        game: m.spec.game.clone(),
        variant: m.spec.variant.clone(),
        rated: m.spec.rated,
        clock: m.spec.clock.map(|(base_ms, increment_ms)| ClockSpec {
            base_ms,
            increment_ms,
        }),
        players: m
            .players
            .iter()
            .map(|p| p.as_ref().map(crate::store::Player::public))
            .collect(),
        status: m.status.as_str().to_string(),
        result: m.result.clone().map(|(places, reason)| MatchResult {
            places,
            reason,
            ratings: Vec::new(),
        }),
        created_ms: m.spec.created_ms,
    }
}

async fn player_matches(
    State(state): State<AppState>,
    Id(id): Id,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    if state.store().player(PlayerId(id)).await?.is_none() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("there is no player {id}"),
        ));
    }
    let matches = state.store().matches_of(PlayerId(id), 100).await?;
    Ok(Json(matches.iter().map(summary).collect()))
}

async fn live_matches(State(state): State<AppState>) -> ApiResult<Json<Vec<MatchSummary>>> {
    let matches = state.store().live_matches(100).await?;
    Ok(Json(matches.iter().map(summary).collect()))
}

/// A match with its record. The seed, which would let anyone predict the match's chance, is
/// published only once the match is over; so are hidden actions.
async fn match_record(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<MatchRecord>> {
    let m = state
        .store()
        .load_match(MatchId(id))
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("there is no match {id}")))?;
    let over = matches!(m.status, Status::Finished | Status::Aborted);
    let mut summary = summary(&m);
    if let Some(result) = summary.result.as_mut() {
        result.ratings = state
            .store()
            .rating_changes(m.id)
            .await?
            .into_iter()
            .map(|c| protocol::RatingChange {
                seat: c.seat,
                player: c.player,
                before: c.before,
                after: c.after,
            })
            .collect();
    }
    let opentafl = (m.spec.game == "tafl").then(|| tafl_record(&m)).flatten();
    // A game that hides actions keeps them secret until the match is over.
    let secret = !over
        && hosted::host(&m.spec.game, &m.spec.variant, usize::from(m.spec.seats), 0)?
            .hides_actions();
    let actions = m
        .actions
        .iter()
        .map(|a| RecordedAction {
            seq: Seq(a.seq),
            seat: a.seat,
            action: (!secret).then(|| a.action.clone()),
            at_ms: a.at_ms,
        })
        .collect();
    Ok(Json(MatchRecord {
        summary,
        seed: over.then_some(m.spec.seed),
        actions,
        opentafl,
    }))
}

/// The OpenTafl record of a tafl match, rebuilt from its log.
fn tafl_record(m: &StoredMatch) -> Option<String> {
    let rules = engine::tafl::variants::preset(&m.spec.variant)?;
    let mut game = engine::tafl::Tafl::new(rules).ok()?;
    for a in &m.actions {
        let mv = engine::tafl::opentafl::parse_move(&a.action, game.dim())
            .ok()?
            .mv;
        game.play_move(mv).ok()?;
    }
    Some(export_record(&game))
}

/// Whether the server can serve matches: its database answers.
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let (status, text, database) = match state.store().ping().await {
        Ok(()) => (StatusCode::OK, "ok", "ok"),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "unavailable",
        ),
    };
    let health = Health {
        status: text.into(),
        database: database.into(),
    };
    (status, Json(health))
}

/// The matchmaking pools with players waiting.
async fn queue(State(state): State<AppState>) -> ApiResult<Json<Vec<QueuePool>>> {
    Ok(Json(state.queue().pools().await?))
}
