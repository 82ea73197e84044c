//! What a node does when another asks (`wire.rs` has what they say): a command for a match it
//! owns is run on the room and answered, and the events of a socket that follows from another
//! node go back to that node as frames, in order. The queue and the tournament director are
//! asked the same way on the node that runs them.

use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use super::Cluster;
use super::wire::{Call, Wire};
use crate::error::ApiResult;
use crate::matches::Command;
use crate::sockets::{ConnId, Frame, OUTBOX_FRAMES, Outbox, Revocation};
use crate::state::AppState;

/// An outbox here whose frames go, in order, to socket `conn` on its own node. Ends when the
/// room lets it go, or when that node is no longer live.
pub fn relay(cluster: &Cluster, conn: ConnId) -> Outbox {
    let node = Cluster::node_of(conn);
    let (outbox, mut frames) = mpsc::channel(OUTBOX_FRAMES);
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let mut batch: Vec<Frame> = Vec::with_capacity(OUTBOX_FRAMES);
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
        Call::Room {
            match_id,
            mut command,
        } => {
            if let Command::Watch { conn, outbox, .. } = &mut command {
                *outbox = Some(relay(cluster, *conn));
            }
            to_value(state.rooms().answer_here(match_id, command).await)
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
        Call::Glimpses { ids, wake } => to_value(Ok(state.rooms().glimpses_here(&ids, wake).await)),
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
            // Answered before this node's store closes.
            let handling = cluster.inner.bus.get().map(super::bus::Bus::handling);
            tokio::spawn(async move {
                let answer = execute(&state, call).await;
                state
                    .cluster()
                    .send(Some(from), &Wire::Answer { req, answer });
                drop(handling);
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
