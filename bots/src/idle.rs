//! Idle sockets: guests that open a socket, say hello and then only answer the server's pings,
//! so that the server's memory per idle socket can be read (from its `VmRSS`) with all of them
//! open.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::Url;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::report::{Report, Stats};
use crate::wire::{self, Ws};
use crate::{Result, limits};

#[derive(Clone, Debug)]
pub struct IdleOptions {
    /// The match server's base URL; must be loopback.
    pub server: Url,
    pub sockets: usize,
    /// How long the sockets stay open once all are.
    pub hold: Duration,
    /// The server's process id, to read its memory; without it only the client's is reported.
    pub server_pid: Option<u32>,
    pub connect_concurrency: usize,
}

/// How long the sockets stay open before the server's memory is read, so that what the
/// handshakes allocated has settled.
const SETTLE: Duration = Duration::from_secs(2);

pub async fn idle(options: &IdleOptions) -> Result<Report> {
    crate::target::server_url(options.server.as_str())?;
    limits::raise_open_files(options.sockets as u64 + 256);
    let mut stats = Stats::default();
    // Sessions first, so that the memory read before the sockets open already counts whatever
    // the server keeps about the sessions themselves.
    let http = wire::http_client()?;
    let tokens: Vec<Result<String>> = futures_util::stream::iter(0..options.sockets)
        .map(|_| wire::guest_token(&http, &options.server))
        .buffer_unordered(options.connect_concurrency.max(1))
        .collect()
        .await;
    let tokens: Vec<String> = tokens
        .into_iter()
        .filter_map(|t| t.map_err(|_| stats.error("guest_failed")).ok())
        .collect();
    drop(http);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = options.server_pid.and_then(limits::rss_kib);
    let url = crate::target::socket_url(&options.server);
    let results: Vec<Result<Ws>> = futures_util::stream::iter(tokens)
        .map(|token| {
            let url = url.clone();
            async move {
                let mut ws = wire::connect(&url, Some(&token)).await?;
                wire::hello(&mut ws).await?;
                Ok(ws)
            }
        })
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
    let connected = sockets.len();
    let start = Instant::now();
    let deadline = start + options.hold.max(SETTLE);
    // Each socket keeps reading, so the server's pings are answered.
    let tasks: Vec<_> = sockets
        .into_iter()
        .map(|ws| tokio::spawn(hold(ws, deadline)))
        .collect();
    tokio::time::sleep(SETTLE).await;
    let during = options.server_pid.and_then(limits::rss_kib);
    let client = limits::rss_kib(std::process::id());
    for task in tasks {
        match task.await {
            Ok(Some(code)) => stats.error(code),
            Ok(None) => {}
            Err(_) => stats.error("bot_panicked"),
        }
    }
    Ok(Report {
        mode: "idle",
        sockets: options.sockets,
        connected,
        nodes: 1,
        elapsed: Instant::now().min(deadline) - start,
        stats,
        server_rss_kib: before.zip(during),
        client_rss_kib: client,
    })
}

/// Holds a socket open until the deadline; returns an error code if it closed early.
async fn hold(mut ws: Ws, deadline: Instant) -> Option<&'static str> {
    let early = tokio::time::timeout_at(deadline, async {
        while let Some(frame) = ws.next().await {
            match frame {
                Ok(Message::Close(_)) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok();
    wire::close_all([ws]).await;
    early.then_some("socket_closed")
}
