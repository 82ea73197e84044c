//! The feel of play in a real headless Chromium: the tafl board turns to a defender's side and
//! flips on demand, pieces move by drag and drop (mouse and finger) as well as by clicks, a
//! premove queued on the opponent's turn is played when the turn comes, right-button arrows and
//! marks are drawn, moves and captures sound (and can be muted), the tab title says "Your move",
//! a low clock turns red and ticks, the move list shows earlier positions during play, and a
//! whole game is played from the keyboard. The opponent is a WebSocket client of the test's own,
//! so every one of its moves is known. No page may log an error. Screenshots of the match page at
//! 1400x900 and on a phone go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::Duration;

use browser::{Browser, Driver, Pointer, Screen, WIDE, by_testid};
use common::{Client, act, create, join, sqlite_server};
use fantoccini::actions::{MOUSE_BUTTON_LEFT, MOUSE_BUTTON_RIGHT};
use protocol::MatchId;
use serde_json::{Value, json};

const TAB: char = '\u{e004}';
const ENTER: char = '\u{e007}';
const ESCAPE: char = '\u{e00c}';
const LEFT: char = '\u{e012}';
const UP: char = '\u{e013}';

/// A Brandubh match between a WebSocket client of the test's (seat 0, the attackers, unless
/// `options` say otherwise) and a guest in the browser, who takes the other seat and opens the
/// match page. Returns the test's client and the match.
async fn versus(addr: SocketAddr, b: &Browser, options: Value) -> (Client, MatchId) {
    let (them, me) = (common::guest(addr).await, common::guest(addr).await);
    let mut opponent = Client::connect(addr, &them.token).await;
    let match_id = opponent
        .ok(|id| create(id, "tafl", "brandubh", options))
        .await
        .match_id
        .unwrap();
    let mut mine = Client::connect(addr, &me.token).await;
    mine.ok(|id| join(id, match_id)).await;
    mine.close().await;
    // The browser signs in with the same session.
    b.sign_in(addr, &me.token, &format!("#/match/{}", match_id.0))
        .await;
    b.find(&by_testid("sq-d4")).await;
    (opponent, match_id)
}

/// The piece on a square of the 2D board ("t", "T", "K" or "").
async fn piece(b: &Browser, square: &str) -> Value {
    b.run(&format!(
        "return document.querySelector('[data-testid=board] [data-testid=sq-{square}]').dataset.piece;"
    ))
    .await
}

/// Asserts how many elements match a selector.
async fn expect_count(b: &Browser, css: &str, wanted: u64, why: &str) {
    assert_eq!(count(b, css).await, wanted, "{css}: {why}");
}

async fn count(b: &Browser, css: &str) -> u64 {
    b.run(&format!(
        "return document.querySelectorAll({}).length;",
        json!(css)
    ))
    .await
    .as_u64()
    .unwrap()
}

async fn title(b: &Browser) -> String {
    b.run("return document.title;")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// A right-button drag from one square to another (a right click where they are the same). A
/// phone has no right button (its emulation makes every WebDriver pointer a finger), so there the
/// same pointer events are dispatched by a script, for the screenshot.
async fn draw(b: &Browser, screen: Screen, from: &str, to: &str) {
    let (from, to) = (
        by_testid(&format!("sq-{from}")),
        by_testid(&format!("sq-{to}")),
    );
    if screen != Screen::Phone {
        b.drag(Pointer::Mouse, &from, &to, MOUSE_BUTTON_RIGHT).await;
        return;
    }
    let ((x1, y1), (x2, y2)) = (b.centre(&from).await, b.centre(&to).await);
    b.run(&format!(
        "const at = (type, x, y) => document.elementFromPoint(x, y).dispatchEvent(
           new PointerEvent(type, {{ button: 2, buttons: 2, clientX: x, clientY: y, bubbles: true, pointerType: 'mouse' }}));
         at('pointerdown', {x1}, {y1}); at('pointerup', {x2}, {y2});"
    ))
    .await;
}

