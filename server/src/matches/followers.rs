//! The sockets following a match, and the events they are sent. Each event gets the next
//! sequence number and is rendered once per class of viewer (each seat, then the spectators; one
//! class when the game shows everyone the same), so hidden information never reaches the wrong
//! socket and a move is serialised once per class, not once per socket. The last few rendered
//! events are kept for followers that resume.

use std::collections::VecDeque;

use protocol::{MatchEvent, MatchId, PlayerId, Seq, ServerMessage};

use crate::sockets::{ConnId, Frame, Outbox, frame};

struct Follower {
    conn: ConnId,
    player: Option<PlayerId>,
    /// The seat whose view this socket gets; `None` for spectators.
    viewer: Option<u8>,
    outbox: Outbox,
}

pub struct Followers {
    match_id: MatchId,
    seats: usize,
    /// The game shows every viewer the same: one rendering serves everyone.
    one_view: bool,
    followers: Vec<Follower>,
    /// The number of the last event.
    seq: u64,
    /// The most recent events, each rendered for every class of viewer.
    recent: VecDeque<(u64, Vec<Frame>)>,
    /// How many events `recent` holds at most.
    keep: usize,
    /// For a room rebuilt from the store (after a restart, on another node, after a sleep): the
    /// number of the match's last stored event. The room before it may have given the numbers
    /// after it to events that were never stored (a draw offer, a disconnect), which this room
    /// gives again to its own: a `since` past it may not mean here what it meant there.
    rebuilt_at: Option<u64>,
}

impl Followers {
    /// Nobody follows yet; `seq` is the number of the match's last stored event, from which a
    /// rebuilt room goes on (see [`Followers::opened_here`] for a new match).
    pub fn new(match_id: MatchId, seats: usize, one_view: bool, seq: u64, keep: usize) -> Self {
        Followers {
            match_id,
            seats,
            one_view,
            followers: Vec::new(),
            seq,
            recent: VecDeque::new(),
            keep,
            rebuilt_at: Some(seq),
        }
    }

    /// The match is new, opened by this room: every number is its own.
    pub fn opened_here(&mut self) {
        self.rebuilt_at = None;
    }

