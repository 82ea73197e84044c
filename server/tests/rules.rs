//! Each game's rules for people, over real HTTP without a session: every game of the catalog has
//! its page of `docs/rules/` rendered to HTML, tables and board diagrams included; an unknown game
//! is a clear `not_found`.

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
        let html = rules["html"].as_str().unwrap();
        assert!(html.starts_with("<h1>"), "{id}: {}", &html[..80]);
        assert!(html.contains("<h2>"), "{id}: sections");
        assert!(
            !html.contains("\n# ") && !html.contains("\n## "),
            "{id}: rendered"
        );
    }
    // Tafl's page: its tables as tables, its board diagrams as preformatted text, kept as drawn.
    let tafl = common::get(addr, "/api/games/tafl/rules").await;
    let html = tafl["html"].as_str().unwrap();
    assert!(
        html.contains("<table>") && html.contains("<th>key</th>"),
        "a table"
    );
    assert!(html.contains("<pre><code>"), "diagrams");
    assert!(
        html.contains(" 6 A A . D D K D D . A A\n"),
        "a diagram line, spacing kept"
    );
    assert!(
        html.contains("   a b c d e f g h i j k\n"),
        "the files under a diagram"
    );
    assert!(
        html.contains("<code>copenhagen</code>"),
        "variants are covered"
    );
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
