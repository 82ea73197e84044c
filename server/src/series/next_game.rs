//! The second game of a series, once its room stored it: its room is started, and in a
//! tournament its players are told where to play it.

use protocol::{MatchId, PlayerId};
use tokio::sync::mpsc;

use crate::matches::new_match::Opening;
use crate::state::AppState;
use crate::tournament::director::announce_game;

/// Starts the room of every second game a room stored, as they come. A tournament's game 2 is
/// announced to its players as the round's game 1 was, so that a player who has left game 1's
/// page finds it.
pub async fn start_games(state: AppState, mut next: mpsc::UnboundedReceiver<(MatchId, Opening)>) {
    let stopping = state.shutdown().stopped();
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
        if let Err(e) = state.rooms().start_opened(id, opening).await {
            // It is stored live: the next command for it, or the next start, starts it.
            tracing::warn!(match_id = id.0, error = %e, "could not start a series' game 2");
        }
        let Some(series) = in_tournament else {
            continue;
        };
        match state.store().tournament_round_of_series(series.id).await {
            Ok(Some((tournament, round))) => {
                announce_game(state.sockets(), tournament, round, id, seating);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(match_id = id.0, error = %e, "could not announce game 2"),
        }
    }
}
