//! The rules of each game, for players: its page of `docs/rules-for-players/<language>/`
//! (`<game id>.md`), embedded at compile time and rendered from Markdown to HTML at
//! `GET /api/games/{game}/rules?lang=<language>`, in the asked language when there is a page in
//! it, else in English. Anyone may read them, without a session. (`docs/rules/` is the
//! engineering reference the pages are written from.)
//!
//! A page draws its boards through fenced blocks that the browser client turns into drawings:
//! a ```` ```start ```` block naming a variant, its start position as the engine lays it out (the
//! client asks `GET /api/games/{game}/preview`), ```` ```diagram ```` a small position written
//! in the page. So no starting board is typed by hand.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, GameRules};
use pulldown_cmark::{Options, Parser};
use rust_embed::Embed;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::matches::hosted;
use crate::state::AppState;

#[derive(Embed)]
#[folder = "../docs/rules-for-players/"]
struct PlayerPages;

/// The languages every game's page is written in, English (the fallback) first: the browser
/// client's interface languages.
pub const LANGUAGES: [&str; 8] = ["en", "sv", "de", "nb", "da", "is", "fr", "ru"];

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{game}/rules", get(rules))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RulesIn {
    /// The reader's language, as `sv` (a BCP 47 tag; only its language counts). English when
    /// absent or when the game has no page in it.
    lang: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/games/{game}/rules",
    tag = "matches",
    summary = "A game's rules, for players",
    description = "The game's rules for players, rendered to an HTML fragment, in the asked \
        language (`?lang=`) when written in it, else in English; `language` says which. Fenced \
        blocks `start` (naming a variant, whose start the client draws from the engine's \
        layout) and `diagram` (a small position) come as `<pre><code class=\"language-start\">` \
        and `language-diagram`, for the client to draw. No session is needed.",
    params(("game" = String, Path, description = "A game, as `tafl` or `fox-geese`"), RulesIn),
    responses(
        (status = 200, description = "The rules", body = GameRules),
        (status = 400, description = "`bad_request`: a query that cannot be read", body = ErrorBody),
        (status = 404, description = "`not_found`: no such game", body = ErrorBody),
    ),
)]
async fn rules(
    Path(game): Path<String>,
    query: Result<Query<RulesIn>, QueryRejection>,
) -> ApiResult<Json<GameRules>> {
    let Query(asked) = query.map_err(|e| ApiError::new(ErrorReason::BadRequest, e.body_text()))?;
    let info = hosted::catalog()
        .into_iter()
        .find(|g| g.id == game)
        .ok_or_else(|| {
            ApiError::new(ErrorReason::NotFound, format!("there is no game '{game}'"))
        })?;
    let language = language_of(asked.lang.as_deref());
    let (language, page) = [language, "en"]
        .into_iter()
        .find_map(|l| page(l, &game).map(|p| (l, p)))
        .ok_or_else(|| {
            ApiError::new(
                ErrorReason::Internal,
                format!("the game '{game}' has no rules page"),
            )
        })?;
    Ok(Json(GameRules {
        game: info.id,
        name: info.name,
        language: language.into(),
        html: to_html(&page),
    }))
}

/// The one of [`LANGUAGES`] a tag asks for (`nb-NO` is `nb`, `no` is Bokmål too), else English.
fn language_of(tag: Option<&str>) -> &'static str {
    let asked = tag
        .unwrap_or("en")
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let asked = if asked == "no" { "nb".into() } else { asked };
    LANGUAGES.into_iter().find(|l| *l == asked).unwrap_or("en")
}

/// A game's page in a language, as Markdown, if it is written.
fn page(language: &str, game: &str) -> Option<String> {
    PlayerPages::get(&format!("{language}/{game}.md"))
        .map(|p| String::from_utf8_lossy(&p.data).into_owned())
}

/// Markdown as HTML, with GitHub's tables and strikethrough.
fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, options));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game of the catalog has its page in every language, and each page draws the start
    /// of every variant of the game (a `start` block naming it), shows at least one small
    /// position (a `diagram` block) and has its sections.
    #[test]
    fn every_game_and_variant_has_a_page_in_every_language() {
        let mut missing = Vec::new();
        for game in hosted::catalog() {
            for language in LANGUAGES {
                let Some(page) = page(language, &game.id) else {
                    missing.push(format!("{language}/{}: no page", game.id));
                    continue;
                };
                for variant in &game.variants {
                    if !page.contains(&format!("```start\n{}\n```", variant.name)) {
                        missing.push(format!("{language}/{}: no {}", game.id, variant.name));
                    }
                }
                if !page.contains("```diagram\n") {
                    missing.push(format!("{language}/{}: no small diagram", game.id));
                }
                if page.matches("\n## ").count() < 3 {
                    missing.push(format!("{language}/{}: too few sections", game.id));
                }
            }
        }
        assert!(missing.is_empty(), "missing: {missing:#?}");
    }

    #[test]
    fn a_language_is_read_from_its_tag() {
        assert_eq!(language_of(Some("sv")), "sv");
        assert_eq!(language_of(Some("de-AT")), "de");
        assert_eq!(language_of(Some("NO")), "nb");
        assert_eq!(language_of(Some("nb_NO")), "nb");
        assert_eq!(language_of(Some("xx")), "en");
        assert_eq!(language_of(Some("")), "en");
        assert_eq!(language_of(None), "en");
    }
}
