//! Sockets: the types a socket is known by (its id, the frames it is sent, its outbox), how many
//! are open per player (and per address for visitors' sockets), every player's open sockets,
//! and the sockets that follow each tournament and the lobby's chat, so that actors without a
//! socket of their own (the tournament director, the lobby) can reach them: a socket is
//! registered when it says `hello` and forgotten when it closes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use protocol::{PlayerId, ServerMessage, TournamentId};
use tokio::sync::mpsc;

/// Identifies one socket across the rooms it follows.
pub type ConnId = u64;

/// A rendered server message, shared by every socket it goes to.
pub type Frame = Arc<str>;

/// Where a socket receives its frames. Bounded: a socket that falls this far behind is dropped
/// from a room and must resume.
pub type Outbox = mpsc::Sender<Frame>;

pub const OUTBOX_FRAMES: usize = 256;

/// A message as sockets send it.
pub fn frame(message: &ServerMessage) -> Frame {
    Frame::from(serde_json::to_string(message).expect("protocol messages serialise"))
}

/// Sockets to close now: those of one session (a logout), every one of a player (a ban), or
/// one socket whose match's room moved to another node (it reconnects and resumes).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Revocation {
    Session(String),
    Player(PlayerId),
    Reconnect(ConnId),
}

/// Whom a socket counts against for the cap on open sockets: its player, or, for a visitor's
/// socket (opened without a session), the address it comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Player(PlayerId),
    Visitor(IpAddr),
}

/// Whom a frame sent to sockets that may be on any node is for.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Fanout {
    /// Every socket of a player.
    Player { player: PlayerId },
    /// Every socket of these players and every socket following the tournament, once each.
    Tournament {
        tournament: TournamentId,
        players: Vec<PlayerId>,
    },
    /// The sockets following the lobby's chat, but those of these players (who muted its
    /// author).
    Lobby { except: Vec<PlayerId> },
}

/// Sends a frame to the sockets of the other nodes (set when the node joins a cluster).
pub type Elsewhere = Box<dyn Fn(&Fanout, &Frame) + Send + Sync>;

#[derive(Default)]
pub struct Sockets {
    inner: Mutex<Registry>,
    elsewhere: std::sync::OnceLock<Elsewhere>,
}

#[derive(Default)]
struct Registry {
    /// Sockets open per owner, hello said or not: what the caps count.
    open: HashMap<Owner, u32>,
    players: HashMap<PlayerId, Vec<(ConnId, Outbox)>>,
    tournaments: HashMap<TournamentId, Vec<(ConnId, Outbox)>>,
    /// The sockets following the lobby's chat, with their player (none for a visitor's).
    lobby: Vec<(ConnId, Option<PlayerId>, Outbox)>,
}

impl Sockets {
    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        // Nothing here can panic while the lock is held; recover rather than poison everyone.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many sockets `owner` has open.
    pub fn open_count(&self, owner: Owner) -> u32 {
        self.registry().open.get(&owner).copied().unwrap_or(0)
    }

    /// Counts one more open socket of `owner`, unless they have `most` already (false).
    pub fn try_open(&self, owner: Owner, most: u32) -> bool {
        let mut registry = self.registry();
        let open = registry.open.entry(owner).or_default();
        if *open >= most {
            return false;
        }
        *open += 1;
        true
    }

