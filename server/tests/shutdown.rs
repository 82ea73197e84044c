//! Graceful shutdown: the real server binary gets SIGTERM in the middle of a rated, timed match,
//! with a move in flight. Every socket must get `shutdown` and then a close frame with code 1012,
//! the process must exit 0 by itself, and a new process on the same database must resume the
//! match at the same position with every acknowledged move (and the move in flight exactly when
//! it was acknowledged). Both storage backends.
//!
//! A clean stop is clean: SIGTERM while tournaments play their rounds, matches are live and
//! sockets follow them, the queue and a challenge wait, logs no error and no warning.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::process::ServerProcess;
use common::{
    BACKENDS, Client, PATIENCE, act, corpus_game, fresh_database, new_player, play_ai, rated_match,
    watch,
};
use protocol::{
    ChallengeSpec, ClientMessage, CommandId, MatchId, MatchSnapshot, ServerMessage, Session,
    TimeControl, TournamentDetails, TournamentId,
};
use serde_json::{Value, json};

/// The close code for "service restart".
const SERVICE_RESTART: u16 = 1012;

/// Follows the match again and returns the snapshot it answers with.
async fn snapshot(client: &mut Client, match_id: MatchId) -> (u64, MatchSnapshot) {
    client.ok(|id| watch(id, match_id, None)).await;
    loop {
        match client.next().await {
            ServerMessage::Snapshot {
                match_id: m,
                seq,
                snapshot,
            } if m == match_id => return (seq.0, snapshot),
            other => client.pending.push(other),
        }
    }
}

/// What a socket received once the server began to stop: whether the fired command was
/// acknowledged, and that the goodbye came as specified.
fn check_goodbye(
    messages: &[ServerMessage],
    close: Option<tokio_tungstenite::tungstenite::protocol::CloseFrame>,
    fired: Option<&CommandId>,
) -> bool {
    let close = close.expect("the server closed the socket with a close frame");
    assert_eq!(u16::from(close.code), SERVICE_RESTART, "{close:?}");
    assert_eq!(
        messages.last(),
        Some(&ServerMessage::Shutdown {
            reconnect_after_ms: 1000
        }),
        "`shutdown` is the last message before the close: {messages:?}"
    );
    let acked = |m: &ServerMessage| matches!(m, ServerMessage::Ack { id, .. } if Some(id) == fired);
    let refused = |m: &ServerMessage| matches!(m, ServerMessage::Error { id: Some(id), .. } if Some(id) == fired);
    assert!(
        !messages.iter().any(refused),
        "the move in flight was refused: {messages:?}"
    );
    messages.iter().any(acked)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_tells_clients_to_reconnect_exits_0_and_the_match_resumes() {
    let (moves, _) = corpus_game(10);
    let before_stop = 6;
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut server = ServerProcess::start(&url).await;
        let (alice, bjorn, mut a, mut b, match_id) = rated_match(server.addr, 600_000, 0).await;
        for (i, mv) in moves.iter().enumerate().take(before_stop) {
            let mover = if i % 2 == 0 { &mut a } else { &mut b };
            mover.ok(|id| act(id, match_id, (i % 2) as u8, mv)).await;
        }
        let (seq_before, before) = snapshot(&mut a, match_id).await;
        assert_eq!(before.actions.len(), before_stop, "{backend:?}");

        // Alice's next move is on its way when the server is told to stop.
        let fired = CommandId("in-flight".into());
        let seat = (before_stop % 2) as u8;
        a.send(&act(fired.clone(), match_id, seat, &moves[before_stop]))
            .await;
        let stopping = Instant::now();
        server.terminate();
        let (to_a, close_a) = a.until_closed().await;
        let (to_b, close_b) = b.until_closed().await;
        let acked = check_goodbye(&to_a, close_a, Some(&fired));
        check_goodbye(&to_b, close_b, None);
        let status = server
            .exit_within(PATIENCE)
            .await
            .expect("the server exits by itself after SIGTERM");
        assert!(status.success(), "{backend:?}: exit status {status}");
        eprintln!(
            "{backend:?}: stopped in {} ms; the move in flight was {}acknowledged",
            stopping.elapsed().as_millis(),
            if acked { "" } else { "not " }
        );

        // A new server on the same database has the match where it was.
        let server = ServerProcess::start(&url).await;
        let addr = server.addr;
        let mut a = Client::connect(addr, &alice.token).await;
        let mut b = Client::connect(addr, &bjorn.token).await;
        let (seq_after, after) = snapshot(&mut a, match_id).await;
        let played = before_stop + usize::from(acked);
        let expected: Vec<Option<String>> = moves[..played].iter().cloned().map(Some).collect();
        assert_eq!(
            after.actions, expected,
            "{backend:?}: every acknowledged move, and nothing else"
        );
        assert!(after.result.is_none() && after.rated, "{backend:?}");
        if acked {
            assert!(seq_after > seq_before, "{backend:?}");
            assert_ne!(after.view, before.view, "{backend:?}");
        } else {
            assert_eq!(seq_after, seq_before, "{backend:?}: the same event count");
            assert_eq!(after.view, before.view, "{backend:?}: the same position");
            assert_eq!(after.to_act, before.to_act, "{backend:?}");
            // Not acknowledged, so it did not happen: Alice plays it again.
            a.ok(|id| act(id, match_id, seat, &moves[before_stop]))
                .await;
        }

        // The match goes on from there.
        snapshot(&mut b, match_id).await;
        b.ok(|id| act(id, match_id, 1 - seat, &moves[before_stop + 1]))
            .await;
        let (_, later) = snapshot(&mut a, match_id).await;
        let expected: Vec<Option<String>> =
            moves[..before_stop + 2].iter().cloned().map(Some).collect();
        assert_eq!(later.actions, expected, "{backend:?}");
        server.kill();
    }
}

