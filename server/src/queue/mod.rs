//! The matchmaking queue: an actor that holds the players waiting in each pool (game, variant,
//! seats, time control, rated or casual) and pairs them in waves, once a second.
//!
//! A pool of two-game matches (a series, sides swapped) is a pool of its own: its players are
//! paired only with each other.
//!
//! A wave pairs two-seat pools by minimum total rating difference within widening windows
//! (`wave.rs`); pools of more seats form groups of players close in rating. Seat 0 goes to
//! whoever has had it least lately, so that each player's recent seats balance. A player gone from the socket is gone from the
//! queue.
//!
//! Whenever a pool's count changes, the lobby's followers on every node are told the counts
//! (`queue_pools`): the queue runs on one node, so they are the cluster's.

pub mod pool;
pub mod wave;

pub use pool::Pool;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use protocol::{ErrorReason, MatchId, PlayerId, QueuePool, ServerMessage};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::accounts::player::Player;
use crate::cluster::wire::Call;
use crate::cluster::{Cluster, NodeId, Singleton};
use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::matches::new_match::Day;
use crate::matches::registry::Rooms;
use crate::metrics::QueueSizes;
use crate::shutdown::Shutdown;
use crate::sockets::{ConnId, Fanout, Outbox, Sockets, frame};
use crate::store::Store;
use wave::{Waiting, Window};

/// What the queue needs of the server: where ratings and recent seats are read, where matches
/// open, the other nodes, the stop signal, the AI's accounts and the operator's settings.
pub struct QueueContext {
    pub store: Store,
    pub rooms: Arc<Rooms>,
    pub cluster: Cluster,
    pub shutdown: Shutdown,
    /// The AI's accounts, one per level, level 1 first.
    pub ai_players: Vec<Player>,
    /// Where the lobby's followers are told the counts.
    pub sockets: Arc<Sockets>,
    pub window: Window,
    /// The day a correspondence match's clock counts in.
    pub day: Day,
}

/// The matchmaking window the operator configured.
pub fn window(config: &Config) -> Window {
    Window {
        initial: config.queue_window,
        per_second: config.queue_window_growth,
        max: config.queue_window_max,
    }
}

/// How often the queue pairs.
const WAVE_EVERY: Duration = Duration::from_secs(1);

/// How many recent matches the side balance looks at.
const RECENT_SIDES: i64 = 10;

struct Entry {
    conn: ConnId,
    player: Player,
    rating: f64,
    joined: Instant,
    /// Play an AI of similar strength after waiting this long without a human.
    ai_after: Option<Duration>,
    outbox: Outbox,
}

/// Who leaves the queue: a socket's entry (it left, or closed), or every entry of a player
/// (banned).
enum Leaving {
    Socket(ConnId),
    Player(PlayerId),
}

enum Request {
    Join {
        pool: Pool,
        entry: Entry,
        reply: oneshot::Sender<ApiResult<()>>,
    },
    Leave {
        who: Leaving,
        reply: oneshot::Sender<bool>,
    },
    Pools {
        reply: oneshot::Sender<Vec<QueuePool>>,
    },
}

/// The handle every socket and handler uses. In a cluster, one node runs the queue: the
/// others send their players' requests there, and its messages come back to their sockets.
#[derive(Clone)]
pub struct Queue {
    tx: mpsc::Sender<Request>,
    /// Where a joining player's rating is looked up.
    store: Store,
    cluster: Cluster,
    /// This node's sockets that joined the queue on another node: only they need asking
    /// there when they close.
    joined_elsewhere: Arc<std::sync::Mutex<HashSet<ConnId>>>,
}

impl Queue {
    /// Starts the queue actor. It stops with the server, once the wave it is on is done.
    pub fn start(context: QueueContext) -> Queue {
        let (tx, rx) = mpsc::channel(256);
        let store = context.store.clone();
        let cluster = context.cluster.clone();
        let shutdown = context.shutdown.clone();
        shutdown.spawn_job(
            Matchmaker {
                context,
                pools: BTreeMap::new(),
                last_opponent: HashMap::new(),
                sizes: QueueSizes::default(),
                told: Vec::new(),
            }
            .run(rx),
        );
        Queue {
            tx,
            store,
            cluster,
            joined_elsewhere: Arc::default(),
        }
    }

