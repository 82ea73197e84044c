//! Takebacks by agreement over real sockets, on both backends: accepted in a casual game (the
//! asker's move and the reply after it go, the log keeps the takeback as an entry of its own, and
//! the replay of the log, the record, the live match, the match restored after a restart and an
//! analysis board from the finished match agree); refused in a rated game created without them,
//! changing nothing; asked, declined and lapsing in a rated game created with them, whose rematch
//! keeps the choice, as a challenge does; granted at once by the AI and in a hot-seat match;
//! asked again after a decline only once the opponent has moved, and declined three times at
//! most.

mod common;

use std::net::SocketAddr;

use common::process::ServerProcess;
use common::{
    BACKENDS, Client, act, copenhagen_match, corpus_game, create, fresh_database, get, http,
    play_ai, start, two_players, watch,
};
use protocol::{
    AnalysisPosition, ChallengeSpec, ClientMessage, CommandId, ErrorCode, MatchEvent, MatchId,
    MatchReplay, MatchSnapshot, ServerMessage,
};
use serde_json::{Value, json};

fn ask(id: CommandId, match_id: MatchId, seat: u8) -> ClientMessage {
    ClientMessage::AskTakeback { id, match_id, seat }
}

fn answer(id: CommandId, match_id: MatchId, seat: u8, accept: bool) -> ClientMessage {
    ClientMessage::AnswerTakeback {
        id,
        match_id,
        seat,
        accept,
    }
}

/// The match as a socket that starts following it sees it (events it followed before are
/// skipped).
async fn snapshot(client: &mut Client, match_id: MatchId) -> MatchSnapshot {
    client.ok(|id| watch(id, match_id, None)).await;
    let is_snapshot = |m: &ServerMessage| matches!(m, ServerMessage::Snapshot { match_id: of, .. } if *of == match_id);
    match client.message_where(is_snapshot).await {
        ServerMessage::Snapshot { snapshot, .. } => snapshot,
        _ => unreachable!("only a snapshot is taken"),
    }
}

/// The replay the server rebuilds from the stored log.
async fn replay(addr: SocketAddr, match_id: MatchId) -> MatchReplay {
    let body = get(addr, &format!("/api/matches/{}/replay", match_id.0)).await;
    serde_json::from_value(body).unwrap()
}