async fn post_as(addr: SocketAddr, who: &Session, path: &str, body: Value) -> Value {
    let response = common::http()
        .post(format!("http://{addr}{path}"))
        .bearer_auth(&who.token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "POST {path}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A started round robin of AI levels 1 to 5, whose games the AI plays on its own.
async fn ai_tournament(addr: SocketAddr, organiser: &Session, two_games: bool) -> TournamentId {
    let spec = json!({"name": "Stop", "game": "tafl", "variant": "copenhagen",
                      "format": "round_robin", "two_games": two_games});
    let created: TournamentDetails =
        serde_json::from_value(post_as(addr, organiser, "/api/tournaments", spec).await).unwrap();
    let id = created.summary.id;
    for level in 1..=5 {
        let path = format!("/api/tournaments/{}/entrants", id.0);
        post_as(addr, organiser, &path, json!({"ai_level": level})).await;
    }
    let path = format!("/api/tournaments/{}/start", id.0);
    post_as(addr, organiser, &path, json!({})).await;
    id
}

/// Waits until a game of the tournament is being played.
async fn under_way(addr: SocketAddr, id: TournamentId) {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        let path = format!("/api/tournaments/{}", id.0);
        let d: TournamentDetails = serde_json::from_value(common::get(addr, &path).await).unwrap();
        let games = d.rounds.iter().flat_map(|r| &r.games);
        if games
            .filter(|g| g.match_id.is_some() && g.outcome.is_none())
            .count()
            > 0
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("tournament {} has no game under way", id.0);
}

/// The lines of a JSON log at ERROR or WARN level.
fn errors_and_warnings(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|line| {
            let parsed: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON log line: {line}: {e}"));
            matches!(parsed["level"].as_str(), Some("ERROR" | "WARN"))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_in_the_middle_of_everything_logs_no_error_or_warning() {
    let flags = [
        "--log-format",
        "json",
        "--log",
        "info",
        "--ai-move-ms",
        "20",
        "--tournament-poll-ms",
        "20",
        "--housekeeping-secs",
        "1",
    ];
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut server = ServerProcess::start_with(&url, &flags).await;
        let addr = server.addr;

        // Two tournaments playing their rounds (one of two-game matches), one followed.
        let organiser = new_player(addr).await;
        let tournaments = [
            ai_tournament(addr, &organiser, false).await,
            ai_tournament(addr, &organiser, true).await,
        ];
        let mut sockets = vec![Client::connect(addr, &organiser.token).await];
        sockets[0]
            .ok(|id| ClientMessage::WatchTournament {
                id,
                tournament_id: tournaments[0],
            })
            .await;

        // A rated match under way with a spectator, a match against the AI, a player in the
        // queue and a challenge waiting for its answer.
        let (_, bjorn, mut a, mut b, match_id) = rated_match(addr, 600_000, 0).await;
        let (moves, _) = corpus_game(4);
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        let mut spectator = Client::visit(addr).await;
        spectator.ok(|id| watch(id, match_id, None)).await;
        let mut solo = Client::connect(addr, &new_player(addr).await.token).await;
        solo.ok(|id| play_ai(id, "brandubh", 1, 1)).await;
        let mut queued = Client::connect(addr, &new_player(addr).await.token).await;
        queued
            .ok(|id| ClientMessage::QueueJoin {
                id,
                game: "tafl".into(),
                variant: Some("brandubh".into()),
                seats: None,
                time_control: TimeControl::Blitz,
                rated: false,
                ai_after_secs: None,
                two_games: false,
            })
            .await;
        a.ok(|id| ClientMessage::Challenge {
            id,
            spec: ChallengeSpec {
                player: bjorn.player.id,
                game: "tafl".into(),
                variant: Some("brandubh".into()),
                seat: None,
                clock: None,
                rated: false,
                two_games: false,
                takebacks: false,
            },
        })
        .await;
        sockets.extend([a, b, spectator, solo, queued]);
        for id in tournaments {
            under_way(addr, id).await;
        }

        server.terminate();
        for socket in &mut sockets {
            let (_, close) = socket.until_closed().await;
            let close = close.expect("the server closed the socket with a close frame");
            assert_eq!(u16::from(close.code), SERVICE_RESTART, "{backend:?}");
        }
        let status = server
            .exit_within(PATIENCE)
            .await
            .expect("the server exits by itself after SIGTERM");
        let log = server.output();
        assert!(
            status.success(),
            "{backend:?}: exit status {status}; log:\n{log}"
        );
        assert!(
            log.contains("\"stopped\""),
            "{backend:?}: the server logged its stop:\n{log}"
        );
        let complaints = errors_and_warnings(&log);
        assert!(
            complaints.is_empty(),
            "{backend:?}: a clean stop logged errors or warnings:\n{}",
            complaints.join("\n")
        );
    }
}
