//! The REST API: accounts, leaderboards, profiles, match records, live matches, health. Every
//! error is an `ErrorBody` JSON with the status its code maps to.

use std::time::Instant;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{
    Credentials, ErrorBody, ErrorCode, GameInfo, GameRecord, Health, Leaderboard, LeaderboardEntry,
    MatchId, MatchRecord, MatchResult, MatchSummary, PlayerId, PlayerProfile, PoolRating,
    QueuePool, RatingPoint, RecordedAction, Seq, Session, VariantPreview,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::auth::{self, check_password, check_username, hash_password};
use crate::error::{ApiError, ApiResult};
use crate::limits::ClientIp;
use crate::matches::hosted;
use crate::matches::{Status, StoredMatch};
use crate::security::Kind;
use crate::state::AppState;
use crate::token::new_token;

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
        .route("/api/matches/open", get(open_matches))
        .route("/api/matches/{id}", get(match_record))
        .route("/api/queue", get(queue))
        .route("/api/games", get(games))
        .route("/api/games/{game}/preview", get(preview))
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

/// Who asks for a match over REST: the player of the request's session, if it has a live one,
/// and the invite code it carries (`?invite=`), if any. A private match, live or finished, is
/// shown only to its players and to holders of its code; to everyone else it does not exist.
pub struct Viewer {
    player: Option<PlayerId>,
    invite: Option<String>,
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> ApiResult<Viewer> {
        let player = match auth::request_token(parts) {
            Some(token) => state.authenticate(&token).await.ok().map(|p| p.id),
            None => None,
        };
        let invite = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("invite="))
                .map(str::to_string)
        });
        Ok(Viewer { player, invite })
    }
}

impl Viewer {
    fn may_see(&self, m: &StoredMatch) -> bool {
        let seated = |p: PlayerId| m.players.iter().flatten().any(|x| x.id == p);
        !m.spec.private
            || self.player.is_some_and(seated)
            || (self.invite.is_some() && self.invite == m.spec.invite)
    }

    /// A match with its log, if this viewer may see it: `not_found` otherwise, exactly as for
    /// a match that does not exist.
    pub async fn load(&self, state: &AppState, id: MatchId) -> ApiResult<StoredMatch> {
        state
            .store()
            .load_match(id)
            .await?
            .filter(|m| self.may_see(m))
            .ok_or_else(|| {
                ApiError::new(ErrorCode::NotFound, format!("there is no match {}", id.0))
            })
    }
}

/// Starts a session for a player: the token in the body and as an HTTP-only cookie.
async fn start_session(state: &AppState, player: crate::player::Player) -> ApiResult<Response> {
    let (token, hash) = new_token();
    let now = crate::clock::now_ms();
    state.store().touch_player(player.id, now).await?;
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

#[utoipa::path(
    post,
    path = "/api/register",
    tag = "accounts",
    summary = "Register with a username and a password",
    description = "Usernames have 3 to 24 letters, digits, `_` or `-`, start with a letter and \
        are unique in any case; passwords have 8 to 256 characters. Starts a session (the \
        token is also set as the `session` cookie). Each client address may register only so \
        often.",
    request_body = Credentials,
    responses(
        (status = 200, description = "Registered and logged in", body = Session),
        (status = 400, description = "`malformed` or `bad_request`: a bad body, username or password", body = ErrorBody),
        (status = 409, description = "`conflict`: the username is taken", body = ErrorBody),
        (status = 413, description = "`too_large`: the body is too large", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many registrations from this address", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ),
)]
async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    refused_if_limited(&state, ip, None, state.limits().registration_attempt(ip))?;
    check_username(&c.username)?;
    check_password(&c.password)?;
    let hash = hash_password(c.password).await?;
    let player = state
        .store()
        .create_player(&c.username, Some(&hash), false, crate::clock::now_ms())
        .await?;
    start_session(&state, player).await
}

