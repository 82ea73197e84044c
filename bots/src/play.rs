//! Players: guest sockets paired into casual matches, playing random legal moves as fast as the
//! server answers. Each pair is one task that holds both sockets: the first creates a match, the
//! second joins it by id, and each side moves when the previous move's `acted` event has reached
//! it, as a real client would. The time from sending `act` to receiving its `ack` (the move is
//! durable by then) is the measured latency. A finished match is unwatched and a new one starts.
//!
//! Over several server nodes (a cluster on one database), the sockets are spread over the nodes
//! and each pair's two sockets are on different nodes: pair k creates its matches on node k
//! (round robin), which owns them, and joins them from the next node, whose moves cross nodes
//! (the command travels to the owner and its events come back). The report then also gives the
//! share of moves sent from a node that does not own the match and the latency of each kind.

use std::time::Duration;

use futures_util::StreamExt;
use protocol::{ClientMessage, CommandId, CreateMatch, MatchId, Visibility};
use reqwest::Url;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::game::{Rng, new_game};
use crate::report::{Report, Stats};
use crate::wire::{self, Incoming, Ws};
use crate::{Result, limits};

/// Messages a socket sends per second by default: under the server's limit of 30.
pub const DEFAULT_RATE: f64 = 25.0;

#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The match server's base URL, or one per node of a cluster; must be loopback.
    pub servers: Vec<Url>,
    /// Sockets to open (rounded down to an even number: two per match).
    pub sockets: usize,
    /// How long to play once every socket is open, after the warm-up.
    pub duration: Duration,
    /// How long to play first without counting: the matches of a paced run are all created
    /// in its first seconds, which would otherwise weigh on a short run's figures.
    pub warmup: Duration,
    pub game: String,
    pub variant: Option<String>,
    /// Sockets being opened at once.
    pub connect_concurrency: usize,
    /// Seeds the choice of moves.
    pub seed: u64,
    /// Messages each socket sends per second at most, to stay under the server's per-socket
    /// rate limit (30 a second); `None` sends as fast as the answers come.
    pub rate: Option<f64>,
}

impl PlayOptions {
    pub fn new(server: Url, sockets: usize, duration: Duration) -> PlayOptions {
        PlayOptions {
            servers: vec![server],
            sockets,
            duration,
            warmup: Duration::ZERO,
            game: "tafl".into(),
            variant: Some("brandubh".into()),
            connect_concurrency: 64,
            seed: 1,
            rate: Some(DEFAULT_RATE),
        }
    }
}

