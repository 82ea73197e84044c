//! Chat: every match has a players' channel and a spectators' channel, and there is one lobby
//! channel. Players and spectators do not read each other during the game; once it is over,
//! both channels are open to all. Visitors read, never write; guests write only to the players
//! of their own matches. Messages are stored with their match and read back over REST (history,
//! replays). A player mutes others for themselves (`accounts/mutes.rs`); anyone logged in reports a message, and
//! admins read the reports and ban through the moderation's ban.
//!
//! - [`rules`]: pure: what a message may say, who writes and reads which channel;
//! - [`store`]: messages and reports in the database;
//! - [`say`]: a socket's message, to a match's room (which delivers it to its readers) or to
//!   the lobby's followers;
//! - [`http`]: the REST routes: histories, reports, and the admins' list of reports.

pub mod http;
pub mod rules;
pub mod say;
pub mod store;
