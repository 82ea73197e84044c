//! Several server nodes on one PostgreSQL. Each live match has one owner node at a time, whose
//! room is the match's only actor; any node serves any socket, and a command for a match owned
//! elsewhere travels to its owner, its events back, over PostgreSQL's LISTEN/NOTIFY (`bus.rs`,
//! the calls in `remote.rs`). Each node says it is alive once a second (`heartbeat.rs`); a node
//! silent for [`LEASE`] is dead, and the others take its matches and its single jobs.
//!
//! Ownership is a row per match (`match_owners`: node and fencing epoch) and a heartbeat row
//! per node, rather than an advisory lock: a lock dies with its connection, not with a paused
//! process, and cannot be checked inside the statement that writes. A takeover raises the
//! epoch, and every write of a match runs in a transaction that first checks (and on
//! PostgreSQL locks) the owner's row at the room's epoch (`store::fence`), so a node that lost
//! a match, paused or not, cannot write it again, and the new owner reads every write the old
//! one made. The design, its measured limits and the path past them: `docs/architecture.md`.
//!
//! SQLite is one node by design (the server locks the file); the same rows are kept there, and
//! every other node counts as dead.

pub mod bus;
pub mod heartbeat;
pub mod process;
pub mod remote;
pub mod store;
pub mod wire;

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use protocol::{MatchId, NodeHealth};
use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use tokio::sync::{broadcast, oneshot};
use tokio::time::Instant;

use crate::error::ApiResult;
use crate::sockets::Revocation;
use crate::sockets::{ConnId, Outbox};
use crate::store::{Store, StoreResult};
use bus::Bus;
use store::NodeRow;
pub use store::{Epoch, FIRST_EPOCH, NodeId};
use wire::{Call, Wire, unreachable_node};

/// How often a node says it is alive, looks at its peers and takes what dead ones left.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// A node not heard of for this long is dead: its matches and jobs go to others. Three
/// heartbeats, so that one slow write does not cost a node its matches.
pub const LEASE: Duration = Duration::from_secs(3);

/// A node not heard of for this long is forgotten (its row deleted by the housekeeping) once
/// nothing refers to it: long past any lease, and a day of history for whoever looks.
pub const FORGOTTEN_AFTER: Duration = Duration::from_secs(24 * 3600);

/// How often a node looks whether a peer's process died (its heartbeat connection closed,
/// which PostgreSQL sees the moment the process is gone): then it beats at once rather than at
/// the next heartbeat, and a killed node's matches move within a fraction of a second. One
/// read of PostgreSQL's list of connections, no table; a paused node keeps its connection and
/// is left to its lease.
pub const LOOK: Duration = Duration::from_millis(100);

/// Heartbeats after this say a node is live.
pub fn alive_since() -> i64 {
    crate::clock::now_ms() - LEASE.as_millis() as i64
}

/// How long a node waits for another's answer to a call before giving up on it.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection id's low bits count the node's sockets; the high ones are the node's id, so
/// that ids are unique across the cluster and name the node a socket is on.
const CONN_BITS: u32 = 40;

/// The jobs exactly one node of the cluster runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Singleton {
    /// The matchmaking queue: one pool for every node's players.
    Queue,
    /// The tournament director.
    Director,
    /// The periodic jobs: idle guests and matches, expired challenges, old cluster messages.
    Housekeeping,
}

impl Singleton {
    pub const ALL: [Singleton; 3] = [
        Singleton::Queue,
        Singleton::Director,
        Singleton::Housekeeping,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Singleton::Queue => "queue",
            Singleton::Director => "director",
            Singleton::Housekeeping => "housekeeping",
        }
    }
}

/// Where a match's room runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// On this node, which owns the match at this epoch.
    Here(Epoch),
    /// On another live node.
    There(NodeId),
}

#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

/// A call to another node waiting for its answer: the node, and where the answer goes.
type Waiting = (NodeId, oneshot::Sender<ApiResult<serde_json::Value>>);

