//! One pairing wave of the matchmaking queue, as a pure function.
//!
//! Players waiting in a pool are paired to minimise the total rating difference, not first come
//! first served. Each player accepts opponents within a rating window that widens the longer they
//! wait; two players can meet only if each is inside the other's window. Nobody is paired with
//! themselves, and a player is paired with the opponent they just played only when no other fair
//! choice exists (the rematch carries a large extra cost).
//!
//! For a cost that is a rating difference, an optimal matching pairs players that are close in
//! rating order, so the wave sorts by rating and runs an exact dynamic programme over matchings in
//! which partners are at most [`REACH`] places apart in that order: it first maximises the number
//! of pairs, then minimises the total cost. That is linear in the number of players (10,000
//! players take milliseconds), where a general matching would be cubic.

use std::time::Duration;

/// How far apart in rating order two partners may be.
pub const REACH: usize = 4;

/// Extra cost of pairing a player with their last opponent: larger than any rating difference,
/// so a rematch is chosen only when it is the only way to pair someone.
const REMATCH_COST: f64 = 1.0e6;

/// How the acceptable rating difference grows with waiting time.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Window {
    pub initial: f64,
    pub per_second: f64,
    pub max: f64,
}

impl Window {
    pub const DEFAULT: Window = Window {
        initial: 100.0,
        per_second: 25.0,
        max: 800.0,
    };

    pub fn after(&self, waited: Duration) -> f64 {
        (self.initial + self.per_second * waited.as_secs_f64()).min(self.max)
    }
}

/// A player waiting in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting<P> {
    pub player: P,
    pub rating: f64,
    pub waited: Duration,
    pub last_opponent: Option<P>,
}

