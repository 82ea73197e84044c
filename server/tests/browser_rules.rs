//! The rules pages for players in a real headless Chromium: every game's page reads as rules for
//! a player (no file paths, file names or catalog ids in the text), draws every variant's start
//! from the engine's own layout (a tafl board with as many pieces as the engine's start has) and
//! small diagrams, shows each tafl variant's differences from Copenhagen in a table, and comes in
//! the reader's language. Screenshots of every game's first board, and of the tafl, Fox and
//! Geese, Hanoi, tower race and Tron pages (their top and first two diagrams) in English and
//! Swedish, light and dark, at 1400 x 900 and on a phone, go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Screen, WIDE};
use common::{Backend, fresh_database, start};
use serde_json::{Value, json};

/// What a player's page must not show: file paths and names, and the catalog's engineering words.
const ENGINEERING: &str = r"/\b[\w-]+\.(rs|md|txt|js|json|toml|pdf)\b|\b(src|docs|engine|server|web)\/|Catalog id|\w+_\w+\.\w+/";

/// Opens a game's rules and waits until its text is there; returns the text.
async fn open_rules(b: &Browser, addr: SocketAddr, game: &str) -> String {
    b.open(addr, &format!("#/rules/{game}")).await;
    b.until(
        &format!("the rules of {game}"),
        "const p = document.querySelector('[data-testid=rules]'); return p && p.innerText.length > 200;",
    )
    .await;
    b.run("return document.querySelector('[data-testid=rules]').innerText;")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits until every board of the page is drawn.
async fn until_drawn(b: &Browser, game: &str) {
    b.until(
        &format!("the boards of {game}"),
        "return document.querySelector('[data-testid=rules]')?.dataset.drawn === 'true';",
    )
    .await;
}

#[tokio::test]
async fn rules_pages_are_written_for_players() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let games = common::get(addr, "/api/games").await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    for g in games.as_array().unwrap() {
        let game = g["id"].as_str().unwrap();
        let text = open_rules(&b, addr, game).await;
        let engineering = b
            .run(&format!(
                "return document.querySelector('[data-testid=rules]').innerText.match({ENGINEERING}g);"
            ))
            .await;
        assert_eq!(
            engineering,
            Value::Null,
            "{game}: engineering text on a player's page"
        );
        assert!(text.contains("Sources and choices"), "{game}: sources last");
        until_drawn(&b, game).await;
        b.run("document.querySelector('[data-testid=rules] figure').scrollIntoView();")
            .await;
        b.screenshot(&format!("rules-{game}-start")).await;
        // Every variant's start is drawn by the game's board.
        for variant in g["variants"].as_array().unwrap() {
            let name = variant["name"].as_str().unwrap();
            let drawn = b
                .run(&format!(
                    "const f = document.querySelector('[data-testid=rules-start-{name}]'); return f && f.dataset.drawn === 'true' && !!f.querySelector('svg');"
                ))
                .await;
            assert_eq!(drawn, json!(true), "{game} {name}: its start drawn");
            // A tafl start has the pieces of the engine's layout (its rules string's `start`).
            if let Some(rules) = variant["rules"].as_str() {
                let start = rules.rsplit("start:").next().unwrap();
                let pieces = start.chars().filter(|c| "tTK".contains(*c)).count();
                let shown = b
                    .run(&format!(
                        "return document.querySelectorAll('[data-testid=rules-start-{name}] .piece-at').length;"
                    ))
                    .await;
                assert_eq!(shown, json!(pieces), "{game} {name}: the engine's pieces");
                if name != "copenhagen" {
                    let rows = b
                        .run(&format!(
                            "return [...document.querySelectorAll('[data-testid=rules-differences-{name}] tbody th')].map((th) => th.textContent);"
                        ))
                        .await;
                    assert_eq!(rows[0], json!("Board"), "{name}: {rows}");
                }
            }
        }
    }
    // Tafl's diagrams: a capture drawn before and after, the taken piece crossed out.
    open_rules(&b, addr, "tafl").await;
    until_drawn(&b, "tafl").await;
    let diagrams = b
        .run("return [...document.querySelectorAll('[data-testid=rules-diagram]')].map((d) => [d.querySelectorAll('svg').length, d.querySelectorAll('.diagram-taken').length]);")
        .await;
    assert!(
        diagrams.as_array().unwrap().contains(&json!([2, 1])),
        "a capture: {diagrams}"
    );
    // Brandubh's table: its king, weak away from the throne, and no encirclement.
    let brandubh = b
        .run("return document.querySelector('[data-testid=rules-differences-brandubh]').innerText;")
        .await;
    let brandubh = brandubh.as_str().unwrap();
    assert!(
        brandubh.contains("7×7") && brandubh.contains("Encircling all defenders wins\tyes\tno"),
        "{brandubh}"
    );
    // Hanoi's, the tower race's and Tron's diagrams, drawn panel by panel: Hanoi's split and
    // its winning tower, discs seen from the side; the tower race's pyramids with the die's roll
    // on the move; Tron's light-cycle heads, the crashed one crossed out.
    for (game, panels, stacked, heads, taken, roll) in [
        ("hanoi", json!([3, 2]), 19, 0, 0, json!([])),
        ("tower-race", json!([2]), 4, 0, 0, json!(["3"])),
        ("tron", json!([1, 2]), 0, 5, 1, json!([])),
    ] {
        open_rules(&b, addr, game).await;
        until_drawn(&b, game).await;
        let drawn = b
            .run("const d = [...document.querySelectorAll('[data-testid=rules-diagram]')]; const all = (css) => document.querySelectorAll(`[data-testid=rules-diagram] ${css}`); return [d.map((f) => f.querySelectorAll('svg').length), all('.diagram-stacked').length, all('.cycle-head').length, all('.diagram-taken').length, [...all('[data-testid=rules-diagram-roll]')].map((r) => r.textContent)];")
            .await;
        assert_eq!(
            drawn,
            json!([panels, stacked, heads, taken, roll]),
            "{game}: its diagrams"
        );
    }
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// A Swedish reader gets the Swedish page, its tables' words included; a reader of a language the
/// interface has no catalog for reads English, with no note.
#[tokio::test]
async fn rules_pages_come_in_the_readers_language() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let driver = Driver::start().await;
    for (language, shots) in [("en-GB", "en"), ("sv-SE", "sv")] {
        for (screen, size) in [(WIDE, "wide"), (Screen::Phone, "phone")] {
            let b = driver.browser_speaking(screen, language).await;
            for game in ["tafl", "fox-geese", "hanoi", "tower-race", "tron"] {
                let text = open_rules(&b, addr, game).await;
                until_drawn(&b, game).await;
                if shots == "sv" {
                    assert!(text.contains("Källor och val"), "{game}: {text}");
                    assert!(!text.contains("Sources and choices"), "{game}");
                    assert_eq!(
                        b.run("return document.querySelector('[data-testid=rules]').lang;")
                            .await,
                        json!("sv")
                    );
                }
                assert_eq!(
                    b.run(
                        "return document.querySelectorAll('[data-testid=rules-language]').length;"
                    )
                    .await,
                    json!(0),
                    "{game}: written in the reader's language"
                );
                assert_eq!(
                    b.run("return document.documentElement.scrollWidth <= window.innerWidth;")
                        .await,
                    json!(true),
                    "{game} {size}: no sideways scrolling"
                );
                for theme in ["light", "dark"] {
                    b.emulate_colour_scheme(theme).await;
                    // The top, and the first two diagrams (Hanoi's and Tron's two) in the
                    // middle of the screen, clear of the header.
                    for (at, css, nth, block) in [
                        ("top", "h1", 0, "start"),
                        ("diagram", "[data-testid=rules-diagram]", 0, "center"),
                        ("diagram2", "[data-testid=rules-diagram]", 1, "center"),
                    ] {
                        let shown = b.run(&format!(
                            "const e = document.querySelectorAll('[data-testid=rules] {css}')[{nth}]; e?.scrollIntoView({{ block: '{block}' }}); return !!e;"
                        ))
                        .await;
                        if shown != json!(true) {
                            continue;
                        }
                        b.screenshot(&format!("rules-{game}-{shots}-{size}-{theme}-{at}"))
                            .await;
                    }
                }
                if game == "tafl" && shots == "sv" {
                    let head = b
                        .run("return document.querySelector('[data-testid=rules-differences-brandubh] thead th').textContent;")
                        .await;
                    assert_eq!(head, json!("Regel"));
                }
            }
            b.assert_no_console_errors().await;
            b.client.close().await.unwrap();
        }
    }
}
