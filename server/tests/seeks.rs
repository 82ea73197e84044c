//! The lobby's life over real sockets, on both backends: seeks (public matches waiting for
//! players) listed live to every socket following the lobby, visitors' too, taken with one
//! join, gone when taken, withdrawn or when their poster leaves; bad seeks refused with nothing
//! changed; the queue's counts told to visitors; and the AI level a queued player is offered.

mod common;

use std::time::Duration;

use common::{BACKENDS, Client, create, fresh_database, get, guest, join, new_player, start};
use protocol::{
    ClientMessage, CommandId, ErrorCode, MatchEvent, MatchId, MatchSummary, QueuePool,
    ServerMessage, TimeControl,
};
use serde_json::json;
use server::lobby::departures::POSTER_GRACE;

/// A seek: a public Copenhagen match with a blitz clock, the poster defending (seat 1).
fn seek(id: CommandId, rated: bool) -> ClientMessage {
    let clock = json!({"base_ms": 300_000, "increment_ms": 3_000});
    create(
        id,
        "tafl",
        "copenhagen",
        json!({"rated": rated, "clock": clock, "seat": 1}),
    )
}

/// Follows the lobby: the seeks and the counts come at once.
async fn watch_lobby(c: &mut Client) -> (Vec<MatchSummary>, Vec<QueuePool>) {
    c.ok(|id| ClientMessage::WatchLobby { id }).await;
    let seeks = seeks_until(c, |_| true).await;
    let pools = pools_until(c, |_| true).await;
    (seeks, pools)
}

/// The seeks as pushed, until a list `done` accepts.
async fn seeks_until(c: &mut Client, done: impl Fn(&[MatchSummary]) -> bool) -> Vec<MatchSummary> {
    loop {
        let is_seeks = |m: &ServerMessage| matches!(m, ServerMessage::Seeks { .. });
        let ServerMessage::Seeks { seeks } = c.message_where(is_seeks).await else {
            unreachable!("only seeks are taken")
        };
        if done(&seeks) {
            return seeks;
        }
    }
}

/// The queue's counts as pushed, until a list `done` accepts.
async fn pools_until(c: &mut Client, done: impl Fn(&[QueuePool]) -> bool) -> Vec<QueuePool> {
    loop {
        let is_pools = |m: &ServerMessage| matches!(m, ServerMessage::QueuePools { .. });
        let ServerMessage::QueuePools { pools } = c.message_where(is_pools).await else {
            unreachable!("only counts are taken")
        };
        if done(&pools) {
            return pools;
        }
    }
}

fn ids(seeks: &[MatchSummary]) -> Vec<MatchId> {
    seeks.iter().map(|s| s.id).collect()
}

