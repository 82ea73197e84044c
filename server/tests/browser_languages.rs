//! The interface's languages in a real headless Chromium against a server started here: a
//! Swedish reader who makes the server refuse something in three places (a username taken at
//! registration, a wrong invite code, custom rules too long) reads each refusal in Swedish, with
//! its parameter put in, beside the control that caused it; and the lobby and a match page in
//! Russian and Icelandic, on a wide screen and a phone, are no wider than the screen. Screenshots
//! at 1400 x 900 and on a phone go to `target/screenshots/` (`languages-*`).

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, Screen, by_testid};
use common::{Backend, fresh_database, new_player, register, start};
use protocol::ClientMessage;

const WIDE: Screen = Screen::Window {
    width: 1400,
    height: 900,
};

/// Waits for `error` to read `wanted`, then checks that it is shown right under `control` (its
/// top within two lines of the control's bottom) and overlapping it across: where the player
/// looks after using the control, not at the top of the page.
async fn refused_beside(b: &Browser, control: &str, error: &str, wanted: &str) {
    b.until_text(error, wanted).await;
    let script = format!(
        "const c = document.querySelector('{}').getBoundingClientRect();
         const e = document.querySelector('{}').getBoundingClientRect();
         return {{ gap: e.top - c.bottom, across: Math.min(c.right, e.right) - Math.max(c.left, e.left) }};",
        by_testid(control),
        by_testid(error)
    );
    let place = b.run(&script).await;
    let gap = place["gap"].as_f64().unwrap();
    assert!(
        (0.0..=60.0).contains(&gap),
        "{error} is {gap} px from {control}: {place}"
    );
    assert!(
        place["across"].as_f64().unwrap() > 0.0,
        "{error} is not under {control}: {place}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_read_in_swedish_beside_the_control_that_caused_them() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    register(addr, "astrid").await;
    let driver = browser::Driver::start().await;
    for screen in [WIDE, Screen::Phone] {
        let size = if screen == WIDE { "wide" } else { "phone" };
        let b = driver.browser_speaking(screen, "sv-SE").await;

        // Registering a name that is taken: the name is in the message.
        b.open(addr, "").await;
        b.click("header-login").await;
        b.fill("login-username", "astrid").await;
        b.fill("login-password", "correct horse battery").await;
        b.click("register-submit").await;
        refused_beside(
            &b,
            "register-submit",
            "login-error",
            "Namnet astrid är upptaget: välj ett annat.",
        )
        .await;
        b.screenshot(&format!("languages-sv-taken-{size}")).await;

        // A player's lobby: a wrong invite code, and custom rules longer than the server takes.
        let player = new_player(addr).await;
        b.sign_in(addr, &player.token, "#/").await;
        b.fill("join-code", "NOSUCHCODE").await;
        b.click("join-submit").await;
        refused_beside(
            &b,
            "join-code",
            "join-error",
            "Inget parti har den här inbjudningskoden.",
        )
        .await;
        b.screenshot(&format!("languages-sv-join-{size}")).await;

        b.until("the custom rules' box", "const box = document.querySelector('details.custom'); return box && !box.hidden && (box.open = true);").await;
        b.run(&format!(
            "const rules = document.querySelector('{}');
             rules.value = 'dim:11 ' + 'x'.repeat(2100);
             rules.dispatchEvent(new Event('input'));",
            by_testid("custom-rules")
        ))
        .await;
        refused_beside(
            &b,
            "custom-rules",
            "custom-error",
            "Egna regler har högst 2000 tecken.",
        )
        .await;
        b.screenshot(&format!("languages-sv-custom-{size}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_a_match_fit_the_screen_in_russian_and_icelandic() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let player = new_player(addr).await;
    let mut socket = common::Client::connect(addr, &player.token).await;
    let against_ai = socket
        .ok(|id| ClientMessage::PlayAi {
            id,
            game: "tafl".into(),
            variant: Some("copenhagen".into()),
            seats: None,
            level: 1,
            time_control: None,
            rated: false,
            seat: Some(1),
        })
        .await
        .match_id
        .unwrap();
    let driver = browser::Driver::start().await;
    for (tag, lobby_word, match_word) in [
        ("ru-RU", "Быстрая игра", "Сдаться"),
        ("is-IS", "Hraðleikur", "Gefast upp"),
    ] {
        let code = &tag[..2];
        for screen in [WIDE, Screen::Phone] {
            let size = if screen == WIDE { "wide" } else { "phone" };
            let b = driver.browser_speaking(screen, tag).await;
            let pages = [
                ("lobby", "#/".to_string(), "quick-title", lobby_word),
                (
                    "match",
                    format!("#/match/{}", against_ai.0),
                    "resign",
                    match_word,
                ),
            ];
            for (page, hash, testid, word) in pages {
                b.sign_in(addr, &player.token, &hash).await;
                b.until_text(testid, word).await;
                b.screenshot(&format!("languages-{code}-{page}-{size}"))
                    .await;
                let widths = b
                    .run("return [document.documentElement.scrollWidth, innerWidth];")
                    .await;
                assert!(
                    widths[0].as_f64() <= widths[1].as_f64(),
                    "{code} {page} {size}: the page is wider than the screen: {widths}"
                );
            }
            b.assert_no_console_errors().await;
        }
    }
}
