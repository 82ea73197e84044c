//! Several server nodes on one PostgreSQL, as real processes on 127.0.0.1: two players on
//! different nodes play a whole Copenhagen match while its owner is killed (SIGKILL) and
//! another node takes it over; spectators on a third node see every event once, in order; a
//! paused owner that wakes after losing its match cannot write it; players queued on
//! different nodes are paired; a tournament goes on after its director's node dies; a rolling
//! restart of every node during a match loses nothing; and a seek posted on one node is listed
//! and taken on another, and goes everywhere when its poster's last socket, on any node, closes.
//!
//! Clients here do what the browser client does: when a node closes their socket (1012) or
//! dies, they connect to another node and resume by sequence number; a command refused as
//! `internal` (its match was moving) is sent again with the same id, which the server answers
//! once.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::process::ServerProcess;
use common::{Backend, corpus_game, fresh_database, register};
use futures_util::{SinkExt, StreamExt};
use protocol::{
    Ack, ClientMessage, CommandId, ErrorCode, MatchEvent, MatchId, MatchRecord, PlayerProfile, Seq,
    ServerMessage, Session, TournamentDetails,
};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The longest a test waits for a match to come back after its node went away.
const FAILOVER_PATIENCE: Duration = Duration::from_secs(30);

/// Starts `n` nodes on one database, one after another (the first runs the migrations).
async fn nodes(url: &str, n: usize, extra: &[&str]) -> Vec<ServerProcess> {
    let mut nodes = Vec::new();
    for i in 0..n {
        let name = format!("node-{i}");
        let level = std::env::var("CLUSTER_TEST_LOG").unwrap_or_else(|_| "warn".into());
        let mut args = vec!["--log", level.as_str(), "--node-name", name.as_str()];
        args.extend_from_slice(extra);
        nodes.push(ServerProcess::start_with(url, &args).await);
    }
    nodes
}

fn addrs(nodes: &[ServerProcess]) -> Vec<SocketAddr> {
    nodes.iter().map(|n| n.addr).collect()
}

/// A socket following one match through whatever happens to nodes: it reconnects to the next
/// node in the list and resumes after the last event it had.
struct Follower {
    token: Option<String>,
    match_id: MatchId,
    ws: Option<Ws>,
    /// Which node of the list it last connected to.
    at: usize,
    /// The number of the last event had (or of the last snapshot).
    last: u64,
    /// Every event had, in order, with its number; `None` for a snapshot (the first, and any
    /// resume whose gap the room could not replay: one rebuilt on another node has no
    /// events in memory yet).
    events: Vec<(u64, Option<MatchEvent>)>,
    /// The moves as this socket knows them: a snapshot's, then each event's.
    moves: Vec<String>,
    /// Whether it knows the match is over.
    finished: bool,
    salt: u32,
    next_id: u64,
}

impl Follower {
    /// Follows a match from node `at` of `nodes`, from a snapshot.
    async fn new(nodes: &[SocketAddr], at: usize, token: Option<&str>, id: MatchId) -> Follower {
        let mut f = Follower {
            token: token.map(str::to_string),
            match_id: id,
            ws: None,
            at,
            last: 0,
            events: Vec::new(),
            moves: Vec::new(),
            finished: false,
            salt: rand::random(),
            next_id: 0,
        };
        f.reopen(nodes, false).await;
        f
    }

    fn fresh_id(&mut self) -> CommandId {
        self.next_id += 1;
        CommandId(format!("f{}-{:08x}", self.next_id, self.salt))
    }