struct Inner {
    node: NodeId,
    name: String,
    started_ms: i64,
    store: Store,
    /// SQLite: this node is the only one.
    solo: bool,
    view: RwLock<View>,
    /// The connection the heartbeat goes through (PostgreSQL), named for this node: while it
    /// is open, the other nodes know this process is alive.
    beat: tokio::sync::Mutex<Option<PgConnection>>,
    /// Where the cluster's PostgreSQL is.
    url: String,
    bus: OnceLock<Bus>,
    /// Calls this node made to others, waiting for their answers.
    calls: Mutex<HashMap<u64, Waiting>>,
    next_call: AtomicU64,
    /// The owners of matches whose rooms run elsewhere, as last found.
    owners: Mutex<HashMap<MatchId, NodeId>>,
    /// This node's sockets that follow a match owned elsewhere, by owner: if the owner dies,
    /// they are told to reconnect and resume.
    follows: Mutex<HashMap<(ConnId, MatchId), NodeId>>,
    /// The outboxes of this node's sockets that another node sends frames to (a remote match
    /// they follow, the queue).
    relays: Mutex<HashMap<ConnId, Outbox>>,
    /// Sessions and accounts just revoked, and sockets to send elsewhere, so that this node's
    /// sockets close at once.
    revocations: broadcast::Sender<Revocation>,
    /// Told when a peer said it stops: the heartbeat beats at once, to take what it held.
    peer_left: tokio::sync::Notify,
}

