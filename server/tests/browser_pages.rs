//! The client's own pages and files in a real headless Chromium against a server started here:
//! a visitor who has not logged in, watching a live match from the lobby's list of boards; the
//! rules pages, which a visitor reads too and the lobby and match page link to; a finished match's record, downloaded from the match and replay pages; the installable
//! app (its manifest, the service worker, and the offline page shown when the server cannot be
//! reached); and the weight of the lobby's first load. Screenshots of the visitor's lobby and
//! match, and of the rules and offline pages, at 1400 x 900 and on a phone go to
//! `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Relay, Screen, WIDE, by_testid};
use common::{Backend, Client, fresh_database, sqlite_server, start};
use serde_json::json;

/// Whether the page is no wider than the window: wide diagrams and tables scroll on their own.
async fn fits_the_width(b: &Browser) -> bool {
    b.run("return document.documentElement.scrollWidth <= window.innerWidth;")
        .await
        == json!(true)
}

/// The piece a tafl board inside `css` shows on a square (`t` an attacker, empty for none).
async fn piece_on(b: &Browser, css: &str, square: &str) -> serde_json::Value {
    b.run(&format!(
        "const s = document.querySelector('{css} [data-sq={square}]'); return s && (s.dataset.piece ?? null);"
    ))
    .await
}

/// A visitor, who has not logged in, sees the lobby's live matches, each with a small board of
/// its position and how many watch it, and a prompt to log in or play as a guest instead of the
/// forms; opens a Brandubh match and watches its moves arrive, counted among its watchers; then
/// plays as a guest, and the match page stays. Wide and on a phone, with screenshots; every game
/// being played shows its board in the list.
#[tokio::test]
async fn a_visitor_watches_a_live_match_without_logging_in() {
    let addr = sqlite_server().await;
    let (_, _, mut a, mut b) = common::two_guests(addr).await;
    let m = a
        .ok(|id| common::create(id, "tafl", "brandubh", json!({})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, m)).await;
    a.ok(|id| common::act(id, m, 0, "d1-c1")).await;
    // Every other game, against the AI, for the list's boards.
    let host = common::guest(addr).await;
    let mut h = Client::connect(addr, &host.token).await;
    for game in ["fox-geese", "hanoi", "tower-race", "tron", "driller"] {
        h.ok(|id| common::play_ai_game(id, game, 1)).await;
    }

    let driver = Driver::start().await;
    let wide = driver.browser(WIDE).await;
    let phone = driver.browser(Screen::Phone).await;
    let board = by_testid(&format!("live-board-{}", m.0));
    for (page, name) in [(&wide, "visitor-lobby"), (&phone, "visitor-lobby-phone")] {
        page.open(addr, "").await;
        page.find(&by_testid("play-prompt")).await;
        page.find(&by_testid("header-guest")).await;
        page.until(
            "six boards in the live list",
            "return document.querySelectorAll('[data-testid=live-matches] .mini svg').length === 6;",
        )
        .await;
        assert_eq!(piece_on(page, &board, "c1").await, json!("t"), "{name}");
        assert_eq!(piece_on(page, &board, "d1").await, json!(""), "{name}");
        page.until_text(&format!("live-watchers-{}", m.0), "0 watching")
            .await;
        assert_eq!(
            page.run("return document.querySelectorAll('[data-testid=hotseat-create], [data-testid=queue-join]').length;")
                .await,
            json!(0),
            "no forms that play"
        );
        assert!(fits_the_width(page).await, "{name}");
        page.screenshot(name).await;
    }

    for (page, watchers) in [(&wide, "1 watching"), (&phone, "2 watching")] {
        page.click(&format!("live-{}", m.0)).await;
        page.until_text("turn", "to play (watching)").await;
        page.until_moves(1).await;
        page.until_text("watchers", watchers).await;
    }
    b.ok(|id| common::act(id, m, 1, "d3-b3")).await;
    for (page, name) in [(&wide, "visitor-match"), (&phone, "visitor-match-phone")] {
        page.until_moves(2).await;
        page.until_text("watchers", "2 watching").await;
        assert_eq!(page.text("move-1").await, "d3-b3");
        assert!(fits_the_width(page).await, "{name}");
        page.screenshot(name).await;
    }
    let live = common::get(addr, "/api/matches/live").await;
    let entry = live.as_array().unwrap().iter().find(|e| e["id"] == m.0);
    assert_eq!(entry.unwrap()["watchers"], 2, "{live}");

    // The visitor plays as a guest: the socket is the guest's now, on the same page, still
    // watching (and still counted once).
    wide.click("header-guest").await;
    wide.find(&by_testid("me")).await;
    assert!(
        wide.run("return location.hash;")
            .await
            .as_str()
            .unwrap()
            .ends_with(&format!("/match/{}", m.0))
    );
    wide.until_moves(2).await;
    wide.until_text("turn", "to play (watching)").await;
    wide.until_text("watchers", "2 watching").await;
    for page in [wide, phone] {
        page.assert_no_console_errors().await;
        page.client.close().await.unwrap();
    }
}