    /// Connects to a live node (`at` first unless `move_on`), says hello and follows the match
    /// again from its last event.
    async fn reopen(&mut self, nodes: &[SocketAddr], move_on: bool) {
        if move_on {
            self.at += 1;
        }
        let deadline = Instant::now() + FAILOVER_PATIENCE;
        loop {
            assert!(Instant::now() < deadline, "no node took the follower back");
            let addr = nodes[self.at % nodes.len()];
            if self.try_open(addr).await {
                return;
            }
            self.at += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn try_open(&mut self, addr: SocketAddr) -> bool {
        self.ws = None;
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(token) = &self.token {
            let bearer = format!("Bearer {token}").parse().unwrap();
            request.headers_mut().insert("Authorization", bearer);
        }
        let Ok(Ok((ws, _))) = tokio::time::timeout(
            Duration::from_secs(2),
            tokio_tungstenite::connect_async(request),
        )
        .await
        else {
            return false;
        };
        self.ws = Some(ws);
        let hello = ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
        };
        if !self.send(&hello).await {
            return false;
        }
        let since = (self.last > 0).then_some(Seq(self.last));
        let match_id = self.match_id;
        let id = self.fresh_id();
        let watch = ClientMessage::Watch {
            id: id.clone(),
            match_id,
            since,
            invite: None,
        };
        if !self.send(&watch).await {
            return false;
        }
        matches!(self.answer(&id).await, Some(Ok(_)))
    }

    async fn send(&mut self, message: &ClientMessage) -> bool {
        let text = serde_json::to_string(message).unwrap();
        match self.ws.as_mut() {
            Some(ws) => ws.send(Message::Text(text.into())).await.is_ok(),
            None => false,
        }
    }

    /// The next message; `None` if the socket closed, failed or stayed silent too long.
    async fn read(&mut self) -> Option<ServerMessage> {
        let ws = self.ws.as_mut()?;
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), ws.next()).await;
            match frame {
                Ok(Some(Ok(Message::Text(text)))) => {
                    let message: ServerMessage = serde_json::from_str(&text).unwrap();
                    self.note(&message);
                    return Some(message);
                }
                Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) | Err(_) => {
                    self.ws = None;
                    return None;
                }
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Keeps this match's events and snapshot numbers.
    fn note(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Event {
                match_id,
                seq,
                event,
            } if *match_id == self.match_id => {
                match event {
                    MatchEvent::Acted {
                        action: Some(a), ..
                    } => self.moves.push(plain(a)),
                    MatchEvent::Finished { .. } => self.finished = true,
                    _ => {}
                }
                self.events.push((seq.0, Some(event.clone())));
                self.last = seq.0;
            }
            ServerMessage::Snapshot {
                match_id,
                seq,
                snapshot,
            } if *match_id == self.match_id => {
                self.moves = snapshot
                    .actions
                    .iter()
                    .flatten()
                    .map(|a| plain(a))
                    .collect();
                self.finished |= snapshot.result.is_some();
                self.events.push((seq.0, None));
                self.last = seq.0;
            }
            _ => {}
        }
    }

    /// The answer to the command with this id: `None` if the socket went away first.
    async fn answer(&mut self, id: &CommandId) -> Option<Result<Ack, ErrorCode>> {
        loop {
            match self.read().await? {
                ServerMessage::Ack { id: got, ack } if got == *id => return Some(Ok(ack)),
                ServerMessage::Error {
                    id: Some(got),
                    error,
                } if got == *id => return Some(Err(error.code)),
                _ => {}
            }
        }
    }

    /// Sends a command until it is answered other than `internal`, through whichever node is
    /// up, always with the same id: the server carries it out once.
    async fn command(
        &mut self,
        nodes: &[SocketAddr],
        make: impl Fn(CommandId) -> ClientMessage,
    ) -> Result<Ack, ErrorCode> {
        let id = self.fresh_id();
        let deadline = Instant::now() + FAILOVER_PATIENCE;
        loop {
            assert!(Instant::now() < deadline, "the command was never answered");
            if self.ws.is_none() {
                self.reopen(nodes, true).await;
            }
            if self.send(&make(id.clone())).await {
                match self.answer(&id).await {
                    Some(Err(ErrorCode::Internal)) => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Some(answer) => return answer,
                    None => {}
                }
            }
        }
    }

    /// Plays `action` in `seat`, which must be accepted.
    async fn act(&mut self, nodes: &[SocketAddr], seat: u8, action: &str) -> Ack {
        let match_id = self.match_id;
        let act = |id| ClientMessage::Act {
            id,
            match_id,
            seat,
            action: action.to_string(),
        };
        self.command(nodes, act)
            .await
            .unwrap_or_else(|e| panic!("{action} in seat {seat} was refused: {e:?}"))
    }

    /// The legal actions of `seat` now.
    async fn legal(&mut self, nodes: &[SocketAddr], seat: u8) -> Vec<String> {
        let match_id = self.match_id;
        let legal = |id| ClientMessage::Legal { id, match_id, seat };
        let ack = self.command(nodes, legal).await.expect("legal actions");
        ack.actions.expect("a list of actions")
    }

    /// The clock `seat` had left after the last action before event `before`.
    fn clock_before(&self, seat: u8, before: usize) -> u64 {
        self.events[..before]
            .iter()
            .rev()
            .find_map(|(_, e)| match e {
                Some(MatchEvent::Acted { clocks_ms, .. }) => {
                    clocks_ms.as_ref().map(|c| c[usize::from(seat)])
                }
                _ => None,
            })
            .expect("a timed action")
    }

    /// Reads (reconnecting as needed) until it knows the match is over.
    async fn until_finished(&mut self, nodes: &[SocketAddr]) {
        let deadline = Instant::now() + FAILOVER_PATIENCE;
        loop {
            if self.finished {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the event never came to {:?} (last event {}, node {})",
                self.token.as_ref().map(|t| &t[..6]),
                self.last,
                self.at
            );
            if self.read().await.is_none() {
                self.reopen(nodes, true).await;
            }
        }
    }

    /// Reads until it has had event `seq`.
    async fn until_seq(&mut self, seq: u64) {
        while self.last < seq {
            assert!(self.read().await.is_some(), "event {seq} never came");
        }
    }

    /// Each event had must be numbered one more than what came before it (an event or a
    /// snapshot): none missing, none twice; a snapshot never goes back.
    fn assert_gapless(&self, who: &str) {
        for pair in self.events.windows(2) {
            let ((before, _), (seq, event)) = (&pair[0], &pair[1]);
            match event {
                Some(_) => assert_eq!(*seq, before + 1, "{who}: events out of sequence: {pair:?}"),
                None => assert!(seq >= before, "{who}: a snapshot went back: {pair:?}"),
            }
        }
    }
}