#[utoipa::path(
    post,
    path = "/api/login",
    tag = "accounts",
    summary = "Log in with a username (any case) and a password",
    description = "Starts a session (the token is also set as the `session` cookie). Each \
        client address may try only so often, and after a few failed logins for a username \
        each further failure locks it for a growing while.",
    request_body = Credentials,
    responses(
        (status = 200, description = "Logged in", body = Session),
        (status = 400, description = "`malformed` or `bad_request`: a bad body", body = ErrorBody),
        (status = 401, description = "`unauthorized`: wrong username or password", body = ErrorBody),
        (status = 413, description = "`too_large`: the body is too large", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many logins from this address, or the username is locked after failed logins", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ),
)]
async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    refused_if_limited(&state, ip, None, state.limits().login_attempt(ip))?;
    let backoff = state.limits().failed_logins();
    if let Err(locked) = backoff.check(&c.username, Instant::now()) {
        let detail = "a login for a username locked after failed logins";
        state
            .security()
            .record(Kind::LoginLocked, Some(&c.username), Some(ip), detail);
        return Err(locked);
    }
    let player = state.store().player_by_name(&c.username).await?;
    let verified = match player.as_ref().and_then(|p| p.password_hash.clone()) {
        Some(hash) => auth::verify_password(hash, c.password).await,
        None => false,
    };
    let Some(player) = player.filter(|_| verified) else {
        backoff.failed(&c.username, Instant::now());
        state.security().record(
            Kind::LoginRefused,
            Some(&c.username),
            Some(ip),
            "wrong username or password",
        );
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "wrong username or password",
        ));
    };
    backoff.succeeded(&c.username);
    if let Some(reason) = state.store().ban_reason(player.id).await? {
        state.security().record(
            Kind::BannedLogin,
            Some(&player.name),
            Some(ip),
            "a banned account tried to log in",
        );
        return Err(ApiError::new(
            ErrorCode::Forbidden,
            format!("this account is banned: {reason}"),
        ));
    }
    start_session(&state, player).await
}

/// A guest account: a fresh `guest-xxxxxxxx` name and a session, with nothing to fill in.
#[utoipa::path(
    post,
    path = "/api/guest",
    tag = "accounts",
    summary = "Play as a guest",
    description = "A new guest account named `guest-xxxxxxxx` and its session; no body. Guests \
        play casual games only (no rated match, queue, AI game or tournament). Each client \
        address may make only so many guests; a guest unused for a while is removed, and its \
        finished matches show it as `anonymous`.",
    responses(
        (status = 200, description = "A guest session", body = Session),
        (status = 429, description = "`rate_limited`: too many guests from this address", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ),
)]
async fn guest(State(state): State<AppState>, ClientIp(ip): ClientIp) -> ApiResult<Response> {
    refused_if_limited(&state, ip, None, state.limits().guest_attempt(ip))?;
    let name = format!("guest-{}", hex::encode(rand::random::<[u8; 4]>()));
    let player = state
        .store()
        .create_player(&name, None, true, crate::clock::now_ms())
        .await?;
    start_session(&state, player).await
}

#[utoipa::path(
    post,
    path = "/api/logout",
    tag = "accounts",
    summary = "Revoke the session",
    description = "Revokes the session token the request carries; sockets opened with it close.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
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

/// Passes a limiter's verdict on, recording a refusal as a security event.
fn refused_if_limited(
    state: &AppState,
    ip: std::net::IpAddr,
    account: Option<&str>,
    verdict: ApiResult<()>,
) -> ApiResult<()> {
    if let Err(e) = &verdict {
        state
            .security()
            .record(Kind::RateLimited, account, Some(ip), &e.message);
    }
    verdict
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// 1-based; 1 when absent.
    page: Option<u32>,
    /// Entries per page, 1 to 200; 50 when absent.
    per_page: Option<u32>,
}

impl Page {
    /// The page asked for (1-based) and its size, from the query.
    fn read(query: Result<Query<Page>, QueryRejection>) -> ApiResult<(u32, u32)> {
        let Query(page) = query.map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))?;
        Ok((
            page.page.unwrap_or(1).max(1),
            page.per_page.unwrap_or(50).clamp(1, 200),
        ))
    }
}

