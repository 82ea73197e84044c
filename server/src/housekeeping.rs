//! Housekeeping, every `--housekeeping-secs`: guest accounts unused for `--guest-idle-days` are
//! removed (their finished matches stay, under an anonymous name), and casual matches without a
//! clock in which nothing has happened for `--idle-match-mins` are called off (reason `idle`),
//! so that abandoned games do not pile up among the live ones. Also forgotten: failed logins
//! long past, messages between nodes long read, commands' acks kept for resends, and the nodes
//! gone for a day that nothing refers to. In a cluster, one node does it.

use std::time::Duration;

use crate::cluster::Singleton;
use crate::matches::Command;
use crate::state::AppState;

pub fn start(state: AppState) {
    let every = Duration::from_secs(state.config().housekeeping_secs);
    let stopping = state.shutdown().stopped();
    let shutdown = state.shutdown().clone();
    shutdown.spawn_job(async move {
        tokio::pin!(stopping);
        // The first pass waits one period, so that the unfinished matches are restored first.
        let mut passes = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        passes.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = &mut stopping => return,
                _ = passes.tick() => pass(&state).await,
            }
        }
    });
}

/// One round of housekeeping, on the one node of a cluster that runs it. A failure is logged
/// and tried again next time.
async fn pass(state: &AppState) {
    if !state.cluster().leads(Singleton::Housekeeping) {
        return;
    }
    let now = crate::clock::now_ms();
    // Long messages between nodes were read within the second they were sent.
    if let Err(e) = state.store().forget_messages(now - 60_000).await {
        tracing::warn!(error = %e, "could not remove old cluster messages");
    }
    // A command is resent within moments of its lost ack, not a day later.
    if let Err(e) = state
        .store()
        .forget_acks(now - crate::resends::KEPT_MS)
        .await
    {
        tracing::warn!(error = %e, "could not forget old command acks");
    }
    // Who was online on nodes that are gone.
    if let Err(e) = state
        .store()
        .forget_dead_presence(crate::cluster::alive_since())
        .await
    {
        tracing::warn!(error = %e, "could not forget who was online on dead nodes");
    }
    // Every process that ever ran has a row; those gone long since go (what they held went to
    // others a lease after they died).
    let gone_since = now - crate::cluster::FORGOTTEN_AFTER.as_millis() as i64;
    if let Err(e) = state.store().forget_nodes(gone_since).await {
        tracing::warn!(error = %e, "could not forget nodes long gone");
    }
    // Failed logins a quiet spell as long as the longest lock ago start afresh anyway.
    let memory = state.limits().failed_logins().memory().as_millis() as i64;
    if let Err(e) = state.store().forget_login_failures(now - memory).await {
        tracing::warn!(error = %e, "could not forget old failed logins");
    }
    let config = state.config();
    let guests_idle_since = now - (config.guest_idle_days * 24 * 3600 * 1000) as i64;
    match state
        .store()
        .remove_idle_guests(guests_idle_since, now)
        .await
    {
        Ok(0) => {}
        Ok(removed) => tracing::info!(removed, "idle guest accounts removed"),
        Err(e) => tracing::warn!(error = %e, "could not remove idle guests"),
    }
    let matches_idle_since = now - (config.idle_match_mins * 60 * 1000) as i64;
    let idle = match state.store().idle_matches(matches_idle_since).await {
        Ok(idle) => idle,
        Err(e) => {
            tracing::warn!(error = %e, "could not list idle matches");
            return;
        }
    };
    for (id, entries) in idle {
        let expired = state.rooms().ask(id, Command::Expire { entries }).await;
        match expired {
            Ok(true) => tracing::info!(match_id = id.0, "idle match called off"),
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(match_id = id.0, error = %e, "could not call off an idle match")
            }
        }
    }
}
