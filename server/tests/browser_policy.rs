//! Every page of the client, and the API's documentation, in a real headless Chromium under the
//! server's Content-Security-Policy: none breaks a rule of it (Chromium logs each violation to
//! the console as an error, which the test reads; a probe that breaks one shows it would be
//! seen). Screenshots of a few pages at 1400 x 900 and on a phone go to `target/screenshots/`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use browser::{Driver, Screen, WIDE, by_testid};
use common::{Backend, act, copenhagen_match, fresh_database, http, rated_match, start};
use protocol::ClientMessage;
use serde_json::{Value, json};

/// A page of the client: its hash, the element that shows it is there, and the name of its
/// screenshot, if one is taken.
struct Page {
    hash: String,
    ready: &'static str,
    shot: Option<&'static str>,
}

fn page(hash: impl Into<String>, ready: &'static str, shot: Option<&'static str>) -> Page {
    Page {
        hash: hash.into(),
        ready,
        shot,
    }
}

/// What the pages show: a rated match finished (ratings, a history chart, a replay), a match
/// being played, and a tournament. Returns the session to sign in with, and the pages.
async fn a_server_with_something_on_every_page() -> (SocketAddr, String, Vec<Page>) {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let (alice, _, mut a, mut b, finished) = rated_match(addr, 300_000, 0).await;
    a.ok(|id| act(id, finished, 0, "d1-d3")).await;
    b.ok(|id| act(id, finished, 1, "f4-c4")).await;
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id: finished,
        seat: 0,
    })
    .await;
    let live = copenhagen_match(&mut a, &mut b, json!({})).await;
    a.ok(|id| act(id, live, 0, "d1-d3")).await;
    let created: Value = http()
        .post(format!("http://{addr}/api/tournaments"))
        .bearer_auth(&alice.token)
        .json(&json!({"name": "Cup", "game": "tafl", "variant": "brandubh", "format": "knockout"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tournament = &created["summary"]["id"];
    let pages = vec![
        page("", "hotseat-create", Some("policy-lobby")),
        page("#/leaderboard/tafl/copenhagen", "leaderboard", None),
        page(
            format!("#/player/{}", alice.player.id.0),
            "rating-chart",
            Some("policy-player"),
        ),
        page("#/tournaments", "tournament-list", None),
        page(
            format!("#/tournament/{tournament}"),
            "tournament-entrants",
            None,
        ),
        page(
            format!("#/match/{}", live.0),
            "move-0",
            Some("policy-match"),
        ),
        page(format!("#/replay/{}", finished.0), "replay-moves", None),
        page("#/rules/tafl", "rules", None),
        page("#/rules/tower-race", "rules", None),
        page("#/analysis/game/tafl/brandubh", "analysis-moves", None),
        page("#/games", "games", None),
    ];
    (addr, alice.token, pages)
}

/// Opens each page in turn (and the match page's 3D view), wide and on a phone; none may breach
/// the policy, nor log any other error. Then the API's documentation, and a probe.
#[tokio::test]
async fn every_page_runs_under_the_content_security_policy() {
    let (addr, token, pages) = a_server_with_something_on_every_page().await;
    let index = http().get(format!("http://{addr}/")).send().await.unwrap();
    assert!(
        common::header(&index, "content-security-policy").contains("default-src 'self'"),
        "the page is served under the policy"
    );

    let driver = Driver::start().await;
    let wide = driver.browser(WIDE).await;
    let phone = driver.browser(Screen::Phone).await;
    for (b, suffix) in [(&wide, ""), (&phone, "-phone")] {
        b.sign_in(addr, &token, "").await;
        for page in &pages {
            b.open(addr, &page.hash).await;
            b.find(&by_testid(page.ready)).await;
            if let Some(name) = page.shot {
                b.screenshot(&format!("{name}{suffix}")).await;
            }
            if page.hash.starts_with("#/match/") {
                b.until_text("toggle-3d", "3D board").await;
                b.click("toggle-3d").await;
                b.until(
                    "the 3D board drawn",
                    "const board = document.querySelector('[data-testid=board3d]');
                     return !!board && !!board.parentElement.dataset.labels;",
                )
                .await;
                b.screenshot(&format!("policy-match-3d{suffix}")).await;
                b.click("toggle-3d").await;
                b.until_text("toggle-3d", "3D board").await;
            }
            let errors = b.console_errors().await;
            assert!(errors.is_empty(), "{}{suffix}: {errors:#?}", page.hash);
        }
    }

    // The API's documentation, Swagger UI, runs under the policy too.
    wide.client
        .goto(&format!("http://{addr}/api/docs/"))
        .await
        .unwrap();
    wide.find(".swagger-ui .info .title").await;
    wide.find(".swagger-ui .opblock").await;
    wide.screenshot("policy-api-docs").await;
    let errors = wide.console_errors().await;
    assert!(errors.is_empty(), "/api/docs: {errors:#?}");

    // A probe: a style attribute breaches the policy, and the test sees it.
    wide.open(addr, "#/rules/tafl").await;
    wide.find(&by_testid("rules")).await;
    wide.run(
        "document.querySelector('[data-testid=rules]')
           .insertAdjacentHTML('beforeend', '<p style=\"color: red\">probe</p>');",
    )
    .await;
    let deadline = Instant::now() + browser::PATIENCE;
    loop {
        let errors = wide.console_errors().await;
        if errors.iter().any(|e| e.contains("Content Security Policy")) {
            break;
        }
        assert!(Instant::now() < deadline, "the probe's breach is not seen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
