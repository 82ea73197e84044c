//! The ceiling: a bare WebSocket echo server (tokio-tungstenite, the same runtime and buffer
//! sizes as the match server's sockets) and a client whose sockets each send a frame the size of
//! an `act` and wait for it to come back, in a loop. Nothing is parsed, stored or routed, so no
//! server can do round trips faster on the same machine.
//!
//! The relay is the same with the socket traffic of a move: sockets come in pairs, and a frame
//! goes back to its sender (the `ack`) and to the sender's partner (the `event`). The two sides
//! of a pair take turns, each sending once it has the other's frame, as two players do. It is
//! the ceiling for the shape of a move on this machine, with nothing parsed or stored either.
//! Given a [`Journal`], the relay stores each frame before passing it on: the ceiling for a
//! durable move.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt, stream};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::journal::Journal;
use crate::report::{Report, Stats};
use crate::target::loopback_bind;
use crate::wire::{self, Ws, socket_config};
use crate::{Result, limits};

/// A socket as the echo server holds it.
type ServerWs = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A running echo server.
pub struct EchoServer {
    pub addr: SocketAddr,
    pub task: JoinHandle<()>,
}

/// The first frame of a relay socket: `pair:` and a key its partner sends too.
const PAIR: &str = "pair:";

/// Relay sockets that have said their key and wait for their partner, by key.
type Lobby = Arc<Mutex<HashMap<String, (mpsc::UnboundedSender<Message>, PartnerSlot)>>>;

/// Where a waiting relay socket is given its partner's inbox.
type PartnerSlot = tokio::sync::oneshot::Sender<mpsc::UnboundedSender<Message>>;

/// Binds a loopback address and echoes every text and binary frame on every socket; a socket
/// whose first frame is `pair:KEY` is relayed with the other socket that says the same key,
/// each frame stored in the journal first when there is one.
pub async fn serve(bind: SocketAddr, journal: Option<Journal>) -> Result<EchoServer> {
    loopback_bind(bind)?;
    limits::raise_open_files(65_536);
    let listener = TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    let lobby = Lobby::default();
    let journal = journal.map(Arc::new);
    let task = tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                // Out of descriptors, most likely: wait and accept again.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            let _ = tcp.set_nodelay(true);
            let (lobby, journal) = (lobby.clone(), journal.clone());
            tokio::spawn(async move {
                let Ok(mut ws) =
                    tokio_tungstenite::accept_async_with_config(tcp, Some(socket_config())).await
                else {
                    return;
                };
                let first = match ws.next().await {
                    Some(Ok(message)) => message,
                    _ => return,
                };
                match first.to_text().ok().and_then(|t| t.strip_prefix(PAIR)) {
                    Some(key) => {
                        relay_socket(ws, key.to_string(), &lobby, journal.as_deref()).await
                    }
                    None => echo_socket(ws, first).await,
                }
            });
        }
    });
    Ok(EchoServer { addr, task })
}

/// Sends every frame back, starting with `first`.
async fn echo_socket(mut ws: ServerWs, first: Message) {
    let mut message = first;
    loop {
        let go_on = match message {
            Message::Text(_) | Message::Binary(_) => ws.send(message).await.is_ok(),
            Message::Close(_) => false,
            // The library answers pings itself.
            _ => true,
        };
        if !go_on {
            return;
        }
        message = match ws.next().await {
            Some(Ok(message)) => message,
            _ => return,
        };
    }
}

