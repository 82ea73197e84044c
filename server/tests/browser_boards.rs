//! Every game's board in a real headless Chromium against a server started here: a hot-seat
//! match of each game is played a few actions deep by clicking what the board offers (each action
//! is then accepted by the server); the 3D tafl board moves a piece by clicking into its canvas;
//! and the replay page steps through a finished match, which the player page links to.
//! Screenshots of each board go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, DESKTOP, Driver, Screen, by_testid};
use common::sqlite_server;
use serde_json::json;

/// What the board offers to click next, most specific first: a stop button ending a jump
/// chain, one of the paths to a square several reach, a lit destination, a movable piece, a
/// playable card, an action button.
const NEXT_CLICK: &str = "const q = (c) => document.querySelector('[data-testid=board] ' + c);
    for (const c of ['[data-testid=stop] button', '[data-testid=paths] button', '.target',
                     '.movable', '[data-testid=hand] button:not([disabled])',
                     '.board-actions button']) if (q(c)) return c;
    return null;";

/// Plays one action by clicking: as many clicks as the board asks for (a piece, then where it
/// goes), until the move list has grown. Boards offer nothing between sending an action and
/// the next position, so a click never lands on a stale choice.
async fn play_one(b: &Browser) {
    let before = b.moves().await;
    for _ in 0..6 {
        let next = b
            .until(
                "something to click or the action listed",
                &format!(
                    "if (document.querySelectorAll('[data-testid=move-list] [data-testid^=move-]').length > {before}) return 'done';
                     {NEXT_CLICK}"
                ),
            )
            .await;
        if next == json!("done") {
            return;
        }
        b.click_css(&format!("[data-testid=board] {}", next.as_str().unwrap()))
            .await;
    }
    b.until_moves(before + 1).await;
}

/// A hot-seat match of every game but tafl, eight actions deep, each picked by clicking the
/// board; the server refuses nothing (no error is shown).
#[tokio::test]
async fn every_board_plays_by_clicking() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver
        .browser(Screen::Window {
            width: 1000,
            height: 1000,
        })
        .await;
    b.guest(addr).await;
    // What the board's caption must say after eight actions, so that its state is understood
    // without reading code: whose turn and what to do, by colour as well as by number.
    for (game, variant, explained) in [
        ("fox-geese", "hala-tafl", None),
        ("hanoi", "standard", None),
        ("tower-race", "basic", Some(["to move a pyramid", "tile"])),
        ("tron", "standard", None),
        ("driller", "standard", Some(["Purple at depth", "drilled"])),
    ] {
        b.open(addr, "#/").await;
        b.hotseat(game, variant).await;
        b.find("[data-testid=board] svg").await;
        b.screenshot(&format!("board-{game}-start")).await;
        for _ in 0..8 {
            play_one(&b).await;
        }
        // A refused move shows under the move box, the controls' refusals in the side panel.
        for line in ["move-input-error", "match-error"] {
            let error = b.text(line).await;
            assert_eq!(error, "", "{game}: the server refused an action");
        }
        let caption = b.text("board-caption").await;
        for words in explained.into_iter().flatten() {
            assert!(caption.contains(words), "{game}: '{words}' in '{caption}'");
        }
        b.screenshot(&format!("board-{game}")).await;
    }
    b.client.close().await.unwrap();
}

/// The boards fit a phone's screen: no board is wider than the window.
#[tokio::test]
async fn boards_fit_a_phone_screen() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(Screen::Phone).await;
    b.guest(addr).await;
    for (game, variant) in [
        ("hanoi", "standard"),
        ("tron", "standard"),
        ("driller", "standard"),
    ] {
        b.open(addr, "#/").await;
        b.hotseat(game, variant).await;
        b.find("[data-testid=board] svg").await;
        let overflow = b
            .run("const r = document.querySelector('[data-testid=board] svg').getBoundingClientRect();
                  return r.right <= document.documentElement.clientWidth + 1 && r.width > 200;")
            .await;
        assert_eq!(
            overflow,
            json!(true),
            "{game}: the board fits the phone's width"
        );
        play_one(&b).await;
        b.screenshot(&format!("board-{game}-phone")).await;
    }
    b.client.close().await.unwrap();
}