/// The ids `GET /api/matches/open` lists.
async fn open_ids(addr: std::net::SocketAddr) -> Vec<i64> {
    let open = get(addr, "/api/matches/open").await;
    let listed = open.as_array().unwrap().iter();
    listed.map(|m| m["id"].as_i64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_listed_live_to_visitors_and_taken_with_one_join() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let mut visitor = Client::visit(addr).await;
        let (seeks, pools) = watch_lobby(&mut visitor).await;
        assert_eq!(
            (seeks, pools),
            (vec![], vec![]),
            "{backend:?}: an empty lobby"
        );

        let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
        let mut a = Client::connect(addr, &alice.token).await;
        let m = a.ok(|id| seek(id, true)).await.match_id.unwrap();
        let listed = seeks_until(&mut visitor, |s| !s.is_empty()).await;
        assert_eq!(ids(&listed), [m], "{backend:?}");
        let shown = &listed[0];
        assert_eq!(
            (shown.game.as_str(), shown.variant.as_str()),
            ("tafl", "copenhagen")
        );
        assert!(shown.rated);
        assert_eq!(shown.clock.unwrap().base_ms, 300_000);
        let poster = shown.players[1].as_ref().map(|p| p.id);
        assert_eq!(
            (shown.players[0].as_ref(), poster),
            (None, Some(alice.player.id))
        );
        assert_eq!(
            open_ids(addr).await,
            [m.0],
            "{backend:?}: listed for a first load too"
        );

        // Bjorn takes it: both sit in the match, which starts, and the seek is gone.
        let mut b = Client::connect(addr, &bjorn.token).await;
        let taken = b.ok(|id| join(id, m)).await;
        assert_eq!((taken.match_id, taken.seats), (Some(m), vec![0]));
        let started = |e: &MatchEvent| matches!(e, MatchEvent::Started { .. });
        a.event_where(m, started).await;
        assert!(seeks_until(&mut visitor, <[_]>::is_empty).await.is_empty());
        assert!(open_ids(addr).await.is_empty(), "{backend:?}");
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["summary"]["status"], "live", "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_goes_when_withdrawn_or_when_its_poster_leaves() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let mut visitor = Client::visit(addr).await;
        watch_lobby(&mut visitor).await;
        let alice = new_player(addr).await;
        let mut a = Client::connect(addr, &alice.token).await;

        // Withdrawn: its poster calls it off.
        let m = a.ok(|id| seek(id, false)).await.match_id.unwrap();
        seeks_until(&mut visitor, |s| ids(s) == [m]).await;
        let (match_id, seat) = (m, 1);
        a.ok(|id| ClientMessage::Abort { id, match_id, seat }).await;
        seeks_until(&mut visitor, <[_]>::is_empty).await;
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["summary"]["status"], "aborted", "{backend:?}");

        // A correspondence seek outlasts its poster's leaving: its players come and go.
        let mut bjorn = Client::connect(addr, &new_player(addr).await.token).await;
        let days =
            json!({"clock": {"base_ms": protocol::DAY_MS, "increment_ms": 0, "per_move": true}});
        let posted = bjorn.ok(|id| create(id, "tafl", "brandubh", days)).await;
        let correspondence = posted.match_id.unwrap();
        seeks_until(&mut visitor, |s| ids(s) == [correspondence]).await;
        bjorn.close().await;

        // Alice's socket closes while another of hers stays open: her seek stays.
        let other = Client::connect(addr, &alice.token).await;
        let m = a.ok(|id| seek(id, false)).await.match_id.unwrap();
        seeks_until(&mut visitor, |s| ids(s) == [m, correspondence]).await;
        a.close().await;
        tokio::time::sleep(POSTER_GRACE + Duration::from_secs(1)).await;
        let kept = [m.0, correspondence.0];
        assert_eq!(
            open_ids(addr).await,
            kept,
            "{backend:?}: both posters count as here"
        );

        // Her last socket closes: once the grace is over, her seek is gone, for everyone.
        other.close().await;
        seeks_until(&mut visitor, |s| ids(s) == [correspondence]).await;
        assert_eq!(open_ids(addr).await, [correspondence.0], "{backend:?}");
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        assert_eq!(record["summary"]["status"], "aborted", "{backend:?}");
    }
}

/// The match ids a player's history lists.
async fn history(addr: std::net::SocketAddr, player: &protocol::Session) -> Vec<i64> {
    let listed = get(
        addr,
        &format!("/api/players/{}/matches", player.player.id.0),
    )
    .await;
    (listed.as_array().unwrap().iter())
        .map(|m| m["id"].as_i64().unwrap())
        .collect()
}