    /// The node that runs the queue, when it is not this one.
    fn elsewhere(&self) -> Option<NodeId> {
        self.cluster
            .holder(Singleton::Queue)
            .filter(|node| *node != self.cluster.node())
    }

    /// Asks the node that runs the queue.
    async fn call<T: serde::de::DeserializeOwned>(&self, node: NodeId, call: Call) -> ApiResult<T> {
        let answer = self.cluster.call(node, call).await?;
        serde_json::from_value(answer).map_err(|_| {
            ApiError::new(
                ErrorReason::Internal,
                "the queue's answer could not be read",
            )
        })
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Request) -> ApiResult<T> {
        let (reply, answer) = oneshot::channel();
        let stopped = || ApiError::new(ErrorReason::Internal, "the queue stopped");
        self.tx.send(make(reply)).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())
    }

    /// Puts a socket's player in a pool's queue, at their rating in the pool.
    pub async fn join(
        &self,
        pool: Pool,
        conn: ConnId,
        player: Player,
        ai_after: Option<Duration>,
        outbox: Outbox,
    ) -> ApiResult<()> {
        let Some(node) = self.elsewhere() else {
            return self.join_here(pool, conn, player, ai_after, outbox).await;
        };
        self.cluster.relay_to(conn, outbox);
        let ai_after_ms = ai_after.map(|d| d.as_millis() as u64);
        let call = Call::QueueJoin {
            pool,
            conn,
            player,
            ai_after_ms,
        };
        self.call::<()>(node, call).await?;
        self.joined_elsewhere().insert(conn);
        Ok(())
    }

    fn joined_elsewhere(&self) -> std::sync::MutexGuard<'_, HashSet<ConnId>> {
        self.joined_elsewhere
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// [`Queue::join`] on the node that runs the queue.
    pub async fn join_here(
        &self,
        pool: Pool,
        conn: ConnId,
        player: Player,
        ai_after: Option<Duration>,
        outbox: Outbox,
    ) -> ApiResult<()> {
        let rating = self.store.rating_in(player.id, &pool.rating_pool()).await?;
        let entry = Entry {
            conn,
            player,
            rating,
            joined: Instant::now(),
            ai_after,
            outbox,
        };
        self.ask(|reply| Request::Join { pool, entry, reply })
            .await?
    }

    /// Takes a socket's player out of the queue; false if they were not in it.
    pub async fn leave(&self, conn: ConnId) -> ApiResult<bool> {
        let joined_elsewhere = self.joined_elsewhere().remove(&conn);
        match self.elsewhere() {
            Some(node) if joined_elsewhere => self.call(node, Call::QueueLeave { conn }).await,
            Some(_) => Ok(false),
            None => self.leave_here(conn).await,
        }
    }

    pub async fn leave_here(&self, conn: ConnId) -> ApiResult<bool> {
        let who = Leaving::Socket(conn);
        self.ask(|reply| Request::Leave { who, reply }).await
    }

    /// Takes a player out of the queue, whichever socket they joined from.
    pub async fn remove_player(&self, player: PlayerId) -> ApiResult<bool> {
        match self.elsewhere() {
            Some(node) => self.call(node, Call::QueueRemovePlayer { player }).await,
            None => self.remove_player_here(player).await,
        }
    }

    pub async fn remove_player_here(&self, player: PlayerId) -> ApiResult<bool> {
        let who = Leaving::Player(player);
        self.ask(|reply| Request::Leave { who, reply }).await
    }

    /// Every pool with players waiting.
    pub async fn pools(&self) -> ApiResult<Vec<QueuePool>> {
        match self.elsewhere() {
            Some(node) => self.call(node, Call::QueuePools).await,
            None => self.pools_here().await,
        }
    }

    pub async fn pools_here(&self) -> ApiResult<Vec<QueuePool>> {
        self.ask(|reply| Request::Pools { reply }).await
    }
}

struct Matchmaker {
    context: QueueContext,
    pools: BTreeMap<Pool, Vec<Entry>>,
    last_opponent: HashMap<PlayerId, PlayerId>,
    sizes: QueueSizes,
    /// The counts the lobby's followers were last told.
    told: Vec<QueuePool>,
}

