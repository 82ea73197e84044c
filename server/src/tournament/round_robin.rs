//! Round robin by Berger tables: everyone plays everyone once (single) or twice (double).
//!
//! The entrants take the Berger numbers 1..n in the order they are given (sort them by seed, or
//! shuffle them to draw lots, before calling). For an odd n a dummy takes number n + 1 and whoever
//! it meets sits that round out with a bye, so an odd field plays n rounds and an even one n - 1.
//!
//! The tables are FIDE's: with m = n rounded up to even, player m stays in place while the others
//! rotate. In round r player p = 1 + ((r - 1) * m / 2 mod (m - 1)) meets m on the top board,
//! taking seat 0 in odd rounds and seat 1 in even ones; board k pairs p + (k - 1) (seat 0) with
//! p - (k - 1) (seat 1), counted around 1..m-1. This alternates seats as far as a round robin
//! can: over a cycle no entrant has seat 0 more than once more (or fewer) than seat 1.
//!
//! A double round robin plays the same cycle again with every game's seats swapped.

use super::{Entrant, EntrantId, Pairing, Round};

/// Every round of the tournament, numbered from 1.
pub fn schedule(entrants: &[Entrant], double: bool) -> Vec<Round> {
    let ids: Vec<EntrantId> = entrants.iter().map(|e| e.id).collect();
    let single = cycle(&ids);
    if !double {
        return single;
    }
    let offset = single.len() as u32;
    let second: Vec<Round> = single
        .iter()
        .map(|round| Round {
            number: round.number + offset,
            games: round.games.iter().map(|g| g.reversed()).collect(),
            byes: round.byes.clone(),
        })
        .collect();
    single.into_iter().chain(second).collect()
}

/// The number of rounds of one cycle for `n` entrants.
pub fn rounds_per_cycle(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        _ => n + n % 2 - 1,
    }
}