/// A seek withdrawn before anyone took it was never a game: it is not in its poster's history.
/// A match called off once both players sat in it was one, and stays in both histories.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_withdrawn_seek_is_no_game_in_its_posters_history() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
        let mut a = Client::connect(addr, &alice.token).await;
        let withdrawn = a.ok(|id| seek(id, false)).await.match_id.unwrap();
        assert_eq!(
            history(addr, &alice).await,
            [withdrawn.0],
            "{backend:?}: waiting"
        );
        let (match_id, seat) = (withdrawn, 1);
        a.ok(|id| ClientMessage::Abort { id, match_id, seat }).await;
        assert_eq!(
            history(addr, &alice).await,
            Vec::<i64>::new(),
            "{backend:?}"
        );

        let taken = a.ok(|id| seek(id, false)).await.match_id.unwrap();
        let mut b = Client::connect(addr, &bjorn.token).await;
        b.ok(|id| join(id, taken)).await;
        let started = |e: &MatchEvent| matches!(e, MatchEvent::Started { .. });
        a.event_where(taken, started).await;
        let match_id = taken;
        a.ok(|id| ClientMessage::Abort { id, match_id, seat }).await;
        let record = get(addr, &format!("/api/matches/{}", taken.0)).await;
        assert_eq!(record["summary"]["status"], "aborted", "{backend:?}");
        assert_eq!(history(addr, &alice).await, [taken.0], "{backend:?}");
        assert_eq!(history(addr, &bjorn).await, [taken.0], "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seeks_are_refused_and_change_nothing() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
        let mut a = Client::connect(addr, &alice.token).await;
        let unknown = |id| create(id, "chess", "standard", json!({}));
        let refusal = a.refused(ErrorCode::BadRequest, unknown).await;
        assert!(refusal.contains("chess"), "{backend:?}: {refusal}");
        let no_variant = |id| create(id, "tafl", "no-such-tafl", json!({}));
        let refusal = a.refused(ErrorCode::BadRequest, no_variant).await;
        assert!(refusal.contains("no-such-tafl"), "{backend:?}: {refusal}");
        let g = guest(addr).await;
        let mut guest_socket = Client::connect(addr, &g.token).await;
        let rated = guest_socket
            .refused(ErrorCode::Forbidden, |id| seek(id, true))
            .await;
        assert!(rated.contains("casual"), "{backend:?}: {rated}");
        assert!(
            open_ids(addr).await.is_empty(),
            "{backend:?}: nothing was posted"
        );

        // One's own seek cannot be taken; a taken one cannot be taken again.
        let m = a.ok(|id| seek(id, true)).await.match_id.unwrap();
        let own = a.refused(ErrorCode::Conflict, |id| join(id, m)).await;
        assert!(own.contains("already sit"), "{own}");
        let mut b = Client::connect(addr, &bjorn.token).await;
        b.ok(|id| join(id, m)).await;
        let mut late = Client::connect(addr, &new_player(addr).await.token).await;
        let taken = late.refused(ErrorCode::Conflict, |id| join(id, m)).await;
        assert!(taken.contains("not open"), "{taken}");
        let record = get(addr, &format!("/api/matches/{}", m.0)).await;
        let seated: Vec<i64> = (record["summary"]["players"].as_array().unwrap().iter())
            .map(|p| p["id"].as_i64().unwrap())
            .collect();
        assert_eq!(
            seated,
            [bjorn.player.id.0, alice.player.id.0],
            "{backend:?}"
        );
    }
}

/// Joins the Copenhagen blitz queue, rated.
fn play_now(id: CommandId) -> ClientMessage {
    ClientMessage::QueueJoin {
        id,
        game: "tafl".into(),
        variant: Some("copenhagen".into()),
        seats: None,
        time_control: TimeControl::Blitz,
        rated: true,
        ai_after_secs: None,
        two_games: false,
    }
}

/// The AI levels' ratings in Copenhagen: level 3's is nearest a new player's 1500.
const AI_RATINGS: &str = "INSERT INTO ratings (player_id, pool, rating, games)
     SELECT id, 'tafl/copenhagen', CASE name WHEN 'ai-level-1' THEN 1100.0
         WHEN 'ai-level-2' THEN 1300.0 WHEN 'ai-level-3' THEN 1450.0
         WHEN 'ai-level-4' THEN 1700.0 ELSE 1900.0 END, 20
     FROM players WHERE name LIKE 'ai-level-%'";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn visitors_see_the_queues_counts_and_a_queued_player_is_offered_the_nearest_ai() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        common::alter_database(&url, AI_RATINGS, &[]).await;
        let mut visitor = Client::visit(addr).await;
        watch_lobby(&mut visitor).await;

        let alice = new_player(addr).await;
        let mut a = Client::connect(addr, &alice.token).await;
        let joined = a.ok(play_now).await;
        assert_eq!(
            joined.ai_level,
            Some(3),
            "{backend:?}: the level nearest 1500"
        );
        let pools = pools_until(&mut visitor, |p| !p.is_empty()).await;
        let pool = &pools[0];
        assert_eq!(
            (pool.game.as_str(), pool.variant.as_str()),
            ("tafl", "copenhagen")
        );
        assert_eq!(
            (pool.time_control, pool.rated, pool.waiting),
            (TimeControl::Blitz, true, 1)
        );
        // For a first load, to anyone.
        let listed = get(addr, "/api/queue").await;
        assert_eq!(listed[0]["waiting"], 1, "{backend:?}: {listed}");

        a.ok(|id| ClientMessage::QueueLeave { id }).await;
        pools_until(&mut visitor, <[_]>::is_empty).await;
        assert_eq!(get(addr, "/api/queue").await, json!([]), "{backend:?}");
    }
}
