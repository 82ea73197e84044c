//! Visitors over real sockets, on both backends: a socket opened without a session token watches
//! public matches (their events, and how many spectators follow them, which the live list also
//! shows with each match's position) but plays nothing, does not see a private match without its
//! code, and counts against its address's cap on sockets.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{
    BACKENDS, Client, PATIENCE, copenhagen_match, create, fresh_database, get, guest, http, start,
    two_players, watch,
};
use protocol::{ClientMessage, ErrorBody, ErrorCode, MatchEvent, MatchId, ServerMessage};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// What a visitor is told for anything that plays.
const LOG_IN_TO_PLAY: &str = "log in or play as a guest to play";

/// Skips messages until a `watchers` message says `n` spectators follow match `m`.
async fn until_watchers(c: &mut Client, m: MatchId, n: u32) {
    c.message_where(|message| {
        matches!(message, ServerMessage::Watchers { match_id, watchers } if *match_id == m && *watchers == n)
    })
    .await;
}

/// The live list's entry for match `m`, as a visitor (no session) gets it, once it shows `n`
/// spectators (the room updates what the list reads right after each command).
async fn listed_with(addr: SocketAddr, m: MatchId, n: u32) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let live = get(addr, "/api/matches/live").await;
        let entry = live.as_array().unwrap().iter().find(|e| e["id"] == m.0);
        match entry {
            Some(entry) if entry["watchers"] == n => return entry.clone(),
            _ if Instant::now() > deadline => panic!("match {} with {n} watchers: {live}", m.0),
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// A visitor, welcomed without a player, watches a public match: its snapshot, then its moves
/// as they are played. Spectators are counted (visitors and players holding no seat in it, not
/// its players' own sockets), up and down, in `watchers` messages to every follower and in the
/// live list, which also shows the match's position as spectators see it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_watches_a_public_match_and_the_watchers_are_counted() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, _, mut a, mut b) = two_players(addr).await;
        let m = copenhagen_match(&mut a, &mut b, json!({})).await;
        assert_eq!(listed_with(addr, m, 0).await["status"], "live");

        let mut v = Client::visit(addr).await;
        let watched = v.ok(|id| watch(id, m, None)).await;
        assert!(watched.seats.is_empty(), "{backend:?}");
        match v.next_of(m).await {
            ServerMessage::Snapshot { snapshot, .. } => assert!(snapshot.your_seats.is_empty()),
            other => panic!("expected a snapshot, got {other:?}"),
        }
        until_watchers(&mut v, m, 1).await;
        until_watchers(&mut a, m, 1).await;
        listed_with(addr, m, 1).await;

        // The moves reach the visitor as they are played.
        a.ok(|id| common::act(id, m, 0, "d1-d3")).await;
        let view = match v.event(m).await {
            (_, MatchEvent::Acted { action, view, .. }) => {
                assert_eq!(action.as_deref(), Some("d1-d3"), "{backend:?}");
                view
            }
            other => panic!("expected the move, got {other:?}"),
        };
        b.ok(|id| common::act(id, m, 1, "f4-b4")).await;
        let (_, event) = v.event(m).await;
        assert!(
            matches!(&event, MatchEvent::Acted { action: Some(a), .. } if a == "f4-b4"),
            "{event:?}"
        );
        let MatchEvent::Acted { view: after, .. } = event else {
            unreachable!()
        };
        assert_ne!(view, after);
        assert_eq!(listed_with(addr, m, 1).await["view"], after, "{backend:?}");

        // A second visitor and a guest who holds no seat count; a player's second socket does
        // not. (Each change is waited for: changes within a second are told once, together.)
        let mut w = Client::visit(addr).await;
        w.ok(|id| watch(id, m, None)).await;
        until_watchers(&mut a, m, 2).await;
        let stranger = guest(addr).await;
        let mut g = Client::connect(addr, &stranger.token).await;
        g.ok(|id| watch(id, m, None)).await;
        until_watchers(&mut a, m, 3).await;
        let mut a2 = Client::connect(addr, &alice.token).await;
        assert_eq!(a2.ok(|id| watch(id, m, None)).await.seats, vec![0]);
        until_watchers(&mut a2, m, 3).await;
        listed_with(addr, m, 3).await;

        // And down: an unwatch, a closed socket.
        g.ok(|id| ClientMessage::Unwatch { id, match_id: m }).await;
        until_watchers(&mut a, m, 2).await;
        w.close().await;
        until_watchers(&mut a, m, 1).await;
        listed_with(addr, m, 1).await;
        v.close().await;
        until_watchers(&mut a2, m, 0).await;
        listed_with(addr, m, 0).await;
    }
}

