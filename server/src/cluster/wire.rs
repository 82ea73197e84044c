//! What nodes say to each other: every message. A room's command travels as it is (see
//! [`Command`]).

use protocol::{ErrorReason, MatchId, PlayerId, TournamentId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::store::NodeId;
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::Command;
use crate::matches::command::{Answer, Reply};
use crate::queue::pool::Pool;
use crate::sockets::{ConnId, Fanout, Revocation};

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
        command: Command,
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

/// Gives the answer another node sent for a room's command to whoever waits for it.
pub fn give(reply: Reply, answer: ApiResult<Value>) {
    let answer = answer.and_then(|v| {
        serde_json::from_value::<Answer>(v).map_err(|e| {
            tracing::error!(error = %e, "cluster: an answer could not be read");
            unreachable_node()
        })
    });
    if let Some(reply) = reply {
        let _ = reply.send(answer);
    }
}

/// What a caller is told when another node does not answer (it is dying, or gone).
pub fn unreachable_node() -> ApiError {
    ApiError::new(
        ErrorReason::NodeUnreachable,
        "another server node did not answer: reconnect and try again",
    )
}
