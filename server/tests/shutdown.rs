//! Graceful shutdown: the real server binary gets SIGTERM in the middle of a rated, timed match,
//! with a move in flight. Every socket must get `shutdown` and then a close frame with code 1012,
//! the process must exit 0 by itself, and a new process on the same database must resume the
//! match at the same position with every acknowledged move (and the move in flight exactly when
//! it was acknowledged). Both storage backends.

mod common;

use std::time::Instant;

use common::process::ServerProcess;
use common::{BACKENDS, Client, PATIENCE, act, corpus_game, fresh_database, rated_match, watch};
use protocol::{CommandId, MatchId, MatchSnapshot, ServerMessage};

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