/// Waits for the partner with the same key, then sends every frame back and to the partner,
/// and passes on what the partner sends. As the match server's sessions do, each socket has
/// a task of its own, and frames for it from elsewhere come through a channel.
async fn relay_socket(mut ws: ServerWs, key: String, lobby: &Lobby, journal: Option<&Journal>) {
    let (outbox, mut inbox) = mpsc::unbounded_channel();
    // Under one lock: the second socket of a pair finds the first, never both waiting.
    let found = {
        let mut lobby = lobby.lock().expect("lobby");
        match lobby.remove(&key) {
            Some((partner, slot)) => Ok((partner, slot)),
            None => {
                let (slot, told) = tokio::sync::oneshot::channel();
                lobby.insert(key, (outbox.clone(), slot));
                Err(told)
            }
        }
    };
    let partner = match found {
        Ok((partner, slot)) => {
            let _ = slot.send(outbox);
            partner
        }
        Err(told) => match told.await {
            Ok(partner) => partner,
            Err(_) => return,
        },
    };
    // The pair is made: both sides hear it, so that neither sends before the other is there.
    if ws.send(Message::text(PAIR)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            received = ws.next() => match received {
                Some(Ok(message @ (Message::Text(_) | Message::Binary(_)))) => {
                    if let Some(journal) = journal
                        && !journal.append(message.to_text().unwrap_or_default().to_string()).await
                    {
                        break;
                    }
                    let _ = partner.send(message.clone());
                    if ws.send(message).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            Some(message) = inbox.recv() => {
                if ws.send(message).await.is_err() {
                    break;
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct EchoOptions {
    /// `ws://127.0.0.1:PORT/`; must be loopback.
    pub url: String,
    pub sockets: usize,
    pub duration: Duration,
    pub connect_concurrency: usize,
    /// Relay instead of echo: sockets in pairs, each frame to its sender and its partner.
    pub relay: bool,
}

impl EchoOptions {
    pub fn new(url: impl Into<String>, sockets: usize, duration: Duration) -> EchoOptions {
        EchoOptions {
            url: url.into(),
            sockets,
            duration,
            connect_concurrency: 64,
            relay: false,
        }
    }
}

/// A frame of the size and shape of an `act`, numbered so each echo can be checked.
fn act_like(n: u64) -> String {
    format!(r#"{{"type":"act","id":"c{n}","match_id":4217,"seat":0,"action":"d1-d3"}}"#)
}

/// Opens the sockets, runs the echo loops for the duration and reports.
pub async fn echo(options: &EchoOptions) -> Result<Report> {
    let url = crate::target::loopback_url(&options.url, &["ws"])?;
    limits::raise_open_files(options.sockets as u64 + 256);
    let mut stats = Stats::default();
    let url = url.to_string();
    let results: Vec<Result<Ws>> = stream::iter(0..options.sockets)
        .map(|_| wire::connect(&url, None))
        .buffer_unordered(options.connect_concurrency.max(1))
        .collect()
        .await;
    let mut sockets = Vec::new();
    for result in results {
        match result {
            Ok(ws) => sockets.push(ws),
            Err(_) => stats.error("connect_failed"),
        }
    }
    if sockets.is_empty() {
        return Err(format!("no socket could be opened to {url}").into());
    }
    let connected = sockets.len();
    let start = Instant::now();
    let deadline = start + options.duration;
    let tasks: Vec<_> = if options.relay {
        let mut sockets = sockets.into_iter();
        let mut pairs = Vec::new();
        while let (Some(a), Some(b)) = (sockets.next(), sockets.next()) {
            let key = pairs.len();
            pairs.push(tokio::spawn(relay_loop([a, b], key, deadline)));
        }
        pairs
    } else {
        sockets
            .into_iter()
            .map(|ws| tokio::spawn(echo_loop(ws, deadline)))
            .collect()
    };
    for task in tasks {
        match task.await {
            Ok(s) => stats.merge(&s),
            Err(_) => stats.error("bot_panicked"),
        }
    }
    let elapsed = Instant::now().min(deadline) - start;
    Ok(Report {
        mode: if options.relay { "relay" } else { "echo" },
        sockets: options.sockets,
        connected,
        nodes: 1,
        elapsed,
        stats,
        server_rss_kib: None,
        client_rss_kib: None,
    })
}

async fn echo_loop(mut ws: Ws, deadline: Instant) -> Stats {
    let mut stats = Stats::default();
    let stopped = tokio::time::timeout_at(deadline, round_trips(&mut ws, &mut stats)).await;
    if let Ok(Err(code)) = stopped {
        stats.error(code);
    }
    wire::close_all([ws]).await;
    stats
}

/// Echo round trips until something goes wrong; returns what did.
async fn round_trips(ws: &mut Ws, stats: &mut Stats) -> Result<(), &'static str> {
    for n in 1.. {
        let frame = act_like(n);
        let sent = Instant::now();
        send_text(ws, &frame).await?;
        expect(ws, &frame).await?;
        stats.round_trip(sent.elapsed());
    }
    Err("counter_overflow")
}

async fn relay_loop(mut pair: [Ws; 2], key: usize, deadline: Instant) -> Stats {
    let mut stats = Stats::default();
    let stopped =
        tokio::time::timeout_at(deadline, relayed_turns(&mut pair, key, &mut stats)).await;
    if let Ok(Err(code)) = stopped {
        stats.error(code);
    }
    wire::close_all(pair).await;
    stats
}

/// Pairs two sockets, then takes turns until something goes wrong; returns what did. A turn
/// is answered when its sender has its frame back; the other side sends next once it has its
/// copy too, as a player moves once it has seen the other's move.
async fn relayed_turns(
    pair: &mut [Ws; 2],
    key: usize,
    stats: &mut Stats,
) -> Result<(), &'static str> {
    for ws in pair.iter_mut() {
        send_text(ws, &format!("{PAIR}{key}")).await?;
    }
    for ws in pair.iter_mut() {
        expect(ws, PAIR).await?;
    }
    for n in 1.. {
        let frame = act_like(n);
        let [first, second] = pair;
        let (mover, other) = if n % 2 == 0 {
            (second, first)
        } else {
            (first, second)
        };
        let sent = Instant::now();
        send_text(mover, &frame).await?;
        expect(mover, &frame).await?;
        stats.round_trip(sent.elapsed());
        expect(other, &frame).await?;
    }
    Err("counter_overflow")
}

async fn send_text(ws: &mut Ws, text: &str) -> Result<(), &'static str> {
    ws.send(Message::text(text))
        .await
        .map_err(|_| "socket_closed")
}

/// Waits for the next text frame on a socket and checks that it is `frame`.
async fn expect(ws: &mut Ws, frame: &str) -> Result<(), &'static str> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) if text.as_str() == frame => return Ok(()),
            Some(Ok(Message::Text(_))) => return Err("bad_echo"),
            Some(Ok(Message::Close(_)) | Err(_)) | None => return Err("socket_closed"),
            Some(Ok(_)) => {}
        }
    }
}
