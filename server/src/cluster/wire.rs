//! What nodes say to each other: every message, and a room's command as it travels (the
//! room's [`Command`] without its reply channel and outbox), with where its answer goes.

use std::future::Future;
use std::pin::Pin;

use protocol::{Ack, ErrorCode, MatchId, PlayerId, SeatCommand, Seq, TournamentId};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::oneshot;

use super::store::NodeId;
use crate::accounts::player::Player;
use crate::chat::rules::ChatText;
use crate::error::{ApiError, ApiResult};
use crate::matches::Command;
use crate::matches::rematch::{Deal, RematchAnswer};
use crate::queue::pool::Pool;
use crate::sockets::{ConnId, Fanout, Outbox, Revocation};

/// A message between nodes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Wire {
    /// A call, to be answered with the same `req`.
    Ask {
        from: NodeId,
        req: u64,
        call: Call,
    },
    Answer {
        req: u64,
        answer: ApiResult<Value>,
    },
    /// Frames for a socket of the receiving node, in the order its match's room sent them.
    Frames {
        conn: ConnId,
        frames: Vec<String>,
    },
    /// These sockets of the receiving node should reconnect: the room they followed moved.
    Reconnect {
        conns: Vec<ConnId>,
    },
    /// A frame for every node's sockets that `to` picks (sent to every node).
    Fanout {
        from: NodeId,
        to: Fanout,
        frame: String,
    },
    /// Sessions or accounts revoked: every node closes their sockets.
    Revoke {
        from: NodeId,
        revocation: Revocation,
    },
    /// Something changed for the tournament director (a tournament was created or entered).
    Poke {
        from: NodeId,
    },
    /// A node stops: it is no longer live, and what it held may be taken now.
    Gone {
        node: NodeId,
    },
}

/// What one node asks another to do.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    Room {
        match_id: MatchId,
        command: RoomCall,
    },
    QueueJoin {
        pool: Pool,
        conn: ConnId,
        player: Player,
        ai_after_ms: Option<u64>,
    },
    QueueLeave {
        conn: ConnId,
    },
    QueueRemovePlayer {
        player: PlayerId,
    },
    QueuePools,
    StartTournament {
        id: TournamentId,
    },
    /// What the lists show of these matches whose rooms run on the node asked.
    Glimpses {
        ids: Vec<MatchId>,
        wake: bool,
    },
}

/// A room's command as it travels: see [`Command`] for each.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "room", rename_all = "snake_case")]
pub enum RoomCall {
    Join {
        player: Player,
        seat: Option<u8>,
        invited: bool,
    },
    Watch {
        conn: ConnId,
        player: Option<PlayerId>,
        invite: Option<String>,
        since: Option<Seq>,
    },
    Unwatch {
        conn: ConnId,
        closed: bool,
    },
    Seat {
        player: PlayerId,
        command: SeatCommand,
    },
    Rematch {
        player: PlayerId,
        answer: RematchAnswer,
    },
    Rematched {
        opened: Option<MatchId>,
    },
    Chat {
        conn: ConnId,
        author: Player,
        text: ChatText,
    },
    Forfeit {
        seats: Vec<u8>,
    },
    Vacation {
        player: PlayerId,
        until_ms: Option<i64>,
    },
    Banned {
        player: PlayerId,
    },
    Expire {
        entries: usize,
    },
}

/// Where the answer of a command sent elsewhere goes: its reply channel, by type.
pub enum Port {
    Ack(oneshot::Sender<ApiResult<Ack>>),
    Deal(oneshot::Sender<ApiResult<Option<Deal>>>),
    Seats(oneshot::Sender<ApiResult<Vec<u8>>>),
    Flag(oneshot::Sender<ApiResult<bool>>),
    /// Nobody waits (a socket left, a vacation began).
    Nobody,
}

impl Port {
    /// Gives the owner's answer to whoever waits for it.
    pub fn answer(self, answer: ApiResult<Value>) {
        fn give<T: DeserializeOwned>(to: oneshot::Sender<ApiResult<T>>, answer: ApiResult<Value>) {
            let typed = answer.and_then(|v| {
                serde_json::from_value(v).map_err(|e| {
                    tracing::error!(error = %e, "cluster: an answer could not be read");
                    unreachable_node()
                })
            });
            let _ = to.send(typed);
        }
        match self {
            Port::Ack(to) => give(to, answer),
            Port::Deal(to) => give(to, answer),
            Port::Seats(to) => give(to, answer),
            Port::Flag(to) => give(to, answer),
            Port::Nobody => {}
        }
    }
}