    /// The number of the last event.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    pub fn is_empty(&self) -> bool {
        self.followers.is_empty()
    }

    /// How many spectator sockets (holding no seat) follow the match.
    pub fn watchers(&self) -> u32 {
        self.followers.iter().filter(|f| f.viewer.is_none()).count() as u32
    }

    /// Sends every follower a frame that is not a match event: not numbered, not kept for
    /// resumes, and not worth dropping a follower for when its outbox is full.
    pub fn tell(&self, frame: &Frame) {
        self.tell_some(frame, |_, _| true);
    }

    /// The same, to the followers `to` picks by whether they hold a seat and whose they are (a
    /// chat message, which each channel's readers get).
    pub fn tell_some(&self, frame: &Frame, to: impl Fn(bool, Option<PlayerId>) -> bool) {
        for f in self
            .followers
            .iter()
            .filter(|f| to(f.viewer.is_some(), f.player))
        {
            let _ = f.outbox.try_send(frame.clone());
        }
    }

    /// Every socket that follows the match.
    pub fn conns(&self) -> Vec<ConnId> {
        self.followers.iter().map(|f| f.conn).collect()
    }

    /// Whether this socket follows the match.
    pub fn follows(&self, conn: ConnId) -> bool {
        self.followers.iter().any(|f| f.conn == conn)
    }

    /// Whether a socket of this player follows the match.
    pub fn include(&self, player: PlayerId) -> bool {
        self.followers.iter().any(|f| f.player == Some(player))
    }

    /// Adds a socket (replacing its earlier following, if any); `frames` are sent to it first.
    pub fn add(
        &mut self,
        conn: ConnId,
        player: Option<PlayerId>,
        viewer: Option<u8>,
        outbox: Outbox,
        frames: Vec<Frame>,
    ) {
        self.remove(conn);
        for frame in frames {
            let _ = outbox.try_send(frame);
        }
        self.followers.push(Follower {
            conn,
            player,
            viewer,
            outbox,
        });
    }

    /// Removes a socket; returns its player, if it followed the match.
    pub fn remove(&mut self, conn: ConnId) -> Option<PlayerId> {
        let at = self.followers.iter().position(|f| f.conn == conn)?;
        self.followers.remove(at).player
    }

    /// Exactly the events after `since`, as `viewer` sees them, if every one is still held and
    /// `since` surely names the event it named when the client saw it (see `rebuilt_at`).
    pub fn missed(&self, since: u64, viewer: Option<u8>) -> Option<Vec<Frame>> {
        if self.rebuilt_at.is_some_and(|stored| since > stored) {
            return None;
        }
        let oldest = self.recent.front().map_or(self.seq + 1, |(seq, _)| *seq);
        let class = self.class_of(viewer);
        (since <= self.seq && since + 1 >= oldest).then(|| {
            self.recent
                .iter()
                .filter(|(seq, _)| *seq > since)
                .map(|(_, frames)| frames[class].clone())
                .collect()
        })
    }

    /// Numbers an event, renders it for every class of viewer, sends it to every follower and
    /// keeps it for those that resume. A follower whose outbox is full or closed is dropped.
    pub fn broadcast(&mut self, event_for: impl Fn(Option<u8>) -> MatchEvent) {
        let unreached: Vec<ConnId> = (self.number(event_for).into_iter())
            .filter_map(|(conn, outbox, frame)| outbox.try_send(frame).is_err().then_some(conn))
            .collect();
        self.drop_unreached(&unreached);
    }

    /// Numbers an event, renders it for every class of viewer and keeps it for those that
    /// resume, but sends nothing: returns each follower's frame, to be sent once the event may
    /// be seen (when what it tells is durable).
    pub fn number(
        &mut self,
        event_for: impl Fn(Option<u8>) -> MatchEvent,
    ) -> Vec<(ConnId, Outbox, Frame)> {
        self.seq += 1;
        let seq = Seq(self.seq);
        let frames: Vec<Frame> = self
            .classes()
            .into_iter()
            .map(|viewer| {
                frame(&ServerMessage::Event {
                    match_id: self.match_id,
                    seq,
                    event: event_for(viewer),
                })
            })
            .collect();
        let to_send = (self.followers.iter())
            .map(|f| {
                let class = self.class_of(f.viewer);
                (f.conn, f.outbox.clone(), frames[class].clone())
            })
            .collect();
        self.recent.push_back((self.seq, frames));
        while self.recent.len() > self.keep {
            self.recent.pop_front();
        }
        to_send
    }

    /// Takes back the last numbered event, which was never sent: what it told did not happen.
    pub fn unnumber(&mut self) {
        if self.recent.back().is_some_and(|(seq, _)| *seq == self.seq) {
            self.recent.pop_back();
        }
        self.seq -= 1;
    }

    /// Drops the followers an event did not reach (their outbox was full or closed): a
    /// follower that misses an event must resume rather than go on without it.
    pub fn drop_unreached(&mut self, unreached: &[ConnId]) {
        if !unreached.is_empty() {
            self.followers.retain(|f| !unreached.contains(&f.conn));
        }
    }

    /// The viewers an event is rendered for, one per class: every seat, then the spectators.
    /// A game that shows everyone the same has one class, the spectators, whose rendering
    /// every viewer gets.
    fn classes(&self) -> Vec<Option<u8>> {
        if self.one_view {
            return vec![None];
        }
        (0..self.seats as u8).map(Some).chain([None]).collect()
    }

    fn class_of(&self, viewer: Option<u8>) -> usize {
        class_of(self.one_view, self.seats, viewer)
    }
}

/// Which rendered copy of an event a viewer gets: an index into [`Followers::classes`].
fn class_of(one_view: bool, seats: usize, viewer: Option<u8>) -> usize {
    if one_view {
        0
    } else {
        viewer.map_or(seats, usize::from)
    }
}