/// A visitor reads the rules of every game without an account, wide and on a phone, with the
/// diagrams drawn as boards and tables that do not widen the page; a player finds them from the
/// lobby's game pickers and from a match.
#[tokio::test]
async fn rules_pages_are_read_without_logging_in() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    for (screen, name) in [(WIDE, "rules"), (Screen::Phone, "rules-phone")] {
        let b = driver.browser(screen).await;
        b.open(addr, "").await;
        b.click("header-login").await;
        b.click("login-rules").await;
        b.until_text("rules", "Copenhagen Hnefatafl").await;
        b.until(
            "the diagrams drawn",
            "return document.querySelector('[data-testid=rules]').dataset.drawn === 'true' && document.querySelectorAll('[data-testid=rules-diagram] svg').length >= 2;",
        )
        .await;
        assert!(
            b.run(
                "return document.querySelectorAll('[data-testid=rules] .scroll > table').length;"
            )
            .await
            .as_u64()
            .unwrap()
                >= 1,
            "tables scroll on their own"
        );
        assert!(fits_the_width(&b).await, "{name}: no sideways scrolling");
        for (what, css) in [
            ("table", "table"),
            ("diagram", "[data-testid=rules-diagram]"),
        ] {
            b.run(&format!(
                "document.querySelector('[data-testid=rules] {css}').scrollIntoView();"
            ))
            .await;
            b.screenshot(&format!("{name}-{what}")).await;
        }
        b.run("window.scrollTo(0, 0);").await;
        b.screenshot(name).await;

        b.click("rules-of-fox-geese").await;
        b.until_text("rules", "Fox and Geese").await;
        assert!(fits_the_width(&b).await, "{name}: fox and geese");
        b.client.close().await.unwrap();
    }

    let b = driver.browser(WIDE).await;
    b.open(addr, "#/rules/chess").await;
    b.until_text("rules-error", "there is no game 'chess'")
        .await;
    b.guest(addr).await;
    b.select("hotseat-game", "fox-geese").await;
    b.until_text("hotseat-rules", "Rules of Fox and Geese")
        .await;
    b.click("hotseat-rules").await;
    b.until_text("rules", "Fox and Geese").await;
    b.open(addr, "").await;
    b.hotseat("tafl", "brandubh").await;
    b.click("rules-link").await;
    b.until_text("rules", "Copenhagen Hnefatafl").await;
    b.client.close().await.unwrap();
}