/// Every source of the match's actions agrees on `moves`, and on the spectators' view after
/// them: a spectator's snapshot, the replay of the log and the match's record.
async fn agree(addr: SocketAddr, spectator: &mut Client, match_id: MatchId, moves: &[&str]) {
    let live = snapshot(spectator, match_id).await;
    let known: Vec<Option<String>> = moves.iter().map(|m| Some(m.to_string())).collect();
    assert_eq!(live.actions, known, "the live match");
    let replayed = replay(addr, match_id).await;
    let actions: Vec<Option<String>> = replayed.actions.iter().map(|a| a.action.clone()).collect();
    assert_eq!(actions, known, "the replay of the log");
    assert_eq!(
        replayed.views.last(),
        Some(&live.view),
        "the replay's last view"
    );
    let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
    let recorded: Vec<&str> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(recorded, moves, "the record");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_accepted_in_a_casual_game_replays_the_same_after_a_restart() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let addr = server.addr;
        let (alice, bjorn, mut a, mut b) = two_players(addr).await;
        let clock = json!({"base_ms": 600_000, "increment_ms": 0});
        let m = copenhagen_match(&mut a, &mut b, json!({"clock": clock})).await;
        a.ok(|id| act(id, m, 0, "d1-d3")).await;
        b.ok(|id| act(id, m, 1, "f4-b4")).await;

        // Alice asks to take back her move; Bjorn has replied, so his reply goes too.
        let asked = a.ok(|id| ask(id, m, 0)).await.seq.unwrap().0;
        assert_eq!(
            b.event_at(m, asked).await,
            MatchEvent::TakebackOffered { seat: 0 }
        );
        a.refused(ErrorCode::Conflict, |id| ask(id, m, 0)).await;
        a.refused(ErrorCode::Conflict, |id| answer(id, m, 0, true))
            .await;
        let taken = b.ok(|id| answer(id, m, 1, true)).await.seq.unwrap().0;
        let MatchEvent::TakenBack {
            seat,
            ply,
            to_act,
            clocks_ms,
            ..
        } = a.event_at(m, taken).await
        else {
            panic!("expected taken_back");
        };
        assert_eq!((seat, ply, to_act), (0, 0, vec![0]), "{backend:?}");
        let clocks_ms = clocks_ms.expect("a timed match reports clocks");
        b.refused(ErrorCode::Conflict, |id| answer(id, m, 1, true))
            .await;
        let mut spectator = Client::connect(addr, &common::new_player(addr).await.token).await;
        agree(addr, &mut spectator, m, &[]).await;

        // Restarted, the match is rebuilt from the log, takeback folded in, and the clocks as
        // they were when it was taken back (Bjorn's stopped, Alice's running again).
        server.kill();
        let server = ServerProcess::start(&url).await;
        let addr = server.addr;
        let mut a = Client::connect(addr, &alice.token).await;
        let restored = snapshot(&mut a, m).await;
        assert!(restored.actions.is_empty(), "{backend:?}");
        assert_eq!(restored.to_act, vec![0]);
        assert!(restored.takebacks);
        assert_eq!(restored.seats[1].clock_ms, Some(clocks_ms[1]));
        let alices = restored.seats[0].clock_ms.unwrap();
        assert!(alices <= clocks_ms[0] && alices + 10_000 > clocks_ms[0]);

        // Play goes on from there, another way, and every reader of the log agrees.
        let mut b = Client::connect(addr, &bjorn.token).await;
        a.ok(|id| act(id, m, 0, "h1-h3")).await;
        b.ok(|id| act(id, m, 1, "f4-b4")).await;
        let mut spectator = Client::visit(addr).await;
        agree(addr, &mut spectator, m, &["h1-h3", "f4-b4"]).await;
        let again = snapshot(&mut a, m).await;
        let live = snapshot(&mut spectator, m).await;
        assert_eq!(again.view, live.view);

        // Once it is over, an analysis board starts from the same position.
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 0,
        })
        .await;
        let analysed: AnalysisPosition = http()
            .post(format!("http://{addr}/api/analysis/position"))
            .bearer_auth(&alice.token)
            .json(&json!({"match_id": m.0}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(analysed.view, live.view, "{backend:?}: the analysis board");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_refuses_takebacks_unless_created_with_them() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, bjorn, mut a, mut b) = two_players(addr).await;
        let mut spectator = Client::visit(addr).await;

        // Rated without the option: refused, and nothing happened (Bjorn's move is the very
        // next event).
        let m = copenhagen_match(&mut a, &mut b, json!({"rated": true})).await;
        let moved = a.ok(|id| act(id, m, 0, "d1-d3")).await.seq.unwrap().0;
        let refusal = a.refused(ErrorCode::Forbidden, |id| ask(id, m, 0)).await;
        assert!(refusal.contains("without takebacks"), "{refusal}");
        b.refused(ErrorCode::Conflict, |id| answer(id, m, 1, true))
            .await;
        let replied = b.ok(|id| act(id, m, 1, "f4-b4")).await.seq.unwrap().0;
        assert_eq!(replied, moved + 1, "{backend:?}");
        assert!(!snapshot(&mut spectator, m).await.takebacks);
        agree(addr, &mut spectator, m, &["d1-d3", "f4-b4"]).await;

        // Rated with the option: asked and declined, asked again once Bjorn has moved, and
        // lapsing when Alice moves.
        let options = json!({"rated": true, "takebacks": true});
        let m = copenhagen_match(&mut a, &mut b, options).await;
        a.ok(|id| act(id, m, 0, "d1-d3")).await;
        let asked = a.ok(|id| ask(id, m, 0)).await.seq.unwrap().0;
        let offered = snapshot(&mut spectator, m).await;
        assert_eq!((offered.takebacks, offered.takeback_offer), (true, Some(0)));
        b.refused(ErrorCode::Forbidden, |id| ask(id, m, 0)).await;
        let declined = b.ok(|id| answer(id, m, 1, false)).await.seq.unwrap().0;
        assert_eq!(declined, asked + 1);
        assert_eq!(
            a.event_at(m, declined).await,
            MatchEvent::TakebackDeclined { seat: 1 }
        );
        b.ok(|id| act(id, m, 1, "f4-b4")).await;
        a.ok(|id| ask(id, m, 0)).await;
        a.ok(|id| act(id, m, 0, "h1-h3")).await;
        b.refused(ErrorCode::Conflict, |id| answer(id, m, 1, true))
            .await;
        // Bjorn may ask for his own move back, which goes with Alice's reply.
        b.ok(|id| ask(id, m, 1)).await;
        let taken = a.ok(|id| answer(id, m, 0, true)).await.seq.unwrap().0;
        let event = b.event_at(m, taken).await;
        assert!(
            matches!(event, MatchEvent::TakenBack { seat: 1, ply: 1, ref to_act, .. } if to_act == &[1]),
            "{event:?}"
        );
        agree(addr, &mut spectator, m, &["d1-d3"]).await;

        // Its rematch keeps the choice, and so does a challenge.
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 0,
        })
        .await;
        a.ok(|id| ClientMessage::OfferRematch { id, match_id: m })
            .await;
        let rematch = b
            .ok(|id| ClientMessage::AnswerRematch {
                id,
                match_id: m,
                accept: true,
            })
            .await
            .match_id
            .unwrap();
        let spec = ChallengeSpec {
            player: bjorn.player.id,
            game: "tafl".into(),
            variant: Some("brandubh".into()),
            seat: None,
            clock: None,
            rated: true,
            takebacks: true,
            two_games: false,
        };
        let challenge = a
            .ok(|id| ClientMessage::Challenge { id, spec })
            .await
            .challenge_id
            .unwrap();
        let challenged = b
            .ok(|id| ClientMessage::AnswerChallenge {
                id,
                challenge_id: challenge,
                accept: true,
            })
            .await
            .match_id
            .unwrap();
        for m in [rematch, challenged] {
            let s = snapshot(&mut spectator, m).await;
            assert_eq!((s.rated, s.takebacks), (true, true), "{backend:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_and_a_hot_seat_agree_at_once() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, _) = two_players(addr).await;

        // Against the AI: Alice's move and the AI's reply go at once.
        let m = a
            .ok(|id| play_ai(id, "brandubh", 1, 0))
            .await
            .match_id
            .unwrap();
        a.refused(ErrorCode::Conflict, |id| ask(id, m, 0)).await;
        let opening = brandubh_opening(&mut a, m).await;
        a.ok(|id| act(id, m, 0, &opening)).await;
        a.event_where(m, |e| matches!(e, MatchEvent::Acted { seat: 1, .. }))
            .await;
        let taken = a.ok(|id| ask(id, m, 0)).await.seq.unwrap().0;
        let event = a.event_at(m, taken).await;
        assert!(
            matches!(
                event,
                MatchEvent::TakenBack {
                    seat: 0,
                    ply: 0,
                    ..
                }
            ),
            "{backend:?}: {event:?}"
        );

        // In a hot-seat match the player holds every seat, so asking is agreeing.
        let body = json!({"hotseat": true});
        let h = a
            .ok(|id| create(id, "tafl", "brandubh", body))
            .await
            .match_id
            .unwrap();
        let opening = brandubh_opening(&mut a, h).await;
        a.ok(|id| act(id, h, 0, &opening)).await;
        let taken = a.ok(|id| ask(id, h, 0)).await.seq.unwrap().0;
        let event = a.event_at(h, taken).await;
        let MatchEvent::TakenBack { view, to_act, .. } = event else {
            panic!("expected taken_back, got {event:?}");
        };
        assert_eq!(to_act, vec![0]);
        assert_eq!(view["plies"], Value::from(0));
    }
}

