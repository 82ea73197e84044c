//! A span per HTTP request, named by a request id, so that every line logged while serving it
//! (and every line of a WebSocket session it upgrades to) carries the id. The id is echoed in the
//! `x-request-id` response header; one a proxy already gave the request is kept when it is a
//! plain token, so that logs line up across hops.

use std::time::Instant;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

pub const HEADER: &str = "x-request-id";

/// The longest request id taken from a client.
const MOST_CHARS: usize = 64;

/// Whether an incoming id can go into logs and a header as it is.
fn plain(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MOST_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
}

/// The middleware: wraps the request in its span and names the id in the response.
pub async fn span(request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|id| plain(id))
        .map_or_else(|| format!("{:016x}", rand::random::<u64>()), str::to_string);
    // The path only: a query may hold a session token.
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method = %request.method(),
        path = %request.uri().path(),
    );
    let started = Instant::now();
    let mut response = next.run(request).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::debug!(
            status = response.status().as_u16(),
            micros = started.elapsed().as_micros() as u64,
            "served"
        );
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, value);
    }
    response
}
