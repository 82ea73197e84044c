//! Names, not ids, in a real headless Chromium against a server started here: the lobby (every
//! picker, the live boards, the queue's pools), a leaderboard, a player page, a live match
//! against the AI and a tournament of AI entrants show players no raw id (`copenhagen-13`,
//! `hnefatafl-weaponless`, `ai-level-2`, `tafl/brandubh`, `blitz`), in English and in Swedish;
//! the tafl variant picker is grouped, each option with its board's size. Screenshots at
//! 1400 x 900 and on a phone go to `target/screenshots/` (`names-*`).

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;

use browser::{Browser, Driver, Screen, WIDE, by_testid};
use common::{Backend, Client, act, create, fresh_database, join, new_player, start};
use protocol::{ClientMessage, MatchId, Session, TimeControl};
use serde_json::{Value, json};

/// What the pages show: alice's rated Brandubh win over bjorn (a leaderboard and a pool on
/// their pages), alice against the AI at level 2 on Copenhagen 13x13, still live, bjorn waiting
/// in the queue for a Weaponless-king blitz game, and a tournament of AI entrants under way.
struct World {
    alice: Session,
    against_ai: MatchId,
    tournament: i64,
    /// Bjorn's socket, kept open: the queue keeps only players who are there.
    _queued: Client,
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
        "{path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

async fn world(addr: SocketAddr) -> World {
    let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
    let mut a = Client::connect(addr, &alice.token).await;
    let mut b = Client::connect(addr, &bjorn.token).await;
    let rated = a
        .ok(|id| create(id, "tafl", "brandubh", json!({"rated": true})))
        .await
        .match_id
        .unwrap();
    b.ok(|id| join(id, rated)).await;
    a.ok(|id| act(id, rated, 0, "d1-c1")).await;
    b.ok(|id| act(id, rated, 1, "c4-c3")).await;
    b.ok(|id| ClientMessage::Resign {
        id,
        match_id: rated,
        seat: 1,
    })
    .await;

    let against_ai = a
        .ok(|id| common::play_ai(id, "copenhagen-13", 2, 1))
        .await
        .match_id
        .unwrap();
    b.ok(|id| ClientMessage::QueueJoin {
        id,
        game: "tafl".into(),
        variant: Some("hnefatafl-weaponless".into()),
        seats: None,
        time_control: TimeControl::Blitz,
        rated: true,
        ai_after_secs: None,
        two_games: false,
    })
    .await;

    let carla = new_player(addr).await;
    let spec = json!({"name": "Yule cup", "game": "tafl", "variant": "tablut", "format": "round_robin", "time_control": "rapid"});
    let tournament = post_as(addr, &carla.token, "/api/tournaments", spec).await["summary"]["id"]
        .as_i64()
        .unwrap();
    let entrants = format!("/api/tournaments/{tournament}/entrants");
    for level in 1..=3 {
        post_as(addr, &carla.token, &entrants, json!({"ai_level": level})).await;
    }
    let started = format!("/api/tournaments/{tournament}/start");
    post_as(addr, &carla.token, &started, json!(null)).await;
    a.close().await;
    World {
        alice,
        against_ai,
        tournament,
        _queued: b,
    }
}

/// Every text a player reads on the page: what is drawn, every picker's options and groups
/// (closed drop-downs too), the labels read aloud, the titles and the tab's title.
const TEXTS: &str = "
  const texts = [document.title, document.body.innerText];
  for (const o of document.querySelectorAll('select option')) texts.push(o.textContent);
  for (const g of document.querySelectorAll('select optgroup')) texts.push(g.label);
  for (const e of document.querySelectorAll('[aria-label], [title]')) {
    texts.push(e.getAttribute('aria-label') ?? '', e.getAttribute('title') ?? '');
  }
  return texts.join('\\n');";

/// The raw ids found in the page's texts: every game's and variant's id that is not a plain
/// word (the engine's catalog, as `GET /api/games` gives it), the queue's time controls, the AI's
/// accounts and pools written `game/variant`.
async fn raw_ids(b: &Browser, page: &str) -> Vec<String> {
    let found = b
        .resolve(&format!(
            "fetch('/api/games').then((r) => r.json()).then((games) => {{
               const ids = new Set(['bullet', 'blitz', 'rapid', 'classical']);
               for (const g of games) {{
                 if (g.id.includes('-')) ids.add(g.id);
                 for (const v of g.variants) if (/^[a-z]/.test(v.name) && v.name !== 'standard' && v.name !== 'basic' && v.name !== 'advanced') ids.add(v.name);
               }}
               const text = (() => {{ {TEXTS} }})();
               const found = [...ids].filter((id) => new RegExp(`(^|[^\\\\w-])${{id}}($|[^\\\\w-])`).test(text));
               for (const raw of ['ai-level-', 'tafl/']) if (text.includes(raw)) found.push(raw);
               return found;
             }})"
        ))
        .await;
    (found.as_array().unwrap().iter())
        .map(|id| format!("{page}: {}", id.as_str().unwrap()))
        .collect()
}

/// The groups of a variant picker and, in each, its options' texts.
async fn picker_groups(b: &Browser, testid: &str) -> Vec<(String, Vec<String>)> {
    let groups = b
        .run(&format!(
            "return [...document.querySelectorAll('{} optgroup')].map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)]);",
            by_testid(testid)
        ))
        .await;
    serde_json::from_value(groups).unwrap()
}

