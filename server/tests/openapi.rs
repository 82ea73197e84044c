//! The OpenAPI description against the server that serves it: every `/api/` route the code
//! registers is documented with its methods and nothing else is; every documented operation is
//! answered by a real handler; the docs UI comes with its files from the server itself.

mod common;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

use common::{BACKENDS, fresh_database, get_text, http, start};
use serde_json::Value;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Every `(path, method)` the server's source registers under `/api/` with
/// `.route("/api/...", get(..).post(..))`, read from the code itself so that a new route cannot
/// slip by. Catch-alls (`{*rest}`) are the JSON 404, not endpoints.
fn routes_in_code() -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                routes_in(&std::fs::read_to_string(&path).unwrap(), &mut found);
            }
        }
    }
    found
}

fn routes_in(source: &str, found: &mut BTreeSet<(String, String)>) {
    for (start, _) in source.match_indices(".route(\"") {
        let rest = &source[start + ".route(\"".len()..];
        let path = &rest[..rest.find('"').unwrap()];
        if !path.starts_with("/api/") || path.contains("{*") {
            continue;
        }
        // The call's arguments: up to the parenthesis closing `.route(`.
        let mut depth = 1;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .unwrap()
            .0;
        let handlers = &rest[path.len()..end];
        let before = |i: usize| handlers[..i].chars().next_back();
        let mut methods = 0;
        for method in METHODS {
            for (i, _) in handlers.match_indices(&format!("{method}(")) {
                if before(i).is_none_or(|c| !c.is_alphanumeric() && c != '_') {
                    found.insert((path.to_string(), method.to_string()));
                    methods += 1;
                }
            }
        }
        assert!(methods > 0, "no method found for {path} in {handlers}");
    }
}

fn routes_in_document(doc: &Value) -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if METHODS.contains(&method.as_str()) {
                found.insert((path.clone(), method.clone()));
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_route_is_documented_and_served() {
    let in_code = routes_in_code();
    // The parse itself is checked on routes known to exist.
    for known in [
        ("/api/login", "post"),
        ("/api/tournaments", "get"),
        ("/api/tournaments", "post"),
        ("/api/players/{id}", "get"),
        ("/api/openapi.json", "get"),
    ] {
        assert!(
            in_code.contains(&(known.0.to_string(), known.1.to_string())),
            "{known:?} not found in the code: {in_code:?}"
        );
    }
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let response = http()
            .get(format!("http://{addr}/api/openapi.json"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let doc: Value = response.json().await.unwrap();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3."));

        let documented = routes_in_document(&doc);
        let missing: Vec<_> = in_code.difference(&documented).collect();
        let extra: Vec<_> = documented.difference(&in_code).collect();
        assert!(missing.is_empty(), "served but not documented: {missing:?}");
        assert!(
            extra.is_empty(),
            "documented but not in the code: {extra:?}"
        );

        // Every schema a document refers to is in it.
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for (i, _) in text.match_indices("#/components/schemas/") {
            let name: String = text[i + "#/components/schemas/".len()..]
                .chars()
                .take_while(|c| *c != '"')
                .collect();
            assert!(schemas.contains_key(&name), "no schema {name}");
        }
        for name in ["ErrorBody", "ErrorCode", "Session", "TournamentDetails"] {
            assert!(schemas.contains_key(name), "no schema {name}");
        }
        // A field kept for an older protocol version says it is deprecated.
        let opentafl = &schemas["MatchRecord"]["properties"]["opentafl"];
        assert_eq!(opentafl["deprecated"], true, "{opentafl}");
        let health = &schemas["Health"]["required"];
        assert!(
            health
                .as_array()
                .unwrap()
                .contains(&"protocol_version".into()),
            "{health}"
        );

        // The session token is described, and the operations that need it say so.
        let schemes = &doc["components"]["securitySchemes"];
        assert_eq!(schemes["bearer"]["type"], "http");
        assert_eq!(schemes["bearer"]["scheme"], "bearer");
        assert_eq!(schemes["cookie"]["in"], "cookie");
        assert_eq!(schemes["cookie"]["name"], "session");
        for (path, method) in [
            ("/api/logout", "post"),
            ("/api/tournaments", "post"),
            ("/api/tournaments/{id}/start", "post"),
            ("/api/me/waiting", "get"),
            ("/api/me/vacation", "put"),
            ("/api/players/{id}/follow", "post"),
            ("/api/players/{id}/follow", "delete"),
            ("/api/settings", "put"),
        ] {
            let security = doc["paths"][path][method]["security"].as_array().unwrap();
            assert!(
                security.iter().any(|s| s.get("bearer").is_some()),
                "{method} {path}"
            );
        }
        // Rate-limited operations document their `Retry-After`.
        for path in ["/api/login", "/api/register"] {
            let limited = &doc["paths"][path]["post"]["responses"]["429"];
            assert!(limited["headers"]["Retry-After"].is_object(), "{path}");
        }

        for (path, method) in &documented {
            assert_served(addr, path, method).await;
        }
    }
}

/// A real handler answers `method path`: neither a 405 nor the JSON 404 of an unknown path.
async fn assert_served(addr: SocketAddr, path: &str, method: &str) {
    let concrete = path
        .replace("{game}", "tafl")
        .replace("{variant}", "copenhagen")
        .replace("{id}", "1");
    let url = format!("http://{addr}{concrete}");
    let request = match method {
        "get" => http().get(&url),
        "post" => http().post(&url).json(&serde_json::json!({})),
        "put" => http().put(&url).json(&serde_json::json!({})),
        "delete" => http().delete(&url),
        other => panic!("a {other} route: extend this test"),
    };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    assert_ne!(status, 405, "{method} {path}");
    if status == 404 {
        let body: Value = response.json().await.unwrap();
        let message = body["message"].as_str().unwrap();
        assert!(
            !message.starts_with("there is no endpoint"),
            "{method} {path}: {message}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_docs_ui_is_served_from_the_binary() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    // `/api/docs` leads to the page (reqwest follows the redirect).
    let response = http()
        .get(format!("http://{addr}/api/docs"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.url().path(), "/api/docs/");
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let page = response.text().await.unwrap();
    assert!(page.contains("<div id=\"swagger-ui\">"), "{page}");

    // Every file the page loads is a relative URL the server itself serves.
    let mut assets = Vec::new();
    for attribute in ["src=\"", "href=\""] {
        for (i, _) in page.match_indices(attribute) {
            let rest = &page[i + attribute.len()..];
            assets.push(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    assert!(
        assets.iter().any(|a| a.ends_with("swagger-ui-bundle.js")),
        "{assets:?}"
    );
    for asset in &assets {
        assert!(
            !asset.contains("//") && !asset.starts_with('/'),
            "not a file of the page's own folder: {asset}"
        );
        let asset = asset.trim_start_matches("./");
        let response = http()
            .get(format!("http://{addr}/api/docs/{asset}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{asset}");
        assert!(!response.bytes().await.unwrap().is_empty(), "{asset}");
    }

    // The page is pointed at this server's document and at no online validator.
    let initializer = get_text(addr, "/api/docs/swagger-initializer.js").await;
    assert!(
        initializer.contains("\"url\": \"/api/openapi.json\""),
        "{initializer}"
    );
    assert!(
        initializer.contains("\"validatorUrl\": \"none\""),
        "{initializer}"
    );
    assert!(!initializer.contains("http://"), "{initializer}");
    assert!(!initializer.contains("https://"), "{initializer}");
}
