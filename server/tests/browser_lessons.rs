//! Learn to play, in a real headless Chromium against a server started here: a visitor goes from
//! the lobby to the tafl lesson, without a session (no guest to make), and is answered by the engine (a wrong move
//! explained and retried, an illegal one refused with its reason, a right one explained, a
//! capture shown on the board); a player on a phone finishes the Fox and Geese lesson, and the
//! lessons page then marks it finished. Screenshots of the lessons page and of steps answered,
//! light and dark, wide and on a phone, go to `target/screenshots/learn-*.png`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::sqlite_server;
use serde_json::json;

/// Screenshots of the page as it is, light and then dark.
async fn shots(b: &Browser, name: &str) {
    for scheme in ["light", "dark"] {
        b.emulate_colour_scheme(scheme).await;
        b.screenshot(&format!("learn-{name}-{scheme}")).await;
    }
    b.emulate_colour_scheme("light").await;
}

/// Asserts that the page logged no error but the one refusal of the move it asked the engine
/// about (the browser logs every 400 answer as a failed resource).
async fn only_the_refusal_logged(b: &Browser) {
    let errors = b.console_errors().await;
    let refusals = errors
        .iter()
        .filter(|e| e.contains("/api/analysis/position") && e.contains("400"))
        .count();
    assert!(
        refusals == 1 && errors.len() == 1,
        "the page logged errors: {errors:#?}"
    );
}

/// Types a move into the lesson's move box and plays it.
async fn type_move(b: &Browser, action: &str) {
    b.fill("move-input", action).await;
    b.click("move-submit").await;
}

/// The piece the tafl board shows on a square (`t` an attacker, `T` a defender, empty for none).
async fn piece_on(b: &Browser, square: &str) -> serde_json::Value {
    b.run(&format!(
        "return document.querySelector('[data-testid=board] [data-sq={square}]').dataset.piece ?? '';"
    ))
    .await
}

#[tokio::test]
async fn a_visitor_goes_from_the_lobby_to_the_tafl_lesson_and_is_answered() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    b.open(addr, "").await;
    b.find(&by_testid("lobby-learn")).await;
    shots(&b, "lobby-wide").await;
    b.click("lobby-learn-link").await;

    // A visitor needs no session: the lesson starts at once, and the server answers its moves.
    b.until_text("learn-counter", "Step 1 of 12").await;
    assert!(b.text("learn-goal").await.contains("d2 up to d8"));
    // The step's squares are framed on the board.
    assert_eq!(
        b.run("return [...document.querySelectorAll('[data-testid=board] .lesson-frame')].map((f) => f.dataset.mark);")
            .await,
        json!(["d2", "d8"])
    );

    // A legal move that is not the step's answer: explained, and the step can be tried again.
    b.play_tafl("d2", "d5").await;
    b.until_text("learn-wrong", "does not reach d8").await;
    assert_eq!(piece_on(&b, "d5").await, json!("t"));
    shots(&b, "wrong-wide").await;
    b.click("learn-retry").await;
    b.until(
        "the step set up again",
        "return document.querySelector('[data-testid=board] [data-sq=d2]').dataset.piece === 't';",
    )
    .await;

    // The right move: explained, and the next step offered.
    b.play_tafl("d2", "d8").await;
    b.until_text("learn-right", "d2 to d8 in one move").await;
    b.click("learn-next").await;
    b.until_text("learn-counter", "Step 2 of 12").await;

    // A move the engine refuses, typed: refused with the engine's reason, and nothing moves.
    type_move(&b, "e3-f4").await;
    b.find(&by_testid("learn-illegal")).await;
    let refused = b.text("learn-illegal").await;
    assert!(
        refused.starts_with("e3-f4 is not allowed here: "),
        "{refused}"
    );
    assert!(!refused.contains("action 1"), "{refused}");
    assert_eq!(piece_on(&b, "e3").await, json!("t"));

    // The capture: the defender on d7 is taken off the board.
    assert_eq!(piece_on(&b, "d7").await, json!("T"));
    b.play_tafl("e3", "e7").await;
    b.until_text("learn-right", "is removed").await;
    assert_eq!(piece_on(&b, "d7").await, json!(""));
    shots(&b, "right-wide").await;

    // Back to the first step, then to every lesson.
    b.click("learn-back").await;
    b.until_text("learn-counter", "Step 1 of 12").await;
    b.click("learn-all").await;
    b.find(&by_testid("lesson-driller")).await;
    assert!(b.text("lesson-tafl").await.contains("Copenhagen"));
    shots(&b, "list-wide").await;
    only_the_refusal_logged(&b).await;
}

