//! What the server tests share: a fresh database on each backend (a real PostgreSQL server,
//! started by `scripts/test`, and an SQLite file), a server started on a loopback port, and
//! WebSocket and REST clients that speak the protocol.
#![allow(dead_code)] // Each test binary uses its own part of this module.

pub mod process;

use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, CommandId, MatchEvent, MatchId, Seq, ServerMessage, Session};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one answer before it fails.
pub const PATIENCE: Duration = Duration::from_secs(10);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

/// A database URL nobody else uses: a new PostgreSQL database on the test server, or a new
/// SQLite file.
pub async fn fresh_database(backend: Backend) -> String {
    let name = format!("t{:016x}", rand::random::<u64>());
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join("tafl-server-tests");
            std::fs::create_dir_all(&dir).unwrap();
            format!("sqlite://{}", dir.join(format!("{name}.db")).display())
        }
        Backend::Postgres => {
            let admin = std::env::var("TEST_POSTGRES_URL").expect(
                "TEST_POSTGRES_URL is not set: run ./scripts/test, which starts PostgreSQL",
            );
            sqlx::any::install_default_drivers();
            let pool = sqlx::AnyPool::connect(&admin).await.unwrap();
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
            let base = admin.rsplit_once('/').unwrap().0;
            format!("{base}/{name}")
        }
    }
}

/// Runs one statement with these bound ids on the database at `url`: how a test leaves what a
/// crash, or an older server, would have left, or takes a table away from a running server.
pub async fn alter_database(url: &str, statement: &'static str, ids: &[i64]) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut query = sqlx::query(statement);
    for &id in ids {
        query = query.bind(id);
    }
    query.execute(&pool).await.unwrap();
    pool.close().await;
}

/// The per-address limits on making accounts are off in tests, unless a test sets them: every
/// test's players come from one address.
pub fn unlimited_accounts(extra: &[&str]) -> Vec<&'static str> {
    let mut args = Vec::new();
    for flag in ["--registrations-per-minute", "--guests-per-minute"] {
        if !extra.contains(&flag) {
            args.extend([flag, "0"]);
        }
    }
    args
}

/// The server's configuration for a test: loopback, an ephemeral port, the given database.
pub fn config(database_url: &str, extra: &[&str]) -> server::config::Config {
    let mut args = vec![
        "server",
        "--bind",
        "127.0.0.1:0",
        "--database-url",
        database_url,
    ];
    args.extend(unlimited_accounts(extra));
    args.extend_from_slice(extra);
    server::config::Config::parse_from(args)
}

/// A server on a fresh SQLite file with the default settings: what most browser tests need.
pub async fn sqlite_server() -> SocketAddr {
    start(&fresh_database(Backend::Sqlite).await, &[]).await
}

/// Starts a server in this process; it stops when the test's runtime ends.
pub async fn start(database_url: &str, extra: &[&str]) -> SocketAddr {
    server::start(config(database_url, extra))
        .await
        .unwrap()
        .addr
}

pub fn http() -> reqwest::Client {
    reqwest::Client::new()
}

