//! Sessions: registering, logging in, guests and logging out over REST, and the sessions'
//! storage. A session is an opaque random token ([`super::token`]) given to the client in the
//! body and as an HTTP-only cookie, stored only as its hash.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use protocol::{Credentials, ErrorBody, ErrorReason, PlayerId, Session};

use super::auth;
use super::credentials::{check_password, check_username, hash_password, verify_password};
use super::player::Player;
use super::token::new_token;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::limits::ClientIp;
use crate::security::Kind;
use crate::state::AppState;
use crate::store::{Store, StoreResult, player_from};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/guest", post(guest))
        .route("/api/logout", post(logout))
}

/// Starts a session for a player: the token in the body and as an HTTP-only cookie.
/// The `session` cookie holding `token` for `max_age` seconds (0 clears it): out of scripts'
/// reach, and over HTTPS only when the server is reached that way (`--https`).
fn session_cookie(state: &AppState, token: &str, max_age: u64) -> String {
    let secure = if state.config().https { "; Secure" } else { "" };
    format!("session={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}")
}

async fn start_session(state: &AppState, player: Player) -> ApiResult<Response> {
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
        Some(hash) => verify_password(hash, c.password).await,
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
            ErrorReason::WrongLogin,
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
            ErrorReason::AccountBanned {
                why: reason.to_string(),
            },
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
            .ok_or_else(|| ApiError::new(ErrorReason::NotLoggedIn, "no session token"))?;
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
pub(crate) fn refused_if_limited(
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

impl Store {
    pub async fn create_session(
        &self,
        token_hash: &str,
        player: PlayerId,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, player_id, created_ms, expires_ms, revoked)
             VALUES ($1, $2, $3, $4, 0)",
        )
        .bind(token_hash)
        .bind(player.0)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The player a live (unexpired, unrevoked) session belongs to.
    pub async fn session_player(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<Player>> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.password_hash, p.guest
             FROM sessions s JOIN players p ON p.id = s.player_id
             WHERE s.token_hash = $1 AND s.revoked = 0 AND s.expires_ms > $2
               AND p.banned_ms IS NULL",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| player_from(&r, "")).transpose()?)
    }

    pub async fn revoke_session(&self, token_hash: &str) -> StoreResult<()> {
        sqlx::query("UPDATE sessions SET revoked = 1 WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
