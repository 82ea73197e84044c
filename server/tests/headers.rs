//! Security headers on every response: a page, a static file, an API answer, API errors and
//! missing files all carry the Content-Security-Policy, `nosniff` and the referrer policy;
//! `Strict-Transport-Security` and the `Secure` session cookie only with `--https`.

mod common;

use std::net::SocketAddr;

use common::{Backend, fresh_database, header, http, start};
use serde_json::json;

/// One request of each kind the server answers, named.
async fn answers(addr: SocketAddr) -> Vec<(&'static str, reqwest::Response)> {
    let get = |path: &str| http().get(format!("http://{addr}{path}")).send();
    let login = http()
        .post(format!("http://{addr}/api/login"))
        .json(&json!({"username": "nobody", "password": "not a password"}))
        .send();
    vec![
        ("the client's page", get("/").await.unwrap()),
        ("a static file", get("/style.css").await.unwrap()),
        ("an API answer", get("/api/health").await.unwrap()),
        ("an API error", get("/api/me/vacation").await.unwrap()),
        ("a refused login", login.await.unwrap()),
        (
            "an unknown endpoint",
            get("/api/nothing-here").await.unwrap(),
        ),
        ("a missing file", get("/nothing-here.js").await.unwrap()),
    ]
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let mut seen = Vec::new();
    for (what, response) in answers(addr).await {
        seen.push(response.status().as_u16());
        let policy = header(&response, "content-security-policy");
        for directive in ["default-src 'self'", "frame-ancestors 'none'"] {
            assert!(policy.contains(directive), "{what}: {policy:?}");
        }
        assert!(!policy.contains("unsafe"), "{what}: {policy:?}");
        assert_eq!(
            header(&response, "x-content-type-options"),
            "nosniff",
            "{what}"
        );
        assert_eq!(
            header(&response, "referrer-policy"),
            "same-origin",
            "{what}"
        );
        assert_eq!(
            header(&response, "strict-transport-security"),
            "",
            "{what}: no HSTS without --https"
        );
    }
    assert_eq!(
        seen,
        [200, 200, 200, 401, 401, 404, 404],
        "the answers asked for"
    );

    // Without --https the session cookie goes over plain HTTP too.
    let guest = common::post(addr, "/api/guest", json!({})).await;
    let cookie = header(&guest, "set-cookie");
    assert!(cookie.starts_with("session="), "{cookie}");
    assert!(!cookie.contains("Secure"), "{cookie}");
}

#[tokio::test]
async fn https_adds_strict_transport_security_and_a_secure_cookie() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &["--https"]).await;
    for (what, response) in answers(addr).await {
        assert_eq!(
            header(&response, "strict-transport-security"),
            "max-age=31536000",
            "{what}"
        );
        assert_eq!(
            header(&response, "x-content-type-options"),
            "nosniff",
            "{what}"
        );
    }
    let guest = common::post(addr, "/api/guest", json!({})).await;
    let session: protocol::Session = {
        let cookie = header(&guest, "set-cookie");
        assert!(cookie.contains("; Secure"), "{cookie}");
        guest.json().await.unwrap()
    };
    let logout = http()
        .post(format!("http://{addr}/api/logout"))
        .bearer_auth(&session.token)
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 204);
    let cleared = header(&logout, "set-cookie");
    assert!(
        cleared.contains("Max-Age=0") && cleared.contains("; Secure"),
        "{cleared}"
    );
}

/// The API's documentation (Swagger UI, embedded) is a page too, under the same rules but for
/// the hash of Swagger UI's one style element; the OpenAPI document is the API's.
#[tokio::test]
async fn the_api_documentation_carries_the_security_headers() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    for path in [
        "/api/docs/",
        "/api/docs/swagger-initializer.js",
        "/api/openapi.json",
    ] {
        let response = http()
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let policy = header(&response, "content-security-policy");
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy:?}"
        );
        assert_eq!(
            policy.contains("style-src 'self' 'sha256-"),
            path.starts_with("/api/docs/"),
            "{path}: {policy:?}"
        );
        assert!(!policy.contains("unsafe"), "{path}: {policy:?}");
        assert_eq!(
            header(&response, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
    }
}
