//! WebSocket sessions: one task per socket. It authenticates the upgrade (a socket without a
//! session token is a visitor's, who may watch matches but not play), enforces `hello` first,
//! frame size and a rate limit, turns each command into a request to a match room, and forwards
//! the room's events. Every refused message gets an `error`; the socket stays open, except after
//! a message past the hard cap (four times the frame limit), which closes it with 1009.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use engine::ai::Level;
use futures_util::SinkExt;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use protocol::{
    Ack, ClientMessage, CommandId, ErrorReason, MatchId, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION,
    PlayerId, SeatAct, ServerMessage,
};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument;

use crate::accounts::auth::upgrade_token;
use crate::accounts::player::Player;
use crate::accounts::token::token_hash;
use crate::chat;
use crate::error::{ApiError, ApiResult};
use crate::limits::ClientIp;
use crate::matches::Command;
use crate::matches::NewMatch;
use crate::matches::RematchAnswer;
use crate::matches::new_match::Day;
use crate::metrics::{OpenSocket, Via};
use crate::offers;
use crate::origin::Source;
use crate::queue::Pool;
use crate::resends;
use crate::security::Kind;
use crate::shutdown::{Entered, RECONNECT_AFTER_MS, SERVICE_RESTART};
use crate::sockets::Revocation;
use crate::sockets::{ConnId, Frame, OUTBOX_FRAMES, Owner, frame};
use crate::state::AppState;

/// The longest command id a client may choose, in characters.
const MAX_COMMAND_ID: usize = 64;

/// The WebSocket close code for "message too big" (RFC 6455, section 7.4.1).
const MESSAGE_TOO_BIG: u16 = 1009;

/// How long a socket closed for a message past the hard cap is kept after its close frame is
/// written, and the longest that writing may take.
const CLOSE_LINGER: Duration = Duration::from_secs(1);

/// The WebSocket close code for "policy violation" (RFC 6455, section 7.4.1): the session was
/// revoked by a ban, or the player has too many sockets.
const POLICY_VIOLATION: u16 = 1008;

/// The WebSocket close code for a normal closure: the session was logged out.
const NORMAL_CLOSURE: u16 = 1000;

/// Upgrades a request to a WebSocket session: a player's, with a session token, or a visitor's,
/// without one. A browser page from another origin is refused (the session cookie would
/// otherwise let any site act for the player), as is a token that is no longer valid (the
/// client must learn that its session is gone, not be taken for a visitor), and a player, or a
/// visitor's address, past the number of sockets allowed.
pub async fn upgrade(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    parts: Parts,
    ws: WebSocketUpgrade,
) -> Response {
    // Clients that are not browsers send no Origin; browsers always do on a WebSocket.
    let source = Source::of(&parts.headers);
    if !source.allowed(&parts.headers, &state.config().cors_origins) {
        let who = source.describe();
        let detail = format!("a WebSocket from {who}");
        state
            .security()
            .record(Kind::OriginRefused, None, Some(ip), &detail);
        return ApiError::new(
            ErrorReason::Forbidden,
            format!("{who} may not open a socket here"),
        )
        .into_response();
    }
    let login = match upgrade_token(&parts) {
        None => None,
        Some(token) => match state.authenticate(&token).await {
            Ok(player) => Some(Login {
                player,
                token_hash: token_hash(&token),
            }),
            Err(e) => return e.into_response(),
        },
    };
    let owner = owner(login.as_ref(), ip);
    if state.sockets().open_count(owner) >= socket_cap(&state, owner) {
        return too_many_sockets(&state, login.as_ref(), ip).into_response();
    }
    let limit = state.config().max_frame_bytes;
    // The socket's lines carry the request id of its upgrade, its connection and its player.
    let request = tracing::Span::current();
    // Small buffers keep an idle socket cheap (the read buffer is held for the socket's life;
    // clients' messages are far smaller, and a larger one grows it); the hard limit is above our own size check so
    // that an oversized message gets a polite error and the socket stays open. Past the hard
    // limit the library refuses a frame by its header, before buffering it (or a fragmented
    // message at the fragment that crosses it), and the socket is closed with 1009.
    ws.read_buffer_size(1024)
        .write_buffer_size(4 * 1024)
        .max_message_size(limit * 4)
        .max_frame_size(limit * 4)
        .on_upgrade(move |socket| {
            let session = Session::new(state, login, ip);
            let span = tracing::info_span!(
                parent: &request,
                "socket",
                conn = session.conn,
                player = session.player_id().map(|p| p.0)
            );
            session.run(socket).instrument(span)
        })
}

