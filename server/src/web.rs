//! The browser client: the files of `web/` (plain ES modules and CSS, no build step), embedded in
//! the binary at compile time so that a deployment is the one executable, and served at `/`.
//!
//! Caching: every file is served under a versioned path, `/v/<version>/<file>`, where the
//! version is a hash of all the embedded files. The entry points, at fixed URLs, name everything
//! else under it: `index.html` (at `/`) and the offline page `offline.html` their stylesheets,
//! scripts, manifest and icons, and the service worker `sw.js` what it keeps (their `{{version}}`
//! placeholders are filled in when they are served). The modules import one another, and load
//! their messages and sounds, by paths relative to themselves, so every URL inherits the prefix
//! without any rewriting; so do the manifest's icons. A file under the current version never
//! changes, so it is cached for a year (`immutable`); a new build with any file changed has a new
//! version, hence new URLs for every file. The entry points are `no-cache`, revalidated by their
//! ETag. Every file is also served at its own path, `no-cache`, and a page still open from an
//! older version that loads a module later gets today's file under its old path, `no-cache` too.
//!
//! Compression: a text file is compressed once, with brotli and with gzip at their best, the
//! first time it is asked for, and kept in memory; it is sent brotli'd to clients whose
//! `Accept-Encoding` takes `br`, else gzipped to those that take gzip (`Vary: Accept-Encoding`).
//! Everything else the server sends (the API's JSON, the rules pages) is compressed as it goes by
//! the compression layer in `lib.rs`, which leaves these alone.

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

/// The placeholder that the entry points carry for the version.
const VERSION_PLACEHOLDER: &str = "{{version}}";
/// The files at fixed URLs that name the others under the version.
const ENTRY_POINTS: [&str; 3] = ["index.html", "offline.html", "sw.js"];
const FOREVER: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| off_the_runtime("index.html".into(), REVALIDATE, headers)),
        )
        .route(
            "/v/{version}/{*path}",
            get(
                |Path((asked, path)): Path<(String, String)>, headers: HeaderMap| {
                    let cache = if asked == *version() {
                        FOREVER
                    } else {
                        REVALIDATE
                    };
                    off_the_runtime(path, cache, headers)
                },
            ),
        )
        .route(
            "/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| {
                off_the_runtime(path, REVALIDATE, headers)
            }),
        )
}

/// [`serve`] on the blocking threads: a file's first request compresses it, and brotli at its
/// best takes a while over a large file (three.js), which must not hold up the runtime.
async fn off_the_runtime(path: String, cache: &'static str, headers: HeaderMap) -> Response {
    tokio::task::spawn_blocking(move || serve(&path, cache, &headers))
        .await
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
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

/// A content coding a client may take.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Coding {
    Brotli,
    Gzip,
}

impl Coding {
    fn name(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }
}

/// A file as it is sent: its bytes (the version filled in), their brotli and gzip where that is
/// worth it, its content type and its ETag.
struct Prepared {
    body: Bytes,
    /// Compressed, best first: brotli, then gzip.
    compressed: Vec<(Coding, Bytes)>,
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
    if ENTRY_POINTS.contains(&path) {
        let text = String::from_utf8(body).expect("the entry points are UTF-8");
        body = text.replace(VERSION_PLACEHOLDER, version()).into_bytes();
    }
    let compressed = match compressible(&mime) {
        true => vec![(Coding::Brotli, brotli(&body)), (Coding::Gzip, gzip(&body))],
        false => Vec::new(),
    };
    let compressed = (compressed.into_iter())
        .filter(|(_, z)| z.len() < body.len())
        .map(|(coding, z)| (coding, Bytes::from(z)))
        .collect();
    let etag = format!("\"{}\"", &hex::encode(Sha256::digest(&body))[..32]);
    let done = Arc::new(Prepared {
        body: body.into(),
        compressed,
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

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = ::brotli::enc::BrotliEncoderParams {
        quality: 11,
        ..Default::default()
    };
    ::brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).expect("writing to memory");
    out
}

/// Whether an `Accept-Encoding` header takes `coding`: listed (or `*`) without `q=0`.
fn accepts(headers: &HeaderMap, coding: Coding) -> bool {
    let Some(accepted) = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    accepted.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let listed = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (listed.eq_ignore_ascii_case(coding.name()) || listed == "*") && !refused
    })
}

/// One embedded file with its content type, cache policy and ETag (one for each encoding, so
/// that a cache never mixes them up), compressed the best way the client takes.
fn serve(path: &str, cache: &'static str, headers: &HeaderMap) -> Response {
    let Some(file) = prepared(path) else {
        return (StatusCode::NOT_FOUND, format!("no file /{path}")).into_response();
    };
    let compressed = (file.compressed.iter()).find(|(coding, _)| accepts(headers, *coding));
    let etag = match compressed {
        Some((coding, _)) => format!("{}-{}\"", file.etag.trim_end_matches('"'), coding.name()),
        None => file.etag.clone(),
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tag| tag.as_bytes() == etag.as_bytes());
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        compressed
            .map_or(&file.body, |(_, z)| z)
            .clone()
            .into_response()
    };
    let out = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(&file.mime) {
        out.insert(header::CONTENT_TYPE, mime);
    }
    if let Ok(tag) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, tag);
    }
    if let Some((coding, _)) = compressed {
        out.insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(coding.name()),
        );
    }
    if !file.compressed.is_empty() {
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
        let gzip = |accept| accepts(&with(accept), Coding::Gzip);
        assert!(gzip("gzip, deflate, br"));
        assert!(gzip("br;q=1.0, GZIP;q=0.5"));
        assert!(gzip("*"));
        assert!(!gzip("gzip;q=0"));
        assert!(!gzip("br, deflate"));
        assert!(!gzip("identity"));
        assert!(!accepts(&HeaderMap::new(), Coding::Gzip));
        let br = |accept| accepts(&with(accept), Coding::Brotli);
        assert!(br("gzip, deflate, br"));
        assert!(br("BR;q=0.5"));
        assert!(!br("br;q=0, gzip"));
        assert!(!br("gzip"));
    }
}
