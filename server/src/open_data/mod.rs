//! Open data (issue 31): every finished rated game, by the month it ended (UTC), as two files
//! anyone may download under the licence the operator chose (`--open-data-licence`, CC0 1.0 by
//! default): the games' records (tafl: OpenTafl records; other games: their actions, one a
//! line) and a CSV table of who played, in which pool, rated how, with what result and clock.
//!
//! - [`month`]: a month and its span of time (pure);
//! - [`files`]: a page of games written as the two files' bytes (pure);
//! - [`store`]: the months that have games, and a month's games a page at a time, in the order
//!   they ended, so that a file is written page by page and never held whole;
//! - [`http`]: `GET /api/open-data` and the files, streamed;
//! - `export`: `server open-data export`, the same files for an operator.

pub mod export;
pub mod files;
pub mod http;
pub mod month;
pub mod store;

/// Games read from the database at a time while a file is written.
pub const PAGE: i64 = 200;