/// The session a socket was opened with: its player, and its token's hash, by which a logout
/// finds the socket. A visitor's socket has none.
struct Login {
    player: Player,
    token_hash: String,
}

/// Whom a socket counts against: its player, or a visitor's address.
fn owner(login: Option<&Login>, ip: IpAddr) -> Owner {
    login.map_or(Owner::Visitor(ip), |l| Owner::Player(l.player.id))
}

/// How many sockets an owner may have open: `--sockets-per-player`, or for visitors
/// `--visitor-sockets-per-address`, so that sockets without a session cannot exhaust the server.
fn socket_cap(state: &AppState, owner: Owner) -> u32 {
    match owner {
        Owner::Player(_) => state.config().sockets_per_player,
        Owner::Visitor(_) => state.config().visitor_sockets_per_address,
    }
}

/// The refusal of a socket past its owner's cap.
fn too_many_sockets(state: &AppState, login: Option<&Login>, ip: IpAddr) -> ApiError {
    let most = socket_cap(state, owner(login, ip));
    let account = login.map(|l| l.player.name.as_str());
    let detail = format!("over {most} sockets");
    state
        .security()
        .record(Kind::TooManySockets, account, Some(ip), &detail);
    let message = match login {
        Some(_) => format!("you have {most} sockets open, the most allowed: close one first"),
        None => format!(
            "{most} sockets without a session are open from your address, the most allowed: \
             close one, or log in"
        ),
    };
    ApiError::new(ErrorReason::TooManySockets { most }, message)
}

struct Session {
    state: AppState,
    /// None for a visitor.
    login: Option<Login>,
    ip: IpAddr,
    conn: ConnId,
    said_hello: bool,
    watching: Vec<MatchId>,
    outbox: mpsc::Sender<Frame>,
    inbox: Option<mpsc::Receiver<Frame>>,
    limiter: DefaultDirectRateLimiter,
    /// Set when the reply about to be sent is an `act`'s ack, so that its latency is measured.
    acked_act: bool,
    /// Counted among the open sockets, and among the sessions a shutdown waits for.
    _open: (OpenSocket, Entered),
}

fn error_frame(id: Option<CommandId>, error: &ApiError) -> Frame {
    crate::metrics::error_sent(error.code, Via::Socket);
    frame(&ServerMessage::Error {
        id,
        error: error.body(),
    })
}

/// The answer to a frame that is not a valid message, logged: a client sending such frames is
/// broken or probing.
fn refused_frame(id: Option<CommandId>, error: &ApiError) -> Frame {
    tracing::info!(code = ?error.code, message = %error.message, "frame refused");
    error_frame(id, error)
}

/// Why a frame is not a valid client message, as precisely as can be said.
fn parse_error(text: &str, e: &serde_json::Error) -> (Option<CommandId>, ApiError) {
    let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
        return (
            None,
            ApiError::new(ErrorReason::Malformed, "a message is one JSON object"),
        );
    };
    let id = object
        .get("id")
        .and_then(Value::as_str)
        .map(|s| CommandId(s.to_string()));
    match object.get("type").and_then(Value::as_str) {
        Some(kind) if protocol::CLIENT_TYPES.contains(&kind) => (
            id,
            ApiError::new(ErrorReason::BadRequest, format!("bad {kind} message: {e}")),
        ),
        Some(kind) => (
            id,
            ApiError::new(
                ErrorReason::UnknownType,
                format!("unknown message type '{kind}'"),
            ),
        ),
        None => (
            id,
            ApiError::new(ErrorReason::Malformed, "a message needs a string 'type'"),
        ),
    }
}