/// A legal opening action for seat 0 of a match.
async fn brandubh_opening(a: &mut Client, match_id: MatchId) -> String {
    let legal = a
        .ok(|id| ClientMessage::Legal {
            id,
            match_id,
            seat: 0,
        })
        .await;
    legal.actions.unwrap()[0].clone()
}

/// In a correspondence match every turn has the whole per-move time, and a takeback starts a
/// turn: both clocks are full after it, the replier's included, whose time had been running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_in_a_correspondence_match_gives_each_turn_its_whole_time() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let day = protocol::DAY_MS;
        let clock = json!({"base_ms": day, "increment_ms": 0, "per_move": true});
        let m = copenhagen_match(&mut a, &mut b, json!({"clock": clock})).await;
        a.ok(|id| act(id, m, 0, "d1-d3")).await;
        // Bjorn's turn runs a little before Alice asks.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        a.ok(|id| ask(id, m, 0)).await;
        let taken = b.ok(|id| answer(id, m, 1, true)).await.seq.unwrap().0;
        let MatchEvent::TakenBack { clocks_ms, .. } = a.event_at(m, taken).await else {
            panic!("expected taken_back");
        };
        assert_eq!(clocks_ms, Some(vec![day, day]), "{backend:?}");
    }
}

/// A player whose takeback was declined asks again only once the opponent has moved since, and
/// has three asks declined a game at most: asking and declining cannot go round and round, each
/// time an event for every follower. A refused ask changes nothing and tells nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_takeback_is_asked_again_after_a_move_and_three_times_at_most() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_players(addr).await;
        let m = copenhagen_match(&mut a, &mut b, json!({})).await;
        let (moves, _) = corpus_game(10);
        let mut played = 0;
        // The player to move plays the game's next move: the event's number.
        let mut next = async |a: &mut Client, b: &mut Client| {
            let (c, seat) = match played % 2 {
                0 => (a, 0),
                _ => (b, 1),
            };
            let moved = c.ok(|id| act(id, m, seat, &moves[played])).await;
            played += 1;
            moved.seq.unwrap().0
        };

        next(&mut a, &mut b).await;
        next(&mut a, &mut b).await;
        for declines in 1..=3 {
            // On her turn, Alice asks for her last move back; Bjorn declines.
            a.ok(|id| ask(id, m, 0)).await;
            let declined = b.ok(|id| answer(id, m, 1, false)).await.seq.unwrap().0;
            // Asked again at once, or after her own move: refused, and nobody is told.
            let says = match declines {
                3 => "3 of your takebacks",
                _ => "has moved",
            };
            let why = a.refused(ErrorCode::Conflict, |id| ask(id, m, 0)).await;
            assert!(why.contains(says), "{backend:?}: {why}");
            let moved = next(&mut a, &mut b).await;
            assert_eq!(moved, declined + 1, "{backend:?}, decline {declines}");
            let why = a.refused(ErrorCode::Conflict, |id| ask(id, m, 0)).await;
            assert!(why.contains(says), "{backend:?}: {why}");
            // Bjorn's move makes her next ask welcome, until three were declined.
            next(&mut a, &mut b).await;
        }
        let why = a.refused(ErrorCode::Conflict, |id| ask(id, m, 0)).await;
        assert!(why.contains("3 of your takebacks"), "{backend:?}: {why}");

        // Bjorn's asks are his own.
        let asked = b.ok(|id| ask(id, m, 1)).await.seq.unwrap().0;
        let taken = a.ok(|id| answer(id, m, 0, true)).await.seq.unwrap().0;
        assert_eq!(taken, asked + 1, "{backend:?}");
    }
}
