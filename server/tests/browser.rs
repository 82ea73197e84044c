//! The browser client in a real headless Chromium (Debian's `chromium` and `chromium-driver`),
//! driven over WebDriver by fantoccini, against a server started here on 127.0.0.1: two players
//! play a rated private match through the pages, a player beats (or loses to) the AI by clicking
//! legal moves, and a reload in the middle of a game restores it. Screenshots of the main
//! screens go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use browser::{Browser, DESKTOP, Driver, Screen, by_testid};
use common::{Backend, Client, act, fresh_database, start};
use protocol::{ClientMessage, MatchEvent};
use serde_json::{Value, json};

async fn server() -> SocketAddr {
    start(&fresh_database(Backend::Sqlite).await, &[]).await
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
    let pairs: Vec<String> = plain.chunks(2).map(|pair| pair.join(" ")).collect();
    assert_eq!(alice.text("move-list").await, pairs.join("\n"));
    let (won, lost) = if winner == 0 {
        (&alice, &bjorn)
    } else {
        (&bjorn, &alice)
    };
    won.until_text("result-text", "You win").await;
    lost.until_text("result-text", "You lose").await;
    for b in [&alice, &bjorn] {
        b.until_text("rating-0", "alice: 1500 →").await;
        b.until_text("rating-1", "bjorn: 1500 →").await;
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
    b.open(addr, "").await;
    b.click("guest-submit").await;
    b.find(&by_testid("ai-play")).await;
    b.select("ai-game", "tafl").await;
    b.select("ai-variant", "brandubh").await;
    b.select("ai-level", "1").await;
    b.select("ai-seat", "1").await;
    b.click("ai-play").await;
    b.find(&by_testid("sq-d4")).await;

    // One move per turn until the result: the script clicks through the same squares a person
    // would (a movable piece, then a lit destination); clicks go through WebDriver.
    let mut moves = 0;
    loop {
        let next = b
            .until(
                "my move or the result",
                "const r = document.querySelector('[data-testid=result]');
                 if (r && !r.hidden) return 'over';
                 return document.querySelector('.sq.movable') ? 'move' : null;",
            )
            .await;
        if next == json!("over") {
            break;
        }
        let from = b
            .client
            .execute(
                "const movable = [...document.querySelectorAll('.sq.movable')];
                 const king = movable.find((s) => s.dataset.piece === 'K');
                 return (king ?? movable[Math.floor(Math.random() * movable.length)]).dataset.sq;",
                vec![],
            )
            .await
            .unwrap();
        let from = from.as_str().unwrap().to_string();
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
        b.click(&format!("sq-{}", to.as_str().unwrap())).await;
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
    b.open(addr, "").await;
    b.click("guest-submit").await;
    b.find(&by_testid("hotseat-create")).await;
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

/// A TCP relay between the browser and the server that the test can cut, to drop the page's
/// connection as a network failure would, and then restore.
struct Relay {
    addr: SocketAddr,
    open: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    async fn start(target: SocketAddr) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let relay = Relay {
            addr: listener.local_addr().unwrap(),
            open: Arc::new(AtomicBool::new(true)),
            links: Arc::new(Mutex::new(Vec::new())),
        };
        let (open, links) = (relay.open.clone(), relay.links.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                // While cut, a new connection is closed at once, as by an unreachable server.
                if !open.load(Ordering::SeqCst) {
                    continue;
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                links.lock().unwrap().push(link.abort_handle());
            }
        });
        relay
    }

    /// Drops every open connection and refuses new ones.
    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
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
    let ack = bjorn
        .ok(|id| ClientMessage::JoinMatch {
            id,
            match_id: None,
            invite: Some(code),
            seat: None,
        })
        .await;
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

/// A tournament run from the pages: created, entered by its creator and the level-1 AI,
/// started; the creator is taken to the first game by the round's push, resigns it, and back on
/// the tournament page the standings put the AI first and the tournament is finished.
#[tokio::test]
async fn a_tournament_from_creation_to_standings() {
    let addr = server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.register(addr, "alice").await;
    b.click("tournaments-link").await;
    b.fill("tournament-name", "Friday cup").await;
    b.select("tournament-game", "tafl").await;
    b.select("tournament-variant", "brandubh").await;
    b.select("tournament-format", "round_robin").await;
    b.click("tournament-create").await;
    b.click("tournament-register").await;
    b.until_text("tournament-entrants", "alice").await;
    b.select("tournament-ai-level", "1").await;
    b.click("tournament-add-ai").await;
    b.until_text("tournament-entrants", "ai-level-1").await;
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
        first.as_str().unwrap().starts_with("1ai-level-11"),
        "the AI leads with a point: {first}"
    );
    b.screenshot("tournament-finished").await;
    b.client.close().await.unwrap();
}