/// Whether a1 is drawn at the top right (the board turned to the defenders) rather than at the
/// bottom left.
async fn turned(b: &Browser) -> bool {
    let (a1, g7) = (
        b.centre(&by_testid("sq-a1")).await,
        b.centre(&by_testid("sq-g7")).await,
    );
    let turned = a1.0 > g7.0 && a1.1 < g7.1;
    assert!(
        turned || (a1.0 < g7.0 && a1.1 > g7.1),
        "a1 and g7 are opposite corners"
    );
    turned
}

/// The defender in the browser against the test's attackers, at one screen size: the board faces
/// the defenders and flips; a premove is queued, cancelled, queued again and played when the turn
/// comes; arrows and marks are drawn and cleared; moves and a capture sound; the title and the
/// spoken line follow the game; the move list shows an earlier position until Escape, and a new
/// move brings the game back.
async fn play_feel(screen: Screen, shots: &str) {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(screen).await;
    let (mut attackers, match_id) = versus(addr, &b, json!({"seat": 0})).await;
    b.until_text("turn", "to play").await;
    b.count_sounds().await;

    // Orientation: a defender sees the board from the defenders' side; anyone may flip it.
    assert!(turned(&b).await, "a defender sees the board turned round");
    b.click("flip-board").await;
    assert!(!turned(&b).await, "flipped back to the attackers' side");
    b.click("flip-board").await;
    assert!(turned(&b).await);
    assert_eq!(title(&b).await, "Tafl", "not our move: the plain title");

    // A premove on the attackers' turn: queued, cancelled by a click elsewhere, queued again.
    b.click("sq-c4").await;
    b.find(".sq.selected[data-sq=c4]").await;
    expect_count(&b, ".sq.target", 0, "nothing is legal now").await;
    assert!(
        count(&b, ".sq.pretarget").await > 0,
        "premove squares are lit"
    );
    b.click("sq-c1").await;
    b.find(".sq.premove[data-sq=c1]").await;
    expect_count(&b, ".sq.premove", 2, "").await;
    b.click("sq-a7").await;
    expect_count(&b, ".sq.premove", 0, "a click elsewhere cancels it").await;
    b.click("sq-c4").await;
    b.click("sq-c2").await;
    b.find(".sq.premove[data-sq=c2]").await;

    // Arrows and marks with the right button; a left click clears them.
    draw(&b, screen, "e5", "e2").await;
    draw(&b, screen, "b6", "b6").await;
    b.find("[data-shape='e5>e2'].arrow").await;
    b.find("[data-shape=b6].mark").await;
    b.screenshot(&format!("feel-premove-arrows{shots}")).await;
    draw(&b, screen, "f6", "f3").await;
    b.find("[data-shape='f6>f3']").await;
    expect_count(&b, ".sq.premove", 2, "drawing keeps the premove").await;

    // The turn comes: the premove is played at once, and the move sounds.
    attackers.ok(|id| act(id, match_id, 0, "a4-a3")).await;
    b.until_moves(2).await;
    b.until_text("move-1", "c4-c2").await;
    assert_eq!(piece(&b, "c2").await, json!("T"));
    expect_count(&b, ".sq.premove", 0, "").await;
    b.until_text("announce", "Defenders (white): c4-c2").await;
    // The arrows stay until a left click.
    expect_count(&b, "[data-shape]", 3, "").await;
    b.click("sq-a7").await;
    expect_count(&b, "[data-shape]", 0, "a left click clears the drawings").await;

    // A capture: its own sound; our move: the title says so, with the attackers' move.
    attackers.ok(|id| act(id, match_id, 0, "b4-b2")).await;
    b.until_moves(3).await;
    assert_eq!(piece(&b, "c2").await, json!(""), "c2 was captured");
    b.until(
        "our move in the title",
        "return document.title === 'Your move · b4-b2 · Tafl';",
    )
    .await;
    b.until_text("announce", "Attackers (black): b4-b2").await;
    let sounds = b.sounds().await;
    assert_eq!(sounds, ["move", "move", "capture"], "one sound a move");

    // Looking back: the first move's position, read-only and marked, until Escape.
    b.find(".sq.movable").await;
    b.click("move-0").await;
    b.until_text("viewing-text", "Viewing move 1 of 3 (a4-a3)")
        .await;
    assert_eq!(piece(&b, "a3").await, json!("t"));
    assert_eq!(piece(&b, "b4").await, json!("t"), "b4 had not moved yet");
    assert_eq!(piece(&b, "c4").await, json!("T"), "c4 had not moved yet");
    expect_count(&b, ".sq.movable", 0, "nothing moves in the past").await;
    b.find(&by_testid("move-0")).await;
    expect_count(&b, ".moves .current", 1, "").await;
    b.screenshot(&format!("feel-lookback{shots}")).await;
    b.keys(&[ESCAPE]).await;
    b.find("[data-testid=viewing][hidden]").await;
    b.find(".sq.movable").await;
    assert_eq!(piece(&b, "c2").await, json!(""), "the live position again");

    // A typed move; then the title is plain again.
    b.fill("move-input", "e4-e6").await;
    b.keys(&[ENTER]).await;
    b.until_moves(4).await;
    b.until_text("move-3", "e4-e6").await;
    b.until("the plain title", "return document.title === 'Tafl';")
        .await;

    // Premoves off: a click on our piece on their turn does nothing, and the switch is kept.
    b.click("pref-premoves").await;
    b.click("sq-d5").await;
    expect_count(&b, ".sq.selected", 0, "premoves are off").await;
    assert_eq!(
        b.run("return localStorage.getItem('tafl.pref.premoves');")
            .await,
        json!("off")
    );

    // Looking back with the arrow key, then their move brings the game back by itself.
    b.run("document.activeElement.blur();").await;
    b.keys(&[LEFT]).await;
    b.until_text("viewing-text", "Viewing move 3 of 4").await;
    attackers.ok(|id| act(id, match_id, 0, "g4-g5")).await;
    b.until_moves(5).await;
    b.find("[data-testid=viewing][hidden]").await;
    assert_eq!(
        piece(&b, "g5").await,
        json!("t"),
        "the live position is shown"
    );
    b.find(".sq.movable").await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

#[tokio::test]
async fn a_defenders_board_turns_premoves_draws_sounds_and_looks_back() {
    play_feel(WIDE, "").await;
}

#[tokio::test]
async fn the_same_on_a_phone() {
    play_feel(Screen::Phone, "-phone").await;
}

/// A guest's hot-seat Brandubh match in a browser, once its first pieces are movable.
async fn hotseat_brandubh(driver: &Driver, addr: SocketAddr) -> Browser {
    let b = driver.browser(WIDE).await;
    b.guest(addr).await;
    b.hotseat("tafl", "brandubh").await;
    b.find(".sq.movable").await;
    b
}

/// Drag and drop in a hot-seat Brandubh match: an attacker dragged with the mouse, a defender
/// with a finger, a drop on a square the piece cannot reach plays nothing, and a click still
/// moves. A hot-seat board faces the attackers and flips like any other.
#[tokio::test]
async fn tafl_pieces_move_by_drag_and_drop() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = hotseat_brandubh(&driver, addr).await;
    assert!(!turned(&b).await, "a hot-seat board faces the attackers");

    b.drag(
        Pointer::Mouse,
        &by_testid("sq-d1"),
        &by_testid("sq-c1"),
        MOUSE_BUTTON_LEFT,
    )
    .await;
    b.until_moves(1).await;
    b.until_text("move-0", "d1-c1").await;
    assert_eq!(piece(&b, "c1").await, json!("t"));

    b.find(".sq.movable[data-sq=e4]").await;
    b.drag(
        Pointer::Finger,
        &by_testid("sq-e4"),
        &by_testid("sq-e6"),
        MOUSE_BUTTON_LEFT,
    )
    .await;
    b.until_moves(2).await;
    b.until_text("move-1", "e4-e6").await;

    // Off the lines the piece moves along: nothing is played, nothing stays selected.
    b.find(".sq.movable[data-sq=a4]").await;
    b.drag(
        Pointer::Mouse,
        &by_testid("sq-a4"),
        &by_testid("sq-b5"),
        MOUSE_BUTTON_LEFT,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(b.moves().await, 2, "an illegal drop plays nothing");
    expect_count(&b, ".sq.selected", 0, "").await;
    assert_eq!(piece(&b, "a4").await, json!("t"));

    b.click("flip-board").await;
    assert!(turned(&b).await);
    b.play_tafl("a4", "a5").await;
    b.until_moves(3).await;
    b.until_text("move-2", "a4-a5").await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// Waits until the move box knows the legal moves, then types one and presses Enter.
async fn type_move(b: &Browser, text: &str, moves_before: usize) {
    b.until(
        "the legal moves",
        "return document.querySelectorAll('#legal-moves option').length > 0;",
    )
    .await;
    b.fill("move-input", text).await;
    b.keys(&[ENTER]).await;
    b.until_moves(moves_before + 1).await;
}

/// A whole hot-seat Brandubh game from the keyboard: the first move by tabbing to the board, the
/// arrow keys and Enter on its squares, the rest typed, until the king escapes to a corner. The squares
/// tell a screen reader what is on them, each move is spoken, a move the rules refuse is named,
/// and the mute switch silences the sounds and is kept after a reload. The finished match's move
/// list still shows earlier positions, fetched from the server after the reload, and its replay
/// page flips the board.
#[tokio::test]
async fn a_keyboard_only_game_to_its_end() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = hotseat_brandubh(&driver, addr).await;
    b.count_sounds().await;
    assert_eq!(
        b.run("return document.querySelector('[data-testid=sq-d4]').getAttribute('aria-label');")
            .await,
        json!("d4, king, throne")
    );

    // Tab reaches the board at one square, its centre; the arrow keys go on from there.
    for _ in 0..30 {
        b.keys(&[TAB]).await;
        let on = b
            .run("return document.activeElement.dataset.sq ?? null;")
            .await;
        if !on.is_null() {
            assert_eq!(on, json!("d4"), "the board's tab stop");
            break;
        }
    }
    b.keys(&[LEFT, LEFT, LEFT]).await;
    let focused = b.run("return document.activeElement.dataset.sq;").await;
    assert_eq!(focused, json!("a4"));
    b.keys(&[ENTER]).await;
    b.find(".sq.selected[data-sq=a4]").await;
    b.keys(&[UP]).await;
    let focused = b.run("return document.activeElement.dataset.sq;").await;
    assert_eq!(
        focused,
        json!("a5"),
        "the up arrow moves to the square above"
    );
    let label = b
        .run("return document.activeElement.getAttribute('aria-label');")
        .await;
    assert_eq!(label, json!("a5, empty, move here"));
    expect_count(&b, ".focus-ring", 1, "the keyboard's square is ringed").await;
    b.screenshot("feel-keyboard").await;
    b.keys(&[ENTER]).await;
    b.until_moves(1).await;
    b.until_text("move-0", "a4-a5").await;
    b.until_text("announce", "Attackers (black): a4-a5").await;
    assert_eq!(b.sounds().await, ["move"]);

    // A move the rules refuse is named, and nothing is sent.
    b.until(
        "the legal moves",
        "return document.querySelectorAll('#legal-moves option').length > 0;",
    )
    .await;
    b.fill("move-input", "d4-d7").await;
    b.keys(&[ENTER]).await;
    b.until_text("move-input-error", "'d4-d7' is not a legal move here.")
        .await;
    assert_eq!(b.moves().await, 1);

    // Muted: the moves make no sound.
    b.click("pref-sound").await;
    let line = [
        "e4-e6", "b4-b5", "d4-e4", "g4-g5", "e4-e1", "a5-a6", "e1-g1",
    ];
    for (i, mv) in line.iter().enumerate() {
        type_move(&b, mv, i + 1).await;
    }
    b.until_text("result-text", "Defenders (white) won").await;
    b.until_text("announce", "Defenders (white): e1-g1").await;
    assert_eq!(b.sounds().await, ["move"], "muted after the first move");
    assert_eq!(piece(&b, "g1").await, json!("K"), "the king escaped");

    // After a reload: still muted, and the move list shows the first position.
    b.client.refresh().await.unwrap();
    b.find(&by_testid("move-7")).await;
    let muted = b
        .run("return document.querySelector('[data-testid=pref-sound]').checked;")
        .await;
    assert_eq!(muted, json!(false), "the mute switch is remembered");
    b.click("move-0").await;
    b.until_text("viewing-text", "Viewing move 1 of 8 (a4-a5)")
        .await;
    assert_eq!(piece(&b, "a5").await, json!("t"));
    assert_eq!(piece(&b, "d4").await, json!("K"));
    b.click("back-to-live").await;
    b.find("[data-testid=viewing][hidden]").await;
    assert_eq!(piece(&b, "g1").await, json!("K"));

    // The replay page flips the board too.
    let replay = b
        .run("return location.hash.replace('#/match/', '#/replay/');")
        .await;
    b.open(addr, replay.as_str().unwrap()).await;
    b.until_text("replay-position", "0 / 8").await;
    assert!(!turned(&b).await, "a replay faces the attackers");
    b.click("flip-board").await;
    assert!(turned(&b).await, "flipped");
    b.click("replay-last").await;
    b.until_text("replay-position", "8 / 8").await;
    assert!(turned(&b).await, "still flipped at another step");
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// A clock of 11 seconds, which starts with each side's first move: both sides move once at
/// once, and then the browser's own clock (the attackers') turns red under 10 s and ticks about
/// once a second; after its move the opponent's clock runs low and turns red too, but ticks
/// nothing here; after theirs, ours ticks again until it runs out.
#[tokio::test]
async fn a_low_clock_turns_red_and_ticks_for_its_owner() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(WIDE).await;
    let clock = json!({"base_ms": 11_000, "increment_ms": 0});
    let (mut defenders, match_id) = versus(addr, &b, json!({"seat": 1, "clock": clock})).await;
    b.count_sounds().await;
    b.until_text("turn", "Your move").await;
    b.play_tafl("d1", "c1").await;
    b.until_moves(1).await;
    defenders.ok(|id| act(id, match_id, 1, "e4-e6")).await;
    b.until_moves(2).await;
    b.find("[data-testid=clock-0].low").await;
    let ticks = "return (window.played || []).filter((s) => s === 'tick').length;";
    b.until(
        "two ticks",
        &format!("{} ", ticks.replace("return", "return 2 <=")),
    )
    .await;
    let red = b
        .run("return getComputedStyle(document.querySelector('[data-testid=clock-0]')).backgroundColor;")
        .await;
    assert_eq!(red, json!("rgb(192, 34, 26)"), "a low clock is red");
    expect_count(&b, "[data-testid=clock-1].low", 0, "").await;
    b.screenshot("feel-low-clock").await;

    b.play_tafl("c1", "c2").await;
    b.until_moves(3).await;
    let mine = b.run(ticks).await.as_u64().unwrap();
    assert!(mine <= 10, "at most one tick a second under 10 s: {mine}");
    b.find("[data-testid=clock-1].low").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        b.run(ticks).await.as_u64().unwrap(),
        mine,
        "the opponent's clock does not tick here"
    );
    // Their move: our clock runs again, ticking, until it runs out.
    defenders.ok(|id| act(id, match_id, 1, "d3-b3")).await;
    b.until(
        "our clock to tick again",
        &ticks.replace("return", &format!("return {mine} <")),
    )
    .await;
    b.until_text("result-text", "You lose: time ran out").await;
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}
