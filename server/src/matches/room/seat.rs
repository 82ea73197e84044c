//! One seat of a match as its room keeps it: who holds it, whether they are there, and where
//! they stand in the game.

use tokio::time::Instant;

use super::asks::Asks;
use crate::accounts::player::{Player, ai_level};
use engine::ai::Level;

pub(super) struct Seat {
    /// Its player, once the seat is taken.
    pub(super) player: Option<Player>,
    /// Since when no socket of its player has followed the match; never for the AI.
    pub(super) away_since: Option<Instant>,
    /// Followers were told the player is away (by a `disconnected` event, or a snapshot showing
    /// the seat not connected): only then is their return announced with `reconnected`.
    pub(super) announced_away: bool,
    /// When the seat's turn began (wall clock), kept for a per-move clock: a room that starts
    /// counts the time taken since then (the server may have been down, or the room asleep).
    pub(super) turn_from_ms: i64,
    /// Until when its player is on vacation (wall clock), in a match on a per-move clock.
    pub(super) vacation_until: Option<i64>,
    /// Its declined takeback requests, which limit its asking.
    pub(super) asks: Asks,
    /// It has made an action among those in play.
    pub(super) acted: bool,
    /// Its player has followed the match since the room started.
    pub(super) showed: bool,
    /// Its AI is searching for a move right now.
    pub(super) thinking: bool,
}

impl Seat {
    /// A seat as a room finds it when it starts: a human player is away until a socket of
    /// theirs follows the match again.
    pub(super) fn new(player: Option<Player>, turn_from_ms: i64, now: Instant) -> Seat {
        let human = player.as_ref().is_some_and(|p| ai_level(&p.name).is_none());
        Seat {
            player,
            away_since: human.then_some(now),
            announced_away: false,
            turn_from_ms,
            vacation_until: None,
            asks: Asks::default(),
            acted: false,
            showed: false,
            thinking: false,
        }
    }

    /// The AI level playing the seat, if an AI account holds it.
    pub(super) fn ai_level(&self) -> Option<Level> {
        self.player.as_ref().and_then(|p| ai_level(&p.name))
    }

    /// Its human player, if a human holds it.
    pub(super) fn human(&self) -> Option<&Player> {
        self.player.as_ref().filter(|p| ai_level(&p.name).is_none())
    }
}

/// After `mover`'s action at `at_ms`, the turn of each seat that must act now begins then if it
/// was not acting before, or is the mover acting again.
pub(super) fn turns_begin(seats: &mut [Seat], before: &[u8], mover: u8, to_act: &[u8], at_ms: i64) {
    for &seat in to_act {
        if seat == mover || !before.contains(&seat) {
            seats[usize::from(seat)].turn_from_ms = at_ms;
        }
    }
}

/// Marks which seats have made an action among `log`'s.
pub(super) fn note_acted(seats: &mut [Seat], log: &[(u8, String)]) {
    for seat in seats.iter_mut() {
        seat.acted = false;
    }
    for &(seat, _) in log {
        seats[usize::from(seat)].acted = true;
    }
}
