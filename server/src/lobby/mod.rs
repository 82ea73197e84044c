//! The lobby's life, as every socket following it sees it (`watch_lobby`), visitors' too, on
//! every node: the seeks, public matches waiting for players, listed again whenever one is
//! posted, taken or withdrawn ([`seeks`]), and withdrawn when their poster leaves the server
//! ([`departures`]); and the queue's waiting counts, which the queue sends itself as they change
//! (`crate::queue`). A seek is nothing but a public match waiting for players: posted with
//! `create_match`, taken with `join_match`, withdrawn with `abort`.

pub mod departures;
pub mod seeks;
