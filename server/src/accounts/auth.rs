//! Authentication: the session token a request carries (bearer header or `session` cookie;
//! WebSocket upgrades also take a `token` query parameter), and the extractor that turns it into
//! a player.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use protocol::ErrorReason;

use super::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The session token a REST request carries, if any: the bearer header, else the `session`
/// cookie. Never the URL, which browsers keep in their history and console errors and proxies
/// write to their access logs.
pub fn request_token(parts: &Parts) -> Option<String> {
    let bearer = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let cookie = || {
        parts
            .headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| {
                v.split(';')
                    .find_map(|c| c.trim().strip_prefix("session="))
                    .map(str::trim)
            })
    };
    bearer
        .or_else(cookie)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// The session token a WebSocket upgrade carries: a REST request's, or the `token` query
/// parameter, for native clients whose WebSocket library can set neither a header nor a cookie.
pub fn upgrade_token(parts: &Parts) -> Option<String> {
    let query = || {
        parts
            .uri
            .query()
            .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token=")))
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    request_token(parts).or_else(query)
}

/// The player a request is authenticated as.
pub struct Authed(pub Player);

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Authed> {
        let token = request_token(parts)
            .ok_or_else(|| ApiError::new(ErrorReason::NotLoggedIn, "no session token"))?;
        state.authenticate(&token).await.map(Authed)
    }
}
