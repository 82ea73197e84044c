//! Correspondence play over real sockets, on both storage backends: a per-move clock of days
//! (here of milliseconds, or of a test's short day, `--day-ms`), the `your_move` message that
//! tells the player whose turn comes on every socket they have (and not the mover), the lists of
//! a player's games and of those waiting for them, a clock full again after each move and
//! flagging a player who does not move in time (with nobody following the match, and across a
//! restart), and vacations that stop a player's clocks up to their allowance. Bad input is
//! refused with clear errors.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::process::ServerProcess;
use common::{
    BACKENDS, Client, PATIENCE, act, copenhagen_match, fresh_database, join, short_copenhagen_game,
    start, two_players, watch,
};
use protocol::{
    ClientMessage, ErrorCode, MatchEvent, MatchId, OngoingMatch, PlayerId, ServerMessage,
    VacationState,
};
use serde_json::{Value, json};

/// A per-move clock of `ms` a move.
fn per_move(ms: u64) -> Value {
    json!({"clock": {"base_ms": ms, "increment_ms": 0, "per_move": true}})
}

const THREE_DAYS_MS: u64 = 3 * protocol::DAY_MS;

/// A REST request as the player of `token` (none: without a session): its status and body.
async fn rest(
    addr: SocketAddr,
    method: reqwest::Method,
    token: Option<&str>,
    path: &str,
    body: Option<&str>,
) -> (u16, Value) {
    let mut request = common::http().request(method, format!("http://{addr}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn list(addr: SocketAddr, token: &str, path: &str) -> Vec<OngoingMatch> {
    let (status, body) = rest(addr, reqwest::Method::GET, Some(token), path, None).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_value(body).unwrap()
}

async fn set_vacation(addr: SocketAddr, token: &str, on: bool) -> (u16, Value) {
    let body = json!({ "on": on }).to_string();
    let path = "/api/me/vacation";
    rest(addr, reqwest::Method::PUT, Some(token), path, Some(&body)).await
}

/// The `your_move` messages a socket receives before the answer to a ping: what it was told
/// so far, and nothing that is still on its way after that.
async fn told_so_far(client: &mut Client) -> Vec<(MatchId, Vec<PlayerId>, i64)> {
    client.send(&ClientMessage::Ping { nonce: 7 }).await;
    let mut told = Vec::new();
    loop {
        match client.next().await {
            ServerMessage::Pong { nonce: 7 } => break,
            other => client.pending.push(other),
        }
    }
    client.pending.retain(|m| match m {
        ServerMessage::YourMove {
            match_id,
            opponents,
            deadline_ms,
            ..
        } => {
            told.push((
                *match_id,
                opponents.iter().map(|p| p.id).collect(),
                *deadline_ms,
            ));
            false
        }
        _ => true,
    });
    told
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test]
async fn a_correspondence_move_notifies_the_opponent_on_every_socket() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;
        // Bjorn has another socket, which follows nothing: a tab on another page.
        let mut elsewhere = Client::connect(addr, &bjorn.token).await;
        let match_id = copenhagen_match(&mut a, &mut b, per_move(THREE_DAYS_MS)).await;

        // The first mover is told when the match starts; nobody else.
        let told = told_so_far(&mut a).await;
        assert_eq!(told.len(), 1, "{backend:?}: {told:?}");
        assert_eq!((told[0].0, &told[0].1), (match_id, &vec![bjorn.player.id]));
        assert!(told_so_far(&mut elsewhere).await.is_empty(), "{backend:?}");

        let (moves, _) = short_copenhagen_game();
        let before = now_ms();
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        // Bjorn is told on both his sockets, with the deadline of his move.
        for socket in [&mut elsewhere, &mut b] {
            let told = socket
                .message_where(|m| matches!(m, ServerMessage::YourMove { .. }))
                .await;
            let ServerMessage::YourMove {
                match_id: m,
                game,
                variant,
                opponents,
                deadline_ms,
            } = told
            else {
                unreachable!()
            };
            assert_eq!(
                (m, game.as_str(), variant.as_str()),
                (match_id, "tafl", "copenhagen")
            );
            assert_eq!(opponents, vec![alice.player.clone()], "{backend:?}");
            // Within the time it took to tell, give or take the clocks' rounding.
            let three_days = THREE_DAYS_MS as i64;
            let (earliest, latest) = (before + three_days - 5, now_ms() + three_days + 5);
            assert!(
                (earliest..=latest).contains(&deadline_ms),
                "{backend:?}: deadline {deadline_ms} not in {earliest}..={latest}"
            );
        }
        // The mover is not.
        assert!(told_so_far(&mut a).await.is_empty(), "{backend:?}");

        // The match waits for Bjorn, not for Alice.
        let waiting = list(addr, &bjorn.token, "/api/me/waiting").await;
        assert_eq!(waiting.len(), 1, "{backend:?}");
        assert_eq!(waiting[0].summary.id, match_id);
        assert_eq!(
            (waiting[0].your_seats.clone(), waiting[0].to_act.clone()),
            (vec![1], vec![1])
        );
        assert!(waiting[0].summary.clock.is_some_and(|c| c.per_move));
        assert!(waiting[0].deadline_ms.is_some() && waiting[0].view.is_some());
        assert!(list(addr, &alice.token, "/api/me/waiting").await.is_empty());
        let games = list(addr, &alice.token, "/api/me/games").await;
        assert_eq!(games.len(), 1, "{backend:?}");
        assert_eq!(
            (games[0].summary.id, games[0].to_act.clone()),
            (match_id, vec![1])
        );

        // Waiting for Alice again once Bjorn has moved; a match waiting for players is among her
        // games, after it, and waits for nobody.
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        let open = a
            .ok(|id| common::create(id, "tafl", "brandubh", per_move(THREE_DAYS_MS)))
            .await
            .match_id
            .unwrap();
        let waiting = list(addr, &alice.token, "/api/me/waiting").await;
        assert_eq!(
            waiting.iter().map(|m| m.summary.id).collect::<Vec<_>>(),
            [match_id]
        );
        let games = list(addr, &alice.token, "/api/me/games").await;
        let ids: Vec<MatchId> = games.iter().map(|m| m.summary.id).collect();
        assert_eq!(ids, [match_id, open], "{backend:?}");
        assert!(games[1].to_act.is_empty() && games[1].deadline_ms.is_none());
        assert!(list(addr, &bjorn.token, "/api/me/waiting").await.is_empty());

        // Players come and go in correspondence: being away is no reason to claim the win.
        let message = a
            .refused(ErrorCode::Conflict, |id| ClientMessage::ClaimWin {
                id,
                match_id,
                seat: 0,
            })
            .await;
        assert!(message.contains("correspondence"), "{message}");

        // Without a session, the lists are not anyone's.
        for path in ["/api/me/games", "/api/me/waiting", "/api/me/vacation"] {
            let (status, body) = rest(addr, reqwest::Method::GET, None, path, None).await;
            assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
        }
    }
}