pub async fn post(addr: SocketAddr, path: &str, body: Value) -> reqwest::Response {
    http()
        .post(format!("http://{addr}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

pub async fn get(addr: SocketAddr, path: &str) -> Value {
    let response = http()
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "GET {path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

/// A response header's value, empty when it is absent.
pub fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// The body of a GET, as text, whatever its status.
pub async fn get_text(addr: SocketAddr, path: &str) -> String {
    http()
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Registers a player and returns the session.
pub async fn register(addr: SocketAddr, name: &str) -> Session {
    let body = json!({"username": name, "password": "correct horse battery"});
    let response = post(addr, "/api/register", body).await;
    assert_eq!(response.status(), 200, "register {name}");
    response.json().await.unwrap()
}

pub async fn guest(addr: SocketAddr) -> Session {
    let response = post(addr, "/api/guest", json!({})).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// A WebSocket client: sends commands with fresh ids and keeps events that arrive while it waits
/// for an answer.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    id_salt: u32,
    /// Events and snapshots received but not yet taken by the test.
    pub pending: Vec<ServerMessage>,
}

impl Client {
    /// Connects with a session token and says hello.
    pub async fn connect(addr: SocketAddr, token: &str) -> Client {
        let mut client = Client::connect_raw(addr, token).await;
        client
            .send(&ClientMessage::Hello {
                version: protocol::PROTOCOL_VERSION,
            })
            .await;
        match client.next().await {
            ServerMessage::Welcome { .. } => client,
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// Connects without a session token, as a visitor, and says hello: welcomed without a
    /// player.
    pub async fn visit(addr: SocketAddr) -> Client {
        let mut client = Client::open(addr, None).await;
        client
            .send(&ClientMessage::Hello {
                version: protocol::PROTOCOL_VERSION,
            })
            .await;
        match client.next().await {
            ServerMessage::Welcome { player: None, .. } => client,
            other => panic!("expected a visitor's welcome, got {other:?}"),
        }
    }

    /// Connects without saying hello.
    pub async fn connect_raw(addr: SocketAddr, token: &str) -> Client {
        Client::open(addr, Some(token)).await
    }

    /// Connects with the session token in the URL (`/ws?token=`), as native clients that can
    /// set neither a header nor a cookie do, and says hello.
    pub async fn connect_in_url(addr: SocketAddr, token: &str) -> Client {
        let request = format!("ws://{addr}/ws?token={token}")
            .into_client_request()
            .unwrap();
        let mut client = Client::open_request(request).await;
        client
            .send(&ClientMessage::Hello {
                version: protocol::PROTOCOL_VERSION,
            })
            .await;
        match client.next().await {
            ServerMessage::Welcome {
                player: Some(_), ..
            } => client,
            other => panic!("expected a player's welcome, got {other:?}"),
        }
    }

    /// Connects, with a session token or without (a visitor), without saying hello.
    pub async fn open(addr: SocketAddr, token: Option<&str>) -> Client {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(token) = token {
            request
                .headers_mut()
                .insert("Authorization", format!("Bearer {token}").parse().unwrap());
        }
        Client::open_request(request).await
    }

    async fn open_request(
        request: tokio_tungstenite::tungstenite::handshake::client::Request,
    ) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Client {
            ws,
            next_id: 0,
            id_salt: rand::random(),
            pending: Vec::new(),
        }
    }

    pub async fn send(&mut self, message: &ClientMessage) {
        self.send_text(&serde_json::to_string(message).unwrap())
            .await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn send_message(&mut self, message: Message) {
        self.ws.send(message).await.unwrap();
    }

    /// The next message from the server.
    pub async fn next(&mut self) -> ServerMessage {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("the server answered in time")
                .expect("the socket is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                return serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("unparsable server message {text}: {e}"));
            }
        }
    }

    /// Every message that arrives within `span`; an error naming how the socket closed if it
    /// did meanwhile.
    pub async fn messages_for(&mut self, span: Duration) -> Result<Vec<ServerMessage>, String> {
        let deadline = tokio::time::Instant::now() + span;
        let mut got = Vec::new();
        loop {
            let frame = match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return Ok(got),
                Ok(None) => return Err(format!("the socket ended after {got:?}")),
                Ok(Some(frame)) => frame.map_err(|e| format!("{e} after {got:?}"))?,
            };
            match frame {
                Message::Text(text) => got.push(serde_json::from_str(&text).unwrap()),
                Message::Close(close) => return Err(format!("closed {close:?} after {got:?}")),
                _ => {}
            }
        }
    }

    /// A command id no other socket uses: the server takes a command whose id it has already
    /// carried out, for the same seat and action, as a resend.
    pub fn fresh_id(&mut self) -> CommandId {
        self.next_id += 1;
        CommandId(format!("c{}-{:08x}", self.next_id, self.id_salt))
    }

    /// Sends a command built with a fresh id and returns the server's ack or error for it;
    /// events arriving meanwhile are kept in `pending`.
    pub async fn request(
        &mut self,
        make: impl FnOnce(CommandId) -> ClientMessage,
    ) -> ServerMessage {
        let id = self.fresh_id();
        self.send(&make(id.clone())).await;
        self.answer(&id).await
    }

    /// Waits for the ack or error with this id.
    pub async fn answer(&mut self, id: &CommandId) -> ServerMessage {
        loop {
            let message = self.next().await;
            let answers = match &message {
                ServerMessage::Ack { id: got, .. } | ServerMessage::Error { id: Some(got), .. } => {
                    got == id
                }
                _ => false,
            };
            if answers {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// Sends a command and expects it to be carried out.
    pub async fn ok(&mut self, make: impl FnOnce(CommandId) -> ClientMessage) -> protocol::Ack {
        match self.request(make).await {
            ServerMessage::Ack { ack, .. } => ack,
            other => panic!("expected an ack, got {other:?}"),
        }
    }

    /// Sends a command and expects an error with this code.
    pub async fn refused(
        &mut self,
        code: protocol::ErrorCode,
        make: impl FnOnce(CommandId) -> ClientMessage,
    ) -> String {
        match self.request(make).await {
            ServerMessage::Error { error, .. } if error.code == code => error.message,
            other => panic!("expected error {code:?}, got {other:?}"),
        }
    }

    /// The next message, a kept one first.
    async fn kept_or_next(&mut self) -> ServerMessage {
        if self.pending.is_empty() {
            self.next().await
        } else {
            self.pending.remove(0)
        }
    }

    /// The next message (kept ones first) that `want` takes; the others are dropped.
    pub async fn message_where(&mut self, want: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        loop {
            let message = self.kept_or_next().await;
            if want(&message) {
                return message;
            }
        }
    }

    /// The next event of a match (kept ones first), with its sequence number.
    pub async fn event(&mut self, match_id: MatchId) -> (u64, MatchEvent) {
        loop {
            let message = self.kept_or_next().await;
            if let ServerMessage::Event {
                match_id: m,
                seq,
                event,
            } = message
                && m == match_id
            {
                return (seq.0, event);
            }
        }
    }

    /// Skips events until one matches.
    pub async fn event_where(
        &mut self,
        match_id: MatchId,
        want: impl Fn(&MatchEvent) -> bool,
    ) -> (u64, MatchEvent) {
        loop {
            let (seq, event) = self.event(match_id).await;
            if want(&event) {
                return (seq, event);
            }
        }
    }

    /// Skips events until the one numbered `seq`, which must not be skipped.
    pub async fn event_at(&mut self, match_id: MatchId, seq: u64) -> MatchEvent {
        loop {
            let (s, event) = self.event(match_id).await;
            assert!(s <= seq, "event {seq} was skipped: got {s} {event:?}");
            if s == seq {
                return event;
            }
        }
    }

    /// The next event or snapshot of a match (kept messages first); messages about anything
    /// else are dropped.
    pub async fn next_of(&mut self, match_id: MatchId) -> ServerMessage {
        loop {
            let message = self.kept_or_next().await;
            match &message {
                ServerMessage::Event { match_id: m, .. }
                | ServerMessage::Snapshot { match_id: m, .. }
                    if *m == match_id =>
                {
                    return message;
                }
                _ => {}
            }
        }
    }

    /// The next message of a match, which must be the event numbered `seq`.
    pub async fn expect_event(&mut self, match_id: MatchId, seq: u64) -> MatchEvent {
        match self.next_of(match_id).await {
            ServerMessage::Event { seq: s, event, .. } if s.0 == seq => event,
            other => panic!("expected event {seq}, got {other:?}"),
        }
    }

    /// Reads until the server closes the socket: the messages before (kept ones first), and
    /// its close frame (`None` if the connection just ended).
    pub async fn until_closed(
        &mut self,
    ) -> (
        Vec<ServerMessage>,
        Option<tokio_tungstenite::tungstenite::protocol::CloseFrame>,
    ) {
        let mut messages = std::mem::take(&mut self.pending);
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("the server closed the socket in time");
            match frame {
                Some(Ok(Message::Text(text))) => messages.push(
                    serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("unparsable server message {text}: {e}")),
                ),
                Some(Ok(Message::Close(close))) => {
                    // Reading on sends our half of the closing handshake, as a client does.
                    while let Ok(Some(Ok(_))) = tokio::time::timeout(PATIENCE, self.ws.next()).await
                    {
                    }
                    return (messages, close);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("the socket failed before a close frame: {e}"),
                None => return (messages, None),
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The `create_match` message for a game with default options overridden by `extra` fields.
pub fn create(id: CommandId, game: &str, variant: &str, extra: Value) -> ClientMessage {
    let mut body = json!({"type": "create_match", "id": id.0, "game": game, "variant": variant});
    if let (Some(b), Value::Object(e)) = (body.as_object_mut(), extra) {
        b.extend(e);
    }
    serde_json::from_value(body).unwrap()
}

pub fn act(id: CommandId, match_id: MatchId, seat: u8, action: &str) -> ClientMessage {
    ClientMessage::Act {
        id,
        match_id,
        seat,
        action: action.to_string(),
    }
}

/// Joins a match in any free seat.
pub fn join(id: CommandId, match_id: MatchId) -> ClientMessage {
    ClientMessage::JoinMatch {
        id,
        match_id: Some(match_id),
        invite: None,
        seat: None,
    }
}

/// Takes a seat in a private match with its invite code.
pub fn join_with_invite(id: CommandId, invite: &str) -> ClientMessage {
    ClientMessage::JoinMatch {
        id,
        match_id: None,
        invite: Some(invite.to_string()),
        seat: None,
    }
}

/// A casual untimed tafl match against the AI of this level, in this seat.
pub fn play_ai(id: CommandId, variant: &str, level: u8, seat: u8) -> ClientMessage {
    ClientMessage::PlayAi {
        id,
        game: "tafl".into(),
        variant: Some(variant.into()),
        seats: None,
        level,
        time_control: None,
        rated: false,
        seat: Some(seat),
    }
}

/// A casual untimed match of `game` against the AI of this level, its default variant, the
/// seat the server gives.
pub fn play_ai_game(id: CommandId, game: &str, level: u8) -> ClientMessage {
    ClientMessage::PlayAi {
        id,
        game: game.into(),
        variant: None,
        seats: None,
        level,
        time_control: None,
        rated: false,
        seat: None,
    }
}

/// Follows a match: from a fresh snapshot (`since` none), or with the events after `since`.
pub fn watch(id: CommandId, match_id: MatchId, since: Option<u64>) -> ClientMessage {
    ClientMessage::Watch {
        invite: None,
        id,
        match_id,
        since: since.map(Seq),
    }
}

/// A newly registered player with a fresh name.
pub async fn new_player(addr: SocketAddr) -> Session {
    register(addr, &format!("p{:08x}", rand::random::<u32>())).await
}

/// Two newly registered players, each connected on a socket of its own: the sessions, then the
/// sockets. Rated play needs accounts; guests play casual games only.
pub async fn two_players(addr: SocketAddr) -> (Session, Session, Client, Client) {
    let (alice, bjorn) = (new_player(addr).await, new_player(addr).await);
    let a = Client::connect(addr, &alice.token).await;
    let b = Client::connect(addr, &bjorn.token).await;
    (alice, bjorn, a, b)
}

/// Two new guests, each connected on a socket of its own: the sessions, then the sockets.
pub async fn two_guests(addr: SocketAddr) -> (Session, Session, Client, Client) {
    let (alice, bjorn) = (guest(addr).await, guest(addr).await);
    let a = Client::connect(addr, &alice.token).await;
    let b = Client::connect(addr, &bjorn.token).await;
    (alice, bjorn, a, b)
}

/// `a` creates a Copenhagen match with these options (seat 0) and `b` joins it (seat 1); `a` has
/// read up to the `started` event.
pub async fn copenhagen_match(a: &mut Client, b: &mut Client, options: Value) -> MatchId {
    let match_id = a
        .ok(|id| create(id, "tafl", "copenhagen", options))
        .await
        .match_id
        .unwrap();
    b.ok(|id| join(id, match_id)).await;
    a.event_where(match_id, |e| matches!(e, MatchEvent::Started { .. }))
        .await;
    match_id
}

/// Two new players in a new rated Copenhagen match with this clock, started: their sessions,
/// their sockets (seat 0's first) and the match.
pub async fn rated_match(
    addr: SocketAddr,
    base_ms: u64,
    increment_ms: u64,
) -> (Session, Session, Client, Client, MatchId) {
    let (alice, bjorn, mut a, mut b) = two_players(addr).await;
    let clock = json!({"base_ms": base_ms, "increment_ms": increment_ms});
    let match_id = copenhagen_match(&mut a, &mut b, json!({"rated": true, "clock": clock})).await;
    (alice, bjorn, a, b, match_id)
}

/// The shortest recorded Copenhagen game that the rules end (by capture, escape, fort...): its
/// moves and the seat that wins.
pub fn short_copenhagen_game() -> (Vec<String>, u8) {
    use engine::tafl::corpus::{Agreement, replay_line};
    let data = include_str!("../../../engine/tests/data/copenhagen.csv");
    let rules = engine::tafl::variants::preset("copenhagen").unwrap();
    let line = data
        .lines()
        .filter(|line| replay_line(&rules, line).agreement == Agreement::Agrees)
        .min_by_key(|line| line.split(' ').count())
        .unwrap();
    let moves: Vec<String> = line
        .split(',')
        .next()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let winner = if line.ends_with("Black") { 0 } else { 1 };
    (moves, winner)
}

/// The shortest recorded Copenhagen game's moves written plain (`from-to`, no captures).
pub fn short_copenhagen_moves() -> Vec<String> {
    let (line, _) = short_copenhagen_game();
    line.iter()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect()
}

/// Plays `moves` (seat 0 first) in match `m`, seat 0's on `a` and seat 1's on `b`, each acked.
pub async fn play_moves(a: &mut Client, b: &mut Client, m: MatchId, moves: &[String]) {
    for (i, mv) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *a } else { &mut *b };
        mover.ok(|id| act(id, m, (i % 2) as u8, mv)).await;
    }
}

/// Plays the shortest recorded Copenhagen game in `m` to its end (the `finished` event read on
/// `a`); returns its moves.
pub async fn play_short_game(a: &mut Client, b: &mut Client, m: MatchId) -> Vec<String> {
    let moves = short_copenhagen_moves();
    play_moves(a, b, m, &moves).await;
    a.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
    moves
}

/// A GET's status, and its error body's `code` and `message` (empty when absent).
pub async fn get_refused(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let response = http()
        .get(format!("http://{addr}{path}"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    let text = |field: &str| body[field].as_str().unwrap_or("").to_string();
    (status, text("code"), text("message"))
}

/// A recorded Copenhagen game of at least `min_moves` moves that the rules end on the board: its
/// moves (plain `from-to`) and the winning seat.
pub fn corpus_game(min_moves: usize) -> (Vec<String>, u8) {
    use engine::tafl::corpus::{Agreement, replay_line};
    let data = include_str!("../../../engine/tests/data/copenhagen.csv");
    let rules = engine::tafl::variants::preset("copenhagen").unwrap();
    let line = data
        .lines()
        .filter(|line| line.split(',').next().unwrap().split_whitespace().count() >= min_moves)
        .filter(|line| replay_line(&rules, line).agreement == Agreement::Agrees)
        .min_by_key(|line| line.split(' ').count())
        .unwrap();
    let moves = line
        .split(',')
        .next()
        .unwrap()
        .split_whitespace()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect();
    let winner = if line.ends_with("Black") { 0 } else { 1 };
    (moves, winner)
}

/// A casual, untimed Brandubh match of two seats nobody has taken, as the store opens it: for
/// the tests that work on the store directly.
pub fn brandubh_opening() -> server::matches::new_match::Opening {
    server::matches::new_match::Opening {
        spec: server::matches::NewMatch {
            game: "tafl".into(),
            variant: "brandubh".into(),
            seats: 2,
            rated: false,
            takebacks: false,
            clock: None,
            private: false,
            invite: None,
            hotseat: false,
            two_games: false,
            seed: 7,
            created_ms: 1,
        },
        seating: Vec::new(),
        unrated: None,
        in_tournament: false,
        series: None,
    }
}
