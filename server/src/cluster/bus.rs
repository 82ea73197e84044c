//! Messages between nodes over PostgreSQL: NOTIFY on a channel per node (and one for every
//! node), each node LISTENing on its own and the common one. One connection sends everything
//! a node sends, in order, batched in one statement when several wait: PostgreSQL delivers a
//! session's notifications in the order they were sent, which keeps a match's events in order.
//!
//! A notification carries one message or several, a line each (JSON has no raw line breaks):
//! the messages of a batch for one channel travel together, up to NOTIFY's 8,000-byte limit, so
//! that a busy node sends few notifications. PostgreSQL wakes every node that listens in the
//! database for each statement that notifies, whatever its channel, and each reads every
//! notification: fewer, fuller notifications are what a busy cluster saves. Messages join a
//! notification only where that keeps the order each node hears them in: a message for one
//! node never overtakes one for every node, nor the reverse (`pack`). A busy sender waits
//! `GATHER` between statements, so that the messages of that time go in one.
//!
//! A message over the limit goes into `cluster_messages` and its line carries its id. A node
//! listens until it leaves the cluster, before its store closes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::{PgConnection, PgListener};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::store::NodeId;
use super::wire::Wire;
use crate::shutdown::{Entered, Tracker};
use crate::store::Store;

/// The channel every node listens to.
const ALL: &str = "tafl_all";

/// Payloads longer than this go through the table (NOTIFY's limit is 8,000 bytes).
const MOST_PAYLOAD: usize = 7_900;

/// Most messages sent in one statement.
const MOST_PER_BATCH: usize = 256;

/// How long a sender waits after a statement before the next: a node that sends again sooner
/// is busy, and the messages of that millisecond go together. An idle node sends at once.
const GATHER: Duration = Duration::from_millis(1);

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
    let mut last_sent: Option<Instant> = None;
    loop {
        if batch.is_empty() {
            if waiting.recv_many(&mut batch, MOST_PER_BATCH).await == 0 {
                return;
            }
            if let Some(next) = last_sent.map(|at| at + GATHER)
                && next > Instant::now()
            {
                tokio::time::sleep_until(next).await;
                while batch.len() < MOST_PER_BATCH
                    && let Ok(outgoing) = waiting.try_recv()
                {
                    batch.push(outgoing);
                }
            }
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
        let mut lines = Vec::with_capacity(batch.len());
        let mut flushes = Vec::new();
        for outgoing in &mut batch {
            let (channel, payload) = match outgoing {
                Outgoing::Notify(channel, payload) => (channel, payload),
                Outgoing::Flush(done) => {
                    flushes.push(std::mem::replace(done, tokio::sync::oneshot::channel().0));
                    continue;
                }
            };
            let line = match payload.len() > MOST_PAYLOAD {
                true => match store.keep_message(payload, crate::clock::now_ms()).await {
                    Ok(kept) => serde_json::to_string(&Kept { kept }).expect("serialises"),
                    Err(e) => {
                        tracing::warn!(error = %e, "cluster: could not keep a long message");
                        continue;
                    }
                },
                false => payload.clone(),
            };
            lines.push((channel.clone(), line));
        }
        let (channels, payloads): (Vec<String>, Vec<String>) = pack(lines).into_iter().unzip();
        let sent =
            sqlx::query("SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS t (c, p)")
                .bind(&channels)
                .bind(&payloads)
                .execute(&mut *c)
                .await;
        match sent {
            Ok(_) => {
                last_sent = Some(Instant::now());
                crate::metrics::cluster_notifications(payloads.len());
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

/// Puts a batch's lines (each a message for a channel, in the order sent) into notifications:
/// each line joins the last notification for its channel if it fits and if nothing another
/// node hears with it came after that notification (a line for every node closes the open
/// notifications for single nodes, and a line for one node closes the one for every node).
/// Every node hears its lines in the order they were sent.
fn pack(lines: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut notifications: Vec<(String, String)> = Vec::new();
    // The notification each channel's next line may join.
    let mut open: HashMap<String, usize> = HashMap::new();
    for (channel, line) in lines {
        match channel == ALL {
            true => open.retain(|open, _| open == ALL),
            false => {
                open.remove(ALL);
            }
        }
        if let Some(&at) = open.get(&channel) {
            let body = &mut notifications[at].1;
            if body.len() + 1 + line.len() <= MOST_PAYLOAD {
                body.push('\n');
                body.push_str(&line);
                continue;
            }
        }
        open.insert(channel.clone(), notifications.len());
        notifications.push((channel, line));
    }
    notifications
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
            for line in notification.payload().lines() {
                if let Some(wire) = read(&store, line).await {
                    crate::metrics::cluster_message("received");
                    handle(wire);
                }
            }
        }
    }
}

/// A message from its line: the message itself, or the id of the row that holds it.
async fn read(store: &Store, line: &str) -> Option<Wire> {
    let kept = match line.starts_with("{\"kept\":") {
        true => serde_json::from_str::<Kept>(line).ok(),
        false => None,
    };
    let body = match kept {
        Some(Kept { kept }) => match store.kept_message(kept).await {
            Ok(Some(body)) => Cow::Owned(body),
            Ok(None) | Err(_) => {
                tracing::warn!(kept, "cluster: a long message was not found");
                return None;
            }
        },
        None => Cow::Borrowed(line),
    };
    match serde_json::from_str::<Wire>(&body) {
        Ok(wire) => Some(wire),
        Err(e) => {
            tracing::warn!(error = %e, "cluster: a message could not be read");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(channel: &str, text: &str) -> (String, String) {
        (channel.to_string(), text.to_string())
    }

    #[test]
    fn a_channels_lines_travel_together_in_order() {
        let a = channel_of(NodeId(1));
        let b = channel_of(NodeId(2));
        let packed = pack(vec![
            line(&a, "1"),
            line(&b, "2"),
            line(&a, "3"),
            line(&b, "4"),
        ]);
        assert_eq!(packed, vec![line(&a, "1\n3"), line(&b, "2\n4")]);
    }

    #[test]
    fn no_line_overtakes_one_another_node_hears_with_it() {
        let a = channel_of(NodeId(1));
        let packed = pack(vec![
            line(&a, "1"),
            line(ALL, "2"),
            line(&a, "3"),
            line(ALL, "4"),
            line(ALL, "5"),
        ]);
        assert_eq!(
            packed,
            vec![
                line(&a, "1"),
                line(ALL, "2"),
                line(&a, "3"),
                line(ALL, "4\n5")
            ]
        );
    }

    #[test]
    fn a_full_notification_is_followed_by_another() {
        let a = channel_of(NodeId(1));
        let long = "x".repeat(MOST_PAYLOAD / 2);
        let packed = pack(vec![line(&a, &long), line(&a, &long), line(&a, "y")]);
        assert_eq!(packed.len(), 2);
        assert_eq!(packed[0].1.len(), MOST_PAYLOAD / 2);
        assert_eq!(packed[1].1, format!("{long}\ny"));
        assert!(packed.iter().all(|(_, body)| body.len() <= MOST_PAYLOAD));
    }
}