#[tokio::test]
async fn the_clock_is_full_after_each_move_and_a_player_out_of_time_loses() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--room-sleep-secs", "1"]).await;
        let (_, bjorn, mut a, mut b) = two_players(addr).await;
        let base = 1500;
        let match_id = copenhagen_match(&mut a, &mut b, per_move(base)).await;
        let (moves, _) = short_copenhagen_game();
        // Each move takes most of the time a move has: on a Fischer clock without increment,
        // the second would run out.
        for (i, mv) in moves[..4].iter().enumerate() {
            tokio::time::sleep(Duration::from_millis(900)).await;
            let (mover, seat) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
            let seq = mover
                .ok(|id| act(id, match_id, seat, mv))
                .await
                .seq
                .unwrap();
            match mover.event_at(match_id, seq.0).await {
                MatchEvent::Acted { clocks_ms, .. } => {
                    let clocks = clocks_ms.unwrap();
                    assert_eq!(clocks[usize::from(seat)], base, "{backend:?}: full again");
                    assert!(clocks[usize::from(1 - seat)] <= base, "{backend:?}");
                }
                other => panic!("expected acted, got {other:?}"),
            }
        }
        // Nobody follows the match now, and nobody moves: its room flags Alice all the same.
        let waited_from = Instant::now();
        a.close().await;
        b.close().await;
        let path = format!("/api/matches/{}", match_id.0);
        let record = loop {
            let record = common::get(addr, &path).await;
            if record["summary"]["status"] == "finished" {
                break record;
            }
            assert!(
                waited_from.elapsed() < PATIENCE,
                "{backend:?}: no flag: {record}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(waited_from.elapsed() >= Duration::from_millis(base - 200));
        let result = &record["summary"]["result"];
        assert_eq!(result["reason"], "timeout", "{backend:?}: {record}");
        assert_eq!(result["places"], json!([1, 0]), "{backend:?}");
        assert!(list(addr, &bjorn.token, "/api/me/games").await.is_empty());
    }
}

