//! Match options: hot-seat play, private invitations, spectators, and per-seat views of a game
//! with hidden information.

mod common;

use common::{
    BACKENDS, Client, act, create, fresh_database, guest, join, register, start, two_guests,
};
use protocol::{ClientMessage, ErrorCode, MatchEvent, ServerMessage};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_plays_every_seat_of_a_hot_seat_match() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let solo = guest(addr).await;
        let mut c = Client::connect(addr, &solo.token).await;
        let refused = c
            .refused(ErrorCode::BadRequest, |id| {
                create(
                    id,
                    "tafl",
                    "brandubh",
                    json!({"hotseat": true, "rated": true}),
                )
            })
            .await;
        assert!(refused.contains("casual"), "{refused}");
        let created = c
            .ok(|id| create(id, "tafl", "brandubh", json!({"hotseat": true})))
            .await;
        assert_eq!(created.seats, vec![0, 1], "{backend:?}");
        let m = created.match_id.unwrap();
        // The match started as it was created; the creator's socket follows it from a snapshot.
        match c.next().await {
            ServerMessage::Snapshot { snapshot, .. } => {
                assert_eq!(
                    (snapshot.your_seats, snapshot.to_act),
                    (vec![0, 1], vec![0])
                )
            }
            other => panic!("expected a snapshot, got {other:?}"),
        }
        for (seat, mv) in [(0, "d7-f7"), (1, "d5-f5"), (0, "a4-a6")] {
            c.ok(|id| act(id, m, seat, mv)).await;
        }
        let (_, event) = c
            .event_where(m, |e| matches!(e, MatchEvent::Acted { seat: 0, .. }))
            .await;
        assert!(matches!(event, MatchEvent::Acted { .. }));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_match_is_joined_with_its_invite_and_watched_by_spectators() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let host = register(addr, "host").await;
        let friend = register(addr, "friend").await;
        let watcher = guest(addr).await;
        let mut h = Client::connect(addr, &host.token).await;
        let created = h
            .ok(|id| {
                create(
                    id,
                    "tafl",
                    "tablut",
                    json!({"visibility": "private", "seat": 1}),
                )
            })
            .await;
        let m = created.match_id.unwrap();
        let invite = created.invite.expect("a private match has an invite code");
        assert_eq!(created.seats, vec![1]);
        // Not listed among the matches anyone may join or watch.
        let live = common::get(addr, "/api/matches/live").await;
        assert!(
            live.as_array().unwrap().iter().all(|s| s["id"] != m.0),
            "{backend:?}"
        );

        let mut f = Client::connect(addr, &friend.token).await;
        let joined = f.ok(|id| common::join_with_invite(id, &invite)).await;
        assert_eq!((joined.match_id, joined.seats), (Some(m), vec![0]));
        f.ok(|id| act(id, m, 0, "d9-d8")).await;

        // A private match is watched with its invite code (fair_play.rs: without, it is hidden).
        let mut w = Client::connect(addr, &watcher.token).await;
        let watched = w
            .ok(|id| ClientMessage::Watch {
                invite: Some(invite.clone()),
                id,
                match_id: m,
                since: None,
            })
            .await;
        assert!(watched.seats.is_empty());
        let snapshot = w.pending.iter().find_map(|msg| match msg {
            ServerMessage::Snapshot { snapshot, .. } => Some(snapshot.clone()),
            _ => None,
        });
        let snapshot = match snapshot {
            Some(s) => s,
            None => match w.next().await {
                ServerMessage::Snapshot { snapshot, .. } => snapshot,
                other => panic!("expected a snapshot, got {other:?}"),
            },
        };
        assert_eq!(snapshot.actions, vec![Some("d9-d8".to_string())]);
        assert_eq!(snapshot.to_act, vec![1]);
        assert!(snapshot.your_seats.is_empty());
        w.refused(ErrorCode::Forbidden, |id| act(id, m, 1, "e5-e6"))
            .await;
        h.ok(|id| act(id, m, 1, "c5-c6")).await;
        let (_, event) = w
            .event_where(m, |e| matches!(e, MatchEvent::Acted { .. }))
            .await;
        let MatchEvent::Acted { seat, action, .. } = event else {
            unreachable!()
        };
        assert_eq!((seat, action.as_deref()), (1, Some("c5-c6")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_choices_reach_only_their_own_seat() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = two_guests(addr).await;
        let watcher = guest(addr).await;
        let mut w = Client::connect(addr, &watcher.token).await;
        let m = a
            .ok(|id| create(id, "driller", "standard", json!({})))
            .await
            .match_id
            .unwrap();
        b.ok(|id| join(id, m)).await;
        w.ok(|id| ClientMessage::Watch {
            invite: None,
            id,
            match_id: m,
            since: None,
        })
        .await;
        a.event_where(m, |e| matches!(e, MatchEvent::Started { .. }))
            .await;

        // Seat 0 commits a move; both seats must act this round, so it stays hidden.
        let mv = "D";
        a.ok(|id| act(id, m, 0, mv)).await;
        let (_, mine) = a
            .event_where(m, |e| matches!(e, MatchEvent::Acted { .. }))
            .await;
        let (_, theirs) = b
            .event_where(m, |e| matches!(e, MatchEvent::Acted { .. }))
            .await;
        let (_, public) = w
            .event_where(m, |e| matches!(e, MatchEvent::Acted { .. }))
            .await;
        let action_and_view = |e: MatchEvent| match e {
            MatchEvent::Acted { action, view, .. } => (action, view),
            other => panic!("{other:?}"),
        };
        let (my_action, my_view) = action_and_view(mine);
        let (their_action, their_view) = action_and_view(theirs);
        let (public_action, public_view) = action_and_view(public);
        assert_eq!(my_action.as_deref(), Some(mv), "{backend:?}");
        assert_eq!(their_action, None);
        assert_eq!(public_action, None);
        let secret = serde_json::to_string(&my_view["own_move"]).unwrap();
        assert!(
            secret.contains(mv),
            "the seat sees its own held move: {my_view}"
        );
        assert!(their_view["own_move"].is_null(), "{their_view}");
        assert!(public_view["own_move"].is_null(), "{public_view}");
        // The record keeps the move secret while the match is on.
        let record = common::get(addr, &format!("/api/matches/{}", m.0)).await;
        assert!(record["actions"][0]["action"].is_null(), "{record}");
        assert!(record.get("seed").is_none(), "{record}");
    }
}