/// A tafl move without its captures (`d1-d4xd5` is `d1-d4`).
fn plain(action: &str) -> String {
    action.split('x').next().unwrap().to_string()
}

/// A fresh PostgreSQL database: several nodes share one.
async fn database() -> String {
    fresh_database(Backend::Postgres).await
}

/// `alice` (seat 0) creates a rated Copenhagen match with a clock on `create_at`, `bjorn` joins
/// on `join_at`.
async fn rated_match(
    create_at: SocketAddr,
    join_at: SocketAddr,
    alice: &Session,
    bjorn: &Session,
) -> MatchId {
    let mut a = common::Client::connect(create_at, &alice.token).await;
    let mut b = common::Client::connect(join_at, &bjorn.token).await;
    let clock = json!({"base_ms": 600_000, "increment_ms": 5_000});
    let options = json!({"rated": true, "clock": clock});
    let match_id = a
        .ok(|id| common::create(id, "tafl", "copenhagen", options))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, match_id)).await;
    a.close().await;
    b.close().await;
    match_id
}

/// Plays `moves` from ply `from`, seat 0 (`a`) and seat 1 (`b`) in turn; the ply after.
async fn play(
    a: &mut Follower,
    b: &mut Follower,
    at: &[SocketAddr],
    moves: &[String],
    from: usize,
) -> usize {
    for (i, mv) in moves.iter().enumerate() {
        let seat = ((from + i) % 2) as u8;
        let mover = if seat == 0 { &mut *a } else { &mut *b };
        mover.act(at, seat, mv).await;
    }
    from + moves.len()
}

async fn tournament(addr: SocketAddr, id: protocol::TournamentId) -> TournamentDetails {
    let path = format!("/api/tournaments/{}", id.0);
    serde_json::from_value(common::get(addr, &path).await).unwrap()
}

async fn record(addr: SocketAddr, id: MatchId) -> MatchRecord {
    serde_json::from_value(common::get(addr, &format!("/api/matches/{}", id.0)).await).unwrap()
}

async fn profile(addr: SocketAddr, player: &Session) -> PlayerProfile {
    let path = format!("/api/players/{}", player.player.id.0);
    serde_json::from_value(common::get(addr, &path).await).unwrap()
}

