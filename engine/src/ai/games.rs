//! The AI of every game but tafl: the generic search of [`mcts`], with a playout
//! depth and a score for unfinished playouts where a game's random playouts run long.

use super::mcts::{self, Tuning, soft_rewards};
use super::{Ai, Budget, Level};
use crate::driller::Driller;
use crate::fox_geese::{FoxGeese, Side};
use crate::game::{Game, Seat, Viewer};
use crate::hanoi::Hanoi;
use crate::rng::MatchRng;
use crate::tower_race::{Place, TowerRace};
use crate::tron::Tron;

/// Implements [`Ai`] with the generic search and the game's own [`Tuning`].
macro_rules! mcts_ai {
    ($($game:ty => $tuning:expr),+ $(,)?) => {$(
        impl Ai for $game {
            fn choose(
                &self,
                seat: Seat,
                level: Level,
                budget: &Budget<'_>,
                rng: &mut MatchRng,
            ) -> Option<Self::Action> {
                mcts::choose_with(self, seat, level, budget, rng, &$tuning)
            }
        }
    )+};
}

mcts_ai! {
    FoxGeese => fox_geese_tuning(),
    Hanoi => Tuning::default(),
    TowerRace => tower_race_tuning(),
    Tron => tron_tuning(),
    Driller => driller_tuning(),
}

/// Fox and Geese: random playouts say little (random geese are soon eaten, so every goose move
/// looks lost and a draw by repetition looks best), so they stop after a few actions and the
/// position is scored: geese left, the room the fox has (the points it could walk to were the
/// geese to stand still; geese that have passed the fox leave it room for ever) and its moves,
/// and a fox that can walk to the ranks below every goose is about to escape.
///
/// Geese that keep a tight wall hold any fox to a draw, so a level beats the one below it in
/// most games only if the lower level's geese still make mistakes a deeper fox can use. With
/// the default 10 000 iterations, level 4's geese made none that level 5 could use (self-play:
/// level 5 drew every game it played as the fox); 3 000 leave some, and 500 for level 3 keep
/// level 4 ahead of it.
pub fn fox_geese_tuning() -> Tuning<FoxGeese> {
    Tuning {
        playout_depth: 4,
        evaluate: Some(fox_geese_score),
        levels: [100, 500, 3_000],
        ..Tuning::default()
    }
}

fn fox_geese_score(game: &FoxGeese) -> Vec<f64> {
    let geese = game.geese();
    let fox_moves = FoxGeese::from_points(game.fox(), &geese, Side::Fox)
        .map_or(0, |fox_to_move| fox_to_move.legal_moves().len());
    // The fox's room, walked point by point. A score ends every playout, so it allocates
    // nothing: the points seen are bits of the grid, the points to visit a fixed stack.
    let (mut seen, mut room, mut lowest_reached) = (game.fox().bit(), 0, u8::MAX);
    let mut to_visit = [game.fox(); 33];
    let mut waiting = 1;
    while waiting > 0 {
        waiting -= 1;
        let at = to_visit[waiting];
        room += 1;
        lowest_reached = lowest_reached.min(at.rank());
        for point in at.neighbours() {
            if seen & point.bit() == 0 && game.piece_at(point).is_none() {
                seen |= point.bit();
                to_visit[waiting] = point;
                waiting += 1;
            }
        }
    }
    // The geese's lead in logits: a goose is worth about three points of room.
    let lead = (geese.len() as f64 - 9.0)
        - 0.3 * (f64::from(room) - 13.0)
        - 0.3 * (fox_moves as f64 - 3.0);
    // Geese never step back, so the ranks below the lowest goose stay empty for ever, and a
    // fox standing there has escaped and won. Geese can only step sideways into the path of a
    // fox that can walk there, so they are scored as about to lose. Without this, geese that
    // had walked past the fox looked as good as geese hemming it in.
    let lowest = game.lowest_goose_rank().unwrap_or(u8::MAX);
    let lead = if lowest_reached < lowest {
        lead.min(-2.0)
    } else {
        lead
    };
    soft_rewards(&[lead, 0.0], 1.0)
}

