//! What every request handler and socket shares.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::time::Instant;

use axum::extract::FromRef;
use protocol::{ErrorReason, MatchId, PlayerId};
use tokio::sync::{Semaphore, broadcast, mpsc};

use crate::accounts::player::Player;
use crate::accounts::token::token_hash;
use crate::analysis::runner::Analyst;
use crate::cluster::Cluster;
use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::limits::{ClientIpHeader, Limits};
use crate::lobby::seeks::SeekBoard;
use crate::matches::new_match::{Day, Opening};
use crate::matches::registry::Rooms;
use crate::matches::room::RoomContext;
use crate::matches::writer::ActionLog;
use crate::offers::challenges::{ChallengeContext, Challenges};
use crate::queue::{Queue, QueueContext};
use crate::security::SecurityLog;
use crate::series::next_game::NextGameContext;
use crate::shutdown::Shutdown;
use crate::sockets::{Revocation, Sockets};
use crate::store::Store;
use crate::tournament::director::{TournamentContext, Tournaments};

#[derive(Clone)]
pub struct AppState {
    pub inner: Arc<Shared>,
}

pub struct Shared {
    pub config: Config,
    pub store: Store,
    /// Login and registration limits per address, analyses per player, and the back-off of
    /// failed logins.
    limits: Arc<Limits>,
    /// Runs analyses on the AI's threads, within their share.
    analyst: Analyst,
    pub rooms: Arc<Rooms>,
    next_conn: AtomicU64,
    /// This node among the others, if any.
    cluster: Cluster,
    /// Security events, for the log and for admins.
    security: Arc<SecurityLog>,
    /// The AI's accounts, one per level (level 1 first).
    ai_players: Vec<Player>,
    /// The matchmaking queue, started right after the state, once the node has joined the
    /// cluster.
    queue: OnceLock<Queue>,
    /// Every open socket by player, and the sockets following each tournament.
    sockets: Arc<Sockets>,
    /// The tournament director, started with the queue.
    tournaments: OnceLock<Tournaments>,
    /// Challenges to named players, expired by a task started with the queue.
    challenges: Arc<Challenges>,
    /// The second games of series that rooms stored, until the task that starts their rooms
    /// takes them (with the other actors).
    next_games: Mutex<Option<mpsc::UnboundedReceiver<(MatchId, Opening)>>>,
    /// Lists the seeks to the lobby's followers when they change, a task started with the
    /// other actors.
    seeks: SeekBoard,
    shutdown: Shutdown,
}

impl AppState {
    pub fn new(
        config: Config,
        store: Store,
        cluster: Cluster,
        ai_players: Vec<Player>,
    ) -> AppState {
        let sockets = Arc::new(Sockets::default());
        let ai_threads = Arc::new(Semaphore::new(config.ai_threads.max(1)));
        let (next_games, next_games_rx) = mpsc::unbounded_channel();
        let seeks = SeekBoard::default();
        let rooms = Arc::new(Rooms::new(RoomContext {
            actions: ActionLog::start(&store),
            store: store.clone(),
            grace: Duration::from_secs(config.disconnect_grace_secs),
            resume_events: config.resume_events,
            ai_threads: ai_threads.clone(),
            ai_move: Duration::from_millis(config.ai_move_ms),
            sleep_after: Duration::from_secs(config.room_sleep_secs),
            rated_games_per_pair: config.rated_games_per_pair,
            next_games,
            sockets: sockets.clone(),
            cluster: cluster.clone(),
            seeks: seeks.clone(),
        }));
        let limits = Arc::new(Limits::new(&config));
        let security = Arc::new(SecurityLog::default());
        let shutdown = Shutdown::default();
        let challenges = Arc::new(Challenges::new(ChallengeContext {
            store: store.clone(),
            rooms: rooms.clone(),
            sockets: sockets.clone(),
            cluster: cluster.clone(),
            limits: limits.clone(),
            security: security.clone(),
            shutdown: shutdown.clone(),
            lasts_ms: (config.challenge_secs * 1000) as i64,
        }));
        AppState {
            inner: Arc::new(Shared {
                limits,
                challenges,
                analyst: Analyst::new(ai_threads, &config),
                config,
                store,
                rooms,
                next_conn: AtomicU64::new(cluster.first_conn() + 1),
                cluster,
                security,
                ai_players,
                queue: OnceLock::new(),
                sockets,
                tournaments: OnceLock::new(),
                next_games: Mutex::new(Some(next_games_rx)),
                seeks,
                shutdown,
            }),
        }
    }

