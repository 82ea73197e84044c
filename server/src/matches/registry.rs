//! The registry of match rooms: finds the room of a match, starting it from the store when it is
//! not running (after a restart, or for a finished match someone wants to watch), and creates
//! new matches.

mod open;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, MutexGuard, PoisonError};

use protocol::{ErrorCode, ErrorReason, MatchId};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::time::Instant;
use tracing::Instrument;

use super::command::{Answer, Command, Mail, Reply};
use super::glance::{GlanceCell, Glimpse};
use super::room::{Room, RoomContext};
use crate::cluster::wire::{self, Call};
use crate::cluster::{Epoch, NodeId, Place};
use crate::error::{ApiError, ApiResult};
use crate::shutdown::Tracker;
use crate::store::MOVED;

/// Commands a room may have waiting before senders wait for it.
const ROOM_QUEUE: usize = 64;

/// A running room: its command channel, and what the list of live matches shows of it (which
/// the room keeps up to date).
struct Handle {
    commands: mpsc::Sender<Mail>,
    glance: GlanceCell,
    /// The epoch this node owns the match at.
    epoch: Epoch,
}

impl Handle {
    /// The handle, if its room is still serving commands.
    fn open(&self) -> Option<&Handle> {
        (!self.commands.is_closed()).then_some(self)
    }
}

/// The rooms in memory, by match. A plain mutex, held only for a lookup or an insert and never
/// across an await: every command of every match looks its room up here.
#[derive(Clone, Default)]
struct Running(Arc<std::sync::Mutex<HashMap<MatchId, Handle>>>);

impl Running {
    fn lock(&self) -> MutexGuard<'_, HashMap<MatchId, Handle>> {
        // Nothing panics while holding it, and the map is valid after any of its operations.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The channel of a match's room, if that room is still serving commands.
    fn get(&self, id: MatchId) -> Option<mpsc::Sender<Mail>> {
        let running = self.lock();
        running
            .get(&id)
            .and_then(Handle::open)
            .map(|h| h.commands.clone())
    }

    /// Queues a command for a match's room, under the lock a room takes to go to sleep (see
    /// [`Running::close_if_quiet`]). `Closed` when no room is running for the match.
    fn try_send(&self, id: MatchId, mail: Mail) -> Result<(), TrySendError<Mail>> {
        match self.lock().get(&id) {
            Some(handle) => handle.commands.try_send(mail),
            None => Err(TrySendError::Closed(mail)),
        }
    }

    /// Closes a room's channel unless a command is waiting in it. Commands are queued under the
    /// same lock, so none can slip in between the check and the close: a sender either got its
    /// command in first (and the room stays awake to answer it) or finds the room closed.
    fn close_if_quiet(&self, commands: &mut mpsc::Receiver<Mail>) -> bool {
        let _running = self.lock();
        if !commands.is_empty() {
            return false;
        }
        commands.close();
        true
    }

    /// The matches whose rooms run here, with the epoch each was taken at.
    fn epochs(&self) -> Vec<(MatchId, Epoch)> {
        let running = self.lock();
        running
            .iter()
            .filter(|(_, h)| h.open().is_some())
            .map(|(id, h)| (*id, h.epoch))
            .collect()
    }

    /// Called by a room's task as it ends: without this, the channel of every match played
    /// since the start would stay in memory.
    fn forget_ended(&self, id: MatchId) {
        let mut running = self.lock();
        // A room started since for the same match (its sender still open) stays.
        if running.get(&id).is_some_and(|h| h.open().is_none()) {
            running.remove(&id);
            crate::metrics::match_rooms(-1);
        }
    }
}

/// Where a match's room runs, as the registry found it.
enum Reach {
    Here,
    There(NodeId),
}

fn stopped() -> ApiError {
    ApiError::new(ErrorReason::Internal, "the match room stopped")
}

pub struct Rooms {
    ctx: RoomContext,
    running: Running,
    /// Held while a room is loaded from the store, so that two commands for a match whose room
    /// is not running start it once.
    loading: Arc<Mutex<()>>,
    /// Every room task, so that a shutdown waits for each to finish its command.
    tasks: Tracker,
    /// Set by [`Rooms::stop`], under the `running` lock: no room starts after it.
    stopped: AtomicBool,
}

impl Rooms {
    pub fn new(ctx: RoomContext) -> Rooms {
        Rooms {
            ctx,
            running: Running::default(),
            loading: Arc::default(),
            tasks: Tracker::default(),
            stopped: AtomicBool::new(false),
        }
    }

