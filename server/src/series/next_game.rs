//! The second game of a series, once its room stored it: its room is started, and in a
//! tournament its players are told where to play it.

use std::sync::Arc;

use protocol::{MatchId, PlayerId};
use tokio::sync::mpsc;

use crate::matches::new_match::Opening;
use crate::matches::registry::Rooms;
use crate::shutdown::Shutdown;
use crate::sockets::Sockets;
use crate::store::Store;
use crate::tournament::director::announce_game;

/// What starting a series' second games needs of the server: where their rooms start, where a
/// tournament's round is read, the sockets its players are told on, and the stop signal.
pub struct NextGameContext {
    pub rooms: Arc<Rooms>,
    pub store: Store,
    pub sockets: Arc<Sockets>,
    pub shutdown: Shutdown,
}

/// Starts the room of every second game a room stored, as they come. A tournament's game 2 is
/// announced to its players as the round's game 1 was, so that a player who has left game 1's
/// page finds it.
pub async fn start_games(
    context: NextGameContext,
    mut next: mpsc::UnboundedReceiver<(MatchId, Opening)>,
) {
    let stopping = context.shutdown.stopped();
    tokio::pin!(stopping);
    loop {
        // Once the server stops, a game 2 stored meanwhile is started by the next start.
        let (id, opening) = tokio::select! {
            () = &mut stopping => return,
            next = next.recv() => match next {
                Some(next) => next,
                None => return,
            },
        };
        let seating: Vec<(u8, PlayerId)> =
            opening.seating.iter().map(|(s, p)| (*s, p.id)).collect();
        let in_tournament = opening.series.filter(|_| opening.in_tournament);
        if let Err(e) = context.rooms.start_opened(id, opening).await {
            // It is stored live: the next command for it, or the next start, starts it.
            tracing::warn!(match_id = id.0, error = %e, "could not start a series' game 2");
        }
        let Some(series) = in_tournament else {
            continue;
        };
        match context.store.tournament_round_of_series(series.id).await {
            Ok(Some((tournament, round))) => {
                announce_game(&context.sockets, tournament, round, id, seating);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(match_id = id.0, error = %e, "could not announce game 2"),
        }
    }
}