#[tokio::test]
async fn a_restart_does_not_move_the_deadline() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (alice, bjorn, mut a, mut b) = two_players(server.addr).await;
        let base = 20_000;
        let match_id = copenhagen_match(&mut a, &mut b, per_move(base)).await;
        let (moves, _) = short_copenhagen_game();
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        let moved = Instant::now();
        drop((a, b, server));
        tokio::time::sleep(Duration::from_millis(1500)).await;

        // Alice's clock counted on while the server was down: her deadline is where it was.
        let server = ServerProcess::start(&url).await;
        let mut a = Client::connect(server.addr, &alice.token).await;
        a.ok(|id| watch(id, match_id, None)).await;
        let ServerMessage::Snapshot { snapshot, .. } = a.next_of(match_id).await else {
            panic!("expected a snapshot");
        };
        let left = snapshot.seats[0].clock_ms.unwrap();
        let gone = moved.elapsed().as_millis() as u64;
        assert!(
            left <= base - gone + 100,
            "{backend:?}: {left} left after {gone}"
        );
        assert!(
            left + 5000 > base - gone,
            "{backend:?}: {left} left after {gone}"
        );
        assert_eq!(snapshot.seats[1].clock_ms, Some(base), "{backend:?}");
        let waiting = list(server.addr, &alice.token, "/api/me/waiting").await;
        let deadline = waiting[0].deadline_ms.unwrap();
        let expected = now_ms() + left as i64;
        assert!(
            (deadline - expected).abs() < 2000,
            "{backend:?}: {deadline} {expected}"
        );
        assert!(
            list(server.addr, &bjorn.token, "/api/me/waiting")
                .await
                .is_empty()
        );
    }
}

/// Follows the match until the next vacation event (`vacation` or `vacation_over`) of a seat.
async fn vacation_event(client: &mut Client, match_id: MatchId, seat: u8) -> MatchEvent {
    client
        .event_where(match_id, |e| match e {
            MatchEvent::Vacation { seat: s, .. } | MatchEvent::VacationOver { seat: s, .. } => {
                *s == seat
            }
            _ => false,
        })
        .await
        .1
}

