//! Commands that race each other in one match: simultaneous moves, a resignation against the
//! final move, clocks running out, draw offers and aborts. Whatever the order the room takes them
//! in, a match ends with exactly one result and at most one rating update. Both storage backends.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{
    BACKENDS, Backend, Client, act, copenhagen_match, corpus_game, create, fresh_database, get,
    guest, join, new_player, short_copenhagen_game, start, two_players, watch,
};
use protocol::{
    Ack, ClientMessage, CommandId, ErrorCode, MatchEvent, MatchId, MatchResult, MatchSnapshot,
    ServerMessage, Session,
};
use serde_json::{Value, json};

/// A fresh `watch` on this socket: the snapshot and its seq (events still on their way before
/// it are skipped).
async fn snapshot(client: &mut Client, match_id: MatchId) -> (u64, MatchSnapshot) {
    client.ok(|id| watch(id, match_id, None)).await;
    loop {
        if let ServerMessage::Snapshot { seq, snapshot, .. } = client.next_of(match_id).await {
            return (seq.0, snapshot);
        }
    }
}

fn seq_of(ack: &Ack) -> u64 {
    ack.seq.expect("the command caused an event").0
}

/// A Copenhagen match created by `a` (seat 0) with these options and joined by `b` (seat 1);
/// both have read up to the start.
async fn new_match(a: &mut Client, b: &mut Client, options: Value) -> MatchId {
    let match_id = copenhagen_match(a, b, options).await;
    // The joiner follows the match from a snapshot taken after the start.
    assert!(matches!(
        b.next_of(match_id).await,
        ServerMessage::Snapshot { snapshot, .. } if !snapshot.to_act.is_empty()
    ));
    match_id
}

fn resign(match_id: MatchId, seat: u8) -> impl FnOnce(CommandId) -> ClientMessage {
    move |id| ClientMessage::Resign { id, match_id, seat }
}

fn offer(match_id: MatchId, seat: u8) -> impl FnOnce(CommandId) -> ClientMessage {
    move |id| ClientMessage::OfferDraw { id, match_id, seat }
}

fn answer(match_id: MatchId, seat: u8, accept: bool) -> impl FnOnce(CommandId) -> ClientMessage {
    move |id| ClientMessage::AnswerDraw {
        id,
        match_id,
        seat,
        accept,
    }
}

fn abort(match_id: MatchId, seat: u8) -> impl FnOnce(CommandId) -> ClientMessage {
    move |id| ClientMessage::Abort { id, match_id, seat }
}

