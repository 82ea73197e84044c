//! Tournaments over real sockets, on both backends: for each format a field of six (three AI
//! levels and three bot clients playing random legal Brandubh moves) plays to the end. Every
//! pairing must be valid for its format, the standings must equal a table recomputed here from
//! the matches' recorded results, and the standings pushed over the socket must equal the REST
//! view. A player who never comes to their game forfeits it; a server restarted in the middle of
//! a round carries the tournament on to its end without creating anything twice.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{BACKENDS, fresh_database, new_player};
use engine::MatchRng;
use engine::game::Seat;
use engine::registry::Hostable;
use engine::tafl::Tafl;
use futures_util::{SinkExt, StreamExt};
use protocol::{
    ClientMessage, CommandId, GameOutcome, MatchEvent, MatchId, MatchRecord, PlayerId,
    ServerMessage, Session, Standing, TournamentDetails, TournamentGame, TournamentId,
};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const VARIANT: &str = "brandubh";

/// Short AI moves, a fast director, a no-show grace no bot under load comes near, and room
/// for a bot answering the level-1 AI's instant moves as fast as they come.
const FLAGS: &[&str] = &[
    "--ai-move-ms",
    "20",
    "--tournament-poll-ms",
    "100",
    "--tournament-no-show-secs",
    "5",
    "--ws-messages-per-sec",
    "1000",
    "--ws-message-burst",
    "1000",
    "--tournaments-per-day",
    "100",
];

/// How long a whole tournament may take before the test fails.
const TOURNAMENT_PATIENCE: Duration = Duration::from_secs(50);

// --- A server in its own runtime, so that it can be killed in the middle of a round --------