/// A hot-seat Brandubh match played two moves and resigned: the match page and the replay page
/// offer its record, which downloads as its OpenTafl record.
#[tokio::test]
async fn a_finished_match_offers_its_record_for_download() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(browser::DESKTOP).await;
    b.guest(addr).await;
    let id = b.hotseat("tafl", "brandubh").await;
    assert_eq!(
        b.run("return document.querySelectorAll('[data-testid=download-record]').length;")
            .await,
        json!(0),
        "no record before the end"
    );
    b.play_tafl("d1", "c1").await;
    b.until_moves(1).await;
    b.play_tafl("d3", "b3").await;
    b.until_moves(2).await;
    b.click("resign").await;
    b.click("resign-confirm").await;
    b.find("[data-testid=result]:not([hidden])").await;

    let record = common::get(addr, &format!("/api/matches/{id}")).await;
    let expected = record["record"]["text"].as_str().unwrap().to_string();
    assert!(expected.contains("1. d1-c1 d3-b3"), "{expected}");
    let fetch_link = "const a = document.querySelector('[data-testid=download-record]');
        if (!a.hasAttribute('download')) throw new Error('not a download link');
        return fetch(a.href).then(async (r) => [r.status, r.headers.get('content-disposition'), await r.text()]);";
    for page in ["match", "replay"] {
        if page == "replay" {
            b.open(addr, &format!("#/replay/{id}")).await;
            b.until_text("replay-position", "0 / 2").await;
        }
        b.until_text("download-record", "Download record").await;
        let got = b.resolve(&format!("(() => {{ {fetch_link} }})()")).await;
        assert_eq!(
            got,
            json!([
                200,
                format!("attachment; filename=\"match-{id}.opentafl.txt\""),
                expected
            ]),
            "{page}"
        );
    }
    b.client.close().await.unwrap();
}

/// The page links the manifest; the service worker registers and keeps the client's files but
/// never the API; with the server cut off, a reload shows the offline page instead of the
/// browser's error, and once the server is back, "Try again" brings the app back.
#[tokio::test]
async fn the_app_installs_and_shows_an_offline_page_without_the_server() {
    let addr = sqlite_server().await;
    let relay = Relay::start(addr).await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    b.guest(relay.addr).await;
    let manifest = b
        .resolve("fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
        .await;
    assert_eq!(manifest["short_name"], "Tafl");
    b.until(
        "the service worker to control the page",
        "return !!navigator.serviceWorker.controller;",
    )
    .await;
    // A second page load goes through the worker, which keeps the versioned files it serves.
    b.client.refresh().await.unwrap();
    b.find(&by_testid("hotseat-create")).await;
    let kept = b
        .resolve(
            "caches.keys().then(async (names) => {
               const urls = [];
               for (const name of names) {
                 for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
               }
               return urls;
             })",
        )
        .await;
    let kept: Vec<&str> = kept
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    assert!(kept.contains(&"/offline.html"), "{kept:?}");
    assert!(
        kept.iter()
            .any(|u| u.starts_with("/v/") && u.ends_with("/app.js")),
        "{kept:?}"
    );
    assert!(
        kept.iter().any(|u| u.ends_with("/pages/lobby.js")),
        "{kept:?}"
    );
    assert!(
        kept.iter().all(|u| !u.starts_with("/api/") && *u != "/ws"),
        "no live data kept: {kept:?}"
    );

    // A phone too, its worker installed before the server goes.
    let phone = driver.browser(Screen::Phone).await;
    phone.open(relay.addr, "").await;
    phone
        .until(
            "the service worker on the phone",
            "return !!navigator.serviceWorker.controller;",
        )
        .await;

    relay.cut();
    for (page, name) in [(&b, "offline"), (&phone, "offline-phone")] {
        page.client.refresh().await.unwrap();
        page.until_text("offline", "You are offline").await;
        // Styled by its own file, kept by the worker: the policy refuses inline styles.
        page.until(
            "the offline page's styles",
            "return getComputedStyle(document.querySelector('header')).backgroundColor === 'rgb(43, 33, 24)';",
        )
        .await;
        assert!(fits_the_width(page).await, "{name}");
        page.screenshot(name).await;
    }

    relay.restore();
    b.click("offline-retry").await;
    b.find(&by_testid("hotseat-create")).await;
    b.client.close().await.unwrap();
    phone.client.close().await.unwrap();
}