/// Every command that plays is refused to a visitor with `unauthorized` and the same sentence,
/// and changes nothing: the match played nothing, the open challenge is still open, nobody
/// queued, no match was made. The socket stays open, and still watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_is_refused_every_command_that_plays_and_nothing_changes() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let m = copenhagen_match(&mut a, &mut b, json!({})).await;
        let host = guest(addr).await;
        let mut h = Client::connect(addr, &host.token).await;
        let open = h
            .ok(|id| create(id, "tafl", "brandubh", json!({})))
            .await
            .match_id
            .unwrap();
        let open_before = get(addr, "/api/matches/open").await;
        // The number of the match's last event.
        let seq = a
            .ok(|id| ClientMessage::Legal {
                id,
                match_id: m,
                seat: 0,
            })
            .await
            .seq
            .unwrap();

        let mut v = Client::visit(addr).await;
        let plays = [
            json!({"type": "create_match", "game": "tafl", "variant": "brandubh"}),
            json!({"type": "join_match", "match_id": open.0}),
            json!({"type": "legal", "match_id": m.0, "seat": 0}),
            json!({"type": "act", "match_id": m.0, "seat": 0, "action": "d1-d3"}),
            json!({"type": "resign", "match_id": m.0, "seat": 0}),
            json!({"type": "offer_draw", "match_id": m.0, "seat": 0}),
            json!({"type": "answer_draw", "match_id": m.0, "seat": 1, "accept": true}),
            json!({"type": "ask_takeback", "match_id": m.0, "seat": 0}),
            json!({"type": "answer_takeback", "match_id": m.0, "seat": 1, "accept": true}),
            json!({"type": "abort", "match_id": m.0, "seat": 0}),
            json!({"type": "claim_win", "match_id": m.0, "seat": 1}),
            json!({"type": "queue_join", "game": "tafl", "time_control": "blitz"}),
            json!({"type": "play_ai", "game": "tafl", "variant": "brandubh", "level": 1}),
            json!({"type": "queue_leave"}),
            json!({"type": "offer_rematch", "match_id": m.0}),
            json!({"type": "answer_rematch", "match_id": m.0, "accept": true}),
            json!({"type": "challenge", "player": 1, "game": "tafl"}),
            json!({"type": "answer_challenge", "challenge_id": 1, "accept": true}),
            json!({"type": "withdraw_challenge", "challenge_id": 1}),
        ];
        // Every type of command but those a visitor may send is tried (and `chat`, whose
        // refusal tells a visitor to log in to chat: see chat.rs).
        let tried: Vec<&str> = plays.iter().map(|p| p["type"].as_str().unwrap()).collect();
        let watching = [
            "hello",
            "watch",
            "unwatch",
            "watch_tournament",
            "chat",
            "watch_lobby",
            "unwatch_lobby",
            "ping",
        ];
        let playing: Vec<&str> = protocol::CLIENT_TYPES
            .iter()
            .copied()
            .filter(|t| !watching.contains(t))
            .collect();
        assert_eq!(tried, playing);
        for play in plays {
            let message = v
                .refused(ErrorCode::Unauthorized, |id| {
                    let mut message = play.clone();
                    message["id"] = json!(id.0);
                    serde_json::from_value(message).unwrap()
                })
                .await;
            assert_eq!(message, LOG_IN_TO_PLAY, "{play}");
        }

        // Nothing happened: no event came between the last one and the next move's, and the
        // move is the match's first.
        let moved = a.ok(|id| common::act(id, m, 0, "d1-d3")).await.seq.unwrap();
        assert_eq!(moved.0, seq.0 + 1, "{backend:?}");
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(
            record["actions"].as_array().unwrap().len(),
            1,
            "{backend:?}"
        );
        assert_eq!(get(addr, "/api/matches/open").await, open_before);
        assert_eq!(get(addr, "/api/queue").await, json!([]), "{backend:?}");
        let live = get(addr, "/api/matches/live").await;
        assert_eq!(live.as_array().unwrap().len(), 1, "no match made: {live}");

        // Still open, still watching.
        v.ok(|id| watch(id, m, None)).await;
    }
}