/// The 3D board is made for play: files and ranks labelled on every side, the king found at a
/// glance, the last move marked with its captures, and a piece that slides to its square. A
/// short Brandubh game played by clicks in the 3D view ends with a capture (`f5-e5xd5`); the flip
/// button turns the camera round to the other side and back.
#[tokio::test]
async fn tafl_3d_board_marks_the_last_move_and_its_captures() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    b.hotseat("tafl", "brandubh").await;
    b.until_text("toggle-3d", "3D board").await;
    b.click("toggle-3d").await;
    b.find(&by_testid("board3d")).await;
    let holder = "document.querySelector('[data-testid=board3d]').parentElement";
    let data = |key: &str| format!("return {holder}.dataset.{key} || null;");
    assert_eq!(b.until("labels", &data("labels")).await, json!("28"));
    assert_eq!(b.run(&data("king")).await, json!("d4"));
    let moves = [
        "d7-c7", "c4-c2", "c7-c5", "c2-b2", "f4-f5", "b2-b1", "f5-e5",
    ];
    for (n, mv) in moves.iter().enumerate() {
        let (from, to) = mv.split_once('-').unwrap();
        for square in [from, to] {
            if square == to {
                b.until(
                    "the destination lit",
                    &format!(
                        "return ({holder}.dataset.targets || '').split(' ').includes('{to}');"
                    ),
                )
                .await;
            }
            let at = b
                .run(&format!("return {holder}.project('{square}');"))
                .await;
            b.click_at(at["x"].as_f64().unwrap(), at["y"].as_f64().unwrap())
                .await;
        }
        b.until_moves(n + 1).await;
    }
    b.until_text("move-list", "f5-e5").await;
    assert_eq!(b.until("the capture", &data("captured")).await, json!("d5"));
    assert_eq!(b.run(&data("last")).await, json!("f5 e5"));
    let slides = b.run(&data("slides")).await;
    assert_eq!(slides, json!("7"), "every move slid into place");
    b.screenshot("board-tafl3d-capture").await;

    // Flipped, the camera looks from the other side: the first rank is seen at the far edge.
    let below = format!("return {holder}.project('d1').y > {holder}.project('d7').y;");
    assert_eq!(
        b.run(&below).await,
        json!(true),
        "rank 1 nearest, at the bottom"
    );
    b.click("flip-board").await;
    assert_eq!(
        b.run(&below).await,
        json!(false),
        "rank 1 at the top once flipped"
    );
    b.click("flip-board").await;
    assert_eq!(b.run(&below).await, json!(true), "and back");
}

/// The 3D view of a Brandubh match: a click on a movable piece (found through the board's
/// projection of squares into the canvas) lights its destinations, a click on one plays the
/// move, and the 2D board shows the same position afterwards. The replay offers the same two
/// views. The toggle is named after the view it switches to.
#[tokio::test]
async fn tafl_3d_board_moves_by_clicking() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    let id = b.hotseat("tafl", "brandubh").await;
    b.until_text("toggle-3d", "3D board").await;
    b.click("toggle-3d").await;
    b.find(&by_testid("board3d")).await;
    b.until_text("toggle-3d", "2D board").await;
    let holder = "document.querySelector('[data-testid=board3d]').parentElement";
    let from = b
        .until(
            "movable pieces",
            &format!("const m = {holder}.dataset.movable; return m && m.split(' ').sort()[0];"),
        )
        .await;
    let point = |square: &serde_json::Value| format!("return {holder}.project({square});");
    let at = b.run(&point(&from)).await;
    b.click_at(at["x"].as_f64().unwrap(), at["y"].as_f64().unwrap())
        .await;
    let to = b
        .until(
            "destinations lit",
            &format!("const t = {holder}.dataset.targets; return t && t.split(' ')[0];"),
        )
        .await;
    b.screenshot("board-tafl3d-selected").await;
    let at = b.run(&point(&to)).await;
    b.click_at(at["x"].as_f64().unwrap(), at["y"].as_f64().unwrap())
        .await;
    b.until_moves(1).await;
    let played = format!("{}-{}", from.as_str().unwrap(), to.as_str().unwrap());
    b.until_text("move-list", &played).await;
    b.screenshot("board-tafl3d").await;

    b.click("toggle-3d").await;
    let moved = b
        .until(
            "the 2D board",
            &format!(
                "const s = document.querySelector('[data-testid=sq-{}]'); return s && s.dataset.piece;",
                to.as_str().unwrap()
            ),
        )
        .await;
    assert_eq!(moved, json!("t"), "the attacker moved to {to}");
    b.until_text("toggle-3d", "3D board").await;

    b.click("resign").await;
    b.click("resign-confirm").await;
    b.find("[data-testid=result]:not([hidden])").await;
    b.open(addr, &format!("#/replay/{id}")).await;
    b.until_text("replay-position", "0 / 1").await;
    b.until_text("toggle-3d", "3D board").await;
    b.click("toggle-3d").await;
    b.find(&by_testid("board3d")).await;
    b.until_text("toggle-3d", "2D board").await;
    b.screenshot("replay-tafl3d").await;
    b.click("toggle-3d").await;
    b.find(&format!("[data-testid=board] {}", by_testid("sq-d4")))
        .await;
    b.until_text("toggle-3d", "3D board").await;
    b.client.close().await.unwrap();
}

