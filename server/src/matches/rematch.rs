//! A finished match's rematch, as its room keeps it: who has agreed to play again, and what the
//! new match is once everyone has. The room holds it because the room knows who is still on the
//! match's page: an offer lapses when a player leaves. Opening the new match is the offers
//! wing's (`crate::offers::rematch`), which tells the room how it went.

use protocol::MatchId;

use super::new_match::NewMatch;
use crate::accounts::player::Player;

/// What a player says about a rematch.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RematchAnswer {
    /// Offer it, or agree to the offer standing.
    Offer,
    /// Agree to the offer standing (there must be one).
    Accept,
    /// Decline the offer standing, or take one's own back.
    Decline,
}

/// Where a finished match's rematch stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    None,
    /// Offered: the seats whose players agreed, the offerer's first.
    Offered(Vec<u8>),
    /// Every seat agreed and the new match is being opened: the seats that had agreed before
    /// the last answer, to go back to if it cannot be, and the new match's invite code when it
    /// is private, for its players.
    Opening {
        before: Vec<u8>,
        invite: Option<String>,
    },
    /// Played: the new match.
    Started(MatchId),
}

/// The new match every player agreed on: the same match again, seated.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Deal {
    pub spec: NewMatch,
    pub seating: Vec<(u8, Player)>,
}

impl Deal {
    /// The seats `player` holds in the new match.
    pub fn seats_of(&self, player: &Player) -> Vec<u8> {
        self.seating
            .iter()
            .filter(|(_, p)| p.id == player.id)
            .map(|(seat, _)| *seat)
            .collect()
    }
}

/// The players of a match seated for its rematch: seat `i`'s player takes seat `i + 1` (the
/// last seat's, seat 0), so that two players swap sides and more take turns round the table.
pub fn rotated<T: Clone>(seats: &[T]) -> Vec<(u8, T)> {
    let n = seats.len();
    (0..n)
        .map(|new| (new as u8, seats[(new + n - 1) % n].clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_swap_and_more_move_on_one_seat() {
        assert_eq!(rotated(&["a", "b"]), [(0, "b"), (1, "a")]);
        assert_eq!(rotated(&["a", "b", "c"]), [(0, "c"), (1, "a"), (2, "b")]);
        assert_eq!(rotated(&["solo"]), [(0, "solo")]);
    }
}