/// Opens the sockets, plays for the duration and reports.
pub async fn play(options: &PlayOptions) -> Result<Report> {
    let Some(first) = options.servers.first() else {
        return Err("play needs a server URL".into());
    };
    for server in &options.servers {
        crate::target::server_url(server.as_str())?;
    }
    new_game(&options.game, options.variant.as_deref(), 0)?;
    limits::raise_open_files(options.sockets as u64 + 256);
    let mut stats = Stats::default();
    let pairs = options.sockets / 2;
    let nodes = options.servers.len();
    // Each pair's sockets, and which of them sends its moves from a node that does not own the
    // match (none on one node).
    let mut paired: Vec<([Ws; 2], Option<[bool; 2]>)> = Vec::with_capacity(pairs);
    let mut unpaired = Vec::new();
    let connected;
    if nodes == 1 {
        let sockets =
            wire::player_sockets(first, pairs * 2, options.connect_concurrency, &mut stats).await?;
        connected = sockets.len();
        let mut sockets = sockets.into_iter();
        while let (Some(a), Some(b)) = (sockets.next(), sockets.next()) {
            paired.push(([a, b], None));
        }
        unpaired.extend(sockets);
    } else {
        // Pair k: the creator on node k, the joiner on the next one.
        let targets: Vec<Url> = (0..pairs)
            .flat_map(|k| [k % nodes, (k + 1) % nodes])
            .map(|i| options.servers[i].clone())
            .collect();
        let slots =
            wire::player_sockets_at(&targets, options.connect_concurrency, &mut stats).await?;
        connected = slots.iter().flatten().count();
        let mut slots = slots.into_iter();
        while let (Some(a), Some(b)) = (slots.next(), slots.next()) {
            match (a, b) {
                (Some(a), Some(b)) => paired.push(([a, b], Some([false, true]))),
                // Its partner could not connect: it has nobody to play with on another node.
                (a, b) => unpaired.extend(a.into_iter().chain(b)),
            }
        }
    }
    let start = Instant::now();
    let counted_from = start + options.warmup;
    let deadline = counted_from + options.duration;
    let mut tasks = Vec::with_capacity(pairs);
    let mut n = 0u64;
    let gap = options
        .rate
        .filter(|r| *r > 0.0)
        .map(|r| Duration::from_secs_f64(1.0 / r));
    for (ws, cross) in paired {
        n += 1;
        let mut rng = Rng::new(options.seed.wrapping_mul(0x1000_0000_01B3).wrapping_add(n));
        // Paced sockets begin at random points of their first gap, as people do, rather than
        // all in the same instant.
        let mut first_send = || {
            start
                + gap
                    .unwrap_or_default()
                    .mul_f64(rng.below(1000) as f64 / 1000.0)
        };
        let next_send = [first_send(), first_send()];
        let pair = Pair {
            ws,
            cross,
            next_id: 0,
            rng,
            stats: Stats::default(),
            counted_from,
            deadline,
            game: options.game.clone(),
            variant: options.variant.clone(),
            current: None,
            seen: [0; 2],
            gap,
            next_send,
        };
        tasks.push(tokio::spawn(pair.run()));
    }
    wire::close_all(unpaired).await;
    for task in tasks {
        match task.await {
            Ok(s) => stats.merge(&s),
            Err(_) => stats.error("bot_panicked"),
        }
    }
    let elapsed = Instant::now()
        .min(deadline)
        .saturating_duration_since(counted_from);
    Ok(Report {
        mode: "play",
        sockets: options.sockets,
        connected,
        nodes,
        elapsed,
        stats,
        server_rss_kib: None,
        client_rss_kib: None,
    })
}

/// Why a pair stops.
#[derive(Debug)]
enum Stop {
    Deadline,
    Closed,
}

/// The answer to one command.
enum Answer {
    Ack {
        match_id: Option<i64>,
        seq: Option<u64>,
    },
    /// The error code, and what the server said.
    Refused(String, String),
}

struct Pair {
    ws: [Ws; 2],
    /// Over several nodes: for each socket, whether it is on a node that does not own the
    /// match (its moves cross nodes). `None` on one node.
    cross: Option<[bool; 2]>,
    next_id: u64,
    rng: Rng,
    stats: Stats,
    /// Round trips sent before this are not counted (the warm-up).
    counted_from: Instant,
    deadline: Instant,
    game: String,
    variant: Option<String>,
    /// The match being played, and the last event number each socket has seen of it.
    current: Option<i64>,
    seen: [u64; 2],
    /// The least time between two messages of one socket, and when each may send next.
    gap: Option<Duration>,
    next_send: [Instant; 2],
}

impl Pair {
    async fn run(mut self) -> Stats {
        loop {
            match self.one_match().await {
                Ok(()) => {}
                Err(Stop::Deadline) => break,
                Err(Stop::Closed) => {
                    self.stats.error("socket_closed");
                    break;
                }
            }
        }
        wire::close_all(self.ws).await;
        self.stats
    }

    fn fresh_id(&mut self) -> CommandId {
        self.next_id += 1;
        CommandId(format!("c{}", self.next_id))
    }

