//! The REST API's OpenAPI description, made from the handlers' `#[utoipa::path]` attributes
//! and the protocol crate's schemas, served at `/api/openapi.json`; and Swagger UI to read and
//! try it at `/api/docs`, its files vendored into the binary at build time (no CDN).

use axum::routing::get;
use axum::{Json, Router};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tafl match server",
        description = "The REST API of the match server: accounts, leaderboards, players, \
            matches, tournaments, analysis, chat. Matches are played over the WebSocket at `/ws` (see \
            `docs/protocol.md`). Every error is an `ErrorBody` with a stable `code`, and a finer \
            `reason` with its `params` (\"Error reasons\" in `docs/protocol.md`)."
    ),
    paths(
        crate::accounts::sessions::register,
        crate::accounts::sessions::login,
        crate::accounts::sessions::guest,
        crate::accounts::sessions::logout,
        crate::http::leaderboard,
        crate::accounts::profile::profile,
        crate::accounts::vacation_switch::vacation,
        crate::accounts::vacation_switch::set_vacation,
        crate::matches::http::my_games,
        crate::matches::http::my_turns,
        crate::accounts::follows::follows,
        crate::accounts::follows::follow,
        crate::accounts::follows::unfollow,
        crate::accounts::settings::settings,
        crate::matches::http::player_matches,
        crate::matches::http::live_matches,
        crate::matches::http::open_matches,
        crate::matches::http::match_record,
        crate::matches::http::replay,
        crate::matches::http::record_file,
        crate::series::http::show,
        crate::http::queue,
        crate::http::games,
        crate::http::preview,
        crate::rules::rules,
        crate::http::health,
        crate::tournament::http::list,
        crate::tournament::http::create,
        crate::tournament::http::show,
        crate::tournament::http::register,
        crate::tournament::http::add_entrant,
        crate::tournament::http::start,
        crate::analysis::http::analyse,
        crate::analysis::http::position_only,
        crate::explorer::http::explore,
        crate::open_data::http::months,
        crate::open_data::http::download,
        crate::accounts::moderation::ban,
        crate::accounts::moderation::unban,
        crate::accounts::moderation::security_events,
        crate::chat::http::match_chat,
        crate::chat::http::lobby_chat,
        crate::chat::http::report,
        crate::accounts::mutes::mutes,
        crate::accounts::mutes::mute,
        crate::accounts::mutes::unmute,
        crate::chat::http::reports,
        crate::chat::http::close_report,
        document,
    ),
    modifiers(&SessionAuth),
    tags(
        (name = "accounts", description = "Registering, logging in, guests, sessions"),
        (name = "players", description = "Leaderboards, player profiles, follows and settings"),
        (name = "matches", description = "Match records, live matches, the matchmaking queue"),
        (name = "tournaments", description = "Creating, entering, starting and following tournaments"),
        (name = "analysis", description = "The AI's analysis of a position, for an analysis board, and the opening explorer"),
        (name = "chat", description = "Chat histories, mutes and reports (messages are written over the WebSocket)"),
        (name = "server", description = "The server itself"),
        (name = "admin", description = "Moderation, for accounts an operator made admins with `server admin grant NAME`"),
    )
)]
pub struct ApiDoc;

/// The session token, as the server takes it: a bearer token or the `session` cookie set at
/// login.
struct SessionAuth;

impl Modify for SessionAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let bearer = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "The session token of `/api/register`, `/api/login` or `/api/guest`",
            ))
            .build();
        components.add_security_scheme("bearer", SecurityScheme::Http(bearer));
        components.add_security_scheme(
            "cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "session",
                "The session cookie set with the token",
            ))),
        );
    }
}

pub fn routes() -> Router<AppState> {
    let ui = SwaggerUi::new("/api/docs").config(
        Config::new(["/api/openapi.json"])
            // Swagger UI would otherwise send the document to an online validator.
            .validator_url("none")
            .persist_authorization(true),
    );
    Router::new()
        .route("/api/openapi.json", get(document))
        .merge(Router::from(ui).layer(crate::headers::docs_policy()))
}

/// The document itself.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "server",
    summary = "This OpenAPI description",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json")),
)]
async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
