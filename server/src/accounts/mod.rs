//! The accounts wing: who a player is and what belongs to their account.
//!
//! - [`player`]: an account as the rest of the server sees it, and which accounts are the AI's;
//! - [`credentials`]: the usernames and passwords accepted, and password hashes;
//! - [`token`]: session tokens and the hash of them that is stored;
//! - [`auth`]: the token a request carries, and the extractor that makes it a player;
//! - [`sessions`]: registering, logging in, guests and logging out, and the sessions' storage;
//! - [`profile`]: a player's public profile;
//! - [`follows`]: whom a player follows;
//! - [`settings`]: whom a player takes challenges from;
//! - [`mutes`]: whom a player muted in the chat;
//! - [`moderation`]: admins, bans and the security events they read;
//! - [`vacation`]: vacations, which stop a player's correspondence clocks (the rule and its
//!   storage, which the match rooms read), and [`vacation_switch`], its REST routes.
//!
//! Each concept with a REST resource has its routes in its own file, merged by [`routes`].

pub mod auth;
pub mod credentials;
pub mod follows;
pub mod moderation;
pub mod mutes;
pub mod player;
pub mod profile;
pub mod sessions;
pub mod settings;
pub mod token;
pub mod vacation;
pub mod vacation_switch;

use axum::Router;

use crate::state::AppState;

/// The REST routes of every account resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(sessions::routes())
        .merge(profile::routes())
        .merge(follows::routes())
        .merge(settings::routes())
        .merge(mutes::routes())
        .merge(vacation_switch::routes())
        .merge(moderation::routes())
}
