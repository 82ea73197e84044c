//! Failover: how long a match is out of reach when the node that owns it dies.
//!
//! Two guests play a match across two nodes of a cluster: the first creates it on the first
//! node (which owns it from then on), the second joins from the second node. They play a few
//! legal moves (chosen from the `legal` command's answer); then the owner node's process is
//! killed (SIGKILL, a process of this machine), and the player to move sends its move at once
//! and again, under the same command id, until a node acknowledges it:
//!
//! - answered `internal` (the node it asked could not reach the dead owner), it sends it again;
//! - its socket told `shutdown` or closed (the node it is on drops the sockets that followed a
//!   match of the dead node; a socket on the dead node itself is gone), it reconnects to a
//!   surviving node, says hello, `watch`es the match again with `since` its last event, and
//!   sends the move again.
//!
//! The time from the kill to that acknowledgement is the failover time, as a player sees it:
//! the dead node's lease running out, a survivor taking the match over, and the client finding
//! it. The whole wait is bounded (60 s by default).

use std::fmt;
use std::time::Duration;

use futures_util::StreamExt;
use protocol::{ClientMessage, CommandId, CreateMatch, MatchId, Seq, Visibility};
use reqwest::Url;
use serde_json::Value;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::Result;
use crate::game::{Rng, new_game};
use crate::wire::{self, Ws};

#[derive(Clone, Debug)]
pub struct FailoverOptions {
    /// Every node of the cluster, loopback: the first is the owner that is killed, the second
    /// is where the opponent plays from; the mover reconnects to any but the first.
    pub servers: Vec<Url>,
    /// The process id of the first node's server: killed with SIGKILL.
    pub owner_pid: u32,
    /// Legal moves played before the kill. Its parity chooses who moves after the kill: the
    /// player on the killed node (who must reconnect first) or the one on a surviving node.
    pub moves: usize,
    pub game: String,
    pub variant: Option<String>,
    /// Seeds the choice among the legal moves.
    pub seed: u64,
    /// How long after the kill to wait for the move's acknowledgement before giving up.
    pub give_up: Duration,
}

impl FailoverOptions {
    pub fn new(servers: Vec<Url>, owner_pid: u32) -> FailoverOptions {
        FailoverOptions {
            servers,
            owner_pid,
            moves: 2,
            game: "tafl".into(),
            variant: Some("brandubh".into()),
            seed: 1,
            give_up: Duration::from_secs(60),
        }
    }
}

/// What one failover measured.
#[derive(Clone, Debug)]
pub struct Failover {
    /// From the kill to the move's acknowledgement.
    pub elapsed: Duration,
    pub match_id: i64,
    /// The seat that moved after the kill, and whether its socket was on the killed node.
    pub mover_seat: u8,
    pub mover_on_killed_node: bool,
    /// The node that acknowledged the move (the one the mover's socket was on then).
    pub acked_on: String,
    /// How many times the move was sent, and how many times the mover reconnected.
    pub sends: u32,
    pub reconnects: u32,
    /// What happened after the kill.
    pub timeline: Timeline,
}

/// What happened after the kill, with the time since the kill; the same thing happening again
/// in a row is counted rather than repeated.
#[derive(Clone, Debug)]
pub struct Timeline {
    since: Instant,
    entries: Vec<(Duration, String, u32)>,
}

impl Timeline {
    fn new(since: Instant) -> Timeline {
        Timeline {
            since,
            entries: Vec::new(),
        }
    }

    fn note(&mut self, what: String) {
        let at = self.since.elapsed();
        if let Some((_, last, n)) = self.entries.last_mut()
            && *last == what
        {
            *n += 1;
        } else if self.entries.len() < TIMELINE {
            self.entries.push((at, what, 1));
        }
    }
}

impl fmt::Display for Timeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (at, what, n) in &self.entries {
            write!(f, "  +{:>6} ms  {what}", at.as_millis())?;
            if *n > 1 {
                write!(f, " (×{n})")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Display for Failover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "failover:     {} ms", self.elapsed.as_millis())?;
        writeln!(
            f,
            "match:        {} (seat {} moved, from {} node)",
            self.match_id,
            self.mover_seat,
            if self.mover_on_killed_node {
                "the killed"
            } else {
                "a surviving"
            }
        )?;
        writeln!(f, "acked on:     {}", self.acked_on)?;
        writeln!(
            f,
            "move sent:    {}×, reconnects {}",
            self.sends, self.reconnects
        )?;
        write!(f, "{}", self.timeline)
    }
}

