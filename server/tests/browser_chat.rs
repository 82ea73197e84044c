//! The chat in a real headless Chromium: two players chat during a match (one on a phone), a
//! spectator's message never shows to them while the game is on and does once it is over, the
//! replay shows what was said in both channels, a message is muted and reported from the page,
//! and the lobby's chat reaches a visitor, who may not write. Screenshots at 1400x900 (in the
//! dark theme too) and on a phone go to `target/screenshots/chat-*`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, Client, create, fresh_database, join, start};
use protocol::MatchId;
use serde_json::json;

/// The texts of the chat messages a page shows (of the channel it shows).
async fn chat_texts(b: &Browser) -> Vec<String> {
    let texts = b
        .run("return [...document.querySelectorAll('[data-testid=chat-messages] .chat-text')].map((e) => e.textContent);")
        .await;
    serde_json::from_value(texts).unwrap()
}

async fn until_chat(b: &Browser, text: &str) {
    b.until(
        &format!("'{text}' in the chat"),
        &format!(
            "return [...document.querySelectorAll('[data-testid=chat-messages] .chat-text')].some((e) => e.textContent === {});",
            json!(text)
        ),
    )
    .await;
}

/// Writes a message in the page's chat, once the page lets the user write.
async fn write(b: &Browser, text: &str) {
    b.until(
        "the chat's box to write in",
        "const f = document.querySelector('.chat-form'); return f && !f.hidden;",
    )
    .await;
    b.fill("chat-input", text).await;
    b.click("chat-send").await;
    b.until(
        "the message sent",
        "return document.querySelector('[data-testid=chat-input]').value === '';",
    )
    .await;
}

/// The id of the message with this text on the page.
async fn message_id(b: &Browser, text: &str) -> u64 {
    let id = b
        .run(&format!(
            "const li = [...document.querySelectorAll('[data-testid^=chat-message-]')]
               .find((e) => e.querySelector('.chat-text')?.textContent === {});
             return li && Number(li.dataset.testid.slice('chat-message-'.length));",
            json!(text)
        ))
        .await;
    id.as_u64().unwrap()
}