#[utoipa::path(
    get,
    path = "/api/leaderboard/{game}/{variant}",
    tag = "players",
    summary = "A pool's leaderboard",
    description = "The players rated in one pool (a game and variant), best first, with their \
        rated games played.",
    params(
        ("game" = String, Path, description = "A game, as `tafl`"),
        ("variant" = String, Path, description = "One of its variants, as `copenhagen`"),
        Page,
    ),
    responses(
        (status = 200, description = "One page of the leaderboard", body = Leaderboard),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
        (status = 404, description = "`not_found`: no such game or variant", body = ErrorBody),
    ),
)]
async fn leaderboard(
    State(state): State<AppState>,
    Path((game, variant)): Path<(String, String)>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Leaderboard>> {
    let (page, per_page) = Page::read(page)?;
    let pool = format!("{game}/{variant}");
    hosted::settle(&game, Some(&variant), None, true)
        .map_err(|_| ApiError::new(ErrorCode::NotFound, format!("there is no pool {pool}")))?;
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

#[utoipa::path(
    get,
    path = "/api/players/{id}",
    tag = "players",
    summary = "A player's profile",
    description = "The player, their rating in every pool they played rated in, and their \
        rating after each rated match.",
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 200, description = "The profile", body = PlayerProfile),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
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
        clock: m.spec.clock,
        players: m
            .players
            .iter()
            .map(|p| p.as_ref().map(crate::player::Player::public))
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

#[utoipa::path(
    get,
    path = "/api/players/{id}/matches",
    tag = "players",
    summary = "A player's matches",
    description = "The player's latest 100 matches, newest first.",
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 200, description = "The matches", body = Vec<MatchSummary>),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
async fn player_matches(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    if state.store().player(PlayerId(id)).await?.is_none() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("there is no player {id}"),
        ));
    }
    let matches = state.store().matches_of(PlayerId(id), 100).await?;
    Ok(Json(
        matches
            .iter()
            .filter(|m| viewer.may_see(m))
            .map(summary)
            .collect(),
    ))
}

#[utoipa::path(
    get,
    path = "/api/matches/live",
    tag = "matches",
    summary = "Matches being played, to watch",
    description = "Public matches being played (every seat taken; not hot-seat), newest first, \
        one page at a time, to watch over the WebSocket.",
    params(Page),
    responses(
        (status = 200, description = "One page of matches", body = Vec<MatchSummary>),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
    ),
)]
async fn live_matches(
    State(state): State<AppState>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    listed(&state, Status::Live, page).await
}

#[utoipa::path(
    get,
    path = "/api/matches/open",
    tag = "matches",
    summary = "Open challenges, to join",
    description = "Public matches waiting for players, newest first, one page at a time, to \
        join over the WebSocket.",
    params(Page),
    responses(
        (status = 200, description = "One page of matches", body = Vec<MatchSummary>),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
    ),
)]
async fn open_matches(
    State(state): State<AppState>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    listed(&state, Status::Waiting, page).await
}

/// One page of the public matches with this status, as the query asks.
async fn listed(
    state: &AppState,
    status: Status,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    let (page, per_page) = Page::read(page)?;
    let matches = state.store().listed_matches(status, page, per_page).await?;
    Ok(Json(matches.iter().map(summary).collect()))
}

/// A match with its record. The seed, which would let anyone predict the match's chance, is
/// published only once the match is over; so are hidden actions.
#[utoipa::path(
    get,
    path = "/api/matches/{id}",
    tag = "matches",
    summary = "A match with its full record",
    description = "The match, its actions (hidden ones only once it is over), its seed once it \
        is over, its result with the rating changes, and the game as a record in a notation other \
        software reads where the game has one (tafl: OpenTafl).",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code: a private match is shown only to its players (by their session) and to holders of its code"),
    ),
    responses(
        (status = 200, description = "The match", body = MatchRecord),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
    ),
)]
async fn match_record(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<MatchRecord>> {
    let m = viewer.load(&state, MatchId(id)).await?;
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
        // A game that keeps actions secret keeps its record too, until the match is over.
        record: (!secret).then(|| game_record(&m)).flatten(),
    }))
}