struct Server {
    runtime: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Server {
    async fn start(url: &str, flags: &[&str]) -> Server {
        // The server's log goes into the test's output, shown when the test fails: a failure
        // after a restart is otherwise only "did not finish in time".
        let _ = tracing_subscriber::fmt()
            .with_env_filter("info,sqlx=warn")
            .with_test_writer()
            .try_init();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let config = common::config(url, flags);
        let addr = runtime
            .spawn(async move { server::start(config).await.unwrap().addr })
            .await
            .unwrap();
        Server {
            runtime: Some(runtime),
            addr,
        }
    }

    /// Stops every task of the server at once, mid-whatever: its sockets close, its rooms and
    /// its director vanish without a chance to tidy up. Like a killed process, nothing of it
    /// outlives the kill (its SQLite lock, its listener): the runtime is dropped and waited for,
    /// on a thread of its own since a runtime cannot be dropped inside another.
    fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            std::thread::spawn(move || runtime.shutdown_timeout(Duration::from_secs(10)))
                .join()
                .unwrap();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

// --- REST -------------------------------------------------------------------------------

async fn post_as(addr: SocketAddr, token: &str, path: &str, body: Value) -> reqwest::Response {
    common::http()
        .post(format!("http://{addr}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn post_ok(addr: SocketAddr, token: &str, path: &str, body: Value) -> TournamentDetails {
    let response = post_as(addr, token, path, body).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "POST {path}: {text}");
    serde_json::from_str(&text).unwrap()
}

async fn post_refused(
    addr: SocketAddr,
    token: &str,
    path: &str,
    body: Value,
    status: u16,
) -> String {
    let response = post_as(addr, token, path, body).await;
    assert_eq!(response.status(), status, "POST {path}");
    let error: Value = response.json().await.unwrap();
    error["message"].as_str().unwrap().to_string()
}

/// The tournament, or `None` when the server does not answer (it is being restarted).
async fn try_details(addr: SocketAddr, id: TournamentId) -> Option<TournamentDetails> {
    let url = format!("http://{addr}/api/tournaments/{}", id.0);
    let response = common::http().get(url).send().await.ok()?;
    response.json().await.ok()
}

async fn details(addr: SocketAddr, id: TournamentId) -> TournamentDetails {
    serde_json::from_value(common::get(addr, &format!("/api/tournaments/{}", id.0)).await).unwrap()
}

// --- Bot clients ------------------------------------------------------------------------

/// A socket that reports a closed connection instead of panicking.
struct Conn {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Chosen per connection: ids must be unique across reconnects, or a move sent again with
    /// a reused id is answered as a resend of the earlier one and not played (docs/protocol.md).
    prefix: u64,
    next_id: u64,
}

impl Conn {
    async fn open(addr: SocketAddr, token: &str) -> Option<Conn> {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Authorization", format!("Bearer {token}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.ok()?;
        let mut conn = Conn {
            ws,
            prefix: rand::random(),
            next_id: 0,
        };
        conn.send(ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
        })
        .await;
        match conn.recv().await? {
            ServerMessage::Welcome { .. } => Some(conn),
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    fn id(&mut self) -> CommandId {
        self.next_id += 1;
        CommandId(format!("{:x}-{}", self.prefix, self.next_id))
    }

    async fn send(&mut self, message: ClientMessage) -> bool {
        let text = serde_json::to_string(&message).unwrap();
        self.ws.send(Message::Text(text.into())).await.is_ok()
    }

    /// The next message; `None` once the connection is gone.
    async fn recv(&mut self) -> Option<ServerMessage> {
        loop {
            match self.ws.next().await? {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }
}

/// A bot's copy of one of its matches.
struct Mirror<G> {
    game: G,
    rng: MatchRng,
    seat: u8,
    seq: u64,
    plies: usize,
    /// The number of plies when the bot last sent a move, until that move comes back.
    sent_at: Option<usize>,
}

/// What a bot saw.
#[derive(Default, Debug)]
struct Report {
    /// Every `tournament_round` message: (round, match).
    notified: Vec<(u32, MatchId)>,
    /// The last standings pushed, with `finished`.
    last_push: Option<(bool, Vec<Standing>)>,
    pushes: usize,
}

struct Bot {
    /// Where the server is now (it changes when the server restarts).
    addr: Arc<Mutex<SocketAddr>>,
    session: Session,
    tournament: TournamentId,
    chooser: MatchRng,
}

impl Bot {
    fn addr(&self) -> SocketAddr {
        *self.addr.lock().unwrap()
    }

    /// Plays every game the tournament gives it with random legal moves, reconnecting (and
    /// finding its unfinished games over REST) whenever the connection drops, until the final
    /// standings are pushed.
    async fn run<G: Hostable>(mut self, ready: tokio::sync::oneshot::Sender<()>) -> Report {
        let mut report = Report::default();
        let mut ready = Some(ready);
        let me = self.session.player.id;
        loop {
            let Some(mut conn) = Conn::open(self.addr(), &self.session.token).await else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            if let Some(ready) = ready.take() {
                let _ = ready.send(());
            }
            // Unfinished games of ours, in case their notification came while we were away.
            let Some(now) = try_details(self.addr(), self.tournament).await else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            let mine = now
                .entrants
                .iter()
                .find(|e| e.player.id == me)
                .unwrap()
                .entrant;
            for round in &now.rounds {
                for g in &round.games {
                    if let (Some(match_id), None) = (g.match_id, g.outcome)
                        && g.seats.contains(&mine)
                    {
                        let id = conn.id();
                        conn.send(ClientMessage::Watch {
                            invite: None,
                            id,
                            match_id,
                            since: None,
                        })
                        .await;
                    }
                }
            }
            let mut games: HashMap<MatchId, Mirror<G>> = HashMap::new();
            while let Some(message) = conn.recv().await {
                match message {
                    ServerMessage::TournamentRound {
                        tournament_id,
                        round,
                        match_id,
                        seats,
                    } => {
                        assert_eq!(tournament_id, self.tournament);
                        assert_eq!(seats.len(), 1);
                        report.notified.push((round, match_id));
                        let id = conn.id();
                        conn.send(ClientMessage::Watch {
                            invite: None,
                            id,
                            match_id,
                            since: None,
                        })
                        .await;
                    }
                    ServerMessage::Snapshot {
                        match_id,
                        seq,
                        snapshot,
                    } => {
                        // The same match can be watched twice (found over REST while its
                        // notification arrives): a snapshot no newer than the mirror is stale,
                        // and taking it would forget a move still in flight.
                        if games.get(&match_id).is_some_and(|m| seq.0 <= m.seq) {
                            continue;
                        }
                        let config = G::config(VARIANT, 2).unwrap();
                        let mut rng = MatchRng::from_seed(0);
                        let mut game = G::new(&config, &mut rng).unwrap();
                        for (i, action) in snapshot.actions.iter().enumerate() {
                            let action = game.parse_action(action.as_ref().unwrap()).unwrap();
                            // Brandubh's seats alternate, attackers (seat 0) first.
                            let seat = Seat::new(i % 2).unwrap();
                            game.play(seat, &action, &mut rng).unwrap();
                        }
                        if snapshot.result.is_some() {
                            continue;
                        }
                        // A match whose seats are still being taken (after a restart that
                        // came in the middle of opening it) is mirrored once it starts.
                        if snapshot.seats.iter().any(|s| s.player.is_none()) {
                            continue;
                        }
                        let mirror = Mirror {
                            game,
                            rng,
                            seat: snapshot.your_seats[0],
                            seq: seq.0,
                            plies: snapshot.actions.len(),
                            sent_at: None,
                        };
                        games.insert(match_id, mirror);
                        self.maybe_move(&mut conn, match_id, &mut games).await;
                    }
                    ServerMessage::Event {
                        match_id,
                        seq,
                        event,
                    } => match event {
                        MatchEvent::Acted { seat, action, .. } => {
                            let Some(mirror) = games.get_mut(&match_id) else {
                                continue;
                            };
                            if seq.0 <= mirror.seq {
                                continue;
                            }
                            mirror.seq = seq.0;
                            let action = mirror.game.parse_action(&action.unwrap()).unwrap();
                            let seat = Seat::new(usize::from(seat)).unwrap();
                            mirror
                                .game
                                .play(seat, &action, &mut mirror.rng)
                                .expect("every action the server accepts is legal");
                            mirror.plies += 1;
                            self.maybe_move(&mut conn, match_id, &mut games).await;
                        }
                        MatchEvent::Finished { .. } => {
                            games.remove(&match_id);
                        }
                        // A match watched while its seats were being taken: look again.
                        MatchEvent::Started { .. } if !games.contains_key(&match_id) => {
                            let id = conn.id();
                            conn.send(ClientMessage::Watch {
                                invite: None,
                                id,
                                match_id,
                                since: None,
                            })
                            .await;
                        }
                        _ => {}
                    },
                    ServerMessage::TournamentStandings {
                        tournament_id,
                        finished,
                        standings,
                        ..
                    } => {
                        assert_eq!(tournament_id, self.tournament);
                        report.pushes += 1;
                        report.last_push = Some((finished, standings));
                        if finished {
                            return report;
                        }
                    }
                    ServerMessage::Error { error, .. } => {
                        // A move that crossed the end of its match; anything else is a bug.
                        assert_eq!(error.code, protocol::ErrorCode::GameOver, "{error:?}");
                    }
                    _ => {}
                }
            }
            // The server went away: try again (at its new address, if it has one).
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends a random legal move when the bot's seat is to act and it has not moved yet.
    async fn maybe_move<G: Hostable>(
        &mut self,
        conn: &mut Conn,
        match_id: MatchId,
        games: &mut HashMap<MatchId, Mirror<G>>,
    ) {
        let Some(mirror) = games.get_mut(&match_id) else {
            return;
        };
        let seat = Seat::new(usize::from(mirror.seat)).unwrap();
        if !mirror.game.to_act().contains(seat) || mirror.sent_at == Some(mirror.plies) {
            return;
        }
        let actions = mirror.game.legal_actions(seat);
        let action = self.chooser.choose(&actions).unwrap();
        let text = mirror.game.action_text(action);
        mirror.sent_at = Some(mirror.plies);
        let id = conn.id();
        conn.send(ClientMessage::Act {
            id,
            match_id,
            seat: mirror.seat,
            action: text,
        })
        .await;
    }
}

// --- A tournament from creation to its end -----------------------------------------------

/// A tournament being played: its organiser, its bots and where the server is.
struct Field {
    addr: Arc<Mutex<SocketAddr>>,
    organiser: Session,
    id: TournamentId,
    bots: Vec<tokio::task::JoinHandle<Report>>,
    bot_players: Vec<PlayerId>,
}

/// Creates a tournament, enters AI levels 1.. `ai` and `bots` bot clients (connected before the
/// start), and returns it still registering.
async fn field(addr: SocketAddr, spec: Value, ai: u8, bots: usize) -> Field {
    let organiser = new_player(addr).await;
    let created = post_ok(addr, &organiser.token, "/api/tournaments", spec).await;
    let id = created.summary.id;
    assert_eq!(created.summary.status, "registering");
    assert_eq!(created.summary.creator.id, organiser.player.id);
    for level in 1..=ai {
        let path = format!("/api/tournaments/{}/entrants", id.0);
        post_ok(addr, &organiser.token, &path, json!({"ai_level": level})).await;
    }
    let shared = Arc::new(Mutex::new(addr));
    let mut handles = Vec::new();
    let mut players = Vec::new();
    for _ in 0..bots {
        let session = new_player(addr).await;
        let path = format!("/api/tournaments/{}/register", id.0);
        post_ok(addr, &session.token, &path, json!({})).await;
        players.push(session.player.id);
        let bot = Bot {
            addr: shared.clone(),
            session,
            tournament: id,
            chooser: MatchRng::from_seed(rand::random()),
        };
        let (ready, connected) = tokio::sync::oneshot::channel();
        handles.push(tokio::spawn(bot.run::<Tafl>(ready)));
        connected.await.unwrap();
    }
    Field {
        addr: shared,
        organiser,
        id,
        bots: handles,
        bot_players: players,
    }
}

impl Field {
    fn addr(&self) -> SocketAddr {
        *self.addr.lock().unwrap()
    }

    async fn start(&self) -> TournamentDetails {
        let path = format!("/api/tournaments/{}/start", self.id.0);
        post_ok(self.addr(), &self.organiser.token, &path, json!({})).await
    }

    /// Waits for every bot to see the final standings; returns their reports.
    async fn finish(self) -> (Vec<Report>, Vec<PlayerId>) {
        let addr = self.addr();
        let mut reports = Vec::new();
        for bot in self.bots {
            let Ok(report) = tokio::time::timeout(TOURNAMENT_PATIENCE, bot).await else {
                panic!(
                    "the tournament did not finish in time: {}",
                    stuck(addr, self.id).await
                );
            };
            reports.push(report.unwrap());
        }
        (reports, self.bot_players)
    }
}

/// The games of a tournament still unfinished, each with its match's state: what a tournament
/// that never ends was waiting for.
async fn stuck(addr: SocketAddr, id: TournamentId) -> String {
    let Some(d) = try_details(addr, id).await else {
        return "the server does not answer".into();
    };
    let mut found = Vec::new();
    for (round, g) in d
        .rounds
        .iter()
        .flat_map(|r| r.games.iter().map(move |g| (r.round, g)))
    {
        if g.outcome.is_some() {
            continue;
        }
        let Some(match_id) = g.match_id else {
            found.push(format!(
                "round {round}: seats {:?} without a match",
                g.seats
            ));
            continue;
        };
        let record = common::get(addr, &format!("/api/matches/{}", match_id.0)).await;
        found.push(format!(
            "round {round}: {match_id:?} seats {:?}, status {}, {} actions, players {}",
            g.seats,
            record["summary"]["status"],
            record["actions"].as_array().map_or(0, Vec::len),
            record["summary"]["players"],
        ));
    }
    format!("tournament {}: {}", d.summary.status, found.join("; "))
}

/// Seat 0's outcome from a match's places.
fn outcome_of(places: &[u8]) -> GameOutcome {
    match places {
        [a, b] if a < b => GameOutcome::Win,
        [a, b] if a > b => GameOutcome::Loss,
        _ => GameOutcome::Draw,
    }
}

fn points(outcome: GameOutcome, seat: usize) -> f64 {
    match (outcome, seat) {
        (GameOutcome::Draw, _) => 0.5,
        (GameOutcome::Win, 0) | (GameOutcome::Loss, 1) => 1.0,
        _ => 0.0,
    }
}

/// Checks what every format shares: the tournament finished, every game's outcome is its
/// match's recorded result with the right players seated, the standings are the table
/// recomputed from those results, the bots saw the same standings pushed and were told of each
/// of their games, and that nothing was created twice.
async fn check_results(
    addr: SocketAddr,
    d: &TournamentDetails,
    reports: &[Report],
    bots: &[PlayerId],
    notified_exactly: bool,
) {
    let context = format!("{:?} tournament {}", d.summary.format, d.summary.id.0);
    assert_eq!(d.summary.status, "finished", "{context}");
    assert_eq!(d.summary.round as usize, d.rounds.len(), "{context}");
    let player_of: HashMap<u32, PlayerId> = d
        .entrants
        .iter()
        .map(|e| (e.entrant, e.player.id))
        .collect();

    // Every game against its match's record.
    let mut pts: BTreeMap<u32, f64> = d.entrants.iter().map(|e| (e.entrant, 0.0)).collect();
    let mut games_of: BTreeMap<u32, u32> = pts.keys().map(|&e| (e, 0)).collect();
    let mut played: Vec<(&TournamentGame, GameOutcome)> = Vec::new();
    for round in &d.rounds {
        for g in &round.games {
            let match_id = g.match_id.expect("every game has its match");
            let record: MatchRecord = serde_json::from_value(
                common::get(addr, &format!("/api/matches/{}", match_id.0)).await,
            )
            .unwrap();
            assert_eq!(record.summary.status, "finished", "{context}: {match_id:?}");
            assert_eq!(record.summary.rated, d.summary.rated);
            for (seat, entrant) in g.seats.iter().enumerate() {
                let holder = record.summary.players[seat].as_ref().unwrap().id;
                assert_eq!(
                    holder, player_of[entrant],
                    "{context}: {match_id:?} seat {seat}"
                );
            }
            let result = record.summary.result.unwrap();
            let outcome = outcome_of(&result.places);
            assert_eq!(g.outcome, Some(outcome), "{context}: {match_id:?}");
            assert_eq!(g.reason.as_deref(), Some(result.reason.as_str()));
            for (seat, entrant) in g.seats.iter().enumerate() {
                *pts.get_mut(entrant).unwrap() += points(outcome, seat);
                *games_of.get_mut(entrant).unwrap() += 1;
            }
            played.push((g, outcome));
        }
        for bye in &round.byes {
            *pts.get_mut(bye).unwrap() += 1.0;
        }
    }

    // The standings recomputed: points, Buchholz (opponents' points; a bye counts as an
    // opponent with the entrant's own points) and Sonneborn-Berger.
    let mut buchholz: BTreeMap<u32, f64> = pts.keys().map(|&e| (e, 0.0)).collect();
    let mut sb = buchholz.clone();
    for (g, outcome) in &played {
        for (seat, entrant) in g.seats.iter().enumerate() {
            let opponent = g.seats[1 - seat];
            *buchholz.get_mut(entrant).unwrap() += pts[&opponent];
            *sb.get_mut(entrant).unwrap() += points(*outcome, seat) * pts[&opponent];
        }
    }
    for bye in d.rounds.iter().flat_map(|r| &r.byes) {
        *buchholz.get_mut(bye).unwrap() += pts[bye];
        *sb.get_mut(bye).unwrap() += pts[bye];
    }
    assert_eq!(d.standings.len(), d.entrants.len(), "{context}");
    for row in &d.standings {
        let e = row.entrant;
        assert_eq!(row.points, pts[&e], "{context}: points of {e}");
        assert_eq!(row.buchholz, buchholz[&e], "{context}: Buchholz of {e}");
        assert_eq!(row.sonneborn_berger, sb[&e], "{context}: SB of {e}");
        assert_eq!(row.games, games_of[&e], "{context}: games of {e}");
        assert_eq!(row.player.id, player_of[&e]);
    }
    let key = |r: &Standing| (r.points, r.buchholz, r.sonneborn_berger);
    for (i, pair) in d.standings.windows(2).enumerate() {
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a >= b, "{context}: standings out of order at {i}");
        if a == b {
            assert_eq!(pair[0].rank, pair[1].rank, "{context}");
        } else {
            assert_eq!(pair[1].rank as usize, i + 2, "{context}");
        }
    }
    assert_eq!(d.standings[0].rank, 1);

    // The socket saw what REST serves, and each bot was told of each of its games.
    for (report, bot) in reports.iter().zip(bots) {
        let (finished, pushed) = report.last_push.clone().expect("standings were pushed");
        assert!(finished);
        assert_eq!(
            pushed, d.standings,
            "{context}: pushed and REST standings differ"
        );
        let entrant = d
            .entrants
            .iter()
            .find(|e| e.player.id == *bot)
            .unwrap()
            .entrant;
        let mut mine: Vec<(u32, MatchId)> = d
            .rounds
            .iter()
            .flat_map(|r| r.games.iter().map(move |g| (r.round, g)))
            .filter(|(_, g)| g.seats.contains(&entrant))
            .map(|(round, g)| (round, g.match_id.unwrap()))
            .collect();
        mine.sort();
        let mut told = report.notified.clone();
        told.sort();
        if notified_exactly {
            assert_eq!(told, mine, "{context}: notifications of entrant {entrant}");
        }
        // Nothing was created twice: the bot sat in exactly its tournament games.
        let matches = common::get(addr, &format!("/api/players/{}/matches", bot.0)).await;
        assert_eq!(
            matches.as_array().unwrap().len(),
            mine.len(),
            "{context}: matches of entrant {entrant}"
        );
    }
    // Every board of every round is there once.
    for round in &d.rounds {
        let boards: HashSet<u32> = round.games.iter().map(|g| g.board).collect();
        assert_eq!(boards.len(), round.games.len(), "{context}");
    }
}

/// Where two entrants met: each time, the round and the seats.
type Meetings = HashMap<(u32, u32), Vec<(u32, [u32; 2])>>;

/// Each round: every entrant plays exactly once or has a bye. Returns each pair's meetings.
fn check_rounds(d: &TournamentDetails) -> Meetings {
    let n = d.entrants.len();
    let mut meetings = Meetings::new();
    for (i, round) in d.rounds.iter().enumerate() {
        assert_eq!(round.round as usize, i + 1);
        let mut seen = HashSet::new();
        for g in &round.games {
            assert_ne!(g.seats[0], g.seats[1]);
            for e in g.seats {
                assert!(seen.insert(e), "entrant {e} twice in round {}", round.round);
            }
            let key = (g.seats[0].min(g.seats[1]), g.seats[0].max(g.seats[1]));
            meetings
                .entry(key)
                .or_default()
                .push((round.round, g.seats));
        }
        for &e in &round.byes {
            assert!(seen.insert(e), "entrant {e} twice in round {}", round.round);
        }
        assert_eq!(seen.len(), n, "round {}", round.round);
    }
    meetings
}

fn check_round_robin(d: &TournamentDetails, double: bool) {
    let n = d.entrants.len() as u32;
    let per_cycle = if n.is_multiple_of(2) { n - 1 } else { n };
    let cycles = if double { 2 } else { 1 };
    assert_eq!(d.rounds.len() as u32, per_cycle * cycles);
    assert_eq!(d.summary.rounds, Some(per_cycle * cycles));
    let meetings = check_rounds(d);
    assert_eq!(
        meetings.len() as u32,
        n * (n - 1) / 2,
        "everyone meets everyone"
    );
    for (pair, met) in &meetings {
        assert_eq!(met.len() as u32, cycles, "{pair:?} met {met:?}");
        if double {
            // Once in each cycle, with the seats swapped.
            assert!(
                met[0].0 <= per_cycle && met[1].0 > per_cycle,
                "{pair:?}: {met:?}"
            );
            assert_eq!(met[0].1, [met[1].1[1], met[1].1[0]], "{pair:?}");
        }
    }
    assert!(d.rounds.iter().all(|r| r.byes.len() as u32 == n % 2));
}

/// Whether `players` can all be paired (one of them sitting out when they are odd in number)
/// without two who have met playing again.
fn rematch_free(players: &[u32], met: &HashSet<(u32, u32)>) -> bool {
    match players {
        [] => true,
        [_] => true,
        [first, rest @ ..] => {
            let key = |a: u32, b: u32| (a.min(b), a.max(b));
            let with_partner = rest.iter().enumerate().any(|(i, &other)| {
                let mut left = rest.to_vec();
                left.remove(i);
                !met.contains(&key(*first, other)) && rematch_free(&left, met)
            });
            // In an odd field the first may be the one sitting out.
            with_partner || (players.len() % 2 == 1 && rematch_free(rest, met))
        }
    }
}

/// Swiss: no rematch unless the round could not be paired without one (six entrants in their
/// fourth round may be left with two triangles of unplayed games); at most one bye each.
fn check_swiss(d: &TournamentDetails, rounds: u32) {
    assert_eq!(d.rounds.len() as u32, rounds);
    check_rounds(d);
    let everyone: Vec<u32> = d.entrants.iter().map(|e| e.entrant).collect();
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    for round in &d.rounds {
        let keys: Vec<(u32, u32)> = round
            .games
            .iter()
            .map(|g| (g.seats[0].min(g.seats[1]), g.seats[0].max(g.seats[1])))
            .collect();
        if keys.iter().any(|k| met.contains(k)) {
            assert!(
                !rematch_free(&everyone, &met),
                "round {}: an avoidable rematch",
                round.round
            );
        }
        met.extend(keys);
    }
    let mut byes: HashMap<u32, u32> = HashMap::new();
    for bye in d.rounds.iter().flat_map(|r| &r.byes) {
        *byes.entry(*bye).or_default() += 1;
    }
    assert!(byes.values().all(|&b| b <= 1), "{byes:?}");
}

/// The seeds (1-based) in bracket order for a bracket of `size` places.
fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let places = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, places + 1 - s]).collect();
    }
    order
}

/// Replays the bracket from the seeding and the recorded results: byes for the top seeds,
/// seeds 1 v 8, 4 v 5, 2 v 7, 3 v 6 (for eight places), the higher seed in seat 0, a decider
/// with the seats swapped after a draw (the higher seed through if that is drawn too), the
/// winners meeting in bracket order, no game more and none less.
fn check_knockout(d: &TournamentDetails) {
    let mut seeds: Vec<(f64, u32)> = d
        .entrants
        .iter()
        .map(|e| (e.rating.expect("seeded at the start"), e.entrant))
        .collect();
    seeds.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let seed_of: HashMap<u32, usize> = seeds.iter().enumerate().map(|(i, s)| (s.1, i)).collect();
    let n = seeds.len();
    let mut contests: Vec<(u32, Option<u32>)> = bracket_order(n.next_power_of_two())
        .chunks(2)
        .map(|pair| {
            let (high, low) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            (seeds[high - 1].1, (low <= n).then(|| seeds[low - 1].1))
        })
        .collect();
    for (i, round) in d.rounds.iter().enumerate() {
        let byes: Vec<u32> = contests
            .iter()
            .filter(|c| c.1.is_none())
            .map(|c| c.0)
            .collect();
        assert_eq!(round.byes, byes, "round {}", i + 1);
        let mut used = 0;
        let mut winners = Vec::new();
        for &(a, b) in &contests {
            let Some(b) = b else {
                winners.push(a);
                continue;
            };
            let (higher, lower) = if seed_of[&a] < seed_of[&b] {
                (a, b)
            } else {
                (b, a)
            };
            let game = |seats: [u32; 2], decider: bool| {
                let g = round
                    .games
                    .iter()
                    .find(|g| g.seats == seats && g.decider == decider)
                    .unwrap_or_else(|| panic!("round {}: no game {seats:?}", round.round));
                g.outcome.unwrap()
            };
            used += 1;
            let winner = match game([higher, lower], false) {
                GameOutcome::Win => higher,
                GameOutcome::Loss => lower,
                GameOutcome::Draw => {
                    used += 1;
                    match game([lower, higher], true) {
                        GameOutcome::Win => lower,
                        _ => higher,
                    }
                }
            };
            winners.push(winner);
        }
        assert_eq!(
            round.games.len(),
            used,
            "round {}: extra games",
            round.round
        );
        if winners.len() == 1 {
            assert_eq!(i + 1, d.rounds.len(), "rounds after the final");
            assert_eq!(d.winner, Some(winners[0]));
            return;
        }
        contests = winners
            .chunks(2)
            .map(|c| (c[0], c.get(1).copied()))
            .collect();
    }
    panic!("the bracket has no final");
}

/// Plays a six-entrant tournament (AI levels 1 to 3 and three bots) on each backend, both at
/// once, and checks it.
async fn six_entrants(spec: Value, check: fn(&TournamentDetails)) {
    let runs = BACKENDS.map(|backend| {
        let spec = spec.clone();
        async move {
            let url = fresh_database(backend).await;
            let server = Server::start(&url, FLAGS).await;
            let field = field(server.addr, spec, 3, 3).await;
            let started = field.start().await;
            assert_eq!(started.summary.status, "running", "{backend:?}");
            assert_eq!(started.summary.entrants, 6);
            let id = field.id;
            let (reports, bots) = field.finish().await;
            let d = details(server.addr, id).await;
            check_results(server.addr, &d, &reports, &bots, true).await;
            assert!(
                d.rounds
                    .iter()
                    .flat_map(|r| &r.games)
                    .all(|g| g.reason.as_deref() != Some("no_show")),
                "{backend:?}: a present player was forfeited"
            );
            check(&d);
            (backend, d)
        }
    });
    for (backend, d) in futures_util::future::join_all(runs).await {
        let games: usize = d.rounds.iter().map(|r| r.games.len()).sum();
        eprintln!("{backend:?}: {} rounds, {games} games", d.rounds.len());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_of_six_runs_to_the_end() {
    six_entrants(
        json!({"name": "Spring round robin", "game": "tafl", "variant": VARIANT,
               "format": "round_robin", "rated": true}),
        |d| check_round_robin(d, false),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_round_robin_of_six_runs_to_the_end() {
    six_entrants(
        json!({"name": "Double", "game": "tafl", "variant": VARIANT,
               "format": "double_round_robin"}),
        |d| check_round_robin(d, true),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_of_six_in_four_rounds_runs_to_the_end() {
    six_entrants(
        json!({"name": "Swiss", "game": "tafl", "variant": VARIANT, "format": "swiss",
               "rounds": 4, "rated": true}),
        |d| check_swiss(d, 4),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn knockout_of_six_runs_to_the_end() {
    six_entrants(
        json!({"name": "Cup", "game": "tafl", "variant": VARIANT, "format": "knockout"}),
        check_knockout,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_comes_forfeits() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut flags = FLAGS.to_vec();
        flags[5] = "1";
        let server = Server::start(&url, &flags).await;
        // AI levels 1 and 2, one bot, and a registered player who never opens a socket.
        let spec = json!({"name": "No-show", "game": "tafl", "variant": VARIANT,
                          "format": "round_robin", "rated": true});
        let field = field(server.addr, spec, 2, 1).await;
        let absent = new_player(server.addr).await;
        let path = format!("/api/tournaments/{}/register", field.id.0);
        post_ok(server.addr, &absent.token, &path, json!({})).await;
        field.start().await;
        let id = field.id;
        let (reports, bots) = field.finish().await;
        let d = details(server.addr, id).await;
        check_results(server.addr, &d, &reports, &bots, true).await;
        check_round_robin(&d, false);
        let gone = d
            .entrants
            .iter()
            .find(|e| e.player.id == absent.player.id)
            .unwrap()
            .entrant;
        for g in d.rounds.iter().flat_map(|r| &r.games) {
            let seat = g.seats.iter().position(|&e| e == gone);
            match seat {
                Some(seat) => {
                    assert_eq!(g.reason.as_deref(), Some("no_show"), "{backend:?}: {g:?}");
                    assert_eq!(points(g.outcome.unwrap(), seat), 0.0, "{backend:?}: {g:?}");
                }
                None => assert_ne!(g.reason.as_deref(), Some("no_show"), "{backend:?}: {g:?}"),
            }
        }
        let row = d.standings.iter().find(|r| r.entrant == gone).unwrap();
        assert_eq!((row.points, row.games), (0.0, 3));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_a_round_resumes_the_tournament() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut first = Server::start(&url, FLAGS).await;
        let spec = json!({"name": "Restart", "game": "tafl", "variant": VARIANT,
                          "format": "swiss", "rounds": 3});
        let field = field(first.addr, spec, 3, 3).await;
        field.start().await;
        // Wait for round 2 to be under way, then kill the server in the middle of it.
        let mut before = None;
        for _ in 0..2000 {
            let d = details(first.addr, field.id).await;
            let round2 = d.rounds.get(1);
            let under_way = |r: &protocol::TournamentRound| {
                r.games.iter().all(|g| g.match_id.is_some())
                    && r.games.iter().any(|g| g.outcome.is_none())
            };
            if round2.is_some_and(under_way) {
                before = Some(d);
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let before = before.expect("round 2 started");
        first.kill();
        let second = Server::start(&url, FLAGS).await;
        *field.addr.lock().unwrap() = second.addr;
        let id = field.id;
        let (reports, bots) = field.finish().await;
        let d = details(second.addr, id).await;
        check_results(second.addr, &d, &reports, &bots, false).await;
        check_swiss(&d, 3);
        // The rounds created before the restart are the same rounds after it.
        for (old, new) in before.rounds.iter().zip(&d.rounds) {
            let seats = |r: &protocol::TournamentRound| -> Vec<_> {
                r.games
                    .iter()
                    .map(|g| (g.board, g.seats, g.match_id))
                    .collect()
            };
            assert_eq!(
                seats(old),
                seats(new),
                "{backend:?}: round {} changed",
                old.round
            );
        }
        assert!(reports.iter().all(|r| r.pushes > 0));
    }
}

/// A crash after a game's match was stored but before its players were seated: the match was
/// linked to its game in the same transaction, so after the restart the director seats the
/// players in that match instead of opening a second one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_stored_but_not_seated_before_a_crash_is_seated_after_it() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        // Nobody forfeits for not coming while this test looks.
        let mut flags = FLAGS.to_vec();
        flags[5] = "600";
        let mut first = Server::start(&url, &flags).await;
        let alice = new_player(first.addr).await;
        let bob = new_player(first.addr).await;
        let spec = json!({"name": "Crash", "game": "tafl", "variant": VARIANT,
                          "format": "round_robin"});
        let created = post_ok(first.addr, &alice.token, "/api/tournaments", spec).await;
        let id = created.summary.id;
        let register = format!("/api/tournaments/{}/register", id.0);
        post_ok(first.addr, &alice.token, &register, json!({})).await;
        post_ok(first.addr, &bob.token, &register, json!({})).await;
        let start = format!("/api/tournaments/{}/start", id.0);
        let started = post_ok(first.addr, &alice.token, &start, json!({})).await;
        let match_id = started.rounds[0].games[0]
            .match_id
            .expect("the first round's match opens with the start");
        first.kill();

        // What the crash left: the match stored and linked, no seat taken.
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        sqlx::query("DELETE FROM match_seats WHERE match_id = $1")
            .bind(match_id.0)
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("UPDATE matches SET status = 'waiting' WHERE id = $1")
            .bind(match_id.0)
            .execute(&pool)
            .await
            .unwrap();

        let second = Server::start(&url, &flags).await;
        let path = format!("/api/matches/{}", match_id.0);
        let mut record = common::get(second.addr, &path).await;
        for _ in 0..200 {
            if record["summary"]["status"] == "live" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            record = common::get(second.addr, &path).await;
        }
        assert_eq!(record["summary"]["status"], "live", "{backend:?}: {record}");
        let mut seated: Vec<i64> = record["summary"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_i64().unwrap())
            .collect();
        seated.sort();
        let mut players = vec![alice.player.id.0, bob.player.id.0];
        players.sort();
        assert_eq!(seated, players, "{backend:?}: {record}");
        let after = details(second.addr, id).await;
        assert_eq!(after.rounds[0].games[0].match_id, Some(match_id));
        let matches: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM matches")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(matches, 1, "{backend:?}: a second match was opened");
        pool.close().await;
    }
}

/// A tournament stored before every tournament needed a clock (no clock in its row) still
/// plays its games on one, so that a player who stops moving cannot hold its round up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_stored_without_a_clock_plays_on_the_default_one() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let mut first = Server::start(&url, FLAGS).await;
        let alice = new_player(first.addr).await;
        let bob = new_player(first.addr).await;
        let spec = json!({"name": "Old", "game": "tafl", "variant": VARIANT,
                          "format": "round_robin"});
        let id = post_ok(first.addr, &alice.token, "/api/tournaments", spec)
            .await
            .summary
            .id;
        let register = format!("/api/tournaments/{}/register", id.0);
        post_ok(first.addr, &alice.token, &register, json!({})).await;
        post_ok(first.addr, &bob.token, &register, json!({})).await;
        first.kill();

        // What an older server stored.
        let untimed =
            "UPDATE tournaments SET clock_base_ms = NULL, clock_increment_ms = NULL WHERE id = $1";
        common::alter_database(&url, untimed, &[id.0]).await;

        let second = Server::start(&url, FLAGS).await;
        assert_eq!(details(second.addr, id).await.summary.clock, None);
        let start = format!("/api/tournaments/{}/start", id.0);
        let started = post_ok(second.addr, &alice.token, &start, json!({})).await;
        let match_id = started.rounds[0].games[0]
            .match_id
            .expect("the first round's match opens with the start");
        let record = common::get(second.addr, &format!("/api/matches/{}", match_id.0)).await;
        let rapid = protocol::TimeControl::Rapid.clock();
        assert_eq!(
            record["summary"]["clock"],
            serde_json::to_value(rapid).unwrap(),
            "{backend:?}: {record}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_are_checked_and_kept_to_their_rules() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = common::start(&url, &["--tournament-poll-ms", "100"]).await;
        let alice = new_player(addr).await;
        let bob = new_player(addr).await;
        let create = |body: Value| {
            let token = alice.token.clone();
            async move { post_as(addr, &token, "/api/tournaments", body).await }
        };
        // Only games for two.
        let message = post_refused(
            addr,
            &alice.token,
            "/api/tournaments",
            json!({"name": "Tron cup", "game": "tron", "format": "knockout"}),
            400,
        )
        .await;
        assert!(message.contains("two-player games"), "{message}");
        // Swiss needs rounds, the others refuse them.
        assert_eq!(
            create(json!({"name": "S", "game": "tafl", "format": "swiss"}))
                .await
                .status(),
            400
        );
        assert_eq!(
            create(json!({"name": "R", "game": "tafl", "format": "knockout", "rounds": 3}))
                .await
                .status(),
            400
        );
        // Every game has a clock (rapid unless chosen): untimed games could hold a round up for
        // ever.
        let message = post_refused(
            addr,
            &alice.token,
            "/api/tournaments",
            json!({"name": "Slow cup", "game": "tafl", "format": "knockout",
                   "time_control": "correspondence"}),
            400,
        )
        .await;
        assert!(message.contains("need a clock"), "{message}");
        let rapid = post_ok(
            addr,
            &alice.token,
            "/api/tournaments",
            json!({"name": "Rapid cup", "game": "tafl", "format": "knockout"}),
        )
        .await;
        assert_eq!(
            rapid.summary.clock.map(|c| (c.base_ms, c.increment_ms)),
            Some((900_000, 10_000))
        );
        // Logged in only.
        let anonymous = common::post(
            addr,
            "/api/tournaments",
            json!({"name": "x", "game": "tafl", "format": "knockout"}),
        )
        .await;
        assert_eq!(anonymous.status(), 401);

        let d = post_ok(
            addr,
            &alice.token,
            "/api/tournaments",
            json!({"name": "Blitz cup", "game": "tafl", "variant": VARIANT,
                   "format": "knockout", "time_control": "blitz"}),
        )
        .await;
        let id = d.summary.id.0;
        assert_eq!(
            d.summary.clock.map(|c| (c.base_ms, c.increment_ms)),
            Some((300_000, 3_000))
        );
        // Only the creator enters AI players and starts it; nobody enters twice.
        let entrants = format!("/api/tournaments/{id}/entrants");
        post_refused(addr, &bob.token, &entrants, json!({"ai_level": 2}), 403).await;
        post_refused(addr, &alice.token, &entrants, json!({"ai_level": 6}), 400).await;
        let reg = format!("/api/tournaments/{id}/register");
        post_ok(addr, &bob.token, &reg, json!({})).await;
        post_refused(addr, &bob.token, &reg, json!({}), 409).await;
        let start = format!("/api/tournaments/{id}/start");
        post_refused(addr, &bob.token, &start, json!({}), 403).await;
        // One entrant is not a tournament.
        let message = post_refused(addr, &alice.token, &start, json!({}), 409).await;
        assert!(message.contains("two entrants"), "{message}");
        post_ok(addr, &alice.token, &entrants, json!({"ai_level": 1})).await;
        let started = post_ok(addr, &alice.token, &start, json!({})).await;
        assert_eq!(started.summary.status, "running");
        assert_eq!(started.summary.rounds, Some(1));
        assert_eq!(started.rounds[0].games.len(), 1);
        // Registration is closed once it runs.
        post_refused(addr, &alice.token, &reg, json!({}), 409).await;
        post_refused(addr, &alice.token, &start, json!({}), 409).await;

        // A start time that comes with too few entrants cancels the tournament.
        let lonely = post_ok(
            addr,
            &alice.token,
            "/api/tournaments",
            json!({"name": "Lonely", "game": "tafl", "format": "round_robin",
                   "starts_ms": 0}),
        )
        .await;
        let mut cancelled = None;
        for _ in 0..100 {
            let now = details(addr, lonely.summary.id).await;
            if now.summary.status != "registering" {
                cancelled = Some(now);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let cancelled = cancelled.expect("the start time was acted on");
        assert_eq!(cancelled.summary.status, "cancelled", "{backend:?}");
        assert!(cancelled.summary.reason.unwrap().contains("fewer than two"));

        // The list shows them all, newest first; an unknown one is not found.
        let list = common::get(addr, "/api/tournaments").await;
        let ids: Vec<i64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, vec![lonely.summary.id.0, id, rapid.summary.id.0]);
        let missing = common::http()
            .get(format!("http://{addr}/api/tournaments/9999"))
            .send()
            .await
            .unwrap();
        assert_eq!(missing.status(), 404);

        // Watching a tournament over the socket sends its standings at once.
        let mut c = common::Client::connect(addr, &bob.token).await;
        let watch_id = protocol::TournamentId(id);
        c.ok(|cid| ClientMessage::WatchTournament {
            id: cid,
            tournament_id: watch_id,
        })
        .await;
        let pushed = loop {
            let message = if c.pending.is_empty() {
                c.next().await
            } else {
                c.pending.remove(0)
            };
            match message {
                ServerMessage::TournamentStandings {
                    tournament_id,
                    standings,
                    finished,
                    round,
                } => {
                    assert_eq!(tournament_id, watch_id);
                    assert!(!finished);
                    assert_eq!(round, 1);
                    break standings;
                }
                _ => continue,
            }
        };
        assert_eq!(pushed, details(addr, watch_id).await.standings);
        c.refused(protocol::ErrorCode::NotFound, |cid| {
            ClientMessage::WatchTournament {
                id: cid,
                tournament_id: protocol::TournamentId(9999),
            }
        })
        .await;
    }
}

/// A tournament's game has no rematch: the tournament pairs the next games. Its snapshot says
/// it is a tournament's (so that the client offers none), and an offer is refused with a clear
/// error, which changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_game_has_no_rematch() {
    let url = fresh_database(common::Backend::Sqlite).await;
    let server = Server::start(&url, FLAGS).await;
    let addr = server.addr;
    let organiser = new_player(addr).await;
    let spec = json!({"name": "No rematch", "game": "tafl", "variant": VARIANT,
                      "format": "round_robin"});
    let id = post_ok(addr, &organiser.token, "/api/tournaments", spec)
        .await
        .summary
        .id;
    let (anna, bert) = (new_player(addr).await, new_player(addr).await);
    let register = format!("/api/tournaments/{}/register", id.0);
    for p in [&anna, &bert] {
        post_ok(addr, &p.token, &register, json!({})).await;
    }
    let start = format!("/api/tournaments/{}/start", id.0);
    post_ok(addr, &organiser.token, &start, json!({})).await;
    let match_id = loop {
        let d = details(addr, id).await;
        if let Some(m) = d.rounds.first().and_then(|r| r.games.first()?.match_id) {
            break m;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (mut a, mut b) = (
        common::Client::connect(addr, &anna.token).await,
        common::Client::connect(addr, &bert.token).await,
    );
    let mut seats = Vec::new();
    for c in [&mut a, &mut b] {
        let ack = c.ok(|cid| common::watch(cid, match_id, None)).await;
        let is_snapshot = |m: &ServerMessage| matches!(m, ServerMessage::Snapshot { match_id: of, .. } if *of == match_id);
        let ServerMessage::Snapshot { snapshot, .. } = c.message_where(is_snapshot).await else {
            unreachable!("only a snapshot is taken")
        };
        assert!(
            snapshot.tournament,
            "the snapshot says it is a tournament's game"
        );
        seats.push(ack.seats[0]);
    }
    // Anna resigns at once: a tournament's game keeps its result.
    a.ok(|cid| ClientMessage::Resign {
        id: cid,
        match_id,
        seat: seats[0],
    })
    .await;
    for c in [&mut a, &mut b] {
        let message = c
            .refused(protocol::ErrorCode::Conflict, |cid| {
                ClientMessage::OfferRematch { id: cid, match_id }
            })
            .await;
        assert!(message.contains("tournament"), "{message}");
    }
}
