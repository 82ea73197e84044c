//! What the server tells its operator, with the real binary: bad settings stop it at start with
//! the setting's name; a busy port, an unwritable SQLite file and an unreachable PostgreSQL are
//! named, with the cause, within 5 s; the start-up log says what runs where and under which
//! limits, without colour codes in a file; `/metrics` can move to an address of its own; health
//! answers within 2 s whatever the database does; admins made from the command line ban over
//! REST and read the security events; a second server on one SQLite file refuses to start.

mod common;

use std::net::{SocketAddr, TcpListener};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::process::ServerProcess;
use common::{
    BACKENDS, Backend, Client, copenhagen_match, fresh_database, http, post, register, start,
};
use protocol::ClientMessage;
use serde_json::{Value, json};

/// Runs the server binary to its end (it must end by itself within `patience`): its output
/// (standard output and error together), whether it succeeded, and how long it took.
fn run(args: &[&str], patience: Duration) -> (String, bool, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > patience {
            let _ = child.kill();
            panic!("the server ran past {patience:?} with {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = started.elapsed();
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    (text, status.success(), took)
}

fn sqlite_file() -> String {
    let dir = std::env::temp_dir().join("tafl-server-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("op-{:016x}.db", rand::random::<u64>()));
    format!("sqlite://{}", path.display())
}

#[test]
fn bad_settings_stop_start_up_naming_the_setting() {
    let db = sqlite_file();
    let cases: [(&[&str], &str); 5] = [
        (&["--session-days", "0"], "--session-days"),
        (&["--ping-secs", "0"], "--ping-secs"),
        (
            &["--open-matches-per-player", "0"],
            "--open-matches-per-player",
        ),
        (
            &["--queue-window", "100", "--queue-window-max", "10"],
            "--queue-window-max",
        ),
        (
            &[
                "--login-backoff-secs",
                "60",
                "--login-backoff-max-secs",
                "5",
            ],
            "--login-backoff-max-secs",
        ),
    ];
    for (bad, setting) in cases {
        let mut args = vec!["--bind", "127.0.0.1:0", "--database-url", &db];
        args.extend_from_slice(bad);
        let (out, ok, _) = run(&args, Duration::from_secs(10));
        assert!(!ok, "{bad:?} was accepted");
        assert!(out.contains(setting), "{bad:?}: {out}");
    }
}

#[test]
fn start_up_errors_name_the_address_the_path_or_the_host_within_5_s() {
    let busy = TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = busy.local_addr().unwrap().to_string();
    let db = sqlite_file();
    let (out, ok, took) = run(
        &["--bind", &busy, "--database-url", &db],
        Duration::from_secs(10),
    );
    assert!(!ok && out.contains(&busy), "{out}");
    assert!(out.to_lowercase().contains("in use"), "{out}");
    assert!(took < Duration::from_secs(5), "{took:?}");

    let unwritable = "sqlite:///proc/tafl-nowhere/x.db";
    let (out, ok, _) = run(
        &["--bind", "127.0.0.1:0", "--database-url", unwritable],
        Duration::from_secs(10),
    );
    assert!(!ok && out.contains("/proc/tafl-nowhere/x.db"), "{out}");

    // PostgreSQL refusing connections, and one that accepts them and never answers.
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    for (port, cause) in [(closed, "refused"), (silent_port, "no answer")] {
        let url = format!("postgres://tafl:s3cret-pw@127.0.0.1:{port}/club");
        let (out, ok, took) = run(
            &["--bind", "127.0.0.1:0", "--database-url", &url],
            Duration::from_secs(10),
        );
        assert!(!ok, "{out}");
        assert!(out.contains(&format!("127.0.0.1:{port}")), "{out}");
        assert!(out.contains("database club"), "{out}");
        assert!(out.to_lowercase().contains(cause), "{cause}: {out}");
        assert!(
            !out.contains("s3cret-pw"),
            "the password was printed: {out}"
        );
        assert!(took < Duration::from_secs(5), "{cause}: {took:?}");
    }
    drop(silent);
}

/// SQLite serves one server process: a second one on the same file stops at start saying why,
/// the first serves on, and once it is gone (killed) the file serves a new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_file_refuses_to_start() {
    let db = sqlite_file();
    let first = ServerProcess::start(&db).await;
    let (out, ok, took) = run(
        &["--bind", "127.0.0.1:0", "--database-url", &db],
        Duration::from_secs(10),
    );
    assert!(!ok, "{out}");
    assert!(out.contains("another server process"), "{out}");
    assert!(out.contains(db.trim_start_matches("sqlite://")), "{out}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let health = |addr: SocketAddr| async move {
        http()
            .get(format!("http://{addr}/api/health"))
            .send()
            .await
            .unwrap()
            .status()
    };
    assert_eq!(health(first.addr).await, 200);
    first.kill();
    let second = ServerProcess::start(&db).await;
    assert_eq!(health(second.addr).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_start_up_log_says_what_runs_where_without_colour_codes() {
    let db = sqlite_file();
    let server = ServerProcess::start_with(&db, &["--log", "info"]).await;
    let log = server.output();
    let path = db.strip_prefix("sqlite://").unwrap();
    for expected in [
        env!("CARGO_PKG_VERSION"),
        &format!("http://{}/", server.addr),
        &format!("SQLite file {path}"),
        "restored_matches=0",
        "limits in force",
        "open_matches_per_player=3",
        "sockets_per_player=10",
        "rated_games_per_pair=5",
    ] {
        assert!(log.contains(expected), "{expected} is not in:\n{log}");
    }
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a log file:\n{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_can_move_to_an_address_of_their_own() {
    let metrics: SocketAddr = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let server =
        ServerProcess::start_with(&sqlite_file(), &["--metrics-bind", &metrics.to_string()]).await;
    let public = common::get_text(server.addr, "/metrics").await;
    assert!(!public.contains("tafl_open_sockets"), "{public}");
    let private = common::get_text(metrics, "/metrics").await;
    assert!(private.contains("tafl_open_sockets"), "{private}");
}

/// A TCP proxy in front of the test PostgreSQL server that can take the database away: once
/// down, it drops the connections it carries and holds new ones open without a byte, as a
/// database host that has gone silent does.
struct Proxy {
    addr: SocketAddr,
    down: Arc<AtomicBool>,
}

impl Proxy {
    async fn start(to: SocketAddr) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let down = Arc::new(AtomicBool::new(false));
        let flag = down.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let flag = flag.clone();
                tokio::spawn(async move {
                    if flag.load(Ordering::SeqCst) {
                        // Silent: keep the connection, say nothing.
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        return;
                    }
                    let Ok(mut server) = tokio::net::TcpStream::connect(to).await else {
                        return;
                    };
                    let copying = tokio::io::copy_bidirectional(&mut client, &mut server);
                    let going_down = async {
                        while !flag.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                    };
                    let cut = tokio::select! {
                        _ = copying => false,
                        () = going_down => true,
                    };
                    if cut {
                        // Once down, the connections it carried go silent too.
                        tokio::time::sleep(Duration::from_secs(60)).await;
                    }
                    drop((client, server));
                });
            }
        });
        Proxy { addr, down }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_answers_within_2_s_with_postgres_gone_silent() {
    let url = fresh_database(Backend::Postgres).await;
    let (prefix, rest) = url.split_once('@').unwrap();
    let (host, database) = rest.split_once('/').unwrap();
    let proxy = Proxy::start(host.parse().unwrap()).await;
    let through = format!("{prefix}@{}/{database}", proxy.addr);
    let server = ServerProcess::start(&through).await;
    proxy.down.store(true, Ordering::SeqCst);
    // The proxy looks at its flag every 20 ms.
    tokio::time::sleep(Duration::from_millis(100)).await;
    for _ in 0..3 {
        let asked = Instant::now();
        let response = http()
            .get(format!("http://{}/api/health", server.addr))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .unwrap();
        let took = asked.elapsed();
        assert_eq!(response.status(), 503);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["database"], "unavailable");
        assert!(took < Duration::from_secs(2), "health took {took:?}");
    }
}

/// `server admin grant NAME` against a database.
fn grant(url: &str, name: &str) -> (String, bool) {
    let (out, ok, _) = run(
        &["--database-url", url, "admin", "grant", name],
        Duration::from_secs(30),
    );
    (out, ok)
}

async fn as_player(
    method: reqwest::Method,
    addr: SocketAddr,
    token: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = http()
        .request(method, format!("http://{addr}{path}"))
        .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_made_from_the_command_line_bans_and_lifts_bans() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let admin = register(addr, "warden").await;
        let cheat = register(addr, "cheater").await;
        let (out, ok) = grant(&url, "nobody");
        assert!(!ok && out.contains("no account named 'nobody'"), "{out}");
        let (out, ok) = grant(&url, "Warden");
        assert!(ok, "{out}");

        // The cheater has a rating, a socket and a place in the queue.
        let mut c = Client::connect(addr, &cheat.token).await;
        let mut a = Client::connect(addr, &admin.token).await;
        let m = copenhagen_match(&mut c, &mut a, json!({"rated": true})).await;
        c.ok(|id| common::act(id, m, 0, "d1-d3")).await;
        a.ok(|id| common::act(id, m, 1, "f4-c4")).await;
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 1,
        })
        .await;
        let board = common::get(addr, "/api/leaderboard/tafl/copenhagen").await;
        assert_eq!(board["entries"][0]["player"]["name"], "cheater");
        let mut q = Client::connect(addr, &cheat.token).await;
        q.ok(|id| {
            serde_json::from_value(json!({"type": "queue_join", "id": id.0, "game": "tafl",
                "variant": "brandubh", "time_control": "blitz"}))
            .unwrap()
        })
        .await;
        // A failed login, for the security events.
        let wrong = json!({"username": "cheater", "password": "not the password"});
        assert_eq!(post(addr, "/api/login", wrong).await.status(), 401);

        let ban = format!("/api/admin/players/{}/ban", cheat.player.id.0);
        let reason = json!({"reason": "engine use"});
        let (status, _) = as_player(
            reqwest::Method::POST,
            addr,
            &cheat.token,
            &format!("/api/admin/players/{}/ban", admin.player.id.0),
            Some(reason.clone()),
        )
        .await;
        assert_eq!(status, 403, "{backend:?}: only admins ban");
        let (status, body) = as_player(
            reqwest::Method::POST,
            addr,
            &admin.token,
            &ban,
            Some(reason),
        )
        .await;
        assert_eq!(status, 204, "{backend:?}: {body}");

        // Sockets closed with a reason, sessions gone, logins refused with the reason.
        for socket in [&mut c, &mut q] {
            let (_, close) = socket.until_closed().await;
            let close = close.expect("a close frame");
            assert_eq!(u16::from(close.code), 1008);
            assert!(close.reason.contains("banned"), "{}", close.reason);
        }
        let (status, _) =
            as_player(reqwest::Method::GET, addr, &cheat.token, "/api/queue", None).await;
        assert_eq!(status, 200, "the queue is public");
        assert_eq!(common::get(addr, "/api/queue").await, json!([]));
        let login = json!({"username": "cheater", "password": "correct horse battery"});
        let refused = post(addr, "/api/login", login.clone()).await;
        assert_eq!(refused.status(), 403);
        let body: Value = refused.json().await.unwrap();
        assert!(
            body["message"].as_str().unwrap().contains("engine use"),
            "{body}"
        );
        let board = common::get(addr, "/api/leaderboard/tafl/copenhagen").await;
        let names: Vec<&Value> = board["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| &e["player"]["name"])
            .collect();
        assert_eq!(names, vec![&json!("warden")], "{backend:?}");

        // The events: the failed login and the ban, with account and address.
        let (status, events) = as_player(
            reqwest::Method::GET,
            addr,
            &admin.token,
            "/api/admin/security-events",
            None,
        )
        .await;
        assert_eq!(status, 200);
        let kinds: Vec<&str> = events
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap())
            .collect();
        for kind in ["banned", "banned_login", "login_refused"] {
            assert!(kinds.contains(&kind), "{kind}: {events}");
        }
        let banned =
            &events.as_array().unwrap()[kinds.iter().position(|k| *k == "banned").unwrap()];
        assert_eq!(banned["account"], "cheater");
        assert_eq!(banned["address"], "127.0.0.1");
        // `limit` counts from 1: none at all is a bad request, not one event.
        let events_path = "/api/admin/security-events";
        let (status, one) = as_player(
            reqwest::Method::GET,
            addr,
            &admin.token,
            &format!("{events_path}?limit=1"),
            None,
        )
        .await;
        assert_eq!((status, one.as_array().unwrap().len()), (200, 1), "{one}");
        let (status, none) = as_player(
            reqwest::Method::GET,
            addr,
            &admin.token,
            &format!("{events_path}?limit=0"),
            None,
        )
        .await;
        assert_eq!(
            (status, &none["code"]),
            (400, &json!("bad_request")),
            "{none}"
        );
        assert!(
            none["message"].as_str().unwrap().contains("at least 1"),
            "{none}"
        );
        let (status, _) = as_player(
            reqwest::Method::GET,
            addr,
            &cheat.token,
            "/api/admin/security-events",
            None,
        )
        .await;
        assert_eq!(status, 401, "a banned session is no session");

        // Lifted: the account logs in again.
        let (status, _) = as_player(reqwest::Method::DELETE, addr, &admin.token, &ban, None).await;
        assert_eq!(status, 204);
        assert_eq!(post(addr, "/api/login", login).await.status(), 200);
    }
}
