//! Reconnecting in the middle of a match: a client that resumes with `watch` and `since` gets
//! exactly the events it missed, in order, then live ones; a gap older than the server's resume
//! buffer gets a snapshot instead; seats that lose their last socket are announced, and their
//! opponents may claim the win once the grace period is over. Both storage backends.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{
    BACKENDS, Backend, Client, act, create, fresh_database, get, guest, join,
    short_copenhagen_game, start, two_guests, two_players, watch,
};
use protocol::{ClientMessage, ErrorCode, MatchEvent, MatchId, Seq, ServerMessage};
use serde_json::json;

/// Reads events up to and including `seq`; they must be numbered one by one from `from`.
async fn events_through(
    client: &mut Client,
    match_id: MatchId,
    from: u64,
    seq: u64,
) -> Vec<(u64, MatchEvent)> {
    let mut out = Vec::new();
    for s in from..=seq {
        out.push((s, client.expect_event(match_id, s).await));
    }
    out
}

fn seq_of(ack: &protocol::Ack) -> u64 {
    ack.seq.expect("the command caused an event").0
}

fn offer(match_id: MatchId, seat: u8) -> impl FnOnce(protocol::CommandId) -> ClientMessage {
    move |id| ClientMessage::OfferDraw { id, match_id, seat }
}

fn answer(
    match_id: MatchId,
    seat: u8,
    accept: bool,
) -> impl FnOnce(protocol::CommandId) -> ClientMessage {
    move |id| ClientMessage::AnswerDraw {
        id,
        match_id,
        seat,
        accept,
    }
}

/// `a` creates a Copenhagen match (seat 0) and `b` joins it (seat 1); `a` has read up to the
/// `started` event, checking that events are numbered as the protocol document numbers them.
async fn new_match(a: &mut Client, b: &mut Client, rated: bool) -> MatchId {
    let created = a
        .ok(|id| create(id, "tafl", "copenhagen", json!({"rated": rated})))
        .await;
    let match_id = created.match_id.unwrap();
    b.ok(|id| join(id, match_id)).await;
    // As the protocol document numbers them: the creator's seat, the joiner's seat, the start.
    match a.next_of(match_id).await {
        ServerMessage::Snapshot { seq, snapshot, .. } => {
            assert_eq!(seq.0, 1);
            // The creator's own seat is shown connected: its socket is the one reading this.
            assert!(snapshot.seats[0].connected && !snapshot.seats[1].connected);
        }
        other => panic!("expected the creator's snapshot, got {other:?}"),
    }
    assert!(matches!(
        a.expect_event(match_id, 2).await,
        MatchEvent::SeatTaken { seat: 1, .. }
    ));
    assert!(matches!(
        a.expect_event(match_id, 3).await,
        MatchEvent::Started { .. }
    ));
    match_id
}

