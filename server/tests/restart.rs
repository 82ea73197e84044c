//! Crash recovery: the real server binary is killed with SIGKILL in the middle of a rated, timed
//! match and started again on the same database. Every acknowledged move must survive, the match
//! must go on from the same position with fair clocks (time the server was down is not charged),
//! and it must end with one result and one rating update. Both storage backends.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::process::ServerProcess;
use common::{
    BACKENDS, Backend, Client, PATIENCE, act, corpus_game, fresh_database, get, rated_match, watch,
};
use futures_util::{SinkExt, StreamExt};
use protocol::{
    ClientMessage, CommandId, MatchEvent, MatchId, MatchSnapshot, PlayerId, ServerMessage,
};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn snapshot(client: &mut Client, match_id: MatchId) -> (u64, MatchSnapshot) {
    let ack = client.ok(|id| watch(id, match_id, None)).await;
    assert_eq!(ack.match_id, Some(match_id));
    match client.next_of(match_id).await {
        ServerMessage::Snapshot { seq, snapshot, .. } => (seq.0, snapshot),
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

/// What a test knows about the match after the last acknowledged move.
struct Played {
    seq: u64,
    to_act: Vec<u8>,
    clocks_ms: Vec<u64>,
    view: Value,
}

/// Plays `mv` for `seat` and returns the `acted` event's content, as the mover (who follows the
/// match) receives it.
async fn play(mover: &mut Client, match_id: MatchId, seat: u8, mv: &str) -> Played {
    let ack = mover.ok(|id| act(id, match_id, seat, mv)).await;
    let seq = ack.seq.expect("an act is acked with its seq").0;
    match mover.event_at(match_id, seq).await {
        MatchEvent::Acted {
            seat: s,
            action,
            view,
            to_act,
            clocks_ms,
            ..
        } => {
            assert_eq!((s, action.as_deref()), (seat, Some(mv)));
            Played {
                seq,
                to_act,
                clocks_ms: clocks_ms.expect("a timed match reports clocks"),
                view,
            }
        }
        other => panic!("expected acted at {seq}, got {other:?}"),
    }
}

/// Plays `moves` from move number `from` to the end and checks the one result and the one rating
/// update: the winner goes from 1500 to 1520, and each player has exactly one rated game.
async fn finish_and_check(
    addr: SocketAddr,
    clients: [&mut Client; 2],
    match_id: MatchId,
    moves: &[String],
    from: usize,
    winner: u8,
    backend: Backend,
) {
    let [a, b] = clients;
    for (i, mv) in moves.iter().enumerate().skip(from) {
        let (mover, seat) = if i % 2 == 0 {
            (&mut *a, 0)
        } else {
            (&mut *b, 1)
        };
        mover.ok(|id| act(id, match_id, seat, mv)).await;
    }
    let (_, finished) = a
        .event_where(match_id, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
    let MatchEvent::Finished { result } = finished else {
        unreachable!()
    };
    assert_eq!(
        result.places[usize::from(winner)],
        0,
        "{backend:?} {result:?}"
    );
    assert_eq!(result.places[usize::from(1 - winner)], 1, "{backend:?}");
    assert!(
        !["resigned", "timeout", "abandoned", "aborted", "draw_agreed"]
            .contains(&result.reason.as_str()),
        "the game itself ended the match: {result:?}"
    );
    assert_eq!(result.ratings.len(), 2, "{backend:?}");
    let won = result.ratings.iter().find(|r| r.seat == winner).unwrap();
    assert_eq!((won.before, won.after), (1500.0, 1520.0), "{backend:?}");

    let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
    assert_eq!(record["summary"]["status"], "finished", "{backend:?}");
    let actions = record["actions"].as_array().unwrap();
    let played: Vec<&str> = actions
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(played, moves.iter().map(String::as_str).collect::<Vec<_>>());
    let seqs: Vec<u64> = actions.iter().map(|a| a["seq"].as_u64().unwrap()).collect();
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "{backend:?}: action seqs must increase across restarts: {seqs:?}"
    );
    assert_eq!(
        record["summary"]["result"]["ratings"]
            .as_array()
            .unwrap()
            .len(),
        2,
        "{backend:?}: one pair of rating changes"
    );
    let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
    let entries = board["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{backend:?}");
    for entry in entries {
        assert_eq!(entry["games"], 1, "{backend:?}: {entry}");
    }
}

fn same_player(snapshot: &MatchSnapshot, seat: usize, player: PlayerId) -> bool {
    snapshot.seats[seat].player.as_ref().map(|p| p.id) == Some(player)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_survives_a_kill_with_its_moves_position_and_clocks() {
    let (moves, winner) = corpus_game(16);
    let before_kill = 10;
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let addr = server.addr;
        let (alice, bjorn, mut a, mut b, match_id) = rated_match(addr, 60_000, 1_000).await;

        let mut last = None;
        for (i, mv) in moves.iter().enumerate().take(before_kill) {
            let seat = (i % 2) as u8;
            let mover = if seat == 0 { &mut a } else { &mut b };
            last = Some(play(mover, match_id, seat, mv).await);
        }
        let last = last.unwrap();
        assert_eq!(last.to_act, vec![(before_kill % 2) as u8]);

        // Seat 0's clock runs for a while, then the server dies and stays down a while: neither
        // stretch may be charged to it.
        tokio::time::sleep(Duration::from_millis(700)).await;
        server.kill();
        drop((a, b));
        tokio::time::sleep(Duration::from_millis(500)).await;
        let restarted = Instant::now();
        let server = ServerProcess::start(&url).await;
        let addr = server.addr;

        let mut a = Client::connect(addr, &alice.token).await;
        let mut b = Client::connect(addr, &bjorn.token).await;
        let (seq, snap) = snapshot(&mut a, match_id).await;
        let since_restart = restarted.elapsed().as_millis() as u64;
        assert_eq!(
            seq, last.seq,
            "{backend:?}: numbering goes on from the last stored event"
        );
        let expected: Vec<Option<String>> =
            moves[..before_kill].iter().cloned().map(Some).collect();
        assert_eq!(
            snap.actions, expected,
            "{backend:?}: every acked move, in order"
        );
        assert_eq!(snap.to_act, last.to_act, "{backend:?}");
        assert_eq!(snap.view, last.view, "{backend:?}: the same position");
        assert_eq!(snap.your_seats, vec![0]);
        assert!(same_player(&snap, 0, alice.player.id) && same_player(&snap, 1, bjorn.player.id));
        assert!(snap.result.is_none() && snap.rated);
        let to_act = usize::from(last.to_act[0]);
        for (seat, state) in snap.seats.iter().enumerate() {
            let had = last.clocks_ms[seat];
            let now = state.clock_ms.expect("a timed match shows clocks");
            if seat == to_act {
                assert!(
                    now <= had && now + since_restart >= had,
                    "{backend:?}: seat {seat} had {had} ms and has {now} ms, {since_restart} ms \
                     after the restart: time the server was down was charged"
                );
            } else {
                assert_eq!(now, had, "{backend:?}: a stopped clock stays as it was");
            }
        }

        // Alice is back; Bjorn, as far as she can tell, is not.
        let connected: Vec<bool> = snap.seats.iter().map(|s| s.connected).collect();
        assert_eq!(connected, vec![true, false], "{backend:?}");

        // Bjorn resumes from the last event he saw: nothing was lost, so he gets only what
        // happened since the restart (his own return, announced to Alice), and no snapshot.
        let ack = b.ok(|id| watch(id, match_id, Some(last.seq))).await;
        assert_eq!(ack.seq, Some(protocol::Seq(last.seq + 1)), "{backend:?}");
        match b.next_of(match_id).await {
            ServerMessage::Event { seq, event, .. } => {
                assert_eq!(seq.0, last.seq + 1, "{backend:?}");
                assert_eq!(event, MatchEvent::Reconnected { seat: 1 });
            }
            other => panic!("{backend:?}: expected the missed event, got {other:?}"),
        }
        assert_eq!(
            a.event(match_id).await,
            (last.seq + 1, MatchEvent::Reconnected { seat: 1 }),
            "{backend:?}"
        );

        // The match goes on to its end.
        let next = play(&mut a, match_id, 0, &moves[before_kill]).await;
        assert!(next.seq > last.seq, "{backend:?}");
        assert!(
            next.clocks_ms[0] <= last.clocks_ms[0] + 1_000,
            "{backend:?}: {} then {}",
            last.clocks_ms[0],
            next.clocks_ms[0]
        );
        assert_eq!(next.clocks_ms[1], last.clocks_ms[1], "{backend:?}");
        finish_and_check(
            addr,
            [&mut a, &mut b],
            match_id,
            &moves,
            before_kill + 1,
            winner,
            backend,
        )
        .await;
        server.kill();
    }
}

/// Sends an act on a socket of its own, kills the server `delay` later, and reads what arrived
/// before the socket died. Returns whether the act was acknowledged.
async fn fire_and_kill(
    server: ServerProcess,
    token: &str,
    match_id: MatchId,
    seat: u8,
    mv: &str,
    delay: Duration,
) -> bool {
    let mut request = format!("ws://{}/ws", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let hello = serde_json::to_string(&ClientMessage::Hello {
        version: protocol::PROTOCOL_VERSION,
    })
    .unwrap();
    ws.send(Message::Text(hello.into())).await.unwrap();
    loop {
        match tokio::time::timeout(PATIENCE, ws.next()).await.unwrap() {
            Some(Ok(Message::Text(t))) => {
                assert!(t.contains("welcome"), "{t}");
                break;
            }
            Some(Ok(_)) => {}
            other => panic!("no welcome: {other:?}"),
        }
    }

    let fired = act(CommandId("fire".into()), match_id, seat, mv);
    let text = serde_json::to_string(&fired).unwrap();
    ws.send(Message::Text(text.into())).await.unwrap();
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    server.kill();

    let mut acked = false;
    loop {
        match tokio::time::timeout(PATIENCE, ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                match serde_json::from_str::<ServerMessage>(&text).unwrap() {
                    ServerMessage::Ack { id, .. } if id.0 == "fire" => acked = true,
                    ServerMessage::Error {
                        id: Some(id),
                        error,
                    } if id.0 == "fire" => {
                        panic!("the fired move was refused: {error:?}")
                    }
                    _ => {}
                }
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_)) | None) => return acked,
            Err(_) => panic!("the socket outlived the server"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_in_flight_when_the_server_dies_is_kept_when_it_was_acknowledged() {
    let (moves, winner) = corpus_game(16);
    // From "killed before the server read the frame" to "killed well after the ack".
    let delays = [0, 0, 1, 3, 50];
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut server = ServerProcess::start(&url).await;
        let (alice, bjorn, a, b, match_id) = rated_match(server.addr, 60_000, 1_000).await;
        drop((a, b));
        let tokens = [alice.token.clone(), bjorn.token.clone()];
        let mut acked_moves: Vec<String> = Vec::new();
        let (mut kept_unacked, mut lost) = (0, 0);
        for delay in delays {
            let i = acked_moves.len();
            let seat = (i % 2) as u8;
            let acked = fire_and_kill(
                server,
                &tokens[usize::from(seat)],
                match_id,
                seat,
                &moves[i],
                Duration::from_millis(delay),
            )
            .await;
            server = ServerProcess::start(&url).await;
            let mut watcher = Client::connect(server.addr, &tokens[0]).await;
            let (_, snap) = snapshot(&mut watcher, match_id).await;
            let present: Vec<String> = snap.actions.iter().map(|a| a.clone().unwrap()).collect();
            // What was acknowledged before is all there, in order; the fired move is there if
            // it was acknowledged, and if it is there it is exactly what was sent, last.
            assert_eq!(
                present[..i],
                acked_moves[..],
                "{backend:?}: an acknowledged move was lost"
            );
            if acked {
                assert_eq!(present.len(), i + 1, "{backend:?}: an acked move was lost");
            }
            assert!(present.len() <= i + 1, "{backend:?}: {present:?}");
            if present.len() == i + 1 {
                assert_eq!(present[i], moves[i], "{backend:?}");
                kept_unacked += usize::from(!acked);
            } else {
                lost += 1;
                // Not durable, so it did not happen: the player plays it again.
                let mut mover = Client::connect(server.addr, &tokens[usize::from(seat)]).await;
                mover.ok(|id| act(id, match_id, seat, &moves[i])).await;
                mover.close().await;
            }
            acked_moves.push(moves[i].clone());
            assert_eq!(snap.to_act, vec![(present.len() % 2) as u8], "{backend:?}");
            watcher.close().await;
        }
        eprintln!(
            "{backend:?}: in-flight moves lost {lost}, kept without an ack {kept_unacked}, of {}",
            delays.len()
        );

        let mut a = Client::connect(server.addr, &tokens[0]).await;
        let mut b = Client::connect(server.addr, &tokens[1]).await;
        for client in [&mut a, &mut b] {
            snapshot(client, match_id).await;
        }
        finish_and_check(
            server.addr,
            [&mut a, &mut b],
            match_id,
            &moves,
            acked_moves.len(),
            winner,
            backend,
        )
        .await;
        server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_final_move_stored_just_before_a_crash_still_ends_the_match_once() {
    let (moves, winner) = corpus_game(6);
    let last = moves.len() - 1;
    let mover = (last % 2) as u8;
    assert_eq!(mover, winner, "the winner makes the final move");
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (alice, bjorn, mut a, mut b, match_id) = rated_match(server.addr, 60_000, 1_000).await;
        let mut played = None;
        for (i, mv) in moves[..last].iter().enumerate() {
            let mover = if i % 2 == 0 { &mut a } else { &mut b };
            played = Some(play(mover, match_id, (i % 2) as u8, mv).await);
        }
        let played = played.unwrap();
        server.kill();
        drop((a, b));

        // The server died after the final move was stored and before the result was: the
        // action is in the log, the match still live. (Written here as the room writes it.)
        let store = server::store::Store::connect(&url).await.unwrap();
        let final_move = server::matches::Entry::Action(server::matches::StoredAction {
            ply: last as u32,
            seq: played.seq + 1,
            seat: mover,
            action: moves[last].clone(),
            clock_ms: Some(played.clocks_ms[usize::from(mover)] + 1_000),
            at_ms: server::clock::now_ms(),
            command_id: Some("final".into()),
        });
        let log = server::matches::writer::ActionLog::start(&store);
        // The server that made the match owned it at the first epoch, and nobody took it over.
        let epoch = server::cluster::FIRST_EPOCH;
        log.append(match_id, epoch, &final_move).await.unwrap();
        drop((log, store));

        // A restart finds the game over by its rules and records the result, rated once.
        for _ in 0..2 {
            let server = ServerProcess::start(&url).await;
            let addr = server.addr;
            let mut a = Client::connect(addr, &alice.token).await;
            let (_, snap) = snapshot(&mut a, match_id).await;
            let result = snap.result.unwrap_or_else(|| {
                panic!("{backend:?}: the match whose game is over has no result")
            });
            assert_eq!(result.places[usize::from(winner)], 0, "{backend:?}");
            assert_eq!(result.places[usize::from(1 - winner)], 1, "{backend:?}");
            assert!(snap.to_act.is_empty());
            assert_eq!(snap.actions.len(), moves.len());
            let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
            assert_eq!(record["summary"]["status"], "finished", "{backend:?}");
            assert_eq!(
                record["summary"]["result"]["reason"],
                result.reason.as_str()
            );
            assert!(!["resigned", "timeout", "abandoned"].contains(&result.reason.as_str()));
            assert_eq!(
                record["summary"]["result"]["ratings"]
                    .as_array()
                    .unwrap()
                    .len(),
                2,
                "{backend:?}"
            );
            let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
            let games: Vec<_> = board["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["player"]["id"].as_i64().unwrap(),
                        e["games"].as_u64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(games.len(), 2, "{backend:?}");
            assert!(games.iter().all(|(_, g)| *g == 1), "{backend:?}: {games:?}");
            let ids: Vec<i64> = games.iter().map(|(id, _)| *id).collect();
            assert!(ids.contains(&alice.player.id.0) && ids.contains(&bjorn.player.id.0));
            server.kill();
        }
    }
}

/// The server died after the last seat was stored and before the match was marked live: once
/// restarted, the full match starts instead of waiting for ever, and its first move is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_match_whose_start_was_not_stored_starts_after_a_crash() {
    let (moves, _) = corpus_game(2);
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (alice, _, a, b, match_id) = rated_match(server.addr, 60_000, 1_000).await;
        server.kill();
        drop((a, b));

        // What the crash left: both seats taken, the match still waiting.
        let waiting = "UPDATE matches SET status = 'waiting' WHERE id = $1";
        common::alter_database(&url, waiting, &[match_id.0]).await;

        let server = ServerProcess::start(&url).await;
        let mut a = Client::connect(server.addr, &alice.token).await;
        let (_, snap) = snapshot(&mut a, match_id).await;
        assert_eq!(
            snap.to_act,
            vec![0],
            "{backend:?}: the match has not started"
        );
        let played = play(&mut a, match_id, 0, &moves[0]).await;
        assert_eq!(played.to_act, vec![1], "{backend:?}");
        let record = get(server.addr, &format!("/api/matches/{}", match_id.0)).await;
        assert_eq!(record["summary"]["status"], "live", "{backend:?}: {record}");
        server.kill();
    }
}

/// The value of `key=` in the line of a log that holds `message`.
fn logged(log: &str, message: &str, key: &str) -> Option<String> {
    let line = log.lines().find(|l| l.contains(message))?;
    let at = line.find(&format!("{key}="))? + key.len() + 1;
    Some(line[at..].split_whitespace().next()?.to_string())
}

/// A single server on PostgreSQL, killed and started again at once, as a supervisor does: with
/// `name`, both runs under one name (a container keeps its host name, and its process id, 1);
/// without, each under the default (host name and process id), the new run on the machine of
/// the dead one.
async fn restarted_at_once(name: Option<&str>) {
    let url = fresh_database(Backend::Postgres).await;
    let mut quiet = vec!["--log", "info"];
    quiet.extend(name.map(|n| ["--node-name", n]).into_iter().flatten());
    let server = ServerProcess::start_with(&url, &quiet).await;
    let node = get(server.addr, "/api/health").await["node"]["id"].clone();
    let (alice, bjorn, mut a, mut b, match_id) = rated_match(server.addr, 600_000, 0).await;
    let (moves, _) = corpus_game(8);
    let mut last = None;
    for (i, mv) in moves.iter().enumerate().take(4) {
        let seat = (i % 2) as u8;
        let mover = if seat == 0 { &mut a } else { &mut b };
        last = Some(play(mover, match_id, seat, mv).await);
    }
    let last = last.unwrap();
    // The dead process's lease is still young when the new one starts.
    server.kill();
    drop((a, b));
    // A host or container that vanishes sends PostgreSQL no goodbye: the dead process's named
    // connection lingers until TCP gives up on it, hours later. Such a connection, as the
    // database sees it.
    let lingering = format!("{url}?application_name=tafl-node-{node}");
    let lingering = sqlx::postgres::PgPool::connect(&lingering).await.unwrap();
    let server = ServerProcess::start_with(&url, &quiet).await;
    let log = server.output();
    assert_eq!(
        logged(&log, "restored every unfinished match", "restored_matches").as_deref(),
        Some("1"),
        "{name:?}: the restarted server restores its match at start: {log}"
    );
    // Both players resume where they were, once.
    let mut a = Client::connect(server.addr, &alice.token).await;
    let mut b = Client::connect(server.addr, &bjorn.token).await;
    for c in [&mut a, &mut b] {
        let ack = c.ok(|id| watch(id, match_id, Some(last.seq))).await;
        assert!(ack.seq.is_some_and(|s| s.0 >= last.seq), "{ack:?}");
    }
    // And nothing sends them away again.
    let ten = Duration::from_secs(10);
    let (got_a, got_b) = tokio::join!(a.messages_for(ten), b.messages_for(ten));
    for (who, got) in [("alice", got_a), ("bjorn", got_b)] {
        let got = got.unwrap_or_else(|e| panic!("{who}'s socket was closed: {e}"));
        assert!(
            !got.iter()
                .any(|m| matches!(m, ServerMessage::Shutdown { .. })),
            "{who} was told to reconnect: {got:?}"
        );
    }
    let next = play(&mut a, match_id, 0, &moves[4]).await;
    assert!(next.seq > last.seq);
    // (At start the heartbeat may adopt the match before the restore does: one room either
    // way, before any socket follows it.)
    let health = get(server.addr, "/api/health").await;
    assert_eq!(health["owned_matches"], 1, "{name:?}: {health}");
    server.kill();
    lingering.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_postgres_server_restarted_after_a_kill_takes_its_matches_at_once() {
    tokio::join!(restarted_at_once(Some("club")), restarted_at_once(None));
}
