//! The browser client: the files of `web/` (plain ES modules and CSS, no build step), embedded in
//! the binary at compile time so that a deployment is the one executable, and served at `/`.
//!
//! Caching: every file is also served under a versioned path, `/v/<version>/<file>`, where the
//! version is a hash of all the embedded files. `index.html` (at `/`) names its stylesheet and
//! script under it: its `{{version}}` placeholders are filled in when it is served. The modules
//! import one another by relative path, so every import inherits the prefix without any rewriting.
//! A file under the current version never changes, so it is cached for a year (`immutable`); a new
//! build with any file changed has a new version, hence new URLs for every file. What has a fixed
//! URL (`index.html`, the service worker `sw.js`, which also carries the version, the manifest,
//! its icons, the offline page and its two files) is `no-cache`, revalidated by its ETag. A page still open from an
//! older version that loads a module later gets today's file under its old path, `no-cache`.
//!
//! Compression: a text file is gzipped once, the first time it is asked for, and kept in memory;
//! it is sent gzipped to clients whose `Accept-Encoding` takes gzip (`Vary: Accept-Encoding`).

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, LazyLock, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;
use sha2::{Digest, Sha256};

use crate::state::AppState;

#[derive(Embed)]
#[folder = "../web/"]
struct Assets;

/// The placeholder that `index.html` and `sw.js` carry for the version.
const VERSION_PLACEHOLDER: &str = "{{version}}";
const FOREVER: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { serve("index.html", REVALIDATE, &headers) }),
        )
        .route(
            "/v/{version}/{*path}",
            get(
                |Path((asked, path)): Path<(String, String)>, headers: HeaderMap| async move {
                    let cache = if asked == *version() {
                        FOREVER
                    } else {
                        REVALIDATE
                    };
                    serve(&path, cache, &headers)
                },
            ),
        )
        .route(
            "/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move {
                serve(&path, REVALIDATE, &headers)
            }),
        )
}

/// The version of the embedded client: the first 16 hex digits of a SHA-256 over every file's
/// path and SHA-256.
pub fn version() -> &'static str {
    static VERSION: LazyLock<String> = LazyLock::new(|| {
        let mut paths: Vec<_> = Assets::iter().collect();
        paths.sort();
        let mut hasher = Sha256::new();
        for path in paths {
            let file = Assets::get(&path).expect("an embedded file lists itself");
            hasher.update(path.as_bytes());
            hasher.update(file.metadata.sha256_hash());
        }
        hex::encode(hasher.finalize())[..16].to_string()
    });
    &VERSION
}

/// A file as it is sent: its bytes (the version filled in), their gzip where that is worth it,
/// its content type and its ETag.
struct Prepared {
    body: Bytes,
    gzipped: Option<Bytes>,
    mime: String,
    etag: String,
}

/// The prepared files, by path, each made on its first request.
static PREPARED: LazyLock<Mutex<HashMap<String, Arc<Prepared>>>> = LazyLock::new(Default::default);

fn prepared(path: &str) -> Option<Arc<Prepared>> {
    if let Some(done) = PREPARED.lock().unwrap().get(path) {
        return Some(done.clone());
    }
    let file = Assets::get(path)?;
    let mime = file.metadata.mimetype().to_string();
    let mut body = file.data.into_owned();
    if path == "index.html" || path == "sw.js" {
        let text = String::from_utf8(body).expect("index.html and sw.js are UTF-8");
        body = text.replace(VERSION_PLACEHOLDER, version()).into_bytes();
    }
    let gzipped = compressible(&mime)
        .then(|| gzip(&body))
        .filter(|z| z.len() < body.len());
    let etag = format!("\"{}\"", &hex::encode(Sha256::digest(&body))[..32]);
    let done = Arc::new(Prepared {
        body: body.into(),
        gzipped: gzipped.map(Bytes::from),
        mime,
        etag,
    });
    PREPARED
        .lock()
        .unwrap()
        .insert(path.to_string(), done.clone());
    Some(done)
}

/// Text compresses; images (PNG) already are compressed.
fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.contains("javascript")
        || mime.contains("json")
        || mime.contains("svg")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// Whether an `Accept-Encoding` header takes gzip: listed (or `*`) without `q=0`.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    let Some(accepted) = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    accepted.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let coding = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
    })
}

/// One embedded file with its content type, cache policy and ETag (one for each encoding, so
/// that a cache never mixes them up), gzipped when the client takes it.
fn serve(path: &str, cache: &'static str, headers: &HeaderMap) -> Response {
    let Some(file) = prepared(path) else {
        return (StatusCode::NOT_FOUND, format!("no file /{path}")).into_response();
    };
    let gzipped = file.gzipped.as_ref().filter(|_| accepts_gzip(headers));
    let etag = match gzipped {
        Some(_) => format!("{}-gzip\"", file.etag.trim_end_matches('"')),
        None => file.etag.clone(),
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tag| tag.as_bytes() == etag.as_bytes());
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        gzipped.unwrap_or(&file.body).clone().into_response()
    };
    let out = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(&file.mime) {
        out.insert(header::CONTENT_TYPE, mime);
    }
    if let Ok(tag) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, tag);
    }
    if gzipped.is_some() {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    if file.gzipped.is_some() {
        out.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(accept: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(accept).unwrap(),
        );
        headers
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts_gzip(&with("gzip, deflate, br")));
        assert!(accepts_gzip(&with("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(&with("*")));
        assert!(!accepts_gzip(&with("gzip;q=0")));
        assert!(!accepts_gzip(&with("br, deflate")));
        assert!(!accepts_gzip(&with("identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }
}
