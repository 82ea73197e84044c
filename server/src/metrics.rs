//! Prometheus metrics, served at `GET /metrics` in the text exposition format. Every metric the
//! server keeps is named here, with the helper that moves it:
//!
//! | metric | kind | what |
//! | --- | --- | --- |
//! | `tafl_open_sockets` | gauge | WebSocket sessions open |
//! | `tafl_live_matches{game}` | gauge | matches being played (all seats taken, no result) whose room is awake |
//! | `tafl_match_rooms` | gauge | match rooms in memory: live, waiting for players, or over and still watched; not those asleep (nobody following, no clock running) |
//! | `tafl_actions_total` | counter | actions accepted and stored; actions/s is its `rate()` |
//! | `tafl_ack_seconds` | histogram | from an `act` frame's arrival to its ack's send |
//! | `tafl_queue_waiting{game,variant,seats,time_control,rated}` | gauge | players in each matchmaking pool |
//! | `tafl_ai_move_seconds` | histogram | one AI search, as run |
//! | `tafl_db_seconds{op}` | histogram | database writes: `append_action` (until durable, group commit included), `finish_match` |
//! | `tafl_errors_total{code,via}` | counter | errors sent, by protocol code, on a `socket` or over `http` |
//! | `tafl_node{id,name}` | gauge | 1, labelled with this node's id and name |
//! | `tafl_cluster_nodes` | gauge | live nodes in the cluster, this one included |
//! | `tafl_owned_matches` | gauge | matches this node owns (whose rooms run here) |
//! | `tafl_cluster_messages_total{direction}` | counter | messages `sent` to and `received` from other nodes |
//! | `tafl_cluster_notifications_total` | counter | notifications sent to other nodes (each carries one message or several) |
//!
//! The metrics are one set per process (tests that start several servers in one process see
//! their sums); a cluster's are scraped from each node.

use std::collections::BTreeMap;
use std::sync::LazyLock;
use std::time::Duration;

use axum::http::header;
use axum::response::IntoResponse;
use prometheus::{
    Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use protocol::ErrorCode;
use serde::Serialize;

/// Upper bounds, in seconds, of the latency buckets: from a loopback round trip to a stall.
const LATENCY_BUCKETS: [f64; 14] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// Upper bounds, in seconds, of the AI's search-time buckets (a search stops at its budget).
const AI_BUCKETS: [f64; 12] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

struct Metrics {
    registry: Registry,
    open_sockets: IntGauge,
    live_matches: IntGaugeVec,
    match_rooms: IntGauge,
    actions: IntCounter,
    ack_seconds: Histogram,
    queue_waiting: IntGaugeVec,
    ai_move_seconds: Histogram,
    db_seconds: HistogramVec,
    errors: IntCounterVec,
    node: IntGaugeVec,
    cluster_nodes: IntGauge,
    owned_matches: IntGauge,
    cluster_messages: IntCounterVec,
    cluster_notifications: IntCounter,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// Registers a metric; the names are fixed and distinct, so this cannot fail.
fn registered<M: prometheus::core::Collector + Clone + 'static>(registry: &Registry, m: M) -> M {
    registry
        .register(Box::new(m.clone()))
        .expect("metric names are distinct");
    m
}

impl Metrics {
    fn new() -> Metrics {
        let registry = Registry::new();
        let latency = |name: &str, help: &str| {
            HistogramOpts::new(name, help).buckets(LATENCY_BUCKETS.to_vec())
        };
        let expect = "metric definitions are valid";
        Metrics {
            open_sockets: registered(
                &registry,
                IntGauge::new("tafl_open_sockets", "WebSocket sessions open").expect(expect),
            ),
            live_matches: registered(
                &registry,
                IntGaugeVec::new(
                    Opts::new("tafl_live_matches", "Matches being played, by game"),
                    &["game"],
                )
                .expect(expect),
            ),
            match_rooms: registered(
                &registry,
                IntGauge::new("tafl_match_rooms", "Match rooms held in memory").expect(expect),
            ),
            actions: registered(
                &registry,
                IntCounter::new("tafl_actions_total", "Actions accepted and stored").expect(expect),
            ),
            ack_seconds: registered(
                &registry,
                Histogram::with_opts(latency(
                    "tafl_ack_seconds",
                    "Time from receiving an act frame to sending its ack",
                ))
                .expect(expect),
            ),
            queue_waiting: registered(
                &registry,
                IntGaugeVec::new(
                    Opts::new(
                        "tafl_queue_waiting",
                        "Players waiting in each matchmaking pool",
                    ),
                    &["game", "variant", "seats", "time_control", "rated"],
                )
                .expect(expect),
            ),
            ai_move_seconds: registered(
                &registry,
                Histogram::with_opts(
                    HistogramOpts::new("tafl_ai_move_seconds", "Time the AI searched for a move")
                        .buckets(AI_BUCKETS.to_vec()),
                )
                .expect(expect),
            ),
            db_seconds: registered(
                &registry,
                HistogramVec::new(
                    latency("tafl_db_seconds", "Database write latency, by operation"),
                    &["op"],
                )
                .expect(expect),
            ),
            errors: registered(
                &registry,
                IntCounterVec::new(
                    Opts::new("tafl_errors_total", "Errors sent, by code and transport"),
                    &["code", "via"],
                )
                .expect(expect),
            ),
            node: registered(
                &registry,
                IntGaugeVec::new(
                    Opts::new("tafl_node", "This node's id and name"),
                    &["id", "name"],
                )
                .expect(expect),
            ),
            cluster_nodes: registered(
                &registry,
                IntGauge::new("tafl_cluster_nodes", "Live nodes in the cluster").expect(expect),
            ),
            owned_matches: registered(
                &registry,
                IntGauge::new("tafl_owned_matches", "Matches this node owns").expect(expect),
            ),
            cluster_messages: registered(
                &registry,
                IntCounterVec::new(
                    Opts::new("tafl_cluster_messages_total", "Messages between nodes"),
                    &["direction"],
                )
                .expect(expect),
            ),
            cluster_notifications: registered(
                &registry,
                IntCounter::new(
                    "tafl_cluster_notifications_total",
                    "Notifications sent to other nodes",
                )
                .expect(expect),
            ),
            registry,
        }
    }
}

/// What the last heartbeat found: this node, the live nodes, the matches owned here.
pub fn cluster(node_id: i64, name: &str, live_nodes: usize, owned: usize) {
    METRICS
        .node
        .with_label_values(&[node_id.to_string().as_str(), name])
        .set(1);
    METRICS.cluster_nodes.set(live_nodes as i64);
    METRICS.owned_matches.set(owned as i64);
}

/// Notifications sent to other nodes, in one statement.
pub fn cluster_notifications(count: usize) {
    METRICS.cluster_notifications.inc_by(count as u64);
}

/// A message sent to or received from another node.
pub fn cluster_message(direction: &str) {
    METRICS
        .cluster_messages
        .with_label_values(&[direction])
        .inc();
}

/// `GET /metrics`: every metric, in the Prometheus text format.
pub async fn serve() -> impl IntoResponse {
    let text = TextEncoder::new()
        .encode_to_string(&METRICS.registry.gather())
        .unwrap_or_else(|e| format!("# could not encode the metrics: {e}\n"));
    ([(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)], text)
}

/// A value's name on the wire (`not_your_turn`, `blitz`), as a label.
pub fn wire_name(value: impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        other => format!("{other:?}"),
    }
}

