//! Messages between nodes over PostgreSQL: NOTIFY on a channel per node (and one for every
//! node), each node LISTENing on its own and the common one. One connection sends everything
//! a node sends, in order, batched in one statement when several wait: PostgreSQL delivers a
//! session's notifications in the order they were sent, which keeps a match's events in order.
//! A message over NOTIFY's 8,000-byte limit goes into `cluster_messages` and the notification
//! carries its id. A node listens until it leaves the cluster, before its store closes.

use std::sync::Arc;
use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::{PgConnection, PgListener};
use tokio::sync::{mpsc, watch};

use super::store::NodeId;
use super::wire::Wire;
use crate::shutdown::{Entered, Tracker};
use crate::store::Store;

/// The channel every node listens to.
const ALL: &str = "tafl_all";

/// Payloads longer than this go through the table (NOTIFY's limit is 8,000 bytes).
const MOST_PAYLOAD: usize = 7_900;

/// Most notifications sent in one statement.
const MOST_PER_BATCH: usize = 256;

/// How long a node waits before connecting again after losing its connection.
const RECONNECT: Duration = Duration::from_millis(250);

/// A node's channel.
fn channel_of(node: NodeId) -> String {
    format!("tafl_node_{}", node.0)
}

/// The sending half (cheap to clone, never waits), and the end of the receiving half.
#[derive(Clone)]
pub struct Bus {
    out: mpsc::UnboundedSender<Outgoing>,
    /// Set once this node has left: it hears nothing more.
    left: Arc<watch::Sender<bool>>,
    /// The listener, and the messages from it still being handled.
    listening: Tracker,
}

enum Outgoing {
    /// A payload for a channel.
    Notify(String, String),
    /// Answered once everything sent before is sent.
    Flush(tokio::sync::oneshot::Sender<()>),
}

impl Bus {
    /// Starts the sender and the listener, each on a connection of its own; the listener hands
    /// every message for this node to `handle`.
    pub fn start(
        url: &str,
        node: NodeId,
        store: Store,
        handle: impl Fn(Wire) + Send + 'static,
    ) -> Bus {
        let (out, waiting) = mpsc::unbounded_channel();
        tokio::spawn(publish(url.to_string(), store.clone(), waiting));
        let bus = Bus {
            out,
            left: Arc::new(watch::Sender::new(false)),
            listening: Tracker::default(),
        };
        let entered = bus.listening.enter();
        let mut left = bus.left.subscribe();
        let url = url.to_string();
        tokio::spawn(async move {
            tokio::select! {
                _ = left.wait_for(|left| *left) => {}
                () = listen(url, node, store, handle) => {}
            }
            drop(entered);
        });
        bus
    }

    /// Counts a message's handling in, so that [`Bus::stop_listening`] waits for it.
    pub fn handling(&self) -> Entered {
        self.listening.enter()
    }

    /// Stops listening (this node has left), and waits until the messages heard are handled.
    pub async fn stop_listening(&self) {
        self.left.send_replace(true);
        self.listening.ended().await;
    }

    /// Sends a message to one node, or to every node (`None`).
    pub fn send(&self, to: Option<NodeId>, wire: &Wire) {
        let channel = to.map_or_else(|| ALL.to_string(), channel_of);
        let payload = serde_json::to_string(wire).expect("cluster messages serialise");
        crate::metrics::cluster_message("sent");
        let _ = self.out.send(Outgoing::Notify(channel, payload));
    }

    /// Waits until everything sent so far is sent (a node about to stop).
    pub async fn flush(&self) {
        let (done, flushed) = tokio::sync::oneshot::channel();
        if self.out.send(Outgoing::Flush(done)).is_ok() {
            let _ = flushed.await;
        }
    }
}

/// A message as the notification carries it: the message itself, or the id of the row that
/// holds it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    kept: i64,
}

async fn publish(url: String, store: Store, mut waiting: mpsc::UnboundedReceiver<Outgoing>) {
    let mut conn: Option<PgConnection> = None;
    let mut batch = Vec::with_capacity(MOST_PER_BATCH);
    loop {
        if batch.is_empty() && waiting.recv_many(&mut batch, MOST_PER_BATCH).await == 0 {
            return;
        }
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match PgConnection::connect(&url).await {
                Ok(c) => conn.insert(c),
                Err(e) => {
                    tracing::warn!(error = %e, "cluster: could not connect to send messages");
                    tokio::time::sleep(RECONNECT).await;
                    continue;
                }
            },
        };
        let mut channels = Vec::with_capacity(batch.len());
        let mut payloads = Vec::with_capacity(batch.len());
        let mut flushes = Vec::new();
        for outgoing in &mut batch {
            let (channel, payload) = match outgoing {
                Outgoing::Notify(channel, payload) => (channel, payload),
                Outgoing::Flush(done) => {
                    flushes.push(std::mem::replace(done, tokio::sync::oneshot::channel().0));
                    continue;
                }
            };
            let payload = match payload.len() > MOST_PAYLOAD {
                true => match store.keep_message(payload, crate::clock::now_ms()).await {
                    Ok(kept) => serde_json::to_string(&Kept { kept }).expect("serialises"),
                    Err(e) => {
                        tracing::warn!(error = %e, "cluster: could not keep a long message");
                        continue;
                    }
                },
                false => payload.clone(),
            };
            channels.push(channel.clone());
            payloads.push(payload);
        }
        let sent =
            sqlx::query("SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS t (c, p)")
                .bind(&channels)
                .bind(&payloads)
                .execute(&mut *c)
                .await;
        match sent {
            Ok(_) => {
                batch.clear();
                for done in flushes {
                    let _ = done.send(());
                }
            }
            Err(e) => {
                // Sent again on a new connection: a batch is one statement, all or nothing.
                tracing::warn!(error = %e, "cluster: could not send messages; reconnecting");
                conn = None;
                tokio::time::sleep(RECONNECT).await;
            }
        }
    }
}

/// Receives this node's messages, in order, and hands each to `handle`. Runs until the node
/// leaves; a lost connection is opened again (messages sent meanwhile are lost: calls time
/// out, and followers resume by sequence number).
async fn listen(url: String, node: NodeId, store: Store, handle: impl Fn(Wire)) {
    let mine = channel_of(node);
    loop {
        let mut listener = match PgListener::connect(&url).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cluster: could not connect to receive messages");
                tokio::time::sleep(RECONNECT).await;
                continue;
            }
        };
        if let Err(e) = listener.listen_all([mine.as_str(), ALL]).await {
            tracing::warn!(error = %e, "cluster: could not listen");
            tokio::time::sleep(RECONNECT).await;
            continue;
        }
        loop {
            let notification = match listener.try_recv().await {
                Ok(Some(n)) => n,
                Ok(None) => {
                    tracing::warn!("cluster: the connection receiving messages was lost");
                    break;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cluster: could not receive messages");
                    break;
                }
            };
            let payload = notification.payload();
            let kept = match payload.starts_with("{\"kept\":") {
                true => serde_json::from_str::<Kept>(payload).ok(),
                false => None,
            };
            let body = match kept {
                Some(Kept { kept }) => match store.kept_message(kept).await {
                    Ok(Some(body)) => body,
                    Ok(None) | Err(_) => {
                        tracing::warn!(kept, "cluster: a long message was not found");
                        continue;
                    }
                },
                None => payload.to_string(),
            };
            match serde_json::from_str::<Wire>(&body) {
                Ok(wire) => {
                    crate::metrics::cluster_message("received");
                    handle(wire)
                }
                Err(e) => tracing::warn!(error = %e, "cluster: a message could not be read"),
            }
        }
    }
}
