//! Two-game matches: a series is two games between the same two players, the sides swapped for
//! the second, scored as one (as the World Tafl Federation plays). Its games are matches like any
//! other, each rated on its own; what the series adds is decided here, without I/O
//! ([`decide`]), stored by [`store`] in the transaction that finishes a game, and served by
//! [`http`].
//!
//! When game 1 ends, the room stores game 2 in the same transaction (so a restart cannot lose
//! it) and hands it to [`next_game`], which starts its room: the room of a match cannot reach
//! the registry above it.

pub mod http;
pub mod next_game;
pub mod store;

use protocol::{SeriesId, SeriesTiebreak};

/// Where a match stands in its series.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InSeries {
    pub id: SeriesId,
    /// 1 or 2.
    pub game: u8,
}

/// One game of a series from the series' players' side: index 0 is the player who had seat 0
/// in game 1 (and seat 1 in game 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Each player's place (0 best); `None` while the game is not over.
    pub places: Option<[u8; 2]>,
    pub plies: u32,
    /// The time each player's moves took.
    pub used_ms: [u64; 2],
}

impl Played {
    /// Each player's points in halves (a win 2, a draw 1), once the game is over.
    pub fn halves(&self) -> Option<[u32; 2]> {
        self.places.map(|[a, b]| match a.cmp(&b) {
            std::cmp::Ordering::Less => [2, 0],
            std::cmp::Ordering::Equal => [1, 1],
            std::cmp::Ordering::Greater => [0, 2],
        })
    }

    /// The player who won this game, if one did.
    fn winner(&self) -> Option<usize> {
        match self.halves()? {
            [2, 0] => Some(0),
            [0, 2] => Some(1),
            _ => None,
        }
    }
}

/// How a series came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Each player's points in halves.
    pub halves: [u32; 2],
    /// `None`: drawn, level on points and on both tiebreaks.
    pub winner: Option<usize>,
    /// What broke a tie of points.
    pub tiebreak: Option<SeriesTiebreak>,
}

impl Decision {
    /// The players' places (0 best, equal when drawn), as a match's result gives them.
    pub fn places(&self) -> [u8; 2] {
        match self.winner {
            Some(0) => [0, 1],
            Some(_) => [1, 0],
            None => [0, 0],
        }
    }

    /// The stored reason: `score`, the tiebreak, or `tied`.
    pub fn reason(&self) -> &'static str {
        match (self.winner, self.tiebreak) {
            (None, _) => "tied",
            (Some(_), None) => "score",
            (Some(_), Some(SeriesTiebreak::ShorterWin)) => "shorter_win",
            (Some(_), Some(SeriesTiebreak::LessTime)) => "less_time",
        }
    }
}

/// Each player's points over the games played so far, in halves.
pub fn score(games: &[Played]) -> [u32; 2] {
    games
        .iter()
        .filter_map(Played::halves)
        .fold([0, 0], |[a, b], [x, y]| [a + x, b + y])
}

/// Decides a series from its two finished games: the sum of the points; level, the player whose
/// win took fewer plies; still level, the one who used less time over both games; else drawn.
pub fn decide(games: &[Played; 2]) -> Decision {
    let halves = score(games);
    let by_less = |[a, b]: [u64; 2]| match a.cmp(&b) {
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(1),
    };
    if halves[0] != halves[1] {
        let winner = usize::from(halves[1] > halves[0]);
        return Decision {
            halves,
            winner: Some(winner),
            tiebreak: None,
        };
    }
    // Level on points with a win each (else both games were drawn): the shorter win.
    let win = |player| {
        games
            .iter()
            .find(|g| g.winner() == Some(player))
            .map(|g| u64::from(g.plies))
    };
    if let (Some(a), Some(b)) = (win(0), win(1))
        && let Some(winner) = by_less([a, b])
    {
        return Decision {
            halves,
            winner: Some(winner),
            tiebreak: Some(SeriesTiebreak::ShorterWin),
        };
    }
    let used = [0, 1].map(|p| games.iter().map(|g| g.used_ms[p]).sum());
    let winner = by_less(used);
    Decision {
        halves,
        winner,
        tiebreak: winner.map(|_| SeriesTiebreak::LessTime),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(places: [u8; 2], plies: u32, used_ms: [u64; 2]) -> Played {
        Played {
            places: Some(places),
            plies,
            used_ms,
        }
    }

    #[test]
    fn the_sum_of_the_points_decides_first() {
        let d = decide(&[game([0, 1], 40, [9, 1]), game([0, 0], 80, [9, 1])]);
        assert_eq!(d.halves, [3, 1]);
        assert_eq!((d.winner, d.tiebreak, d.reason()), (Some(0), None, "score"));
        assert_eq!(d.places(), [0, 1]);
        let d = decide(&[game([1, 0], 40, [1, 9]), game([1, 0], 80, [1, 9])]);
        assert_eq!((d.halves, d.winner), ([0, 4], Some(1)));
    }

    #[test]
    fn a_win_each_goes_to_the_shorter_win() {
        let d = decide(&[game([0, 1], 30, [1, 1]), game([1, 0], 12, [500, 1])]);
        assert_eq!(d.halves, [2, 2]);
        assert_eq!(d.winner, Some(1));
        assert_eq!(d.tiebreak, Some(SeriesTiebreak::ShorterWin));
        assert_eq!((d.places(), d.reason()), ([1, 0], "shorter_win"));
    }

    #[test]
    fn wins_as_long_go_to_the_player_who_used_less_time() {
        let d = decide(&[game([0, 1], 20, [300, 100]), game([1, 0], 20, [50, 100])]);
        assert_eq!(d.winner, Some(1));
        assert_eq!(d.tiebreak, Some(SeriesTiebreak::LessTime));
        // Two draws: no win to compare, the time decides.
        let d = decide(&[game([0, 0], 20, [10, 100]), game([0, 0], 9, [10, 100])]);
        assert_eq!(
            (d.winner, d.tiebreak),
            (Some(0), Some(SeriesTiebreak::LessTime))
        );
    }

    #[test]
    fn level_on_everything_is_a_drawn_series() {
        let d = decide(&[game([0, 1], 20, [100, 100]), game([1, 0], 20, [100, 100])]);
        assert_eq!((d.winner, d.tiebreak), (None, None));
        assert_eq!((d.places(), d.reason()), ([0, 0], "tied"));
    }

    #[test]
    fn the_score_counts_only_finished_games() {
        let live = Played {
            places: None,
            plies: 3,
            used_ms: [0, 0],
        };
        assert_eq!(score(&[game([0, 1], 5, [0, 0]), live]), [2, 0]);
    }
}
