//! Which browser pages may act here. A browser sends the session cookie with a request that any
//! page makes to this server, and a bodiless `POST` needs no preflight: without this check any
//! page (any same-site one, the cookie being `SameSite=Lax`) could follow, mute or log out for
//! the player. So every request that may change something (any method but `GET`, `HEAD` and
//! `OPTIONS`), and every WebSocket upgrade, is refused with 403 when a browser says it comes
//! from a page on another origin, unless that origin is listed in `--cors-origins`. Clients
//! that are not browsers send neither `Origin` nor `Sec-Fetch-Site`, and are not affected.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use protocol::ErrorReason;

use crate::error::ApiError;
use crate::limits::ClientIp;
use crate::security::Kind;
use crate::state::AppState;

/// Where a request says it comes from, as a browser tells it.
#[derive(Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// No browser page: another client, or the user typing the address.
    Unknown,
    /// A page on this origin (the `Origin` header).
    Page(&'a str),
    /// A page on another site, or on another origin of this site, that sent no `Origin` but
    /// whose browser says so in `Sec-Fetch-Site`.
    Elsewhere,
}

impl<'a> Source<'a> {
    pub fn of(headers: &'a HeaderMap) -> Source<'a> {
        if let Some(origin) = headers.get(header::ORIGIN) {
            // A header that is not text names no origin this server could allow.
            return Source::Page(origin.to_str().unwrap_or("?"));
        }
        match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
            Some("cross-site" | "same-site") => Source::Elsewhere,
            _ => Source::Unknown,
        }
    }

    /// Whether a request from here may act: it is no browser page's, or the page is this
    /// server's own (its origin names the host the request was sent to), or its origin is
    /// configured.
    pub fn allowed(&self, headers: &HeaderMap, configured: &[String]) -> bool {
        let any = configured.iter().any(|o| o == "*");
        let origin = match self {
            Source::Unknown => return true,
            Source::Elsewhere => return any,
            Source::Page(origin) => origin,
        };
        if any || configured.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return true;
        }
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let origin_host = origin
            .strip_prefix("https://")
            .or_else(|| origin.strip_prefix("http://"));
        matches!((host, origin_host), (Some(h), Some(o)) if h.eq_ignore_ascii_case(o))
    }

    /// What the security log and the error name.
    pub fn describe(&self) -> String {
        match self {
            Source::Page(origin) => format!("pages on {origin}"),
            _ => "pages on other sites".to_string(),
        }
    }
}

/// Refuses a request that may change something when a page on a foreign origin sent it.
pub async fn guard(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    request: Request,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let headers = request.headers();
    let source = Source::of(headers);
    if safe || source.allowed(headers, &state.config().cors_origins) {
        return next.run(request).await;
    }
    let who = source.describe();
    let detail = format!("{} {} from {who}", request.method(), request.uri().path());
    state
        .security()
        .record(Kind::OriginRefused, None, Some(ip), &detail);
    ApiError::new(ErrorReason::Forbidden, format!("{who} may not act here")).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.insert(*name, HeaderValue::from_static(value));
        }
        h
    }

    #[test]
    fn pages_of_this_host_and_listed_origins_may_act() {
        let own = headers(&[
            ("host", "tafl.example:8080"),
            ("origin", "https://tafl.example:8080"),
        ]);
        assert!(Source::of(&own).allowed(&own, &[]));
        let other = headers(&[("host", "tafl.example"), ("origin", "https://evil.example")]);
        assert!(!Source::of(&other).allowed(&other, &[]));
        let listed = ["https://evil.example".to_string()];
        assert!(Source::of(&other).allowed(&other, &listed));
        assert!(Source::of(&other).allowed(&other, &["*".to_string()]));
    }

    #[test]
    fn without_an_origin_the_browser_s_word_decides() {
        let plain = headers(&[("host", "tafl.example")]);
        assert_eq!(Source::of(&plain), Source::Unknown);
        assert!(Source::of(&plain).allowed(&plain, &[]));
        for site in ["cross-site", "same-site"] {
            let h = headers(&[("host", "tafl.example"), ("sec-fetch-site", site)]);
            assert_eq!(Source::of(&h), Source::Elsewhere);
            assert!(!Source::of(&h).allowed(&h, &[]));
            assert!(Source::of(&h).allowed(&h, &["*".to_string()]));
        }
        let typed = headers(&[("host", "tafl.example"), ("sec-fetch-site", "none")]);
        assert!(Source::of(&typed).allowed(&typed, &[]));
    }
}
