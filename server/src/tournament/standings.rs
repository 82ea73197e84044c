//! The standings table: points, then tiebreaks.
//!
//! - Points: a win 1, a draw 0.5, a loss 0, a bye 1.
//! - Buchholz: the sum of the opponents' points.
//! - Sonneborn-Berger: the sum of the points of the opponents beaten, plus half the points of the
//!   opponents drawn with.
//!
//! A bye counts for both tiebreaks as a win over a virtual opponent with the entrant's own final
//! points (after FIDE's rule for unplayed rounds), so a bye neither helps nor hurts an entrant's
//! tiebreaks compared with the entrants it is level with.
//!
//! Rows are ordered by points, Buchholz, Sonneborn-Berger, then rating (higher first) and entrant
//! id (lower first). Rating and id only order the table: entrants level on points, Buchholz and
//! Sonneborn-Berger share a rank (1, 2, 2, 4...).
//!
//! Everything is counted in exact fractions (halves and quarters) and only given out as `f64`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Entrant, EntrantId, PlayedRound, by_rating};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    pub entrant: EntrantId,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    /// Games played; byes are not games.
    pub games: u32,
    /// 1-based; entrants level on points and both tiebreaks share one.
    pub rank: u32,
}

/// Every entrant's points in halves, from every game and bye in `results` (entrants who are in
/// the results but not the caller's list included).
pub(crate) fn half_points(results: &[PlayedRound]) -> HashMap<EntrantId, u32> {
    let mut points: HashMap<EntrantId, u32> = HashMap::new();
    for round in results {
        for game in &round.games {
            *points.entry(game.pairing.seat0).or_default() += game.outcome.half_points();
            *points.entry(game.pairing.seat1).or_default() += game.outcome.reversed().half_points();
        }
        for &bye in &round.byes {
            *points.entry(bye).or_default() += 2;
        }
    }
    points
}