/// How long one setup step (a REST call, a socket, a command before the kill) may take.
const STEP: Duration = Duration::from_secs(15);
/// How long one send of the move waits for its answer before the mover tries another node.
const PATIENCE: Duration = Duration::from_secs(10);
/// The pause before the move is sent again after `internal`.
const RESEND_AFTER: Duration = Duration::from_millis(50);
/// Timeline entries kept (identical ones in a row are counted, not repeated).
const TIMELINE: usize = 100;

/// One player: a guest with its own token, a socket on one of the nodes.
struct Player {
    token: String,
    /// The index of the node its socket is on, in the options' servers.
    node: usize,
    ws: Option<Ws>,
    seat: u8,
    /// The last event number of the match this player has seen.
    seen: u64,
    next_id: u64,
}

/// The answer to one command, or why there was none.
enum Reply {
    Ack(Value),
    Refused {
        code: String,
        message: String,
    },
    /// The socket closed (or failed); with the server's close reason when it gave one.
    Closed(String),
    /// No answer before the time given.
    Silent,
}

impl Player {
    fn fresh_id(&mut self) -> CommandId {
        self.next_id += 1;
        CommandId(format!("f{}s{}", self.next_id, self.seat))
    }

    /// Sends a command and reads until its answer, noting the match's events on the way (and
    /// a `shutdown` in `heard`).
    async fn ask(
        &mut self,
        message: &ClientMessage,
        match_id: i64,
        until: Instant,
        heard: &mut Vec<String>,
    ) -> Reply {
        let id = message.command_id().cloned().expect("a command").0;
        let Some(ws) = self.ws.as_mut() else {
            return Reply::Closed("no socket".into());
        };
        match tokio::time::timeout_at(until, wire::send(ws, message)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Reply::Closed(format!("send failed: {e}")),
            Err(_) => return Reply::Silent,
        }
        loop {
            let frame = match tokio::time::timeout_at(until, ws.next()).await {
                Ok(frame) => frame,
                Err(_) => return Reply::Silent,
            };
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(close))) => {
                    let why = close.map(|c| format!("{} {}", u16::from(c.code), c.reason));
                    return Reply::Closed(format!(
                        "closed ({})",
                        why.as_deref().unwrap_or("no reason")
                    ));
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Reply::Closed(format!("socket failed: {e}")),
                None => return Reply::Closed("socket ended".into()),
            };
            let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else {
                continue;
            };
            let kind = message["type"].as_str().unwrap_or("");
            if matches!(kind, "event" | "snapshot")
                && message["match_id"].as_i64() == Some(match_id)
                && let Some(seq) = message["seq"].as_u64()
            {
                self.seen = self.seen.max(seq);
            }
            if kind == "shutdown" {
                heard.push(format!("told shutdown: {message}"));
            }
            if message["id"].as_str() != Some(id.as_str()) {
                continue;
            }
            match kind {
                "ack" => return Reply::Ack(message),
                "error" => {
                    return Reply::Refused {
                        code: message["code"].as_str().unwrap_or("unknown").to_string(),
                        message: message["message"].as_str().unwrap_or("").to_string(),
                    };
                }
                _ => {}
            }
        }
    }

    /// Reads until this player has seen event `seq` of the match.
    async fn until_seen(&mut self, match_id: i64, seq: u64) -> Result<()> {
        let until = Instant::now() + STEP;
        let ws = self.ws.as_mut().ok_or("no socket")?;
        while self.seen < seq {
            let frame = tokio::time::timeout_at(until, ws.next())
                .await
                .map_err(|_| format!("seat {} did not see event {seq} in time", self.seat))?;
            let Some(Ok(Message::Text(text))) = frame else {
                match frame {
                    Some(Ok(_)) => continue,
                    _ => return Err(format!("seat {}'s socket closed", self.seat).into()),
                }
            };
            if let Ok(message) = serde_json::from_str::<Value>(text.as_str())
                && matches!(message["type"].as_str(), Some("event" | "snapshot"))
                && message["match_id"].as_i64() == Some(match_id)
                && let Some(s) = message["seq"].as_u64()
            {
                self.seen = self.seen.max(s);
            }
        }
        Ok(())
    }
}