    /// Starts the actors: the queue, the tournament director, the challenges' expiry and the
    /// starter of series' second games, each with what it needs of the state.
    pub fn start_actors(&self) {
        let shared = &self.inner;
        let config = &shared.config;
        let queue = Queue::start(QueueContext {
            store: shared.store.clone(),
            rooms: shared.rooms.clone(),
            cluster: shared.cluster.clone(),
            shutdown: shared.shutdown.clone(),
            ai_players: shared.ai_players.clone(),
            sockets: shared.sockets.clone(),
            window: crate::queue::window(config),
            day: Day(config.day_ms),
        });
        let _ = shared.queue.set(queue);
        let tournaments = Tournaments::start(TournamentContext {
            store: shared.store.clone(),
            rooms: shared.rooms.clone(),
            sockets: shared.sockets.clone(),
            cluster: shared.cluster.clone(),
            shutdown: shared.shutdown.clone(),
            poll: Duration::from_millis(config.tournament_poll_ms.max(10)),
            grace_ms: (config.tournament_no_show_secs * 1000) as i64,
        });
        let _ = shared.tournaments.set(tournaments);
        self.shutdown()
            .spawn_job(crate::offers::challenges::expire(shared.challenges.clone()));
        let seeks = shared.seeks.clone();
        let (store, sockets) = (shared.store.clone(), shared.sockets.clone());
        self.shutdown()
            .spawn_job(seeks.run(store, sockets, shared.shutdown.clone()));
        let next_games = self
            .inner
            .next_games
            .lock()
            .ok()
            .and_then(|mut rx| rx.take());
        if let Some(next_games) = next_games {
            self.shutdown()
                .spawn_job(crate::series::next_game::start_games(
                    NextGameContext {
                        rooms: shared.rooms.clone(),
                        store: shared.store.clone(),
                        sockets: shared.sockets.clone(),
                        shutdown: shared.shutdown.clone(),
                    },
                    next_games,
                ));
        }
    }

    /// The AI's accounts, one per level, level 1 first.
    pub fn ai_players(&self) -> &[Player] {
        &self.inner.ai_players
    }

    pub fn queue(&self) -> &Queue {
        self.inner
            .queue
            .get()
            .expect("the queue starts with the server")
    }

    pub fn tournaments(&self) -> &Tournaments {
        self.inner
            .tournaments
            .get()
            .expect("the tournament director starts with the server")
    }

    pub fn challenges(&self) -> &Challenges {
        &self.inner.challenges
    }

    pub fn shutdown(&self) -> &Shutdown {
        &self.inner.shutdown
    }

    pub fn sockets(&self) -> &Sockets {
        &self.inner.sockets
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    pub fn analyst(&self) -> &Analyst {
        &self.inner.analyst
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn rooms(&self) -> &Rooms {
        &self.inner.rooms
    }

    pub fn cluster(&self) -> &Cluster {
        &self.inner.cluster
    }

    pub fn next_conn(&self) -> u64 {
        self.inner.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Revokes a session (a logout): stored first, then every socket using it is closed.
    pub async fn revoke(&self, token: &str) -> ApiResult<()> {
        let hash = token_hash(token);
        self.store().revoke_session(&hash).await?;
        self.cluster().revoke(Revocation::Session(hash));
        Ok(())
    }

    /// Closes every socket of a player whose sessions were just revoked in the store (a ban),
    /// on every node.
    pub fn revoke_player(&self, player: PlayerId) {
        self.cluster().revoke(Revocation::Player(player));
    }

    pub fn revocations(&self) -> broadcast::Receiver<Revocation> {
        self.cluster().revocations()
    }

    pub fn security(&self) -> &SecurityLog {
        &self.inner.security
    }

    /// The player a session token belongs to.
    pub async fn authenticate(&self, token: &str) -> ApiResult<Player> {
        self.store()
            .session_player(&token_hash(token), crate::clock::now_ms())
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    ErrorReason::SessionEnded,
                    "the session token is unknown, expired or revoked",
                )
            })
    }

    /// Once the HTTP server has stopped accepting: waits for every socket to say goodbye and
    /// every background job to end its pass, stops every match room between two commands, leaves
    /// the cluster (the messages between nodes end there), then closes the database pool. Whatever is still
    /// running at `deadline` is left behind (and logged); acknowledged actions are stored anyway.
    pub async fn drain(&self, deadline: Instant) {
        let sockets = self.shutdown().sessions.running();
        tracing::info!(sockets, "stopping: telling every socket to reconnect");
        if !self.shutdown().sessions.idle(deadline).await {
            let left = self.shutdown().sessions.running();
            tracing::warn!(left, "sockets still open at the shutdown deadline");
        }
        // The jobs that open, ask and end matches stop before the rooms do.
        if !self.shutdown().jobs.idle(deadline).await {
            let left = self.shutdown().jobs.running();
            tracing::warn!(left, "background jobs still busy at the shutdown deadline");
        }
        if !self.rooms().stop(deadline).await {
            tracing::warn!("match rooms still busy at the shutdown deadline");
        }
        // Every room has stopped: the other nodes may take the matches now.
        if tokio::time::timeout_at(deadline, self.cluster().leave())
            .await
            .is_err()
        {
            tracing::warn!("could not hand the matches over by the shutdown deadline");
        }
        if tokio::time::timeout_at(deadline, self.store().close())
            .await
            .is_err()
        {
            tracing::warn!("database connections still in use at the shutdown deadline");
        }
        tracing::info!("stopped");
    }
}

/// The one setting the client's address is read with (`ClientIp`).
impl FromRef<AppState> for ClientIpHeader {
    fn from_ref(state: &AppState) -> ClientIpHeader {
        ClientIpHeader(state.config().client_ip_header.clone())
    }
}