    /// Starts a room's task and registers it, unless the server is stopping. `epoch`: the
    /// epoch this node owns the match at, which the room writes under.
    fn start(&self, id: MatchId, room: Room, epoch: Epoch) -> ApiResult<mpsc::Sender<Mail>> {
        let mut running = self.running.lock();
        self.refuse_if_stopped()?;
        // Started meanwhile by another path (a command, and the takeover of a dead node's
        // matches): one room per match, the first.
        if let Some(running) = running.get(&id).and_then(Handle::open) {
            return Ok(running.commands.clone());
        }
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let glance = room.glance();
        // The room holds only a weak sender to itself (for its AI's moves), so it still ends
        // when the registry lets it go.
        let weak = tx.downgrade();
        let entered = self.tasks.enter();
        let registry = self.running.clone();
        let loading = self.loading.clone();
        let cluster = self.ctx.cluster.clone();
        // Its own span (not the one of the socket that started it): every line it logs names
        // the match.
        let span = tracing::info_span!(parent: None, "match", match_id = id.0);
        tokio::spawn(
            async move {
                let closed = room
                    .run(rx, weak, |commands| registry.close_if_quiet(commands))
                    .await;
                if closed.release {
                    // Under the loading lock, and only while no newer room runs here: a
                    // command that found this room closed may have started another already.
                    let _loading = loading.lock().await;
                    if registry.get(id).is_none()
                        && let Err(e) = cluster.release(id, epoch).await
                    {
                        tracing::warn!(error = %e, "could not give up a finished match");
                    }
                }
                registry.forget_ended(id);
                // Stopped with sockets still following (this node stops, or lost the match):
                // they follow it again wherever it goes on.
                cluster.reconnect(closed.followers);
                drop(entered);
            }
            .instrument(span),
        );
        let handle = Handle {
            commands: tx.clone(),
            glance,
            epoch,
        };
        if running.insert(id, handle).is_none() {
            crate::metrics::match_rooms(1);
        }
        Ok(tx)
    }

    fn refuse_if_stopped(&self) -> ApiResult<()> {
        if self.stopped.load(Ordering::Relaxed) {
            return Err(ApiError::new(
                ErrorReason::ServerRestarting,
                "the server is restarting: reconnect and try again",
            ));
        }
        Ok(())
    }

    /// Stops every room: each finishes the commands already sent to it and ends, and no room
    /// starts from now on. False if some were still running at `deadline`.
    pub async fn stop(&self, deadline: Instant) -> bool {
        {
            let mut running = self.running.lock();
            self.stopped.store(true, Ordering::Relaxed);
            // A room ends once every sender is gone and its queue is empty.
            crate::metrics::match_rooms(-(running.len() as i64));
            running.clear();
        }
        self.tasks.idle(deadline).await
    }

    /// What the lists of matches show of a running room here: whether someone plays it (one
    /// of its human players follows it or left it less than the disconnect grace ago; a match
    /// the AI plays on every seat always is), and what its room keeps up to date for them.
    fn glimpse_here(&self, id: MatchId) -> Option<Glimpse> {
        let cell = self
            .running
            .lock()
            .get(&id)
            .and_then(Handle::open)?
            .glance
            .clone();
        Some(cell.read(|g| {
            Glimpse {
                attended: g
                    .away_since
                    .is_none_or(|since| since.elapsed() < self.ctx.grace),
                watchers: g.watchers,
                view: g.view.clone(),
                to_act: g.to_act.clone(),
                deadline_ms: g.deadline.map(crate::clock::wall_ms),
                on_vacation: g.on_vacation.clone(),
            }
        }))
    }

    /// What the lists show of these matches, read from what each room keeps up to date, here
    /// or on the node that owns it (one call per node), never asking a room. A match whose
    /// room is not running anywhere has none, unless `wake`: then its room is started (an
    /// untimed match nobody followed for a while), so that a player's own lists show whose turn
    /// it is.
    pub async fn glimpses(
        &self,
        ids: &[MatchId],
        wake: bool,
    ) -> ApiResult<HashMap<MatchId, Glimpse>> {
        let mut found = HashMap::new();
        let mut elsewhere: HashMap<NodeId, Vec<MatchId>> = HashMap::new();
        let owners = self.ctx.store.match_owners(ids).await?;
        for &id in ids {
            if let Some(g) = self.glimpse_here(id) {
                found.insert(id, g);
                continue;
            }
            let owner = owners
                .get(&id)
                .copied()
                .filter(|n| self.ctx.cluster.is_live(*n));
            let reach = match (owner, wake) {
                (Some(node), _) if node != self.ctx.cluster.node() => Reach::There(node),
                (_, true) => self.room(id).await?,
                (_, false) => continue,
            };
            match reach {
                Reach::Here => found.extend(self.glimpse_here(id).map(|g| (id, g))),
                Reach::There(node) => elsewhere.entry(node).or_default().push(id),
            }
        }
        let asked = elsewhere.into_iter().map(|(node, ids)| async move {
            let answer = self
                .ctx
                .cluster
                .call(node, Call::Glimpses { ids, wake })
                .await;
            answer.and_then(|v| {
                serde_json::from_value::<Vec<(MatchId, Glimpse)>>(v).map_err(|_| {
                    ApiError::new(ErrorReason::Internal, "a node's answer could not be read")
                })
            })
        });
        for answer in futures_util::future::join_all(asked).await {
            // A node that does not answer (it is dying) shows nothing of its matches.
            found.extend(answer.unwrap_or_default());
        }
        Ok(found)
    }