/// The standings of `entrants` after `results`, best first.
pub fn table(entrants: &[Entrant], results: &[PlayedRound]) -> Vec<StandingRow> {
    let halves = half_points(results);
    let points_of = |id: EntrantId| u64::from(halves.get(&id).copied().unwrap_or(0));

    struct Tally {
        entrant: Entrant,
        halves: u64,
        /// Buchholz in halves.
        buchholz: u64,
        /// Sonneborn-Berger in quarters.
        sb: u64,
        games: u32,
    }

    let mut tallies: Vec<Tally> = entrants
        .iter()
        .map(|&entrant| Tally {
            entrant,
            halves: points_of(entrant.id),
            buchholz: 0,
            sb: 0,
            games: 0,
        })
        .collect();
    let index: HashMap<EntrantId, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id, i))
        .collect();

    for round in results {
        for game in &round.games {
            for (me, opponent) in [
                (game.pairing.seat0, game.pairing.seat1),
                (game.pairing.seat1, game.pairing.seat0),
            ] {
                let Some(&i) = index.get(&me) else { continue };
                let opponent_halves = points_of(opponent);
                let tally = &mut tallies[i];
                tally.games += 1;
                tally.buchholz += opponent_halves;
                // Beaten: the opponent's points (2 quarters a half); drawn: half of them.
                tally.sb += u64::from(game.outcome_for(me).map_or(0, |o| o.half_points()))
                    * opponent_halves;
            }
        }
        for bye in &round.byes {
            let Some(&i) = index.get(bye) else { continue };
            let tally = &mut tallies[i];
            // A win over a virtual opponent with the entrant's own points.
            tally.buchholz += tally.halves;
            tally.sb += 2 * tally.halves;
        }
    }

    let key = |t: &Tally| (t.halves, t.buchholz, t.sb);
    tallies.sort_by(|a, b| key(b).cmp(&key(a)).then(by_rating(&a.entrant, &b.entrant)));

    let mut rows: Vec<StandingRow> = Vec::with_capacity(tallies.len());
    for (i, t) in tallies.iter().enumerate() {
        let rank = match i {
            0 => 1,
            _ if key(&tallies[i - 1]) == key(t) => rows[i - 1].rank,
            _ => i as u32 + 1,
        };
        rows.push(StandingRow {
            entrant: t.entrant.id,
            points: t.halves as f64 / 2.0,
            buchholz: t.buchholz as f64 / 2.0,
            sonneborn_berger: t.sb as f64 / 4.0,
            games: t.games,
            rank,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{GameResult, Outcome, Pairing};

    fn game(a: u32, b: u32, outcome: Outcome) -> GameResult {
        GameResult::new(Pairing::new(EntrantId(a), EntrantId(b)), outcome)
    }

    fn round(number: u32, games: Vec<GameResult>, byes: Vec<u32>) -> PlayedRound {
        PlayedRound {
            number,
            games,
            byes: byes.into_iter().map(EntrantId).collect(),
        }
    }

    fn row(
        entrant: u32,
        points: f64,
        buchholz: f64,
        sb: f64,
        games: u32,
        rank: u32,
    ) -> StandingRow {
        StandingRow {
            entrant: EntrantId(entrant),
            points,
            buchholz,
            sonneborn_berger: sb,
            games,
            rank,
        }
    }

    /// A = 0, B = 1, C = 2, D = 3.
    /// R1: A beats B, C draws D. R2: A draws C, D beats B. R3: A beats D, B draws C.
    /// Points: A 2.5, B 0.5, C 1.5, D 1.5.
    /// Buchholz: A = .5 + 1.5 + 1.5 = 3.5; B = 2.5 + 1.5 + 1.5 = 5.5; C = 1.5 + 2.5 + .5 = 4.5;
    /// D = 1.5 + .5 + 2.5 = 4.5.
    /// SB: A = .5 (B) + 1.5/2 (C) + 1.5 (D) = 2.75; B = 1.5/2 (C) = .75;
    /// C = 1.5/2 (D) + 2.5/2 (A) + .5/2 (B) = 2.25; D = 1.5/2 (C) + .5 (B) = 1.25.
    #[test]
    fn hand_computed_four_player_table() {
        let entrants: Vec<Entrant> = (0..4).map(|i| Entrant::new(i, 1500.0)).collect();
        let results = vec![
            round(
                1,
                vec![game(0, 1, Outcome::Win), game(2, 3, Outcome::Draw)],
                vec![],
            ),
            round(
                2,
                vec![game(0, 2, Outcome::Draw), game(1, 3, Outcome::Loss)],
                vec![],
            ),
            round(
                3,
                vec![game(3, 0, Outcome::Loss), game(1, 2, Outcome::Draw)],
                vec![],
            ),
        ];
        assert_eq!(
            table(&entrants, &results),
            vec![
                row(0, 2.5, 3.5, 2.75, 3, 1),
                row(2, 1.5, 4.5, 2.25, 3, 2),
                row(3, 1.5, 4.5, 1.25, 3, 3),
                row(1, 0.5, 5.5, 0.75, 3, 4),
            ]
        );
    }

    /// A = 0, B = 1, C = 2. R1: A beats B, C bye. R2: C beats A, B bye. R3: B draws C, A bye.
    /// Points: A 2, B 1.5, C 2.5. A bye is a win over someone with the entrant's own points:
    /// Buchholz: A = 1.5 (B) + 2.5 (C) + 2 (bye) = 6; B = 2 + 1.5 + 2.5 = 6; C = 2.5 + 2 + 1.5 = 6.
    /// SB: A = 1.5 (beat B) + 2 (bye) = 3.5; B = 1.5 (bye) + 2.5/2 (drew C) = 2.75;
    /// C = 2.5 (bye) + 2 (beat A) + 1.5/2 (drew B) = 5.25.
    #[test]
    fn hand_computed_table_with_byes() {
        let entrants: Vec<Entrant> = (0..3).map(|i| Entrant::new(i, 1500.0)).collect();
        let results = vec![
            round(1, vec![game(0, 1, Outcome::Win)], vec![2]),
            round(2, vec![game(2, 0, Outcome::Win)], vec![1]),
            round(3, vec![game(1, 2, Outcome::Draw)], vec![0]),
        ];
        assert_eq!(
            table(&entrants, &results),
            vec![
                row(2, 2.5, 6.0, 5.25, 2, 1),
                row(0, 2.0, 6.0, 3.5, 2, 2),
                row(1, 1.5, 6.0, 2.75, 2, 3),
            ]
        );
    }

    #[test]
    fn exact_ties_share_a_rank_and_are_ordered_by_rating_then_id() {
        let entrants = vec![
            Entrant::new(0, 1500.0),
            Entrant::new(1, 1700.0),
            Entrant::new(2, 1600.0),
            Entrant::new(3, 1600.0),
        ];
        // Everyone draws everyone: all level on everything.
        let results = vec![
            round(
                1,
                vec![game(0, 1, Outcome::Draw), game(2, 3, Outcome::Draw)],
                vec![],
            ),
            round(
                2,
                vec![game(0, 2, Outcome::Draw), game(1, 3, Outcome::Draw)],
                vec![],
            ),
            round(
                3,
                vec![game(0, 3, Outcome::Draw), game(1, 2, Outcome::Draw)],
                vec![],
            ),
        ];
        let rows = table(&entrants, &results);
        let order: Vec<u32> = rows.iter().map(|r| r.entrant.0).collect();
        assert_eq!(order, vec![1, 2, 3, 0]);
        assert!(
            rows.iter()
                .all(|r| r.rank == 1 && r.points == 1.5 && r.buchholz == 4.5)
        );
        assert!(rows.iter().all(|r| r.sonneborn_berger == 2.25));
    }

    #[test]
    fn ranks_skip_after_a_shared_place() {
        let entrants: Vec<Entrant> = (0..4).map(|i| Entrant::new(i, 1500.0)).collect();
        // 0 and 1 beat 2 and 3 and are otherwise level; 2 and 3 likewise.
        let results = vec![round(
            1,
            vec![game(0, 2, Outcome::Win), game(3, 1, Outcome::Loss)],
            vec![],
        )];
        let rows = table(&entrants, &results);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.entrant.0, r.rank)).collect();
        assert_eq!(ranks, vec![(0, 1), (1, 1), (2, 3), (3, 3)]);
    }

    #[test]
    fn no_results_everyone_first_by_rating() {
        let entrants = vec![Entrant::new(0, 1400.0), Entrant::new(1, 1800.0)];
        let rows = table(&entrants, &[]);
        assert_eq!(
            rows,
            vec![row(1, 0.0, 0.0, 0.0, 0, 1), row(0, 0.0, 0.0, 0.0, 0, 1)]
        );
    }

    #[test]
    fn rows_round_trip_through_json() {
        let entrants: Vec<Entrant> = (0..3).map(|i| Entrant::new(i, 1500.0)).collect();
        let results = vec![round(1, vec![game(0, 1, Outcome::Draw)], vec![2])];
        let rows = table(&entrants, &results);
        let back: Vec<StandingRow> =
            serde_json::from_str(&serde_json::to_string(&rows).unwrap()).unwrap();
        assert_eq!(back, rows);
    }
}