/// The shortest recorded Copenhagen game that the rules end, its moves as plain `from-to`.
fn game() -> (Vec<String>, u8) {
    let (moves, winner) = short_copenhagen_game();
    let plain = moves
        .iter()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect();
    (plain, winner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_gets_exactly_the_missed_events_then_live_ones() {
    let (moves, winner) = game();
    assert!(moves.len() >= 6);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        // Alice plays on one socket and follows the match on another (a second tab).
        let (alice, bjorn, mut play, mut b) = two_guests(addr).await;
        let match_id = new_match(&mut play, &mut b, false).await;
        let mut tab = Client::connect(addr, &alice.token).await;
        let ack = tab.ok(|id| watch(id, match_id, None)).await;
        assert_eq!(ack.seats, vec![0]);
        assert!(
            matches!(tab.next_of(match_id).await, ServerMessage::Snapshot { seq, .. } if seq.0 == 3)
        );

        let first = seq_of(&play.ok(|id| act(id, match_id, 0, &moves[0])).await);
        assert_eq!(
            first, 4,
            "{backend:?}: the first move is event 4, as documented"
        );
        let last_seen = seq_of(&b.ok(|id| act(id, match_id, 1, &moves[1])).await);
        events_through(&mut tab, match_id, 4, last_seen).await;
        events_through(&mut play, match_id, 4, last_seen).await;
        tab.close().await;

        // While the tab is gone: moves on both sides, an offer declined, an offer standing.
        play.ok(|id| act(id, match_id, 0, &moves[2])).await;
        b.ok(offer(match_id, 1)).await;
        play.ok(answer(match_id, 0, false)).await;
        b.ok(|id| act(id, match_id, 1, &moves[3])).await;
        let now = seq_of(&play.ok(offer(match_id, 0)).await);
        assert_eq!(now, last_seen + 5, "{backend:?}");
        let missed = events_through(&mut play, match_id, last_seen + 1, now).await;
        let kinds: Vec<&str> = missed
            .iter()
            .map(|(_, e)| match e {
                MatchEvent::Acted { .. } => "acted",
                MatchEvent::DrawOffered { .. } => "draw_offered",
                MatchEvent::DrawDeclined { .. } => "draw_declined",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "acted",
                "draw_offered",
                "draw_declined",
                "acted",
                "draw_offered"
            ],
            "{backend:?}: Alice still had a socket, so nobody saw her leave: {missed:?}"
        );

        let mut tab = Client::connect(addr, &alice.token).await;
        let ack = tab.ok(|id| watch(id, match_id, Some(last_seen))).await;
        assert_eq!((ack.seats, ack.seq), (vec![0], Some(Seq(now))));
        // Exactly the missed events, numbered one by one, as the socket that stayed saw them.
        let replayed = events_through(&mut tab, match_id, last_seen + 1, now).await;
        assert_eq!(replayed, missed, "{backend:?}");

        // Then live events, with no duplicate and no gap, to the end of the game.
        let mut ended = now;
        for (i, mv) in moves.iter().enumerate().skip(4) {
            let (mover, seat) = if i % 2 == 0 {
                (&mut play, 0)
            } else {
                (&mut b, 1)
            };
            ended = seq_of(&mover.ok(|id| act(id, match_id, seat, mv)).await);
        }
        let live = events_through(&mut tab, match_id, now + 1, ended + 1).await;
        for (i, (_, event)) in live[..live.len() - 1].iter().enumerate() {
            let (mv, seat) = (&moves[4 + i], ((4 + i) % 2) as u8);
            assert!(
                matches!(event, MatchEvent::Acted { seat: s, action: Some(a), .. } if a == mv && *s == seat),
                "{backend:?}: {event:?}"
            );
        }
        match &live.last().unwrap().1 {
            MatchEvent::Finished { result } => {
                assert_eq!(result.places[usize::from(winner)], 0, "{backend:?}");
                assert_eq!(result.places[usize::from(1 - winner)], 1, "{backend:?}");
                assert!(result.ratings.is_empty(), "a casual match");
            }
            other => panic!("{backend:?}: expected finished, got {other:?}"),
        }
        // A resume from the very last event is a resume with nothing to send.
        let mut late = Client::connect(addr, &bjorn.token).await;
        let ack = late.ok(|id| watch(id, match_id, Some(ended + 1))).await;
        assert_eq!(ack.seq, Some(Seq(ended + 1)));
        // Anything the resume sent would reach the socket before the snapshot of a second watch.
        late.ok(|id| watch(id, match_id, None)).await;
        match late.next_of(match_id).await {
            ServerMessage::Snapshot { seq, snapshot, .. } => {
                assert_eq!(seq.0, ended + 1, "{backend:?}");
                assert_eq!(snapshot.actions.len(), moves.len());
                assert!(snapshot.result.is_some() && snapshot.to_act.is_empty());
            }
            other => panic!("{backend:?}: a resume with nothing missed sent {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gap_older_than_the_resume_buffer_gets_a_snapshot() {
    let (moves, _) = game();
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--resume-events", "4"]).await;
        let (alice, _, mut play, mut b) = two_guests(addr).await;
        let match_id = new_match(&mut play, &mut b, false).await;

        // Four missed events: the buffer still holds them all.
        let mut tab = Client::connect(addr, &alice.token).await;
        tab.ok(|id| watch(id, match_id, None)).await;
        let ServerMessage::Snapshot { seq, .. } = tab.next_of(match_id).await else {
            panic!("a fresh watch starts with a snapshot")
        };
        let seen = seq.0;
        tab.close().await;
        play.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        b.ok(offer(match_id, 1)).await;
        let now = seq_of(&play.ok(answer(match_id, 0, false)).await);
        assert_eq!(now, seen + 4);
        let mut tab = Client::connect(addr, &alice.token).await;
        tab.ok(|id| watch(id, match_id, Some(seen))).await;
        let replayed = events_through(&mut tab, match_id, seen + 1, now).await;
        assert!(matches!(
            replayed[3].1,
            MatchEvent::DrawDeclined { seat: 0 }
        ));
        tab.close().await;

        // Five: the oldest is gone, so the whole match comes as a snapshot.
        let seen = now;
        play.ok(offer(match_id, 0)).await;
        b.ok(answer(match_id, 1, false)).await;
        play.ok(|id| act(id, match_id, 0, &moves[2])).await;
        b.ok(offer(match_id, 1)).await;
        let now = seq_of(&play.ok(answer(match_id, 0, false)).await);
        assert_eq!(now, seen + 5);
        let mut tab = Client::connect(addr, &alice.token).await;
        let ack = tab.ok(|id| watch(id, match_id, Some(seen))).await;
        assert_eq!(ack.seq, Some(Seq(now)));
        match tab.next_of(match_id).await {
            ServerMessage::Snapshot { seq, snapshot, .. } => {
                assert_eq!(seq.0, now, "{backend:?}");
                let expected: Vec<Option<String>> = moves[..3].iter().cloned().map(Some).collect();
                assert_eq!(snapshot.actions, expected, "{backend:?}");
                assert_eq!(snapshot.to_act, vec![1]);
                assert_eq!(snapshot.your_seats, vec![0]);
                assert_eq!(snapshot.draw_offer, None);
            }
            other => panic!("{backend:?}: expected a snapshot, got {other:?}"),
        }
        // A since from before the match's first event is just as old.
        let mut spectator = Client::connect(addr, &guest(addr).await.token).await;
        spectator.ok(|id| watch(id, match_id, Some(0))).await;
        assert!(matches!(
            spectator.next_of(match_id).await,
            ServerMessage::Snapshot { seq, .. } if seq.0 == now
        ));
        // Live events go on from the snapshot.
        let next = seq_of(&b.ok(|id| act(id, match_id, 1, &moves[3])).await);
        assert_eq!(next, now + 1);
        assert!(matches!(
            tab.expect_event(match_id, now + 1).await,
            MatchEvent::Acted { seat: 1, .. }
        ));
        assert!(matches!(
            spectator.expect_event(match_id, now + 1).await,
            MatchEvent::Acted { seat: 1, .. }
        ));
    }
}

fn claim(match_id: MatchId, seat: u8) -> impl FnOnce(protocol::CommandId) -> ClientMessage {
    move |id| ClientMessage::ClaimWin { id, match_id, seat }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_stays_away_past_the_grace_period_loses_by_abandonment() {
    let (moves, _) = game();
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--disconnect-grace-secs", "1"],
        )
        .await;
        let (_, bjorn, mut a, mut b) = two_players(addr).await;
        let match_id = new_match(&mut a, &mut b, true).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        a.refused(ErrorCode::Conflict, claim(match_id, 0)).await;

        // Bjorn's only socket closes: everyone following is told, with the grace period.
        b.close().await;
        let (gone, event) = a
            .event_where(match_id, |e| matches!(e, MatchEvent::Disconnected { .. }))
            .await;
        assert_eq!(
            event,
            MatchEvent::Disconnected {
                seat: 1,
                claim_after_ms: 1000
            },
            "{backend:?}"
        );
        a.refused(ErrorCode::Conflict, claim(match_id, 0)).await;

        // He comes back in time: announced, and the claim is refused while he is here.
        let mut b = Client::connect(addr, &bjorn.token).await;
        let ack = b.ok(|id| watch(id, match_id, Some(gone))).await;
        assert_eq!(ack.seats, vec![1]);
        let (back, event) = a.event(match_id).await;
        assert_eq!(
            (back, event),
            (gone + 1, MatchEvent::Reconnected { seat: 1 })
        );
        assert_eq!(
            b.expect_event(match_id, gone + 1).await,
            MatchEvent::Reconnected { seat: 1 }
        );
        a.refused(ErrorCode::Conflict, claim(match_id, 0)).await;

        // He leaves again: too early at first, then the claim is good.
        b.close().await;
        let (_, event) = a.event(match_id).await;
        assert!(
            matches!(event, MatchEvent::Disconnected { seat: 1, .. }),
            "{event:?}"
        );
        a.refused(ErrorCode::Conflict, claim(match_id, 0)).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let ack = a.ok(claim(match_id, 0)).await;
        let (seq, event) = a.event(match_id).await;
        assert_eq!(Some(Seq(seq)), ack.seq);
        let MatchEvent::Finished { result } = event else {
            panic!("{backend:?}: expected finished, got {event:?}")
        };
        assert_eq!(result.reason, "abandoned", "{backend:?}");
        assert_eq!(result.places, vec![0, 1]);
        assert_eq!(result.ratings.len(), 2, "{backend:?}: rated");
        let alice_change = result.ratings.iter().find(|r| r.seat == 0).unwrap();
        assert_eq!((alice_change.before, alice_change.after), (1500.0, 1520.0));
        a.refused(ErrorCode::GameOver, claim(match_id, 0)).await;
        check_one_rated_game(addr, match_id, backend).await;
    }
}

/// The match has one pair of rating changes and each player one rated game.
async fn check_one_rated_game(addr: SocketAddr, match_id: MatchId, backend: Backend) {
    let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
    assert_eq!(record["summary"]["status"], "finished", "{backend:?}");
    assert_eq!(
        record["summary"]["result"]["ratings"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
    let games: Vec<_> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, vec![1, 1], "{backend:?}");
}