fn cycle(ids: &[EntrantId]) -> Vec<Round> {
    let n = ids.len();
    if n < 2 {
        return Vec::new();
    }
    // Berger numbers 1..=m; number m is the dummy when n is odd.
    let m = n + n % 2;
    let rotating = m - 1;
    // Berger number -> entrant; `None` is the dummy.
    let who = |number: usize| ids.get(number - 1).copied();
    // The rotating player `offset` places after `p` (negative: before), as a Berger number.
    let around = |p: usize, offset: isize| -> usize {
        ((p - 1) as isize + offset).rem_euclid(rotating as isize) as usize + 1
    };

    (1..=rotating)
        .map(|r| {
            let p = 1 + ((r - 1) * (m / 2)) % rotating;
            let mut games = Vec::with_capacity(m / 2);
            let mut byes = Vec::new();
            let top = if r % 2 == 1 { (p, m) } else { (m, p) };
            for k in 1..m / 2 + 1 {
                let (white, black) = if k == 1 {
                    top
                } else {
                    let d = (k - 1) as isize;
                    (around(p, d), around(p, -d))
                };
                match (who(white), who(black)) {
                    (Some(a), Some(b)) => games.push(Pairing::new(a, b)),
                    (Some(a), None) | (None, Some(a)) => byes.push(a),
                    (None, None) => unreachable!("only one dummy"),
                }
            }
            Round {
                number: r as u32,
                games,
                byes,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn field(n: u32) -> Vec<Entrant> {
        (0..n).map(|i| Entrant::new(i, 2000.0 - i as f64)).collect()
    }

    /// Berger numbers (1-based), as printed in the tables.
    fn numbers(round: &Round) -> Vec<(u32, u32)> {
        round
            .games
            .iter()
            .map(|g| (g.seat0.0 + 1, g.seat1.0 + 1))
            .collect()
    }

    #[test]
    fn berger_table_for_4_is_fides() {
        let rounds = schedule(&field(4), false);
        let printed: Vec<_> = rounds.iter().map(numbers).collect();
        assert_eq!(
            printed,
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)],
            ]
        );
    }

    #[test]
    fn berger_table_for_6_is_fides() {
        let rounds = schedule(&field(6), false);
        let printed: Vec<_> = rounds.iter().map(numbers).collect();
        assert_eq!(
            printed,
            vec![
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
    }

    /// Every pair meets exactly `cycles` times, nobody plays twice in a round, an odd field has
    /// exactly one bye a round, and over each cycle seats are balanced within one.
    fn check(n: u32, double: bool) {
        let entrants = field(n);
        let rounds = schedule(&entrants, double);
        let cycles: u32 = if double { 2 } else { 1 };
        let per_cycle = rounds_per_cycle(n as usize);
        assert_eq!(rounds.len(), per_cycle * cycles as usize, "n = {n}");
        assert_eq!(
            per_cycle,
            if n.is_multiple_of(2) { n - 1 } else { n } as usize
        );

        let mut meetings: HashMap<(u32, u32), u32> = HashMap::new();
        let mut byes = vec![0u32; n as usize];
        for (i, round) in rounds.iter().enumerate() {
            assert_eq!(round.number, i as u32 + 1);
            let mut seen = vec![0u32; n as usize];
            for g in &round.games {
                assert_ne!(g.seat0, g.seat1);
                seen[g.seat0.index()] += 1;
                seen[g.seat1.index()] += 1;
                let key = (g.seat0.0.min(g.seat1.0), g.seat0.0.max(g.seat1.0));
                *meetings.entry(key).or_default() += 1;
            }
            for b in &round.byes {
                seen[b.index()] += 1;
                byes[b.index()] += 1;
            }
            assert!(seen.iter().all(|&s| s == 1), "n = {n}, round {}", i + 1);
            assert_eq!(round.byes.len(), (n % 2) as usize);
        }
        for a in 0..n {
            for b in a + 1..n {
                assert_eq!(meetings.get(&(a, b)), Some(&cycles), "{a} v {b}, n = {n}");
            }
        }
        assert!(byes.iter().all(|&b| b == (n % 2) * cycles));

        for cycle in rounds.chunks(per_cycle) {
            let mut balance = vec![0i32; n as usize];
            for g in cycle.iter().flat_map(|r| &r.games) {
                balance[g.seat0.index()] += 1;
                balance[g.seat1.index()] -= 1;
            }
            assert!(balance.iter().all(|b| b.abs() <= 1), "n = {n}: {balance:?}");
        }
    }

    #[test]
    fn single_round_robin_4_5_6_9() {
        for n in [4, 5, 6, 9] {
            check(n, false);
        }
    }

    #[test]
    fn double_round_robin_4_5_6_9() {
        for n in [4, 5, 6, 9] {
            check(n, true);
        }
    }

    #[test]
    fn double_round_robin_reverses_colours() {
        for n in [4, 5, 6, 9] {
            let rounds = schedule(&field(n), true);
            let (first, second) = rounds.split_at(rounds.len() / 2);
            for (a, b) in first.iter().zip(second) {
                assert_eq!(b.number, a.number + first.len() as u32);
                assert_eq!(b.byes, a.byes);
                let reversed: Vec<_> = a.games.iter().map(|g| g.reversed()).collect();
                assert_eq!(b.games, reversed);
            }
        }
    }

    #[test]
    fn odd_field_gives_each_entrant_one_bye() {
        let rounds = schedule(&field(5), false);
        let mut byes: Vec<u32> = rounds
            .iter()
            .flat_map(|r| r.byes.iter().map(|b| b.0))
            .collect();
        byes.sort();
        assert_eq!(byes, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn uses_the_given_ids_in_the_given_order() {
        let entrants = vec![Entrant::new(7, 1500.0), Entrant::new(3, 1600.0)];
        let rounds = schedule(&entrants, false);
        assert_eq!(rounds.len(), 1);
        assert_eq!(
            rounds[0].games,
            vec![Pairing::new(EntrantId(7), EntrantId(3))]
        );
    }

    #[test]
    fn too_small_a_field_has_no_rounds() {
        assert!(schedule(&field(0), true).is_empty());
        assert!(schedule(&field(1), true).is_empty());
    }

    #[test]
    fn schedule_round_trips_through_json() {
        let rounds = schedule(&field(5), true);
        let json = serde_json::to_string(&rounds).unwrap();
        let back: Vec<Round> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rounds);
    }
}
