//! Bot clients for the match server, and the load generator built on them (`loadgen`).
//!
//! Every mode opens many WebSocket connections on loopback, drives them for a bounded time and
//! returns a [`Report`]: how many round trips were answered, how fast, and which errors came
//! back.
//!
//! - [`play`]: guest players paired into casual matches, playing random legal moves; measures
//!   the time from sending `act` to receiving its `ack` (a durable move).
//! - [`echo`]: a bare WebSocket echo server and its client, the ceiling for round trips on the
//!   same machine; and its relay, the ceiling for the socket traffic of a move (a frame back to
//!   its sender and on to the sender's partner).
//! - [`idle`]: authenticated sockets that say hello and stay idle, to measure the server's memory
//!   per socket.
//! - [`failover`]: a match played across two nodes of a cluster whose owner node is then killed;
//!   measures the time until the next move is acknowledged on a surviving node.
//!
//! Targets must be on this machine (127.0.0.0/8, `::1` or `localhost`): anything else is refused
//! by [`target`] before a single packet is sent.

pub mod echo;
pub mod failover;
pub mod game;
pub mod idle;
pub mod journal;
pub mod limits;
pub mod play;
pub mod report;
pub mod target;
pub mod wire;

pub use report::Report;

/// Any error a load run can end with, as a message for people.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Result<T, E = Error> = std::result::Result<T, E>;
