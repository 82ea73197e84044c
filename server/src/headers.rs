//! Security headers on every response: pages, files, API answers and errors alike.
//!
//! - `Content-Security-Policy`: a page of ours runs only the server's own scripts, styles,
//!   images, sounds and sockets (no inline script or style, no other site), sends forms only
//!   here, and no other site may frame it (clickjacking). A route that needs another policy
//!   sets its own, which is kept: the API's documentation (`openapi.rs`, `docs_policy`).
//! - `X-Content-Type-Options: nosniff`: a file is taken for its declared type only.
//! - `Referrer-Policy: same-origin`: other sites are not told which page linked to them (a
//!   private match's page, say).
//! - `Strict-Transport-Security`, only when the operator says the server is reached over HTTPS
//!   (`--https`): sent over plain HTTP it would lock browsers out of a server that has no TLS.

use axum::Router;
use axum::http::{HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// The client's policy. `default-src 'self'` covers scripts, styles, images, media, fonts, the
/// service worker and `fetch`/WebSocket connections (browsers take `ws:`/`wss:` on the same host
/// and port as `'self'`).
pub const POLICY: &str = "default-src 'self'; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// The one style element Swagger UI writes into its page, by its hash: the only inline style the
/// API's documentation needs. A Swagger UI whose element differs shows as a breach of the policy
/// in `tests/browser_policy.rs`.
const SWAGGER_STYLE: &str = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/// A year, as browsers remember that the server is HTTPS only.
const HSTS: &str = "max-age=31536000";

/// Adds the headers to every response of `router`. With `https`, `Strict-Transport-Security`
/// too.
pub fn secure(router: Router, https: bool) -> Router {
    let router = router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ));
    if https {
        router.layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        ))
    } else {
        router
    }
}

/// The policy of the API's documentation (`/api/docs`, Swagger UI): the client's, with Swagger
/// UI's style element allowed by its hash. It replaces the client's on those routes.
pub fn docs_policy() -> SetResponseHeaderLayer<HeaderValue> {
    let policy = format!("{POLICY}; style-src 'self' {SWAGGER_STYLE}");
    SetResponseHeaderLayer::overriding(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&policy).expect("a policy is a header value"),
    )
}