    /// Waits until `side` may send again without going over its rate.
    async fn pace(&mut self, side: usize) -> Result<(), Stop> {
        if let Some(gap) = self.gap {
            let at = self.next_send[side];
            if at > Instant::now() {
                if at >= self.deadline {
                    return Err(Stop::Deadline);
                }
                tokio::time::sleep_until(at).await;
            }
            self.next_send[side] = at.max(Instant::now()) + gap;
        }
        Ok(())
    }

    async fn send(&mut self, side: usize, message: &ClientMessage) -> Result<(), Stop> {
        let sending = wire::send(&mut self.ws[side], message);
        match tokio::time::timeout_at(self.deadline, sending).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Stop::Closed),
            Err(_) => Err(Stop::Deadline),
        }
    }

    /// The next text frame from either socket.
    async fn receive(&mut self) -> Result<(usize, String), Stop> {
        loop {
            let [a, b] = &mut self.ws;
            let (side, frame) = tokio::select! {
                frame = a.next() => (0, frame),
                frame = b.next() => (1, frame),
                () = tokio::time::sleep_until(self.deadline) => return Err(Stop::Deadline),
            };
            match frame {
                Some(Ok(Message::Text(text))) => return Ok((side, text.as_str().to_string())),
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return Err(Stop::Closed),
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads frames until `side` gets the answer to command `id`, noting events on the way.
    async fn answer(&mut self, side: usize, id: &CommandId) -> Result<Answer, Stop> {
        loop {
            let (from, text) = self.receive().await?;
            let Some(message) = Incoming::parse(&text) else {
                self.stats.error("unparsable_message");
                continue;
            };
            self.note(from, &message);
            if from != side || message.id.as_deref() != Some(id.0.as_str()) {
                continue;
            }
            match message.kind.as_ref() {
                "ack" => {
                    return Ok(Answer::Ack {
                        match_id: message.match_id,
                        seq: message.seq,
                    });
                }
                "error" => {
                    let code = message.code.as_deref().unwrap_or("unknown").to_string();
                    let said = message.message.as_deref().unwrap_or("").to_string();
                    return Ok(Answer::Refused(code, said));
                }
                _ => {}
            }
        }
    }

    /// Keeps the last event number each socket has seen of the current match.
    fn note(&mut self, side: usize, message: &Incoming) {
        if matches!(message.kind.as_ref(), "event" | "snapshot")
            && message.match_id.is_some()
            && message.match_id == self.current
            && let Some(seq) = message.seq
        {
            self.seen[side] = self.seen[side].max(seq);
        }
    }

    /// Reads frames until `side` has seen event `seq` of the current match.
    async fn until_seen(&mut self, side: usize, seq: u64) -> Result<(), Stop> {
        while self.seen[side] < seq {
            let (from, text) = self.receive().await?;
            if let Some(message) = Incoming::parse(&text) {
                self.note(from, &message);
            }
        }
        Ok(())
    }

    /// Sends a command (when its socket's rate allows) and waits for its answer; returns the
    /// answer and the time from sending to answer.
    async fn request(
        &mut self,
        side: usize,
        message: ClientMessage,
    ) -> Result<(Answer, Duration), Stop> {
        let id = message.command_id().cloned().expect("a command");
        self.pace(side).await?;
        let sent = Instant::now();
        self.send(side, &message).await?;
        let answer = self.answer(side, &id).await?;
        Ok((answer, sent.elapsed()))
    }

    /// Sends a command whose answer nobody waits for (it is skipped when it comes).
    async fn tell(&mut self, side: usize, make: impl FnOnce(CommandId) -> ClientMessage) {
        let message = make(self.fresh_id());
        if self.pace(side).await.is_ok() {
            let _ = self.send(side, &message).await;
        }
    }

    /// Creates a match, joins it and plays it to its end (or until the deadline).
    async fn one_match(&mut self) -> Result<(), Stop> {
        let spec = CreateMatch {
            game: self.game.clone(),
            variant: self.variant.clone(),
            seats: None,
            rated: false,
            takebacks: false,
            clock: None,
            visibility: Visibility::Open,
            hotseat: false,
            seat: Some(0),
        };
        let id = self.fresh_id();
        let match_id = match self
            .request(0, ClientMessage::CreateMatch { id, spec })
            .await?
            .0
        {
            Answer::Ack {
                match_id: Some(m), ..
            } => m,
            Answer::Ack { .. } => {
                self.stats.error("ack_without_match");
                return self.pause().await;
            }
            Answer::Refused(code, said) => {
                self.stats
                    .error_saying(&code, || format!("create_match: {said}"));
                return self.pause().await;
            }
        };
        self.current = Some(match_id);
        self.seen = [0; 2];
        let id = self.fresh_id();
        let joined = self
            .request(
                1,
                ClientMessage::JoinMatch {
                    id,
                    match_id: Some(MatchId(match_id)),
                    invite: None,
                    seat: Some(1),
                },
            )
            .await?;
        if let (Answer::Refused(code, said), _) = joined {
            self.stats
                .error_saying(&code, || format!("join_match {match_id}: {said}"));
            self.leave(match_id, Some(0)).await;
            return self.pause().await;
        }
        self.stats.matches_started += 1;
        let mut game = new_game(&self.game, self.variant.as_deref(), 0)
            .expect("the game was checked before the run");
        let mut given_up = None;
        while let Some(&seat) = game.to_act().first() {
            let rng = &mut self.rng;
            let Some(action) = game.choose(seat, &mut |n| rng.below(n)) else {
                self.stats.error("no_legal_action");
                given_up = Some(seat);
                break;
            };
            let id = self.fresh_id();
            let act = ClientMessage::Act {
                id,
                match_id: MatchId(match_id),
                seat,
                action: action.clone(),
            };
            match self.request(usize::from(seat), act).await? {
                (Answer::Ack { seq, .. }, took) => {
                    match self.cross {
                        _ if Instant::now() - took < self.counted_from => {}
                        Some(cross) => self.stats.round_trip_on(took, cross[usize::from(seat)]),
                        None => self.stats.round_trip(took),
                    }
                    if game.play(seat, &action).is_err() {
                        self.stats.error("local_copy_refused");
                        given_up = Some(seat);
                        break;
                    }
                    // The other side moves once it has seen this move, as a client would.
                    let other = 1 - usize::from(seat);
                    self.until_seen(other, seq.unwrap_or(0)).await?;
                }
                (Answer::Refused(code, _), _) if code == "rate_limited" => {
                    self.stats.error(&code);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                (Answer::Refused(code, said), _) => {
                    self.stats.error_saying(&code, || {
                        format!("act {action} in match {match_id}: {said}")
                    });
                    given_up = Some(seat);
                    break;
                }
            }
        }
        if given_up.is_none() {
            self.stats.matches_finished += 1;
        }
        self.leave(match_id, given_up).await;
        Ok(())
    }

    /// Leaves a match: resigns it when it is not over, and both sockets stop following it.
    async fn leave(&mut self, match_id: i64, resign: Option<u8>) {
        let match_id = MatchId(match_id);
        if let Some(seat) = resign {
            self.tell(usize::from(seat), |id| ClientMessage::Resign {
                id,
                match_id,
                seat,
            })
            .await;
        }
        for side in 0..2 {
            self.tell(side, |id| ClientMessage::Unwatch { id, match_id })
                .await;
        }
        self.current = None;
    }

    /// Waits a little after a refusal, so a failing server is not hammered.
    async fn pause(&mut self) -> Result<(), Stop> {
        let until = (Instant::now() + Duration::from_millis(100)).min(self.deadline);
        // Keep reading meanwhile, so that the server's frames do not pile up.
        while Instant::now() < until {
            let reading = self.receive();
            if let Ok(Err(stop)) = tokio::time::timeout_at(until, reading).await {
                return Err(stop);
            }
        }
        if Instant::now() >= self.deadline {
            return Err(Stop::Deadline);
        }
        Ok(())
    }
}