/// A command before the kill: acknowledged, or the run fails.
async fn must(player: &mut Player, message: ClientMessage, match_id: i64) -> Result<Value> {
    let what = message.type_name();
    let mut heard = Vec::new();
    match player
        .ask(&message, match_id, Instant::now() + STEP, &mut heard)
        .await
    {
        Reply::Ack(ack) => Ok(ack),
        Reply::Refused { code, message } => Err(format!(
            "{what} (seat {}) was refused: {code}: {message}",
            player.seat
        )
        .into()),
        Reply::Closed(why) => {
            Err(format!("{what} (seat {}): the socket {why}", player.seat).into())
        }
        Reply::Silent => Err(format!("{what} (seat {}): no answer in time", player.seat).into()),
    }
}

/// Opens a socket for a guest on a node and says hello.
async fn open(server: &Url, token: &str) -> Result<Ws> {
    let mut ws = wire::connect(&crate::target::socket_url(server), Some(token)).await?;
    wire::hello(&mut ws).await?;
    Ok(ws)
}

/// A node's name, from its `/api/health` (its URL when it does not answer).
async fn node_name(http: &reqwest::Client, server: &Url) -> String {
    let health = async {
        let health: Value = http
            .get(server.join("/api/health").ok()?)
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        Some(health["node"]["name"].as_str()?.to_string())
    };
    match health.await {
        Some(name) => format!("{name} ({server})"),
        None => server.to_string(),
    }
}

/// Checks that `pid` is a process of this machine that serves `server`: its command line (or
/// its `TAFL_BIND`) names the server's port. Nothing else is ever killed.
pub fn check_owner_pid(pid: u32, server: &Url) -> Result<()> {
    if pid <= 1 || pid == std::process::id() {
        return Err(format!("refusing to kill process {pid}").into());
    }
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
        .map_err(|_| format!("there is no process {pid} on this machine"))?;
    let port = server
        .port_or_known_default()
        .ok_or_else(|| format!("{server} has no port"))?
        .to_string();
    let names_port = |text: &str| text.rsplit_once(':').is_some_and(|(_, p)| p == port);
    let args = cmdline
        .split(|b| *b == 0)
        .map(String::from_utf8_lossy)
        .any(|arg| names_port(&arg));
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
    let bind = environ
        .split(|b| *b == 0)
        .map(String::from_utf8_lossy)
        .any(|var| var.strip_prefix("TAFL_BIND=").is_some_and(names_port));
    if args || bind {
        Ok(())
    } else {
        Err(format!(
            "process {pid} does not look like the server of {server}: neither its command line nor \
             its TAFL_BIND names port {port}; refusing to kill it"
        )
        .into())
    }
}

/// Sends SIGKILL to a process of this machine.
fn kill_now(pid: u32) -> Result<()> {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    let pid = i32::try_from(pid).map_err(|_| format!("no such process id {pid}"))?;
    // SAFETY: kill(2) takes two integers and reads or writes no memory of this process.
    if unsafe { kill(pid, SIGKILL) } != 0 {
        return Err(format!("kill -9 {pid}: {}", std::io::Error::last_os_error()).into());
    }
    Ok(())
}

