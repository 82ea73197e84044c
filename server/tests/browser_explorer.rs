//! The opening explorer in a real headless Chromium: beside the analysis board it lists the
//! moves played from the position shown in this server's finished games and in the masters'
//! games, a picked move is played on the board and the list follows; beside a replay the game's
//! own move is marked and picking it steps on. Screenshots at 1400 x 900 and on a phone go to
//! `target/screenshots/explorer-*.png`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, copenhagen_match, fresh_database, get, start, two_guests};
use serde_json::json;

/// A finished casual game on the server, counted by the explorer: its id and moves.
async fn a_counted_game(addr: SocketAddr) -> (u64, Vec<String>) {
    let (_, _, mut a, mut b) = two_guests(addr).await;
    let m = copenhagen_match(&mut a, &mut b, json!({})).await;
    let moves = common::play_short_game(&mut a, &mut b, m).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while get(addr, "/api/explorer/tafl/copenhagen").await["total"]["games"] != json!(1) {
        assert!(Instant::now() < deadline, "the game was not counted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (m.0 as u64, moves)
}

/// The explorer's rows, as move names in order.
async fn rows(b: &Browser) -> Vec<String> {
    let found = b
        .run("return [...document.querySelectorAll('[data-testid=explorer-moves] tr')].map((r) => r.dataset.testid.replace('explorer-move-', ''));")
        .await;
    serde_json::from_value(found).unwrap()
}

async fn until_rows(b: &Browser, what: &str) {
    b.until(
        what,
        "const p = document.querySelector('[data-testid=explorer]'); return p && !p.hidden && document.querySelectorAll('[data-testid=explorer-moves] tr').length > 0;",
    )
    .await;
}

#[tokio::test]
async fn the_explorer_shows_the_moves_played_and_plays_a_pick() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (id, moves) = a_counted_game(addr).await;
    let driver = Driver::start().await;
    for (screen, size) in [(WIDE, "wide"), (Screen::Phone, "phone")] {
        let b = driver.browser(screen).await;
        b.guest(addr).await;

        // The analysis board at the start: this server's one game.
        b.open(addr, "#/analysis/game/tafl/copenhagen").await;
        until_rows(&b, "the server's games").await;
        assert_eq!(rows(&b).await, vec![moves[0].clone()]);
        assert!(b.text("explorer-total").await.contains('1'));

        // The masters' games: many first moves, most played first; a pick is played.
        b.select("explorer-source", "masters").await;
        b.until(
            "the masters' games",
            "return document.querySelectorAll('[data-testid=explorer-moves] tr').length > 3;",
        )
        .await;
        let masters = rows(&b).await;
        b.run("document.querySelector('[data-testid=explorer]').scrollIntoView();")
            .await;
        b.screenshot(&format!("explorer-analysis-{size}")).await;
        b.click_css(&format!("[data-testid=\"explorer-move-{}\"] a", masters[0]))
            .await;
        b.until(
            "the pick on the board",
            "return document.querySelectorAll('[data-testid=analysis-moves] li').length === 1;",
        )
        .await;
        let listed = b.text("analysis-moves").await;
        assert!(listed.contains(&masters[0]), "{listed}");
        // The list follows the board: the replies to that move.
        b.until(
            "the replies",
            &format!(
                "return !document.querySelector('[data-testid=\"explorer-move-{}\"]');",
                masters[0]
            ),
        )
        .await;
        assert!(!rows(&b).await.is_empty());

        // The replay: the game's own move is marked, and picking it steps on.
        b.open(addr, &format!("#/replay/{id}")).await;
        until_rows(&b, "the replay's explorer").await;
        let played = b
            .run(&format!(
                "return document.querySelector('[data-testid=\"explorer-move-{}\"]').classList.contains('played');",
                moves[0]
            ))
            .await;
        assert_eq!(played, json!(true));
        b.run("document.querySelector('[data-testid=explorer]').scrollIntoView();")
            .await;
        b.screenshot(&format!("explorer-replay-{size}")).await;
        b.click_css(&format!("[data-testid=\"explorer-move-{}\"] a", moves[0]))
            .await;
        b.until_text("replay-position", &format!("1 / {}", moves.len()))
            .await;
        b.find(&by_testid(&format!("explorer-move-{}", moves[1])))
            .await;
        b.assert_no_console_errors().await;
        b.client.close().await.unwrap();
    }
}
