//! The browser client in a real headless Chromium (Debian's `chromium` and `chromium-driver`),
//! driven over WebDriver by fantoccini, against a server started here on 127.0.0.1: two players
//! play a rated private match through the pages, a player beats (or loses to) the AI by clicking
//! legal moves, a reload in the middle of a game restores it, quick play pairs two players, a
//! guest watches a live match from the lobby, the clock of the side to move runs, and logging in
//! gives the socket its session cookie.
//! Screenshots of the main screens go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, DESKTOP, Driver, Relay, Screen, by_testid};
use common::{Backend, Client, act, fresh_database, start};
use protocol::{ClientMessage, MatchEvent};
use serde_json::{Value, json};

async fn server() -> SocketAddr {
    server_with(&[]).await
}

/// A server on SQLite with these flags.
async fn server_with(flags: &[&str]) -> SocketAddr {
    start(&fresh_database(Backend::Sqlite).await, flags).await
}

/// Two players register (one on a phone-sized screen); alice creates a rated private Copenhagen
/// match, bjorn joins it with the invite code, they click their way through a recorded game to
/// its end, and both see the result with their new ratings.
#[tokio::test]
async fn private_copenhagen_match_played_to_a_result() {
    let addr = server().await;
    let driver = Driver::start().await;
    let alice = driver.browser(DESKTOP).await;
    let bjorn = driver.browser(Screen::Phone).await;

    alice.open(addr, "").await;
    alice.click("header-login").await;
    alice.find(&by_testid("login-username")).await;
    alice.screenshot("login").await;
    alice.register(addr, "alice").await;
    bjorn.register(addr, "bjorn").await;
    alice.screenshot("lobby").await;
    bjorn.screenshot("lobby-phone").await;

    alice.select("private-game", "tafl").await;
    alice.select("private-variant", "copenhagen").await;
    alice.click("private-create").await;
    let code = alice.text("invite-code").await;
    assert!(!code.is_empty(), "an invite code is shown");

    bjorn.fill("join-code", &code).await;
    bjorn.click("join-submit").await;
    for b in [&alice, &bjorn] {
        b.until_text("turn", "").await;
        b.find(&by_testid("sq-d1")).await;
    }
    // The shortest recorded Copenhagen game that the rules end, every move clicked by the
    // player whose turn it is.
    let (line, winner) = common::short_copenhagen_game();
    for (i, mv) in line.iter().enumerate() {
        let player = if i % 2 == 0 { &alice } else { &bjorn };
        let (from, to) = mv.split('x').next().unwrap().split_once('-').unwrap();
        player.play_tafl(from, to).await;
        if i == 3 {
            alice.until_moves(4).await;
            alice.screenshot("match").await;
            bjorn.screenshot("match-phone").await;
        }
    }
    for b in [&alice, &bjorn] {
        b.until_moves(line.len()).await;
    }
    // Listed as the server reports them, plain from-to moves, two to a numbered line.
    let plain: Vec<&str> = line.iter().map(|m| m.split('x').next().unwrap()).collect();
    let pairs: Vec<String> = plain
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    assert_eq!(alice.text("move-list").await, pairs.join("\n"));
    let (won, lost) = if winner == 0 {
        (&alice, &bjorn)
    } else {
        (&bjorn, &alice)
    };
    won.until_text("result-text", "You win").await;
    lost.until_text("result-text", "You lose").await;
    for b in [&alice, &bjorn] {
        b.until_text("rating-0", "alice, Attackers (black): 1500 →")
            .await;
        b.until_text("rating-1", "bjorn, Defenders (white): 1500 →")
            .await;
    }
    let gain = won.text(&format!("rating-{winner}")).await;
    assert!(gain.contains("(+"), "the winner gained: {gain}");
    let loss = lost.text(&format!("rating-{}", 1 - winner)).await;
    assert!(loss.contains("(-"), "the loser lost rating: {loss}");
    alice.screenshot("result").await;
    bjorn.screenshot("result-phone").await;

    alice.client.close().await.unwrap();
    bjorn.client.close().await.unwrap();
}