/// The paths of the page and every file it loaded, the API aside, each once, as the browser lists
/// them (its resource timing).
async fn loaded(b: &Browser) -> Vec<String> {
    let paths = b
        .run(
            "return [...new Set([...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
               .map((e) => new URL(e.name).pathname).filter((p) => !p.startsWith('/api/')))];",
        )
        .await;
    serde_json::from_value(paths).unwrap()
}

/// The bytes the server sends for these paths to a browser that takes gzip: the compressed
/// bodies. (The browser cannot tell them all: what the service worker fetched for the page, it
/// reports uncompressed.)
async fn compressed_size(addr: SocketAddr, paths: &[String]) -> usize {
    let mut total = 0;
    for path in paths {
        let response = common::http()
            .get(format!("http://{addr}{path}"))
            .header("accept-encoding", "gzip, deflate, br, zstd")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        total += response.bytes().await.unwrap().len();
    }
    total
}

/// The lobby's first load (its page, scripts, styles and icons, compressed; it has no fonts)
/// stays within 150 KB, and three.js is not part of it: it loads when the 3D view is picked. Both
/// sizes are printed.
#[tokio::test]
async fn the_lobby_loads_within_its_budget_and_three_js_only_for_the_3d_view() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(browser::DESKTOP).await;
    b.guest(addr).await;
    // Every module the lobby imports has been requested by the time its forms are drawn.
    let lobby = loaded(&b).await;
    let size = compressed_size(addr, &lobby).await;
    eprintln!(
        "the lobby's first load: {size} bytes compressed, in {} files: {lobby:?}",
        lobby.len()
    );
    for wanted in [
        "/",
        "/style.css",
        "/app.js",
        "/pages/lobby.js",
        "/boards/index.js",
    ] {
        assert!(
            lobby.iter().any(|n| n.ends_with(wanted)),
            "{wanted} in {lobby:?}"
        );
    }
    assert!(size > 10_000, "the sizes are counted: {size}");
    assert!(size <= 150_000, "the lobby weighs {size} bytes");
    assert!(lobby.iter().all(|n| !n.contains("three")), "{lobby:?}");

    b.hotseat("tafl", "brandubh").await;
    b.find(&by_testid("sq-d4")).await;
    assert!(
        loaded(&b).await.iter().all(|n| !n.contains("three")),
        "not for the 2D board"
    );
    b.click("toggle-3d").await;
    b.find(&by_testid("board3d")).await;
    let three: Vec<String> = loaded(&b)
        .await
        .into_iter()
        .filter(|n| n.contains("/vendor/three/"))
        .collect();
    assert_eq!(
        three.len(),
        2,
        "three.module.min.js and three.core.min.js: {three:?}"
    );
    let size = compressed_size(addr, &three).await;
    eprintln!("three.js for the 3D view: {size} bytes compressed");
    assert!(size < 220_000, "three.js weighs {size} bytes compressed");
    b.client.close().await.unwrap();
}

