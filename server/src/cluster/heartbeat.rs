//! A node's heartbeat, once a second: it says it is alive, learns which peers are, claims the
//! single jobs whose holder is gone, drops the rooms of matches another node took from it (it
//! was paused, or cut off), takes its share of the matches dead nodes left, and sends its
//! sockets that followed a dead node's match to follow it again. It also beats at once when a
//! peer's process died (looked for every [`LOOK`]) or a peer said it stops.

use std::collections::HashMap;

use tokio::time::Instant;

use super::store::NodeRow;
use super::{Cluster, HEARTBEAT, LOOK, NodeId, Singleton, View, bus, lock, remote, wire};
use crate::state::AppState;
use crate::store::StoreResult;

/// Starts the messages between nodes (PostgreSQL only) and the heartbeat.
pub fn start(state: AppState) {
    let cluster = state.cluster().clone();
    if !cluster.solo() {
        let url = &state.config().database_url;
        let listening = state.clone();
        let bus = bus::Bus::start(url, cluster.node(), state.store().clone(), move |wire| {
            remote::handle(&listening, wire)
        });
        let _ = cluster.inner.bus.set(bus);
        let me = cluster.node();
        let elsewhere = cluster.clone();
        state.sockets().reach_elsewhere(Box::new(move |to, frame| {
            let (to, frame) = (to.clone(), frame.to_string());
            elsewhere.send(
                None,
                &wire::Wire::Fanout {
                    from: me,
                    to,
                    frame,
                },
            );
        }));
    }
    let shutdown = state.shutdown().clone();
    shutdown.spawn_job(async move {
        let stopping = state.shutdown().stopped();
        tokio::pin!(stopping);
        let mut beats = tokio::time::interval(HEARTBEAT);
        beats.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut looks = tokio::time::interval(LOOK);
        looks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let cluster = state.cluster().clone();
        loop {
            let now = tokio::select! {
                () = &mut stopping => return,
                _ = beats.tick() => true,
                () = cluster.inner.peer_left.notified() => true,
                _ = looks.tick(), if !cluster.solo() => cluster.peer_died().await,
            };
            if now && let Err(e) = beat(&state).await {
                tracing::warn!(error = %e, "cluster: heartbeat failed");
            }
        }
    });
}

async fn beat(state: &AppState) -> StoreResult<()> {
    let cluster = state.cluster();
    let store = state.store();
    let me = cluster.node();
    let sent = Instant::now();
    let now = crate::clock::now_ms();
    if !cluster.beat(now).await? {
        // This node said it stopped: it holds nothing any more.
        return Ok(());
    }
    let live = match cluster.solo() {
        true => cluster.view().live.clone(),
        false => store.live_nodes(super::alive_since()).await?,
    };
    let is_live = |node: NodeId| live.iter().any(|n| n.id == node);
    // Alone (SQLite), this node runs every job without asking.
    let holders = match cluster.solo() {
        true => HashMap::new(),
        false => claim_jobs(cluster, &live).await?,
    };
    {
        let mut view = cluster
            .inner
            .view
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *view = View {
            live: live.clone(),
            holders,
            confirmed: Some(sent),
        };
    }
    // Rooms of matches another node took: this node must not serve them any more. The rooms
    // are listed first: a match taken here is in the table before its room starts, so a room
    // started after this reading is not mistaken for one lost.
    let rooms = state.rooms().epochs();
    let owned: HashMap<_, _> = store.owned_by(me).await?.into_iter().collect();
    for (id, epoch) in rooms {
        if owned.get(&id) != Some(&epoch) {
            tracing::warn!(
                match_id = id.0,
                "cluster: another node took this match; its room stops here"
            );
            state.rooms().drop_room(id);
        }
    }
    if !cluster.solo() {
        take_orphans(state, &live).await?;
        cluster.fail_calls_to_dead();
        let conns = cluster.orphaned_follows();
        if !conns.is_empty() {
            tracing::info!(
                sockets = conns.len(),
                "cluster: a node died; its followers reconnect"
            );
            cluster.reconnect(conns);
        }
    }
    crate::metrics::cluster(me.0, cluster.name(), live.len(), state.rooms().count());
    if !is_live(me) {
        tracing::warn!("cluster: this node's own heartbeat is not recent");
    }
    Ok(())
}

/// Claims every single job that nobody holds or whose holder is not live. Returns who holds
/// what now.
async fn claim_jobs(
    cluster: &Cluster,
    live: &[NodeRow],
) -> StoreResult<HashMap<Singleton, (NodeId, super::Epoch)>> {
    let store = &cluster.inner.store;
    let me = cluster.node();
    let read = |held: Vec<(String, NodeId, super::Epoch)>| {
        Singleton::ALL
            .into_iter()
            .filter_map(|job| {
                let (_, node, epoch) = held.iter().find(|(name, _, _)| name == job.name())?;
                Some((job, (*node, *epoch)))
            })
            .collect::<HashMap<_, _>>()
    };
    let mut holders = read(store.singleton_holders().await?);
    let mut claimed = false;
    for job in Singleton::ALL {
        let seen = match holders.get(&job) {
            None => None,
            Some((node, _)) if *node == me || live.iter().any(|n| n.id == *node) => continue,
            Some((_, epoch)) => Some(*epoch),
        };
        if store.claim_singleton(job.name(), seen, me).await? {
            tracing::info!(job = job.name(), "cluster: this node runs the job now");
            claimed = true;
        }
    }
    if claimed {
        holders = read(store.singleton_holders().await?);
    }
    Ok(holders)
}

/// Takes this node's share of the unfinished matches whose owner is dead or stopped, and starts
/// their rooms from the store.
async fn take_orphans(state: &AppState, live: &[NodeRow]) -> StoreResult<()> {
    let store = state.store();
    let me = state.cluster().node();
    let live_ids: Vec<NodeId> = live.iter().map(|n| n.id).collect();
    let released = store.release_finished_of_gone(&live_ids).await?;
    if released > 0 {
        tracing::info!(
            matches = released,
            "cluster: gave up the finished matches of a node that is gone"
        );
    }
    let orphans = store.orphaned_matches(&live_ids).await?;
    if orphans.is_empty() {
        return Ok(());
    }
    // A share each, so that one node does not take all of a dead node's matches; whatever is
    // left is taken on later beats.
    let share = orphans.len().div_ceil(live_ids.len().max(1));
    let mut taken = 0;
    for (id, seen) in orphans {
        if taken == share {
            break;
        }
        if store.take_over(id, seen, me, super::alive_since()).await? {
            let epoch = super::Epoch(seen.0 + 1);
            lock(&state.cluster().inner.owners).remove(&id);
            if state.rooms().adopt(id, epoch).await {
                taken += 1;
            }
        }
    }
    // Another node, or this one's restore at start, may have taken them first.
    if taken > 0 {
        tracing::info!(
            matches = taken,
            "cluster: took over matches of a node that is gone"
        );
    }
    Ok(())
}
