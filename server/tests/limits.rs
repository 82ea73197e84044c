//! The REST API's limits over real HTTP, on both backends: logins and registrations per client
//! address, the back-off of failed logins for a username, the body size, unknown routes and
//! methods, and CORS. Every refusal is an `ErrorBody` JSON with its status (and `Retry-After`
//! when waiting helps); the server keeps serving.

mod common;

use std::net::SocketAddr;

use common::{BACKENDS, fresh_database, http, post, register, start};
use protocol::{ErrorBody, ErrorCode};
use serde_json::json;

/// Checks a refusal: its status, a JSON `ErrorBody` with `code`, and returns the
/// `Retry-After` seconds if any.
async fn refused(
    response: reqwest::Response,
    status: u16,
    code: ErrorCode,
    what: &str,
) -> Option<u64> {
    assert_eq!(response.status().as_u16(), status, "{what}");
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{what}: {content_type}"
    );
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let text = response.text().await.unwrap();
    let body: ErrorBody = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{what}: not an ErrorBody ({e}): {text}"));
    assert_eq!(body.code, code, "{what}: {}", body.message);
    retry_after
}

async fn login(addr: SocketAddr, username: &str, password: &str) -> reqwest::Response {
    post(
        addr,
        "/api/login",
        json!({"username": username, "password": password}),
    )
    .await
}

