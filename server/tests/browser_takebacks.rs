//! Takebacks in a real headless Chromium against a server started here: in a casual match, one
//! player asks from the match page, the other sees the request with its answers and declines
//! it; then the other player asks, it is accepted, and both boards go back to before the
//! asker's move (the reply after it gone too), the asker to move again. Screenshots of the
//! request, at 1400 x 900 and on a phone, go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, Client, fresh_database, start};
use protocol::Session;
use serde_json::{Value, json};

/// A browser on a screen for a player, logged in with their session as the client keeps it, on
/// `hash`.
async fn signed_in(
    driver: &Driver,
    screen: Screen,
    addr: SocketAddr,
    who: &Session,
    hash: &str,
) -> Browser {
    let b = driver.browser(screen).await;
    b.sign_in(addr, &who.token, hash).await;
    b.until_text("me", &who.player.name).await;
    b
}

/// Whether an element is wholly inside the window.
async fn in_view(b: &Browser, testid: &str) -> Value {
    b.run(&format!(
        "const r = document.querySelector('{}').getBoundingClientRect();
         return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;",
        by_testid(testid)
    ))
    .await
}

async fn until_no_moves(b: &Browser) {
    b.until(
        "an empty move list",
        "return document.querySelectorAll('[data-testid=move-list] [data-testid^=move-]').length === 0;",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_asked_on_the_match_page_and_accepted_takes_the_board_back() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (alice, bjorn) = (
        common::new_player(addr).await,
        common::new_player(addr).await,
    );
    let (mut a, mut b) = (
        Client::connect(addr, &alice.token).await,
        Client::connect(addr, &bjorn.token).await,
    );
    let m = a
        .ok(|id| common::create(id, "tafl", "brandubh", json!({})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, m)).await;
    a.ok(|id| common::act(id, m, 0, "d1-c1")).await;
    b.ok(|id| common::act(id, m, 1, "d3-b3")).await;
    a.close().await;
    b.close().await;

    let driver = Driver::start().await;
    let page = format!("#/match/{}", m.0);
    let wide = signed_in(&driver, WIDE, addr, &alice, &page).await;
    let phone = signed_in(&driver, Screen::Phone, addr, &bjorn, &page).await;
    for p in [&wide, &phone] {
        p.until_moves(2).await;
    }

    // Bjorn asks for his move back; Alice is asked, and declines.
    phone.click("take-back").await;
    let asks = |who: &Session| format!("{} asks to take back their last move", who.player.name);
    wide.until_text("takeback-offer", &asks(&bjorn)).await;
    phone.until_text("takeback-offer", &asks(&bjorn)).await;
    wide.find(&by_testid("decline-takeback")).await;
    wide.screenshot("takeback-asked").await;
    wide.click("decline-takeback").await;
    for p in [&wide, &phone] {
        p.until(
            "the request gone",
            &format!(
                "const e = document.querySelector('{}'); return !e || e.getClientRects().length === 0;",
                by_testid("takeback-offer")
            ),
        )
        .await;
        p.until_moves(2).await;
    }

    // Alice asks for hers: Bjorn's reply after it goes too, and she is to move again.
    wide.click("take-back").await;
    phone.until_text("takeback-offer", &asks(&alice)).await;
    phone.find(&by_testid("decline-takeback")).await;
    // Under the board on a phone: brought into view to be answered.
    assert_eq!(in_view(&phone, "accept-takeback").await, json!(true));
    phone.screenshot("takeback-asked-phone").await;
    phone.click("accept-takeback").await;
    for p in [&wide, &phone] {
        until_no_moves(p).await;
    }
    wide.until_text("turn", "Your move").await;
    // The board is back where it started: the piece Alice moved is on d1 again.
    wide.play_tafl("d1", "c1").await;
    phone.until_moves(1).await;
    for p in [wide, phone] {
        p.assert_no_console_errors().await;
        p.client.close().await.unwrap();
    }
}