/// What the last heartbeat found.
#[derive(Default)]
struct View {
    live: Vec<NodeRow>,
    holders: HashMap<Singleton, (NodeId, Epoch)>,
    /// When this node's heartbeat was last stored: it holds its jobs only while that is recent.
    confirmed: Option<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Cluster {
    /// Registers this process as a new node of the cluster on the database at `url`. `solo`:
    /// the database serves one node (SQLite).
    pub async fn join(store: &Store, url: &str, name: &str, solo: bool) -> StoreResult<Cluster> {
        let now = crate::clock::now_ms();
        let process = process::Process::current();
        let node = store.add_node(name, &process, now).await?;
        // An earlier run of this node is gone (this one replaces it): what it held is taken now,
        // not a lease later, so its players resume once.
        let predecessors = store.retire_predecessors(name, node, &process, now).await?;
        if !predecessors.is_empty() {
            tracing::info!(
                ?predecessors,
                "cluster: this node succeeds an earlier run of itself, gone"
            );
        }
        // Its named connection is open before any node may look for it.
        let beat = match solo {
            true => None,
            false => Some(beat_connection(url, node).await?),
        };
        let me = NodeRow {
            id: node,
            name: name.to_string(),
            started_ms: now,
        };
        // Its peers from the start, before the first heartbeat.
        let live = match solo {
            true => vec![me],
            false => store.live_nodes(alive_since()).await?,
        };
        Ok(Cluster {
            inner: Arc::new(Inner {
                node,
                name: name.to_string(),
                started_ms: now,
                store: store.clone(),
                solo,
                view: RwLock::new(View {
                    live,
                    holders: HashMap::new(),
                    confirmed: Some(Instant::now()),
                }),
                beat: tokio::sync::Mutex::new(beat),
                url: url.to_string(),
                bus: OnceLock::new(),
                calls: Mutex::new(HashMap::new()),
                next_call: AtomicU64::new(1),
                owners: Mutex::new(HashMap::new()),
                follows: Mutex::new(HashMap::new()),
                relays: Mutex::new(HashMap::new()),
                revocations: broadcast::channel(64).0,
                peer_left: tokio::sync::Notify::new(),
            }),
        })
    }

    pub fn node(&self) -> NodeId {
        self.inner.node
    }

    pub fn name(&self) -> &str {
        &self.inner.name
    }

    pub fn solo(&self) -> bool {
        self.inner.solo
    }

    /// The first connection id of this node's sockets.
    pub fn first_conn(&self) -> ConnId {
        (self.inner.node.0 as u64) << CONN_BITS
    }

    /// The node a socket is on.
    pub fn node_of(conn: ConnId) -> NodeId {
        NodeId((conn >> CONN_BITS) as i64)
    }

    fn view(&self) -> std::sync::RwLockReadGuard<'_, View> {
        self.inner
            .view
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The live nodes, this one included, oldest first.
    pub fn live_nodes(&self) -> Vec<NodeHealth> {
        self.view().live.iter().map(NodeRow::health).collect()
    }

    /// This node.
    pub fn me(&self) -> NodeHealth {
        NodeHealth {
            id: self.inner.node.0,
            name: self.inner.name.clone(),
            started_ms: self.inner.started_ms,
        }
    }

    pub fn is_live(&self, node: NodeId) -> bool {
        node == self.inner.node
            || (!self.inner.solo && self.view().live.iter().any(|n| n.id == node))
    }

    /// Whether this node runs a single job now: it holds it, and its own heartbeat is recent
    /// (a node that was paused for longer than a lease gives its jobs up until it looks again).
    pub fn leads(&self, job: Singleton) -> bool {
        if self.inner.solo {
            return true;
        }
        let view = self.view();
        let fresh = view.confirmed.is_some_and(|at| at.elapsed() < LEASE);
        fresh
            && view
                .holders
                .get(&job)
                .is_some_and(|(n, _)| *n == self.inner.node)
    }

    /// The node that runs a single job, if any does.
    pub fn holder(&self, job: Singleton) -> Option<NodeId> {
        if self.inner.solo {
            return Some(self.inner.node);
        }
        let view = self.view();
        view.holders
            .get(&job)
            .map(|(n, _)| *n)
            .filter(|n| view.live.iter().any(|l| l.id == *n))
    }

    /// Where a match's room runs, taking the match if nobody live owns it: unowned yet, or its
    /// owner dead or stopped. The caller starts the room when it is here. `None`: there is no
    /// such match.
    pub async fn locate(&self, id: MatchId) -> StoreResult<Option<Place>> {
        let store = &self.inner.store;
        // A race lost (another node took it first) means looking again.
        loop {
            let place = match store.match_owner(id, alive_since()).await? {
                None => match store.claim_unowned(id, self.node()).await? {
                    Some(epoch) => Some(Place::Here(epoch)),
                    None if store.match_owner(id, 0).await?.is_none() => return Ok(None),
                    None => None,
                },
                Some(o) if o.node == self.node() => Some(Place::Here(o.epoch)),
                // What the database says, not this node's view of a second ago: the owner may
                // have started since, or died since.
                Some(o) if o.live && !self.inner.solo => {
                    self.heard_from(o.node);
                    Some(Place::There(o.node))
                }
                Some(o) => match store
                    .take_over(id, o.epoch, self.node(), alive_since())
                    .await?
                {
                    true => Some(Place::Here(Epoch(o.epoch.0 + 1))),
                    // Taken by another node meanwhile: looked at again.
                    false => None,
                },
            };
            if let Some(place) = place {
                let mut owners = lock(&self.inner.owners);
                match place {
                    Place::There(node) => owners.insert(id, node),
                    Place::Here(_) => owners.remove(&id),
                };
                return Ok(Some(place));
            }
        }
    }

    /// The live node last found to own a match whose room runs elsewhere.
    pub fn known_owner(&self, id: MatchId) -> Option<NodeId> {
        let owner = lock(&self.inner.owners).get(&id).copied()?;
        self.is_live(owner).then_some(owner)
    }

    /// Forgets where a match was: it moved.
    pub fn forget_owner(&self, id: MatchId) {
        lock(&self.inner.owners).remove(&id);
    }

    /// Takes a match just created on this node, at its first epoch. `None` if another node
    /// took it first (someone asked for it there before its room started here).
    pub async fn claim_new(&self, id: MatchId) -> StoreResult<Option<Epoch>> {
        self.inner.store.claim_unowned(id, self.node()).await
    }

    /// Gives up a finished match whose room here closed: a finished match leaves no owner row
    /// behind (the heartbeat reads this node's rows every beat), and whoever opens it next
    /// takes it at the next epoch.
    pub async fn release(&self, id: MatchId, epoch: Epoch) -> StoreResult<()> {
        self.inner.store.release(id, epoch).await
    }

    /// Calls another node and waits for its answer.
    pub async fn call(&self, node: NodeId, call: Call) -> ApiResult<serde_json::Value> {
        let Some(bus) = self.inner.bus.get() else {
            return Err(unreachable_node());
        };
        let req = self.inner.next_call.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        lock(&self.inner.calls).insert(req, (node, reply));
        bus.send(
            Some(node),
            &Wire::Ask {
                from: self.node(),
                req,
                call,
            },
        );
        let answered = tokio::time::timeout(CALL_TIMEOUT, answer).await;
        lock(&self.inner.calls).remove(&req);
        match answered {
            Ok(Ok(answer)) => answer,
            _ => Err(unreachable_node()),
        }
    }

    /// An answer to one of this node's calls came.
    fn answered(&self, req: u64, answer: ApiResult<serde_json::Value>) {
        if let Some((_, reply)) = lock(&self.inner.calls).remove(&req) {
            let _ = reply.send(answer);
        }
    }

    /// Calls waiting on nodes no longer live fail now, rather than when they time out: their
    /// callers try again, and find the match's new owner.
    fn fail_calls_to_dead(&self) {
        let mut calls = lock(&self.inner.calls);
        let dead: Vec<u64> = calls
            .iter()
            .filter(|(_, (node, _))| !self.is_live(*node))
            .map(|(req, _)| *req)
            .collect();
        for req in dead {
            if let Some((_, reply)) = calls.remove(&req) {
                let _ = reply.send(Err(unreachable_node()));
            }
        }
    }

    /// Sends a message to one node, or to every node (`None`). Nothing to send to alone.
    pub fn send(&self, to: Option<NodeId>, wire: &Wire) {
        if let Some(bus) = self.inner.bus.get() {
            bus.send(to, wire);
        }
    }

    /// A socket of this node follows a match whose room runs on `owner`, through `outbox`.
    pub fn follows_remotely(&self, conn: ConnId, id: MatchId, owner: NodeId, outbox: Outbox) {
        lock(&self.inner.follows).insert((conn, id), owner);
        self.relay_to(conn, outbox);
    }

    /// Frames from other nodes for this socket go to `outbox`.
    pub fn relay_to(&self, conn: ConnId, outbox: Outbox) {
        lock(&self.inner.relays).insert(conn, outbox);
    }

    /// A socket of this node stopped following a match.
    pub fn unfollows(&self, conn: ConnId, id: MatchId) {
        lock(&self.inner.follows).remove(&(conn, id));
    }

    /// A socket of this node closed.
    pub fn closed(&self, conn: ConnId) {
        lock(&self.inner.follows).retain(|(c, _), _| *c != conn);
        lock(&self.inner.relays).remove(&conn);
    }

    /// Frames another node sent one of this node's sockets.
    fn deliver(&self, conn: ConnId, frames: Vec<String>) {
        let relays = lock(&self.inner.relays);
        if let Some(outbox) = relays.get(&conn) {
            for frame in frames {
                let _ = outbox.try_send(frame.into());
            }
        }
    }

    /// The sockets of this node that follow a match owned by a node no longer live.
    fn orphaned_follows(&self) -> Vec<ConnId> {
        let mut follows = lock(&self.inner.follows);
        let mut conns = Vec::new();
        follows.retain(|(conn, _), owner| {
            let live = self.is_live(*owner);
            if !live && !conns.contains(conn) {
                conns.push(*conn);
            }
            live
        });
        conns
    }
}

impl Cluster {
    /// A node spoke: it is live, even if the last heartbeat had not seen it yet (it started
    /// since). The next heartbeat has the full picture again.
    fn heard_from(&self, node: NodeId) {
        if self.is_live(node) {
            return;
        }
        let mut view = self
            .inner
            .view
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        view.live.push(NodeRow {
            id: node,
            name: String::new(),
            started_ms: 0,
        });
    }