const PASSWORD: &str = "correct horse battery";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_from_one_address_are_limited() {
    for backend in BACKENDS {
        // Three logins at once, then one a minute; no username back-off in the way.
        let limits = [
            "--logins-per-minute",
            "1",
            "--login-burst",
            "3",
            "--login-free-failures",
            "1000",
        ];
        let addr = start(&fresh_database(backend).await, &limits).await;
        let alice = register(addr, "alice").await;
        assert_eq!(login(addr, "alice", PASSWORD).await.status(), 200);
        for name in ["nobody", "alice"] {
            let wrong = login(addr, name, "not the password").await;
            refused(wrong, 401, ErrorCode::Unauthorized, "wrong password").await;
        }
        // The fourth, right password or not, waits.
        for password in [PASSWORD, "not the password"] {
            let retry = refused(
                login(addr, "alice", password).await,
                429,
                ErrorCode::RateLimited,
                "fourth login",
            )
            .await
            .expect("a Retry-After");
            assert!((1..=60).contains(&retry), "{retry}");
        }
        // Other requests are not limited, and the session still works.
        let response = http()
            .post(format!("http://{addr}/api/logout"))
            .bearer_auth(&alice.token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204, "{backend:?}");
        assert_eq!(post(addr, "/api/guest", json!({})).await.status(), 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_lock_the_username_for_a_while() {
    for backend in BACKENDS {
        // Two free failures, then a lock of one second (doubling, up to a minute); no limit per
        // address.
        let limits = [
            "--logins-per-minute",
            "0",
            "--login-free-failures",
            "2",
            "--login-backoff-secs",
            "1",
            "--login-backoff-max-secs",
            "60",
        ];
        let addr = start(&fresh_database(backend).await, &limits).await;
        let bjorn = register(addr, "Bjorn").await;
        register(addr, "carl").await;
        for _ in 0..3 {
            let wrong = login(addr, "bjorn", "guessing").await;
            refused(wrong, 401, ErrorCode::Unauthorized, "a guess").await;
        }
        // Locked, in any case and whatever the password; a refused login does not count.
        for (name, password) in [("bjorn", "guessing"), ("BJORN", PASSWORD)] {
            let retry = refused(
                login(addr, name, password).await,
                429,
                ErrorCode::RateLimited,
                "locked",
            )
            .await
            .expect("a Retry-After");
            assert_eq!(retry, 1, "{backend:?}");
        }
        // ...but only that username.
        assert_eq!(login(addr, "carl", PASSWORD).await.status(), 200);

        // Once the lock is over, the right password logs in and clears the failures.
        wait(1).await;
        let ok = login(addr, "bjorn", PASSWORD).await;
        assert_eq!(ok.status(), 200, "{backend:?}");
        let session: protocol::Session = ok.json().await.unwrap();
        assert_eq!(session.player.id, bjorn.player.id);
        for _ in 0..2 {
            let wrong = login(addr, "bjorn", "guessing").await;
            refused(wrong, 401, ErrorCode::Unauthorized, "a free failure again").await;
        }
        // The third failure locks again, and the next one after that doubles the lock.
        refused(
            login(addr, "bjorn", "guessing").await,
            401,
            ErrorCode::Unauthorized,
            "third",
        )
        .await;
        let retry = refused(
            login(addr, "bjorn", "guessing").await,
            429,
            ErrorCode::RateLimited,
            "locked again",
        )
        .await
        .expect("a Retry-After");
        wait(retry).await;
        refused(
            login(addr, "bjorn", "guessing").await,
            401,
            ErrorCode::Unauthorized,
            "fourth",
        )
        .await;
        let retry = refused(
            login(addr, "bjorn", PASSWORD).await,
            429,
            ErrorCode::RateLimited,
            "doubled lock",
        )
        .await
        .expect("a Retry-After");
        // Two seconds, or one if this machine paused for a moment between the two requests.
        assert!((1..=2).contains(&retry), "{retry}");
    }
}

/// Waits out a `Retry-After`: the lock began before the answer and the seconds are rounded
/// up, so it is over by then.
async fn wait(retry_after: u64) {
    tokio::time::sleep(std::time::Duration::from_millis(retry_after * 1000 + 50)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_from_one_address_are_limited() {
    for backend in BACKENDS {
        let limits = [
            "--registrations-per-minute",
            "1",
            "--registration-burst",
            "2",
        ];
        let addr = start(&fresh_database(backend).await, &limits).await;
        register(addr, "first").await;
        // A refused registration counts too: this is about attempts.
        let taken = post(
            addr,
            "/api/register",
            json!({"username": "FIRST", "password": PASSWORD}),
        )
        .await;
        refused(taken, 409, ErrorCode::Conflict, "taken").await;
        let third = post(
            addr,
            "/api/register",
            json!({"username": "third", "password": PASSWORD}),
        )
        .await;
        let retry = refused(third, 429, ErrorCode::RateLimited, "third registration")
            .await
            .expect("a Retry-After");
        assert!((1..=60).contains(&retry), "{retry}");
        // Nothing was created: the name is free for a login to fail on.
        let response = login(addr, "third", PASSWORD).await;
        refused(response, 401, ErrorCode::Unauthorized, "no third player").await;
        // Guests and logins are other limits.
        assert_eq!(post(addr, "/api/guest", json!({})).await.status(), 200);
        assert_eq!(login(addr, "first", PASSWORD).await.status(), 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_and_unknown_routes_get_json_errors() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--max-body-bytes", "1024"],
        )
        .await;
        let session = register(addr, "dora").await;
        let big = "x".repeat(2000);
        let huge_login = post(
            addr,
            "/api/login",
            json!({"username": "dora", "password": big}),
        )
        .await;
        refused(huge_login, 413, ErrorCode::TooLarge, "huge login").await;
        let huge_tournament = http()
            .post(format!("http://{addr}/api/tournaments"))
            .bearer_auth(&session.token)
            .json(&json!({"name": big, "game": "tafl", "format": "knockout"}))
            .send()
            .await
            .unwrap();
        refused(huge_tournament, 413, ErrorCode::TooLarge, "huge tournament").await;
        // Just under the limit is read (and refused for what it says, not its size).
        let fits = json!({"username": "dora", "password": "y".repeat(900)});
        let response = post(addr, "/api/login", fits).await;
        refused(
            response,
            401,
            ErrorCode::Unauthorized,
            "a long wrong password",
        )
        .await;

        // Unknown paths under /api/, for any method.
        for (method, path) in [
            ("GET", "/api/nothing"),
            ("POST", "/api/nothing"),
            ("GET", "/api/players/1/nothing"),
            ("DELETE", "/api/tournaments/1/start/now"),
        ] {
            let request = http().request(method.parse().unwrap(), format!("http://{addr}{path}"));
            let response = request.send().await.unwrap();
            refused(
                response,
                404,
                ErrorCode::NotFound,
                &format!("{method} {path}"),
            )
            .await;
        }
        // Known paths, wrong methods: 405 with `Allow`.
        for (method, path, allow) in [
            ("DELETE", "/api/health", "GET"),
            ("GET", "/api/login", "POST"),
            ("PUT", "/api/tournaments/1", "GET"),
            ("POST", "/api/matches/live", "GET"),
        ] {
            let request = http().request(method.parse().unwrap(), format!("http://{addr}{path}"));
            let response = request.send().await.unwrap();
            let allowed = response.headers()["allow"].to_str().unwrap().to_string();
            assert!(allowed.contains(allow), "{method} {path}: {allowed}");
            refused(
                response,
                405,
                ErrorCode::BadRequest,
                &format!("{method} {path}"),
            )
            .await;
        }
        assert_eq!(login(addr, "dora", PASSWORD).await.status(), 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_lets_in_the_configured_origins_only() {
    let preflight = |addr: SocketAddr, origin: &str| {
        http()
            .request(reqwest::Method::OPTIONS, format!("http://{addr}/api/login"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
    };
    let allowed = |response: &reqwest::Response| {
        response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_string())
    };
    for backend in BACKENDS {
        let origins = "https://club.example,http://localhost:3000";
        let addr = start(&fresh_database(backend).await, &["--cors-origins", origins]).await;
        for origin in ["https://club.example", "http://localhost:3000"] {
            let response = preflight(addr, origin).await.unwrap();
            assert!(response.status().is_success(), "{origin}");
            assert_eq!(allowed(&response).as_deref(), Some(origin));
            let methods = response.headers()["access-control-allow-methods"]
                .to_str()
                .unwrap();
            assert!(methods.contains("POST"), "{methods}");
        }
        // Another origin gets no permission, and so does a look-alike.
        for origin in [
            "https://evil.example",
            "https://club.example.evil",
            "http://club.example",
        ] {
            let response = preflight(addr, origin).await.unwrap();
            assert_eq!(allowed(&response), None, "{origin}");
        }
        // A real request from an allowed page sees the answer (and its Retry-After if any).
        let response = http()
            .get(format!("http://{addr}/api/health"))
            .header("origin", "https://club.example")
            .send()
            .await
            .unwrap();
        assert_eq!(allowed(&response).as_deref(), Some("https://club.example"));

        // By default, no origin is let in.
        let addr = start(&fresh_database(backend).await, &[]).await;
        let response = preflight(addr, "https://club.example").await.unwrap();
        assert_eq!(allowed(&response), None);
    }
}

#[test]
fn bad_origins_are_refused_at_start() {
    for origin in [
        "club.example",
        "https://club.example/",
        "ftp://club.example",
        "https://",
    ] {
        let parsed = <server::config::Config as clap::Parser>::try_parse_from([
            "server",
            "--cors-origins",
            origin,
        ]);
        assert!(parsed.is_err(), "{origin}");
    }
}