/// Pairs as many waiting players as the windows allow at the least total cost. Returns pairs of
/// indices into `waiting`.
pub fn pair<P: PartialEq>(waiting: &[Waiting<P>], window: Window) -> Vec<(usize, usize)> {
    let n = waiting.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| waiting[a].rating.total_cmp(&waiting[b].rating));
    let cost = |a: usize, b: usize| -> Option<f64> {
        let (x, y) = (&waiting[a], &waiting[b]);
        if x.player == y.player {
            return None;
        }
        let diff = (x.rating - y.rating).abs();
        if diff > window.after(x.waited).min(window.after(y.waited)) {
            return None;
        }
        let rematch = x.last_opponent.as_ref() == Some(&y.player)
            || y.last_opponent.as_ref() == Some(&x.player);
        Some(diff + if rematch { REMATCH_COST } else { 0.0 })
    };
    // best[i][mask]: the best (pairs, -cost) over positions i.. of the sorted order, where bit k
    // of `mask` says position i + k is already taken by a partner from before i.
    const MASKS: usize = 1 << REACH;
    #[derive(Copy, Clone)]
    struct Best {
        pairs: u32,
        cost: f64,
        /// The partner (positions ahead) chosen for position i, or 0 for none.
        step: usize,
    }
    let better = |a: (u32, f64), b: (u32, f64)| a.0 > b.0 || (a.0 == b.0 && a.1 < b.1);
    let mut best = vec![
        [Best {
            pairs: 0,
            cost: 0.0,
            step: 0
        }; MASKS];
        n + 1
    ];
    for i in (0..n).rev() {
        for mask in 0..MASKS {
            let next_mask = mask >> 1;
            let mut choice = Best {
                pairs: best[i + 1][next_mask].pairs,
                cost: best[i + 1][next_mask].cost,
                step: 0,
            };
            if mask & 1 == 0 {
                for k in 1..=REACH {
                    let j = i + k;
                    if j >= n || mask & (1 << k) != 0 {
                        continue;
                    }
                    let Some(c) = cost(order[i], order[j]) else {
                        continue;
                    };
                    let rest = best[i + 1][next_mask | (1 << (k - 1))];
                    let candidate = (rest.pairs + 1, rest.cost + c);
                    if better(candidate, (choice.pairs, choice.cost)) {
                        choice = Best {
                            pairs: candidate.0,
                            cost: candidate.1,
                            step: k,
                        };
                    }
                }
            }
            best[i][mask] = choice;
        }
    }
    let mut pairs = Vec::new();
    let mut mask = 0usize;
    for i in 0..n {
        let step = if mask & 1 == 0 { best[i][mask].step } else { 0 };
        let mut next = mask >> 1;
        if step > 0 {
            pairs.push((order[i], order[i + step]));
            next |= 1 << (step - 1);
        }
        mask = next;
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(player: u32, rating: f64, secs: u64) -> Waiting<u32> {
        Waiting {
            player,
            rating,
            waited: Duration::from_secs(secs),
            last_opponent: None,
        }
    }

    fn sorted(mut pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        for p in &mut pairs {
            if p.0 > p.1 {
                *p = (p.1, p.0);
            }
        }
        pairs.sort();
        pairs
    }

    #[test]
    fn pairs_minimise_the_total_difference_not_arrival_order() {
        // First come first served would pair 0 with 1 (diff 300) and 2 with 3 (300).
        let w = [
            waiting(0, 1500.0, 30),
            waiting(1, 1800.0, 30),
            waiting(2, 1510.0, 30),
            waiting(3, 1790.0, 30),
        ];
        assert_eq!(sorted(pair(&w, Window::DEFAULT)), vec![(0, 2), (1, 3)]);
    }

    #[test]
    fn far_apart_ratings_wait_until_the_window_has_widened() {
        let fresh = [waiting(0, 1200.0, 0), waiting(1, 1600.0, 0)];
        assert!(pair(&fresh, Window::DEFAULT).is_empty());
        // 100 + 25 * 12 = 400: now both windows cover the 400 points between them.
        let later = [waiting(0, 1200.0, 12), waiting(1, 1600.0, 12)];
        assert_eq!(pair(&later, Window::DEFAULT), vec![(0, 1)]);
        // Both must accept: one player's wide window is not enough.
        let one_sided = [waiting(0, 1200.0, 100), waiting(1, 1600.0, 0)];
        assert!(pair(&one_sided, Window::DEFAULT).is_empty());
    }

    #[test]
    fn nobody_meets_themselves_and_rematches_come_last() {
        let same = [waiting(7, 1500.0, 60), waiting(7, 1500.0, 60)];
        assert!(pair(&same, Window::DEFAULT).is_empty());
        let mut w = vec![
            waiting(0, 1500.0, 60),
            waiting(1, 1501.0, 60),
            waiting(2, 1540.0, 60),
            waiting(3, 1541.0, 60),
        ];
        w[0].last_opponent = Some(1);
        assert_eq!(sorted(pair(&w, Window::DEFAULT)), vec![(0, 2), (1, 3)]);
        // With nobody else, the rematch is better than no game.
        let two = [w[0].clone(), w[1].clone()];
        assert_eq!(pair(&two, Window::DEFAULT), vec![(0, 1)]);
    }

    #[test]
    fn the_number_of_pairs_comes_before_their_cost() {
        // Pairing the middle two (diff 10) would strand both ends; two pairs of 90 are better.
        let w = [
            waiting(0, 1400.0, 0),
            waiting(1, 1490.0, 0),
            waiting(2, 1500.0, 0),
            waiting(3, 1590.0, 0),
        ];
        assert_eq!(sorted(pair(&w, Window::DEFAULT)), vec![(0, 1), (2, 3)]);
    }

    #[test]
    fn matches_brute_force_on_small_random_queues() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..300 {
            let n = 2 + next() as usize % 7;
            let w: Vec<Waiting<u32>> = (0..n)
                .map(|i| {
                    waiting(
                        i as u32,
                        1300.0 + f64::from(next() % 500),
                        u64::from(next() % 20),
                    )
                })
                .collect();
            let got = pair(&w, Window::DEFAULT);
            let score = |pairs: &[(usize, usize)]| {
                let cost: f64 = pairs
                    .iter()
                    .map(|&(a, b)| (w[a].rating - w[b].rating).abs())
                    .sum();
                (pairs.len(), cost)
            };
            let best = brute_force(&w, Window::DEFAULT);
            let (gp, gc) = score(&got);
            assert_eq!(gp, best.0, "{w:?}");
            assert!((gc - best.1).abs() < 1e-6, "{w:?}: {gc} vs {}", best.1);
        }
    }

    /// The best (pairs, cost) over every matching, by exhaustive search.
    fn brute_force(w: &[Waiting<u32>], window: Window) -> (usize, f64) {
        fn go(w: &[Waiting<u32>], window: Window, free: Vec<usize>) -> (usize, f64) {
            let Some((&first, rest)) = free.split_first() else {
                return (0, 0.0);
            };
            let mut best = go(w, window, rest.to_vec());
            for (k, &other) in rest.iter().enumerate() {
                let diff = (w[first].rating - w[other].rating).abs();
                if diff
                    > window
                        .after(w[first].waited)
                        .min(window.after(w[other].waited))
                {
                    continue;
                }
                let mut remaining = rest.to_vec();
                remaining.remove(k);
                let (p, c) = go(w, window, remaining);
                let candidate = (p + 1, c + diff);
                if candidate.0 > best.0 || (candidate.0 == best.0 && candidate.1 < best.1) {
                    best = candidate;
                }
            }
            best
        }
        go(w, window, (0..w.len()).collect())
    }
}
