//! The analysis service: the AI's evaluation and best line for any position, from a finished
//! match, a position in the game's notation or a variant's start, with actions played from
//! there; for tafl also the king's escape routes and the pieces under threat. Its route
//! (`http.rs`), the pure check of a request (`request.rs`), and the runner that keeps analyses
//! to their bound and their share of the AI's threads (`runner.rs`).

pub mod http;
mod request;
pub mod runner;
