//! Elo ratings, one per pool (game and variant), computed by the skillratings crate.
//!
//! K is 40 for a player's first 30 rated games in the pool, then 20, and 10 once their rating has
//! reached 2400. A match with more than two seats is scored as every pair of seats playing one
//! game (pairwise Elo), each pair weighted 1/(seats - 1) so that a seat's change stays on the
//! scale of a two-player game.

use skillratings::Outcomes;
use skillratings::elo::{EloConfig, EloRating, elo};

/// Every new player's rating.
pub const INITIAL: f64 = 1500.0;

/// One seat going into a rated result.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rated {
    pub rating: f64,
    /// Rated games already played in this pool.
    pub games: u32,
    /// Place in the result, 0 best.
    pub place: u8,
}

/// The K-factor for a player.
pub fn k_factor(rating: f64, games: u32) -> f64 {
    if rating >= 2400.0 {
        10.0
    } else if games < 30 {
        40.0
    } else {
        20.0
    }
}

/// The new rating of every seat, in the same order.
pub fn update(seats: &[Rated]) -> Vec<f64> {
    let weight = 1.0 / (seats.len().max(2) - 1) as f64;
    seats
        .iter()
        .enumerate()
        .map(|(i, me)| {
            // Each player's K is their own, so every pair is computed from this seat's side.
            let config = EloConfig {
                k: k_factor(me.rating, me.games) * weight,
            };
            let mine = EloRating { rating: me.rating };
            seats
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, other)| {
                    let outcome = match me.place.cmp(&other.place) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    let (after, _) = elo(
                        &mine,
                        &EloRating {
                            rating: other.rating,
                        },
                        &outcome,
                        &config,
                    );
                    after.rating - me.rating
                })
                .sum::<f64>()
                + me.rating
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(rating: f64, games: u32, place: u8) -> Rated {
        Rated {
            rating,
            games,
            place,
        }
    }

    #[test]
    fn k_depends_on_games_and_rating() {
        assert_eq!(k_factor(1500.0, 0), 40.0);
        assert_eq!(k_factor(1500.0, 29), 40.0);
        assert_eq!(k_factor(1500.0, 30), 20.0);
        assert_eq!(k_factor(2400.0, 5), 10.0);
    }

    #[test]
    fn an_even_game_moves_half_of_k() {
        let after = update(&[seat(1500.0, 0, 0), seat(1500.0, 0, 1)]);
        assert_eq!(after, vec![1520.0, 1480.0]);
        let after = update(&[seat(1500.0, 40, 1), seat(1500.0, 40, 0)]);
        assert_eq!(after, vec![1490.0, 1510.0]);
        let draw = update(&[seat(1600.0, 40, 0), seat(1400.0, 40, 0)]);
        assert!(draw[0] < 1600.0 && draw[1] > 1400.0);
    }

    #[test]
    fn different_k_factors_are_applied_per_player() {
        // A newcomer (K 40) beats an established player (K 20): the newcomer gains twice what
        // the established player loses.
        let after = update(&[seat(1500.0, 0, 0), seat(1500.0, 100, 1)]);
        assert_eq!(after, vec![1520.0, 1490.0]);
    }

    #[test]
    fn three_seats_are_scored_pairwise() {
        let after = update(&[seat(1500.0, 0, 0), seat(1500.0, 0, 1), seat(1500.0, 0, 2)]);
        // Winner beats both (2 x 20 x 1/2), the middle seat wins one and loses one.
        assert_eq!(after, vec![1520.0, 1500.0, 1480.0]);
        let tie = update(&[seat(1500.0, 0, 0), seat(1500.0, 0, 0), seat(1500.0, 0, 1)]);
        assert_eq!(tie, vec![1510.0, 1510.0, 1480.0]);
    }
}