impl Session {
    fn new(state: AppState, login: Option<Login>, ip: IpAddr) -> Session {
        let (outbox, inbox) = mpsc::channel(OUTBOX_FRAMES);
        // Messages a socket may send per second, and in one burst (configured; at least 1).
        let per_second =
            NonZeroU32::new(state.config().ws_messages_per_sec).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(state.config().ws_message_burst).unwrap_or(NonZeroU32::MIN);
        let open = (OpenSocket::opened(), state.shutdown().sessions.enter());
        Session {
            conn: state.next_conn(),
            state,
            login,
            ip,
            said_hello: false,
            watching: Vec::new(),
            outbox,
            inbox: Some(inbox),
            limiter: RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst)),
            acked_act: false,
            _open: open,
        }
    }

    fn player_id(&self) -> Option<PlayerId> {
        self.login.as_ref().map(|l| l.player.id)
    }

    /// The socket's player, for anything that plays; a visitor is refused.
    fn player(&self) -> ApiResult<&Player> {
        self.login.as_ref().map(|l| &l.player).ok_or_else(|| {
            ApiError::new(
                ErrorReason::NotLoggedIn,
                "log in or play as a guest to play",
            )
        })
    }

    async fn run(mut self, mut socket: WebSocket) {
        // Counted here, not at the upgrade: many upgrades at once all pass that first look.
        let owner = owner(self.login.as_ref(), self.ip);
        if !self
            .state
            .sockets()
            .try_open(owner, socket_cap(&self.state, owner))
        {
            let error = too_many_sockets(&self.state, self.login.as_ref(), self.ip);
            close_with(
                &mut socket,
                Some(&error),
                POLICY_VIOLATION,
                "too many sockets",
            )
            .await;
            return;
        }
        self.serve(&mut socket).await;
        self.state.sockets().close(owner);
    }

    async fn serve(&mut self, socket: &mut WebSocket) {
        let mut inbox = self.inbox.take().expect("a session runs once");
        let ping_every = Duration::from_secs(self.state.config().ping_secs.max(1));
        let mut ping = tokio::time::interval(ping_every);
        let mut last_heard = Instant::now();
        let mut revocations = self.state.revocations();
        let stopping = self.state.shutdown().stopped();
        tokio::pin!(stopping);
        tracing::debug!("socket open");
        // What ends a socket (goodbyes, closes) is boxed, as commands are: inline, the futures
        // of these rare paths would take room in every open socket's task.
        loop {
            tokio::select! {
                () = &mut stopping => {
                    Box::pin(say_goodbye(socket, &mut inbox)).await;
                    break;
                }
                revoked = revocations.recv() => {
                    if let Ok(Revocation::Reconnect(conn)) = revoked {
                        if conn == self.conn {
                            // The room of a match it follows moved to another node.
                            Box::pin(say_goodbye(socket, &mut inbox)).await;
                            break;
                        }
                        continue;
                    }
                    let (code, why) = match (revoked, &self.login) {
                        (Ok(Revocation::Session(hash)), Some(login)) if hash == login.token_hash => {
                            (NORMAL_CLOSURE, "the session was logged out")
                        }
                        (Ok(Revocation::Player(id)), Some(login)) if id == login.player.id => {
                            (POLICY_VIOLATION, "the account was banned")
                        }
                        _ => continue,
                    };
                    let error = ApiError::new(ErrorReason::SessionEnded, why);
                    Box::pin(close_with(socket, Some(&error), code, why)).await;
                    break;
                }
                received = socket.recv() => {
                    let message = match received {
                        Some(Ok(message)) => message,
                        Some(Err(e)) if is_capacity_error(&e) => {
                            tracing::info!(error = %e, "message past the hard cap; closing with 1009");
                            let limit = self.state.config().max_frame_bytes;
                            Box::pin(close_too_big(socket, limit)).await;
                            break;
                        }
                        Some(Err(e)) => {
                            tracing::debug!(error = %e, "socket read failed");
                            break;
                        }
                        None => break,
                    };
                    last_heard = Instant::now();
                    let received_at = std::time::Instant::now();
                    let reply = match message {
                        // Boxed: a command's future is large, and only lives while a message
                        // is handled; inline, every idle socket's task would hold its room.
                        Message::Text(text) => Box::pin(self.on_text(text.as_str())).await,
                        Message::Binary(_) => Some(error_frame(None, &ApiError::new(ErrorReason::Malformed, "messages are JSON text frames"))),
                        Message::Close(_) => break,
                        // Pings are answered by the library; pongs only prove the peer is alive.
                        Message::Ping(_) | Message::Pong(_) => None,
                    };
                    // Measured just before the send, so that a client that reads its ack sees it
                    // counted.
                    if std::mem::take(&mut self.acked_act) {
                        crate::metrics::ack_sent(received_at.elapsed());
                    }
                    if send_with_pending(socket, reply, &mut inbox).await.is_err() {
                        break;
                    }
                }
                Some(out) = inbox.recv() => {
                    if send_with_pending(socket, Some(out), &mut inbox).await.is_err() {
                        break;
                    }
                }
                _ = ping.tick() => {
                    if last_heard.elapsed() > ping_every * 3 {
                        break;
                    }
                    if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        tracing::debug!("socket closed");
        // Boxed, as the ways a socket ends are.
        Box::pin(self.forget()).await;
    }

    /// The socket closed: it leaves the queue, the registry and every match it followed.
    async fn forget(&mut self) {
        // Leaving the socket leaves the queue.
        let _ = self.state.queue().leave(self.conn).await;
        if self.state.sockets().unregister(self.player_id(), self.conn)
            && let Some(player) = self.player_id()
        {
            self.state.cluster().online(player, false).await;
            crate::lobby::departures::poster_left(&self.state, player);
        }
        for id in std::mem::take(&mut self.watching) {
            let closed = Command::Unwatch {
                conn: self.conn,
                closed: true,
            };
            self.state.rooms().tell(id, closed).await;
        }
        self.state.cluster().closed(self.conn);
    }

    /// Handles one text frame; returns the direct answer, if any (events come via the outbox).
    async fn on_text(&mut self, text: &str) -> Option<Frame> {
        if text.len() > self.state.config().max_frame_bytes {
            let limit = self.state.config().max_frame_bytes;
            return Some(refused_frame(
                None,
                &ApiError::new(
                    ErrorReason::TooLarge,
                    format!("messages are at most {limit} bytes"),
                ),
            ));
        }
        if self.limiter.check().is_err() {
            // Still answered with the command's id, so that the client knows which one to retry.
            let id = serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|v| match v.get("id") {
                    Some(Value::String(id)) => Some(CommandId(id.clone())),
                    _ => None,
                });
            self.state.security().record(
                Kind::RateLimited,
                self.login.as_ref().map(|l| l.player.name.as_str()),
                Some(self.ip),
                "too many WebSocket messages",
            );
            return Some(error_frame(
                id,
                &ApiError::new(ErrorReason::TooManyMessages, "too many messages; slow down"),
            ));
        }
        let message = match serde_json::from_str::<ClientMessage>(text) {
            // Serde would also read a message from a JSON array (`["ping", 1]`); ours are objects.
            Ok(_) if !text.trim_start().starts_with('{') => {
                let error = ApiError::new(ErrorReason::Malformed, "a message is one JSON object");
                return Some(refused_frame(None, &error));
            }
            Ok(m) => m,
            Err(e) => {
                let (id, error) = parse_error(text, &e);
                return Some(refused_frame(id, &error));
            }
        };
        let id = message.command_id().cloned();
        if let Some(id) = &id
            && id.0.chars().count() > MAX_COMMAND_ID
        {
            let error = ApiError::new(
                ErrorReason::BadRequest,
                format!("a command id has at most {MAX_COMMAND_ID} characters"),
            );
            return Some(error_frame(Some(id.clone()), &error));
        }
        // A command already carried out is answered as it was (see `resends`).
        let kept = match (&id, &self.login, self.said_hello) {
            (Some(id), Some(login), true) => {
                resends::meaning(&message).map(|m| (login.player.id, id.clone(), m))
            }
            _ => None,
        };
        if let Some((player, id, meaning)) = &kept {
            match self.state.store().kept_ack(*player, id, meaning).await {
                Ok(Some(ack)) => {
                    let id = id.clone();
                    return Some(frame(&ServerMessage::Ack { id, ack }));
                }
                Ok(None) => {}
                Err(e) => return Some(error_frame(Some(id.clone()), &e.into())),
            }
        }
        let answer = self.on_message(message).await;
        if let (Some((player, id, meaning)), Ok(Some(ServerMessage::Ack { ack, .. }))) =
            (&kept, &answer)
        {
            let now = crate::clock::now_ms();
            let store = self.state.store();
            if let Err(e) = store.keep_ack(*player, id, meaning, ack, now).await {
                // The command happened; only a resend of it would not be recognised.
                tracing::warn!(error = %e, "could not keep a command's ack");
            }
        }
        match (answer, id) {
            (Ok(Some(reply)), _) => Some(frame(&reply)),
            (Ok(None), _) => None,
            (Err(e), id) => {
                // What a player does wrong in a game is routine; the rest says more.
                tracing::debug!(code = ?e.code, message = %e.message, "command refused");
                Some(error_frame(id, &e))
            }
        }
    }

    async fn on_message(&mut self, message: ClientMessage) -> ApiResult<Option<ServerMessage>> {
        match (&message, self.said_hello) {
            (ClientMessage::Hello { .. }, true) => {
                return Err(ApiError::new(
                    ErrorReason::HelloFirst,
                    "hello was already said",
                ));
            }
            (ClientMessage::Hello { .. } | ClientMessage::Ping { .. }, _) | (_, true) => {}
            (_, false) => return Err(ApiError::new(ErrorReason::HelloFirst, "say hello first")),
        }
        let rooms = self.state.rooms();
        let ack = |id: CommandId, ack: Ack| Ok(Some(ServerMessage::Ack { id, ack }));
        match message {
            ClientMessage::Hello { version } => self.hello(version).await.map(Some),
            ClientMessage::Ping { nonce } => Ok(Some(ServerMessage::Pong { nonce })),
            ClientMessage::CreateMatch { id, spec } => {
                let most = self.state.config().open_matches_per_player;
                let created = rooms.create(&spec, self.player()?, most).await?;
                let match_id = created.match_id.expect("a created match has an id");
                self.follow(match_id, None, None).await?;
                ack(id, created)
            }
            ClientMessage::JoinMatch {
                id,
                match_id,
                invite,
                seat,
            } => {
                let joined = rooms.join(self.player()?, match_id, invite, seat).await?;
                let match_id = joined.match_id.expect("a joined match has an id");
                self.follow(match_id, None, None).await?;
                ack(id, joined)
            }
            ClientMessage::Watch {
                id,
                match_id,
                since,
                invite,
            } => {
                let watched = self.follow(match_id, since, invite).await?;
                ack(id, watched)
            }
            ClientMessage::Unwatch { id, match_id } => {
                self.watching.retain(|m| *m != match_id);
                let left = Command::Unwatch {
                    conn: self.conn,
                    closed: false,
                };
                rooms.tell(match_id, left).await;
                ack(
                    id,
                    Ack {
                        match_id: Some(match_id),
                        ..Ack::default()
                    },
                )
            }
            seat @ (ClientMessage::Legal { .. }
            | ClientMessage::Act { .. }
            | ClientMessage::Resign { .. }
            | ClientMessage::OfferDraw { .. }
            | ClientMessage::AnswerDraw { .. }
            | ClientMessage::AskTakeback { .. }
            | ClientMessage::AnswerTakeback { .. }
            | ClientMessage::Abort { .. }
            | ClientMessage::ClaimWin { .. }) => self.seat(seat).await,
            ClientMessage::QueueJoin {
                id,
                game,
                variant,
                seats,
                time_control,
                rated,
                ai_after_secs,
                two_games,
            } => {
                let player = self.player()?.clone();
                crate::policy::may_play(&player, rated)?;
                let (variant, control) = (variant.as_deref(), time_control);
                let pool = Pool::new(&game, variant, seats, control, rated, two_games)?;
                let ai_after = ai_after_secs.map(|s| Duration::from_secs(u64::from(s)));
                let (conn, outbox) = (self.conn, self.outbox.clone());
                // The AI to offer a player who would rather not wait: the level nearest them.
                let (store, ais) = (self.state.store(), self.state.ai_players());
                let rating = store.rating_in(player.id, &pool.rating_pool()).await?;
                let ai = crate::queue::nearest_ai(store, ais, &pool, rating).await?;
                self.state
                    .queue()
                    .join(pool, conn, player, ai_after, outbox)
                    .await?;
                let ai_level = crate::accounts::player::ai_level(&ai.name).map(|l| l.get());
                ack(
                    id,
                    Ack {
                        ai_level,
                        ..Ack::default()
                    },
                )
            }
            ClientMessage::PlayAi {
                id,
                game,
                variant,
                seats,
                level,
                time_control,
                rated,
                seat,
            } => {
                let player = self.player()?;
                let level = Level::new(level).ok_or_else(|| {
                    ApiError::new(ErrorReason::AiLevelRange, "AI levels go from 1 to 5")
                })?;
                let day = Day(self.state.config().day_ms);
                let clock = time_control.map(|control| day.clock(control));
                let now = crate::clock::now_ms();
                let spec = NewMatch::new(&game, variant.as_deref(), seats, rated, clock, now)?;
                let ai = &self.state.ai_players()[usize::from(level.get() - 1)];
                let done = rooms.play_ai(spec, player, seat, ai).await?;
                let match_id = done.match_id.expect("an opened match has an id");
                self.follow(match_id, None, None).await?;
                ack(id, done)
            }
            ClientMessage::WatchTournament { id, tournament_id } => {
                self.state
                    .tournaments()
                    .watch(tournament_id, self.conn, &self.outbox)
                    .await?;
                ack(id, Ack::default())
            }
            ClientMessage::OfferRematch { id, match_id } => {
                let offered = RematchAnswer::Offer;
                let done =
                    offers::rematch::answer(self.state.rooms(), self.player()?, match_id, offered);
                ack(id, done.await?)
            }
            ClientMessage::AnswerRematch {
                id,
                match_id,
                accept,
            } => {
                let answer = match accept {
                    true => RematchAnswer::Accept,
                    false => RematchAnswer::Decline,
                };
                let done =
                    offers::rematch::answer(self.state.rooms(), self.player()?, match_id, answer);
                ack(id, done.await?)
            }
            ClientMessage::Challenge { id, spec } => {
                let made = self.state.challenges().issue(self.player()?, spec).await?;
                ack(id, made)
            }
            ClientMessage::AnswerChallenge {
                id,
                challenge_id,
                accept,
            } => {
                let player = self.player()?;
                let done = self.state.challenges().answer(player, challenge_id, accept);
                ack(id, done.await?)
            }
            ClientMessage::WithdrawChallenge { id, challenge_id } => {
                let player = self.player()?.id;
                let done = self.state.challenges().withdraw(player, challenge_id);
                ack(id, done.await?)
            }
            ClientMessage::Chat { id, match_id, text } => {
                let author = self.login.as_ref().ok_or_else(chat::say::visitors_read)?;
                chat::say::say(&self.state, &author.player, self.conn, match_id, &text).await?;
                ack(
                    id,
                    Ack {
                        match_id,
                        ..Ack::default()
                    },
                )
            }
            ClientMessage::WatchLobby { id } => {
                let (conn, outbox) = (self.conn, self.outbox.clone());
                self.state
                    .sockets()
                    .watch_lobby(conn, self.player_id(), outbox);
                // The lobby as it is now; each change follows.
                let seeks = crate::lobby::seeks::listed(self.state.store()).await?;
                let pools = self.state.queue().pools().await?;
                for message in [
                    ServerMessage::Seeks { seeks },
                    ServerMessage::QueuePools { pools },
                ] {
                    let _ = self.outbox.try_send(frame(&message));
                }
                ack(id, Ack::default())
            }
            ClientMessage::UnwatchLobby { id } => {
                self.state.sockets().unwatch_lobby(self.conn);
                ack(id, Ack::default())
            }
            ClientMessage::QueueLeave { id } => {
                self.player()?;
                if !self.state.queue().leave(self.conn).await? {
                    return Err(ApiError::new(
                        ErrorReason::NotQueued,
                        "you are not in the queue",
                    ));
                }
                ack(id, Ack::default())
            }
        }
    }

    /// The socket's first message: the protocol version it speaks, and who it is.
    async fn hello(&mut self, version: u32) -> ApiResult<ServerMessage> {
        if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&version) {
            return Err(ApiError::new(
                ErrorReason::UnsupportedVersion,
                format!(
                    "this server speaks protocol versions {OLDEST_PROTOCOL_VERSION} to \
                     {PROTOCOL_VERSION}, not {version}"
                ),
            ));
        }
        // Version 1 had no visitors: every socket had a player, and its `welcome`
        // always named one. Its clients were refused a socket without a session.
        if version == 1 && self.login.is_none() {
            return Err(ApiError::new(
                ErrorReason::Unauthorized,
                "protocol version 1 has no visitors: connect with a session token, or say \
                 hello with version 2 to watch",
            ));
        }
        self.said_hello = true;
        if let Some(Login { player, .. }) = &self.login {
            let now = crate::clock::now_ms();
            self.state.store().touch_player(player.id, now).await?;
            // From now on the server may reach this player here (tournament rounds,
            // challenges), and is told of the challenges that stand.
            let outbox = self.outbox.clone();
            if self.state.sockets().register(player.id, self.conn, outbox) {
                self.state.cluster().online(player.id, true).await;
            }
            self.state
                .challenges()
                .greet(player.id, &self.outbox)
                .await?;
        }
        Ok(ServerMessage::Welcome {
            version,
            player: self.login.as_ref().map(|l| l.player.public()),
        })
    }

    /// A player's command for one of their seats, to the match's room.
    async fn seat(&mut self, seat: ClientMessage) -> ApiResult<Option<ServerMessage>> {
        let me = self.player()?.id;
        let command = seat.into_seat_command().map_err(|other| {
            ApiError::new(
                ErrorReason::BadRequest,
                format!("{} is not a seat command", other.type_name()),
            )
        })?;
        let (id, match_id) = (command.id.clone(), command.match_id);
        let acting = matches!(command.act, SeatAct::Act { .. });
        let rooms = self.state.rooms();
        let done = rooms
            .ask(
                match_id,
                Command::Seat {
                    player: me,
                    command,
                },
            )
            .await?;
        self.acked_act |= acting;
        Ok(Some(ServerMessage::Ack { id, ack: done }))
    }

    /// Follows a match's events on this socket.
    async fn follow(
        &mut self,
        match_id: MatchId,
        since: Option<protocol::Seq>,
        invite: Option<String>,
    ) -> ApiResult<Ack> {
        let (conn, player, outbox) = (self.conn, self.player_id(), self.outbox.clone());
        let ack = self
            .state
            .rooms()
            .ask(
                match_id,
                Command::Watch {
                    conn,
                    player,
                    invite,
                    since,
                    outbox: Some(outbox),
                },
            )
            .await?;
        if !self.watching.contains(&match_id) {
            self.watching.push(match_id);
        }
        Ok(ack)
    }
}

