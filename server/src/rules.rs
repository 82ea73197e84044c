//! The rules of each game, for people: its page in `docs/rules/` (`<game id>.md`), embedded at
//! compile time and rendered from Markdown to HTML, tables and code blocks (the board diagrams)
//! included, at `GET /api/games/{game}/rules`. Anyone may read them, without a session.

use axum::extract::Path;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, GameRules};
use pulldown_cmark::{Options, Parser};
use rust_embed::Embed;

use crate::error::{ApiError, ApiResult};
use crate::matches::hosted;
use crate::state::AppState;

#[derive(Embed)]
#[folder = "../docs/rules/"]
struct RulesPages;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{game}/rules", get(rules))
}

#[utoipa::path(
    get,
    path = "/api/games/{game}/rules",
    tag = "matches",
    summary = "A game's rules, for people",
    description = "The game's rules page (`docs/rules/`) rendered to an HTML fragment: the rules \
        as the engine plays them, every variant, board diagrams as preformatted text. No session \
        is needed.",
    params(("game" = String, Path, description = "A game, as `tafl` or `fox-geese`")),
    responses(
        (status = 200, description = "The rules", body = GameRules),
        (status = 404, description = "`not_found`: no such game", body = ErrorBody),
    ),
)]
async fn rules(Path(game): Path<String>) -> ApiResult<Json<GameRules>> {
    let info = hosted::catalog()
        .into_iter()
        .find(|g| g.id == game)
        .ok_or_else(|| {
            ApiError::new(ErrorReason::NotFound, format!("there is no game '{game}'"))
        })?;
    let page = RulesPages::get(&format!("{game}.md")).ok_or_else(|| {
        ApiError::new(
            ErrorReason::Internal,
            format!("the game '{game}' has no rules page"),
        )
    })?;
    let markdown = String::from_utf8_lossy(&page.data);
    Ok(Json(GameRules {
        game: info.id,
        name: info.name,
        html: to_html(&markdown),
    }))
}

/// Markdown as HTML, with GitHub's tables and strikethrough.
fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, options));
    html
}