    /// [`Rooms::glimpses`] of the rooms that run here, for another node.
    pub async fn glimpses_here(&self, ids: &[MatchId], wake: bool) -> Vec<(MatchId, Glimpse)> {
        let mut found = Vec::new();
        for &id in ids {
            if wake
                && self.running.get(id).is_none()
                && !matches!(self.room(id).await, Ok(Reach::Here))
            {
                continue;
            }
            found.extend(self.glimpse_here(id).map(|g| (id, g)));
        }
        found
    }

    /// Starts a room for every match that is not over, so that clocks run and players can come
    /// back. Returns how many were restored.
    /// Starts a room for every match that is not over and that no live node owns, so that
    /// clocks run and players can come back. Returns how many were restored.
    pub async fn restore_all(&self) -> ApiResult<usize> {
        let stored = self.ctx.store.unfinished_matches().await?;
        let mut n = 0;
        for m in stored {
            let id = m.id;
            let Some(Place::Here(epoch)) = self.ctx.cluster.locate(id).await? else {
                continue;
            };
            match Room::restore(m, self.ctx.clone(), epoch) {
                Ok(room) => {
                    self.start(id, room, epoch)?;
                    n += 1;
                }
                Err(e) => tracing::error!(match_id = id.0, error = %e, "could not restore a match"),
            }
        }
        Ok(n)
    }

    /// Starts the room of a match this node just took over from a node that died or stopped,
    /// rebuilt from the store. False if it could not be.
    pub async fn adopt(&self, id: MatchId, epoch: Epoch) -> bool {
        let _loading = self.loading.lock().await;
        let restored = match self.ctx.store.load_match(id).await {
            Ok(Some(stored)) => Room::restore(stored, self.ctx.clone(), epoch),
            Ok(None) => return false,
            Err(e) => Err(e.into()),
        };
        match restored.and_then(|room| self.start(id, room, epoch)) {
            Ok(_) => true,
            Err(e) => {
                tracing::error!(match_id = id.0, error = %e, "could not take over a match");
                false
            }
        }
    }

    /// The matches whose rooms run here, with the epoch each was taken at.
    pub fn epochs(&self) -> Vec<(MatchId, Epoch)> {
        self.running.epochs()
    }

    /// How many rooms run here.
    pub fn count(&self) -> usize {
        self.running.epochs().len()
    }

    /// Stops a match's room at once: this node no longer owns the match. Its followers are
    /// told to reconnect, and find the match where it went.
    pub fn drop_room(&self, id: MatchId) {
        let mut running = self.running.lock();
        if running.remove(&id).is_some() {
            crate::metrics::match_rooms(-1);
        }
    }

    /// Where a match's room runs, starting it here (from the store) when this node owns the
    /// match or may take it.
    async fn room(&self, id: MatchId) -> ApiResult<Reach> {
        self.refuse_if_stopped()?;
        if self.running.get(id).is_some() {
            return Ok(Reach::Here);
        }
        if let Some(node) = self.ctx.cluster.known_owner(id) {
            return Ok(Reach::There(node));
        }
        // Loading takes a database round trip; rooms already running stay reachable meanwhile.
        let _loading = self.loading.lock().await;
        if self.running.get(id).is_some() {
            return Ok(Reach::Here);
        }
        let not_found = || {
            ApiError::new(
                ErrorReason::MatchNotFound { id: id.0 },
                format!("there is no match {}", id.0),
            )
        };
        match self.ctx.cluster.locate(id).await?.ok_or_else(not_found)? {
            Place::There(node) => Ok(Reach::There(node)),
            Place::Here(epoch) => {
                // Read once the match is taken: a takeover waits for the last owner's writes.
                let stored = self.ctx.store.load_match(id).await?.ok_or_else(not_found)?;
                let room = Room::restore(stored, self.ctx.clone(), epoch)?;
                self.start(id, room, epoch)?;
                Ok(Reach::Here)
            }
        }
    }

    /// Sends a command to a match's room and waits for its answer, of the kind the command
    /// answers with (see [`Command`]).
    pub async fn ask<T>(&self, id: MatchId, command: Command) -> ApiResult<T>
    where
        T: TryFrom<Answer, Error = ApiError>,
    {
        self.request(id, command, true).await?.try_into()
    }