/// Opens a page and waits for what shows once it is drawn.
async fn visit(b: &Browser, addr: SocketAddr, hash: &str, drawn: &str) {
    b.open(addr, hash).await;
    b.client.refresh().await.unwrap();
    b.find(drawn).await;
}

/// Every page where ids were shown, as alice sees it in English and in Swedish: no raw id, the
/// lobby's four variant pickers grouped (played today first) with a board size on every option,
/// the AI named as the AI, pools and time controls by name. Fails on a client that shows ids.
#[tokio::test]
async fn pages_name_games_variants_pools_times_and_the_ai_in_the_readers_language() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let w = world(addr).await;
    let driver = Driver::start().await;
    let languages = [
        (
            "en",
            "en-US",
            [
                "Played today",
                "The basic game's boards",
                "Historical reconstructions",
            ],
            "AI, level 2",
            "Blitz 5+3",
        ),
        (
            "sv",
            "sv-SE",
            [
                "Spelas i dag",
                "Grundspelets brädor",
                "Historiska rekonstruktioner",
            ],
            "AI, nivå 2",
            "Blixt 5+3",
        ),
    ];
    for (code, tag, groups, ai, blitz) in languages {
        for screen in [WIDE, Screen::Phone] {
            let size = if screen == WIDE { "wide" } else { "phone" };
            let b = driver.browser_speaking(screen, tag).await;
            b.sign_in(addr, &w.alice.token, "#/").await;
            b.find(&by_testid("hotseat-create")).await;
            b.find("[data-testid^=live-board-]").await;
            b.find("[data-testid=queue-sizes] li:not(.muted)").await;
            let found = raw_ids(&b, "lobby").await;
            assert!(found.is_empty(), "{code} {size}: raw ids shown: {found:?}");
            b.until_text("queue-sizes", blitz).await;
            for picker in [
                "queue-variant",
                "ai-variant",
                "private-variant",
                "hotseat-variant",
            ] {
                let shown = picker_groups(&b, picker).await;
                let labels: Vec<&str> = shown.iter().map(|(label, _)| label.as_str()).collect();
                assert_eq!(labels, groups, "{code}: the groups of {picker}");
                for (label, options) in &shown {
                    assert!(!options.is_empty(), "{code}: {picker}'s {label} is empty");
                    for option in options {
                        assert!(
                            option.contains("7×7")
                                || option.contains("9×9")
                                || option.contains("11×11")
                                || option.contains("13×13")
                                || option.contains("19×19"),
                            "{code}: {picker}'s {option} has no board size"
                        );
                    }
                }
            }
            let copenhagen = if code == "en" {
                "Copenhagen 13×13"
            } else {
                "Köpenhamn 13×13"
            };
            assert!(
                b.run("return document.body.innerText;")
                    .await
                    .as_str()
                    .unwrap()
                    .contains(copenhagen),
                "{code}: the live board's game named {copenhagen}"
            );
            // The picker's list shown open, for the screenshot.
            b.run(&format!(
                "const s = document.querySelector('{}'); s.size = 12; s.scrollIntoView({{block: 'center'}});",
                by_testid("queue-variant")
            ))
            .await;
            b.screenshot(&format!("names-lobby-{code}-{size}")).await;

            visit(
                &b,
                addr,
                "#/leaderboard/tafl/brandubh",
                ".page table tbody tr a",
            )
            .await;
            let found = raw_ids(&b, "leaderboard").await;
            assert!(found.is_empty(), "{code} {size}: raw ids shown: {found:?}");
            let groups_here: Vec<String> = picker_groups(&b, "lb-variant")
                .await
                .into_iter()
                .map(|(l, _)| l)
                .collect();
            assert_eq!(
                groups_here, groups,
                "{code}: the leaderboard's variant picker"
            );
            b.screenshot(&format!("names-leaderboard-{code}-{size}"))
                .await;

            visit(
                &b,
                addr,
                &format!("#/player/{}", w.alice.player.id.0),
                &by_testid("player-matches"),
            )
            .await;
            let found = raw_ids(&b, "player").await;
            assert!(found.is_empty(), "{code} {size}: raw ids shown: {found:?}");
            b.until_text("player-matches", ai).await;

            visit(
                &b,
                addr,
                &format!("#/match/{}", w.against_ai.0),
                ".board-svg",
            )
            .await;
            b.until(
                "the AI's name",
                &format!("return document.body.innerText.includes({});", json!(ai)),
            )
            .await;
            let found = raw_ids(&b, "match").await;
            assert!(found.is_empty(), "{code} {size}: raw ids shown: {found:?}");
            b.screenshot(&format!("names-match-{code}-{size}")).await;

            visit(
                &b,
                addr,
                &format!("#/tournament/{}", w.tournament),
                "[data-testid=tournament-standings] tr",
            )
            .await;
            b.until_text("tournament-entrants", ai).await;
            let found = raw_ids(&b, "tournament").await;
            assert!(found.is_empty(), "{code} {size}: raw ids shown: {found:?}");
            b.screenshot(&format!("names-tournament-{code}-{size}"))
                .await;

            b.assert_no_console_errors().await;
            b.client.close().await.unwrap();
        }
    }
}
