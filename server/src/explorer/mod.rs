//! The opening explorer (issue 31): for a position of a tafl variant, the moves played from it,
//! with how those games ended and the players' average rating, in the server's own finished
//! games (filtered by time control and rating band) and in the bundled masters' games.
//!
//! - [`line`](mod@line): a game's positions and moves, replayed through the engine (pure);
//! - [`masters`]: the bundled games, counted once in memory;
//! - [`store`]: the counts of the server's games, kept up to date as games finish, and rebuilt;
//! - [`indexer`]: the job that counts each finished game once;
//! - [`http`]: `GET /api/explorer/{game}/{variant}`.
//!
//! A position is found by the engine's Zobrist hash of its pieces and side to move, so the
//! same position reached by different move orders has one entry. Only a game's first
//! [`PLIES`] are counted: past them nearly every position is one game's own, and an explorer
//! of openings would store a row per move of every game for answers nobody asks.

pub mod http;
pub mod indexer;
pub mod line;
pub mod masters;
pub mod store;

use protocol::{ClockSpec, TimeControl};
use serde::Serialize;

/// The plies of each game that are counted.
pub const PLIES: usize = 40;

/// The lower bounds of the rating bands, as lichess's explorer draws them.
pub const BANDS: [u32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The band of a game whose players' average rating is `rating`.
pub fn band_of(rating: f64) -> u32 {
    BANDS
        .iter()
        .rev()
        .copied()
        .find(|&low| rating >= f64::from(low))
        .unwrap_or(0)
}

/// The time control a clock plays like, by its expected length (the base and forty
/// increments, as lichess sorts its games): a game without a clock, or with days a move, is
/// correspondence.
pub fn speed_of(clock: Option<ClockSpec>) -> TimeControl {
    let Some(clock) = clock.filter(|c| !c.per_move) else {
        return TimeControl::Correspondence;
    };
    let seconds = (clock.base_ms + 40 * clock.increment_ms) / 1000;
    match seconds {
        0..180 => TimeControl::Bullet,
        180..480 => TimeControl::Blitz,
        480..1500 => TimeControl::Rapid,
        _ => TimeControl::Classical,
    }
}

/// A speed's number in storage.
pub fn speed_code(speed: TimeControl) -> i32 {
    match speed {
        TimeControl::Bullet => 0,
        TimeControl::Blitz => 1,
        TimeControl::Rapid => 2,
        TimeControl::Classical => 3,
        TimeControl::Correspondence => 4,
    }
}

/// How a counted game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    Attackers,
    Defenders,
    Draw,
}

impl Ended {
    /// The result of a finished two-seat match from its places (seat 0 attacks).
    pub fn of_places(places: &[u8]) -> Option<Ended> {
        match places {
            [a, d] if a < d => Some(Ended::Attackers),
            [a, d] if d < a => Some(Ended::Defenders),
            [_, _] => Some(Ended::Draw),
            _ => None,
        }
    }
}

/// Games counted for one move (or a whole position): how they ended, and their players'
/// ratings summed (zero where unrated, as the masters' games are).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub attackers: u64,
    pub defenders: u64,
    pub draws: u64,
    pub rating_sum: u64,
}

impl Tally {
    pub fn of(result: Ended, rating: u64) -> Tally {
        let mut tally = Tally {
            rating_sum: rating,
            ..Tally::default()
        };
        match result {
            Ended::Attackers => tally.attackers = 1,
            Ended::Defenders => tally.defenders = 1,
            Ended::Draw => tally.draws = 1,
        }
        tally
    }

    pub fn games(&self) -> u64 {
        self.attackers + self.defenders + self.draws
    }

    pub fn add(&mut self, other: Tally) {
        self.attackers += other.attackers;
        self.defenders += other.defenders;
        self.draws += other.draws;
        self.rating_sum += other.rating_sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_take_the_lower_bound() {
        assert_eq!(band_of(400.0), 0);
        assert_eq!(band_of(1000.0), 1000);
        assert_eq!(band_of(1599.9), 1400);
        assert_eq!(band_of(1600.0), 1600);
        assert_eq!(band_of(3100.0), 2500);
    }

    #[test]
    fn speeds_follow_the_expected_length() {
        for control in TimeControl::ALL {
            assert_eq!(speed_of(Some(control.clock())), control, "{control:?}");
        }
        assert_eq!(speed_of(None), TimeControl::Correspondence);
        let three_plus_two = ClockSpec {
            base_ms: 180_000,
            increment_ms: 2_000,
            per_move: false,
        };
        assert_eq!(speed_of(Some(three_plus_two)), TimeControl::Blitz);
    }

    #[test]
    fn places_say_who_won() {
        assert_eq!(Ended::of_places(&[1, 2]), Some(Ended::Attackers));
        assert_eq!(Ended::of_places(&[2, 1]), Some(Ended::Defenders));
        assert_eq!(Ended::of_places(&[1, 1]), Some(Ended::Draw));
        assert_eq!(Ended::of_places(&[1, 2, 3]), None);
    }
}