    /// Runs a command another node sent for a match it found this node owns, and answers it:
    /// refused if the match moved meanwhile (never sent on again, so that two nodes cannot pass
    /// it back and forth).
    pub async fn answer_here(&self, id: MatchId, command: Command) -> ApiResult<Answer> {
        self.request(id, command, false).await
    }

    async fn request(&self, id: MatchId, command: Command, onward: bool) -> ApiResult<Answer> {
        let (reply, answer) = oneshot::channel();
        self.deliver(id, command, Some(reply), onward).await?;
        answer.await.map_err(|_| stopped())?
    }

    /// Queues a command for a match's room, starting the room from the store when it is not
    /// running (its match ended and nobody followed it any more, or it went to sleep), or sends
    /// it to the node that runs it (`onward`).
    async fn deliver(
        &self,
        id: MatchId,
        command: Command,
        reply: Reply,
        onward: bool,
    ) -> ApiResult<()> {
        let mut mail = Mail::Command(command, reply);
        // A room just started closes again only after serving a command, so the second try
        // finds it; the third is for a room that closed in between.
        for _ in 0..3 {
            mail = match self.running.try_send(id, mail) {
                Ok(()) => return Ok(()),
                // A room with a full queue is busy, so it is not about to sleep: wait for space.
                Err(TrySendError::Full(mail)) => match self.running.get(id) {
                    Some(room) => return room.send(mail).await.map_err(|_| stopped()),
                    None => mail,
                },
                Err(TrySendError::Closed(mail)) => mail,
            };
            match self.room(id).await? {
                Reach::Here => {}
                Reach::There(node) if onward => {
                    let Mail::Command(command, reply) = mail else {
                        return Err(stopped());
                    };
                    return self.forward(node, id, command, reply).await;
                }
                Reach::There(_) => return Err(ApiError::new(ErrorReason::MatchMoved, MOVED)),
            }
        }
        Err(stopped())
    }

    /// Sends a command to the node that owns its match, and gives its answer to the waiting
    /// reply channel. If that node lost the match or does not answer (it died), the command
    /// goes where the match is now: on to its new owner, or into its room here.
    async fn forward(
        &self,
        mut node: NodeId,
        id: MatchId,
        command: Command,
        reply: Reply,
    ) -> ApiResult<()> {
        let cluster = &self.ctx.cluster;
        if let Command::Unwatch { conn, .. } = &command {
            cluster.unfollows(*conn, id);
        }
        for _ in 0..3 {
            if let Command::Watch {
                conn,
                outbox: Some(outbox),
                ..
            } = &command
            {
                cluster.follows_remotely(*conn, id, node, outbox.clone());
            }
            let asked = Call::Room {
                match_id: id,
                command: command.clone(),
            };
            let answer = cluster.call(node, asked).await;
            let moved = answer
                .as_ref()
                .is_err_and(|e| e.code == ErrorCode::Internal);
            if !moved {
                wire::give(reply, answer);
                return Ok(());
            }
            cluster.forget_owner(id);
            match self.room(id).await {
                Ok(Reach::There(next)) if next != node => node = next,
                Ok(Reach::Here) => {
                    if let Command::Watch { conn, .. } = &command {
                        cluster.unfollows(*conn, id);
                    }
                    return Box::pin(self.deliver(id, command, reply, false)).await;
                }
                // Still there, or nowhere: what it said stands.
                _ => {
                    wire::give(reply, answer);
                    return Ok(());
                }
            }
        }
        Err(stopped())
    }

    /// Tells a match's room something without waiting for an answer (a socket left, a
    /// vacation began), here or on the node that runs it: a room that is not running anywhere
    /// has nothing to be told.
    pub async fn tell(&self, id: MatchId, command: Command) {
        let mail = match self.running.try_send(id, Mail::Command(command, None)) {
            Err(TrySendError::Full(mail)) => match self.running.get(id) {
                Some(room) => {
                    let _ = room.send(mail).await;
                    return;
                }
                None => mail,
            },
            Err(TrySendError::Closed(mail)) => mail,
            Ok(()) => return,
        };
        let cluster = &self.ctx.cluster;
        let owner = match cluster.known_owner(id) {
            Some(node) => Some(node),
            None => {
                let owner = self
                    .ctx
                    .store
                    .match_owner(id, crate::cluster::alive_since());
                owner
                    .await
                    .ok()
                    .flatten()
                    .filter(|o| o.live)
                    .map(|o| o.node)
            }
        };
        if let Some(node) = owner.filter(|n| *n != cluster.node())
            && let Mail::Command(command, _) = mail
        {
            if let Command::Unwatch { conn, .. } = &command {
                self.ctx.cluster.unfollows(*conn, id);
            }
            let cluster = self.ctx.cluster.clone();
            let call = Call::Room {
                match_id: id,
                command,
            };
            tokio::spawn(async move {
                let _ = cluster.call(node, call).await;
            });
        }
    }
}
