//! The AI's tuning for Fox and Geese. Random playouts say little here (random geese are soon
//! eaten), so they stop after a few actions and the position is scored.

use super::{FoxGeese, Side};
use crate::ai::mcts::{MctsGame, Tuning, soft_rewards};

impl MctsGame for FoxGeese {
    /// Levels 2 to 4 are spaced so that each level's geese still make mistakes the next level's
    /// fox can use; geese that keep a tight wall hold any fox to a draw.
    fn tuning() -> Tuning<FoxGeese> {
        Tuning {
            playout_depth: 4,
            evaluate: Some(score),
            levels: [100, 500, 3_000],
            ..Tuning::default()
        }
    }
}

/// The geese's and the fox's rewards: geese left, the room the fox has (the points it could
/// walk to were the geese to stand still) and its moves, and a fox that can walk to the ranks
/// below every goose is about to escape.
fn score(game: &FoxGeese) -> Vec<f64> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fox_geese::Point;

    fn geese_score(fox: &str, geese: &str) -> f64 {
        let points: Vec<Point> = geese.split(' ').map(|p| p.parse().unwrap()).collect();
        let game = FoxGeese::from_points(fox.parse().unwrap(), &points, Side::Geese).unwrap();
        score(&game)[0]
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