/// A command as it travels to the match's owner, where its answer goes, and (a watch) the
/// outbox of the socket that follows. The AI's own moves never leave their room: `Err`.
pub fn split(command: Command) -> Result<(RoomCall, Port, Option<Outbox>), Command> {
    Ok(match command {
        Command::Join {
            player,
            seat,
            invited,
            reply,
        } => (
            RoomCall::Join {
                player,
                seat,
                invited,
            },
            Port::Ack(reply),
            None,
        ),
        Command::Watch {
            conn,
            player,
            invite,
            since,
            outbox,
            reply,
        } => (
            RoomCall::Watch {
                conn,
                player,
                invite,
                since,
            },
            Port::Ack(reply),
            Some(outbox),
        ),
        Command::Unwatch { conn, closed } => {
            (RoomCall::Unwatch { conn, closed }, Port::Nobody, None)
        }
        Command::Seat {
            player,
            command,
            reply,
        } => (RoomCall::Seat { player, command }, Port::Ack(reply), None),
        Command::Rematch {
            player,
            answer,
            reply,
        } => (
            RoomCall::Rematch { player, answer },
            Port::Deal(reply),
            None,
        ),
        Command::Rematched { opened } => (RoomCall::Rematched { opened }, Port::Nobody, None),
        Command::Chat {
            conn,
            author,
            text,
            reply,
        } => (
            RoomCall::Chat { conn, author, text },
            Port::Ack(reply),
            None,
        ),
        Command::Forfeit { seats, reply } => {
            (RoomCall::Forfeit { seats }, Port::Seats(reply), None)
        }
        Command::Vacation { player, until_ms } => {
            (RoomCall::Vacation { player, until_ms }, Port::Nobody, None)
        }
        Command::Banned { player, reply } => (RoomCall::Banned { player }, Port::Flag(reply), None),
        Command::Expire { entries, reply } => {
            (RoomCall::Expire { entries }, Port::Flag(reply), None)
        }
        ai @ Command::AiMove { .. } => return Err(ai),
    })
}

pub type Answer = Pin<Box<dyn Future<Output = ApiResult<Value>> + Send>>;

/// A reply channel of the right type, and its answer as it will travel.
fn reply_of<T: Serialize + Send + 'static>() -> (oneshot::Sender<ApiResult<T>>, Answer) {
    let (reply, answer) = oneshot::channel();
    let answer = async move {
        let answer = answer.await.map_err(|_| unreachable_node())??;
        Ok(serde_json::to_value(answer).expect("answers serialise"))
    };
    (reply, Box::pin(answer))
}

/// A reply channel of the type a call's command answers with, and its answer as it will travel.
pub fn port_for(call: &RoomCall) -> (Port, Answer) {
    match call {
        RoomCall::Join { .. }
        | RoomCall::Watch { .. }
        | RoomCall::Seat { .. }
        | RoomCall::Chat { .. } => {
            let (reply, answer) = reply_of();
            (Port::Ack(reply), answer)
        }
        RoomCall::Rematch { .. } => {
            let (reply, answer) = reply_of();
            (Port::Deal(reply), answer)
        }
        RoomCall::Forfeit { .. } => {
            let (reply, answer) = reply_of();
            (Port::Seats(reply), answer)
        }
        RoomCall::Expire { .. } | RoomCall::Banned { .. } => {
            let (reply, answer) = reply_of();
            (Port::Flag(reply), answer)
        }
        RoomCall::Unwatch { .. } | RoomCall::Rematched { .. } | RoomCall::Vacation { .. } => {
            (Port::Nobody, Box::pin(async { Ok(Value::Null) }))
        }
    }
}

impl RoomCall {
    /// The room's command again, its answer going to `port` (of the type [`port_for`] gives)
    /// and a watching socket's frames to `outbox`: on the owner, for a call from another node,
    /// or here, for a command this node had sent to a node that lost the match. `None` if the
    /// port is not of the call's type.
    pub fn into_command(
        self,
        port: Port,
        outbox: impl FnOnce(ConnId) -> Outbox,
    ) -> Option<Command> {
        Some(match (self, port) {
            (
                RoomCall::Join {
                    player,
                    seat,
                    invited,
                },
                Port::Ack(reply),
            ) => Command::Join {
                player,
                seat,
                invited,
                reply,
            },
            (
                RoomCall::Watch {
                    conn,
                    player,
                    invite,
                    since,
                },
                Port::Ack(reply),
            ) => Command::Watch {
                conn,
                player,
                invite,
                since,
                outbox: outbox(conn),
                reply,
            },
            (RoomCall::Unwatch { conn, closed }, _) => Command::Unwatch { conn, closed },
            (RoomCall::Seat { player, command }, Port::Ack(reply)) => Command::Seat {
                player,
                command,
                reply,
            },
            (RoomCall::Rematch { player, answer }, Port::Deal(reply)) => Command::Rematch {
                player,
                answer,
                reply,
            },
            (RoomCall::Rematched { opened }, _) => Command::Rematched { opened },
            (RoomCall::Chat { conn, author, text }, Port::Ack(reply)) => Command::Chat {
                conn,
                author,
                text,
                reply,
            },
            (RoomCall::Forfeit { seats }, Port::Seats(reply)) => Command::Forfeit { seats, reply },
            (RoomCall::Vacation { player, until_ms }, _) => Command::Vacation { player, until_ms },
            (RoomCall::Banned { player }, Port::Flag(reply)) => Command::Banned { player, reply },
            (RoomCall::Expire { entries }, Port::Flag(reply)) => Command::Expire { entries, reply },
            _ => return None,
        })
    }
}

/// What a caller is told when another node does not answer (it is dying, or gone).
pub fn unreachable_node() -> ApiError {
    ApiError::new(
        ErrorCode::Internal,
        "another server node did not answer: reconnect and try again",
    )
}
