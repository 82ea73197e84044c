//! The lobby shows life and gets a player playing, in a real headless Chromium against a server
//! started here: a game posted from one player's lobby is listed at once in a visitor's lobby
//! and taken by another player in one click, both players landing in the match; a visitor
//! sees who waits in the queue, as they come and go; and "Play now" queues a player for
//! Copenhagen, counts their wait, and after a while offers the AI at the level nearest their
//! rating, which one click starts. Screenshots at 1400 x 900 and on a phone go to
//! `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::Duration;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, Client, fresh_database, start};
use protocol::{ClientMessage, Session, TimeControl};
use serde_json::json;

/// How long the lobby lets a Play now wait before offering the AI (`AI_OFFER_AFTER_MS` in
/// `web/pages/lobby.js`).
const AI_OFFER_AFTER: Duration = Duration::from_secs(20);

async fn signed_in(driver: &Driver, screen: Screen, addr: SocketAddr, who: &Session) -> Browser {
    let b = driver.browser(screen).await;
    b.sign_in(addr, &who.token, "#/").await;
    b.until_text("me", &who.player.name).await;
    b
}

async fn visitor(driver: &Driver, screen: Screen, addr: SocketAddr) -> Browser {
    let b = driver.browser(screen).await;
    b.open(addr, "#/").await;
    b.find(&by_testid("open-matches")).await;
    b
}

/// The match page a browser is on, once it is on one.
async fn until_match(b: &Browser) -> i64 {
    let script = "const m = location.hash.match(/^#\\/match\\/(\\d+)/); return m && Number(m[1]);";
    b.until("a match's page", script).await.as_i64().unwrap()
}

/// Whether an element is in the page and drawn.
async fn shown(b: &Browser, testid: &str) -> bool {
    let script = format!(
        "const e = document.querySelector('{}'); return !!e && e.getClientRects().length > 0;",
        by_testid(testid)
    );
    b.run(&script).await == json!(true)
}

