//! What nodes say to each other, and what a node does when asked. A command for a match owned
//! elsewhere travels as a [`RoomCall`] (the room's [`Command`] without its reply channel and
//! outbox); the owner runs it on the room and answers, and the events of a socket that follows
//! from another node go back to that node as frames, in order. The queue and the tournament
//! director are asked the same way on the node that runs them.

use std::future::Future;
use std::pin::Pin;

use protocol::{Ack, MatchId, PlayerId, SeatCommand, Seq, TournamentId};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::{Cluster, NodeId};
use crate::chat::rules::ChatText;
use crate::error::ApiResult;
use crate::matches::Command;
use crate::matches::rematch::{Deal, RematchAnswer};
use crate::player::Player;
use crate::queue::Pool;
use crate::sockets::{ConnId, Fanout, OUTBOX_FRAMES, Outbox};
use crate::state::{AppState, Revocation};

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
}

/// A room's command as it travels: see [`Command`] for each.
#[derive(Debug, Serialize, Deserialize)]
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
                    super::unreachable_node()
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
        Command::Expire { entries, reply } => {
            (RoomCall::Expire { entries }, Port::Flag(reply), None)
        }
        ai @ Command::AiMove { .. } => return Err(ai),
    })
}

type Answer = Pin<Box<dyn Future<Output = ApiResult<Value>> + Send>>;

/// A reply channel of the right type, and its answer as it will travel.
fn reply_of<T: Serialize + Send + 'static>() -> (oneshot::Sender<ApiResult<T>>, Answer) {
    let (reply, answer) = oneshot::channel();
    let answer = async move {
        let answer = answer.await.map_err(|_| super::unreachable_node())??;
        Ok(serde_json::to_value(answer).expect("answers serialise"))
    };
    (reply, Box::pin(answer))
}

fn nothing() -> Answer {
    Box::pin(async { Ok(Value::Null) })
}

impl RoomCall {
    /// The command as this node's room runs it for node `from`, and its answer. A watching
    /// socket's frames are relayed to its node.
    fn command(self, cluster: &Cluster) -> (Command, Answer) {
        match self {
            RoomCall::Join {
                player,
                seat,
                invited,
            } => {
                let (reply, answer) = reply_of();
                let command = Command::Join {
                    player,
                    seat,
                    invited,
                    reply,
                };
                (command, answer)
            }
            RoomCall::Watch {
                conn,
                player,
                invite,
                since,
            } => {
                let (reply, answer) = reply_of();
                let command = Command::Watch {
                    conn,
                    player,
                    invite,
                    since,
                    outbox: relay(cluster, conn),
                    reply,
                };
                (command, answer)
            }
            RoomCall::Unwatch { conn, closed } => (Command::Unwatch { conn, closed }, nothing()),
            RoomCall::Seat { player, command } => {
                let (reply, answer) = reply_of();
                let command = Command::Seat {
                    player,
                    command,
                    reply,
                };
                (command, answer)
            }
            RoomCall::Rematch { player, answer } => {
                let (reply, answered) = reply_of();
                let command = Command::Rematch {
                    player,
                    answer,
                    reply,
                };
                (command, answered)
            }
            RoomCall::Rematched { opened } => (Command::Rematched { opened }, nothing()),
            RoomCall::Chat { conn, author, text } => {
                let (reply, answer) = reply_of();
                let command = Command::Chat {
                    conn,
                    author,
                    text,
                    reply,
                };
                (command, answer)
            }
            RoomCall::Forfeit { seats } => {
                let (reply, answer) = reply_of();
                (Command::Forfeit { seats, reply }, answer)
            }
            RoomCall::Vacation { player, until_ms } => {
                (Command::Vacation { player, until_ms }, nothing())
            }
            RoomCall::Expire { entries } => {
                let (reply, answer) = reply_of();
                (Command::Expire { entries, reply }, answer)
            }
        }
    }
}

/// An outbox here whose frames go, in order, to socket `conn` on its own node. Ends when the
/// room lets it go, or when that node is no longer live.
pub fn relay(cluster: &Cluster, conn: ConnId) -> Outbox {
    let node = Cluster::node_of(conn);
    let (outbox, mut frames) = mpsc::channel(OUTBOX_FRAMES);
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let mut batch: Vec<crate::sockets::Frame> = Vec::with_capacity(OUTBOX_FRAMES);
        while frames.recv_many(&mut batch, OUTBOX_FRAMES).await > 0 {
            if !cluster.is_live(node) {
                return;
            }
            let frames = batch.drain(..).map(|f| f.to_string()).collect();
            cluster.send(Some(node), &Wire::Frames { conn, frames });
        }
    });
    outbox
}

/// Runs another node's call here, and answers it.
pub async fn execute(state: &AppState, call: Call) -> ApiResult<Value> {
    let cluster = state.cluster();
    match call {
        Call::Room { match_id, command } => {
            let (command, answer) = command.command(cluster);
            state.rooms().deliver_here(match_id, command).await?;
            answer.await
        }
        Call::QueueJoin {
            pool,
            conn,
            player,
            ai_after_ms,
        } => {
            let ai_after = ai_after_ms.map(std::time::Duration::from_millis);
            let outbox = relay(cluster, conn);
            to_value(
                state
                    .queue()
                    .join_here(pool, conn, player, ai_after, outbox)
                    .await,
            )
        }
        Call::QueueLeave { conn } => to_value(state.queue().leave_here(conn).await),
        Call::QueueRemovePlayer { player } => {
            to_value(state.queue().remove_player_here(player).await)
        }
        Call::QueuePools => to_value(state.queue().pools_here().await),
        Call::StartTournament { id } => to_value(state.tournaments().begin_here(id).await),
    }
}

fn to_value<T: Serialize>(answer: ApiResult<T>) -> ApiResult<Value> {
    answer.map(|v| serde_json::to_value(v).expect("answers serialise"))
}

/// What a node does with a message from another.
pub fn handle(state: &AppState, wire: Wire) {
    let cluster = state.cluster();
    let me = cluster.node();
    match wire {
        Wire::Ask { from, req, call } => {
            cluster.heard_from(from);
            let state = state.clone();
            tokio::spawn(async move {
                let answer = execute(&state, call).await;
                state
                    .cluster()
                    .send(Some(from), &Wire::Answer { req, answer });
            });
        }
        Wire::Answer { req, answer } => cluster.answered(req, answer),
        Wire::Frames { conn, frames } => cluster.deliver(conn, frames),
        Wire::Reconnect { conns } => {
            for conn in conns {
                cluster.revoke_here(Revocation::Reconnect(conn));
            }
        }
        Wire::Fanout { from, to, frame } if from != me => {
            state.sockets().deliver(&to, &frame.into());
        }
        Wire::Revoke { from, revocation } if from != me => cluster.revoke_here(revocation),
        Wire::Poke { from } if from != me => state.tournaments().poke_here(),
        Wire::Gone { node } if node != me => cluster.forget_node(node),
        Wire::Fanout { .. } | Wire::Revoke { .. } | Wire::Poke { .. } | Wire::Gone { .. } => {}
    }
}

/// Runs a call here when this node is the one to run it, else asks `holder`.
pub async fn here_or_there<T: DeserializeOwned>(
    cluster: &Cluster,
    holder: Option<NodeId>,
    call: impl FnOnce() -> Call,
    here: impl Future<Output = ApiResult<T>>,
) -> ApiResult<T> {
    match holder {
        Some(node) if node != cluster.node() => {
            let answer = cluster.call(node, call()).await?;
            serde_json::from_value(answer).map_err(|_| super::unreachable_node())
        }
        _ => here.await,
    }
}