/// The record has every move in order and one result; each player's rating moved once.
async fn assert_kept(
    addr: SocketAddr,
    id: MatchId,
    moves: &[String],
    winner: u8,
    players: [&Session; 2],
) {
    let r = record(addr, id).await;
    let played: Vec<String> = r.actions.iter().filter_map(|a| a.action.clone()).collect();
    let played: Vec<String> = played.iter().map(|m| plain(m)).collect();
    assert_eq!(
        played, moves,
        "every acknowledged move is stored, once, in order"
    );
    let result = r.summary.result.expect("the match has a result");
    assert_eq!(result.places[usize::from(winner)], 0, "the winner won");
    assert_eq!(result.ratings.len(), 2, "both ratings changed");
    for p in players {
        let history = profile(addr, p).await.history;
        let here: Vec<_> = history.iter().filter(|h| h.match_id == id).collect();
        assert_eq!(here.len(), 1, "one rating change per player for the match");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_goes_on_when_its_owner_is_killed() {
    let url = database().await;
    let mut nodes = nodes(&url, 3, &[]).await;
    let at = addrs(&nodes);
    let health = common::get(at[2], "/api/health").await;
    assert_eq!(health["nodes"].as_array().unwrap().len(), 3, "{health}");
    assert_eq!(health["node"]["name"], "node-2");

    let alice = register(at[0], "alice").await;
    let bjorn = register(at[1], "bjorn").await;
    // Made on node 0, which owns it.
    let id = rated_match(at[0], at[1], &alice, &bjorn).await;
    let owner: Value = common::get(at[0], "/api/health").await;
    assert_eq!(owner["owned_matches"], 1, "{owner}");

    let mut a = Follower::new(&at, 0, Some(&alice.token), id).await;
    let mut b = Follower::new(&at, 1, Some(&bjorn.token), id).await;
    let mut watchers = [
        Follower::new(&at, 2, None, id).await,
        Follower::new(&at, 2, None, id).await,
    ];

    let (moves, winner) = corpus_game(30);
    let half = moves.len() / 2;
    for (ply, mv) in moves.iter().enumerate().take(half) {
        let seat = (ply % 2) as u8;
        let mover = if seat == 0 { &mut a } else { &mut b };
        mover.act(&at, seat, mv).await;
    }
    let events_before = if half % 2 == 0 {
        a.events.len()
    } else {
        b.events.len()
    };

    // The owner dies in the middle of the game.
    nodes.remove(0).kill();
    let killed = Instant::now();
    let at = addrs(&nodes);
    let mover_seat = (half % 2) as u8;
    {
        let mover = if mover_seat == 0 { &mut a } else { &mut b };
        mover.reopen(&at, false).await;
        mover.act(&at, mover_seat, &moves[half]).await;
    }
    let failover = killed.elapsed();
    eprintln!("first move acknowledged on the new owner {failover:?} after the kill");
    for (ply, mv) in moves.iter().enumerate().skip(half + 1) {
        let seat = (ply % 2) as u8;
        let mover = if seat == 0 { &mut a } else { &mut b };
        mover.act(&at, seat, mv).await;
    }
    for f in [&mut a, &mut b].into_iter().chain(watchers.iter_mut()) {
        f.until_finished(&at).await;
    }
    for (i, w) in watchers.iter().enumerate() {
        w.assert_gapless(&format!("spectator {i}"));
        assert_eq!(w.moves, moves, "spectator {i} knows every move, once");
    }
    a.assert_gapless("alice");
    b.assert_gapless("bjorn");
    assert_kept(at[0], id, &moves, winner, [&alice, &bjorn]).await;

    // The mover's clock was not charged for the time the match had no owner.
    let mover = if mover_seat == 0 { &a } else { &b };
    let left_before = mover.clock_before(mover_seat, events_before);
    let left_after = mover.clock_before(mover_seat, events_before + 1 + mover.events[events_before..]
        .iter()
        .position(|(_, e)| matches!(e, Some(MatchEvent::Acted { seat, .. }) if *seat == mover_seat))
        .expect("the mover's move after the failover"));
    let charged = left_before as i64 - (left_after as i64 - 5_000);
    assert!(
        charged < failover.as_millis() as i64 - 1_000,
        "the mover's clock was charged {charged} ms across a failover of {failover:?}"
    );
}

/// A resume on the room rebuilt on another node misses nothing. The old owner numbered a draw
/// offer after the last stored event, and died: the new owner, which cannot know that number
/// was used, gives it to an event of its own. A spectator resuming from the draw offer's
/// number must not be sent what comes "after" it as if it had the new owner's event: it gets a
/// snapshot of the match as it is, then every event after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_after_a_failover_misses_nothing() {
    let url = database().await;
    let mut nodes = nodes(&url, 3, &[]).await;
    let at = addrs(&nodes);
    let alice = register(at[0], "alice").await;
    let bjorn = register(at[1], "bjorn").await;
    // Made on node 0, which owns it; everyone follows from the other nodes.
    let id = rated_match(at[0], at[1], &alice, &bjorn).await;
    let mut a = Follower::new(&at, 1, Some(&alice.token), id).await;
    let mut b = Follower::new(&at, 2, Some(&bjorn.token), id).await;
    let mut w = Follower::new(&at, 2, None, id).await;
    let (moves, _) = corpus_game(30);
    a.act(&at, 0, &moves[0]).await;
    b.act(&at, 1, &moves[1]).await;
    let match_id = id;
    let offered = a
        .command(&at, |id| ClientMessage::OfferDraw {
            id,
            match_id,
            seat: 0,
        })
        .await
        .expect("a draw offer")
        .seq
        .unwrap()
        .0;
    w.until_seq(offered).await;

    nodes.remove(0).kill();
    let at = addrs(&nodes);
    // Alice is back first, on the new owner, and moves: she knows every event it numbers.
    a.reopen(&at, false).await;
    a.act(&at, 0, &moves[2]).await;
    // The spectator's socket closed with its match's node; it resumes from the draw offer.
    while w.read().await.is_some() {}
    let resumed_at = w.events.len();
    w.reopen(&at, false).await;
    b.reopen(&at, false).await;
    b.act(&at, 1, &moves[3]).await;
    while w.moves.len() < 4 {
        assert!(w.read().await.is_some(), "the spectator has {:?}", w.moves);
    }
    assert_eq!(w.moves, moves[..4], "the spectator knows every move, once");
    w.assert_gapless("spectator");
    // Sent events after the resume, the spectator must have had the new owner's event under
    // its last number; otherwise the resume starts over from a snapshot.
    let (last, had) = w.events[resumed_at - 1].clone();
    if let (seq, Some(_)) = &w.events[resumed_at] {
        let theirs = a.events.iter().rfind(|(s, _)| *s == last).map(|(_, e)| e);
        assert_eq!(
            theirs,
            Some(&had),
            "resumed after event {last} with event {seq}, but the new owner's {last} is another"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_cannot_write_after_waking() {
    let url = database().await;
    let nodes = nodes(&url, 2, &[]).await;
    let at = addrs(&nodes);
    let alice = register(at[0], "alice").await;
    let bjorn = register(at[1], "bjorn").await;
    let id = rated_match(at[0], at[1], &alice, &bjorn).await;
    let (moves, _) = corpus_game(30);
    // Alice's socket on node 0, the owner; every other one on node 1.
    let mut stale = Follower::new(&at, 0, Some(&alice.token), id).await;
    let mut a = Follower::new(&at, 1, Some(&alice.token), id).await;
    let mut b = Follower::new(&at, 1, Some(&bjorn.token), id).await;
    a.act(&at, 0, &moves[0]).await;
    b.act(&at, 1, &moves[1]).await;

    // Node 0 stops for longer than its lease, with a move of alice's waiting in its socket.
    nodes[0].pause().await;
    let match_id = id;
    let waiting_id = stale.fresh_id();
    let waiting = ClientMessage::Act {
        id: waiting_id.clone(),
        match_id,
        seat: 0,
        action: moves[2].clone(),
    };
    assert!(stale.send(&waiting).await);
    tokio::time::sleep(Duration::from_secs(5)).await;
    // Node 1 takes the match over and plays another move in the same turn.
    let legal = a.legal(&at[1..], 0).await;
    let other = legal
        .iter()
        .find(|m| **m != moves[2])
        .unwrap_or_else(|| panic!("another legal move than {}: {legal:?}", moves[2]))
        .clone();
    a.act(&at[1..], 0, &other).await;
    let reply = b.legal(&at[1..], 1).await.remove(0);
    b.act(&at[1..], 1, &reply).await;

    // Node 0 wakes: alice's waiting move must not be written.
    nodes[0].resume();
    let answered = stale.answer(&waiting_id).await;
    assert!(
        !matches!(answered, Some(Ok(_))),
        "the stale owner acknowledged a move: {answered:?}"
    );
    let r = record(at[1], id).await;
    let played: Vec<String> = r.actions.iter().filter_map(|a| a.action.clone()).collect();
    assert_eq!(played.len(), 4, "{played:?}");
    assert_eq!(plain(&played[2]), other);
    // Node 0 is back in the cluster and sends its sockets' commands to the new owner.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut back = Follower::new(&at, 0, Some(&alice.token), id).await;
    let next = back.legal(&at, 0).await.remove(0);
    back.act(&at, 0, &next).await;
    let r = record(at[0], id).await;
    assert_eq!(r.actions.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_queued_on_different_nodes_are_paired() {
    let url = database().await;
    let nodes = nodes(&url, 3, &[]).await;
    let at = addrs(&nodes);
    let alice = register(at[1], "alice").await;
    let bjorn = register(at[2], "bjorn").await;
    let mut a = common::Client::connect(at[1], &alice.token).await;
    let mut b = common::Client::connect(at[2], &bjorn.token).await;
    let queue = |id| {
        serde_json::from_value(json!({"type": "queue_join", "id": id,
            "game": "tafl", "variant": "brandubh", "time_control": "blitz"}))
        .unwrap()
    };
    a.ok(|id| queue(id.0)).await;
    b.ok(|id| queue(id.0)).await;
    let matched = |m: &ServerMessage| matches!(m, ServerMessage::Matched { .. });
    let (ServerMessage::Matched { match_id: m1, .. }, ServerMessage::Matched { match_id: m2, .. }) = (
        a.message_where(matched).await,
        b.message_where(matched).await,
    ) else {
        unreachable!()
    };
    assert_eq!(m1, m2, "paired with each other");
    // They play on it, each from their own node.
    let r = record(at[0], m1).await;
    let seat_of = |s: &Session| {
        r.summary
            .players
            .iter()
            .position(|p| p.as_ref().is_some_and(|p| p.id == s.player.id))
            .unwrap() as u8
    };
    let (first, second) = match seat_of(&alice) {
        0 => ((&alice, 1), (&bjorn, 2)),
        _ => ((&bjorn, 2), (&alice, 1)),
    };
    let mut f0 = Follower::new(&at, first.1, Some(&first.0.token), m1).await;
    let mut f1 = Follower::new(&at, second.1, Some(&second.0.token), m1).await;
    let first_move = f0.legal(&at, 0).await.remove(0);
    f0.act(&at, 0, &first_move).await;
    let second_move = f1.legal(&at, 1).await.remove(0);
    f1.act(&at, 1, &second_move).await;
    assert_eq!(record(at[0], m1).await.actions.len(), 2);
    assert_eq!(seat_of(second.0), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_goes_on_when_its_directors_node_dies() {
    let url = database().await;
    let flags = ["--ai-move-ms", "20", "--tournament-poll-ms", "100"];
    // The first node runs the single jobs: it is alone when they are first claimed.
    let mut nodes = nodes(&url, 3, &flags).await;
    let at = addrs(&nodes);
    let organiser = register(at[1], "organiser").await;
    let post = |addr: SocketAddr, path: String, body: Value| {
        let token = organiser.token.clone();
        async move {
            let response = common::http()
                .post(format!("http://{addr}{path}"))
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "POST {path}");
            response.json::<TournamentDetails>().await.unwrap()
        }
    };
    let created = post(
        at[1],
        "/api/tournaments".into(),
        json!({"name": "Storm", "game": "tafl", "variant": "brandubh", "format": "round_robin",
               "time_control": "bullet"}),
    )
    .await;
    let id = created.summary.id;
    for level in 1..=4 {
        let path = format!("/api/tournaments/{}/entrants", id.0);
        post(at[2], path, json!({"ai_level": level})).await;
    }
    // Started from a node that does not run the director.
    post(at[2], format!("/api/tournaments/{}/start", id.0), json!({})).await;
    // Once its first games are under way, the director's node dies.
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let d = tournament(at[1], id).await;
            if d.rounds
                .first()
                .is_some_and(|r| r.games.iter().any(|g| g.match_id.is_some()))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the first round started");
    nodes.remove(0).kill();
    let d = tokio::time::timeout(Duration::from_secs(240), async {
        loop {
            let d = tournament(at[1], id).await;
            if d.summary.status == "finished" {
                return d;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
    .await
    .expect("the tournament finished on the other nodes");
    assert_eq!(
        d.rounds.len(),
        3,
        "a round robin of four plays three rounds"
    );
    for round in &d.rounds {
        for g in &round.games {
            assert!(g.outcome.is_some(), "every game has a result: {g:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_loses_nothing() {
    let url = database().await;
    let mut nodes = nodes(&url, 3, &[]).await;
    let alice = register(nodes[0].addr, "alice").await;
    let bjorn = register(nodes[1].addr, "bjorn").await;
    let id = rated_match(nodes[0].addr, nodes[1].addr, &alice, &bjorn).await;
    let at = addrs(&nodes);
    let mut a = Follower::new(&at, 0, Some(&alice.token), id).await;
    let mut b = Follower::new(&at, 1, Some(&bjorn.token), id).await;
    let mut w = Follower::new(&at, 2, None, id).await;
    let (moves, winner) = corpus_game(30);
    let mut ply = play(&mut a, &mut b, &at, &moves[..4], 0).await;
    // Each node in turn: stopped (SIGTERM), its matches handed over, started again.
    for i in 0..3 {
        nodes[i].terminate();
        let status = nodes[i].exit_within(Duration::from_secs(20)).await;
        assert!(
            status.is_some_and(|s| s.success()),
            "node {i} stopped cleanly"
        );
        let name = format!("node-{i}");
        nodes[i] = ServerProcess::start_with(&url, &["--log", "warn", "--node-name", &name]).await;
        let at = addrs(&nodes);
        ply = play(&mut a, &mut b, &at, &moves[ply..ply + 4], ply).await;
    }
    let at = addrs(&nodes);
    play(&mut a, &mut b, &at, &moves[ply..], ply).await;
    for f in [&mut a, &mut b, &mut w] {
        f.until_finished(&at).await;
    }
    w.assert_gapless("spectator");
    assert_kept(at[0], id, &moves, winner, [&alice, &bjorn]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_one_node_knows_every_node_knows() {
    let url = database().await;
    let nodes = nodes(&url, 3, &["--login-free-failures", "2"]).await;
    let at = addrs(&nodes);

    // A username locked after failed logins on one node is locked on the others.
    register(at[0], "carol").await;
    let login = |addr: SocketAddr, password: &'static str| async move {
        let body = json!({"username": "carol", "password": password});
        common::post(addr, "/api/login", body).await.status()
    };
    for _ in 0..3 {
        assert_eq!(login(at[0], "wrong").await, 401);
    }
    assert_eq!(
        login(at[1], "correct horse battery").await,
        429,
        "locked on node 1 too"
    );

    // A challenge to a player whose only socket is on another node reaches them, and its
    // acceptance reaches the challenger.
    let alice = register(at[0], "alice").await;
    let bjorn = register(at[1], "bjorn").await;
    let mut a = common::Client::connect(at[0], &alice.token).await;
    let mut b = common::Client::connect(at[1], &bjorn.token).await;
    let spec: protocol::ChallengeSpec = serde_json::from_value(json!({
        "player": bjorn.player.id, "game": "tafl", "variant": "brandubh"}))
    .unwrap();
    let made = a.ok(|id| ClientMessage::Challenge { id, spec }).await;
    let challenge_id = made.challenge_id.unwrap();
    let open = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeOpen { .. });
    b.message_where(open).await;
    let accepted = b
        .ok(|id| ClientMessage::AnswerChallenge {
            id,
            challenge_id,
            accept: true,
        })
        .await;
    let match_id = accepted.match_id.unwrap();
    let ended = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeEnded { .. });
    let ServerMessage::ChallengeEnded { match_id: told, .. } = a.message_where(ended).await else {
        unreachable!()
    };
    assert_eq!(told, Some(match_id));

    // Both follow it; node 2, which runs none of it, lists it with its position.
    let mut fa = Follower::new(&at, 0, Some(&alice.token), match_id).await;
    let mut fb = Follower::new(&at, 1, Some(&bjorn.token), match_id).await;
    let first = fa.legal(&at, 0).await.remove(0);
    fa.act(&at, 0, &first).await;
    let reply = fb.legal(&at, 1).await.remove(0);
    fb.act(&at, 1, &reply).await;
    let live = common::get(at[2], "/api/matches/live").await;
    let listed = live
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == match_id.0)
        .unwrap_or_else(|| panic!("node 2 lists the match: {live}"));
    assert!(listed["view"].is_object(), "with its position: {listed}");
    let mine = common::http()
        .get(format!("http://{}/api/me/games", at[2]))
        .bearer_auth(&alice.token)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        mine[0]["to_act"],
        json!([0]),
        "whose move, from node 2: {mine}"
    );

    // Every node's metrics name it and count the live nodes (as of its last heartbeat, at
    // most a second old).
    for addr in &at {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let metrics = common::get_text(*addr, "/metrics").await;
            if metrics.contains("tafl_cluster_nodes 3") && metrics.contains("tafl_node{id=") {
                break;
            }
            assert!(Instant::now() < deadline, "{metrics}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// The seeks a socket following the lobby is told, until `done` accepts them.
async fn seeks_until(c: &mut common::Client, done: impl Fn(&[MatchId]) -> bool) {
    loop {
        let is_seeks = |m: &ServerMessage| matches!(m, ServerMessage::Seeks { .. });
        let ServerMessage::Seeks { seeks } = c.message_where(is_seeks).await else {
            unreachable!("only seeks are taken")
        };
        if done(&seeks.iter().map(|s| s.id).collect::<Vec<_>>()) {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_posted_on_one_node_is_taken_on_another_and_goes_with_its_poster_everywhere() {
    let url = database().await;
    let nodes = nodes(&url, 2, &[]).await;
    let at = addrs(&nodes);
    let alice = register(at[0], "alice").await;
    let bjorn = register(at[1], "bjorn").await;
    let mut visitor = common::Client::visit(at[1]).await;
    visitor.ok(|id| ClientMessage::WatchLobby { id }).await;

    // Posted on node 0, listed live on node 1, taken there in one join.
    let mut a = common::Client::connect(at[0], &alice.token).await;
    let seek = |id: CommandId| common::create(id, "tafl", "copenhagen", json!({"rated": true}));
    let m = a.ok(seek).await.match_id.unwrap();
    seeks_until(&mut visitor, |s| s == [m]).await;
    let mut b = common::Client::connect(at[1], &bjorn.token).await;
    let taken = b.ok(|id| common::join(id, m)).await;
    assert_eq!(taken.seats, vec![1]);
    let started = |e: &MatchEvent| matches!(e, MatchEvent::Started { .. });
    a.event_where(m, started).await;
    seeks_until(&mut visitor, <[_]>::is_empty).await;

    // Alice posts again with a socket on each node: closing the one on node 0 leaves her on
    // node 1, and the seek stays; closing that one too, it goes, on every node.
    let mut a_elsewhere = common::Client::connect(at[1], &alice.token).await;
    let m = a.ok(seek).await.match_id.unwrap();
    seeks_until(&mut visitor, |s| s == [m]).await;
    a.close().await;
    tokio::time::sleep(server::lobby::departures::POSTER_GRACE + Duration::from_secs(1)).await;
    let open = common::get(at[1], "/api/matches/open").await;
    assert_eq!(
        open[0]["id"], m.0,
        "alice is still online on node 1: {open}"
    );
    a_elsewhere.ok(|id| ClientMessage::WatchLobby { id }).await;
    a_elsewhere.close().await;
    seeks_until(&mut visitor, <[_]>::is_empty).await;
    for node in &at {
        assert_eq!(common::get(*node, "/api/matches/open").await, json!([]));
    }
    assert_eq!(record(at[0], m).await.summary.status, "aborted");
}