/// A private match is hidden from a visitor exactly as from a player who holds no seat in it:
/// `not_found` as for a match that does not exist, not in the live list, not over REST; with its
/// invite code, the visitor watches it as anyone with the code may.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_does_not_see_a_private_match() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let created = a
            .ok(|id| create(id, "tafl", "brandubh", json!({"visibility": "private"})))
            .await;
        let (m, invite) = (created.match_id.unwrap(), created.invite.unwrap());
        b.ok(|id| common::join_with_invite(id, &invite)).await;

        let stranger = guest(addr).await;
        let mut s = Client::connect(addr, &stranger.token).await;
        let mut v = Client::visit(addr).await;
        let hidden = format!("there is no match {}", m.0);
        let missing = MatchId(m.0 + 1000);
        for (who, c) in [("stranger", &mut s), ("visitor", &mut v)] {
            let refused = c
                .refused(ErrorCode::NotFound, |id| watch(id, m, None))
                .await;
            assert_eq!(refused, hidden, "{who} {backend:?}");
            let nothing = c
                .refused(ErrorCode::NotFound, |id| watch(id, missing, None))
                .await;
            assert_eq!(nothing, format!("there is no match {}", missing.0), "{who}");
        }
        let live = get(addr, "/api/matches/live").await;
        assert_eq!(live, json!([]), "{backend:?}");
        let record = http()
            .get(format!("http://{addr}/api/matches/{}", m.0))
            .send()
            .await
            .unwrap();
        assert_eq!(record.status(), 404);

        let watched = v
            .ok(|id| ClientMessage::Watch {
                id,
                match_id: m,
                since: None,
                invite: Some(invite.clone()),
            })
            .await;
        assert!(watched.seats.is_empty(), "{backend:?}");
        assert!(matches!(v.next_of(m).await, ServerMessage::Snapshot { .. }));
    }
}

/// Tries a WebSocket upgrade without a token: the HTTP status, and the refusal's body.
async fn visit_upgrade(addr: SocketAddr) -> (u16, Option<ErrorBody>) {
    let request = format!("ws://{addr}/ws").into_client_request().unwrap();
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut ws, response)) => {
            let _ = ws.close(None).await;
            (response.status().as_u16(), None)
        }
        Err(tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().unwrap_or_default();
            (
                response.status().as_u16(),
                serde_json::from_slice(body).ok(),
            )
        }
        Err(e) => panic!("the upgrade failed without an HTTP answer: {e}"),
    }
}

/// Visitors' sockets count against their address (`--visitor-sockets-per-address`), not
/// against any player: past the cap an upgrade without a token is refused with `rate_limited`,
/// a player's socket from the same address still opens, and a visitor's closing frees a place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn visitors_sockets_count_against_their_address() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--visitor-sockets-per-address", "2"],
        )
        .await;
        let first = Client::visit(addr).await;
        let _second = Client::visit(addr).await;
        let (status, body) = visit_upgrade(addr).await;
        assert_eq!(status, 429, "{backend:?}");
        let body = body.expect("an ErrorBody");
        assert_eq!(body.code, ErrorCode::RateLimited);
        assert!(
            body.message.contains("without a session"),
            "{}",
            body.message
        );

        let player = guest(addr).await;
        Client::connect(addr, &player.token).await;

        first.close().await;
        let deadline = Instant::now() + PATIENCE;
        while visit_upgrade(addr).await.0 != 101 {
            assert!(
                Instant::now() < deadline,
                "the closed socket's place is free"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A browser sends its session cookie with every socket it opens, and a stale one is refused
/// rather than taken for a visitor's: so logging out clears the cookie, with a live token and
/// with one that is not (the browser of a banned or expired session must be able to visit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_out_clears_the_cookie_whatever_the_token() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    let dora = guest(addr).await;
    for (status, what) in [(204, "a live session"), (401, "a revoked one")] {
        let response = http()
            .post(format!("http://{addr}/api/logout"))
            .header("Cookie", format!("session={}", dora.token))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{what}");
        let cookie = common::header(&response, "set-cookie");
        assert!(
            cookie.starts_with("session=;") && cookie.contains("Max-Age=0"),
            "{what}: {cookie}"
        );
    }
}
