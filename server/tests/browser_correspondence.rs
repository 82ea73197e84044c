//! Correspondence play in a real headless Chromium: a player creates a private match of three
//! days a move in the lobby; the bell in the bar counts the games waiting for her move (her own
//! first move, then none once she has moved, then one again when her opponent, on a socket of
//! the test's, moves), lists them with links, and shows a browser notification while the tab is
//! hidden; the page of her games lists the match as hers to move with the time left; the
//! settings menu holds her vacation switch. On a 1400x900 window and on a phone, in both themes:
//! screenshots go to `target/screenshots/correspondence-<screen>-<page>-<theme>.png`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, Driver, Screen, by_testid};
use common::{Backend, Client, act, fresh_database, join_with_invite, new_player, start};
use protocol::{ClientMessage, MatchId};
use serde_json::json;

const SCREENS: [(Screen, &str); 2] = [
    (
        Screen::Window {
            width: 1400,
            height: 900,
        },
        "1400x900",
    ),
    (Screen::Phone, "390x844"),
];

/// The number the bell shows, once it shows `wanted` (0: no number at all).
async fn until_bell(b: &Browser, wanted: u32) {
    b.until(
        &format!("the bell to count {wanted}"),
        &format!(
            "const n = document.querySelector('[data-testid=bell-count]');
             return n && (n.hidden ? 0 : Number(n.textContent)) === {wanted};"
        ),
    )
    .await;
}

/// Makes the tab look hidden to the page, or shown again, and stands a recorder in for the
/// browser's notifications (already allowed), which a headless browser cannot show.
async fn hide_tab(b: &Browser, hidden: bool) {
    b.run(&format!(
        "window.shown ??= [];
         window.Notification = class {{
           static permission = 'granted';
           static requestPermission() {{ return Promise.resolve('granted'); }}
           constructor(title, options) {{ window.shown.push([title, options.tag]); }}
           close() {{}}
         }};
         Object.defineProperty(document, 'hidden', {{ value: {hidden}, configurable: true }});"
    ))
    .await;
}

async fn theme(b: &Browser, theme: &str) {
    b.run(&format!(
        "const select = document.querySelector('[data-testid=pref-theme]');
         select.value = {theme:?};
         select.dispatchEvent(new Event('change'));"
    ))
    .await;
    b.until(
        "the theme",
        &format!("return document.documentElement.dataset.theme === {theme:?};"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bell_and_the_games_page_show_a_correspondence_move_waiting() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    for (screen, screen_name) in SCREENS {
        let b = driver.browser(screen).await;
        let shot = |page: &str, look: &str| format!("correspondence-{screen_name}-{page}-{look}");
        b.register(addr, &format!("a{:08x}", rand::random::<u32>()))
            .await;
        // A player's bell, with nothing waiting yet.
        b.find(&by_testid("bell")).await;
        until_bell(&b, 0).await;

        // A private correspondence match, three days a move; the opponent joins with its code.
        b.select("private-game", "tafl").await;
        b.select("private-variant", "brandubh").await;
        b.select("private-time", "days-3").await;
        b.click("private-create").await;
        let code = b.text("invite-code").await;
        let match_id = b
            .until(
                "the match page",
                "const m = location.hash.match(/^#\\/match\\/(\\d+)/); return m && Number(m[1]);",
            )
            .await
            .as_i64()
            .map(MatchId)
            .unwrap();
        let bjorn = new_player(addr).await;
        let mut opponent = Client::connect(addr, &bjorn.token).await;
        opponent.ok(|id| join_with_invite(id, &code)).await;

        // Her first move waits for her, then nothing does.
        until_bell(&b, 1).await;
        b.until(
            "the match's clock named",
            "return document.querySelector('.match-head').textContent.includes('3 days a move');",
        )
        .await;
        b.play_tafl("a4", "a2").await;
        until_bell(&b, 0).await;

        // The opponent moves while her tab is in the background: the bell counts the match,
        // and the browser shows a notification.
        hide_tab(&b, true).await;
        let legal = opponent
            .ok(|id| ClientMessage::Legal {
                id,
                match_id,
                seat: 1,
            })
            .await
            .actions
            .unwrap();
        opponent.ok(|id| act(id, match_id, 1, &legal[0])).await;
        until_bell(&b, 1).await;
        let tag = format!("match-{}", match_id.0);
        let shown = b
            .until(
                "a notification",
                "return window.shown.length && window.shown;",
            )
            .await;
        assert_eq!(shown[0][1], json!(tag), "{shown}");
        assert_eq!(shown.as_array().unwrap().len(), 1, "{shown}");
        hide_tab(&b, false).await;

        // The bell lists the match, a link to it.
        b.click("bell").await;
        let notice = format!("notice-{}", match_id.0);
        b.until_text(&notice, "Brandubh 7×7").await;
        b.until_text("notices", "left").await;
        b.screenshot(&shot("bell", "light")).await;

        // The page of her games lists it as hers to move, with the time left.
        b.click("notice-all-games").await;
        let turn = format!("game-turn-{}", match_id.0);
        b.until_text(&turn, "Your move").await;
        b.until_text(&turn, "2 d 23 h left").await;
        b.until_text(&turn, "3 days a move").await;
        b.find(&format!(
            "{} svg",
            by_testid(&format!("game-board-{}", match_id.0))
        ))
        .await;
        b.screenshot(&shot("games", "light")).await;
        theme(&b, "dark").await;
        b.screenshot(&shot("games", "dark")).await;

        // Her vacation switch, in the settings menu.
        b.click("settings").await;
        b.until_text("vacation-state", "14 days of vacation left")
            .await;
        b.screenshot(&shot("settings", "dark")).await;
        b.click("bell").await;
        b.until_text(&notice, "Brandubh 7×7").await;
        b.screenshot(&shot("bell", "dark")).await;
        theme(&b, "light").await;
        b.assert_no_console_errors().await;
    }
}
