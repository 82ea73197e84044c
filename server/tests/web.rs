//! The browser client's files as the server sends them, over real HTTP: `index.html` names its
//! script, stylesheet, manifest and icons under the version's path, where they are cached for a
//! year (the sounds and the offline page's files too) while the entry points (the page itself,
//! the offline page and the service worker) are revalidated; text is sent brotli'd or gzipped to
//! clients that take it, the API's JSON too; the manifest and its icons are there; the 3D board's
//! three.js is the minified build, within its size budget.

mod common;

use std::io::Read;
use std::net::SocketAddr;

use common::{Backend, fresh_database, header, http, start};
use serde_json::Value;

async fn server() -> SocketAddr {
    start(&fresh_database(Backend::Sqlite).await, &[]).await
}

/// A GET with these request headers.
async fn fetch(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = http().get(format!("http://{addr}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// `body` decoded from `coding` (empty: as it is).
fn decoded(coding: &str, body: &[u8]) -> Vec<u8> {
    match coding {
        "br" => unbrotli(body),
        "gzip" => gunzip(body),
        "" => body.to_vec(),
        other => panic!("an unexpected coding {other}"),
    }
}

/// The version path `index.html` loads the client from: `/v/<version>/`.
async fn version_path(addr: SocketAddr) -> String {
    let index = fetch(addr, "/", &[]).await.text().await.unwrap();
    let start = index
        .find("/v/")
        .expect("index.html loads from /v/<version>/");
    let end = start + 3 + index[start + 3..].find('/').unwrap();
    index[start..=end].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_is_served_under_its_version_and_cached_for_a_year() {
    let addr = server().await;
    let index = fetch(addr, "/", &[]).await;
    assert_eq!(index.status(), 200);
    assert_eq!(header(&index, "cache-control"), "no-cache");
    assert!(header(&index, "content-type").starts_with("text/html"));
    let html = index.text().await.unwrap();
    assert!(!html.contains("{{version}}"), "the version is filled in");
    let v = version_path(addr).await;
    let hex = v.trim_start_matches("/v/").trim_end_matches('/');
    assert_eq!(hex.len(), 16, "{v}");
    assert!(hex.chars().all(|c| c.is_ascii_hexdigit()), "{v}");
    assert!(html.contains(&format!("src=\"{v}app.js\"")), "{html}");
    assert!(html.contains(&format!("href=\"{v}style.css\"")), "{html}");
    assert!(html.contains(&format!(
        "<link rel=\"manifest\" href=\"{v}manifest.webmanifest\">"
    )));
    assert!(
        html.contains(&format!("href=\"{v}icons/icon.svg\"")),
        "{html}"
    );

    // Under the version, every file of the client (the modules' relative imports included).
    for (path, mime) in [
        ("app.js", "javascript"),
        ("style.css", "text/css"),
        ("pages/lobby.js", "javascript"),
        ("boards/tafl3d.js", "javascript"),
        ("vendor/three/three.core.min.js", "javascript"),
        ("sounds/move.wav", "audio/"),
        ("manifest.webmanifest", "manifest+json"),
        ("icons/icon-192.png", "image/png"),
        ("offline.css", "text/css"),
        ("i18n/sv.json", "json"),
    ] {
        let file = fetch(addr, &format!("{v}{path}"), &[]).await;
        assert_eq!(file.status(), 200, "{path}");
        assert_eq!(
            header(&file, "cache-control"),
            "public, max-age=31536000, immutable",
            "{path}"
        );
        assert!(header(&file, "content-type").contains(mime), "{path}");
        // The same bytes as at the file's own, revalidated path.
        let plain = fetch(addr, &format!("/{path}"), &[]).await;
        assert_eq!(header(&plain, "cache-control"), "no-cache", "{path}");
        assert_eq!(file.bytes().await.unwrap(), plain.bytes().await.unwrap());
    }
    // An older version's path (a page open from before an upgrade) gets today's file, which it
    // must not keep.
    let old = fetch(addr, "/v/0123456789abcdef/app.js", &[]).await;
    assert_eq!(old.status(), 200);
    assert_eq!(header(&old, "cache-control"), "no-cache");
    let missing = fetch(addr, &format!("{v}no-such-file.js"), &[]).await;
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.unwrap().contains("no-such-file.js"));

    // The service worker: at a fixed path, revalidated, carrying the version it caches.
    let sw = fetch(addr, "/sw.js", &[]).await;
    assert_eq!(header(&sw, "cache-control"), "no-cache");
    assert!(header(&sw, "content-type").contains("javascript"));
    let sw = sw.text().await.unwrap();
    assert!(sw.contains(&format!("const VERSION = \"{hex}\";")), "{sw}");
    // The offline page: at a fixed path, revalidated, its files under the version.
    let offline = fetch(addr, "/offline.html", &[]).await;
    assert_eq!(header(&offline, "cache-control"), "no-cache");
    let offline = offline.text().await.unwrap();
    assert!(
        offline.contains(&format!("href=\"{v}offline.css\"")),
        "{offline}"
    );
    assert!(
        offline.contains(&format!("src=\"{v}offline.js\"")),
        "{offline}"
    );
    // The sounds are loaded relative to their module, so under the version too.
    let sound = fetch(addr, &format!("{v}sound.js"), &[])
        .await
        .text()
        .await
        .unwrap();
    assert!(sound.contains("new URL(`./sounds/"), "{sound}");

    // An unchanged file is not sent again.
    let first = fetch(addr, &format!("{v}app.js"), &[]).await;
    let etag = header(&first, "etag");
    assert!(etag.starts_with('"'), "{etag}");
    let again = fetch(addr, &format!("{v}app.js"), &[("if-none-match", &etag)]).await;
    assert_eq!(again.status(), 304);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_is_sent_brotli_or_gzip_as_the_client_takes_it() {
    let addr = server().await;
    let v = version_path(addr).await;
    for path in [
        "/".to_string(),
        format!("{v}app.js"),
        format!("{v}style.css"),
        format!("{v}manifest.webmanifest"),
    ] {
        let plain = fetch(addr, &path, &[]).await;
        assert_eq!(header(&plain, "content-encoding"), "", "{path}");
        assert_eq!(header(&plain, "vary"), "Accept-Encoding", "{path}");
        let plain_tag = header(&plain, "etag");
        let plain = plain.bytes().await.unwrap();
        let mut tags = vec![plain_tag];
        for (accept, coding) in [
            ("gzip, deflate, br", "br"),
            ("br", "br"),
            ("gzip", "gzip"),
            ("br;q=0, gzip", "gzip"),
        ] {
            let packed = fetch(addr, &path, &[("accept-encoding", accept)]).await;
            assert_eq!(
                header(&packed, "content-encoding"),
                coding,
                "{path} {accept}"
            );
            let tag = header(&packed, "etag");
            let body = packed.bytes().await.unwrap();
            assert!(body.len() < plain.len(), "{path}: {coding} is smaller");
            assert_eq!(decoded(coding, &body), plain.to_vec(), "{path} {accept}");
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        assert_eq!(tags.len(), 3, "one ETag per encoding: {tags:?}");
        // Refused with q=0: sent as it is.
        let refused = fetch(addr, &path, &[("accept-encoding", "gzip;q=0, br;q=0")]).await;
        assert_eq!(header(&refused, "content-encoding"), "", "{path}");
        assert_eq!(refused.bytes().await.unwrap(), plain);
    }
    // Images are compressed already.
    let png = fetch(addr, "/icons/icon-192.png", &[("accept-encoding", "gzip")]).await;
    assert_eq!(header(&png, "content-encoding"), "");
    assert_eq!(header(&png, "content-type"), "image/png");
}

/// The API's JSON (and the rules pages, made by the server) is compressed too, brotli or gzip as
/// the client takes it, and decodes to what an uncompressed answer says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_and_rules_pages_are_compressed_as_the_client_takes_them() {
    let addr = server().await;
    for path in ["/api/games", "/api/openapi.json", "/api/games/tafl/rules"] {
        let plain = fetch(addr, path, &[]).await;
        assert_eq!(plain.status(), 200, "{path}");
        assert_eq!(header(&plain, "content-encoding"), "", "{path}");
        let plain = plain.bytes().await.unwrap();
        for (accept, coding) in [("gzip, deflate, br", "br"), ("gzip", "gzip")] {
            let packed = fetch(addr, path, &[("accept-encoding", accept)]).await;
            assert_eq!(packed.status(), 200, "{path}");
            assert_eq!(
                header(&packed, "content-encoding"),
                coding,
                "{path} {accept}"
            );
            assert!(
                header(&packed, "vary")
                    .to_lowercase()
                    .contains("accept-encoding")
            );
            let body = packed.bytes().await.unwrap();
            assert!(body.len() < plain.len(), "{path}: {coding} is smaller");
            assert_eq!(decoded(coding, &body), plain.to_vec(), "{path} {accept}");
        }
    }
}

/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manifest_names_the_app_and_its_icons() {
    let addr = server().await;
    let v = version_path(addr).await;
    let response = fetch(addr, &format!("{v}manifest.webmanifest"), &[]).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, "content-type"),
        "application/manifest+json"
    );
    let manifest: Value = response.json().await.unwrap();
    assert_eq!(manifest["short_name"], "Tafl");
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");
    assert!(manifest["theme_color"].as_str().unwrap().starts_with('#'));
    let icons = manifest["icons"].as_array().unwrap();
    for wanted in [192, 512] {
        let icon = icons
            .iter()
            .find(|i| i["sizes"] == format!("{wanted}x{wanted}"))
            .unwrap_or_else(|| panic!("a {wanted} px icon in {icons:?}"));
        // Relative to the manifest, so under the version too.
        let png = fetch(addr, &format!("{v}{}", icon["src"].as_str().unwrap()), &[]).await;
        assert_eq!(
            header(&png, "cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(png.status(), 200);
        assert_eq!(header(&png, "content-type"), "image/png");
        assert_eq!(png_size(&png.bytes().await.unwrap()), (wanted, wanted));
    }
    let offline = fetch(addr, "/offline.html", &[]).await;
    assert_eq!(offline.status(), 200);
    assert!(offline.text().await.unwrap().contains("You are offline"));
}

/// The 3D board's three.js is the minified build, and its compressed size stays within budget
/// (printed for the record); the unminified build is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_js_is_minified_and_within_its_budget() {
    let addr = server().await;
    let v = version_path(addr).await;
    let board = fetch(addr, &format!("{v}boards/tafl3d.js"), &[])
        .await
        .text()
        .await
        .unwrap();
    assert!(board.contains("from \"../vendor/three/three.module.min.js\""));
    let mut plain = 0;
    let mut zipped = 0;
    for file in ["three.module.min.js", "three.core.min.js"] {
        let path = format!("{v}vendor/three/{file}");
        let body = fetch(addr, &path, &[]).await.bytes().await.unwrap();
        let gz = fetch(addr, &path, &[("accept-encoding", "gzip")])
            .await
            .bytes()
            .await
            .unwrap();
        plain += body.len();
        zipped += gz.len();
    }
    eprintln!("three.js for the 3D board: {plain} bytes, {zipped} gzipped");
    assert!(plain < 800_000, "minified: {plain} bytes");
    assert!(zipped < 220_000, "gzipped: {zipped} bytes");
    for gone in ["three.module.js", "three.core.js"] {
        let response = fetch(addr, &format!("{v}vendor/three/{gone}"), &[]).await;
        assert_eq!(response.status(), 404, "{gone}");
    }
}
