//! The REST API: accounts, leaderboards, profiles, the games catalog, the queue, health (the
//! routes of matches are in `matches/http.rs`, of tournaments in `tournament/http.rs`). Every
//! error is an `ErrorBody` JSON with the status its code maps to.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{
    Credentials, ErrorBody, ErrorCode, GameInfo, Health, Leaderboard, LeaderboardEntry, PlayerId,
    PlayerProfile, PoolRating, QueuePool, RatingPoint, Session, VacationState, VacationSwitch,
    VariantPreview,
};
use serde::Deserialize;

use crate::auth::{self, Authed, check_password, check_username, hash_password};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Id, Page};
use crate::limits::ClientIp;
use crate::matches::{Command, hosted};
use crate::security::Kind;
use crate::state::AppState;
use crate::token::new_token;
use crate::vacation::Allowance;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/guest", post(guest))
        .route("/api/logout", post(logout))
        .route("/api/leaderboard/{game}/{variant}", get(leaderboard))
        .route("/api/players/{id}", get(profile))
        .route("/api/me/vacation", get(vacation).put(set_vacation))
        .route("/api/queue", get(queue))
        .route("/api/games", get(games))
        .route("/api/games/{game}/preview", get(preview))
        .route("/api/health", get(health))
}

/// Starts a session for a player: the token in the body and as an HTTP-only cookie.
/// The `session` cookie holding `token` for `max_age` seconds (0 clears it): out of scripts'
/// reach, and over HTTPS only when the server is reached that way (`--https`).
fn session_cookie(state: &AppState, token: &str, max_age: u64) -> String {
    let secure = if state.config().https { "; Secure" } else { "" };
    format!("session={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}")
}

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
    let cookie = session_cookie(state, &token, days * 24 * 3600);
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
    let failures = state.store().login_failures(&c.username).await?;
    if let Err(locked) = backoff.check(failures, crate::clock::now_ms()) {
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
        let failures = backoff.failed(failures, crate::clock::now_ms());
        state
            .store()
            .set_login_failures(&c.username, Some(failures))
            .await?;
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
    if failures.is_some() {
        state.store().set_login_failures(&c.username, None).await?;
    }
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
    description = "Revokes the session token the request carries; sockets opened with it close. \
        The `session` cookie is cleared whatever the answer, so that a browser left with a stale \
        one can open a visitor's socket.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
async fn logout(State(state): State<AppState>, parts: axum::http::request::Parts) -> Response {
    let revoked = async {
        let token = auth::request_token(&parts)
            .ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "no session token"))?;
        state.authenticate(&token).await?;
        state.revoke(&token).await
    };
    // A browser sends its cookie with every socket it opens, a visitor's too, and a socket
    // with a token that is not live is refused.
    let cleared = [(header::SET_COOKIE, session_cookie(&state, "", 0))];
    match revoked.await {
        Ok(()) => (cleared, StatusCode::NO_CONTENT).into_response(),
        Err(e) => (cleared, e).into_response(),
    }
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
    description = "The player, their rating in every pool they played rated in, their \
        rating after each rated match, and whom they take challenges from.",
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
        challenges: state.store().challenge_policy(id).await?,
    }))
}

/// The longest the health check waits for the database.
const HEALTH_PATIENCE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Whether the server can serve matches: its database answers. Also says which node answered,
/// which nodes of the cluster are live, and how many matches the answering node owns.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "server",
    summary = "Health check",
    description = "Whether this node can serve matches (its database answers), the protocol \
        versions it serves, which node it is, the cluster's live nodes, and how many matches this node owns. Any node serves any \
        request: a load balancer may send each to any live node.",
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
    let cluster = state.cluster();
    let health = Health {
        status: text.into(),
        database: database.into(),
        protocol_version: protocol::PROTOCOL_VERSION,
        oldest_protocol_version: protocol::OLDEST_PROTOCOL_VERSION,
        node: cluster.me(),
        nodes: cluster.live_nodes(),
        owned_matches: state.rooms().count() as u64,
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

#[utoipa::path(
    get,
    path = "/api/me/vacation",
    tag = "players",
    summary = "Your vacation",
    description = "Whether the player of the session is on vacation and until when, and how \
        much vacation they have left in the last 365 days.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The vacation", body = VacationState),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
async fn vacation(
    State(state): State<AppState>,
    Authed(player): Authed,
) -> ApiResult<Json<VacationState>> {
    let rules = Allowance::of(state.config());
    let now = crate::clock::now_ms();
    let taken = state
        .store()
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    Ok(Json(rules.state(&taken, now)))
}

/// Goes on vacation or comes back: stored, then the rooms of the player's correspondence matches
/// are told, so that their clocks stop or run again at once (one running out needs nothing
/// stored: see `vacation.rs`).
#[utoipa::path(
    put,
    path = "/api/me/vacation",
    tag = "players",
    summary = "Go on vacation, or come back",
    description = "While the player is on vacation, the clocks of their correspondence matches \
        stand still and their opponents see it. A vacation lasts until the player comes back or \
        until their allowance (`--vacation-days` in any 365 days, 14 by default) is used up, \
        when their clocks run again; it lasts at least a day (`back_from_ms`). Setting what \
        already holds changes nothing. Accounts only: a guest, whose account is thrown away, \
        is refused with `forbidden`.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = VacationSwitch,
    responses(
        (status = 200, description = "The vacation now", body = VacationState),
        (status = 400, description = "`malformed` or `bad_request`: a bad body", body = ErrorBody),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
        (status = 403, description = "`forbidden`: a guest", body = ErrorBody),
        (status = 409, description = "`conflict`: no vacation left in the last 365 days, or coming back before the vacation has lasted a day", body = ErrorBody),
    ),
)]
async fn set_vacation(
    State(state): State<AppState>,
    Authed(player): Authed,
    Body(switch): Body<VacationSwitch>,
) -> ApiResult<Json<VacationState>> {
    crate::policy::accounts_only(&player, "take vacations")?;
    let rules = Allowance::of(state.config());
    let now = crate::clock::now_ms();
    let store = state.store();
    let taken = store
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    let until_ms = match (switch.on, taken.until(now)) {
        (true, Some(_)) | (false, None) => return Ok(Json(rules.state(&taken, now))),
        (true, None) => {
            let left = rules.left(&taken, now);
            if left == 0 {
                let days = state.config().vacation_days;
                return Err(ApiError::new(
                    ErrorCode::Conflict,
                    format!("no vacation left: a player has {days} days of it in any 365"),
                ));
            }
            store.start_vacation(player.id, now, now + left).await?;
            Some(now + left)
        }
        (false, Some(_)) => {
            rules.may_come_back(&taken, now)?;
            store.end_vacation(player.id, now).await?;
            None
        }
    };
    for id in store.per_move_matches_of(player.id).await? {
        let command = Command::Vacation {
            player: player.id,
            until_ms,
        };
        state.rooms().tell(id, command).await;
    }
    let taken = store
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    Ok(Json(rules.state(&taken, now)))
}
