//! The ceiling: a bare WebSocket echo server (tokio-tungstenite, the same runtime and buffer
//! sizes as the match server's sockets) and a client whose sockets each send a frame the size of
//! an `act` and wait for it to come back, in a loop. Nothing is parsed, stored or routed, so no
//! server can do round trips faster on the same machine.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt, stream};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::report::{Report, Stats};
use crate::target::loopback_bind;
use crate::wire::{self, Ws, socket_config};
use crate::{Result, limits};

/// A running echo server.
pub struct EchoServer {
    pub addr: SocketAddr,
    pub task: JoinHandle<()>,
}

/// Binds a loopback address and echoes every text and binary frame on every socket.
pub async fn serve(bind: SocketAddr) -> Result<EchoServer> {
    loopback_bind(bind)?;
    limits::raise_open_files(65_536);
    let listener = TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                // Out of descriptors, most likely: wait and accept again.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            let _ = tcp.set_nodelay(true);
            tokio::spawn(async move {
                let Ok(mut ws) =
                    tokio_tungstenite::accept_async_with_config(tcp, Some(socket_config())).await
                else {
                    return;
                };
                while let Some(Ok(message)) = ws.next().await {
                    let reply = match message {
                        Message::Text(_) | Message::Binary(_) => message,
                        Message::Close(_) => break,
                        // The library answers pings itself.
                        _ => continue,
                    };
                    if ws.send(reply).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    Ok(EchoServer { addr, task })
}

#[derive(Clone, Debug)]
pub struct EchoOptions {
    /// `ws://127.0.0.1:PORT/`; must be loopback.
    pub url: String,
    pub sockets: usize,
    pub duration: Duration,
    pub connect_concurrency: usize,
}

impl EchoOptions {
    pub fn new(url: impl Into<String>, sockets: usize, duration: Duration) -> EchoOptions {
        EchoOptions {
            url: url.into(),
            sockets,
            duration,
            connect_concurrency: 64,
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
    let tasks: Vec<_> = sockets
        .into_iter()
        .map(|ws| tokio::spawn(echo_loop(ws, deadline)))
        .collect();
    for task in tasks {
        match task.await {
            Ok(s) => stats.merge(&s),
            Err(_) => stats.error("bot_panicked"),
        }
    }
    let elapsed = Instant::now().min(deadline) - start;
    Ok(Report {
        mode: "echo",
        sockets: options.sockets,
        connected,
        elapsed,
        stats,
        server_rss_kib: None,
        client_rss_kib: None,
    })
}

async fn echo_loop(mut ws: Ws, deadline: Instant) -> Stats {
    let mut stats = Stats::default();
    let stopped = tokio::time::timeout_at(deadline, round_trips(&mut ws, &mut stats)).await;
    if let Ok(code) = stopped {
        stats.error(code);
    }
    wire::close_all([ws]).await;
    stats
}

/// Echo round trips until something goes wrong; returns what did.
async fn round_trips(ws: &mut Ws, stats: &mut Stats) -> &'static str {
    for n in 1.. {
        let frame = act_like(n);
        let sent = Instant::now();
        if ws.send(Message::Text(frame.clone().into())).await.is_err() {
            return "socket_closed";
        }
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(text))) if text.as_str() == frame => {
                    stats.round_trip(sent.elapsed());
                    break;
                }
                Some(Ok(Message::Text(_))) => return "bad_echo",
                Some(Ok(Message::Close(_)) | Err(_)) | None => return "socket_closed",
                Some(Ok(_)) => {}
            }
        }
    }
    "counter_overflow"
}
