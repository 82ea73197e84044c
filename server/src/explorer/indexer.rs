//! Counts finished games for the explorer soon after they finish: every second, on the node that
//! does the housekeeping (one node in a cluster, so that nodes do not queue behind each other's
//! row locks), the waiting games are counted, a batch at a time.

use std::time::Duration;

use crate::cluster::Singleton;
use crate::state::AppState;

/// How often the queue is looked at.
const EVERY: Duration = Duration::from_secs(1);

/// Games counted in one go before the job looks whether the server is stopping.
const BATCH: i64 = 50;

pub fn start(state: AppState) {
    let stopping = state.shutdown().stopped();
    let shutdown = state.shutdown().clone();
    shutdown.spawn_job(async move {
        tokio::pin!(stopping);
        let mut passes = tokio::time::interval(EVERY);
        passes.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // A full batch means more are waiting (a rebuild queues every game): the next batch
        // follows at once, and stopping is looked at between batches.
        let mut more = false;
        loop {
            if !more {
                tokio::select! {
                    () = &mut stopping => return,
                    _ = passes.tick() => {}
                }
            } else if futures_util::FutureExt::now_or_never(&mut stopping).is_some() {
                return;
            }
            more = batch(&state).await;
        }
    });
}

/// Counts a batch of what is waiting; true when the batch was full. A failure is logged and
/// tried again next time.
async fn batch(state: &AppState) -> bool {
    if !state.cluster().leads(Singleton::Housekeeping) {
        return false;
    }
    match state.store().explorer_count_pending(BATCH).await {
        Ok(n) => n == BATCH as usize,
        Err(e) => {
            tracing::warn!(error = %e, "could not count finished games for the explorer");
            false
        }
    }
}
