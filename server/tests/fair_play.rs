//! Fair play and account policy, over real sockets on both backends: guests play casual games
//! only, nothing is rated before every seat has acted, the same two accounts play only so many
//! rated games a day, caps on open matches, sockets and tournaments, the origin check on `/ws`
//! and on every route that acts (walked from the OpenAPI description),
//! private matches that stay private, idle matches and idle guests cleaned up, and bans.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{
    BACKENDS, Client, act, alter_database, copenhagen_match, create, fresh_database, get, guest,
    http, join, new_player, post, start, two_players,
};
use protocol::{ClientMessage, ErrorCode, MatchEvent, MatchId, ServerMessage};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A GET with a session token (or none), whatever its status: the status and the JSON body.
async fn get_as(addr: SocketAddr, token: Option<&str>, path: &str) -> (u16, Value) {
    let mut request = http().get(format!("http://{addr}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post_as(addr: SocketAddr, token: &str, path: &str, body: Value) -> (u16, Value) {
    let response = http()
        .post(format!("http://{addr}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Plays the first two moves of a Copenhagen match, so that every seat has acted.
async fn both_move(a: &mut Client, b: &mut Client, m: MatchId) {
    a.ok(|id| act(id, m, 0, "d1-d3")).await;
    b.ok(|id| act(id, m, 1, "f4-c4")).await;
}

/// The rating changes a finished match recorded.
async fn ratings_of(addr: SocketAddr, m: MatchId) -> Vec<Value> {
    let record = get(addr, &format!("/api/matches/{}", m.0)).await;
    record["summary"]["result"]["ratings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_play_casual_games_only_and_are_made_only_so_often() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &["--guests-per-minute", "1", "--guest-burst", "3"]).await;
        let g = guest(addr).await;
        let mut c = Client::connect(addr, &g.token).await;
        let casual_only = |message: String| {
            assert!(message.contains("casual"), "{backend:?}: {message}");
        };
        casual_only(
            c.refused(ErrorCode::Forbidden, |id| {
                create(id, "tafl", "copenhagen", json!({"rated": true}))
            })
            .await,
        );
        casual_only(
            c.refused(ErrorCode::Forbidden, |id| {
                serde_json::from_value(json!({"type": "queue_join", "id": id.0, "game": "tafl",
                    "variant": "brandubh", "rated": true, "time_control": "blitz"}))
                .unwrap()
            })
            .await,
        );
        casual_only(
            c.refused(ErrorCode::Forbidden, |id| {
                serde_json::from_value(json!({"type": "play_ai", "id": id.0, "game": "tafl",
                    "variant": "brandubh", "level": 1, "rated": true}))
                .unwrap()
            })
            .await,
        );
        // A rated match made by an account cannot be joined by a guest.
        let host = new_player(addr).await;
        let mut h = Client::connect(addr, &host.token).await;
        let rated = h
            .ok(|id| create(id, "tafl", "copenhagen", json!({"rated": true})))
            .await
            .match_id
            .unwrap();
        casual_only(c.refused(ErrorCode::Forbidden, |id| join(id, rated)).await);
        // Casual play is open to guests.
        let casual = h
            .ok(|id| create(id, "tafl", "copenhagen", json!({})))
            .await
            .match_id
            .unwrap();
        c.ok(|id| join(id, casual)).await;
        // Nor a rated tournament.
        let spec = json!({"name": "Rated cup", "game": "tafl", "variant": "brandubh",
            "format": "round_robin", "rated": true});
        let (status, body) = post_as(addr, &host.token, "/api/tournaments", spec.clone()).await;
        assert_eq!(status, 200, "{body}");
        let t = body["summary"]["id"].as_i64().unwrap();
        let (status, body) = post_as(
            addr,
            &g.token,
            &format!("/api/tournaments/{t}/register"),
            json!({}),
        )
        .await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));
        let (status, _) = post_as(addr, &g.token, "/api/tournaments", spec).await;
        assert_eq!(status, 403);
        // Guests from one address: a burst of three (one made above), then refused.
        for _ in 0..2 {
            assert_eq!(post(addr, "/api/guest", json!({})).await.status(), 200);
        }
        let refused = post(addr, "/api/guest", json!({})).await;
        assert_eq!(refused.status(), 429, "{backend:?}");
        assert!(refused.headers().contains_key("retry-after"));
    }
}

/// The farming sequence found from outside: one account against three throwaway opponents that
/// each joined a rated match and resigned at once. Guests can no longer join; accounts that
/// resign before every seat has acted call the match off, unrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_before_every_seat_has_acted_rates_nothing() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let farmer = new_player(addr).await;
        let mut f = Client::connect(addr, &farmer.token).await;
        for round in 0..3 {
            let throwaway = new_player(addr).await;
            let mut t = Client::connect(addr, &throwaway.token).await;
            let m = copenhagen_match(&mut f, &mut t, json!({"rated": true})).await;
            // Seat 0 may even have moved: seat 1 has not.
            if round == 1 {
                f.ok(|id| act(id, m, 0, "d1-d3")).await;
            }
            t.ok(|id| ClientMessage::Resign {
                id,
                match_id: m,
                seat: 1,
            })
            .await;
            let (_, end) = f
                .event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
                .await;
            let MatchEvent::Finished { result } = end else {
                unreachable!()
            };
            assert_eq!(
                (result.reason.as_str(), result.places, result.ratings.len()),
                ("aborted", vec![0, 0], 0),
                "{backend:?}"
            );
            assert_eq!(
                get(addr, &format!("/api/matches/{}", m.0)).await["summary"]["status"],
                "aborted"
            );
        }
        let profile = get(addr, &format!("/api/players/{}", farmer.player.id.0)).await;
        assert_eq!(profile["ratings"], json!([]), "{backend:?}: {profile}");
        let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
        assert_eq!(board["entries"], json!([]));

        // Once both have moved, a resignation is rated as ever.
        let (_, _, mut a, mut b) = two_players(addr).await;
        let m = copenhagen_match(&mut a, &mut b, json!({"rated": true})).await;
        both_move(&mut a, &mut b, m).await;
        b.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 1,
        })
        .await;
        a.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
            .await;
        assert_eq!(ratings_of(addr, m).await.len(), 2, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_before_the_first_move_calls_the_match_off() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b, m) = common::rated_match(addr, 300, 0).await;
        let (_, end) = b
            .event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
            .await;
        let MatchEvent::Finished { result } = end else {
            unreachable!()
        };
        assert_eq!(result.reason, "aborted", "{backend:?}");
        assert!(result.ratings.is_empty());
        a.event_where(m, |e| matches!(e, MatchEvent::Aborted { seat: 0 }))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_between_the_same_two_accounts_beyond_the_limit_are_casual() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--rated-games-per-pair", "1"],
        )
        .await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let first = copenhagen_match(&mut a, &mut b, json!({"rated": true})).await;
        both_move(&mut a, &mut b, first).await;
        b.ok(|id| ClientMessage::Resign {
            id,
            match_id: first,
            seat: 1,
        })
        .await;
        assert_eq!(ratings_of(addr, first).await.len(), 2);

        let second = a
            .ok(|id| create(id, "tafl", "copenhagen", json!({"rated": true})))
            .await
            .match_id
            .unwrap();
        b.ok(|id| join(id, second)).await;
        // Told before the start.
        let (unrated_at, unrated) = a
            .event_where(second, |e| matches!(e, MatchEvent::Unrated { .. }))
            .await;
        let MatchEvent::Unrated { reason } = unrated else {
            unreachable!()
        };
        assert!(reason.contains("casual"), "{reason}");
        let (started_at, _) = a
            .event_where(second, |e| matches!(e, MatchEvent::Started { .. }))
            .await;
        assert!(unrated_at < started_at, "{backend:?}");
        let record = get(addr, &format!("/api/matches/{}", second.0)).await;
        assert_eq!(record["summary"]["rated"], false);
        both_move(&mut a, &mut b, second).await;
        b.ok(|id| ClientMessage::Resign {
            id,
            match_id: second,
            seat: 1,
        })
        .await;
        a.event_where(second, |e| matches!(e, MatchEvent::Finished { .. }))
            .await;
        assert!(ratings_of(addr, second).await.is_empty(), "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_matches_sockets_and_tournaments_are_capped() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--sockets-per-player", "3", "--tournaments-per-day", "2"],
        )
        .await;
        let flooder = guest(addr).await;
        let mut f = Client::connect(addr, &flooder.token).await;
        // 100 creates as fast as the socket's rate limit lets them through.
        let mut created = 0;
        let mut capped = 0;
        for _ in 0..100 {
            match f
                .request(|id| create(id, "tafl", "brandubh", json!({})))
                .await
            {
                ServerMessage::Ack { .. } => created += 1,
                ServerMessage::Error { error, .. } if error.code == ErrorCode::Conflict => {
                    assert!(
                        error.message.contains("3 matches waiting"),
                        "{}",
                        error.message
                    );
                    capped += 1;
                }
                ServerMessage::Error { error, .. } if error.code == ErrorCode::RateLimited => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(created, 3, "{backend:?}");
        assert!(capped > 0);
        // The open list shows them; the live list shows none (nothing is being played).
        let open = get(addr, "/api/matches/open").await;
        assert_eq!(open.as_array().unwrap().len(), 3, "{backend:?}");
        assert_eq!(get(addr, "/api/matches/live").await, json!([]));
        // Paged, newest first.
        let page = get(addr, "/api/matches/open?per_page=2&page=2").await;
        let first = &open.as_array().unwrap()[2];
        assert_eq!(page.as_array().unwrap(), &vec![first.clone()]);

        // Sockets: the fourth of one player is refused.
        let _more = (
            Client::connect(addr, &flooder.token).await,
            Client::connect(addr, &flooder.token).await,
        );
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request.headers_mut().insert(
            "Authorization",
            format!("Bearer {}", flooder.token).parse().unwrap(),
        );
        match tokio_tungstenite::connect_async(request).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 429, "{backend:?}")
            }
            other => panic!("a fourth socket was let in: {:?}", other.map(|_| ())),
        }

        // Tournaments: two a day.
        let organiser = new_player(addr).await;
        let spec = json!({"name": "Cup", "game": "tafl", "variant": "brandubh",
            "format": "round_robin"});
        for _ in 0..2 {
            let (status, _) =
                post_as(addr, &organiser.token, "/api/tournaments", spec.clone()).await;
            assert_eq!(status, 200);
        }
        let (status, body) = post_as(addr, &organiser.token, "/api/tournaments", spec).await;
        assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_from_a_foreign_origin_is_refused() {
    let url = fresh_database(common::Backend::Sqlite).await;
    let addr = start(&url, &["--cors-origins", "https://club.example"]).await;
    let player = guest(addr).await;
    let upgrade = |origin: &str| {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        let headers = request.headers_mut();
        headers.insert(
            "Cookie",
            format!("session={}", player.token).parse().unwrap(),
        );
        headers.insert("Origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    match upgrade("https://evil.example").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        other => panic!("a foreign page got a socket: {:?}", other.map(|_| ())),
    }
    // The server's own pages, and a configured origin, are welcome.
    for origin in [format!("http://{addr}"), "https://club.example".into()] {
        assert!(upgrade(&origin).await.is_ok(), "{origin}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_match_is_seen_only_by_its_players_and_holders_of_its_code() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (host, friend, mut h, mut f) = two_players(addr).await;
        let stranger = guest(addr).await;
        let created = h
            .ok(|id| create(id, "tafl", "brandubh", json!({"visibility": "private"})))
            .await;
        let m = created.match_id.unwrap();
        let invite = created.invite.unwrap();
        let mut s = Client::connect(addr, &stranger.token).await;
        let watch = |invite: Option<String>| {
            move |id| ClientMessage::Watch {
                id,
                match_id: m,
                since: None,
                invite,
            }
        };
        // Unknown to a stranger, just as a match that does not exist.
        let hidden = s.refused(ErrorCode::NotFound, watch(None)).await;
        let missing = s
            .refused(ErrorCode::NotFound, |id| ClientMessage::Watch {
                id,
                match_id: MatchId(m.0 + 1000),
                since: None,
                invite: None,
            })
            .await;
        assert_eq!(
            hidden.replace(&m.0.to_string(), "N"),
            missing.replace(&(m.0 + 1000).to_string(), "N")
        );
        s.refused(ErrorCode::NotFound, |id| join(id, m)).await;
        s.refused(ErrorCode::NotFound, watch(Some("wrongcode".into())))
            .await;
        for path in [
            format!("/api/matches/{}", m.0),
            format!("/api/matches/{}/replay", m.0),
        ] {
            assert_eq!(get_as(addr, None, &path).await.0, 404, "{backend:?} {path}");
            assert_eq!(get_as(addr, Some(&stranger.token), &path).await.0, 404);
            let with_code = format!("{path}?invite={invite}");
            assert_eq!(get_as(addr, None, &with_code).await.0, 200, "{path}");
        }
        // The friend joins with the code; then both players see it, over REST too.
        f.ok(|id| ClientMessage::JoinMatch {
            id,
            match_id: None,
            invite: Some(invite.clone()),
            seat: None,
        })
        .await;
        for token in [&host.token, &friend.token] {
            let path = format!("/api/matches/{}", m.0);
            assert_eq!(get_as(addr, Some(token), &path).await.0, 200);
        }
        let listed = format!("/api/players/{}/matches", host.player.id.0);
        assert_eq!(
            get_as(addr, None, &listed).await.1,
            json!([]),
            "{backend:?}"
        );
        assert_eq!(
            get_as(addr, Some(&friend.token), &listed).await.1[0]["id"],
            m.0
        );
        // A spectator with the code may watch.
        s.ok(watch(Some(invite.clone()))).await;
        // A join that names one match and the code of another is refused, not redirected.
        let other = h
            .ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await
            .match_id
            .unwrap();
        s.refused(ErrorCode::BadRequest, |id| ClientMessage::JoinMatch {
            id,
            match_id: Some(other),
            invite: Some(invite.clone()),
            seat: None,
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logout_closes_the_sessions_sockets_with_a_close_frame() {
    let addr = start(&fresh_database(common::Backend::Sqlite).await, &[]).await;
    let player = new_player(addr).await;
    let mut c = Client::connect(addr, &player.token).await;
    let response = http()
        .post(format!("http://{addr}/api/logout"))
        .bearer_auth(&player.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    let (messages, close) = c.until_closed().await;
    assert!(
        matches!(&messages[..], [ServerMessage::Error { error, .. }] if error.code == ErrorCode::Unauthorized),
        "{messages:?}"
    );
    let close = close.expect("a close frame");
    assert_eq!(u16::from(close.code), 1000);
    assert!(close.reason.contains("logged out"), "{}", close.reason);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_casual_matches_are_called_off_and_idle_guests_removed() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let flags = [
            "--housekeeping-secs",
            "1",
            "--idle-match-mins",
            "60",
            "--guest-idle-days",
            "30",
        ];
        let addr = start(&url, &flags).await;
        let (g, other) = (guest(addr).await, guest(addr).await);
        let mut ga = Client::connect(addr, &g.token).await;
        let mut gb = Client::connect(addr, &other.token).await;
        let idle = copenhagen_match(&mut ga, &mut gb, json!({})).await;
        ga.ok(|id| act(id, idle, 0, "d1-d3")).await;
        // A clocked match is left alone, however old.
        let clocked = copenhagen_match(
            &mut ga,
            &mut gb,
            json!({"clock": {"base_ms": 3_600_000, "increment_ms": 0}}),
        )
        .await;
        let two_hours_ago = server::clock::now_ms() - 2 * 3600 * 1000;
        for statement in [
            "UPDATE matches SET created_ms = $1",
            "UPDATE match_actions SET at_ms = $1",
        ] {
            alter_database(&url, statement, &[two_hours_ago]).await;
        }
        let (_, end) = ga
            .event_where(idle, |e| matches!(e, MatchEvent::Finished { .. }))
            .await;
        let MatchEvent::Finished { result } = end else {
            unreachable!()
        };
        assert_eq!(result.reason, "idle", "{backend:?}");
        let record = get(addr, &format!("/api/matches/{}", idle.0)).await;
        assert_eq!(record["summary"]["status"], "aborted");
        assert_eq!(
            get(addr, &format!("/api/matches/{}", clocked.0)).await["summary"]["status"],
            "live"
        );
        ga.ok(|id| ClientMessage::Resign {
            id,
            match_id: clocked,
            seat: 0,
        })
        .await;
        drop((ga, gb));

        // Both guests go unused for 40 days: they are removed, their matches stay.
        let long_ago = server::clock::now_ms() - 40 * 24 * 3600 * 1000;
        alter_database(
            &url,
            "UPDATE players SET last_seen_ms = $1, created_ms = $1 WHERE guest = 1",
            &[long_ago],
        )
        .await;
        let gone = async {
            loop {
                let record = get(addr, &format!("/api/matches/{}", idle.0)).await;
                if record["summary"]["players"][0]["name"] == "anonymous" {
                    return record;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        let record = tokio::time::timeout(common::PATIENCE, gone)
            .await
            .expect("the idle guests were removed");
        assert_eq!(
            record["summary"]["players"][1]["name"], "anonymous",
            "{backend:?}"
        );
        let (status, _) = get_as(addr, Some(&g.token), "/api/queue").await;
        assert_eq!(status, 200, "the queue is public");
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request.headers_mut().insert(
            "Authorization",
            format!("Bearer {}", g.token).parse().unwrap(),
        );
        assert!(
            tokio_tungstenite::connect_async(request).await.is_err(),
            "a removed guest's session is gone"
        );
    }
}

/// Sends `method` to `path` as a browser would with the player's session cookie, with these
/// extra headers: the status and the JSON body.
async fn with_cookie(
    addr: SocketAddr,
    token: &str,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let mut request = http()
        .request(method, format!("http://{addr}{path}"))
        .header("cookie", format!("session={token}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Every route that may change something, from the OpenAPI description: each method but GET,
/// with every path parameter an id that exists (the other player's).
async fn acting_routes(addr: SocketAddr, id: i64) -> Vec<(reqwest::Method, String)> {
    let spec = get(addr, "/api/openapi.json").await;
    let mut routes = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        let path = with_ids(path, id);
        for method in item.as_object().unwrap().keys() {
            if let Ok(m) = method.to_uppercase().parse::<reqwest::Method>()
                && !matches!(m, reqwest::Method::GET | reqwest::Method::HEAD)
            {
                routes.push((m, path.clone()));
            }
        }
    }
    routes
}

/// A path with each `{parameter}` replaced by `id`.
fn with_ids(path: &str, id: i64) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').unwrap() + open;
        out.push_str(&rest[..open]);
        out.push_str(&id.to_string());
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_on_other_origins_cannot_act_with_a_player_s_cookie() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--cors-origins", "https://club.example"],
        )
        .await;
        let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
        let routes = acting_routes(addr, bjorn.player.id.0).await;
        assert!(routes.len() >= 20, "the route table: {routes:?}");
        let foreign: [&[(&str, &str)]; 3] = [
            &[("origin", "https://evil.example")],
            &[("origin", "https://club.example.evil")],
            &[("sec-fetch-site", "cross-site")],
        ];
        for (method, path) in &routes {
            for headers in foreign {
                let (status, body) =
                    with_cookie(addr, &alice.token, method.clone(), path, headers).await;
                assert_eq!(
                    (status, body["code"].as_str()),
                    (403, Some("forbidden")),
                    "{backend:?}: {method} {path} from {headers:?}: {body}"
                );
                assert!(
                    body["message"]
                        .as_str()
                        .unwrap()
                        .contains("may not act here"),
                    "{backend:?}: {method} {path}: {body}"
                );
            }
        }
        // Nothing changed: Alice follows and mutes nobody, and her session still works.
        let follows = get(addr, &format!("/api/players/{}/follows", alice.player.id.0)).await;
        assert_eq!(follows, json!([]), "{backend:?}: {follows}");
        let (status, mutes) = get_as(addr, Some(&alice.token), "/api/mutes").await;
        assert_eq!((status, mutes.as_array().map(Vec::len)), (200, Some(0)));

        // The server's own pages and the listed origin act as before.
        let own = format!("http://{addr}");
        let follow = format!("/api/players/{}/follow", bjorn.player.id.0);
        let post = reqwest::Method::POST;
        for origin in [own.as_str(), "https://club.example"] {
            let (status, body) = with_cookie(
                addr,
                &alice.token,
                post.clone(),
                &follow,
                &[("origin", origin)],
            )
            .await;
            assert_eq!(status, 204, "{backend:?}: {origin}: {body}");
        }
        let same = [("sec-fetch-site", "same-origin")];
        let (status, _) = with_cookie(addr, &alice.token, post.clone(), "/api/logout", &same).await;
        assert_eq!(status, 204, "{backend:?}");
        let (status, _) = get_as(addr, Some(&alice.token), "/api/mutes").await;
        assert_eq!(status, 401, "{backend:?}: logged out by her own page");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banned_players_live_matches_are_lost_by_forfeit() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (cheat, victim, mut c, mut v) = two_players(addr).await;
        let warden = new_player(addr).await;
        server::accounts::moderation::set_admin(&url, &warden.player.name, true)
            .await
            .unwrap();
        // A rated match both have moved in, the cheater in seat 0; and a match of the
        // cheater's still waiting for an opponent.
        let live = copenhagen_match(&mut c, &mut v, json!({"rated": true})).await;
        c.ok(|id| act(id, live, 0, "d1-d3")).await;
        v.ok(|id| act(id, live, 1, "f4-c4")).await;
        let waiting = c
            .ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await
            .match_id
            .unwrap();

        let ban = format!("/api/admin/players/{}/ban", cheat.player.id.0);
        let reason = json!({"reason": "engine use"});
        let (status, body) = post_as(addr, &warden.token, &ban, reason).await;
        assert_eq!(status, 204, "{backend:?}: {body}");

        // The opponent is told at once: the cheater lost by forfeit, and ratings moved.
        let MatchEvent::Finished { result } = v
            .event_where(live, |e| matches!(e, MatchEvent::Finished { .. }))
            .await
            .1
        else {
            unreachable!()
        };
        assert_eq!(result.reason, "forfeit", "{backend:?}");
        assert_eq!(result.places, vec![1, 0], "{backend:?}");
        let moved: Vec<(u8, bool)> = result
            .ratings
            .iter()
            .map(|r| (r.seat, r.after > r.before))
            .collect();
        assert_eq!(moved, vec![(0, false), (1, true)], "{backend:?}");
        // Stored as such: the record and the winner's profile say so.
        let record = get(addr, &format!("/api/matches/{}", live.0)).await;
        assert_eq!(record["summary"]["status"], "finished", "{backend:?}");
        assert_eq!(record["summary"]["result"]["reason"], "forfeit");
        let profile = get(addr, &format!("/api/players/{}", victim.player.id.0)).await;
        let rating = profile["ratings"][0]["rating"].as_f64().unwrap();
        assert_eq!(rating, result.ratings[1].after, "{backend:?}: {profile}");
        // The match waiting for an opponent is called off, unrated.
        let record = get(addr, &format!("/api/matches/{}", waiting.0)).await;
        assert_eq!(
            record["summary"]["result"]["reason"], "aborted",
            "{backend:?}"
        );
    }
}

async fn put_as(addr: SocketAddr, token: &str, path: &str, body: Value) -> (u16, Value) {
    let response = http()
        .put(format!("http://{addr}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Guests are throwaway accounts: they may mute (which protects them), but not follow players
/// nor take vacations, which only make sense for an account that lasts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_mute_but_neither_follow_nor_take_vacations() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let g = guest(addr).await;
        let other = new_player(addr).await;
        let them = other.player.id.0;

        let (status, body) = post_as(
            addr,
            &g.token,
            &format!("/api/players/{them}/follow"),
            json!({}),
        )
        .await;
        assert_eq!(
            (status, &body["code"]),
            (403, &json!("forbidden")),
            "{backend:?}: {body}"
        );
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("guests cannot follow"),
            "{body}"
        );
        let follows = get(addr, &format!("/api/players/{}/follows", g.player.id.0)).await;
        assert_eq!(follows, json!([]), "{backend:?}: nothing changed");

        let (status, body) = put_as(addr, &g.token, "/api/me/vacation", json!({"on": true})).await;
        assert_eq!(
            (status, &body["code"]),
            (403, &json!("forbidden")),
            "{backend:?}: {body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains("vacation"),
            "{body}"
        );
        let (status, state) = get_as(addr, Some(&g.token), "/api/me/vacation").await;
        assert_eq!(
            (status, &state["on"]),
            (200, &json!(false)),
            "{backend:?}: nothing changed"
        );

        let (status, body) =
            post_as(addr, &g.token, &format!("/api/mutes/{them}"), json!({})).await;
        assert_eq!(status, 204, "{backend:?}: {body}");
        let (_, mutes) = get_as(addr, Some(&g.token), "/api/mutes").await;
        assert_eq!(mutes[0]["id"], them, "{backend:?}: {mutes}");

        // An account may do all three.
        let (status, _) = post_as(
            addr,
            &other.token,
            &format!("/api/players/{}/follow", g.player.id.0),
            json!({}),
        )
        .await;
        assert_eq!(status, 204, "{backend:?}");
        let (status, _) = put_as(addr, &other.token, "/api/me/vacation", json!({"on": true})).await;
        assert_eq!(status, 200, "{backend:?}");
    }
}