    /// A socket counted by [`Sockets::try_open`] closed.
    pub fn close(&self, owner: Owner) {
        let mut registry = self.registry();
        if let Some(open) = registry.open.get_mut(&owner) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                registry.open.remove(&owner);
            }
        }
    }

    /// A socket of `player` said hello: the server may reach them through it. True if it is
    /// the player's first here.
    pub fn register(&self, player: PlayerId, conn: ConnId, outbox: Outbox) -> bool {
        let mut registry = self.registry();
        let sockets = registry.players.entry(player).or_default();
        sockets.retain(|(c, _)| *c != conn);
        sockets.push((conn, outbox));
        sockets.len() == 1
    }

    /// A socket closed: it leaves every list (a visitor's, `player` none, is only in those of
    /// tournaments and the lobby). True if it was its player's last here.
    pub fn unregister(&self, player: Option<PlayerId>, conn: ConnId) -> bool {
        let mut registry = self.registry();
        let keep = |sockets: &mut Vec<(ConnId, Outbox)>| {
            sockets.retain(|(c, _)| *c != conn);
            !sockets.is_empty()
        };
        // Only its player's list: going through every player's would make each close cost as
        // much as all open sockets, and a server's sockets often close all at once.
        let mut last = false;
        if let Some(player) = player
            && let Some(sockets) = registry.players.get_mut(&player)
            && !keep(sockets)
        {
            registry.players.remove(&player);
            last = true;
        }
        registry.tournaments.retain(|_, sockets| keep(sockets));
        registry.lobby.retain(|(c, _, _)| *c != conn);
        last
    }

    /// A socket follows a tournament.
    pub fn watch_tournament(&self, tournament: TournamentId, conn: ConnId, outbox: Outbox) {
        let mut registry = self.registry();
        let sockets = registry.tournaments.entry(tournament).or_default();
        sockets.retain(|(c, _)| *c != conn);
        sockets.push((conn, outbox));
    }

    /// Whether `player` has a socket open here (that said hello).
    pub fn online(&self, player: PlayerId) -> bool {
        self.registry().players.contains_key(&player)
    }

    /// A socket follows the lobby's chat.
    pub fn watch_lobby(&self, conn: ConnId, player: Option<PlayerId>, outbox: Outbox) {
        let mut registry = self.registry();
        registry.lobby.retain(|(c, _, _)| *c != conn);
        registry.lobby.push((conn, player, outbox));
    }

    pub fn unwatch_lobby(&self, conn: ConnId) {
        self.registry().lobby.retain(|(c, _, _)| *c != conn);
    }

    /// From now on, frames for sockets anywhere go to the other nodes too.
    pub fn reach_elsewhere(&self, elsewhere: Elsewhere) {
        let _ = self.elsewhere.set(elsewhere);
    }

    /// Sends a frame to the sockets it is for, on this node and every other.
    pub fn send(&self, to: Fanout, frame: &Frame) {
        if let Some(elsewhere) = self.elsewhere.get() {
            elsewhere(&to, frame);
        }
        self.deliver(&to, frame);
    }

    /// Sends a frame to the sockets it is for on this node.
    pub fn deliver(&self, to: &Fanout, frame: &Frame) {
        match to {
            Fanout::Player { player } => self.to_player(*player, frame),
            Fanout::Tournament {
                tournament,
                players,
            } => self.to_tournament(*tournament, players, frame),
            Fanout::Lobby { except } => self.to_lobby(frame, except),
        }
    }

    fn to_lobby(&self, frame: &Frame, except: &[PlayerId]) {
        for (_, player, outbox) in self.registry().lobby.iter() {
            if !player.is_some_and(|p| except.contains(&p)) {
                let _ = outbox.try_send(frame.clone());
            }
        }
    }

    fn to_player(&self, player: PlayerId, frame: &Frame) {
        let registry = self.registry();
        let sockets = registry.players.get(&player).map_or(&[][..], Vec::as_slice);
        for (_, outbox) in sockets {
            // A socket this far behind resumes by other means (REST, `watch`).
            let _ = outbox.try_send(frame.clone());
        }
    }

    fn to_tournament(&self, tournament: TournamentId, players: &[PlayerId], frame: &Frame) {
        let registry = self.registry();
        let mut sent: Vec<ConnId> = Vec::new();
        let entrants = players
            .iter()
            .filter_map(|p| registry.players.get(p))
            .flatten();
        let watchers = registry.tournaments.get(&tournament).into_iter().flatten();
        for (conn, outbox) in entrants.chain(watchers) {
            if !sent.contains(conn) {
                sent.push(*conn);
                let _ = outbox.try_send(frame.clone());
            }
        }
    }
}