/// The session token a browser keeps.
async fn token(b: &Browser) -> String {
    b.run("return localStorage.getItem('tafl.token');")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Scrolls the chat into view, for a screenshot of it.
async fn show_chat(b: &Browser) {
    b.run("document.querySelector('[data-testid=chat]').scrollIntoView({block: 'end'});")
        .await;
}

async fn open_match(b: &Browser, addr: SocketAddr, m: MatchId) {
    b.open(addr, &format!("#/match/{}", m.0)).await;
    b.find(&by_testid("sq-d1")).await;
}

#[tokio::test]
async fn players_chat_apart_from_spectators_and_the_replay_shows_both() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    let alice = driver.browser(WIDE).await;
    let bjorn = driver.browser(Screen::Phone).await;
    let carla = driver.browser(WIDE).await;
    alice.register(addr, "alice").await;
    bjorn.register(addr, "bjorn").await;
    carla.register(addr, "carla").await;

    // Alice opens a casual Copenhagen match and bjorn takes the other seat; both play it in
    // their browsers, and carla watches it.
    let mut a = Client::connect(addr, &token(&alice).await).await;
    let mut b = Client::connect(addr, &token(&bjorn).await).await;
    let m = a
        .ok(|id| create(id, "tafl", "copenhagen", json!({})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| join(id, m)).await;
    for page in [&alice, &bjorn, &carla] {
        open_match(page, addr, m).await;
    }

    write(&alice, "Good luck, bjorn!").await;
    until_chat(&bjorn, "Good luck, bjorn!").await;
    bjorn
        .until_text("chat-hint", "Only the players read this")
        .await;
    write(&carla, "<b>nice</b> opening").await;
    until_chat(&carla, "<b>nice</b> opening").await;
    carla
        .until_text("chat-hint", "The players do not read this")
        .await;
    // The spectator's message, shown as typed (text, not markup), reaches neither player: the
    // players' next message does, alone after the first.
    assert_eq!(
        carla
            .run("return document.querySelectorAll('[data-testid=chat-messages] b').length;")
            .await,
        json!(0),
        "a message is text, never markup"
    );
    write(&bjorn, "Thanks, you too").await;
    for page in [&alice, &bjorn] {
        until_chat(page, "Thanks, you too").await;
        assert_eq!(
            chat_texts(page).await,
            ["Good luck, bjorn!", "Thanks, you too"],
            "the players read only their own channel"
        );
    }
    assert_eq!(chat_texts(&carla).await, ["<b>nice</b> opening"]);
    alice.screenshot("chat-match-1400x900").await;
    show_chat(&bjorn).await;
    bjorn.screenshot("chat-match-phone").await;
    carla.screenshot("chat-spectator-1400x900").await;
    alice.emulate_colour_scheme("dark").await;
    alice
        .until(
            "the dark theme",
            "return document.documentElement.dataset.theme === 'dark';",
        )
        .await;
    alice.screenshot("chat-match-1400x900-dark").await;

    // Once the game is over, the players read the spectators too.
    alice.click("resign").await;
    alice.click("resign-confirm").await;
    alice.find("[data-testid=result]:not([hidden])").await;
    alice.click("chat-tab-spectators").await;
    until_chat(&alice, "<b>nice</b> opening").await;
    carla.click("chat-tab-players").await;
    until_chat(&carla, "Thanks, you too").await;

    // The replay shows what was said, both channels.
    bjorn.open(addr, &format!("#/replay/{}", m.0)).await;
    until_chat(&bjorn, "Good luck, bjorn!").await;
    assert_eq!(
        chat_texts(&bjorn).await,
        ["Good luck, bjorn!", "Thanks, you too"]
    );
    bjorn.click("chat-tab-spectators").await;
    until_chat(&bjorn, "<b>nice</b> opening").await;
    show_chat(&bjorn).await;
    bjorn.screenshot("chat-replay-phone").await;

    // From the page: bjorn mutes carla (her messages go, until unmuted) and reports her message.
    let hers = message_id(&bjorn, "<b>nice</b> opening").await;
    bjorn.click(&format!("chat-mute-{hers}")).await;
    bjorn
        .until(
            "carla's message hidden",
            &format!(
                "return !document.querySelector('{}');",
                by_testid(&format!("chat-message-{hers}"))
            ),
        )
        .await;
    bjorn.click_css(".chat-muted summary").await;
    bjorn.until_text("chat", "1 player muted").await;
    bjorn.click_css("[data-testid^=chat-unmute-]").await;
    until_chat(&bjorn, "<b>nice</b> opening").await;
    bjorn.click(&format!("chat-report-{hers}")).await;
    bjorn
        .fill(&format!("chat-report-reason-{hers}"), "mocks the players")
        .await;
    bjorn.click(&format!("chat-report-send-{hers}")).await;
    bjorn
        .until_text(&format!("chat-message-{hers}"), "reported")
        .await;

    alice.open(addr, &format!("#/replay/{}", m.0)).await;
    until_chat(&alice, "Thanks, you too").await;
    alice.screenshot("chat-replay-1400x900-dark").await;
    for page in [&alice, &bjorn, &carla] {
        page.assert_no_console_errors().await;
    }
    for page in [alice, bjorn, carla] {
        page.client.close().await.unwrap();
    }
}

#[tokio::test]
async fn the_lobby_chat_reaches_a_visitor_who_may_not_write() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    let alice = driver.browser(WIDE).await;
    let visitor = driver.browser(Screen::Phone).await;
    alice.register(addr, "alice").await;
    visitor.open(addr, "").await;
    visitor.find(&by_testid("header-login")).await;
    visitor.until_text("chat-hint", "Log in to chat.").await;

    write(&alice, "Anyone for brandubh?").await;
    until_chat(&visitor, "Anyone for brandubh?").await;
    assert_eq!(
        visitor
            .run("return document.querySelector('.chat-form').hidden;")
            .await,
        json!(true),
        "a visitor has no box to write in"
    );
    until_chat(&alice, "Anyone for brandubh?").await;
    alice.screenshot("chat-lobby-1400x900").await;
    show_chat(&visitor).await;
    visitor.screenshot("chat-lobby-phone").await;
    for page in [alice, visitor] {
        page.assert_no_console_errors().await;
        page.client.close().await.unwrap();
    }
}