/// The game's record in its interchange notation (tafl: OpenTafl), rebuilt from its log; none
/// for a game without one, or a log the engine no longer replays.
fn game_record(m: &StoredMatch) -> Option<GameRecord> {
    let seats = usize::from(m.spec.seats);
    let mut game = hosted::host(&m.spec.game, &m.spec.variant, seats, m.spec.seed).ok()?;
    for a in &m.actions {
        game.play(a.seat, &a.action).ok()?;
    }
    let (format, text) = game.record()?;
    Some(GameRecord {
        format: format.to_string(),
        text,
    })
}

/// The longest the health check waits for the database.
const HEALTH_PATIENCE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Whether the server can serve matches: its database answers.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "server",
    summary = "Health check",
    responses(
        (status = 200, description = "Serving", body = Health),
        (status = 503, description = "The database does not answer", body = Health),
    ),
)]
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    // A database that hangs must not hang the health check: a load balancer waits for it.
    let ping = tokio::time::timeout(HEALTH_PATIENCE, state.store().ping()).await;
    let (status, text, database) = match ping {
        Ok(Ok(())) => (StatusCode::OK, "ok", "ok"),
        Ok(Err(_)) | Err(_) => (
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

/// The games the server plays, from the engine's catalog.
#[utoipa::path(
    get,
    path = "/api/games",
    tag = "matches",
    summary = "The games, their variants and seats",
    description = "Every game the server plays, from the engine's catalog: its named variants \
        (the default first) with their seat counts and, where the game has one, their rules in \
        an interchange notation (tafl: OpenTafl's rules string), and the names of its seats. \
        Clients build their pickers and boards from it.",
    responses((status = 200, description = "The games", body = Vec<GameInfo>)),
)]
async fn games() -> Json<Vec<GameInfo>> {
    Json(hosted::catalog())
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreviewOf {
    /// A named variant, or for tafl any OpenTafl rules string (a custom variant).
    variant: Option<String>,
    /// Seats; the variant's fewest when absent.
    seats: Option<u8>,
}

/// A variant's start position, to show before creating a match: how the browser previews a
/// custom tafl variant as its rules string is typed, with the engine's own error (naming the
/// switch it refuses) when the string is not one it plays.
#[utoipa::path(
    get,
    path = "/api/games/{game}/preview",
    tag = "matches",
    summary = "A variant's start, before creating a match",
    params(("game" = String, Path, description = "A game, as `tafl`"), PreviewOf),
    responses(
        (status = 200, description = "The start", body = VariantPreview),
        (status = 400, description = "`bad_request`: no such game, or a variant or seat count it does not play (the message says why)", body = ErrorBody),
    ),
)]
async fn preview(
    Path(game): Path<String>,
    query: Result<Query<PreviewOf>, QueryRejection>,
) -> ApiResult<Json<VariantPreview>> {
    let Query(asked) = query.map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))?;
    let settled = hosted::settle(&game, asked.variant.as_deref(), asked.seats, false)?;
    let (variant, seats) = (settled.variant, settled.seats);
    let start = hosted::host(&game, &variant, usize::from(seats), 0)?;
    Ok(Json(VariantPreview {
        named: settled.named,
        rules: hosted::rules_text(&game, &variant),
        view: start.view(None),
        game,
        variant,
        seats,
    }))
}

/// The matchmaking pools with players waiting.
#[utoipa::path(
    get,
    path = "/api/queue",
    tag = "matches",
    summary = "Matchmaking pools with players waiting",
    responses((status = 200, description = "The pools", body = Vec<QueuePool>)),
)]
async fn queue(State(state): State<AppState>) -> ApiResult<Json<Vec<QueuePool>>> {
    Ok(Json(state.queue().pools().await?))
}