/// A Fox and Geese match played four moves and resigned; the player page lists it with a link to
/// its replay, which steps through it with the first, previous, next and last buttons and the
/// move list, showing the board of each position and the result.
#[tokio::test]
async fn replay_steps_through_a_finished_match() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    let id = b.hotseat("fox-geese", "hala-tafl").await;
    for _ in 0..4 {
        play_one(&b).await;
    }
    let fox_after_two = b
        .run("return document.querySelectorAll('[data-testid=move-list] [data-testid^=move-]')[1].textContent;")
        .await;
    b.click("resign").await;
    b.click("resign-confirm").await;
    b.find("[data-testid=result]:not([hidden])").await;

    b.click("me").await;
    b.find(&by_testid(&format!("replay-link-{id}"))).await;
    b.screenshot("player").await;
    b.click(&format!("replay-link-{id}")).await;

    b.until_text("replay-position", "0 / 4").await;
    let toggles = "return document.querySelectorAll('[data-testid^=toggle-]').length;";
    assert_eq!(b.run(toggles).await, json!(0), "fox and geese has one view");
    let fox = "return document.querySelector('[data-testid=board] circle[fill=\"#d2691e\"]').parentElement.dataset.testid;";
    assert_eq!(b.run(fox).await, json!("sq-d5"), "the fox starts on d5");
    b.click("replay-next").await;
    b.until_text("replay-position", "1 / 4").await;
    b.click("replay-move-2").await;
    b.until_text("replay-position", "2 / 4").await;
    // After the fox's first move the board shows it where the move list says it went.
    let to = fox_after_two
        .as_str()
        .unwrap()
        .rsplit('-')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(b.run(fox).await, json!(format!("sq-{to}")));
    b.click("replay-last").await;
    b.until_text("replay-position", "4 / 4").await;
    b.until_text("replay-result", "won").await;
    // The winner by player and side, never by seat number.
    let result = b.text("replay-result").await;
    assert!(
        (result.contains("Fox (orange) won") || result.contains("Geese (white) won"))
            && !result.contains("Seat"),
        "{result}"
    );
    b.screenshot("replay").await;
    b.click("replay-first").await;
    b.until_text("replay-position", "0 / 4").await;
    assert_eq!(b.run(fox).await, json!("sq-d5"));

    b.open(addr, "#/leaderboard/tafl/copenhagen").await;
    b.until_text("lb-page", "Page 1").await;
    b.screenshot("leaderboard").await;
    b.client.close().await.unwrap();
}

