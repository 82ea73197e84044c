//! Talking to the match server: guest sessions over REST, WebSocket connections with small
//! buffers, the handshake, and a light reading of server messages (only the fields a bot needs).

use std::borrow::Cow;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt, stream};
use protocol::{ClientMessage, PROTOCOL_VERSION};
use reqwest::Url;
use serde::Deserialize;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Result;
use crate::report::Stats;
use crate::target::socket_url;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long one connection attempt (REST call, upgrade or handshake) may take.
pub const CONNECT_PATIENCE: Duration = Duration::from_secs(30);

/// Small buffers: a bot's messages are a few hundred bytes, and thousands of sockets share one
/// process.
pub fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20))
}

/// A message from the server, read only as far as a bot needs: the envelope, the command id,
/// match, sequence number, error code and event kind.
#[derive(Debug, Deserialize)]
pub struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(default, borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(default)]
    pub match_id: Option<i64>,
    #[serde(default)]
    pub seq: Option<u64>,
    #[serde(default, borrow)]
    pub code: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub message: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub event: Option<EventKind<'a>>,
}

#[derive(Debug, Deserialize)]
pub struct EventKind<'a> {
    #[serde(borrow)]
    pub kind: Cow<'a, str>,
}

impl<'a> Incoming<'a> {
    pub fn parse(text: &'a str) -> Option<Incoming<'a>> {
        serde_json::from_str(text).ok()
    }
}

/// A REST client for loopback use.
pub fn http_client() -> Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .no_proxy()
        .timeout(CONNECT_PATIENCE)
        .build()?)
}

/// A guest session's token.
pub async fn guest_token(http: &reqwest::Client, server: &Url) -> Result<String> {
    let url = server.join("/api/guest")?;
    let response = http
        .post(url)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await?;
    if !response.status().is_success() {
        return Err(format!("POST /api/guest: {}", response.status()).into());
    }
    let session: protocol::Session = response.json().await?;
    Ok(session.token)
}

/// Opens a WebSocket with a session token (no TLS, no Nagle delay, small buffers).
pub async fn connect(url: &str, token: Option<&str>) -> Result<Ws> {
    let mut request = url.into_client_request()?;
    if let Some(token) = token {
        request
            .headers_mut()
            .insert("Authorization", format!("Bearer {token}").parse()?);
    }
    let (ws, _) = tokio::time::timeout(
        CONNECT_PATIENCE,
        tokio_tungstenite::connect_async_with_config(request, Some(socket_config()), true),
    )
    .await
    .map_err(|_| "the WebSocket upgrade timed out")??;
    Ok(ws)
}

pub async fn send(ws: &mut Ws, message: &ClientMessage) -> Result<()> {
    let text = serde_json::to_string(message)?;
    ws.send(Message::Text(text.into())).await?;
    Ok(())
}

/// Says hello and waits for the welcome.
pub async fn hello(ws: &mut Ws) -> Result<()> {
    send(
        ws,
        &ClientMessage::Hello {
            version: PROTOCOL_VERSION,
        },
    )
    .await?;
    let answer = tokio::time::timeout(CONNECT_PATIENCE, async {
        while let Some(frame) = ws.next().await {
            if let Message::Text(text) = frame? {
                return Ok::<_, crate::Error>(text.as_str().to_string());
            }
        }
        Err("the socket closed before the welcome".into())
    })
    .await
    .map_err(|_| "no welcome in time")??;
    match Incoming::parse(&answer) {
        Some(m) if m.kind == "welcome" => Ok(()),
        _ => Err(format!("expected a welcome, got {answer}").into()),
    }
}

/// A guest player's socket, authenticated and past the handshake.
pub async fn player_socket(http: &reqwest::Client, server: &Url) -> Result<Ws> {
    let token = guest_token(http, server).await?;
    let mut ws = connect(&socket_url(server), Some(&token)).await?;
    hello(&mut ws).await?;
    Ok(ws)
}

/// Opens `n` guest sockets, `concurrency` at a time. Failures are counted in `stats` as
/// `connect_failed`; the sockets that opened are returned.
pub async fn player_sockets(
    server: &Url,
    n: usize,
    concurrency: usize,
    stats: &mut Stats,
) -> Result<Vec<Ws>> {
    let http = http_client()?;
    let results: Vec<Result<Ws>> = stream::iter(0..n)
        .map(|_| player_socket(&http, server))
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    let mut sockets = Vec::with_capacity(n);
    let mut first_error = None;
    for result in results {
        match result {
            Ok(ws) => sockets.push(ws),
            Err(e) => {
                stats.error("connect_failed");
                first_error.get_or_insert(e);
            }
        }
    }
    if sockets.is_empty()
        && let Some(e) = first_error
    {
        return Err(format!("no socket could be opened: {e}").into());
    }
    Ok(sockets)
}

/// Opens one guest socket on each server of `targets` (a server may come several times),
/// `concurrency` at a time, and returns them in the order of `targets`: `None` where one could
/// not be opened (counted in `stats` as `connect_failed`). An error only when none opened.
pub async fn player_sockets_at(
    targets: &[Url],
    concurrency: usize,
    stats: &mut Stats,
) -> Result<Vec<Option<Ws>>> {
    let http = http_client()?;
    let mut results: Vec<(usize, Result<Ws>)> = stream::iter(targets.iter().enumerate())
        .map(|(i, server)| {
            let http = &http;
            async move { (i, player_socket(http, server).await) }
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    results.sort_by_key(|(i, _)| *i);
    let mut sockets = Vec::with_capacity(targets.len());
    let mut first_error = None;
    for (i, result) in results {
        match result {
            Ok(ws) => sockets.push(Some(ws)),
            Err(e) => {
                stats.error("connect_failed");
                first_error.get_or_insert_with(|| format!("{}: {e}", targets[i]));
                sockets.push(None);
            }
        }
    }
    if sockets.iter().all(Option::is_none)
        && let Some(e) = first_error
    {
        return Err(format!("no socket could be opened: {e}").into());
    }
    Ok(sockets)
}

/// Closes sockets politely, without waiting long for the other side.
pub async fn close_all(sockets: impl IntoIterator<Item = Ws>) {
    let closing = sockets.into_iter().map(|mut ws| async move {
        let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
    });
    futures_util::future::join_all(closing).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_messages_are_read_lightly() {
        let ack = Incoming::parse(r#"{"type": "ack", "id": "c9", "seq": 4}"#).unwrap();
        assert_eq!((ack.kind.as_ref(), ack.seq), ("ack", Some(4)));
        assert_eq!(ack.id.as_deref(), Some("c9"));
        let error = Incoming::parse(
            r#"{"type": "error", "id": "c28", "code": "illegal_action", "message": "d6 is occupied"}"#,
        )
        .unwrap();
        assert_eq!(error.code.as_deref(), Some("illegal_action"));
        let event = Incoming::parse(
            r#"{"type": "event", "match_id": 4217, "seq": 5, "event": {"kind": "acted", "seat": 1,
               "action": "f4-b4", "view": {"position": "/3t3/"}, "to_act": [0]}}"#,
        )
        .unwrap();
        assert_eq!(event.match_id, Some(4217));
        assert_eq!(event.event.unwrap().kind, "acted");
        assert!(Incoming::parse("not json").is_none());
    }
}
