//! What the pages say, in a real headless Chromium against a server started here: every game's
//! pages (its match in play and finished, the replay, the analysis board, the rules, the lobby's
//! live boards) ask for no message the catalogs lack and print no `null` or `undefined`; the
//! move box's example is in each game's own notation; a bad match link shows a not-found page;
//! a clock before its side's first move is shown as not started, standing still. Screenshots at
//! 1400 x 900 and on a phone go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::Duration;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, Client, act, create, fresh_database, new_player, start, watch};
use protocol::{ClientMessage, MatchEvent, MatchId, ServerMessage, Session};
use serde_json::json;

/// A server that lets a test play whole games over one socket quickly.
async fn server() -> SocketAddr {
    let quick = [
        "--ws-messages-per-sec",
        "100000",
        "--ws-message-burst",
        "100000",
    ];
    start(&fresh_database(Backend::Sqlite).await, &quick).await
}

/// Every text of the page, and every label, that says `null`, `undefined` or `NaN`: a value
/// printed where words were meant. Each with the element it is in.
const STRAY: &str = "
  const word = /\\b(null|undefined|NaN)\\b/;
  const bad = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (word.test(n.nodeValue)) bad.push((n.parentElement?.outerHTML ?? n.nodeValue).slice(0, 200));
  }
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = e.getAttribute(name);
      if (value && word.test(value)) bad.push(`${name}: ${value}`);
    }
  }
  return bad;";

/// The page's stray texts (see [`STRAY`]), the messages it asked for that no catalog has (the
/// client warns `no message '<key>'`) and the errors it logged, since the last look.
async fn faults(b: &Browser, page: &str) -> Vec<String> {
    let stray = b.run(STRAY).await;
    let mut found: Vec<String> = (stray.as_array().unwrap().iter())
        .map(|s| format!("{page}: stray text {}", s.as_str().unwrap()))
        .collect();
    found.extend(
        (b.console_log().await.into_iter())
            .filter(|(level, message)| level == "SEVERE" || message.contains("no message"))
            .map(|(level, message)| format!("{page}: {level} {message}")),
    );
    found
}

/// A hot-seat match of `game` that `player` plays alone, with `actions` random legal actions
/// played (or, with `None`, played to its end: by its rules, or resigned if random play has not
/// ended it in three thousand actions).
async fn played(
    addr: SocketAddr,
    player: &Session,
    (game, variant): (&str, &str),
    actions: Option<usize>,
) -> MatchId {
    let mut c = Client::connect(addr, &player.token).await;
    let match_id = c
        .ok(|id| create(id, game, variant, json!({"hotseat": true})))
        .await
        .match_id
        .unwrap();
    c.ok(|id| watch(id, match_id, None)).await;
    let is_snapshot = |m: &ServerMessage| matches!(m, ServerMessage::Snapshot { match_id: of, .. } if *of == match_id);
    let ServerMessage::Snapshot { snapshot, .. } = c.message_where(is_snapshot).await else {
        unreachable!("only a snapshot is taken")
    };
    let mut to_act = snapshot.to_act;
    let mut played = 0;
    while let Some(&seat) = to_act.first() {
        if actions.is_some_and(|n| played == n) {
            break;
        }
        if played == 3000 {
            c.ok(|id| ClientMessage::Resign { id, match_id, seat })
                .await;
            break;
        }
        let legal = c
            .ok(|id| ClientMessage::Legal { id, match_id, seat })
            .await
            .actions
            .unwrap();
        let action = &legal[rand::random_range(0..legal.len())];
        let ack = c.ok(|id| act(id, match_id, seat, action)).await;
        let MatchEvent::Acted { to_act: next, .. } = c.event_at(match_id, ack.seq.unwrap().0).await
        else {
            panic!("an action is acted")
        };
        to_act = next;
        played += 1;
    }
    match_id
}

/// Every game (a variant of it), and the example its move box shows, in its own notation.
const EXAMPLES: [(&str, &str, &str); 6] = [
    ("tafl", "brandubh", "d1-d3"),
    ("fox-geese", "hala-tafl", "d5-d4, d5-d3-f3"),
    ("hanoi", "standard", "c3-ne, pass"),
    ("tower-race", "basic", "m2, c1x3"),
    ("tron", "standard", "play forward, go left 2"),
    ("driller", "standard", "DDL"),
];