/// Tron's hand is readable: once the heads and tails of a hot-seat match are placed, the cards
/// the player may play have text that stands out from their background (a contrast of at
/// least 4.5:1, as WCAG asks of text), and a screenshot of the board with its hand is kept.
#[tokio::test]
async fn tron_playable_cards_are_readable() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver
        .browser(Screen::Window {
            width: 1400,
            height: 900,
        })
        .await;
    b.guest(addr).await;
    b.hotseat("tron", "standard").await;
    // Heads and tails are placed by clicking lit squares until the cards may be played.
    let next =
        "if (document.querySelector('[data-testid=hand] button:not([disabled])')) return 'cards';
        return !!document.querySelector('[data-testid=board] .target') && 'place';";
    for _ in 0..12 {
        if b.until("a square or a card", next).await == json!("cards") {
            break;
        }
        play_one(&b).await;
    }
    let contrasts = b
        .run(
            "const rgba = (c) => c.match(/[\\d.]+/g).map(Number);
             // The colour behind an element: its own background, or the first one behind it.
             const behind = (e) => {
               for (; e; e = e.parentElement) {
                 const c = rgba(getComputedStyle(e).backgroundColor);
                 if (c.length < 4 || c[3] > 0) return c;
               }
               return [255, 255, 255];
             };
             const luminance = (c) => {
               const [r, g, b] = c.slice(0, 3).map((v) => {
                 v /= 255;
                 return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
               });
               return 0.2126 * r + 0.7152 * g + 0.0722 * b;
             };
             const contrast = (a, b) => {
               const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
               return (hi + 0.05) / (lo + 0.05);
             };
             return [...document.querySelectorAll('[data-testid=hand] button:not([disabled])')]
               .map((card) => [card.textContent, contrast(rgba(getComputedStyle(card).color), behind(card))]);",
        )
        .await;
    b.screenshot("board-tron-hand").await;
    let contrasts: Vec<(String, f64)> = serde_json::from_value(contrasts).unwrap();
    assert!(!contrasts.is_empty(), "cards to play");
    for (card, contrast) in contrasts {
        assert!(contrast >= 4.5, "card {card}: contrast {contrast:.2}");
    }
    // And the player sees the whole hand without scrolling.
    let cards_in_view =
        "return [...document.querySelectorAll('[data-testid=hand] button')].every((card) => {
          const r = card.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight;
        });";
    assert_eq!(
        b.run(cards_in_view).await,
        json!(true),
        "the cards are in view"
    );
    b.client.close().await.unwrap();
}

/// The outline that marks a movable tafl piece is drawn whole: as the page is drawn, each of
/// its four sides shows the same width of the accent colour (none half hidden under the next
/// square).
#[tokio::test]
async fn a_movable_piece_has_a_whole_outline() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    b.hotseat("tafl", "brandubh").await;
    // The defenders to move: some of their pieces have no movable neighbour.
    b.play_tafl("d1", "c1").await;
    b.until_moves(1).await;
    b.find(".sq.movable").await;
    // For one movable square away from the board's edge, whose neighbours are not movable: the
    // accent-coloured pixels on a line across the middle of each side, from a sixth of a square
    // outside it to a sixth inside.
    let sides = b
        .on_screenshot(
            "const movable = (name) => !!document.querySelector(`[data-testid=board] [data-testid=sq-${name}].movable`);
             const near = (name, df, dr) => String.fromCharCode(name.charCodeAt(0) + df) + (Number(name[1]) + dr);
             const sq = [...document.querySelectorAll('[data-testid=board] .sq.movable')]
               .find((s) => /^[b-f][2-6]$/.test(s.dataset.sq)
                 && ![[1, 0], [-1, 0], [0, 1], [0, -1]].some(([df, dr]) => movable(near(s.dataset.sq, df, dr))));
             const r = sq.getBoundingClientRect();
             const accent = (p) => Math.abs(p[0] - 139) + Math.abs(p[1] - 58) + Math.abs(p[2] - 30) < 80;
             const count = (x, y, dx, dy) => {
               let n = 0;
               for (let t = -r.width / 6; t <= r.width / 6; t += 0.25) {
                 if (accent(pixel(x + dx * t, y + dy * t))) n += 1;
               }
               return n / 4;
             };
             const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
             return { square: sq.dataset.sq, left: count(r.left, cy, 1, 0), right: count(r.right, cy, -1, 0),
                      top: count(cx, r.top, 0, 1), bottom: count(cx, r.bottom, 0, -1) };",
        )
        .await;
    b.screenshot("board-tafl-movable").await;
    let width = |side: &str| sides[side].as_f64().unwrap();
    for side in ["left", "right", "top", "bottom"] {
        assert!(width(side) >= 2.0, "the {side} side is drawn: {sides}");
    }
    let widths = ["left", "right", "top", "bottom"].map(width);
    let (thinnest, thickest) = widths
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    assert!(
        thickest - thinnest <= 1.5,
        "every side of the outline as wide: {sides}"
    );
    b.client.close().await.unwrap();
}
