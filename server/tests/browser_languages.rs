//! The interface's languages in a real headless Chromium against a server started here: a
//! Swedish reader who makes the server refuse something in three places (a username taken at
//! registration, a wrong invite code, custom rules too long) reads each refusal in Swedish, with
//! its parameter put in, beside the control that caused it; so does a German reader on the
//! tournament, analysis and match pages and at the vacation switch; and the lobby and a match page in
//! Russian and Icelandic, on a wide screen and a phone, are no wider than the screen. Screenshots
//! at 1400 x 900 and on a phone go to `target/screenshots/` (`languages-*`).

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, Screen, WIDE, by_testid};
use common::{Backend, copenhagen_match, fresh_database, new_player, register, start, two_players};
use serde_json::json;

/// Waits for `error` to read `wanted`, then checks that it is shown right under `control` (its
/// top within two lines of the control's bottom), overlapping it across and inside the screen:
/// where the player looks after using the control, not at the top of the page nor below its
/// edge.
async fn refused_beside(b: &Browser, control: &str, error: &str, wanted: &str) {
    b.until_text(error, wanted).await;
    let script = format!(
        "const c = document.querySelector('{}').getBoundingClientRect();
         const e = document.querySelector('{}').getBoundingClientRect();
         return {{ gap: e.top - c.bottom, across: Math.min(c.right, e.right) - Math.max(c.left, e.left),
                  inside: e.top >= 0 && e.bottom <= innerHeight + 1 && e.left >= 0 && e.right <= innerWidth }};",
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
    assert_eq!(
        place["inside"],
        json!(true),
        "{error} is off the screen: {place}"
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
async fn server_errors_read_in_german_under_their_controls_on_the_other_pages() {
    // One analysis a minute, so that the second is refused with the wait in it.
    let extra = [
        "--analyses-per-minute",
        "1",
        "--analysis-burst",
        "1",
        "--analysis-ms",
        "100",
    ];
    let addr = start(&fresh_database(Backend::Sqlite).await, &extra).await;
    let driver = browser::Driver::start().await;
    for screen in [WIDE, Screen::Phone] {
        let size = if screen == WIDE { "wide" } else { "phone" };
        let b = driver.browser_speaking(screen, "de-DE").await;
        let (alice, _, mut a, mut bjorn) = two_players(addr).await;

        // A tournament started by its creator with nobody registered: the count is in it.
        b.sign_in(addr, &alice.token, "#/tournaments").await;
        b.fill("tournament-name", "Herbstturnier").await;
        b.click("tournament-create").await;
        b.click("tournament-start").await;
        refused_beside(
            &b,
            "tournament-start",
            "tournament-error",
            "Ein Turnier braucht zum Start mindestens zwei Teilnehmer; es hat 0.",
        )
        .await;
        b.screenshot(&format!("errors-de-tournament-{size}")).await;

        // A second analysis within the minute: the wait is in it, under the buttons (stacked in
        // the side panel on a wide screen, Evaluate first).
        b.open(addr, "#/analysis/game/tafl/brandubh").await;
        b.click("analysis-evaluate").await;
        b.find(&by_testid("analysis-score")).await;
        b.click("analysis-evaluate").await;
        refused_beside(
            &b,
            "analysis-controls",
            "analysis-error",
            "Zu viele Anfragen: versuche es in ",
        )
        .await;
        let text = b.text("analysis-error").await;
        let seconds = text
            .strip_prefix("Zu viele Anfragen: versuche es in ")
            .and_then(|rest| rest.strip_suffix(" s wieder."))
            .and_then(|n| n.parse::<u64>().ok());
        assert!(seconds.is_some_and(|s| (1..=60).contains(&s)), "{text}");
        b.screenshot(&format!("errors-de-analysis-{size}")).await;

        // A win claimed as soon as the opponent left (on a phone, the controls are under the
        // board): the grace is in it.
        let clock = json!({"clock": {"base_ms": 600_000, "increment_ms": 0}});
        let match_id = copenhagen_match(&mut a, &mut bjorn, clock).await;
        b.open(addr, &format!("#/match/{}", match_id.0)).await;
        b.find(&by_testid("resign")).await;
        bjorn.close().await;
        b.click("claim-win").await;
        refused_beside(
            &b,
            "claim-win",
            "match-error",
            "Ein Sieg kann beansprucht werden, wenn alle Gegner 60 s weg waren.",
        )
        .await;
        b.screenshot(&format!("errors-de-claim-{size}")).await;

        // Coming back from a vacation just begun: the minutes to wait are in it.
        b.click("settings").await;
        b.click("vacation").await;
        b.until_text("vacation-state", "Bis spätestens").await;
        b.click("vacation").await;
        refused_beside(
            &b,
            "vacation",
            "vacation-error",
            "Ein Urlaub dauert mindestens einen Tag: du kannst in 14",
        )
        .await;
        b.screenshot(&format!("errors-de-vacation-{size}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_a_match_fit_the_screen_in_russian_and_icelandic() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let player = new_player(addr).await;
    let mut socket = common::Client::connect(addr, &player.token).await;
    let against_ai = socket
        .ok(|id| common::play_ai(id, "copenhagen", 1, 1))
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
