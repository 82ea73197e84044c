//! A player who leaves takes their seeks with them: once their last socket, on every node, has
//! been closed for [`POSTER_GRACE`], the public matches they wait in are called off, since one
//! taken would start a match for nobody.

use std::time::Duration;

use protocol::PlayerId;

use crate::error::ApiResult;
use crate::matches::Command;
use crate::matches::store::Status;
use crate::state::AppState;

/// How long a player whose last socket closed may take to come back before their seeks are
/// withdrawn: a page reload or a dropped connection reconnects within it, a player who closed
/// the tab does not.
pub const POSTER_GRACE: Duration = Duration::from_secs(3);

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
    if state
        .cluster()
        .online_anywhere(state.sockets(), player)
        .await?
    {
        return Ok(());
    }
    let waiting = state
        .store()
        .listed_matches(Status::Waiting, Some(player))
        .await?;
    for (id, _) in waiting.into_iter().filter(|&(_, seated)| seated) {
        let _: bool = state.rooms().ask(id, Command::Withdraw { player }).await?;
    }
    Ok(())
}