/// A player takes the defenders against the level-1 AI in Brandubh and plays to the end by
/// clicking legal moves: the king towards a corner when it can go there, else any piece.
#[tokio::test]
async fn a_game_against_the_ai_is_played_to_the_end() {
    let addr = server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    b.find(&by_testid("ai-play")).await;
    b.select("ai-game", "tafl").await;
    b.select("ai-variant", "brandubh").await;
    b.select("ai-level", "1").await;
    b.select("ai-seat", "1").await;
    b.click("ai-play").await;
    b.find(&by_testid("sq-d4")).await;

    // One move per turn until the result: the script clicks through the same squares a person
    // would (a movable piece, then a lit destination).
    let mut moves = 0;
    loop {
        // The square is picked in the same script that finds it movable: the board re-renders
        // whenever an event arrives, so a second script could find it gone.
        let next = b
            .until(
                "my move or the result",
                "const r = document.querySelector('[data-testid=result]');
                 if (r && !r.hidden) return 'over';
                 const movable = [...document.querySelectorAll('.sq.movable')];
                 if (!movable.length) return null;
                 const king = movable.find((s) => s.dataset.piece === 'K');
                 return (king ?? movable[Math.floor(Math.random() * movable.length)]).dataset.sq;",
            )
            .await;
        if next == json!("over") {
            break;
        }
        let from = next.as_str().unwrap().to_string();
        b.click(&format!("sq-{from}")).await;
        let to = b
            .until(
                "destinations",
                "const t = [...document.querySelectorAll('.sq.target')];
                 if (!t.length) return null;
                 const corner = t.find((s) => s.classList.contains('corner'));
                 const edge = t.find((s) => /^[ag]|[a-g][17]$/.test(s.dataset.sq));
                 return (corner ?? edge ?? t[Math.floor(Math.random() * t.length)]).dataset.sq;",
            )
            .await;
        // The move is played by a click from a script that then reads the board at once, before
        // any answer can arrive: nothing may stay movable while the move is on its way.
        let movable = b
            .run(&format!(
                "document.querySelector('[data-testid=sq-{}]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));
                 return document.querySelectorAll('.sq.movable').length;",
                to.as_str().unwrap()
            ))
            .await;
        assert_eq!(movable, json!(0), "pieces movable after the move was sent");
        moves += 1;
        assert!(moves < 200, "the game did not end in 200 moves");
        if moves == 2 {
            b.screenshot("ai-match").await;
        }
    }
    let result = b.text("result-text").await;
    assert!(
        result.contains("You win") || result.contains("You lose"),
        "a result: {result}"
    );
    assert!(b.moves().await >= moves, "every move is listed");
    b.screenshot("ai-result").await;
    b.client.close().await.unwrap();
}

/// The position and move list as the page shows them.
async fn board_and_moves(b: &Browser) -> (Value, String) {
    let board = b
        .client
        .execute(
            "return [...document.querySelectorAll('.sq')].map((s) => s.dataset.sq + '=' + s.dataset.piece).join(' ');",
            vec![],
        )
        .await
        .unwrap();
    (board, b.text("move-list").await)
}

/// A reload in the middle of a hot-seat game shows the same position and moves, and the game
/// goes on from there.
#[tokio::test]
async fn a_reload_restores_the_game() {
    let addr = server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    b.select("hotseat-game", "tafl").await;
    b.select("hotseat-variant", "brandubh").await;
    b.click("hotseat-create").await;
    b.play_tafl("d1", "c1").await;
    b.until_moves(1).await;
    b.play_tafl("d3", "b3").await;
    b.until_moves(2).await;
    b.play_tafl("a4", "a3").await;
    b.until_moves(3).await;
    let before = board_and_moves(&b).await;
    let url = b.client.current_url().await.unwrap();

    b.client.refresh().await.unwrap();
    b.until_moves(3).await;
    b.find(".sq.movable").await;
    let after = board_and_moves(&b).await;
    assert_eq!(before, after, "the reloaded page shows the same game");
    assert_eq!(url, b.client.current_url().await.unwrap());

    b.play_tafl("d4", "d3").await;
    b.until_moves(4).await;
    b.client.close().await.unwrap();
}

