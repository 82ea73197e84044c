//! Whole matches over real sockets on both storage backends.

mod common;

use common::{
    BACKENDS, Client, act, create, fresh_database, get, join, register, short_copenhagen_game,
    start,
};
use protocol::{ClientMessage, MatchEvent, MatchId, ServerMessage};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copenhagen_match_is_played_to_its_result_and_rated() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let alice = register(addr, "alice").await;
        let bjorn = register(addr, "Bjorn").await;
        let mut a = Client::connect(addr, &alice.token).await;
        let mut b = Client::connect(addr, &bjorn.token).await;

        let created = a
            .ok(|id| create(id, "tafl", "copenhagen", json!({"rated": true})))
            .await;
        let match_id: MatchId = created.match_id.unwrap();
        assert_eq!(created.seats, vec![0]);
        let joined = b.ok(|id| join(id, match_id)).await;
        assert_eq!(joined.seats, vec![1]);
        a.event_where(match_id, |e| matches!(e, MatchEvent::Started { .. }))
            .await;

        let (moves, winner) = short_copenhagen_game();
        for (i, mv) in moves.iter().enumerate() {
            let (mover, waiter, seat) = if i % 2 == 0 {
                (&mut a, &mut b, 0)
            } else {
                (&mut b, &mut a, 1)
            };
            let mv = mv.split('x').next().unwrap();
            // Every recorded move is among the mover's legal actions; the waiting seat has
            // none, and nobody may ask about a seat they do not hold.
            let legal = |id, seat| ClientMessage::Legal { id, match_id, seat };
            let offered = mover.ok(|id| legal(id, seat)).await;
            let actions = offered.actions.expect("legal actions");
            assert!(actions.iter().any(|a| a == mv), "{backend:?} {mv}");
            let idle = waiter.ok(|id| legal(id, 1 - seat)).await;
            assert_eq!(idle.actions, Some(Vec::new()));
            waiter
                .refused(protocol::ErrorCode::Forbidden, |id| legal(id, seat))
                .await;
            let ack = mover.ok(|id| act(id, match_id, seat, mv)).await;
            assert_eq!(
                ack.seq.map(|s| s.0),
                offered.seq.map(|s| s.0 + 1),
                "the actions were for the position the move was played in"
            );
            assert!(ack.seq.is_some(), "{backend:?} move {i} {mv}");
        }
        for client in [&mut a, &mut b] {
            let (_, event) = client
                .event_where(match_id, |e| matches!(e, MatchEvent::Finished { .. }))
                .await;
            let MatchEvent::Finished { result } = event else {
                unreachable!()
            };
            assert_eq!(result.places[usize::from(winner)], 0, "{backend:?}");
            assert_eq!(result.places[usize::from(1 - winner)], 1);
            assert_eq!(result.ratings.len(), 2);
            let won = result.ratings.iter().find(|r| r.seat == winner).unwrap();
            assert_eq!((won.before, won.after), (1500.0, 1520.0));
        }

        let record = get(addr, &format!("/api/matches/{}", match_id.0)).await;
        assert_eq!(record["summary"]["status"], "finished", "{backend:?}");
        assert_eq!(record["actions"].as_array().unwrap().len(), moves.len());
        assert!(
            record["seed"].is_u64(),
            "the seed is published once the match is over"
        );
        assert!(
            record["record"]["text"]
                .as_str()
                .unwrap()
                .contains("[result:")
                && record["record"]["format"] == "opentafl",
            "{record}"
        );

        let replay = get(addr, &format!("/api/matches/{}/replay", match_id.0)).await;
        let views = replay["views"].as_array().unwrap();
        assert_eq!(views.len(), moves.len() + 1, "{backend:?}");
        assert_eq!(replay["actions"].as_array().unwrap().len(), moves.len());
        assert_ne!(views[0], views[1], "a move changes the view");
        let mut spectator = Client::connect(addr, &alice.token).await;
        spectator
            .ok(|id| ClientMessage::Watch {
                invite: None,
                id,
                match_id,
                since: None,
            })
            .await;
        // The snapshot and the ack travel separately: either may come first.
        let message = match spectator.pending.pop() {
            Some(kept) => kept,
            None => spectator.next().await,
        };
        let ServerMessage::Snapshot { snapshot, .. } = message else {
            panic!("a snapshot answers the watch, got {message:?}")
        };
        assert_eq!(
            views.last(),
            Some(&snapshot.view),
            "the last view is the final position"
        );

        let board = get(addr, "/api/leaderboard/tafl/copenhagen").await;
        let entries = board["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0]["rating"], 1520.0);
        assert_eq!(entries[0]["games"], 1);
        assert_eq!(entries[1]["rating"], 1480.0);
        let winner_name = if winner == 0 { "alice" } else { "Bjorn" };
        assert_eq!(entries[0]["player"]["name"], winner_name);

        let profile = get(addr, &format!("/api/players/{}", alice.player.id.0)).await;
        assert_eq!(profile["ratings"][0]["pool"], "tafl/copenhagen");
        assert_eq!(profile["history"].as_array().unwrap().len(), 1);
        let matches = get(addr, &format!("/api/players/{}/matches", bjorn.player.id.0)).await;
        assert_eq!(matches[0]["id"], match_id.0);
    }
}