/// The tower race: a random game of eight takes thousands of actions, so playouts stop after
/// 200 and the seats are compared by the tiles their pyramids have travelled (what the turn
/// limit ranks by, after finished pyramids, which have travelled the whole path). The dice
/// decide so much that the search stops gaining strength at about a thousand iterations, so
/// the levels below 5 search fewer.
pub fn tower_race_tuning() -> Tuning<TowerRace> {
    Tuning {
        playout_depth: 200,
        evaluate: Some(|game: &TowerRace| {
            let view = game.view(Viewer::Spectator);
            let scores: Vec<f64> = game
                .seat_list()
                .map(|seat| {
                    let path = game.path(seat);
                    view.seats[seat.index()]
                        .pyramids
                        .iter()
                        .map(|place| match place {
                            Place::Home => 0,
                            Place::Tile(tile) => {
                                path.iter().position(|t| t == tile).map_or(0, |i| i + 1)
                            }
                            Place::End => path.len(),
                        })
                        .sum::<usize>() as f64
                })
                .collect();
            soft_rewards(&scores, 6.0)
        }),
        // Measured in self-play (40 games a pair): 300 iterations beat 100 in 57.5% of games
        // and 1 000 beat 300 in 62.5%, but 10 000 beat 1 000 in only 47.5% to 52.5%.
        levels: [20, 100, 500],
        ..Tuning::default()
    }
}

/// Tron: a random game runs for hundreds of rounds, so playouts stop after 120 actions (some
/// rounds) and the seats are compared by score.
pub fn tron_tuning() -> Tuning<Tron> {
    Tuning {
        playout_depth: 120,
        evaluate: Some(|game: &Tron| {
            let scores: Vec<f64> = (0..game.seat_count())
                .filter_map(Seat::new)
                .map(|seat| f64::from(game.score(seat).unwrap_or(0)))
                .collect();
            soft_rewards(&scores, 3.0)
        }),
        // A Tron iteration is costly (about 25 000 in a second on an idle core), and the search
        // gains little past a few thousand: with level 4 at 2 500, level 5's second finished
        // above a level 4 in only 32 of 57 pairings (3 seats, 30 games). With level 4 at 1 000,
        // level 5 searches about 25 times as many and finished above a level 4 in 43 of 57;
        // level 4 still finished above a level 3 in 43 of 59.
        levels: [25, 250, 1_000],
        ..Tuning::default()
    }
}

/// Mr Driller: random games are short (a random driller is soon crushed), but a careful one
/// can last; past 60 actions the deeper driller is ahead.
pub fn driller_tuning() -> Tuning<Driller> {
    Tuning {
        playout_depth: 60,
        evaluate: Some(|game: &Driller| {
            let depths = game.tokens().map(|token| f64::from(token.square().row()));
            soft_rewards(&depths, 2.0)
        }),
        // Level 5 gets what a second allows, about 40 000 iterations on an idle core, so level
        // 4 stays well below it; each level searches about ten times the one below.
        levels: [50, 500, 4_000],
        ..Tuning::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fox_geese::Point;

    fn geese_score(fox: &str, geese: &str) -> f64 {
        let points: Vec<Point> = geese.split(' ').map(|p| p.parse().unwrap()).collect();
        let game = FoxGeese::from_points(fox.parse().unwrap(), &points, Side::Geese).unwrap();
        fox_geese_score(&game)[0]
    }

    #[test]
    fn geese_that_let_the_fox_below_them_are_scored_as_losing() {
        // Twelve geese, and the fox on the lowest goose's rank with f4 open below it.
        let passed = "c7 d7 e7 c6 d6 e6 a5 b5 c5 d5 e5 g5";
        assert!(geese_score("f5", passed) < 0.2);
        // The start, where the fox is above every goose: the geese are ahead.
        let start = "c1 d1 e1 c2 d2 e2 a3 b3 c3 d3 e3 f3 g3";
        assert!(
            geese_score("d5", start) > 0.7,
            "{}",
            geese_score("d5", start)
        );
        // Thirteen geese, not one missing, and a fox that can walk round them on the left.
        let above = "c7 d7 e7 c6 d6 e6 b5 c5 d5 e5 f5 g5 d4";
        assert!(geese_score("a5", above) < 0.2);
    }
}