#[tokio::test]
async fn a_player_on_a_phone_finishes_the_fox_and_geese_lesson() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(Screen::Phone).await;
    b.guest(addr).await;
    b.open(addr, "#/learn").await;
    b.find(&by_testid("lesson-fox-geese")).await;
    shots(&b, "list-phone").await;
    b.click("learn-fox-geese").await;
    b.until_text("learn-counter", "Step 1 of 3").await;

    // A goose may not step back: refused with the engine's reason.
    type_move(&b, "d2-d1").await;
    b.find(&by_testid("learn-illegal")).await;
    // Another goose's step: legal, but not the step's answer.
    type_move(&b, "a3-a4").await;
    b.until_text("learn-wrong", "d3 to go forward").await;
    shots(&b, "wrong-phone").await;
    b.click("learn-retry").await;
    b.until(
        "the step set up again",
        "return !document.querySelector('[data-testid=learn-wrong]');",
    )
    .await;

    for (n, action) in [(1, "d3-d4"), (2, "d5-d3"), (3, "b3-b4")] {
        b.until_text("learn-counter", &format!("Step {n} of 3"))
            .await;
        type_move(&b, action).await;
        b.find(&by_testid("learn-right")).await;
        if n == 2 {
            shots(&b, "right-phone").await;
        }
        b.click("learn-next").await;
    }
    b.until_text("learn-finished", "finished the Fox and Geese lesson")
        .await;
    shots(&b, "finished-phone").await;

    // The lessons page remembers it, in this browser.
    b.click("learn-all").await;
    b.find(&by_testid("lesson-done-fox-geese")).await;
    assert_eq!(
        b.run("return !!document.querySelector('[data-testid=lesson-done-tafl]');")
            .await,
        json!(false)
    );
    assert_eq!(
        b.run("return document.documentElement.scrollWidth <= window.innerWidth;")
            .await,
        json!(true),
        "the lessons page is wider than the phone"
    );
    only_the_refusal_logged(&b).await;
}

/// A move the client sends unchecked and the server refuses, in a German visitor's page, wide
/// and on a phone: the typed move is not one of the position's, the engine refuses it, and the
/// refusal is told in German under the step, nothing moved. (The match page offers only legal
/// moves and plays a premove only if it is legal when the turn comes, so the lesson's typed move
/// is the client's one path to a move the server refuses.)
#[tokio::test]
async fn a_german_visitor_is_told_in_german_why_a_typed_move_is_refused() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    for (screen, name) in [(WIDE, "wide"), (Screen::Phone, "phone")] {
        let b = driver.browser_speaking(screen, "de-DE").await;
        b.open(addr, "#/learn/tafl").await;
        b.until_text("learn-counter", "Schritt 1").await;
        shots(&b, &format!("visitor-de-{name}")).await;
        type_move(&b, "d2-e3").await;
        b.find(&by_testid("learn-illegal")).await;
        let refused = b.text("learn-illegal").await;
        assert!(
            refused.starts_with("d2-e3 ist hier nicht erlaubt: "),
            "{refused}"
        );
        // The engine's reason too, in German: not its English sentence.
        assert!(
            refused.ends_with(
                ": Der Zug von d2 nach e3 verläuft nicht entlang einer Reihe oder Linie."
            ),
            "{refused}"
        );
        assert!(!refused.contains("not along a rank or a file"), "{refused}");
        assert_eq!(piece_on(&b, "d2").await, json!("t"));
        shots(&b, &format!("refused-de-{name}")).await;
        only_the_refusal_logged(&b).await;
    }
}
