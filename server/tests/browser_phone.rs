//! The client on a 390 x 844 phone, in a real headless Chromium against a server started here: no
//! page is wider than the screen; the bar's panels and the notifications stay inside it; an
//! error shows beside the control that caused it; the bar is compact (its links behind one
//! button) and stays at the top; an 11x11 game's board and both clocks are on the first screen;
//! and a board whose squares would be drawn small zooms in, pans and still plays. Screenshots of
//! every page on a phone and at 1400 x 900, light and dark, go to
//! `target/screenshots/phone-<screen>-<page>-<theme>`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::Duration;

use browser::{Browser, Driver, Pointer, Screen, WIDE, by_testid};
use common::{Client, sqlite_server};
use protocol::{ChallengeSpec, ClientMessage, MatchId, Session};
use serde_json::{Value, json};

/// Every game's id, for its rules page and a live match of it.
const GAMES: [&str; 6] = [
    "tafl",
    "fox-geese",
    "hanoi",
    "tower-race",
    "tron",
    "driller",
];

/// A browser on `screen` signed in as `who`, on `hash`.
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

async fn post_as(addr: SocketAddr, token: &str, path: &str, body: Value) -> Value {
    let response = common::http()
        .post(format!("http://{addr}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "POST {path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

/// What the pages show: alice's and bjorn's rated Copenhagen game on a clock, a live Alea
/// Evangelii game between them, a finished game in their recent matches, alice against the AI in
/// every game, and two tournaments (one of AI entrants under way, one open).
struct World {
    alice: Session,
    bjorn: Session,
    copenhagen: MatchId,
    alea: MatchId,
    finished: MatchId,
    /// Alice's match against the AI in each game of `GAMES`.
    against_ai: Vec<MatchId>,
    tournament: i64,
}

async fn world(addr: SocketAddr) -> World {
    let (alice, bjorn, mut a, mut b) = common::two_players(addr).await;
    let clock = json!({"base_ms": 600_000, "increment_ms": 5000});
    let copenhagen =
        common::copenhagen_match(&mut a, &mut b, json!({"rated": true, "clock": clock})).await;
    let (moves, _) = common::short_copenhagen_game();
    a.ok(|id| common::act(id, copenhagen, 0, &moves[0])).await;
    b.ok(|id| common::act(id, copenhagen, 1, &moves[1])).await;

    let alea = a
        .ok(|id| common::create(id, "tafl", "alea-evangelii", json!({})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, alea)).await;
    let finished = a
        .ok(|id| common::create(id, "tafl", "brandubh", json!({})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, finished)).await;
    a.ok(|id| common::act(id, finished, 0, "d1-c1")).await;
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id: finished,
        seat: 0,
    })
    .await;

    let mut against_ai = Vec::new();
    for game in GAMES {
        let ack = a.ok(|id| common::play_ai_game(id, game, 1)).await;
        against_ai.push(ack.match_id.unwrap());
    }

    let carla = common::new_player(addr).await;
    let spec = |name: &str| json!({"name": name, "game": "tafl", "variant": "brandubh", "format": "round_robin", "time_control": "blitz"});
    let running = post_as(
        addr,
        &carla.token,
        "/api/tournaments",
        spec("Midwinter round robin of the northern clubs"),
    )
    .await;
    let tournament = running["summary"]["id"].as_i64().unwrap();
    for level in 1..=3 {
        let path = format!("/api/tournaments/{tournament}/entrants");
        post_as(addr, &carla.token, &path, json!({"ai_level": level})).await;
    }
    post_as(
        addr,
        &carla.token,
        &format!("/api/tournaments/{tournament}/start"),
        json!(null),
    )
    .await;
    let open = post_as(addr, &carla.token, "/api/tournaments", spec("Spring open")).await;
    let open = open["summary"]["id"].as_i64().unwrap();
    post_as(
        addr,
        &bjorn.token,
        &format!("/api/tournaments/{open}/register"),
        json!(null),
    )
    .await;
    a.close().await;
    b.close().await;
    World {
        alice,
        bjorn,
        copenhagen,
        alea,
        finished,
        against_ai,
        tournament,
    }
}

/// Every page of the client as alice sees it: its name, its hash and what shows once it is drawn.
fn pages(w: &World) -> Vec<(String, String, String)> {
    let mut pages = vec![
        ("lobby".into(), "#/".into(), by_testid("hotseat-create")),
        ("learn".into(), "#/learn".into(), by_testid("lesson-tafl")),
        (
            "learn-tafl".into(),
            "#/learn/tafl".into(),
            "[data-testid=board] svg".into(),
        ),
        (
            "tournaments".into(),
            "#/tournaments".into(),
            "[data-testid=tournament-list] tbody tr a".into(),
        ),
        (
            "tournament".into(),
            format!("#/tournament/{}", w.tournament),
            "[data-testid=tournament-standings] tr".into(),
        ),
        (
            "leaderboard".into(),
            "#/leaderboard/tafl/brandubh".into(),
            ".page table".into(),
        ),
        (
            "open-data".into(),
            "#/open-data".into(),
            by_testid("open-data-licence"),
        ),
        (
            "player-self".into(),
            format!("#/player/{}", w.alice.player.id.0),
            by_testid("player-matches"),
        ),
        (
            "player-other".into(),
            format!("#/player/{}", w.bjorn.player.id.0),
            by_testid("player-matches"),
        ),
        (
            "games".into(),
            "#/games".into(),
            "[data-testid=games] li".into(),
        ),
        (
            "replay".into(),
            format!("#/replay/{}", w.finished.0),
            "[data-testid=board] svg".into(),
        ),
        (
            "analysis".into(),
            "#/analysis/game/tafl/copenhagen".into(),
            "[data-testid=board] svg".into(),
        ),
        (
            "match-copenhagen".into(),
            format!("#/match/{}", w.copenhagen.0),
            "[data-testid=clock-1]".into(),
        ),
        (
            "match-alea-evangelii".into(),
            format!("#/match/{}", w.alea.0),
            "[data-testid=board] svg".into(),
        ),
    ];
    for (game, m) in GAMES.iter().zip(&w.against_ai) {
        pages.push((
            format!("match-{game}"),
            format!("#/match/{}", m.0),
            "[data-testid=board] :is(svg, canvas)".into(),
        ));
        pages.push((
            format!("rules-{game}"),
            format!("#/rules/{game}"),
            "[data-testid=rules] h1".into(),
        ));
    }
    pages
}

/// How wide the page is against the screen, when it is wider. The screen is the root's
/// `clientWidth`: a phone's browser widens its layout viewport (and `innerWidth` with it) to a
/// page that is wider than the screen, and shows it zoomed out.
async fn overflow(b: &Browser) -> Option<Value> {
    let at = b
        .run("const page = document.documentElement; return [page.scrollWidth, page.clientWidth];")
        .await;
    (at[0].as_f64().unwrap() > at[1].as_f64().unwrap()).then_some(at)
}

/// Whether an element (by CSS selector) is wholly inside the screen (see `overflow`), and where
/// it is.
async fn inside(b: &Browser, css: &str) -> (bool, Value) {
    let at = b
        .run(&format!(
            "const r = document.querySelector({}).getBoundingClientRect();
             const page = document.documentElement;
             return [r.left, r.top, r.right, r.bottom, page.clientWidth, page.clientHeight];",
            json!(css)
        ))
        .await;
    let n = |i: usize| at[i].as_f64().unwrap();
    let within =
        n(0) >= 0.0 && n(1) >= 0.0 && n(2) <= n(4) + 0.5 && n(3) <= n(5) + 0.5 && n(2) > n(0);
    (within, at)
}

/// Every page, on a phone no wider than the screen (all measured, then the ones that are wider
/// named), in English and in Russian (the longest words and another alphabet), with no error
/// logged and no message missing from either catalog; screenshots of each on the phone and at 1400 x 900, in the light
/// and the dark theme, in both languages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_page_is_wider_than_a_phone() {
    let addr = sqlite_server().await;
    let w = world(addr).await;
    let driver = Driver::start().await;
    for (screen, size) in [(Screen::Phone, "390x844"), (WIDE, "1400x900")] {
        let b = signed_in(&driver, screen, addr, &w.alice, "#/").await;
        let mut wider = Vec::new();
        let mut missing = Vec::new();
        for language in ["en", "ru"] {
            b.run(&format!(
                "localStorage.setItem('tafl.language', '{language}');"
            ))
            .await;
            // The language is read when the page loads.
            b.client.refresh().await.unwrap();
            for (name, hash, shown) in pages(&w) {
                b.open(addr, &hash).await;
                b.find(&shown).await;
                b.until(
                    language,
                    &format!("return document.documentElement.lang === '{language}';"),
                )
                .await;
                if screen == Screen::Phone
                    && let Some(at) = overflow(&b).await
                {
                    wider.push(format!("{language} {name}: {at}"));
                }
                for theme in ["light", "dark"] {
                    b.emulate_colour_scheme(theme).await;
                    b.until(
                        theme,
                        &format!("return document.documentElement.dataset.theme === '{theme}';"),
                    )
                    .await;
                    b.screenshot(&format!("phone-{size}-{language}-{name}-{theme}"))
                        .await;
                }
                b.emulate_colour_scheme("light").await;
                missing.extend(
                    (b.console_log().await.into_iter())
                        .filter(|(level, message)| {
                            level == "SEVERE" || message.contains("no message")
                        })
                        .map(|(level, message)| format!("{language} {name}: {level} {message}")),
                );
            }
        }
        assert!(wider.is_empty(), "pages wider than the phone: {wider:#?}");
        assert!(
            missing.is_empty(),
            "errors or messages missing: {missing:#?}"
        );
        b.client.close().await.unwrap();
    }
}

/// On a phone the bar's panels (the links, the bell's list, the settings) open inside the screen,
/// and a challenge's notification over the tournaments page shows Accept and Decline in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn panels_and_notifications_stay_inside_a_phone_screen() {
    let addr = sqlite_server().await;
    let w = world(addr).await;
    let driver = Driver::start().await;
    let b = signed_in(&driver, Screen::Phone, addr, &w.alice, "#/tournaments").await;
    b.find("[data-testid=tournament-list] tbody tr a").await;

    for (button, panel) in [
        ("bell", by_testid("notices")),
        ("settings", "details.menu[open] .menu-panel".to_string()),
        ("nav-menu", "header.bar nav".to_string()),
    ] {
        b.click(button).await;
        b.find(&panel).await;
        let (within, at) = inside(&b, &panel).await;
        b.screenshot(&format!("phone-panel-{button}")).await;
        assert!(within, "{button}: its panel leaves the screen: {at}");
        assert!(
            overflow(&b).await.is_none(),
            "{button}: the page is wider than the phone"
        );
        // A click elsewhere (in the page's margin) closes it.
        b.click_at(4.0, 700.0).await;
        b.until(
            &format!("{button}'s panel to close"),
            &format!(
                "const p = document.querySelector({}); return !p || !p.checkVisibility();",
                json!(panel)
            ),
        )
        .await;
    }

    let mut bjorn = Client::connect(addr, &w.bjorn.token).await;
    let made = bjorn
        .ok(|id| ClientMessage::Challenge {
            id,
            spec: ChallengeSpec {
                player: w.alice.player.id,
                game: "tafl".into(),
                variant: Some("copenhagen".into()),
                seat: None,
                clock: None,
                rated: false,
                two_games: false,
                takebacks: false,
            },
        })
        .await;
    let id = made.challenge_id.unwrap().0;
    for part in [
        format!("challenge-{id}"),
        format!("challenge-accept-{id}"),
        format!("challenge-decline-{id}"),
    ] {
        b.find(&by_testid(&part)).await;
        let (within, at) = inside(&b, &by_testid(&part)).await;
        assert!(within, "{part} leaves the screen: {at}");
    }
    b.screenshot("phone-challenge-over-tournaments").await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// A wrong invite code's error shows beside the button that sent it, not at the top of the page.
#[tokio::test]
async fn an_error_shows_beside_the_control_that_caused_it() {
    let addr = sqlite_server().await;
    let alice = common::new_player(addr).await;
    let driver = Driver::start().await;
    let b = signed_in(&driver, Screen::Phone, addr, &alice, "#/").await;
    b.fill("join-code", "no-such-code").await;
    b.click("join-submit").await;
    let at = b
        .until(
            "an error shown",
            "const e = [...document.querySelectorAll('.error')].find((e) => e.textContent.trim() && e.getClientRects().length);
             if (!e) return null;
             const r = e.getBoundingClientRect();
             const button = document.querySelector('[data-testid=join-submit]').getBoundingClientRect();
             return { error: r.top, button: button.top, visible: r.top >= 0 && r.bottom <= document.documentElement.clientHeight };",
        )
        .await;
    b.screenshot("phone-join-error").await;
    let distance = (at["error"].as_f64().unwrap() - at["button"].as_f64().unwrap()).abs();
    assert!(
        distance < 80.0 && at["visible"] == json!(true),
        "the error is far from its button: {at}"
    );
    b.client.close().await.unwrap();
}

/// On a phone the bar is one short line, its page links behind one button, and it stays at the
/// top of the screen when the page scrolls.
#[tokio::test]
async fn the_phone_bar_is_compact_and_stays_at_the_top() {
    let addr = sqlite_server().await;
    let alice = common::new_player(addr).await;
    let driver = Driver::start().await;
    let b = signed_in(&driver, Screen::Phone, addr, &alice, "#/").await;
    b.find(&by_testid("hotseat-create")).await;
    let bar = "const r = document.querySelector('header.bar').getBoundingClientRect(); return [r.top, r.height, scrollY];";
    let at = b.run(bar).await;
    assert!(at[1].as_f64().unwrap() <= 56.0, "the bar is too tall: {at}");
    b.run("window.scrollTo(0, 1200);").await;
    let at = b
        .until(
            "the page scrolled",
            &format!("return scrollY > 0 && (() => {{ {bar} }})();"),
        )
        .await;
    assert_eq!(at[0].as_f64().unwrap(), 0.0, "the bar leaves the top: {at}");
    b.screenshot("phone-bar-scrolled").await;

    // The links are behind one button.
    b.click("nav-menu").await;
    b.click_css("header.bar nav a[href='#/tournaments']").await;
    b.find("[data-testid=tournament-list]").await;
    b.until(
        "the links to close",
        "return !document.querySelector('header.bar nav').checkVisibility();",
    )
    .await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();

    // A visitor's bar holds the two ways in, whole, on one line, in German's longer words too.
    let visitor = driver.browser_speaking(Screen::Phone, "de-DE").await;
    visitor.open(addr, "").await;
    visitor.until_text("header-guest", "Gast").await;
    visitor.find(&by_testid("play-prompt")).await;
    let at = visitor.run(bar).await;
    visitor.screenshot("phone-bar-visitor-de").await;
    assert!(
        at[1].as_f64().unwrap() <= 56.0,
        "the visitor's bar is too tall: {at}"
    );
    let cut = visitor
        .run("const me = document.getElementById('me'); return me.scrollWidth > me.clientWidth;")
        .await;
    assert_eq!(cut, json!(false), "the ways in are cut off");
    visitor.client.close().await.unwrap();
}

/// An 11x11 game on a phone: the board and both clocks are on the first screen, without
/// scrolling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eleven_by_eleven_board_and_its_clocks_are_on_the_first_screen() {
    let addr = sqlite_server().await;
    let (alice, _, mut a, mut b2) = common::two_players(addr).await;
    let clock = json!({"base_ms": 600_000, "increment_ms": 5000});
    let m = common::copenhagen_match(&mut a, &mut b2, json!({"rated": true, "clock": clock})).await;
    let driver = Driver::start().await;
    let b = signed_in(
        &driver,
        Screen::Phone,
        addr,
        &alice,
        &format!("#/match/{}", m.0),
    )
    .await;
    b.find(&by_testid("clock-1")).await;
    b.find(&by_testid("sq-k11")).await;
    b.screenshot("phone-copenhagen-first-screen").await;
    for part in [
        "[data-testid=board] svg".to_string(),
        by_testid("clock-0"),
        by_testid("clock-1"),
    ] {
        let (within, at) = inside(&b, &part).await;
        assert!(within, "{part} is not on the first screen: {at}");
    }
    assert_eq!(b.run("return scrollY;").await, json!(0));
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// The side of one of the board's squares, in CSS pixels.
async fn square(b: &Browser) -> f64 {
    b.run("return document.querySelector('[data-testid=sq-a1]').getBoundingClientRect().width;")
        .await
        .as_f64()
        .unwrap()
}

/// Alea Evangelii (19x19) on a phone: its squares fit the screen small, and the zoom buttons
/// make them at least 28 px; the zoomed board pans by a drag on an empty square, still takes a
/// move, and zooms back out. At 1400 x 900 its squares are big enough, and no zoom is offered.
#[tokio::test]
async fn a_board_of_small_squares_zooms_pans_and_still_plays() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(Screen::Phone).await;
    b.guest(addr).await;
    b.hotseat("tafl", "alea-evangelii").await;
    b.find(&by_testid("sq-a1")).await;
    let fitted = square(&b).await;
    assert!(
        fitted < 28.0,
        "Alea Evangelii's squares fit a phone at {fitted} px"
    );
    b.screenshot("phone-alea-fitted").await;

    b.click("zoom-in").await;
    b.until("the board zoomed", &format!("return document.querySelector('[data-testid=sq-a1]').getBoundingClientRect().width > {fitted} + 1;")).await;
    let zoomed = square(&b).await;
    assert!(zoomed >= 28.0, "zoomed, a square is {zoomed} px");
    assert!(
        overflow(&b).await.is_none(),
        "the zoomed board widens the page"
    );
    b.screenshot("phone-alea-zoomed").await;

    // A drag from an empty square pans the board.
    let scroll = "const s = document.querySelector('[data-testid=board] .board'); return [s.scrollLeft, s.scrollTop];";
    let before = b.run(scroll).await;
    let empty = b
        .run("const e = [...document.querySelectorAll('[data-testid=board] [data-sq]')].filter((s) => !s.dataset.piece && !s.classList.contains('movable'));
              const seen = (s) => { const r = s.getBoundingClientRect(); const v = document.querySelector('[data-testid=board] .board').getBoundingClientRect();
                return r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom; };
              const shown = e.filter(seen);
              return [shown[0].dataset.sq, shown[shown.length - 1].dataset.sq];")
        .await;
    let (from, to) = (empty[0].as_str().unwrap(), empty[1].as_str().unwrap());
    b.drag(
        Pointer::Finger,
        &by_testid(&format!("sq-{from}")),
        &by_testid(&format!("sq-{to}")),
        0,
    )
    .await;
    let after = b
        .until(
            "the board to pan",
            &format!(
                "const now = (() => {{ {scroll} }})(); return JSON.stringify(now) !== {} && now;",
                json!(before.to_string())
            ),
        )
        .await;
    assert_ne!(after, before, "panned");

    // A move on the zoomed board: the first piece that may move, to its first destination.
    let piece = b.until("a movable piece", "const s = document.querySelector('[data-testid=board] .movable'); return s && s.dataset.sq;").await;
    let target = take_up(&b, piece.as_str().unwrap()).await;
    b.click(&format!("sq-{target}")).await;
    b.until_moves(1).await;
    assert!(square(&b).await >= 28.0, "still zoomed after the move");

    while b
        .run("return !document.querySelector('[data-testid=zoom-out]').disabled;")
        .await
        == json!(true)
    {
        b.click("zoom-out").await;
    }
    b.until("the board back to its fitted size", &format!("return Math.abs(document.querySelector('[data-testid=sq-a1]').getBoundingClientRect().width - {fitted}) < 0.5;")).await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();

    let wide = driver.browser(WIDE).await;
    wide.guest(addr).await;
    wide.hotseat("tafl", "alea-evangelii").await;
    wide.find(&by_testid("sq-a1")).await;
    assert!(square(&wide).await >= 28.0);
    assert_eq!(
        wide.run("const z = document.querySelector('[data-testid=zoom-in]'); return !!z && z.getClientRects().length > 0;").await,
        json!(false),
        "no zoom where the squares are big enough"
    );
    wide.screenshot("wide-alea").await;
    wide.client.close().await.unwrap();
}

/// Taps a piece until it is taken up, and returns the first square it may go to. Chromium sends
/// no click for a tap that comes within a few hundred ms of a touch drag (the pan before it), as
/// a phone does; a player's next tap comes later, so a tap that went unanswered is tried again.
async fn take_up(b: &Browser, piece: &str) -> String {
    let destination = "const s = document.querySelector('[data-testid=board] .target'); return s && s.dataset.sq;";
    for _ in 0..10 {
        b.click(&format!("sq-{piece}")).await;
        for _ in 0..10 {
            if let Some(square) = b.run(destination).await.as_str() {
                return square.to_string();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    panic!("{piece} was never taken up");
}