#[tokio::test]
async fn a_vacation_stops_the_clock_until_its_allowance_runs_out() {
    for backend in BACKENDS {
        // A day of 100 ms: 30 days of vacation are three seconds, a year 36.5 s.
        let flags = ["--day-ms", "100", "--vacation-days", "30"];
        let addr = start(&fresh_database(backend).await, &flags).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;
        let base = 1500;
        let match_id = copenhagen_match(&mut a, &mut b, per_move(base)).await;
        let (moves, _) = short_copenhagen_game();
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        a.ok(|id| act(id, match_id, 0, &moves[2])).await;
        let turn = Instant::now();

        // Bjorn goes away: his clock stops, and Alice sees it.
        let (status, body) = set_vacation(addr, &bjorn.token, true).await;
        assert_eq!(status, 200, "{backend:?}: {body}");
        let state: VacationState = serde_json::from_value(body).unwrap();
        assert!(
            state.on && state.allowance_ms == 3000,
            "{backend:?}: {state:?}"
        );
        let until = state.until_ms.unwrap();
        assert!(
            (until - now_ms() - 3000).abs() < 500,
            "{backend:?}: {state:?}"
        );
        let MatchEvent::Vacation {
            seat: 1,
            until_ms,
            clocks_ms,
        } = vacation_event(&mut a, match_id, 1).await
        else {
            panic!("expected Bjorn's vacation");
        };
        assert_eq!(until_ms, until);
        assert!(clocks_ms[1] > 1000, "{backend:?}: {clocks_ms:?}");
        // Asking again changes nothing.
        let (_, again) = set_vacation(addr, &bjorn.token, true).await;
        assert_eq!(again["until_ms"], json!(until));
        let games = list(addr, &alice.token, "/api/me/games").await;
        assert_eq!(games[0].on_vacation, vec![1], "{backend:?}");

        // Longer than a move may take, he is not flagged; back early, his clock runs again
        // with what it had left.
        tokio::time::sleep(Duration::from_millis(base + 100)).await;
        let (status, body) = set_vacation(addr, &bjorn.token, false).await;
        assert_eq!(
            (status, &body["on"]),
            (200, &json!(false)),
            "{backend:?}: {body}"
        );
        let used = 3000 - body["left_ms"].as_i64().unwrap();
        assert!((1600..2900).contains(&used), "{backend:?}: {body}");
        let MatchEvent::VacationOver { seat: 1, clocks_ms } =
            vacation_event(&mut a, match_id, 1).await
        else {
            panic!("expected Bjorn back");
        };
        assert!(clocks_ms[1] > 1000, "{backend:?}: {clocks_ms:?}");
        b.ok(|id| act(id, match_id, 1, &moves[3])).await;
        assert!(turn.elapsed() > Duration::from_millis(base), "{backend:?}");

        // Alice goes away with all her vacation: it runs out by itself, and her clock runs
        // again until it flags her.
        let (_, body) = set_vacation(addr, &alice.token, true).await;
        let away = Instant::now();
        let until = body["until_ms"].as_i64().unwrap();
        assert!(matches!(
            vacation_event(&mut b, match_id, 0).await,
            MatchEvent::Vacation { seat: 0, .. }
        ));
        assert!(matches!(
            vacation_event(&mut b, match_id, 0).await,
            MatchEvent::VacationOver { seat: 0, .. }
        ));
        assert!(now_ms() >= until - 50, "{backend:?}: back before {until}");
        let (_, finished) = b
            .event_where(match_id, |e| matches!(e, MatchEvent::Finished { .. }))
            .await;
        let MatchEvent::Finished { result } = finished else {
            unreachable!()
        };
        assert_eq!(
            (result.reason.as_str(), result.places),
            ("timeout", vec![1, 0])
        );
        assert!(
            away.elapsed() >= Duration::from_millis(3000 + base - 300),
            "{backend:?}"
        );

        // Her allowance is used up: no more vacation this year.
        let (status, body) = rest(
            addr,
            reqwest::Method::GET,
            Some(&alice.token),
            "/api/me/vacation",
            None,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(
            (body["on"].clone(), body["left_ms"].clone()),
            (json!(false), json!(0))
        );
        let (status, body) = set_vacation(addr, &alice.token, true).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("conflict")),
            "{body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains("30 days"),
            "{body}"
        );
    }
}

/// A vacation lasts at least a day: coming back sooner is refused, saying when it may be, and
/// changes nothing; so does asking for what already holds. Switching on and off cannot stop and
/// start the clocks of every correspondence match over and over, each time an event for all
/// their followers.
#[tokio::test]
async fn a_vacation_lasts_a_day_and_a_switch_that_changes_nothing_tells_nobody() {
    for backend in BACKENDS {
        // A day of a second, 30 days of vacation.
        let flags = ["--day-ms", "1000", "--vacation-days", "30"];
        let addr = start(&fresh_database(backend).await, &flags).await;
        let (_, bjorn, mut a, mut b) = two_players(addr).await;
        let match_id = copenhagen_match(&mut a, &mut b, per_move(60_000)).await;
        let (moves, _) = short_copenhagen_game();

        // Back when not away: nothing happens.
        let (status, body) = set_vacation(addr, &bjorn.token, false).await;
        assert_eq!((status, &body["on"]), (200, &json!(false)), "{body}");

        let (status, body) = set_vacation(addr, &bjorn.token, true).await;
        assert_eq!(status, 200, "{backend:?}: {body}");
        let state: VacationState = serde_json::from_value(body).unwrap();
        let (away, _) = a
            .event_where(match_id, |e| {
                matches!(e, MatchEvent::Vacation { seat: 1, .. })
            })
            .await;

        // Away again, and back too soon: refused, saying when; he is still away.
        let (status, again) = set_vacation(addr, &bjorn.token, true).await;
        assert_eq!(status, 200);
        assert_eq!(again["until_ms"], json!(state.until_ms), "{backend:?}");
        let (status, body) = set_vacation(addr, &bjorn.token, false).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("conflict")),
            "{backend:?}: {body}"
        );
        let why = body["message"].as_str().unwrap();
        assert!(
            why.contains("at least a day") && why.contains("come back in"),
            "{why}"
        );
        let (_, now) = rest(
            addr,
            reqwest::Method::GET,
            Some(&bjorn.token),
            "/api/me/vacation",
            None,
        )
        .await;
        assert_eq!(now["on"], json!(true), "{backend:?}: {now}");
        let back_from = state.back_from_ms.expect("when he may come back");
        assert!(
            (back_from - now_ms() - 1000).abs() < 500,
            "{backend:?}: {state:?}"
        );

        // None of it told Alice anything: her move is the next event after the vacation.
        let moved = a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        assert_eq!(moved.seq.unwrap().0, away + 1, "{backend:?}");

        // A day on, he comes back.
        let wait = (back_from - now_ms()).max(0) as u64 + 50;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let (status, body) = set_vacation(addr, &bjorn.token, false).await;
        assert_eq!((status, &body["on"]), (200, &json!(false)), "{body}");
        let event = a.event_at(match_id, away + 2).await;
        assert!(
            matches!(event, MatchEvent::VacationOver { seat: 1, .. }),
            "{event:?}"
        );
    }
}