/// Sends `first`, if any, then every frame already waiting in the outbox, and flushes once:
/// a move's ack and the event it caused leave in one write, not one system call each.
async fn send_with_pending(
    socket: &mut WebSocket,
    first: Option<Frame>,
    inbox: &mut mpsc::Receiver<Frame>,
) -> Result<(), axum::Error> {
    let waiting = std::iter::from_fn(|| inbox.try_recv().ok());
    for frame in first.into_iter().chain(waiting) {
        socket.feed(Message::Text(frame.as_ref().into())).await?;
    }
    socket.flush().await
}

/// Sends an error, if any, then a close frame with this code and reason, and waits a moment
/// for the client's close.
async fn close_with(socket: &mut WebSocket, error: Option<&ApiError>, code: u16, reason: &str) {
    if let Some(error) = error {
        let text = error_frame(None, error);
        if socket
            .send(Message::Text(text.as_ref().into()))
            .await
            .is_err()
        {
            return;
        }
    }
    let close = Message::Close(Some(CloseFrame {
        code,
        reason: reason.to_string().into(),
    }));
    if socket.send(close).await.is_err() {
        return;
    }
    wait_for_close(socket).await;
}

/// The close handshake: the client answers with its own close frame (or is given a second).
async fn wait_for_close(socket: &mut WebSocket) {
    let answered = async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), answered).await;
}

