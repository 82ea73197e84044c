//! Running analyses on the AI's threads without ever taking the last of them from live games.
//!
//! An analysis takes two permits before it searches: one of its own share (at most
//! `ai_threads - 1` analyses at once, at least one), then one of the AI pool that live matches'
//! AI seats also take from. So however many analyses are asked for, at least one AI thread is
//! left to the live games (with a pool of one thread, they share it, and an AI seat waits at
//! most one analysis's bound). A request waits for its permits at most its bound, and is
//! refused as busy, with a `Retry-After`, if they do not come by then; once it has a thread, its
//! search has the whole bound, so that an answer is never a search cut short because the
//! thread came late.

use std::sync::Arc;
use std::time::{Duration, Instant};

use protocol::{AnalysisInsights, ErrorReason};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::matches::hosted::{Analysed, Hosted};

/// How long a request refused as busy is told to wait.
const BUSY_RETRY: Duration = Duration::from_secs(1);

pub struct Analyst {
    /// The AI pool, shared with the rooms' AI seats.
    ai_threads: Arc<Semaphore>,
    /// The analyses' share of it.
    share: Arc<Semaphore>,
    bound: Duration,
    max_nodes: u64,
}

/// What an analysis found, and the bounds it kept to.
pub struct Finding {
    pub analysed: Analysed,
    pub insights: Option<AnalysisInsights>,
    pub bound: Duration,
    pub max_nodes: u64,
}

impl Analyst {
    pub fn new(ai_threads: Arc<Semaphore>, config: &Config) -> Analyst {
        let share = config.ai_threads.saturating_sub(1).max(1);
        Analyst {
            ai_threads,
            share: Arc::new(Semaphore::new(share)),
            bound: Duration::from_millis(config.analysis_ms),
            max_nodes: config.analysis_nodes,
        }
    }

    /// Analyses `game` for `seat` on a thread of the AI pool, if one comes free by `arrived`
    /// plus the bound; the search then runs for the bound.
    pub async fn run(
        &self,
        game: Box<dyn Hosted>,
        seat: u8,
        arrived: Instant,
    ) -> ApiResult<Finding> {
        let waited_enough = arrived + self.bound;
        let share = permit(&self.share, waited_enough).await?;
        let thread = permit(&self.ai_threads, waited_enough).await?;
        let deadline = Instant::now() + self.bound;
        let max_nodes = self.max_nodes;
        let search = move || {
            // Held until the search ends, even if the request is gone by then.
            let _permits = (share, thread);
            let stop = || Instant::now() >= deadline;
            let analysed = game.analyse(seat, max_nodes, &stop);
            (analysed, game.insights())
        };
        let (analysed, insights) = tokio::task::spawn_blocking(search).await.map_err(|e| {
            tracing::error!(error = %e, "an analysis failed");
            ApiError::new(ErrorReason::Internal, "the analysis failed")
        })?;
        let analysed = analysed.ok_or_else(|| {
            ApiError::new(
                ErrorReason::BadRequest,
                format!("seat {seat} need not act here"),
            )
        })?;
        Ok(Finding {
            analysed,
            insights,
            bound: self.bound,
            max_nodes,
        })
    }
}

/// A permit of `pool`, if one comes free before `deadline`.
async fn permit(pool: &Arc<Semaphore>, deadline: Instant) -> ApiResult<OwnedSemaphorePermit> {
    let wait = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(wait, pool.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok(permit),
        Ok(Err(_)) => Err(ApiError::new(
            ErrorReason::Internal,
            "the AI pool is closed",
        )),
        Err(_) => Err(ApiError::rate_limited(
            |seconds| ErrorReason::AnalysisBusy { seconds },
            "every thread the analyses may use is busy",
            BUSY_RETRY,
        )),
    }
}
