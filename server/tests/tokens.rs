//! Session tokens stay out of URLs and logs. REST takes a token only from the `Authorization`
//! header or the `session` cookie, never from `?token=` (which only the WebSocket upgrade takes,
//! for native clients), since a URL ends up in browser histories, console errors and proxies'
//! access logs. And no line the server logs, at debug level, holds a token or a password.

mod common;

use std::net::SocketAddr;

use common::process::ServerProcess;
use common::{
    BACKENDS, Client, act, copenhagen_match, create, fresh_database, http, join_with_invite, post,
    start,
};
use protocol::Session;
use serde_json::json;

/// The status of a GET with the token presented as `how`: `bearer`, `cookie` or `query`.
async fn status(addr: SocketAddr, path: &str, how: &str, token: &str) -> u16 {
    let request = match how {
        "bearer" => http()
            .get(format!("http://{addr}{path}"))
            .bearer_auth(token),
        "cookie" => http()
            .get(format!("http://{addr}{path}"))
            .header("Cookie", format!("session={token}")),
        "query" => http().get(format!("http://{addr}{path}?token={token}")),
        _ => unreachable!("{how}"),
    };
    request.send().await.unwrap().status().as_u16()
}

/// `?token=` on a REST route is no session: the routes that need one answer 401, a private
/// match's record is not shown, and a logout with it revokes nothing; the header and the cookie
/// work on the same routes.
#[tokio::test]
async fn rest_takes_a_token_from_the_header_or_the_cookie_never_the_url() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let alice = common::register(addr, &format!("a{:08x}", rand::random::<u32>())).await;
        let bjorn = common::guest(addr).await;
        for path in ["/api/me/vacation", "/api/me/games", "/api/me/waiting"] {
            for (how, wanted) in [("bearer", 200), ("cookie", 200), ("query", 401)] {
                assert_eq!(
                    status(addr, path, how, &alice.token).await,
                    wanted,
                    "{backend:?}: {path} with the token in the {how}"
                );
            }
        }

        // A private match is shown to its players only.
        let (mut a, mut b) = (
            Client::connect(addr, &alice.token).await,
            Client::connect(addr, &bjorn.token).await,
        );
        let created = a
            .ok(|id| create(id, "tafl", "brandubh", json!({"visibility": "private"})))
            .await;
        let private = created.match_id.unwrap();
        b.ok(|id| join_with_invite(id, &created.invite.unwrap()))
            .await;
        let record = format!("/api/matches/{}", private.0);
        for (how, wanted) in [("bearer", 200), ("cookie", 200), ("query", 404)] {
            assert_eq!(
                status(addr, &record, how, &alice.token).await,
                wanted,
                "{backend:?}: a private match with the token in the {how}"
            );
        }

        // A logout with the token in its URL revokes nothing.
        let logout = http()
            .post(format!("http://{addr}/api/logout?token={}", alice.token))
            .send()
            .await
            .unwrap();
        assert_eq!(logout.status(), 401, "{backend:?}");
        assert_eq!(
            status(addr, "/api/me/vacation", "bearer", &alice.token).await,
            200,
            "{backend:?}: the session is still live"
        );
    }
}

/// A password of the test's own, unlike any other text in the log.
fn password() -> String {
    format!("pw-{:016x}", rand::random::<u64>())
}

/// The session a login or registration started, after checking it did.
async fn session(response: reqwest::Response, what: &str) -> Session {
    assert_eq!(response.status(), 200, "{what}");
    response.json().await.unwrap()
}

/// A whole session against the real server at debug level, on both backends: registering,
/// logging in (and a wrong password), a guest, a socket with its token in the URL and one with
/// the header, REST with the header, the cookie and (refused) the URL, a match and its moves,
/// logging out, and a revoked token tried on a socket's URL. No line of the log holds any of the
/// tokens or passwords.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_log_line_holds_a_token_or_a_password() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut server = ServerProcess::start_with(&url, &["--log", "debug"]).await;
        let addr = server.addr;
        let name = format!("a{:08x}", rand::random::<u32>());
        let (first, wrong) = (password(), password());
        let credentials = |password: &str| json!({"username": name, "password": password});

        let registered = session(
            post(addr, "/api/register", credentials(&first)).await,
            "register",
        )
        .await;
        let refused = post(addr, "/api/login", credentials(&wrong)).await;
        assert_eq!(refused.status(), 401, "{backend:?}: a wrong password");
        let alice = session(post(addr, "/api/login", credentials(&first)).await, "login").await;
        let bjorn = common::guest(addr).await;

        let mut a = Client::connect_in_url(addr, &alice.token).await;
        let mut b = Client::connect(addr, &bjorn.token).await;
        for (path, how, token, wanted) in [
            ("/api/me/vacation", "bearer", &registered.token, 200),
            ("/api/me/games", "cookie", &alice.token, 200),
            ("/api/me/waiting", "query", &bjorn.token, 401),
        ] {
            assert_eq!(
                status(addr, path, how, token).await,
                wanted,
                "{backend:?}: {path}"
            );
        }
        let m = copenhagen_match(&mut a, &mut b, json!({})).await;
        a.ok(|id| act(id, m, 0, "d1-d3")).await;
        b.ok(|id| act(id, m, 1, "f4-c4")).await;

        for (token, how) in [(&registered.token, "bearer"), (&alice.token, "cookie")] {
            let request = http().post(format!("http://{addr}/api/logout"));
            let request = match how {
                "bearer" => request.bearer_auth(token),
                _ => request.header("Cookie", format!("session={token}")),
            };
            assert_eq!(request.send().await.unwrap().status(), 204, "{backend:?}");
        }
        let revoked =
            tokio_tungstenite::connect_async(format!("ws://{addr}/ws?token={}", registered.token))
                .await;
        assert!(revoked.is_err(), "{backend:?}: a revoked token's socket");
        a.close().await;
        b.close().await;
        server.terminate();
        server
            .exit_within(common::PATIENCE)
            .await
            .expect("the server stops");

        let log = server.output();
        // The log is at debug level: it names every request served and the sockets.
        for said in ["served", "socket open", "/api/logout"] {
            assert!(log.contains(said), "{backend:?}: no {said:?} in the log");
        }
        let secrets = [
            ("the registration's token", &registered.token),
            ("the login's token", &alice.token),
            ("the guest's token", &bjorn.token),
            ("the password", &first),
            ("the wrong password", &wrong),
        ];
        for (what, secret) in secrets {
            let lines: Vec<&str> = log
                .lines()
                .filter(|l| l.contains(secret.as_str()))
                .collect();
            assert!(
                lines.is_empty(),
                "{backend:?}: {what} is in the log: {lines:#?}"
            );
        }
    }
}