#[tokio::test]
async fn bad_correspondence_input_is_refused() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--day-ms", "1000"]).await;
        let (alice, _, mut a, mut b) = two_players(addr).await;
        let too_long = 15 * protocol::DAY_MS;
        for (clock, says) in [
            (
                json!({"base_ms": 1000, "increment_ms": 5, "per_move": true}),
                "increment_ms is 0",
            ),
            (
                json!({"base_ms": too_long, "increment_ms": 0, "per_move": true}),
                "14 days",
            ),
            (
                json!({"base_ms": 0, "increment_ms": 0, "per_move": true}),
                "14 days",
            ),
            (
                json!({"base_ms": 1000, "increment_ms": 0, "per_move": "yes"}),
                "boolean",
            ),
        ] {
            // Sent as text: the protocol's own types would not write some of these.
            let id = a.fresh_id();
            let create =
                json!({"type": "create_match", "id": id.0, "game": "tafl", "clock": clock});
            a.send_text(&create.to_string()).await;
            match a.answer(&id).await {
                ServerMessage::Error { error, .. } if error.code == ErrorCode::BadRequest => {
                    assert!(
                        error.message.contains(says),
                        "{backend:?}: {}",
                        error.message
                    );
                }
                other => panic!("{backend:?}: {clock} was not refused: {other:?}"),
            }
        }
        // The correspondence time control is three of the server's days a move.
        let ack = a
            .ok(|id| ClientMessage::PlayAi {
                id,
                game: "tafl".into(),
                variant: Some("brandubh".into()),
                seats: None,
                level: 1,
                time_control: Some(protocol::TimeControl::Correspondence),
                rated: false,
                seat: Some(1),
            })
            .await;
        let ServerMessage::Snapshot { snapshot, .. } = a.next_of(ack.match_id.unwrap()).await
        else {
            panic!("expected a snapshot");
        };
        let clock = snapshot.clock.unwrap();
        assert_eq!((clock.base_ms, clock.per_move), (3000, true), "{backend:?}");

        // Vacations: a body that is not `{"on": bool}`, or not JSON, or no session.
        let put = reqwest::Method::PUT;
        let path = "/api/me/vacation";
        for (body, code) in [
            (r#"{"on": "yes"}"#, "bad_request"),
            (r#"{}"#, "bad_request"),
            (r#"{"on": true, "days": 3}"#, "bad_request"),
            (r#"[true]"#, "malformed"),
            (r#"{"on": tru"#, "malformed"),
        ] {
            let (status, answer) =
                rest(addr, put.clone(), Some(&alice.token), path, Some(body)).await;
            assert_eq!(
                (status, answer["code"].as_str()),
                (400, Some(code)),
                "{body}: {answer}"
            );
        }
        let (status, _) = rest(addr, put, None, path, Some(r#"{"on": true}"#)).await;
        assert_eq!(status, 401, "{backend:?}");
        // Nothing was changed by the refusals.
        let (_, state) = rest(addr, reqwest::Method::GET, Some(&alice.token), path, None).await;
        assert_eq!(state["on"], json!(false), "{backend:?}");

        // A match that starts when a player joins tells its first mover.
        let open = b
            .ok(|id| common::create(id, "tafl", "brandubh", per_move(THREE_DAYS_MS)))
            .await
            .match_id
            .unwrap();
        a.ok(|id| join(id, open)).await;
        assert!(told_so_far(&mut b).await.iter().any(|(m, _, _)| *m == open));
    }
}
