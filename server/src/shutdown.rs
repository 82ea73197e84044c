//! Graceful shutdown. On SIGTERM or Ctrl-C the server tells every socket to reconnect
//! (`shutdown`, then close code 1012 "service restart"; a socket opened meanwhile gets the same at
//! once), stops accepting connections, lets every background job (the tournament director, the
//! queue, the housekeeping...) finish the pass it is on, lets every match room finish the
//! command it is on, closes the database pool and exits, all within a bounded time. Nothing
//! uses the pool once it is closed, so a clean stop logs no error.
//!
//! Nothing acknowledged is lost: an action is stored before it is acknowledged, and a room stops
//! only between commands, once no socket can send it more. A new instance rebuilds every live
//! match from the store (`Rooms::restore_all`).

use std::future::Future;
use std::sync::Arc;

use tokio::sync::watch;
use tokio::time::Instant;

/// What `shutdown` tells clients to wait before reconnecting: about what a restart takes.
pub const RECONNECT_AFTER_MS: u64 = 1000;

/// The WebSocket close code for "service restart" (RFC 6455, IANA registry).
pub const SERVICE_RESTART: u16 = 1012;

/// The server-wide stop signal, and the sockets still open.
#[derive(Clone)]
pub struct Shutdown {
    stopping: Arc<watch::Sender<bool>>,
    /// Every WebSocket session, so that stopping waits until each has said goodbye (upgraded
    /// connections are no longer the HTTP server's to wait for).
    pub sessions: Tracker,
    /// Every background job that works on the rooms and the store (`spawn_job`), so that
    /// stopping waits until each has ended before the rooms stop and the pool closes.
    pub jobs: Tracker,
}

impl Default for Shutdown {
    fn default() -> Shutdown {
        Shutdown {
            stopping: Arc::new(watch::Sender::new(false)),
            sessions: Tracker::default(),
            jobs: Tracker::default(),
        }
    }
}

impl Shutdown {
    /// Starts stopping the server; calling it again does nothing more.
    pub fn trigger(&self) {
        self.stopping.send_replace(true);
    }

    /// Resolves once the server is stopping (at once if it already is).
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut stopping = self.stopping.subscribe();
        async move {
            // Every handle gone means the server is being torn down (its runtime dropped task
            // by task), not asked to stop: a drain started then would race the teardown, close
            // the pool under rooms still running and answer their sockets with errors.
            if stopping.wait_for(|s| *s).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Runs a background job, which must end soon after [`Shutdown::stopped`] (once the pass it
    /// is on is done): stopping waits for it before the rooms stop and the pool closes.
    pub fn spawn_job(&self, job: impl Future<Output = ()> + Send + 'static) {
        let entered = self.jobs.enter();
        tokio::spawn(async move {
            job.await;
            drop(entered);
        });
    }
}

/// Counts running tasks of one kind (sessions, match rooms) and waits until none is left.
#[derive(Clone)]
pub struct Tracker {
    running: Arc<watch::Sender<usize>>,
}

impl Default for Tracker {
    fn default() -> Tracker {
        Tracker {
            running: Arc::new(watch::Sender::new(0)),
        }
    }
}

/// Held by a running task; dropping it (however the task ends) counts the task out.
pub struct Entered {
    tracker: Tracker,
}

impl Drop for Entered {
    fn drop(&mut self) {
        self.tracker.running.send_modify(|n| *n -= 1);
    }
}

impl Tracker {
    pub fn enter(&self) -> Entered {
        self.running.send_modify(|n| *n += 1);
        Entered {
            tracker: self.clone(),
        }
    }

    pub fn running(&self) -> usize {
        *self.running.borrow()
    }

    /// Waits until no task is running; false if some still were at `deadline`.
    pub async fn idle(&self, deadline: Instant) -> bool {
        tokio::time::timeout_at(deadline, self.ended())
            .await
            .is_ok()
    }

    /// Waits until no task is running.
    pub async fn ended(&self) {
        let mut running = self.running.subscribe();
        // The sender is `self`'s: it outlives this wait.
        let _ = running.wait_for(|n| *n == 0).await;
    }
}

/// Resolves on SIGTERM (what container runtimes and service managers send) or Ctrl-C.
pub async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM; only Ctrl-C stops gracefully");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    #[test]
    fn stopped_resolves_on_a_trigger_only() {
        let shutdown = Shutdown::default();
        let triggered = shutdown.stopped();
        shutdown.trigger();
        assert_eq!(triggered.now_or_never(), Some(()));

        let dropped = Shutdown::default();
        let waiting = dropped.stopped();
        drop(dropped);
        assert_eq!(waiting.now_or_never(), None, "a teardown is not a stop");
    }
}