impl Matchmaker {
    async fn run(mut self, mut requests: mpsc::Receiver<Request>) {
        let mut waves = tokio::time::interval(WAVE_EVERY);
        let stopping = self.context.shutdown.stopped();
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                // Whoever waits in it is on a socket being told to reconnect.
                () = &mut stopping => return,
                request = requests.recv() => match request {
                    Some(request) => self.handle(request),
                    None => return,
                },
                _ = waves.tick() => self.wave().await,
            }
            let sizes = self
                .pools
                .iter()
                .map(|(pool, entries)| (pool.metric_labels(), entries.len()));
            self.sizes.report(sizes);
            self.tell_lobby();
        }
    }

    /// Every pool with players waiting, and how many.
    fn waiting(&self) -> Vec<QueuePool> {
        self.pools
            .iter()
            .filter(|(_, entries)| !entries.is_empty())
            .map(|(pool, entries)| QueuePool {
                game: pool.game.clone(),
                variant: pool.variant.clone(),
                seats: pool.seats,
                time_control: pool.time_control,
                rated: pool.rated,
                two_games: pool.two_games,
                waiting: entries.len() as u32,
            })
            .collect()
    }

    /// Tells the lobby's followers, on every node, the counts if they changed.
    fn tell_lobby(&mut self) {
        let pools = self.waiting();
        if pools == self.told {
            return;
        }
        let message = frame(&ServerMessage::QueuePools {
            pools: pools.clone(),
        });
        let lobby = Fanout::Lobby { except: Vec::new() };
        self.context.sockets.send(lobby, &message);
        self.told = pools;
    }

    fn handle(&mut self, request: Request) {
        match request {
            Request::Join { pool, entry, reply } => {
                let queued = self
                    .pools
                    .values()
                    .flatten()
                    .any(|e| e.player.id == entry.player.id);
                let answer = if queued {
                    Err(ApiError::new(
                        ErrorReason::AlreadyQueued,
                        "you are already waiting in the queue",
                    ))
                } else {
                    self.pools.entry(pool).or_default().push(entry);
                    Ok(())
                };
                let _ = reply.send(answer);
            }
            Request::Leave { who, reply } => {
                let removed = match who {
                    Leaving::Socket(conn) => self.remove(|e| e.conn == conn),
                    Leaving::Player(player) => self.remove(|e| e.player.id == player),
                };
                let _ = reply.send(removed);
            }
            Request::Pools { reply } => {
                let _ = reply.send(self.waiting());
            }
        }
    }

    /// Removes the entries that match; true if there was one.
    fn remove(&mut self, gone: impl Fn(&Entry) -> bool) -> bool {
        let mut removed = false;
        for entries in self.pools.values_mut() {
            let before = entries.len();
            entries.retain(|e| !gone(e));
            removed |= entries.len() != before;
        }
        removed
    }

    async fn wave(&mut self) {
        // A socket that closed can no longer be told about its match.
        self.remove(|e| e.outbox.is_closed());
        let now = Instant::now();
        let pools: Vec<Pool> = self.pools.keys().cloned().collect();
        for pool in pools {
            let entries = self.pools.remove(&pool).unwrap_or_default();
            let groups = if pool.seats == 2 {
                let waiting: Vec<Waiting<PlayerId>> = entries
                    .iter()
                    .map(|e| Waiting {
                        player: e.player.id,
                        rating: e.rating,
                        waited: now.duration_since(e.joined),
                        last_opponent: self.last_opponent.get(&e.player.id).copied(),
                    })
                    .collect();
                wave::pair(&waiting, self.context.window)
                    .into_iter()
                    .map(|(a, b)| vec![a, b])
                    .collect()
            } else {
                groups_of(&entries, usize::from(pool.seats), self.context.window, now)
            };
            let mut entries: Vec<Option<Entry>> = entries.into_iter().map(Some).collect();
            for group in groups {
                let members: Vec<Entry> = group.iter().filter_map(|&i| entries[i].take()).collect();
                if let Err(e) = self.start_match(&pool, members).await {
                    tracing::error!(error = %e, "could not start a queued match");
                }
            }
            let mut left = Vec::new();
            for entry in entries.into_iter().flatten() {
                if entry
                    .ai_after
                    .is_some_and(|after| now.duration_since(entry.joined) >= after)
                {
                    if let Err(e) = self.play_the_ai(&pool, entry).await {
                        tracing::error!(error = %e, "could not start a match against the AI");
                    }
                } else {
                    left.push(entry);
                }
            }
            if !left.is_empty() {
                self.pools.insert(pool, left);
            }
        }
    }

    /// Opens a match for a group, giving seat 0 to whoever has had it least lately, and tells
    /// every member where to go.
    async fn start_match(&mut self, pool: &Pool, mut members: Vec<Entry>) -> ApiResult<MatchId> {
        let store = &self.context.store;
        let mut share = Vec::with_capacity(members.len());
        for m in &members {
            let seats = store
                .recent_seats(m.player.id, &pool.game, &pool.variant, RECENT_SIDES)
                .await?;
            let firsts = seats.iter().filter(|&&s| s == 0).count() as f64;
            share.push(firsts / seats.len().max(1) as f64);
        }
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| {
            share[a]
                .total_cmp(&share[b])
                .then(rand::random::<bool>().cmp(&true))
        });
        let mut seated: Vec<Option<Entry>> = members.drain(..).map(Some).collect();
        let members: Vec<Entry> = order.into_iter().filter_map(|i| seated[i].take()).collect();
        let spec = pool.new_match(self.context.day)?;
        let seating = members
            .iter()
            .enumerate()
            .map(|(seat, m)| (seat as u8, m.player.clone()))
            .collect();
        let match_id = self.context.rooms.open(spec, seating).await?;
        if let [a, b] = members.as_slice() {
            self.last_opponent.insert(a.player.id, b.player.id);
            self.last_opponent.insert(b.player.id, a.player.id);
        }
        for (seat, m) in members.iter().enumerate() {
            let message = ServerMessage::Matched {
                match_id,
                seats: vec![seat as u8],
            };
            let _ = m.outbox.try_send(frame(&message));
        }
        Ok(match_id)
    }
}