/// Puts a player in a queue over a socket of their own, which must stay open.
async fn queued(addr: SocketAddr, variant: &str, time_control: TimeControl) -> Client {
    let player = common::new_player(addr).await;
    let mut c = Client::connect(addr, &player.token).await;
    c.ok(|id| ClientMessage::QueueJoin {
        id,
        game: "tafl".into(),
        variant: Some(variant.into()),
        seats: None,
        time_control,
        rated: true,
        ai_after_secs: None,
        two_games: false,
    })
    .await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_posted_in_the_lobby_is_listed_for_a_visitor_and_taken_in_one_click() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    let (alice, bjorn) = (
        common::new_player(addr).await,
        common::new_player(addr).await,
    );
    let a = signed_in(&driver, WIDE, addr, &alice).await;
    let watcher = visitor(&driver, WIDE, addr).await;
    watcher
        .until_text("open-matches", "No open challenge")
        .await;

    // Alice posts a rated Copenhagen 5+3, defending.
    a.select("seek-variant", "copenhagen").await;
    a.select("seek-time", "blitz").await;
    a.select("seek-seat", "1").await;
    a.click("seek-post").await;
    a.until_text("open-matches", &alice.player.name).await;

    // The visitor's lobby lists it at once, with what it is.
    watcher.until_text("open-matches", &alice.player.name).await;
    let line = watcher.text("open-matches").await;
    for shown in ["Copenhagen", "5+3", "rated", "Defenders"] {
        assert!(line.contains(shown), "{shown} in {line}");
    }
    // Someone waits in the queue too: the visitor sees that.
    let _waiting = queued(addr, "brandubh", TimeControl::Rapid).await;
    watcher.until_text("queue-sizes", "1 waiting").await;
    watcher.screenshot("lobby30-visitor-seeks-1400x900").await;
    a.until_text("queue-sizes", "1 waiting").await;
    a.screenshot("lobby30-player-seeks-1400x900").await;
    // Alice reads the rules while she waits: her seek taken, she is brought to its match all the
    // same.
    a.run("location.hash = '#/rules/tafl';").await;
    a.find("[data-testid=rules] h1").await;
    watcher.assert_no_console_errors().await;

    // Bjorn takes it in one click, on a phone: both land in the match.
    let b = signed_in(&driver, Screen::Phone, addr, &bjorn).await;
    let accept = b
        .until(
            "the seek's button",
            "const b = document.querySelector('[data-testid=\"open-matches\"] button'); return b && b.dataset.testid;",
        )
        .await;
    b.until_text("queue-sizes", "1 waiting").await;
    b.screenshot("lobby30-player-seeks-390x844").await;
    b.click(accept.as_str().unwrap()).await;
    let taken = until_match(&b).await;
    assert_eq!(
        until_match(&a).await,
        taken,
        "alice is taken from the rules page to the match she posted"
    );
    watcher
        .until_text("open-matches", "No open challenge")
        .await;
    let record = common::get(addr, &format!("/api/matches/{taken}")).await;
    assert_eq!(record["summary"]["status"], "live");
    assert_eq!(record["summary"]["players"][1]["id"], alice.player.id.0);
    a.assert_no_console_errors().await;
    b.assert_no_console_errors().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_sees_who_waits_in_the_queue() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    let watcher = visitor(&driver, Screen::Phone, addr).await;
    let waiting = queued(addr, "copenhagen", TimeControl::Blitz).await;
    watcher.until_text("queue-sizes", "Copenhagen").await;
    watcher.until_text("queue-sizes", "1 waiting").await;
    watcher.screenshot("lobby30-visitor-queue-390x844").await;
    // Gone from the queue, gone from the list.
    waiting.close().await;
    watcher.until_text("queue-sizes", "Nobody is waiting").await;
    watcher.assert_no_console_errors().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_counts_the_wait_and_offers_the_ai_at_the_players_level() {
    let url = fresh_database(Backend::Sqlite).await;
    let addr = start(&url, &[]).await;
    // The AI's levels rated in Copenhagen: level 2's rating is nearest a new player's 1500.
    common::alter_database(
        &url,
        "INSERT INTO ratings (player_id, pool, rating, games)
         SELECT id, 'tafl/copenhagen', CASE name WHEN 'ai-level-1' THEN 1200.0
             WHEN 'ai-level-2' THEN 1480.0 WHEN 'ai-level-3' THEN 1600.0
             WHEN 'ai-level-4' THEN 1800.0 ELSE 2000.0 END, 20
         FROM players WHERE name LIKE 'ai-level-%'",
        &[],
    )
    .await;
    let driver = Driver::start().await;
    let alice = common::new_player(addr).await;
    let a = signed_in(&driver, WIDE, addr, &alice).await;
    // A guest waits too, on a phone, in the casual pool: nobody pairs them with Alice.
    let g = driver.browser(Screen::Phone).await;
    g.open(addr, "#/").await;
    g.guest(addr).await;

    for b in [&a, &g] {
        b.click("play-now").await;
        b.until_text("play-now-wait", "0:0").await;
    }
    let queue = common::get(addr, "/api/queue").await;
    assert_eq!(queue.as_array().unwrap().len(), 2, "two pools: {queue}");
    assert_eq!(queue[0]["variant"], "copenhagen");
    // The wait counts up.
    let first = a.text("play-now-wait").await;
    a.until(
        "the wait to count on",
        &format!(
            "return document.querySelector('{}').textContent !== {};",
            by_testid("play-now-wait"),
            json!(first)
        ),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    a.screenshot("lobby30-play-now-waiting-1400x900").await;
    g.screenshot("lobby30-play-now-waiting-390x844").await;
    assert!(!shown(&a, "play-now-ai").await, "no offer yet");

    // After a while, the AI at her level, while she stays in the queue.
    tokio::time::sleep(AI_OFFER_AFTER.saturating_sub(Duration::from_secs(5))).await;
    a.until_text("play-now-ai", "level 2").await;
    g.until_text("play-now-ai", "level").await;
    a.until_text("queue-sizes", "rated: 1 waiting").await;
    a.screenshot("lobby30-play-now-offer-1400x900").await;
    g.screenshot("lobby30-play-now-offer-390x844").await;
    assert_eq!(
        common::get(addr, "/api/queue")
            .await
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Taken: out of the queue, into a game against the AI.
    a.click("play-now-ai").await;
    let m = until_match(&a).await;
    let record = common::get(addr, &format!("/api/matches/{m}")).await;
    let names: Vec<&str> = (record["summary"]["players"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"ai-level-2"), "{names:?}");
    assert_eq!(record["summary"]["variant"], "copenhagen");
    let queue = common::get(addr, "/api/queue").await;
    assert_eq!(
        queue.as_array().unwrap().len(),
        1,
        "only the guest waits: {queue}"
    );
    a.assert_no_console_errors().await;
    g.assert_no_console_errors().await;
}