/// Tells a socket the server is stopping: the frames already queued for it, `shutdown`, and a
/// close frame with code 1012 "service restart"; then waits a moment for the client's close.
async fn say_goodbye(socket: &mut WebSocket, inbox: &mut mpsc::Receiver<Frame>) {
    if send_with_pending(socket, None, inbox).await.is_err() {
        return;
    }
    let bye = frame(&ServerMessage::Shutdown {
        reconnect_after_ms: RECONNECT_AFTER_MS,
    });
    let close = Message::Close(Some(CloseFrame {
        code: SERVICE_RESTART,
        reason: "service restart".into(),
    }));
    if socket
        .send(Message::Text(bye.as_ref().into()))
        .await
        .is_err()
        || socket.send(close).await.is_err()
    {
        return;
    }
    wait_for_close(socket).await;
}

/// Whether a read failed because a frame or message was past the library's size limits
/// (tungstenite's `Error::Capacity`). axum boxes the library's error and does not re-export its
/// type, so it is recognised by its text ("Space limit exceeded: Message too long: ..."); the
/// bad_input test of the hard cap notices if a new version words it differently.
fn is_capacity_error(e: &axum::Error) -> bool {
    e.to_string().starts_with("Space limit exceeded")
}

/// Closes a socket whose peer sent a message past the hard cap, with 1009 and the limit.
///
/// The library refused the frame at its header: its reader is done (the stream ends; the
/// payload is still on the wire, unread), but its writer is not, so the close frame can still go
/// out. The closing handshake cannot be finished (the peer's close would come after the unread
/// payload), so the connection is kept a moment instead: closing a socket with unread data
/// resets it, and the close frame should reach the peer first. Nothing is read meanwhile; what
/// the peer still sends waits in the kernel's receive buffer, which is bounded.
async fn close_too_big(socket: &mut WebSocket, limit: usize) {
    let close = Message::Close(Some(CloseFrame {
        code: MESSAGE_TOO_BIG,
        reason: format!("messages are at most {limit} bytes").into(),
    }));
    match tokio::time::timeout(CLOSE_LINGER, socket.send(close)).await {
        Ok(Ok(())) => tokio::time::sleep(CLOSE_LINGER).await,
        Ok(Err(e)) => tracing::debug!(error = %e, "the close frame could not be sent"),
        Err(_) => tracing::debug!("the close frame could not be sent in time"),
    }
}