/// Opens `hash` and waits until `ready` (a CSS selector) shows.
async fn visit(b: &Browser, addr: SocketAddr, hash: &str, ready: &str) {
    b.open(addr, hash).await;
    b.find(ready).await;
    // What the page draws after its first answer (the legal actions, the series, the chat).
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Every game's pages, in play and finished, ask for no missing message and print no stray
/// `null` or `undefined`; the move box gives each game's own example.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_pages_have_their_words_and_no_stray_text() {
    let addr = server().await;
    let player = new_player(addr).await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    b.sign_in(addr, &player.token, "").await;
    b.until_text("me", &player.player.name).await;
    let mut found = Vec::new();
    let board = "[data-testid=board] svg";
    for (game, variant, example) in EXAMPLES {
        let live = played(addr, &player, (game, variant), Some(4)).await;
        visit(&b, addr, &format!("#/match/{}", live.0), board).await;
        let placeholder = b
            .run("return document.querySelector('[data-testid=move-input]').placeholder;")
            .await;
        if placeholder != format!("Type a move, e.g. {example}") {
            found.push(format!("{game}'s move box: {placeholder}"));
        }
        if ["hanoi", "driller"].contains(&game) {
            b.screenshot(&format!("move-box-{game}")).await;
        }
        found.extend(faults(&b, &format!("{game} in play")).await);

        let over = played(addr, &player, (game, variant), None).await;
        for (page, hash, ready) in [
            (
                "finished",
                format!("#/match/{}", over.0),
                by_testid("result-text"),
            ),
            ("replay", format!("#/replay/{}", over.0), board.to_string()),
            (
                "analysis",
                format!("#/analysis/match/{}/0", over.0),
                board.to_string(),
            ),
            ("rules", format!("#/rules/{game}"), by_testid("rules")),
        ] {
            visit(&b, addr, &hash, &ready).await;
            found.extend(faults(&b, &format!("{game} {page}")).await);
        }
    }
    visit(&b, addr, "#/", &by_testid("live-matches")).await;
    found.extend(faults(&b, "the lobby").await);
    assert!(found.is_empty(), "{found:#?}");
    b.client.close().await.unwrap();

    // The move box on a phone, in two games.
    let phone = driver.browser(Screen::Phone).await;
    phone.sign_in(addr, &player.token, "").await;
    for game in [("hanoi", "standard"), ("driller", "standard")] {
        let live = played(addr, &player, game, Some(2)).await;
        visit(&phone, addr, &format!("#/match/{}", live.0), board).await;
        phone
            .run("document.querySelector('[data-testid=move-input]').scrollIntoView({block: 'center'});")
            .await;
        phone
            .screenshot(&format!("move-box-{}-phone", game.0))
            .await;
    }
    phone.client.close().await.unwrap();
}

/// A link to a match that does not exist, or whose id is not one, shows a not-found page with
/// the way back to the lobby, not an empty match page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_match_link_shows_a_not_found_page() {
    let addr = server().await;
    let driver = Driver::start().await;
    for (screen, name) in [(WIDE, "not-found"), (Screen::Phone, "not-found-phone")] {
        let b = driver.browser(screen).await;
        for (id, shot) in [
            ("987654", name.to_string()),
            ("12ab", format!("{name}-malformed")),
        ] {
            b.open(addr, &format!("#/match/{id}")).await;
            b.until_text("not-found", &format!("There is no match '{id}'."))
                .await;
            let empty_page = b
                .run("return !!document.querySelector('[data-testid=board], [data-testid=turn]');")
                .await;
            assert_eq!(empty_page, false, "{id}: no match page around it");
            b.screenshot(&shot).await;
        }
        b.click("not-found-lobby").await;
        b.find(&by_testid("live-matches")).await;
        b.assert_no_console_errors().await;
        b.client.close().await.unwrap();
    }
}

/// Before a side's first move its clock stands still, shown as not started, with the time left
/// for that move counting down while it is that side's turn; after it, the clock runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_stands_still_until_its_sides_first_move() {
    let addr = server().await;
    let (anna, bert) = (new_player(addr).await, new_player(addr).await);
    let (mut a, mut b) = (
        Client::connect(addr, &anna.token).await,
        Client::connect(addr, &bert.token).await,
    );
    let clock = json!({"clock": {"base_ms": 300_000, "increment_ms": 0}});
    let match_id = a
        .ok(|id| create(id, "tafl", "brandubh", clock))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, match_id)).await;
    let driver = Driver::start().await;
    let hash = format!("#/match/{}", match_id.0);
    let wide = driver.browser(WIDE).await;
    wide.sign_in(addr, &anna.token, &hash).await;
    let phone = driver.browser(Screen::Phone).await;
    phone.sign_in(addr, &anna.token, &hash).await;
    for page in [&wide, &phone] {
        page.until_text("first-move-0", "clock not started: first move within 0:")
            .await;
        page.until_text("first-move-1", "clock not started: it starts with")
            .await;
    }
    // A while later, anna's clock still shows the whole five minutes.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for (page, name) in [
        (&wide, "clock-not-started"),
        (&phone, "clock-not-started-phone"),
    ] {
        assert_eq!(page.text("clock-0").await, "5:00");
        assert_eq!(page.text("clock-1").await, "5:00");
        page.screenshot(name).await;
    }
    // Anna moves: her clock has started; bert's has not.
    wide.play_tafl("d1", "c1").await;
    wide.until(
        "anna's clock started",
        "return document.querySelector('[data-testid=first-move-0]').hidden;",
    )
    .await;
    wide.until_text("first-move-1", "first move within").await;
    // Bert moves: every clock has started, and anna's runs.
    b.ok(|id| watch(id, match_id, None)).await;
    b.ok(|id| act(id, match_id, 1, "d3-b3")).await;
    wide.until(
        "both clocks started",
        "return document.querySelector('[data-testid=first-move-1]').hidden;",
    )
    .await;
    wide.until(
        "anna's clock running",
        "return document.querySelector('[data-testid=clock-0]').textContent !== '5:00';",
    )
    .await;
    assert_eq!(wide.text("clock-1").await, "5:00");
    wide.assert_no_console_errors().await;
    wide.client.close().await.unwrap();
    phone.client.close().await.unwrap();
}
