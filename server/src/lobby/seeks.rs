//! The seeks: public matches waiting for players. [`SeekBoard`] sends their list to the lobby's
//! followers on every node whenever it changes ([`SeekBoard::changed`], said by the rooms and by
//! whoever creates a match). The rooms hold it: nothing here reads the application state.

use std::sync::Arc;

use protocol::{MatchSummary, ServerMessage};
use tokio::sync::Notify;

use crate::error::ApiResult;
use crate::matches::store::Status;
use crate::shutdown::Shutdown;
use crate::sockets::{Fanout, Sockets, frame};
use crate::store::Store;

/// The most seeks listed: a lobby shows a screenful; `GET /api/matches/open` pages through all.
pub const SEEKS_LISTED: usize = 50;

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
            seeks.push(m.summary());
        }
    }
    Ok(seeks)
}