impl Matchmaker {
    /// Seats a player who waited long enough with AI opponents of similar strength: the level
    /// whose rating in the pool is nearest theirs fills every other seat.
    async fn play_the_ai(&mut self, pool: &Pool, entry: Entry) -> ApiResult<MatchId> {
        let context = &self.context;
        let ai = nearest_ai(&context.store, &context.ai_players, pool, entry.rating).await?;
        let mut members = vec![entry];
        let joined = Instant::now();
        for _ in 1..pool.seats {
            // The AI's seats need no socket: their outbox is closed from the start.
            let (outbox, _) = mpsc::channel(1);
            members.push(Entry {
                conn: 0,
                player: ai.clone(),
                rating: 0.0,
                joined,
                ai_after: None,
                outbox,
            });
        }
        self.start_match(pool, members).await
    }
}

/// The AI player (of `ai_players`, one per level) whose rating in the pool is nearest `rating`:
/// the opponent of similar strength a player who waited long enough is given or offered.
pub async fn nearest_ai(
    store: &Store,
    ai_players: &[Player],
    pool: &Pool,
    rating: f64,
) -> ApiResult<Player> {
    let mut nearest: Option<(f64, &Player)> = None;
    for ai in ai_players {
        let distance = (store.rating_in(ai.id, &pool.rating_pool()).await? - rating).abs();
        if nearest.is_none_or(|(d, _)| distance < d) {
            nearest = Some((distance, ai));
        }
    }
    let (_, ai) = nearest.ok_or_else(|| ApiError::new(ErrorReason::Internal, "no AI players"))?;
    Ok(ai.clone())
}

/// Groups of `size` players for pools of more than two seats: in rating order, each run of
/// `size` players whose spread every member's window accepts.
fn groups_of(entries: &[Entry], size: usize, window: Window, now: Instant) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| entries[a].rating.total_cmp(&entries[b].rating));
    let mut groups = Vec::new();
    let mut i = 0;
    while i + size <= order.len() {
        let run = &order[i..i + size];
        let spread = entries[run[size - 1]].rating - entries[run[0]].rating;
        let accepted = run
            .iter()
            .map(|&k| window.after(now.duration_since(entries[k].joined)))
            .fold(f64::INFINITY, f64::min);
        if spread <= accepted {
            groups.push(run.to_vec());
            i += size;
        } else {
            i += 1;
        }
    }
    groups
}