async fn finished(client: &mut Client, match_id: MatchId) -> (u64, MatchResult) {
    let (seq, event) = client
        .event_where(match_id, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
    let MatchEvent::Finished { result } = event else {
        unreachable!()
    };
    (seq, result)
}

/// Games played in the Copenhagen pool, by player id.
async fn games(addr: SocketAddr, who: &[&Session]) -> Vec<u64> {
    let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
    let entries = board["entries"].as_array().unwrap().clone();
    who.iter()
        .map(|s| {
            entries
                .iter()
                .find(|e| e["player"]["id"] == s.player.id.0)
                .map_or(0, |e| e["games"].as_u64().unwrap())
        })
        .collect()
}

/// The rating changes stored for a match (`rating_changes` rows, through the match record).
async fn stored_ratings(addr: SocketAddr, match_id: MatchId) -> (String, Vec<Value>) {
    let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
    let status = record["summary"]["status"].as_str().unwrap().to_string();
    let ratings = record["summary"]["result"]["ratings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (status, ratings)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_moves_are_taken_one_at_a_time() {
    let (moves, _) = corpus_game(30);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;
        let match_id = new_match(&mut a, &mut b, json!({})).await;
        let mut spectator = Client::connect(addr, &guest(addr).await.token).await;
        let (mut seen, _) = snapshot(&mut spectator, match_id).await;
        let mut played = 0;
        let mut accepted: Vec<(u8, String)> = Vec::new();
        let (mut second_refused, mut second_accepted) = (0, 0);

        // Both seats at once: the seat to act plays its move; the other plays the move that
        // would answer it. Whichever the room takes first, the mover's move is accepted. The
        // other is refused with not_your_turn if it came first, and accepted right after the
        // mover's (the next seq) if it came second, since it is then its turn and its move legal.
        while played + 2 < moves.len() - 8 {
            let x = (played % 2) as u8;
            let (cx, cy) = if x == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let (rx, ry) = tokio::join!(
                cx.request(|id| act(id, match_id, x, &moves[played])),
                cy.request(|id| act(id, match_id, 1 - x, &moves[played + 1])),
            );
            let ServerMessage::Ack { ack, .. } = rx else {
                panic!("{backend:?}: the seat to act was refused: {rx:?}")
            };
            accepted.push((x, moves[played].clone()));
            match ry {
                ServerMessage::Error { error, .. } if error.code == ErrorCode::NotYourTurn => {
                    second_refused += 1;
                    played += 1;
                }
                ServerMessage::Ack { ack: other, .. } => {
                    assert_eq!(seq_of(&other), seq_of(&ack) + 1, "{backend:?}");
                    second_accepted += 1;
                    accepted.push((1 - x, moves[played + 1].clone()));
                    played += 2;
                }
                other => panic!("{backend:?}: {other:?}"),
            }
        }

        // One seat from two sockets at once (two tabs, or a double click): one move is
        // accepted, the other finds the turn gone.
        let mut a2 = Client::connect(addr, &alice.token).await;
        let mut b2 = Client::connect(addr, &bjorn.token).await;
        while played + 1 < moves.len() {
            let x = (played % 2) as u8;
            let (c1, c2) = if x == 0 {
                (&mut a, &mut a2)
            } else {
                (&mut b, &mut b2)
            };
            let mv = &moves[played];
            let (r1, r2) = tokio::join!(
                c1.request(|id| act(id, match_id, x, mv)),
                c2.request(|id| act(id, match_id, x, mv)),
            );
            let outcomes = [&r1, &r2].map(|r| match r {
                ServerMessage::Ack { .. } => Ok(()),
                ServerMessage::Error { error, .. } => Err(error.code),
                other => panic!("{other:?}"),
            });
            assert!(
                outcomes == [Ok(()), Err(ErrorCode::NotYourTurn)]
                    || outcomes == [Err(ErrorCode::NotYourTurn), Ok(())],
                "{backend:?}: {outcomes:?}"
            );
            accepted.push((x, mv.clone()));
            played += 1;
        }
        eprintln!(
            "{backend:?}: the other seat's move was refused {second_refused} times, \
             accepted {second_accepted} times"
        );

        // A spectator saw exactly the accepted moves, one event each, numbered without gaps.
        for (seat, mv) in &accepted {
            seen += 1;
            match spectator.expect_event(match_id, seen).await {
                MatchEvent::Acted {
                    seat: s, action, ..
                } => assert_eq!((s, action.as_ref()), (*seat, Some(mv)), "{backend:?}"),
                other => panic!("{backend:?}: expected acted, got {other:?}"),
            }
        }
        let (seq, snap) = snapshot(&mut spectator, match_id).await;
        assert_eq!(seq, seen, "{backend:?}: no other event");
        let expected: Vec<Option<String>> = moves[..played].iter().cloned().map(Some).collect();
        assert_eq!(snap.actions, expected, "{backend:?}");
        assert_eq!(snap.to_act, vec![(played % 2) as u8]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_racing_the_final_move_ends_the_match_once() {
    let (moves, winner) = short_copenhagen_game();
    let moves: Vec<String> = moves
        .iter()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect();
    let loser = 1 - winner;
    let last = moves.len() - 1;
    assert_eq!(
        last % 2,
        usize::from(winner),
        "the winner makes the final move"
    );
    const MATCHES: u64 = 20;
    for backend in BACKENDS {
        // The same two play all 20 rated: the daily limit between two accounts is lifted.
        let addr = start(
            &fresh_database(backend).await,
            &["--rated-games-per-pair", "1000"],
        )
        .await;
        let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
        let (mut by_move, mut by_resignation) = (0, 0);
        let mut ratings_before = [1500.0, 1500.0];
        for n in 1..=MATCHES {
            // Fresh sockets for each match keep every socket far below the rate limit.
            let mut a = Client::connect(addr, &alice.token).await;
            let mut b = Client::connect(addr, &bjorn.token).await;
            let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
            for (i, mv) in moves[..last].iter().enumerate() {
                let (mover, seat) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
                mover.ok(|id| act(id, match_id, seat, mv)).await;
            }
            let (w, l) = if winner == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let (rw, rl) = tokio::join!(
                w.request(|id| act(id, match_id, winner, &moves[last])),
                l.request(resign(match_id, loser)),
            );
            let (finished_seq, by_rules) = match (&rw, &rl) {
                (ServerMessage::Ack { ack, .. }, ServerMessage::Error { error, .. })
                    if error.code == ErrorCode::GameOver =>
                {
                    by_move += 1;
                    (seq_of(ack) + 1, true)
                }
                (ServerMessage::Error { error, .. }, ServerMessage::Ack { ack, .. })
                    if error.code == ErrorCode::GameOver =>
                {
                    by_resignation += 1;
                    (seq_of(ack), false)
                }
                other => panic!("{backend:?}: exactly one must be carried out: {other:?}"),
            };

            let mut results = Vec::new();
            for client in [&mut a, &mut b] {
                let (seq, result) = finished(client, match_id).await;
                results.push(result.clone());
                assert_eq!(seq, finished_seq, "{backend:?} match {n}");
                assert_eq!(result.places[usize::from(winner)], 0, "{backend:?}");
                assert_eq!(result.places[usize::from(loser)], 1, "{backend:?}");
                if by_rules {
                    assert!(!["resigned", "timeout"].contains(&result.reason.as_str()));
                } else {
                    assert_eq!(result.reason, "resigned", "{backend:?}");
                }
                assert_eq!(result.ratings.len(), 2, "{backend:?}");
                for change in &result.ratings {
                    let s = usize::from(change.seat);
                    assert_eq!(change.before, ratings_before[s], "{backend:?} match {n}");
                    assert_eq!(change.after > change.before, change.seat == winner);
                }
            }
            assert_eq!(
                results[0], results[1],
                "{backend:?}: one result for everyone"
            );
            // Nothing after the one `finished`: a fresh snapshot is as of that event.
            let (seq, snap) = snapshot(&mut a, match_id).await;
            assert_eq!(
                seq, finished_seq,
                "{backend:?} match {n}: an event after finished"
            );
            assert_eq!(snap.result.as_ref(), Some(&results[0]), "{backend:?}");
            for change in &results[0].ratings {
                ratings_before[usize::from(change.seat)] = change.after;
            }
            let (status, stored) = stored_ratings(addr, match_id).await;
            assert_eq!(status, "finished");
            assert_eq!(
                stored.len(),
                2,
                "{backend:?}: one pair of rating_changes rows"
            );
            assert_eq!(
                games(addr, &[&alice, &bjorn]).await,
                vec![n, n],
                "{backend:?}: one rated game each per match"
            );
            a.close().await;
            b.close().await;
        }
        eprintln!(
            "{backend:?}: {by_move} matches ended by the final move, {by_resignation} by the \
             resignation"
        );
    }
}

/// One player in many rated matches whose opponents all resign at once: every result is
/// recorded, and each of the player's rating changes starts from the rating the one before it
/// ended on, so no update is lost to another finishing at the same moment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_results_that_finish_together_lose_no_rating_update() {
    const MATCHES: usize = 8;
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let hub = new_player(addr).await;
        let mut h = Client::connect(addr, &hub.token).await;
        let mut opponents = Vec::new();
        for _ in 0..MATCHES {
            let mut o = Client::connect(addr, &new_player(addr).await.token).await;
            let match_id = new_match(&mut h, &mut o, json!({"rated": true})).await;
            // Both move: a resignation before that would call the match off, unrated.
            h.ok(|id| act(id, match_id, 0, "d1-d3")).await;
            o.ok(|id| act(id, match_id, 1, "f4-c4")).await;
            opponents.push((o, match_id));
        }
        let resigned = futures_util::future::join_all(
            opponents
                .iter_mut()
                .map(|(o, match_id)| o.request(resign(*match_id, 1))),
        )
        .await;
        for answer in resigned {
            assert!(
                matches!(answer, ServerMessage::Ack { .. }),
                "{backend:?}: {answer:?}"
            );
        }
        for (o, match_id) in &mut opponents {
            let (_, result) = finished(o, *match_id).await;
            assert_eq!(result.places, [0, 1], "{backend:?}");
            assert_eq!(result.ratings.len(), 2, "{backend:?}: a rated result");
        }

        let profile = get(addr, &format!("/api/players/{}", hub.player.id.0)).await;
        let rating = &profile["ratings"][0];
        assert_eq!(rating["games"], MATCHES, "{backend:?}: {profile}");
        // Every change is a win, so in rating order they form one chain from the start.
        let mut history: Vec<(f64, f64)> = profile["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["before"].as_f64().unwrap(), h["after"].as_f64().unwrap()))
            .collect();
        assert_eq!(history.len(), MATCHES, "{backend:?}");
        history.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut expected_before = 1500.0;
        for (before, after) in &history {
            assert_eq!(*before, expected_before, "{backend:?}: {history:?}");
            assert!(after > before, "{backend:?}: a win raises the rating");
            expected_before = *after;
        }
        assert_eq!(
            rating["rating"].as_f64(),
            Some(expected_before),
            "{backend:?}"
        );
    }
}

/// Takes the table of rating changes away from the running server, so that no rated result can
/// be stored, or gives it back.
async fn rated_results_storable(url: &str, storable: bool) {
    table_storable(url, RATING_CHANGES, storable).await;
}

/// How a table is renamed away and back: while it is away, nothing can be stored in it.
type Renames = [&'static str; 2];

const RATING_CHANGES: Renames = [
    "ALTER TABLE rating_changes RENAME TO rating_changes_away",
    "ALTER TABLE rating_changes_away RENAME TO rating_changes",
];

const MATCH_ACTIONS: Renames = [
    "ALTER TABLE match_actions RENAME TO match_actions_away",
    "ALTER TABLE match_actions_away RENAME TO match_actions",
];

async fn table_storable(url: &str, [away, back]: Renames, storable: bool) {
    common::alter_database(url, if storable { back } else { away }, &[]).await;
}

/// A result that cannot be stored did not happen: the resignation gets an error and the match
/// goes on; once the database takes results again, a resignation ends it, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_whose_result_cannot_be_stored_is_refused() {
    let (moves, _) = short_copenhagen_game();
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
        // Both move: a resignation before that would call the match off, with nothing to rate.
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        rated_results_storable(&url, false).await;
        b.refused(ErrorCode::Internal, resign(match_id, 1)).await;
        let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
        assert_eq!(record["summary"]["status"], "live", "{backend:?}");
        a.ok(|id| act(id, match_id, 0, &moves[2])).await;

        rated_results_storable(&url, true).await;
        b.ok(resign(match_id, 1)).await;
        let (_, result) = finished(&mut b, match_id).await;
        assert_eq!(result.places, [0, 1], "{backend:?}");
        assert_eq!(result.ratings.len(), 2, "{backend:?}");
        let (status, ratings) = stored_ratings(addr, match_id).await;
        assert_eq!(
            (status.as_str(), ratings.len()),
            ("finished", 2),
            "{backend:?}"
        );
        b.refused(ErrorCode::GameOver, resign(match_id, 1)).await;
    }
}

/// A move that cannot be stored did not happen, though its room went on from it while it was
/// being written: its mover is refused, nobody is sent its event, the draw offer it would have
/// made lapse still stands, and its command's id is free for the move once the database takes
/// it again, which then gets the next event's number.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_cannot_be_stored_did_not_happen() {
    let (moves, _) = short_copenhagen_game();
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let match_id = new_match(&mut a, &mut b, json!({})).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        let offered = seq_of(&b.ok(offer(match_id, 1)).await);
        a.event_at(match_id, offered).await;

        table_storable(&url, MATCH_ACTIONS, false).await;
        let id = CommandId(format!("third-move-{backend:?}"));
        a.send(&act(id.clone(), match_id, 0, &moves[2])).await;
        match a.answer(&id).await {
            ServerMessage::Error { error, .. } => {
                assert_eq!(error.code, ErrorCode::Internal, "{backend:?}")
            }
            other => panic!("{backend:?}: expected the move refused, got {other:?}"),
        }
        let (seq, seen) = snapshot(&mut b, match_id).await;
        assert_eq!(seq, offered, "{backend:?}: no event after the offer");
        assert_eq!(seen.actions.len(), 2, "{backend:?}");
        assert_eq!(seen.draw_offer, Some(1), "{backend:?}: the offer stands");
        assert_eq!(seen.to_act, vec![0], "{backend:?}");

        table_storable(&url, MATCH_ACTIONS, true).await;
        a.send(&act(id.clone(), match_id, 0, &moves[2])).await;
        match a.answer(&id).await {
            ServerMessage::Ack { ack, .. } => assert_eq!(seq_of(&ack), offered + 1, "{backend:?}"),
            other => panic!("{backend:?}: expected the move played, got {other:?}"),
        }
        let (seq, event) = b.event(match_id).await;
        assert_eq!(seq, offered + 1, "{backend:?}");
        assert!(
            matches!(&event, MatchEvent::Acted { seat: 0, action: Some(played), .. } if *played == moves[2]),
            "{backend:?}: {event:?}"
        );
        let (_, seen) = snapshot(&mut b, match_id).await;
        assert_eq!(seen.actions.len(), 3, "{backend:?}");
        assert_eq!(
            seen.draw_offer, None,
            "{backend:?}: the move made the offer lapse"
        );
        b.ok(|id| act(id, match_id, 1, &moves[3])).await;
    }
}