/// Sets the match up, kills its owner node and measures until the next move is acknowledged.
pub async fn failover(options: &FailoverOptions) -> Result<Failover> {
    if options.servers.len() < 2 {
        return Err("failover needs at least two nodes: give --url once per node".into());
    }
    for server in &options.servers {
        crate::target::server_url(server.as_str())?;
    }
    check_owner_pid(options.owner_pid, &options.servers[0])?;
    let mut game = new_game(&options.game, options.variant.as_deref(), 0)?;
    let mut rng = Rng::new(options.seed);
    let http = wire::http_client()?;
    let mut names = Vec::with_capacity(options.servers.len());
    for server in &options.servers {
        names.push(node_name(&http, server).await);
    }

    // Two guests: the creator on the node to kill, the opponent on the second node.
    let mut players = Vec::with_capacity(2);
    for (seat, node) in [(0u8, 0usize), (1, 1)] {
        let server = &options.servers[node];
        let token = tokio::time::timeout(STEP, wire::guest_token(&http, server))
            .await
            .map_err(|_| format!("POST {server}api/guest: no answer in time"))?
            .map_err(|e| format!("a guest on {server}: {e}"))?;
        let ws = open(server, &token)
            .await
            .map_err(|e| format!("a socket on {server}: {e}"))?;
        players.push(Player {
            token,
            node,
            ws: Some(ws),
            seat,
            seen: 0,
            next_id: 0,
        });
    }
    let spec = CreateMatch {
        game: options.game.clone(),
        variant: options.variant.clone(),
        seats: None,
        rated: false,
        takebacks: false,
        clock: None,
        visibility: Visibility::Open,
        hotseat: false,
        seat: Some(0),
    };
    let id = players[0].fresh_id();
    let created = must(&mut players[0], ClientMessage::CreateMatch { id, spec }, 0).await?;
    let match_id = created["match_id"]
        .as_i64()
        .ok_or("create_match was acknowledged without a match id")?;
    let id = players[1].fresh_id();
    let join = ClientMessage::JoinMatch {
        id,
        match_id: Some(MatchId(match_id)),
        invite: None,
        seat: Some(1),
    };
    must(&mut players[1], join, match_id).await?;

    // A few legal moves, each seen by the other side before the next.
    let choose = async |player: &mut Player, rng: &mut Rng| -> Result<String> {
        let id = player.fresh_id();
        let seat = player.seat;
        let legal = ClientMessage::Legal {
            id,
            match_id: MatchId(match_id),
            seat,
        };
        let ack = must(player, legal, match_id).await?;
        let actions: Vec<&str> = ack["actions"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if actions.is_empty() {
            return Err(format!("seat {seat} has no legal action: {ack}").into());
        }
        Ok(actions[rng.below(actions.len())].to_string())
    };
    for _ in 0..options.moves {
        let Some(&seat) = game.to_act().first() else {
            return Err("the game ended before the kill".into());
        };
        let mover = &mut players[usize::from(seat)];
        let action = choose(mover, &mut rng).await?;
        let id = mover.fresh_id();
        let act = ClientMessage::Act {
            id,
            match_id: MatchId(match_id),
            seat,
            action: action.clone(),
        };
        let ack = must(mover, act, match_id).await?;
        game.play(seat, &action)?;
        let seq = ack["seq"].as_u64().unwrap_or(0);
        players[1 - usize::from(seat)]
            .until_seen(match_id, seq)
            .await?;
    }
    let Some(&seat) = game.to_act().first() else {
        return Err("the game ended before the kill".into());
    };
    let mover = usize::from(seat);
    // Chosen before the kill: the position does not change until this move is played.
    let action = choose(&mut players[mover], &mut rng).await?;
    let id = players[mover].fresh_id();
    let act = ClientMessage::Act {
        id,
        match_id: MatchId(match_id),
        seat,
        action,
    };

    // The other player's socket is left alone from now on: only the mover matters.
    let mut player = players.swap_remove(mover);
    let mut other = players.pop().expect("two players");
    kill_now(options.owner_pid)?;
    let killed = Instant::now();
    let give_up = killed + options.give_up;
    let mut timeline = Timeline::new(killed);
    timeline.note(format!("killed pid {} ({})", options.owner_pid, names[0]));
    let on_killed_node = player.node == 0;
    let survivors: Vec<usize> = (1..options.servers.len()).collect();
    let mut next_survivor = 0;
    if on_killed_node {
        // Its node is gone; so is its socket.
        player.ws = None;
    }
    let (mut sends, mut reconnects) = (0u32, 0u32);
    let mut heard = Vec::new();
    loop {
        if Instant::now() >= give_up {
            let mut told = format!(
                "gave up: no node acknowledged the move within {} s of killing the owner (pid {}, {}); match {match_id}, seat {seat}, the move sent {sends}×, {reconnects} reconnects",
                options.give_up.as_secs(),
                options.owner_pid,
                names[0]
            );
            told.push('\n');
            told.push_str(&timeline.to_string());
            return Err(told.trim_end().to_string().into());
        }
        if player.ws.is_none() {
            // To a surviving node, in turn; then the match is followed again from its last event.
            let node = survivors[next_survivor % survivors.len()];
            next_survivor += 1;
            let server = &options.servers[node];
            let left = give_up.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, open(server, &player.token)).await {
                Ok(Ok(ws)) => {
                    reconnects += 1;
                    player.ws = Some(ws);
                    player.node = node;
                    timeline.note(format!("reconnected to {}", names[node]));
                }
                Ok(Err(e)) => {
                    timeline.note(format!("could not reconnect to {}: {e}", names[node]));
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
                Err(_) => continue,
            }
            let id = player.fresh_id();
            let watch = ClientMessage::Watch {
                id,
                match_id: MatchId(match_id),
                since: Some(Seq(player.seen)),
                invite: None,
            };
            let until = (Instant::now() + PATIENCE).min(give_up);
            let reply = player.ask(&watch, match_id, until, &mut heard).await;
            for what in heard.drain(..) {
                timeline.note(what);
            }
            match reply {
                Reply::Ack(_) => {
                    timeline.note(format!("watching again since event {}", player.seen))
                }
                Reply::Refused { code, message } => {
                    // The match is still being taken over: a new socket and a new watch.
                    timeline.note(format!("watch refused: {code}: {message}"));
                    player.ws = None;
                    tokio::time::sleep(RESEND_AFTER).await;
                    continue;
                }
                Reply::Closed(why) => {
                    timeline.note(format!("watch: the socket {why}"));
                    player.ws = None;
                    continue;
                }
                Reply::Silent => {
                    timeline.note(format!("watch: no answer from {} in time", names[node]));
                    player.ws = None;
                    continue;
                }
            }
        }
        sends += 1;
        let until = (Instant::now() + PATIENCE).min(give_up);
        let reply = player.ask(&act, match_id, until, &mut heard).await;
        for what in heard.drain(..) {
            timeline.note(what);
        }
        match reply {
            Reply::Ack(ack) => {
                let elapsed = killed.elapsed();
                timeline.note(format!(
                    "move acknowledged on {} (event {})",
                    names[player.node],
                    ack["seq"].as_u64().unwrap_or(0)
                ));
                let acked_on = names[player.node].clone();
                wire::close_all(player.ws.take().into_iter().chain(other.ws.take())).await;
                return Ok(Failover {
                    elapsed,
                    match_id,
                    mover_seat: seat,
                    mover_on_killed_node: on_killed_node,
                    acked_on,
                    sends,
                    reconnects,
                    timeline,
                });
            }
            Reply::Refused { code, message } if code == "internal" => {
                timeline.note(format!("move refused: internal: {message}"));
                tokio::time::sleep(RESEND_AFTER).await;
            }
            Reply::Refused { code, message } if code == "rate_limited" => {
                timeline.note(format!("move refused: rate_limited: {message}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Reply::Refused { code, message } => {
                return Err(format!(
                    "after the kill, the move was refused on {}: {code}: {message}",
                    names[player.node]
                )
                .into());
            }
            Reply::Closed(why) => {
                timeline.note(format!("move: the socket on {} {why}", names[player.node]));
                player.ws = None;
            }
            Reply::Silent if Instant::now() >= give_up => {
                timeline.note(format!("move: no answer from {} yet", names[player.node]));
            }
            Reply::Silent => {
                timeline.note(format!(
                    "move: no answer from {} in {} s",
                    names[player.node],
                    PATIENCE.as_secs()
                ));
                player.ws = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_server_of_the_first_url_may_be_killed() {
        let url = Url::parse("http://127.0.0.1:8080").unwrap();
        assert!(check_owner_pid(1, &url).is_err());
        assert!(check_owner_pid(std::process::id(), &url).is_err());
        assert!(check_owner_pid(u32::MAX - 1, &url).is_err());
    }
}