/// A custom tafl variant: any OpenTafl rules string the engine accepts, previewed before the
/// match, played casual, and kept in the match's record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_tafl_variant_is_previewed_played_casual_and_recorded() {
    const CUSTOM: &str = "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let encoded = CUSTOM
            .replace(':', "%3A")
            .replace('/', "%2F")
            .replace(' ', "%20");
        let preview =
            common::get(addr, &format!("/api/games/tafl/preview?variant={encoded}")).await;
        assert_eq!(preview["named"], false);
        assert_eq!(preview["seats"], 2);
        assert_eq!(
            preview["view"]["position"],
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
        );
        let named = common::get(addr, "/api/games/tafl/preview?variant=brandubh").await;
        assert_eq!(named["named"], true);
        let bad = common::http()
            .get(format!(
                "http://{addr}/api/games/tafl/preview?variant={}",
                encoded.replace("esc%3Ae", "nj%3Ay")
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status(), 400);
        let body: serde_json::Value = bad.json().await.unwrap();
        assert!(body["message"].as_str().unwrap().contains("nj"), "{body}");

        let (_, _, mut a, mut b) = common::two_players(addr).await;
        let refused = a
            .refused(ErrorCode::BadRequest, |id| {
                create(id, "tafl", CUSTOM, json!({"rated": true}))
            })
            .await;
        assert!(refused.contains("casual"), "{refused}");
        a.refused(ErrorCode::BadRequest, |id| {
            serde_json::from_value(json!({"type": "queue_join", "id": id.0, "game": "tafl",
                "variant": CUSTOM, "time_control": "blitz"}))
            .unwrap()
        })
        .await;
        let m = a
            .ok(|id| create(id, "tafl", CUSTOM, json!({})))
            .await
            .match_id
            .unwrap();
        b.ok(|id| join(id, m)).await;
        a.ok(|id| act(id, m, 0, "a4-a3")).await;
        let record = common::get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["summary"]["variant"], CUSTOM, "{backend:?}");
        assert_eq!(record["record"]["format"], "opentafl");
        let opentafl = record["record"]["text"].as_str().unwrap();
        assert!(
            opentafl.contains("start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
            "{opentafl}"
        );
        assert!(opentafl.contains("a4-a3"), "{opentafl}");
    }
}