/// The page's connection drops in the middle of a match while the opponent moves; the page
/// reconnects by itself, catches up with the move it missed, and the game goes on (to alice's
/// resignation, which the opponent receives).
#[tokio::test]
async fn a_dropped_connection_catches_up() {
    let addr = server().await;
    let relay = Relay::start(addr).await;
    let driver = Driver::start().await;
    let alice = driver.browser(DESKTOP).await;
    alice.register(relay.addr, "alice").await;
    alice.select("private-variant", "copenhagen").await;
    alice.click("private-create").await;
    let code = alice.text("invite-code").await;

    let session = common::register(addr, "bjorn").await;
    let mut bjorn = Client::connect(addr, &session.token).await;
    let ack = bjorn.ok(|id| common::join_with_invite(id, &code)).await;
    let match_id = ack.match_id.unwrap();

    alice.play_tafl("d1", "d3").await;
    bjorn
        .event_where(match_id, |e| matches!(e, MatchEvent::Acted { seat: 0, .. }))
        .await;

    relay.cut();
    bjorn
        .event_where(match_id, |e| {
            matches!(e, MatchEvent::Disconnected { seat: 0, .. })
        })
        .await;
    alice.until_text("connection", "reconnecting").await;
    bjorn.ok(|id| act(id, match_id, 1, "f4-b4")).await;

    relay.restore();
    alice.until_moves(2).await;
    alice.until_text("move-list", "f4-b4").await;
    alice.until_text("turn", "Your move").await;
    alice
        .until(
            "the connection notice to go",
            "return document.querySelector('[data-testid=connection]').hidden;",
        )
        .await;

    alice.click("resign").await;
    alice.click("resign-confirm").await;
    let (_, finished) = bjorn
        .event_where(match_id, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
    let MatchEvent::Finished { result } = finished else {
        unreachable!()
    };
    assert_eq!(result.places, vec![1, 0], "alice resigned");
    alice.until_text("result-text", "You lose").await;
    alice.client.close().await.unwrap();
}

/// alice registers, creates a round-robin Brandubh tournament from the pages and enters it.
async fn alices_round_robin(b: &Browser, addr: SocketAddr, name: &str) {
    b.register(addr, "alice").await;
    b.click("tournaments-link").await;
    b.fill("tournament-name", name).await;
    b.select("tournament-game", "tafl").await;
    b.select("tournament-variant", "brandubh").await;
    b.select("tournament-format", "round_robin").await;
    b.click("tournament-create").await;
    b.click("tournament-register").await;
    b.until_text("tournament-entrants", "alice").await;
}

/// An error shown under a tournament's buttons stays until the player acts again: the standings
/// pushed when the page follows the tournament again (after its connection dropped) redraw the
/// page but leave the refusal where it was.
#[tokio::test]
async fn a_standings_push_leaves_a_tournaments_error_shown() {
    let addr = server().await;
    let relay = Relay::start(addr).await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    alices_round_robin(&b, relay.addr, "Lonely cup").await;
    // Started with alice alone: refused, under the buttons.
    b.click("tournament-start").await;
    b.until_text("tournament-error", "at least two entrants")
        .await;

    // The page's fetches of the tournament: after the push, it fetches it once more.
    let fetches = "performance.getEntriesByType('resource')
        .filter((e) => /\\/api\\/tournaments\\/\\d+$/.test(e.name)).length";
    let before = b.run(&format!("return {fetches};")).await.as_u64().unwrap();
    relay.cut();
    b.until_text("connection", "reconnecting").await;
    relay.restore();
    b.until(
        "the tournament fetched again after the push",
        &format!("return {fetches} > {before};"),
    )
    .await;
    assert!(
        b.text("tournament-error")
            .await
            .contains("at least two entrants"),
        "the refusal is still shown"
    );
    // Acting again clears it: alice adds the AI, which the server accepts.
    b.click("tournament-add-ai").await;
    b.until_text("tournament-entrants", "AI, level 1").await;
    assert_eq!(b.text("tournament-error").await, "");
}

/// A tournament run from the pages: created, entered by its creator and the level-1 AI,
/// started; the creator is taken to the first game by the round's push, resigns it, and back on
/// the tournament page the standings put the AI first and the tournament is finished.
#[tokio::test]
async fn a_tournament_from_creation_to_standings() {
    let addr = server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    alices_round_robin(&b, addr, "Friday cup").await;
    b.select("tournament-ai-level", "1").await;
    b.click("tournament-add-ai").await;
    b.until_text("tournament-entrants", "AI, level 1").await;
    b.screenshot("tournament").await;
    b.click("tournament-start").await;

    b.click("resign").await;
    b.click("resign-confirm").await;
    b.until_text("result-text", "You lose").await;
    b.client.back().await.unwrap();
    b.until_text("tournament-status", "finished").await;
    let first = b
        .until(
            "the standings",
            "const row = document.querySelector('[data-testid=tournament-standings] tr');
             return row && row.textContent;",
        )
        .await;
    assert!(
        first.as_str().unwrap().starts_with("1AI, level 11"),
        "the AI leads with a point: {first}"
    );
    b.screenshot("tournament-finished").await;
    b.client.close().await.unwrap();
}

/// The match page a browser is on, once it is on one: its match id.
async fn match_page(b: &Browser) -> u64 {
    b.until(
        "the match page",
        "const m = location.hash.match(/^#\\/match\\/(\\d+)$/); return m && Number(m[1]);",
    )
    .await
    .as_u64()
    .unwrap()
}

/// The turn line of a match page once the match has started ("Your move", or who is to play).
async fn turn_when_started(b: &Browser) -> String {
    b.until(
        "the match to start",
        "const t = document.querySelector('[data-testid=turn]');
         return t && /Your move| to play/.test(t.textContent) && t.textContent;",
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// Two registered players join the quick-play queue from the lobby for the same pool (rated
/// Copenhagen, blitz) and are paired; returns the match id and the browsers with their names,
/// the one to move (the attackers, seat 0) first. Asserts that both are taken to the same match
/// page and that exactly one of them is told it is their move.
async fn paired_by_the_queue<'a>(
    a: (&'a Browser, &'a str),
    b: (&'a Browser, &'a str),
) -> (u64, (&'a Browser, &'a str), (&'a Browser, &'a str)) {
    for (player, _) in [a, b] {
        player.select("queue-game", "tafl").await;
        player.select("queue-variant", "copenhagen").await;
        player.select("queue-time", "blitz").await;
    }
    a.0.click("queue-join").await;
    a.0.until_text("queue-state", "Waiting for an opponent")
        .await;
    // Alone in the pool, the first player waits there (the queue pairs once a second).
    a.0.until_text(
        "queue-sizes",
        "Tafl · Copenhagen 11×11 (2 players), Blitz 5+3, rated: 1 waiting",
    )
    .await;
    a.0.find(&by_testid("queue-leave")).await;
    b.0.click("queue-join").await;

    let id = match_page(a.0).await;
    assert_eq!(match_page(b.0).await, id, "both are in the same match");
    let turns = [turn_when_started(a.0).await, turn_when_started(b.0).await];
    let (mover, waiter, waiting_turn) = match (turns[0].as_str(), turns[1].as_str()) {
        ("Your move", other) => (a, b, other.to_string()),
        (other, "Your move") => (b, a, other.to_string()),
        _ => panic!("exactly one player is to move: {turns:?}"),
    };
    assert_eq!(waiting_turn, format!("{} to play", mover.1));
    // The one to move holds the attackers, who move first in tafl.
    for (player, _) in [mover, waiter] {
        player.until_text("player-0", mover.1).await;
        player.until_text("player-1", waiter.1).await;
    }
    (id, mover, waiter)
}

/// Quick play: two players queue for the same pool from the lobby, both land on the same match
/// page, the one to move plays a move by clicking and the other sees it and that it is now
/// their move.
#[tokio::test]
async fn quick_play_pairs_two_players_into_one_match() {
    let addr = server().await;
    let driver = Driver::start().await;
    let alice = driver.browser(DESKTOP).await;
    let bjorn = driver.browser(DESKTOP).await;
    alice.register(addr, "alice").await;
    bjorn.register(addr, "bjorn").await;

    let (_, (mover, _), (waiter, waiter_name)) =
        paired_by_the_queue((&alice, "alice"), (&bjorn, "bjorn")).await;
    // The mover's pieces become movable (play_tafl waits for that); the other's never do.
    mover.find(".sq.movable").await;
    waiter.find(&by_testid("sq-d1")).await;
    assert_eq!(
        waiter
            .run("return document.querySelectorAll('.sq.movable').length;")
            .await,
        json!(0),
        "the player not to move has no piece to move"
    );
    waiter.screenshot("quick-play").await;

    mover.play_tafl("d1", "d3").await;
    for b in [mover, waiter] {
        b.until_moves(1).await;
        b.until_text("move-0", "d1-d3").await;
    }
    waiter.until_text("turn", "Your move").await;
    mover
        .until_text("turn", &format!("{waiter_name} to play"))
        .await;
    let piece =
        |sq: &str| format!("return document.querySelector('[data-testid=sq-{sq}]').dataset.piece;");
    assert_eq!(
        waiter.run(&piece("d3")).await,
        json!("t"),
        "the attacker moved to d3"
    );
    assert_eq!(waiter.run(&piece("d1")).await, json!(""), "d1 is empty");

    alice.client.close().await.unwrap();
    bjorn.client.close().await.unwrap();
}

/// Spectating: while two players play a queued match, a guest opens it from the lobby's list of
/// live matches, sees the position and the moves so far, sees the next move arrive, and has no
/// controls to resign, offer a draw, abort or claim the win, nor pieces to move.
#[tokio::test]
async fn a_guest_watches_a_live_match_from_the_lobby() {
    let addr = server().await;
    let driver = Driver::start().await;
    let alice = driver.browser(DESKTOP).await;
    let bjorn = driver.browser(DESKTOP).await;
    let carol = driver.browser(DESKTOP).await;
    alice.register(addr, "alice").await;
    bjorn.register(addr, "bjorn").await;
    let (id, (mover, mover_name), (waiter, waiter_name)) =
        paired_by_the_queue((&alice, "alice"), (&bjorn, "bjorn")).await;
    mover.play_tafl("d1", "d3").await;
    waiter.until_text("turn", "Your move").await;

    carol.guest(addr).await;
    let watch = by_testid(&format!("live-{id}"));
    let entry = carol
        .until(
            "the match in the live list",
            &format!(
                "const b = document.querySelector('{watch}'); return b && b.parentElement.textContent;"
            ),
        )
        .await;
    let entry = entry.as_str().unwrap();
    assert!(
        entry.starts_with("Watch Tafl · Copenhagen 11×11 (rated): ")
            && entry.contains(&format!("{mover_name} vs {waiter_name}")),
        "the live list offers to watch the match: {entry}"
    );
    carol.click(&format!("live-{id}")).await;
    assert_eq!(match_page(&carol).await, id);

    carol
        .until_text("turn", &format!("{waiter_name} to play (watching)"))
        .await;
    carol.until_moves(1).await;
    assert_eq!(carol.text("move-0").await, "d1-d3");
    let piece = |sq: &str| {
        format!(
            "const s = document.querySelector('[data-testid=sq-{sq}]'); return s && s.dataset.piece;"
        )
    };
    assert_eq!(
        carol.run(&piece("d3")).await,
        json!("t"),
        "the board shows the move made"
    );
    assert_eq!(
        carol.run(&piece("f6")).await,
        json!("K"),
        "the king is in the centre"
    );
    carol.until_text("player-0", mover_name).await;
    carol.until_text("player-1", waiter_name).await;

    // A spectator has no say in the match: of the controls only the board toggle and the flip
    // (ways of looking) are there, and no piece may be picked up.
    let controls = carol
        .run("return [...document.querySelectorAll('.controls [data-testid]')].map((b) => b.dataset.testid);")
        .await;
    assert_eq!(
        controls,
        json!(["toggle-3d", "flip-board"]),
        "a spectator's controls"
    );
    for absent in ["resign", "offer-draw", "abort", "claim-win", "accept-draw"] {
        let script = format!("return !document.querySelector('{}');", by_testid(absent));
        assert_eq!(
            carol.run(&script).await,
            json!(true),
            "no {absent} for a spectator"
        );
    }
    assert_eq!(
        carol
            .run("return document.querySelectorAll('.sq.movable').length;")
            .await,
        json!(0),
        "a spectator has nothing to move"
    );
    // The players do have the controls the spectator lacks.
    mover.find(&by_testid("resign")).await;
    waiter.find(&by_testid("offer-draw")).await;

    waiter.play_tafl("f4", "b4").await;
    carol.until_moves(2).await;
    carol.until_text("move-1", "f4-b4").await;
    carol
        .until_text("turn", &format!("{mover_name} to play (watching)"))
        .await;
    carol
        .until(
            "the defender on b4",
            "const s = document.querySelector('[data-testid=sq-b4]'); return s && s.dataset.piece === 'T';",
        )
        .await;
    carol.screenshot("spectator").await;

    for b in [alice, bjorn, carol] {
        b.client.close().await.unwrap();
    }
}

/// The two clocks of a match page as it shows them, once it shows them.
async fn clocks(b: &Browser) -> [String; 2] {
    let texts = b
        .until(
            "both clocks",
            "const c = [0, 1].map((i) => document.querySelector(`[data-testid=clock-${i}]`));
             return c.every((e) => e) && c.map((e) => e.textContent);",
        )
        .await;
    let texts: Vec<String> = serde_json::from_value(texts).unwrap();
    texts.try_into().unwrap()
}

/// A clock's text (m:ss, h:mm:ss, or 0:0s.t under ten seconds) in milliseconds.
fn clock_ms(text: &str) -> i64 {
    let seconds = text.split(':').fold(0.0, |total, part| {
        total * 60.0
            + part
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("a clock: {text}"))
    });
    (seconds * 1000.0).round() as i64
}

/// Reads the clocks of each page twice, 1.5 s apart, and checks that on every page only the
/// clock of `running` counted down (by about the time that passed) while the other stood still.
/// Returns the last reading of the first page.
async fn only_one_clock_runs(pages: &[&Browser], running: usize) -> [String; 2] {
    let mut first = Vec::new();
    for b in pages {
        first.push(clocks(b).await);
    }
    let start = std::time::Instant::now();
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let mut last = None;
    for (b, before) in pages.iter().zip(first) {
        let after = clocks(b).await;
        let elapsed = start.elapsed().as_millis() as i64;
        let stopped = 1 - running;
        assert_eq!(
            after[stopped], before[stopped],
            "the clock of seat {stopped} stands still: {before:?} then {after:?}"
        );
        let spent = clock_ms(&before[running]) - clock_ms(&after[running]);
        // Whole seconds shown, redrawn every 100 ms: a second or more of 1.5 s, and never more
        // than the time that passed and one shown second.
        assert!(
            spent >= 1000 && spent <= elapsed + 1100,
            "the clock of seat {running} runs ({elapsed} ms passed): {before:?} then {after:?}"
        );
        last.get_or_insert(after);
    }
    last.unwrap()
}

/// Clocks: in a private rapid match (15+10) each side's clock starts with its first move, so
/// both stand at 15:00, shown as not started, until both sides have moved once; then the
/// attackers' clock counts down on both pages while the defenders' stands still; once the
/// attackers have moved, their clock stops with the increment added and the defenders' is the
/// one that runs.
#[tokio::test]
async fn the_clock_of_the_side_to_move_runs() {
    let addr = server().await;
    let driver = Driver::start().await;
    let alice = driver.browser(DESKTOP).await;
    let bjorn = driver.browser(DESKTOP).await;
    alice.register(addr, "alice").await;
    bjorn.register(addr, "bjorn").await;
    alice.select("private-game", "tafl").await;
    alice.select("private-variant", "copenhagen").await;
    alice.select("private-seat", "0").await;
    alice.select("private-time", "rapid").await;
    alice.click("private-create").await;
    let code = alice.text("invite-code").await;
    bjorn.fill("join-code", &code).await;
    bjorn.click("join-submit").await;
    alice.until_text("turn", "Your move").await;
    bjorn.until_text("turn", "alice to play").await;
    for b in [&alice, &bjorn] {
        let head = b
            .until(
                "the time control",
                "const h = document.querySelector('.match-head .muted'); return h && h.textContent;",
            )
            .await;
        assert!(
            head.as_str().unwrap().ends_with("Rated, 15+10"),
            "the match is rated rapid: {head}"
        );
    }

    // Before any move, neither clock runs: the attackers' shows the time for the first move.
    for b in [&alice, &bjorn] {
        b.until_text("first-move-0", "first move within").await;
        b.until_text("first-move-1", "clock not started").await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    for b in [&alice, &bjorn] {
        assert_eq!(clocks(b).await, ["15:00", "15:00"], "no clock started");
    }
    alice.play_tafl("d1", "d3").await;
    bjorn.until_text("turn", "Your move").await;
    // The first move started the attackers' clock without taking time off or adding any.
    assert_eq!(clocks(&alice).await, ["15:00", "15:00"]);
    bjorn.play_tafl("f4", "b4").await;
    alice.until_text("turn", "Your move").await;

    let before_move = only_one_clock_runs(&[&alice, &bjorn], 0).await;
    let read = std::time::Instant::now();
    assert_eq!(
        before_move[1], "15:00",
        "the defenders' clock stands while the attackers move"
    );
    assert!(clock_ms(&before_move[0]) < 900_000);

    alice.play_tafl("d3", "d2").await;
    bjorn.until_text("turn", "Your move").await;
    alice.until_text("turn", "bjorn to play").await;
    let after_move = clocks(&alice).await;
    let elapsed = read.elapsed().as_millis() as i64;
    // The attackers' clock ran on until the move (less than `elapsed`) and then gained the 10 s
    // increment; whole seconds shown, redrawn every 100 ms.
    let gained = clock_ms(&after_move[0]) - clock_ms(&before_move[0]);
    assert!(
        gained <= 10_000 + 1100 && gained >= 10_000 - 1100 - elapsed,
        "the increment is added ({elapsed} ms passed): {before_move:?} then {after_move:?}"
    );

    let last = only_one_clock_runs(&[&alice, &bjorn], 1).await;
    assert!(
        clock_ms(&last[1]) < 900_000,
        "the defenders' clock runs: {last:?}"
    );
    alice.screenshot("clocks").await;

    alice.client.close().await.unwrap();
    bjorn.client.close().await.unwrap();
}

/// A custom tafl variant from the lobby: the rules string is previewed as it is typed, a switch
/// the engine refuses is named, and the match is created casual on its own board. Screenshots of
/// the lobby at desktop and phone size are kept (target/screenshots).
#[tokio::test]
async fn a_custom_variant_is_previewed_and_played_from_the_lobby() {
    let addr = server().await;
    let driver = Driver::start().await;
    let wide = driver
        .browser(Screen::Window {
            width: 1400,
            height: 900,
        })
        .await;
    wide.register(addr, "inventor").await;
    wide.screenshot("lobby-desktop").await;
    // The pickers start on the catalog's first game, on the variants its board suggests.
    let value = |testid: &str| {
        format!(
            "return document.querySelector('{}').value;",
            by_testid(testid)
        )
    };
    for (picker, variant) in [
        ("private", "copenhagen"),
        ("queue", "copenhagen"),
        ("ai", "brandubh"),
        ("hotseat", "brandubh"),
    ] {
        assert_eq!(
            wide.run(&value(&format!("{picker}-game"))).await,
            json!("tafl")
        );
        assert_eq!(
            wide.run(&value(&format!("{picker}-variant"))).await,
            json!(variant)
        );
    }
    // The custom rules box is there for a game that takes custom rules only.
    let custom_hidden = "return document.querySelector('details.custom').hidden;";
    wide.select("private-game", "fox-geese").await;
    wide.until("the custom box hidden", custom_hidden).await;
    wide.select("private-game", "tafl").await;
    wide.select("private-variant", "copenhagen").await;
    wide.until(
        "the custom box shown",
        "return !document.querySelector('details.custom').hidden;",
    )
    .await;
    assert_eq!(
        wide.run("return document.querySelector('details.custom summary').textContent;")
            .await,
        json!("Custom rules (OpenTafl notation)")
    );
    wide.click_css("details.custom summary").await;
    let type_rules = |rules: &str| {
        format!(
            "const t = document.querySelector('{}'); t.value = {}; t.dispatchEvent(new Event('input')); return true;",
            by_testid("custom-rules"),
            json!(rules)
        )
    };
    wide.run(&type_rules(
        "dim:7 nj:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ))
    .await;
    wide.until_text("custom-error", "nj").await;
    wide.run(&type_rules(
        "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ))
    .await;
    let king = "const s = document.querySelector('[data-testid=custom-preview] [data-testid=sq-d4]'); return s && s.dataset.piece;";
    assert_eq!(wide.until("the preview's king", king).await, json!("K"));
    assert_eq!(wide.text("custom-error").await, "");
    // Its special squares come from the rules string: the king escapes at any edge square, so
    // the corners are edge squares like the rest, and the centre is a throne.
    let class = |sq: &str| {
        format!(
            "return document.querySelector('[data-testid=custom-preview] [data-testid=sq-{sq}]').getAttribute('class');"
        )
    };
    assert_eq!(wide.run(&class("a1")).await, json!("sq edge"));
    assert_eq!(wide.run(&class("d4")).await, json!("sq throne"));
    let rated = format!(
        "return document.querySelector('{}').disabled;",
        by_testid("private-rated")
    );
    assert_eq!(
        wide.run(&rated).await,
        json!(true),
        "custom variants are casual"
    );
    wide.screenshot("lobby-custom-variant-desktop").await;
    wide.click("private-create").await;
    match_page(&wide).await;
    let on_board = "const s = document.querySelector('[data-testid=sq-g7]'); return s && s.dataset.piece === '';";
    wide.until("the 7x7 board", on_board).await;

    let phone = driver.browser(Screen::Phone).await;
    phone.guest(addr).await;
    phone.screenshot("lobby-phone").await;
    phone.click_css("details.custom summary").await;
    phone
        .run(&type_rules(
            "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        ))
        .await;
    phone.until("the preview's king", king).await;
    phone
        .run("document.querySelector('details.custom').scrollIntoView(); return true;")
        .await;
    phone.screenshot("lobby-custom-variant-phone").await;
}

/// A guest's socket that follows the same session as a browser: how a test plays the other
/// seats of a page's hot-seat match, or many moves quickly.
async fn socket_of(b: &Browser, addr: SocketAddr) -> Client {
    let token = b.run("return localStorage.getItem('tafl.token');").await;
    Client::connect(addr, token.as_str().unwrap()).await
}

/// Casual play prints no `null`: neither beside the player's own draw offer (which they cannot
/// answer) nor in the result banner of an unrated match, which has no rating changes to list.
#[tokio::test]
async fn an_own_draw_offer_and_an_unrated_result_print_no_null() {
    let addr = server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    let me = b.text("me").await;
    b.select("private-game", "tafl").await;
    b.select("private-variant", "brandubh").await;
    b.select("private-seat", "0").await;
    b.click("private-create").await;
    let code = b.text("invite-code").await;
    let other = common::guest(addr).await;
    let mut bjorn = Client::connect(addr, &other.token).await;
    let ack = bjorn.ok(|id| common::join_with_invite(id, &code)).await;
    let match_id = ack.match_id.unwrap();
    // Each side moves once: a resignation before that calls the match off.
    b.play_tafl("d1", "c1").await;
    bjorn
        .event_where(match_id, |e| matches!(e, MatchEvent::Acted { seat: 0, .. }))
        .await;
    bjorn.ok(|id| act(id, match_id, 1, "c4-c3")).await;
    b.until_moves(2).await;

    b.click("offer-draw").await;
    b.until_text("draw-offer", "offers a draw").await;
    let offer = b
        .run("return document.querySelector('[data-testid=draw-offer]').parentElement.textContent;")
        .await;
    assert_eq!(offer, json!(format!("{me} offers a draw.")), "the draw box");

    bjorn
        .ok(|id| ClientMessage::Resign {
            id,
            match_id,
            seat: 1,
        })
        .await;
    b.until_text("result-text", "You win").await;
    let banner = b
        .run("return document.querySelector('[data-testid=result]').textContent;")
        .await;
    assert_eq!(
        banner,
        json!(
            "You win: resignation.Replay · Analyse this position · Download record · Back to the lobbyRematch"
        ),
        "the banner of an unrated match, with its rematch button"
    );
    b.client.close().await.unwrap();
}

/// The move list of a long game: the 100th line and those after it show every digit of their
/// number inside the list's visible box ("147.", not "47.").
#[tokio::test]
async fn move_numbers_from_100_show_every_digit() {
    // Room for a test that plays its moves as fast as the server answers.
    let addr = server_with(&[
        "--ws-messages-per-sec",
        "1000",
        "--ws-message-burst",
        "1000",
    ])
    .await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    let id = protocol::MatchId(b.hotseat("tafl", "copenhagen").await as i64);
    // A recorded game long enough for a hundred numbered pairs, played from a socket of the
    // same session (the page holds both seats) and followed by the page.
    let (line, _) = common::corpus_game(200);
    let mut socket = socket_of(&b, addr).await;
    for (i, mv) in line.iter().enumerate() {
        socket.ok(|cid| act(cid, id, (i % 2) as u8, mv)).await;
    }
    b.until_moves(line.len()).await;
    let lines = b
        .run(
            "const list = document.querySelector('[data-testid=move-list]');
             const box = list.getBoundingClientRect();
             const left = box.left + list.clientLeft;
             const right = left + list.clientWidth;
             return [...list.children].slice(98).map((li, i) => {
               const n = li.firstElementChild;
               const r = n.getBoundingClientRect();
               return [n.textContent, r.left >= left && r.right <= right];
             });",
        )
        .await;
    let lines: Vec<(String, bool)> = serde_json::from_value(lines).unwrap();
    assert!(lines.len() >= 2, "at least 100 numbered lines");
    for (i, (number, inside)) in lines.iter().enumerate() {
        assert_eq!(number, &format!("{}.", i + 99), "line {}'s number", i + 99);
        assert!(
            inside,
            "the number {number} lies inside the list's visible box"
        );
    }
    b.click_css("[data-testid=move-list] li:nth-child(100)")
        .await;
    b.screenshot("move-list-long").await;
    b.client.close().await.unwrap();
}

/// Whether the whole board and the result are inside the window, the page scrolled to its top:
/// what a player sees of a match page without scrolling.
const BOARD_AND_RESULT_IN_VIEW: &str = "window.scrollTo(0, 0);
    const inside = (e) => { const r = e.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
    return [inside(document.querySelector('[data-testid=board] svg')),
            inside(document.querySelector('[data-testid=result-text]'))];";

/// When a match ends, the result appears without pushing the board out of the window: on a
/// 1400 x 900 desktop window and on a phone, the whole Copenhagen board (its bottom rank too)
/// and the result are in view at once.
#[tokio::test]
async fn the_board_stays_in_view_when_a_match_ends() {
    let addr = server().await;
    let driver = Driver::start().await;
    for (screen, name) in [
        (
            Screen::Window {
                width: 1400,
                height: 900,
            },
            "result-desktop",
        ),
        (Screen::Phone, "result-phone"),
    ] {
        let b = driver.browser(screen).await;
        b.guest(addr).await;
        b.hotseat("tafl", "copenhagen").await;
        // Each side moves once: a resignation before that calls the match off.
        b.play_tafl("d1", "d3").await;
        b.until_moves(1).await;
        b.play_tafl("f4", "b4").await;
        b.until_moves(2).await;
        b.click("resign").await;
        b.click("resign-confirm").await;
        b.until_text("result-text", "won").await;
        let seen = b.run(BOARD_AND_RESULT_IN_VIEW).await;
        b.screenshot(name).await;
        assert_eq!(
            seen,
            json!([true, true]),
            "{name}: board and result in view"
        );
        b.client.close().await.unwrap();
    }
}

/// A tournament's next round does not snatch the page from the result of the player's game:
/// alice resigns her first-round game against the AI and still sees that result once the second
/// round has started, with a button to go to her next game, which takes her there.
#[tokio::test]
async fn the_next_tournament_round_waits_for_the_player() {
    let addr = server_with(&["--ai-move-ms", "20", "--tournament-poll-ms", "100"]).await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    alices_round_robin(&b, addr, "Saturday cup").await;
    // Four entrants (one AI account a level): three rounds, alice playing in each.
    for n in 1..=3 {
        b.select("tournament-ai-level", &n.to_string()).await;
        b.click("tournament-add-ai").await;
        b.until(
            "the AI entered",
            &format!(
                "return document.querySelectorAll('[data-testid=tournament-entrants] li').length === {};",
                n + 1
            ),
        )
        .await;
    }
    b.click("tournament-start").await;
    let first = match_page(&b).await;
    b.click("resign").await;
    b.click("resign-confirm").await;
    b.until_text("result-text", "You lose").await;

    // The second round starts once the AIs' first game is over; its game is offered.
    b.until_text("next-round", "Next round game").await;
    assert_eq!(match_page(&b).await, first, "still on the first game");
    b.until_text("result-text", "You lose").await;
    b.screenshot("tournament-next-round").await;
    b.click("next-round").await;
    let second = b
        .until(
            "the next game's page",
            &format!(
                "const m = location.hash.match(/^#\\/match\\/(\\d+)$/); return m && Number(m[1]) !== {first} && Number(m[1]);"
            ),
        )
        .await;
    assert!(second.as_u64().is_some());
    b.find(&by_testid("resign")).await;
    b.client.close().await.unwrap();
}

/// The lobby's live list shows the matches someone plays: a guest's game against the AI is
/// listed to others while the guest is on its page, and no longer once the guest has left it
/// for longer than the disconnect grace; the guest's own lobby still offers it to play on.
#[tokio::test]
async fn an_abandoned_game_against_the_ai_leaves_the_live_list() {
    let addr = server_with(&["--disconnect-grace-secs", "1"]).await;
    let driver = Driver::start().await;
    let player = driver.browser(DESKTOP).await;
    let other = driver.browser(DESKTOP).await;
    player.guest(addr).await;
    player.select("ai-game", "tafl").await;
    player.select("ai-variant", "brandubh").await;
    player.select("ai-level", "1").await;
    player.select("ai-seat", "1").await;
    player.click("ai-play").await;
    let id = match_page(&player).await;
    player.find(&by_testid("sq-d4")).await;

    other.guest(addr).await;
    other.find(&by_testid(&format!("live-{id}"))).await;
    other.screenshot("lobby-live").await;

    player.open(addr, "#/").await;
    player.find(&by_testid("hotseat-create")).await;
    other
        .until(
            "the abandoned match to leave the live list",
            &format!(
                "return !document.querySelector('{}') && !!document.querySelector('[data-testid=live-matches] li');",
                by_testid(&format!("live-{id}"))
            ),
        )
        .await;
    assert_eq!(
        other.text("live-matches").await,
        "No match is being played.",
        "nothing else is being played"
    );
    assert_eq!(player.text(&format!("live-{id}")).await, "Play");
    for b in [player, other] {
        b.client.close().await.unwrap();
    }
}

/// Logging in through the login screen gives the page its session: the token, kept for REST,
/// and the `session` cookie, by which the socket is the player's (its URL carries no token).
/// A token kept without its cookie (the browser's cookies cleared) ends the session: the page
/// goes on as a visitor's, who may log in again.
#[tokio::test]
async fn logging_in_gives_the_socket_its_cookie_and_a_token_without_one_ends_the_session() {
    let addr = server().await;
    let alice = common::new_player(addr).await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.open(addr, "").await;
    b.click("header-login").await;
    b.fill("login-username", &alice.player.name).await;
    b.fill("login-password", "correct horse battery").await;
    b.click("login-submit").await;
    b.until_text("me", &alice.player.name).await;
    b.find(&by_testid("hotseat-create")).await;
    let cookies = b.client.get_all_cookies().await.unwrap();
    let session = cookies.iter().find(|c| c.name() == "session");
    assert!(
        session.is_some_and(|c| c.http_only() == Some(true)),
        "{cookies:?}"
    );

    b.client.delete_all_cookies().await.unwrap();
    b.client.refresh().await.unwrap();
    b.find(&by_testid("header-login")).await;
    assert_eq!(
        b.run("return localStorage.getItem('tafl.token');").await,
        Value::Null
    );
    b.assert_no_console_errors().await;
}
