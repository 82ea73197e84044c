//! The browser client: the files of `web/` (plain ES modules and CSS, no build step), embedded in
//! the binary at compile time so that a deployment is the one executable, and served at `/`.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;

use crate::state::AppState;

#[derive(Embed)]
#[folder = "../web/"]
struct Assets;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|headers: HeaderMap| async move { serve("index.html", &headers) }))
        .route(
            "/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }),
        )
}

/// One embedded file, with its content type and an ETag (its SHA-256), so that browsers revalidate
/// instead of keeping a stale client after the server is upgraded.
fn serve(path: &str, headers: &HeaderMap) -> Response {
    let Some(file) = Assets::get(path) else {
        return (StatusCode::NOT_FOUND, format!("no file /{path}")).into_response();
    };
    let etag = format!("\"{}\"", hex::encode(file.metadata.sha256_hash()));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tag| tag.as_bytes() == etag.as_bytes());
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        file.data.into_owned().into_response()
    };
    let out = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(file.metadata.mimetype()) {
        out.insert(header::CONTENT_TYPE, mime);
    }
    if let Ok(tag) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, tag);
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