/// The catalog clients build their pickers and boards from comes from the engine: every game,
/// its named variants with seat counts and (for tafl) rules strings, and its seat names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalog_of_games_comes_from_the_engine() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    let games = common::get(addr, "/api/games").await;
    let game = |id: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {games}"))
            .clone()
    };
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, engine::registry::GAME_IDS);
    let tafl = game("tafl");
    assert_eq!(tafl["seat_names"], json!(["attackers", "defenders"]));
    let variants = tafl["variants"].as_array().unwrap();
    assert_eq!(variants.len(), engine::tafl::variants::NAMES.len());
    assert_eq!(variants[0]["name"], engine::tafl::variants::NAMES[0]);
    for v in variants {
        assert_eq!(
            (v["min_seats"].as_u64(), v["max_seats"].as_u64()),
            (Some(2), Some(2))
        );
        let rules = v["rules"].as_str().unwrap();
        let parsed = engine::tafl::opentafl::parse_rules(rules).unwrap();
        let preset = engine::tafl::variants::preset(v["name"].as_str().unwrap()).unwrap();
        assert_eq!(parsed.start, preset.start, "{rules}");
    }
    assert_eq!(game("hanoi")["seat_names"], json!(["white", "blue", "red"]));
    assert_eq!(game("fox-geese")["seat_names"], json!(["geese", "fox"]));
    assert_eq!(game("tron")["seat_names"][7], "seat 8");
    assert_eq!(game("tower-race")["variants"][1]["max_seats"], 8);
}

/// The ids of the live matches listed, as a visitor without a session, or a player with one,
/// sees them.
async fn live_ids(addr: std::net::SocketAddr, token: Option<&str>) -> Vec<i64> {
    let mut request = common::http().get(format!("http://{addr}/api/matches/live"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let list: serde_json::Value = response.json().await.unwrap();
    let ids = list.as_array().unwrap().iter();
    ids.map(|m| m["id"].as_i64().unwrap()).collect()
}

/// Waits out the disconnect grace (1 s in these tests).
async fn past_the_grace() {
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
}

/// The live list shows the matches someone plays. A game against the AI is listed while its
/// player follows it, and for the disconnect grace after the player has gone; then only to that
/// player, until they come back to it. A match between two players stays listed while either is
/// there, and leaves the list when both have gone. Hot-seat matches are never listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_list_shows_the_matches_someone_plays() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--disconnect-grace-secs", "1"],
        )
        .await;
        let solo = guest(addr).await;
        let mut s = Client::connect(addr, &solo.token).await;
        let ai = s
            .ok(|id| common::play_ai(id, "brandubh", 1, 1))
            .await
            .match_id
            .unwrap();
        let (_, _, mut a, mut b) = two_guests(addr).await;
        let pair = common::copenhagen_match(&mut a, &mut b, json!({})).await;
        let hot = guest(addr).await;
        let mut h = Client::connect(addr, &hot.token).await;
        h.ok(|id| create(id, "tafl", "brandubh", json!({"hotseat": true})))
            .await;
        assert_eq!(
            live_ids(addr, None).await,
            vec![pair.0, ai.0],
            "{backend:?}"
        );

        // The AI's opponent goes: listed for the grace, then only to them.
        s.close().await;
        assert_eq!(
            live_ids(addr, None).await,
            vec![pair.0, ai.0],
            "{backend:?}"
        );
        past_the_grace().await;
        assert_eq!(live_ids(addr, None).await, vec![pair.0], "{backend:?}");
        assert_eq!(
            live_ids(addr, Some(&solo.token)).await,
            vec![pair.0, ai.0],
            "{backend:?}: a player's own match stays listed to them"
        );

        // One of two players goes: the other still plays. Then both are gone.
        b.close().await;
        past_the_grace().await;
        assert_eq!(live_ids(addr, None).await, vec![pair.0], "{backend:?}");
        a.close().await;
        past_the_grace().await;
        assert_eq!(live_ids(addr, None).await, Vec::<i64>::new(), "{backend:?}");

        // The AI's opponent comes back to their game: it is listed again.
        let mut back = Client::connect(addr, &solo.token).await;
        back.ok(|id| common::watch(id, ai, None)).await;
        assert_eq!(live_ids(addr, None).await, vec![ai.0], "{backend:?}");
    }
}
