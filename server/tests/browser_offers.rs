//! Rematches and challenges in a real headless Chromium against a server started here: a
//! rematch offered from one player's result banner and accepted from the other's takes both
//! browsers to the new match, sides swapped; a challenge sent from a player's page shows as a
//! notification on whatever page the challenged player has open, without changing it, and
//! accepting it opens the match in both browsers; declined, the challenger is told; a player
//! who takes challenges only from those they follow says so on their page. Screenshots
//! of the banner and the notifications, at 1400 x 900 and on a phone in the dark theme, go to
//! `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Client, sqlite_server};
use protocol::{ChallengeSpec, ClientMessage, MatchId, Session};
use serde_json::{Value, json};

/// A browser on a screen, in the dark theme or not (as the system's), for a new player: logged in
/// with their session as the client keeps it, on `hash`.
async fn signed_in(
    driver: &Driver,
    screen: Screen,
    dark: bool,
    addr: SocketAddr,
    who: &Session,
    hash: &str,
) -> Browser {
    let b = driver.browser(screen).await;
    if dark {
        b.emulate_colour_scheme("dark").await;
    }
    b.sign_in(addr, &who.token, hash).await;
    b.until_text("me", &who.player.name).await;
    b
}

async fn hash(b: &Browser) -> String {
    b.run("return location.hash;")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits for the browser to show a match other than `not`; returns it.
async fn until_another_match(b: &Browser, not: MatchId) -> i64 {
    let script = format!(
        "const m = location.hash.match(/^#\\/match\\/(\\d+)/); return m && Number(m[1]) !== {} && Number(m[1]);",
        not.0
    );
    b.until("another match's page", &script)
        .await
        .as_i64()
        .unwrap()
}

/// Whether the page is no wider than the window.
async fn fits_the_width(b: &Browser) -> bool {
    b.run("return document.documentElement.scrollWidth <= window.innerWidth;")
        .await
        == json!(true)
}

/// Whether an element is wholly inside the window (a notification must not be cut off).
async fn in_view(b: &Browser, testid: &str) -> Value {
    b.run(&format!(
        "const r = document.querySelector('{}').getBoundingClientRect();
         return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;",
        by_testid(testid)
    ))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_offered_from_the_banner_and_accepted_takes_both_players_to_it() {
    let addr = sqlite_server().await;
    let (alice, bjorn) = (
        common::new_player(addr).await,
        common::new_player(addr).await,
    );
    let (mut a, mut b) = (
        Client::connect(addr, &alice.token).await,
        Client::connect(addr, &bjorn.token).await,
    );
    let clock = json!({"base_ms": 300_000, "increment_ms": 3000});
    let m = a
        .ok(|id| {
            common::create(
                id,
                "tafl",
                "brandubh",
                json!({"rated": true, "clock": clock}),
            )
        })
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, m)).await;
    a.ok(|id| common::act(id, m, 0, "d1-c1")).await;
    b.ok(|id| common::act(id, m, 1, "d3-b3")).await;
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id: m,
        seat: 0,
    })
    .await;
    a.close().await;
    b.close().await;

    let driver = Driver::start().await;
    let page = format!("#/match/{}", m.0);
    let wide = signed_in(&driver, WIDE, false, addr, &alice, &page).await;
    let phone = signed_in(&driver, Screen::Phone, true, addr, &bjorn, &page).await;
    for p in [&wide, &phone] {
        p.until_text("result-text", "resignation").await;
    }
    wide.click("rematch").await;
    wide.until_text(
        "rematch-text",
        &format!("waiting for {}", bjorn.player.name),
    )
    .await;
    phone
        .until_text(
            "rematch-text",
            &format!("{} offers a rematch", alice.player.name),
        )
        .await;
    phone.find(&by_testid("rematch-decline")).await;
    // Under the board on a phone: brought into view to be answered.
    assert_eq!(in_view(&phone, "rematch-accept").await, json!(true));
    for (p, name) in [(&wide, "rematch-banner"), (&phone, "rematch-banner-phone")] {
        assert!(fits_the_width(p).await, "{name}");
        p.screenshot(name).await;
    }

    phone.click("rematch-accept").await;
    let rematch = until_another_match(&phone, m).await;
    assert_eq!(until_another_match(&wide, m).await, rematch);
    // Sides swapped: bjorn has the attackers now, and it is his move.
    for p in [&wide, &phone] {
        p.until_text("player-0", &bjorn.player.name).await;
        p.until_text("player-1", &alice.player.name).await;
        p.find(&by_testid("clock-0")).await;
    }
    phone.until_text("turn", "Your move").await;
    phone.play_tafl("d1", "c1").await;
    wide.until_moves(1).await;
    for p in [wide, phone] {
        p.assert_no_console_errors().await;
        p.client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_a_notification_on_any_page_and_accepting_it_opens_the_match() {
    let addr = sqlite_server().await;
    let (alice, bjorn) = (
        common::new_player(addr).await,
        common::new_player(addr).await,
    );
    let driver = Driver::start().await;
    let bjorns_page = format!("#/player/{}", bjorn.player.id.0);
    let wide = signed_in(&driver, WIDE, false, addr, &alice, &bjorns_page).await;
    let phone = signed_in(
        &driver,
        Screen::Phone,
        true,
        addr,
        &bjorn,
        "#/leaderboard/tafl/brandubh",
    )
    .await;

    // Alice follows bjorn, and challenges him from his page: Brandubh, her on the defenders,
    // blitz, rated.
    wide.until_text("follow", "Follow").await;
    wide.click("follow").await;
    wide.until_text("follow", "Unfollow").await;
    wide.select("challenge-game", "tafl").await;
    wide.select("challenge-variant", "brandubh").await;
    wide.select("challenge-seat", "1").await;
    wide.select("challenge-time", "blitz").await;
    wide.click("challenge-send").await;
    let sent = wide
        .until("the challenge's notification", "const n = document.querySelector('[data-testid^=challenge-withdraw-]'); return n && n.dataset.testid.slice(19);")
        .await;
    let id = sent.as_str().unwrap().to_string();
    wide.until_text(
        &format!("challenge-{id}"),
        &format!("You challenged {}", bjorn.player.name),
    )
    .await;

    // Bjorn is told on the leaderboard, which stays.
    let card = format!("challenge-{id}");
    phone
        .until_text(&card, &format!("{} challenges you", alice.player.name))
        .await;
    phone
        .until_text(&card, "you play Attackers (black). Rated, 5+3")
        .await;
    phone.until_text(&card, "Expires in").await;
    assert_eq!(hash(&phone).await, "#/leaderboard/tafl/brandubh");
    for (p, name) in [
        (&wide, "challenge-sent"),
        (&phone, "challenge-received-phone"),
    ] {
        assert_eq!(in_view(p, &card).await, json!(true), "{name}");
        assert!(fits_the_width(p).await, "{name}");
        p.screenshot(name).await;
    }

    phone.click(&format!("challenge-accept-{id}")).await;
    let m = until_another_match(&phone, MatchId(0)).await;
    assert_eq!(until_another_match(&wide, MatchId(0)).await, m);
    for p in [&wide, &phone] {
        p.until_text("player-0", &bjorn.player.name).await;
        p.until_text("player-1", &alice.player.name).await;
        let gone = format!("return !document.querySelector('[data-testid={card}]');");
        p.until("the notification to go", &gone).await;
    }

    // The other way, from the test's socket: alice, on the match page, is told; she declines,
    // and bjorn is told so.
    let mut b = Client::connect(addr, &bjorn.token).await;
    let made = b
        .ok(|id| ClientMessage::Challenge {
            id,
            spec: ChallengeSpec {
                player: alice.player.id,
                game: "fox-geese".into(),
                variant: None,
                seat: None,
                clock: None,
                rated: false,
                two_games: false,
                takebacks: false,
            },
        })
        .await;
    let id = made.challenge_id.unwrap().0;
    let card = format!("challenge-{id}");
    wide.until_text(&card, &format!("{} challenges you", bjorn.player.name))
        .await;
    wide.until_text(&card, "you play Fox (orange). Casual, no clock")
        .await;
    phone
        .until_text(&card, &format!("You challenged {}", alice.player.name))
        .await;
    for (p, name) in [
        (&wide, "challenge-received"),
        (&phone, "challenge-sent-phone"),
    ] {
        p.screenshot(name).await;
    }
    wide.click(&format!("challenge-decline-{id}")).await;
    phone
        .until_text(
            &card,
            &format!("{} declined your challenge", alice.player.name),
        )
        .await;
    assert_eq!(hash(&wide).await, format!("#/match/{m}"));

    // Bjorn takes challenges only from the accounts he follows, on his own page: alice's page
    // of him says so, and offers no challenge.
    phone.open(addr, &bjorns_page).await;
    phone.select("challenge-setting", "followed").await;
    phone.until_text("challenge-setting-saved", "Saved").await;
    phone.screenshot("player-own-phone").await;
    wide.open(addr, &bjorns_page).await;
    wide.until_text("challenge-refused", "only from the accounts they follow")
        .await;
    wide.screenshot("player-refuses").await;
    for p in [wide, phone] {
        p.assert_no_console_errors().await;
        p.client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_game_match_shows_which_game_it_is_and_the_series_result() {
    let addr = sqlite_server().await;
    let (alice, bjorn) = (
        common::new_player(addr).await,
        common::new_player(addr).await,
    );
    let (mut a, mut b) = (
        Client::connect(addr, &alice.token).await,
        Client::connect(addr, &bjorn.token).await,
    );
    let made = a
        .ok(|id| ClientMessage::Challenge {
            id,
            spec: ChallengeSpec {
                player: bjorn.player.id,
                game: "tafl".into(),
                variant: Some("brandubh".into()),
                seat: Some(0),
                clock: None,
                rated: false,
                two_games: true,
                takebacks: false,
            },
        })
        .await;
    let challenge_id = made.challenge_id.unwrap();
    let m1 = b
        .ok(|id| ClientMessage::AnswerChallenge {
            id,
            challenge_id,
            accept: true,
        })
        .await
        .match_id
        .unwrap();
    let driver = Driver::start().await;
    let wide = signed_in(
        &driver,
        WIDE,
        false,
        addr,
        &alice,
        &format!("#/match/{}", m1.0),
    )
    .await;
    wide.until_text("series", "Game 1 of 2").await;
    let phone = signed_in(
        &driver,
        Screen::Phone,
        false,
        addr,
        &bjorn,
        &format!("#/match/{}", m1.0),
    )
    .await;
    phone.until_text("series", "Game 1 of 2").await;

    // Game 1: bjorn resigns after a move each. Both pages show game 1's result with the score,
    // and count down to game 2; alice goes on at once, bjorn's page takes him there.
    a.ok(|id| common::watch(id, m1, None)).await;
    b.ok(|id| common::watch(id, m1, None)).await;
    a.ok(|id| common::act(id, m1, 0, "d1-c1")).await;
    b.ok(|id| common::act(id, m1, 1, "d3-b3")).await;
    b.ok(|id| ClientMessage::Resign {
        id,
        match_id: m1,
        seat: 1,
    })
    .await;
    let (first, second) = (&alice.player.name, &bjorn.player.name);
    for (page, result, name) in [
        (&wide, "You win", "series-game-1"),
        (&phone, "You lose", "series-game-1-phone"),
    ] {
        page.until_text("result-text", result).await;
        page.until_text(
            "series-score",
            &format!("After game 1: {first} 1 – 0 {second}"),
        )
        .await;
        page.until_text("series-count", "Game 2, the sides swapped, starts in")
            .await;
        assert_eq!(
            hash(page).await,
            format!("#/match/{}", m1.0),
            "still game 1"
        );
        page.screenshot(name).await;
    }
    wide.click("series-go-on").await;
    let m2 = MatchId(until_another_match(&wide, m1).await);
    assert_eq!(
        MatchId(until_another_match(&phone, m1).await),
        m2,
        "after the count"
    );
    phone.client.close().await.unwrap();
    wide.until_text("series", "Game 2 of 2").await;
    wide.until_text("series", &format!("{first} 1 – 0 {second}"))
        .await;

    // Game 2, the sides swapped: alice resigns after two moves each, so her win was the shorter.
    b.ok(|id| common::watch(id, m2, None)).await;
    a.ok(|id| common::watch(id, m2, None)).await;
    for (ply, action) in ["d1-c1", "d3-b3", "c1-c2", "b3-b2"].iter().enumerate() {
        let (c, seat) = if ply % 2 == 0 {
            (&mut b, 0)
        } else {
            (&mut a, 1)
        };
        c.ok(|id| common::act(id, m2, seat, action)).await;
    }
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id: m2,
        seat: 1,
    })
    .await;
    wide.until_text(
        "series-result",
        &format!("{first} wins the two-game match on the shorter win"),
    )
    .await;
    wide.until_text("series-result", &format!("{first} 1 – 1 {second}"))
        .await;
    wide.screenshot("series-result").await;
    wide.assert_no_console_errors().await;
    wide.client.close().await.unwrap();
}