/// The final move of a game while its result cannot be stored: the move is acknowledged, the
/// loser cannot resign in the result's place, and the result by the rules is stored once the
/// database takes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_final_move_whose_result_cannot_be_stored_keeps_its_result() {
    let (moves, winner) = short_copenhagen_game();
    let loser = 1 - winner;
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
        let (last, before_last) = moves.split_last().unwrap();
        for (i, mv) in before_last.iter().enumerate() {
            let (mover, seat) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
            mover.ok(|id| act(id, match_id, seat, mv)).await;
        }
        rated_results_storable(&url, false).await;
        let (w, l) = if winner == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        w.ok(|id| act(id, match_id, winner, last)).await;
        l.refused(ErrorCode::GameOver, resign(match_id, loser))
            .await;

        rated_results_storable(&url, true).await;
        let (_, result) = finished(l, match_id).await;
        assert_eq!(result.places[usize::from(winner)], 0, "{backend:?}");
        assert_ne!(result.reason, "resigned", "{backend:?}");
        let (status, ratings) = stored_ratings(addr, match_id).await;
        assert_eq!(
            (status.as_str(), ratings.len()),
            ("finished", 2),
            "{backend:?}"
        );
    }
}

/// How many results the server's process has tried to store so far (the `finish_match` count of
/// its database histogram; every server of this test binary adds to it).
async fn result_writes(addr: SocketAddr) -> u64 {
    let text = common::get_text(addr, "/metrics").await;
    text.lines()
        .find_map(|line| line.strip_prefix("tafl_db_seconds_count{op=\"finish_match\"} "))
        .map_or(0, |n| n.parse().unwrap())
}

