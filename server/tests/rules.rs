//! Each game's rules for players, over real HTTP without a session: every game of the catalog has
//! its page rendered to HTML, with every variant's start left for the client to draw from the
//! engine's layout, in the asked language or else in English; an unknown game is a clear
//! `not_found`.

mod common;

use common::{Backend, fresh_database, http, start};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_has_its_rules_as_html() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    let games = common::get(addr, "/api/games").await;
    let games = games.as_array().unwrap();
    assert!(games.len() >= 6, "{games:?}");
    for g in games {
        let id = g["id"].as_str().unwrap();
        // No session: a visitor reads them.
        let rules = common::get(addr, &format!("/api/games/{id}/rules")).await;
        assert_eq!(rules["game"], id);
        assert_eq!(rules["name"], g["name"]);
        assert_eq!(rules["language"], "en");
        let html = rules["html"].as_str().unwrap();
        assert!(html.starts_with("<h1>"), "{id}: {}", &html[..80]);
        assert!(
            html.contains("<h2>Sources and choices</h2>"),
            "{id}: sources"
        );
        // (A diagram's row may begin with `#`, a special square.)
        assert!(
            !html.contains("<p>#") && !html.contains("\n## "),
            "{id}: rendered"
        );
        for variant in g["variants"].as_array().unwrap() {
            let start = format!(
                "<pre><code class=\"language-start\">{}\n</code></pre>",
                variant["name"].as_str().unwrap()
            );
            assert!(html.contains(&start), "{id}: {start}");
        }
    }
    // Tafl's page: its small positions as diagram blocks, its links to its sources.
    let tafl = common::get(addr, "/api/games/tafl/rules").await;
    let html = tafl["html"].as_str().unwrap();
    assert!(
        html.contains("<code class=\"language-diagram\">"),
        "diagrams"
    );
    assert!(html.contains("move a2-c2\n"), "a capture's move");
    assert!(
        html.contains("<a href=\"https://github.com/jslater89/OpenTafl\">OpenTafl</a>"),
        "a source by name and link"
    );
}

/// The page in the reader's language when it is written in it, else in English.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_come_in_the_asked_language() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    for (asked, language, sources) in [
        ("sv", "sv", "Källor och val"),
        ("de-AT", "de", "Quellen und Entscheidungen"),
        ("no", "nb", "Kilder og valg"),
        ("ru", "ru", "Источники и решения"),
        ("xx", "en", "Sources and choices"),
        ("", "en", "Sources and choices"),
    ] {
        let rules = common::get(addr, &format!("/api/games/tafl/rules?lang={asked}")).await;
        assert_eq!(rules["language"], language, "{asked}");
        assert!(
            rules["html"].as_str().unwrap().contains(sources),
            "{asked}: {sources}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_has_no_rules() {
    let addr = start(&fresh_database(Backend::Sqlite).await, &[]).await;
    for game in ["chess", "TAFL", "tafl.md", "..%2Ftafl"] {
        let response = http()
            .get(format!("http://{addr}/api/games/{game}/rules"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404, "{game}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{game}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("there is no game"),
            "{game}: {body}"
        );
    }
}