    /// A node said it stops: it is not live from now on, and the next heartbeat takes its
    /// share of what it held.
    fn forget_node(&self, node: NodeId) {
        let mut view = self
            .inner
            .view
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        view.live.retain(|n| n.id != node);
        self.inner.peer_left.notify_one();
    }

    /// This node stops (its rooms have): it says so in the store and to the others, so that
    /// they take its matches and jobs at once rather than after a lease; then it hears nothing
    /// more, and what it heard is answered, before its store closes.
    pub async fn leave(&self) {
        if let Err(e) = self
            .inner
            .store
            .node_stopped(self.node(), crate::clock::now_ms())
            .await
        {
            tracing::warn!(error = %e, "cluster: could not say this node stops");
        }
        self.send(None, &Wire::Gone { node: self.node() });
        if let Some(bus) = self.inner.bus.get() {
            bus.flush().await;
            bus.stop_listening().await;
            // The answers to the last calls heard.
            bus.flush().await;
        }
    }

    /// A player's first socket on this node said hello (`true`), or their last here closed:
    /// what the other nodes read to know who is online. Alone, there is nobody to tell.
    pub async fn online(&self, player: protocol::PlayerId, online: bool) {
        if self.inner.solo {
            return;
        }
        if let Err(e) = self
            .inner
            .store
            .set_online(self.node(), player, online)
            .await
        {
            tracing::warn!(error = %e, "cluster: could not say who is online here");
        }
    }