/// Held by an open WebSocket session.
pub struct OpenSocket(());

impl OpenSocket {
    pub fn opened() -> OpenSocket {
        METRICS.open_sockets.inc();
        OpenSocket(())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        METRICS.open_sockets.dec();
    }
}

/// Held by a room while its match is being played; dropped when it ends or the room stops.
pub struct LiveMatch {
    game: String,
}

impl LiveMatch {
    pub fn new(game: &str) -> LiveMatch {
        METRICS.live_matches.with_label_values(&[game]).inc();
        LiveMatch {
            game: game.to_string(),
        }
    }
}

impl Drop for LiveMatch {
    fn drop(&mut self) {
        METRICS.live_matches.with_label_values(&[&self.game]).dec();
    }
}

/// Rooms added to (positive) or taken from (negative) a registry.
pub fn match_rooms(change: i64) {
    METRICS.match_rooms.add(change);
}

pub fn action_accepted() {
    METRICS.actions.inc();
}

pub fn ack_sent(since_received: Duration) {
    METRICS.ack_seconds.observe(since_received.as_secs_f64());
}

pub fn ai_searched(took: Duration) {
    METRICS.ai_move_seconds.observe(took.as_secs_f64());
}

/// Times a database operation.
pub async fn db<T>(op: &str, operation: impl Future<Output = T>) -> T {
    let started = std::time::Instant::now();
    let out = operation.await;
    db_took(op, started.elapsed());
    out
}

/// Records how long a database operation took, timed by its caller.
pub fn db_took(op: &str, took: Duration) {
    METRICS
        .db_seconds
        .with_label_values(&[op])
        .observe(took.as_secs_f64());
}

/// Where an error went.
#[derive(Copy, Clone)]
pub enum Via {
    Socket,
    Http,
}

pub fn error_sent(code: ErrorCode, via: Via) {
    let via = match via {
        Via::Socket => "socket",
        Via::Http => "http",
    };
    METRICS
        .errors
        .with_label_values(&[&wire_name(code), via])
        .inc();
}

/// The queue's pool sizes, kept by the queue actor. It moves the gauges by what changed since
/// its last report, so that a pool that empties shows 0 rather than vanishing, and so that
/// several servers in one process (tests) add up rather than overwrite each other.
#[derive(Default)]
pub struct QueueSizes {
    reported: BTreeMap<[String; 5], i64>,
}

impl QueueSizes {
    /// Reports every pool's size, by its labels (game, variant, seats, time control, rated);
    /// pools not listed have no one waiting. A pool of two-game matches shares its labels with
    /// the pool of single games, so the two are counted together.
    pub fn report(&mut self, pools: impl IntoIterator<Item = ([String; 5], usize)>) {
        let mut now = BTreeMap::new();
        for (labels, waiting) in pools {
            *now.entry(labels).or_insert(0) += waiting as i64;
        }
        for (labels, before) in &self.reported {
            if !now.contains_key(labels) {
                METRICS.queue_waiting.with_label_values(labels).sub(*before);
            }
        }
        for (labels, waiting) in &now {
            let before = self.reported.get(labels).copied().unwrap_or(0);
            METRICS
                .queue_waiting
                .with_label_values(labels)
                .add(waiting - before);
        }
        self.reported = now;
    }
}