/// A flag that falls while results cannot be stored: the match goes on, the room tries again
/// about once a second rather than as fast as the database fails, and the result is stored
/// once it can be.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fallen_flag_whose_result_cannot_be_stored_is_retried_at_a_pace() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        rated_results_storable(&url, false).await;
        let clock = json!({"rated": true, "clock": {"base_ms": 600, "increment_ms": 0}});
        let match_id = new_match(&mut a, &mut b, clock).await;
        // Both move (a flag before that calls the match off); then seat 0's time runs out.
        a.ok(|id| act(id, match_id, 0, "d1-d3")).await;
        b.ok(|id| act(id, match_id, 1, "f4-c4")).await;
        let before = result_writes(addr).await;
        // The flag falls 600 ms on; on a loaded machine its first try may come later.
        let deadline = Instant::now() + Duration::from_secs(10);
        while result_writes(addr).await == before {
            assert!(
                Instant::now() < deadline,
                "{backend:?}: the fallen flag's result was never tried"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(1800)).await;
        let tries = result_writes(addr).await - before;
        // One at the flag and about one a second after it; the other tests of this binary,
        // running beside this one, store a few dozen results at most meanwhile.
        assert!(
            (1..200).contains(&tries),
            "{backend:?}: {tries} tries to store the result"
        );
        let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
        assert_eq!(record["summary"]["status"], "live", "{backend:?}");

        rated_results_storable(&url, true).await;
        let (_, result) = finished(&mut a, match_id).await;
        assert_eq!(
            (result.reason.as_str(), result.places.as_slice()),
            ("timeout", &[1, 0][..]),
            "{backend:?}"
        );
        let (status, ratings) = stored_ratings(addr, match_id).await;
        assert_eq!(
            (status.as_str(), ratings.len()),
            ("finished", 2),
            "{backend:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flag_falls_server_side_and_ends_the_match_once() {
    let (moves, _) = corpus_game(4);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;

        // Both move once (a flag before that calls the match off, fair_play.rs), then seat 0
        // runs out of time.
        let clock = json!({"rated": true, "clock": {"base_ms": 1000, "increment_ms": 0}});
        let match_id = a
            .ok(|id| create(id, "tafl", "copenhagen", clock))
            .await
            .match_id
            .unwrap();
        let joining = Instant::now();
        b.ok(|id| join(id, match_id)).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        let (seq, result) = finished(&mut a, match_id).await;
        let waited = joining.elapsed();
        assert!(
            waited >= Duration::from_millis(1000),
            "{backend:?}: the flag fell after {waited:?}"
        );
        assert_eq!(result.reason, "timeout", "{backend:?}");
        assert_eq!(
            result.places,
            vec![1, 0],
            "{backend:?}: seat 0 lost on time"
        );
        assert_eq!(result.ratings.len(), 2);
        assert_eq!(finished(&mut b, match_id).await, (seq, result.clone()));
        a.refused(ErrorCode::GameOver, |id| act(id, match_id, 0, &moves[2]))
            .await;
        b.refused(ErrorCode::GameOver, resign(match_id, 1)).await;
        let (snap_seq, snap) = snapshot(&mut a, match_id).await;
        assert_eq!((snap_seq, snap.result), (seq, Some(result)), "{backend:?}");
        let (status, stored) = stored_ratings(addr, match_id).await;
        assert_eq!((status.as_str(), stored.len()), ("finished", 2));
        assert_eq!(games(addr, &[&alice, &bjorn]).await, vec![1, 1]);

        // Seat 0 moves at once (it has 2 s), seat 1 too, seat 0 again; seat 1 then runs out
        // of time.
        let clock = json!({"rated": true, "clock": {"base_ms": 2000, "increment_ms": 0}});
        let match_id = new_match(&mut a, &mut b, clock).await;
        let ack = a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        match a.event_at(match_id, seq_of(&ack)).await {
            MatchEvent::Acted { clocks_ms, .. } => {
                let clocks = clocks_ms.unwrap();
                assert!(clocks[0] <= 2000 && clocks[1] == 2000, "{clocks:?}");
            }
            other => panic!("{other:?}"),
        }
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        a.ok(|id| act(id, match_id, 0, &moves[2])).await;
        let (_, result) = finished(&mut a, match_id).await;
        assert_eq!(result.reason, "timeout", "{backend:?}");
        assert_eq!(
            result.places,
            vec![0, 1],
            "{backend:?}: seat 1 lost on time"
        );
        b.refused(ErrorCode::GameOver, |id| act(id, match_id, 1, &moves[3]))
            .await;
        assert_eq!(games(addr, &[&alice, &bjorn]).await, vec![2, 2]);
        let (_, stored) = stored_ratings(addr, match_id).await;
        assert_eq!(stored.len(), 2, "{backend:?}");
    }
}