    /// Whether `player` has a socket open (that said hello) on any node: one of this node's
    /// `sockets`, or one on another live node.
    pub async fn online_anywhere(
        &self,
        sockets: &crate::sockets::Sockets,
        player: protocol::PlayerId,
    ) -> StoreResult<bool> {
        if sockets.online(player) {
            return Ok(true);
        }
        match self.inner.solo {
            true => Ok(false),
            false => {
                let store = &self.inner.store;
                store.online_elsewhere(player, alive_since()).await
            }
        }
    }

    /// This node's sockets hear of revocations here.
    pub fn revocations(&self) -> broadcast::Receiver<Revocation> {
        self.inner.revocations.subscribe()
    }

    /// Closes the sockets a revocation names, on every node.
    pub fn revoke(&self, revocation: Revocation) {
        self.send(
            None,
            &Wire::Revoke {
                from: self.node(),
                revocation: revocation.clone(),
            },
        );
        self.revoke_here(revocation);
    }

    /// Closes the sockets a revocation names on this node.
    pub fn revoke_here(&self, revocation: Revocation) {
        let _ = self.inner.revocations.send(revocation);
    }

    /// Tells these sockets, on whichever node, to reconnect: the room they followed stopped
    /// here, and goes on wherever its match goes.
    pub fn reconnect(&self, conns: Vec<ConnId>) {
        let mut by_node: HashMap<NodeId, Vec<ConnId>> = HashMap::new();
        for conn in conns {
            by_node
                .entry(Cluster::node_of(conn))
                .or_default()
                .push(conn);
        }
        for (node, conns) in by_node {
            match node == self.node() {
                true => conns
                    .into_iter()
                    .for_each(|conn| self.revoke_here(Revocation::Reconnect(conn))),
                false => self.send(Some(node), &Wire::Reconnect { conns }),
            }
        }
    }
}

impl Cluster {
    /// Whether a node this one counts live has lost its heartbeat connection: its process is
    /// gone (or cut off from PostgreSQL), and the next beat finds it dead. Looked at through the
    /// heartbeat's connection; a failure says nothing (the heartbeat reports a store that fails).
    async fn peer_died(&self) -> bool {
        let peers: Vec<NodeId> = self
            .view()
            .live
            .iter()
            .map(|n| n.id)
            .filter(|id| *id != self.node())
            .collect();
        if peers.is_empty() {
            return false;
        }
        let mut conn = self.inner.beat.lock().await;
        let Some(c) = conn.as_mut() else {
            return false;
        };
        let Ok(connected) = sqlx::query_scalar::<_, String>(store::NODE_CONNECTIONS)
            .fetch_all(&mut *c)
            .await
        else {
            return false;
        };
        peers
            .into_iter()
            .any(|peer| !connected.contains(&store::connection_name(peer)))
    }
}

/// A connection to the cluster's PostgreSQL named for `node` (see `store::alive`).
async fn beat_connection(url: &str, node: NodeId) -> StoreResult<PgConnection> {
    let options = PgConnectOptions::from_str(url)?.application_name(&store::connection_name(node));
    Ok(PgConnection::connect_with(&options).await?)
}

impl Cluster {
    /// This node's heartbeat: through its named connection (opened again if it was lost), or
    /// the pool when alone. False if the node had said it stopped.
    async fn beat(&self, now_ms: i64) -> StoreResult<bool> {
        if self.inner.solo {
            return self.inner.store.node_seen(self.node(), now_ms).await;
        }
        let mut conn = self.inner.beat.lock().await;
        let c = match conn.as_mut() {
            Some(c) => c,
            None => conn.insert(beat_connection(&self.inner.url, self.node()).await?),
        };
        let done = sqlx::query(store::NODE_SEEN)
            .bind(self.node().0)
            .bind(now_ms)
            .execute(&mut *c)
            .await;
        match done {
            Ok(done) => Ok(done.rows_affected() == 1),
            Err(e) => {
                *conn = None;
                Err(e.into())
            }
        }
    }
}