/// The interface speaks the reader's language: a browser set to German gets the German lobby at
/// once; the switch in the settings menu turns it Swedish, kept over a reload, and back to English. The rules
/// page, read in German, is written in German.
#[tokio::test]
async fn the_lobby_speaks_the_browsers_language_and_the_switch_changes_it() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    for (screen, name) in [(WIDE, "lobby-de"), (Screen::Phone, "lobby-de-phone")] {
        let b = driver.browser_speaking(screen, "de-DE").await;
        b.guest(addr).await;
        b.until_text("quick-title", "Schnelles Spiel").await;
        // On a phone the page links are behind the bar's menu button.
        if screen == Screen::Phone {
            b.click("nav-menu").await;
        }
        assert_eq!(b.text("nav-rules").await, "Regeln");
        assert_eq!(
            b.run("return document.documentElement.lang;").await,
            json!("de")
        );
        assert!(fits_the_width(&b).await, "the German lobby fits the width");
        b.screenshot(name).await;
        b.client.close().await.unwrap();
    }

    let b = driver.browser_speaking(WIDE, "de-DE").await;
    b.guest(addr).await;
    b.click("settings").await;
    b.select("language", "sv").await;
    b.until_text("quick-title", "Snabbspel").await;
    assert_eq!(b.text("nav-rules").await, "Regler");
    b.screenshot("lobby-sv").await;
    b.open(addr, "").await;
    b.until_text("quick-title", "Snabbspel").await;
    b.click("settings").await;
    b.select("language", "en").await;
    b.until_text("quick-title", "Quick play").await;
    assert_eq!(
        b.run("return document.documentElement.lang;").await,
        json!("en")
    );
    b.select("language", "de").await;
    // The rules come in the page's language, with no note that they are in English.
    b.open(addr, "#/rules/fox-geese").await;
    b.until_text("rules", "Fuchs und Gänse").await;
    assert_eq!(
        b.run("return document.querySelectorAll('[data-testid=rules-language]').length;")
            .await,
        json!(0)
    );
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// The analysis board: a finished match's last position opens from its result; a free move is
/// played on the board and taken back, and the AI's evaluation and line come on request; a
/// typed Brandubh position marks the king's escapes and the piece under threat on their squares
/// and lists them.
#[tokio::test]
async fn the_analysis_board_plays_free_moves_and_evaluates_on_request() {
    let addr = start(
        &fresh_database(Backend::Sqlite).await,
        &["--analysis-ms", "300"],
    )
    .await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    b.guest(addr).await;
    b.hotseat("tafl", "brandubh").await;
    b.play_tafl("b4", "b6").await;
    b.until_moves(1).await;
    b.play_tafl("d5", "f5").await;
    b.until_moves(2).await;
    b.click("resign").await;
    b.click("resign-confirm").await;
    b.click("analyse-link").await;

    b.play_tafl("d6", "e6").await;
    b.until_text("analysis-moves", "e6").await;
    b.click("analysis-evaluate").await;
    b.until_text("analysis-score", "%").await;
    let line = b.text("analysis-line").await;
    assert!(line.starts_with("Best line: "), "{line}");
    b.screenshot("analysis").await;
    b.click("analysis-undo").await;
    b.until(
        "the move taken back",
        "return document.querySelector('[data-testid=analysis-moves]').children.length === 0;",
    )
    .await;

    b.open(addr, "#/analysis/game/tafl/brandubh").await;
    b.click_css("details.custom summary").await;
    b.fill("analysis-position", "/4T2/2tT3/5tT/K6/4t2/7/7/")
        .await;
    b.select("analysis-to-move", "0").await;
    b.click("analysis-set").await;
    b.until_text("analysis-escapes", "a4-a7").await;
    b.until_text("analysis-threats", "d2").await;
    let marked = b
        .run("return [...document.querySelectorAll('.escape, .threatened')].map((n) => `${n.dataset.testid} ${n.getAttribute('class')}`).sort();")
        .await;
    let marked = marked.to_string();
    assert!(
        marked.contains("sq-a7") && marked.contains("sq-d2"),
        "{marked}"
    );
    b.screenshot("analysis-insights").await;
    b.assert_no_console_errors().await;
    let phone = driver.browser(Screen::Phone).await;
    phone.guest(addr).await;
    phone
        .open(addr, "#/analysis/game/fox-geese/hala-tafl")
        .await;
    phone.find(&by_testid("analysis-evaluate")).await;
    phone
        .until(
            "the board",
            "return !!document.querySelector('[data-testid=board] svg');",
        )
        .await;
    phone.screenshot("analysis-phone").await;
}