/// A Fischer clock starts with its seat's first move, as lichess's do: the time before that move
/// is not charged, however long the player looks at the board (within the first-move time).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_starts_with_its_seats_first_move() {
    let (moves, _) = corpus_game(3);
    const BASE: u64 = 60_000;
    const INCREMENT: u64 = 1_000;
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (_, _, mut a, mut b) = two_players(addr).await;
    let clock = json!({"clock": {"base_ms": BASE, "increment_ms": INCREMENT}});
    let match_id = a
        .ok(|id| create(id, "tafl", "copenhagen", clock))
        .await
        .match_id
        .unwrap();
    b.ok(|id| join(id, match_id)).await;
    let mut clocks = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let seat = i % 2;
        let mover = if seat == 0 { &mut a } else { &mut b };
        // Each side looks at the board a while before its move.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let ack = mover.ok(|id| act(id, match_id, seat as u8, mv)).await;
        let MatchEvent::Acted { clocks_ms, .. } = mover.event_at(match_id, seq_of(&ack)).await
        else {
            panic!("expected acted")
        };
        clocks.push(clocks_ms.unwrap());
    }
    assert_eq!(
        clocks[0],
        [BASE, BASE],
        "the attackers' first move costs nothing"
    );
    assert_eq!(
        clocks[1],
        [BASE, BASE],
        "the defenders' first move costs nothing"
    );
    // From their second move on, the attackers' clock runs, and gains the increment.
    let left = clocks[2][0];
    assert!(
        left <= BASE + INCREMENT - 400,
        "the attackers' second move: {left} ms left"
    );
    assert_eq!(clocks[2][1], BASE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_for_the_seat_to_act_and_gain_the_increment() {
    let (moves, _) = corpus_game(6);
    const BASE: u64 = 5_000;
    const INCREMENT: u64 = 100;
    const THINK: Duration = Duration::from_millis(150);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let clock = json!({"clock": {"base_ms": BASE, "increment_ms": INCREMENT}});
        let match_id = a
            .ok(|id| create(id, "tafl", "copenhagen", clock))
            .await
            .match_id
            .unwrap();
        // The first seat's clock starts at the latest when the join is answered.
        let mut since_prev = Instant::now();
        b.ok(|id| join(id, match_id)).await;
        let (_, started) = a
            .event_where(match_id, |e| matches!(e, MatchEvent::Started { .. }))
            .await;
        let mut clocks = match started {
            MatchEvent::Started {
                to_act,
                clocks_ms,
                first_move_ms,
            } => {
                assert_eq!(to_act, vec![0]);
                // The whole clock for the first move, being shorter than the first-move time.
                assert_eq!(first_move_ms, Some(vec![Some(BASE), Some(BASE)]));
                clocks_ms.expect("a timed match starts with clocks")
            }
            _ => unreachable!(),
        };
        assert_eq!(clocks, vec![BASE, BASE]);

        for (i, mv) in moves.iter().enumerate().take(4) {
            let seat = i % 2;
            let mover = if seat == 0 { &mut a } else { &mut b };
            tokio::time::sleep(THINK).await;
            // This seat's clock started after `since_prev` (when the previous move was sent),
            // and stops before the ack arrives.
            let sent = Instant::now();
            let ack = mover.ok(|id| act(id, match_id, seat as u8, mv)).await;
            let used_at_most = since_prev.elapsed().as_millis() as u64;
            since_prev = sent;
            let MatchEvent::Acted { clocks_ms, .. } = mover.event_at(match_id, seq_of(&ack)).await
            else {
                panic!("expected acted")
            };
            let now = clocks_ms.expect("acted carries clocks in a timed match");
            if i < 2 {
                // A seat's first move starts its clock: no time off, no increment.
                assert_eq!(now, clocks, "{backend:?} move {i}: a first move");
                continue;
            }
            let think = THINK.as_millis() as u64;
            assert!(
                now[seat] <= clocks[seat] + INCREMENT - think
                    && now[seat] + used_at_most >= clocks[seat] + INCREMENT,
                "{backend:?} move {i}: {} ms before, {} ms after, {used_at_most} ms used at most",
                clocks[seat],
                now[seat]
            );
            assert!(
                now[seat] < clocks[seat],
                "thinking longer than the increment costs time"
            );
            assert_eq!(
                now[1 - seat],
                clocks[1 - seat],
                "{backend:?}: the waiting seat's clock did not run"
            );
            clocks = now;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_are_offered_declined_lapsed_and_agreed() {
    let (moves, _) = corpus_game(6);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;

        // Alice wins a first match, so the ratings differ: 1520 against 1480.
        let first = new_match(&mut a, &mut b, json!({"rated": true})).await;
        a.ok(|id| act(id, first, 0, &moves[0])).await;
        b.ok(|id| act(id, first, 1, &moves[1])).await;
        b.ok(resign(first, 1)).await;
        let (_, result) = finished(&mut a, first).await;
        assert_eq!(
            (result.reason.as_str(), result.places),
            ("resigned", vec![0, 1])
        );

        let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
        let mut spectator = Client::connect(addr, &guest(addr).await.token).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;

        // An offer, a second one refused, the offerer cannot answer its own, a decline.
        let offered = seq_of(&b.ok(offer(match_id, 1)).await);
        assert_eq!(
            a.event_at(match_id, offered).await,
            MatchEvent::DrawOffered { seat: 1 }
        );
        assert_eq!(
            snapshot(&mut spectator, match_id).await.1.draw_offer,
            Some(1)
        );
        a.refused(ErrorCode::Conflict, offer(match_id, 0)).await;
        b.refused(ErrorCode::Conflict, answer(match_id, 1, true))
            .await;
        let declined = seq_of(&a.ok(answer(match_id, 0, false)).await);
        assert_eq!(declined, offered + 1, "{backend:?}");
        assert_eq!(
            b.event_at(match_id, declined).await,
            MatchEvent::DrawDeclined { seat: 0 }
        );
        assert_eq!(snapshot(&mut spectator, match_id).await.1.draw_offer, None);
        a.refused(ErrorCode::Conflict, answer(match_id, 0, true))
            .await;

        // An offer lapses when the other seat moves instead of answering.
        a.ok(offer(match_id, 0)).await;
        a.ok(|id| act(id, match_id, 0, &moves[2])).await;
        assert_eq!(
            snapshot(&mut spectator, match_id).await.1.draw_offer,
            Some(0)
        );
        b.ok(|id| act(id, match_id, 1, &moves[3])).await;
        assert_eq!(snapshot(&mut spectator, match_id).await.1.draw_offer, None);
        b.refused(ErrorCode::Conflict, answer(match_id, 1, true))
            .await;

        // Offered and accepted: a draw, and the ratings move towards each other.
        b.ok(offer(match_id, 1)).await;
        let ack = a.ok(answer(match_id, 0, true)).await;
        let (seq, result) = finished(&mut b, match_id).await;
        assert_eq!(Some(seq), ack.seq.map(|s| s.0), "{backend:?}");
        assert_eq!(result.reason, "draw_agreed", "{backend:?}");
        assert_eq!(result.places, vec![0, 0]);
        let [alice_change, bjorn_change] = [0, 1].map(|seat| {
            result
                .ratings
                .iter()
                .find(|r| r.seat == seat)
                .cloned()
                .expect("both seats are rated")
        });
        assert_eq!((alice_change.before, bjorn_change.before), (1520.0, 1480.0));
        assert!(alice_change.after < alice_change.before, "{result:?}");
        assert!(bjorn_change.after > bjorn_change.before, "{result:?}");
        assert!(alice_change.after > bjorn_change.after, "{result:?}");
        a.refused(ErrorCode::GameOver, offer(match_id, 0)).await;
        b.refused(ErrorCode::GameOver, answer(match_id, 1, true))
            .await;
        assert_eq!(games(addr, &[&alice, &bjorn]).await, vec![2, 2]);
        let (_, stored) = stored_ratings(addr, match_id).await;
        assert_eq!(stored.len(), 2, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_can_be_aborted_until_every_seat_has_moved() {
    let (moves, _) = corpus_game(6);
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;

        // Alice has moved, Bjorn not yet: he may call the rated match off.
        let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        let ack = b.ok(abort(match_id, 1)).await;
        let ended = seq_of(&ack);
        assert_eq!(
            a.event_at(match_id, ended - 1).await,
            MatchEvent::Aborted { seat: 1 },
            "{backend:?}"
        );
        match a.event_at(match_id, ended).await {
            MatchEvent::Finished { result } => {
                assert_eq!(result.reason, "aborted", "{backend:?}");
                assert_eq!(result.places, vec![0, 0]);
                assert!(result.ratings.is_empty(), "{backend:?}: {result:?}");
            }
            other => panic!("{backend:?}: expected finished, got {other:?}"),
        }
        b.refused(ErrorCode::GameOver, |id| act(id, match_id, 1, &moves[1]))
            .await;
        a.refused(ErrorCode::GameOver, abort(match_id, 0)).await;
        let (status, stored) = stored_ratings(addr, match_id).await;
        assert_eq!(
            (status.as_str(), stored.len()),
            ("aborted", 0),
            "{backend:?}"
        );
        let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
        assert_eq!(
            record["summary"]["result"],
            json!({"places": [0, 0], "reason": "aborted"}),
            "{backend:?}: an aborted match has its result, as documented"
        );
        let (seq, snap) = snapshot(&mut a, match_id).await;
        assert_eq!(seq, ended, "{backend:?}: nothing after finished");
        assert_eq!(snap.result.map(|r| r.reason).as_deref(), Some("aborted"));

        // Nobody has joined yet: the creator may call it off.
        let waiting = a
            .ok(|id| create(id, "tafl", "copenhagen", json!({"rated": true})))
            .await
            .match_id
            .unwrap();
        let ended = seq_of(&a.ok(abort(waiting, 0)).await);
        assert!(matches!(
            a.event_at(waiting, ended).await,
            MatchEvent::Finished { result } if result.reason == "aborted"
        ));
        b.refused(ErrorCode::Conflict, |id| join(id, waiting)).await;
        assert_eq!(stored_ratings(addr, waiting).await.0, "aborted");

        // Both have moved: too late to abort, for either; the match goes on.
        let match_id = new_match(&mut a, &mut b, json!({"rated": true})).await;
        a.ok(|id| act(id, match_id, 0, &moves[0])).await;
        b.ok(|id| act(id, match_id, 1, &moves[1])).await;
        a.refused(ErrorCode::Conflict, abort(match_id, 0)).await;
        b.refused(ErrorCode::Conflict, abort(match_id, 1)).await;
        a.ok(|id| act(id, match_id, 0, &moves[2])).await;

        // The aborted matches rated nobody; this one, resigned, rates both once.
        assert_eq!(games(addr, &[&alice, &bjorn]).await, vec![0, 0]);
        b.ok(resign(match_id, 1)).await;
        let (_, result) = finished(&mut a, match_id).await;
        assert_eq!(result.ratings.len(), 2);
        assert_eq!(
            games(addr, &[&alice, &bjorn]).await,
            vec![1, 1],
            "{backend:?}"
        );
    }
}
