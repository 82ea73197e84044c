//! The seeks: public matches waiting for players. [`SeekBoard`] sends their list to the lobby's
//! followers on every node whenever it changes ([`SeekBoard::changed`], said by the rooms and by
//! whoever creates a match), and [`poster_left`] withdraws the seeks of a player who left.

use std::sync::Arc;
use std::time::Duration;

use protocol::{MatchSummary, PlayerId, ServerMessage};
use tokio::sync::Notify;

use crate::error::ApiResult;
use crate::matches::Command;
use crate::matches::store::Status;
use crate::shutdown::Shutdown;
use crate::sockets::{Fanout, Sockets, frame};
use crate::state::AppState;
use crate::store::Store;

/// The most seeks listed: a lobby shows a screenful; `GET /api/matches/open` pages through all.
pub const SEEKS_LISTED: usize = 50;

/// How long a player whose last socket closed may take to come back before their seeks are
/// withdrawn: a page reload or a dropped connection reconnects within it, a player who closed
/// the tab does not, and their seek would otherwise start a match for nobody.
pub const POSTER_GRACE: Duration = Duration::from_secs(3);

/// Says when the seeks changed; a task started with the actors lists them again then.
#[derive(Clone, Default)]
pub struct SeekBoard {
    changed: Arc<Notify>,
}

impl SeekBoard {
    /// A seek was posted, taken or withdrawn: the lobby's followers get the new list. Changes
    /// that come while the list is being read are sent together, with the next one.
    pub fn changed(&self) {
        self.changed.notify_one();
    }

    /// Sends the list to the lobby's followers on every node after each change, until the
    /// server stops.
    pub async fn run(self, store: Store, sockets: Arc<Sockets>, shutdown: Shutdown) {
        let stopping = shutdown.stopped();
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                () = &mut stopping => return,
                () = self.changed.notified() => {}
            }
            match listed(&store).await {
                Ok(seeks) => {
                    let message = frame(&ServerMessage::Seeks { seeks });
                    sockets.send(Fanout::Lobby { except: Vec::new() }, &message);
                }
                // The lobby reads the list again on its next load.
                Err(e) => tracing::warn!(error = %e, "could not list the seeks"),
            }
        }
    }
}

/// The seeks, newest first, at most [`SEEKS_LISTED`].
pub async fn listed(store: &Store) -> ApiResult<Vec<MatchSummary>> {
    let ids = store.listed_matches(Status::Waiting, None).await?;
    let mut seeks = Vec::new();
    for (id, _) in ids.into_iter().take(SEEKS_LISTED) {
        // A match gone since (a guest's, removed by the housekeeping) is left out.
        if let Some(m) = store.match_header(id).await? {
            seeks.push(crate::matches::http::summary(&m));
        }
    }
    Ok(seeks)
}

/// The last socket of `player` on this node closed: unless they are back, or online on another
/// node, by the end of [`POSTER_GRACE`], the public matches they wait in are called off. Not
/// when the server stops: its sockets close then, and their players come back to another node.
pub fn poster_left(state: &AppState, player: PlayerId) {
    let shutdown = state.shutdown();
    let (state, stopping) = (state.clone(), shutdown.stopped());
    shutdown.spawn_job(async move {
        tokio::select! {
            () = stopping => {}
            () = tokio::time::sleep(POSTER_GRACE) => {
                if let Err(e) = withdraw_if_gone(&state, player).await {
                    tracing::warn!(error = %e, "could not withdraw the seeks of a player who left");
                }
            }
        }
    });
}

async fn withdraw_if_gone(state: &AppState, player: PlayerId) -> ApiResult<()> {
    if state.cluster().online_anywhere(state.sockets(), player).await? {
        return Ok(());
    }
    let waiting = state.store().listed_matches(Status::Waiting, Some(player)).await?;
    for (id, _) in waiting.into_iter().filter(|&(_, seated)| seated) {
        let _: bool = state.rooms().ask(id, Command::Withdraw { player }).await?;
    }
    Ok(())
}
