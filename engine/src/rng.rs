//! The match's source of chance.
//!
//! Dice, shuffles and random boards all draw from one seeded generator that the match owns, so a
//! match is reproduced exactly by its configuration, its seed and its action log. ChaCha8 is used
//! because its output is specified independently of platform and crate version.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A seeded random number generator owned by one match.
#[derive(Clone, Debug)]
pub struct MatchRng {
    inner: ChaCha8Rng,
}

impl MatchRng {
    pub fn from_seed(seed: u64) -> Self {
        MatchRng {
            inner: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniformly distributed integer in `0..bound`; `bound` must be positive.
    ///
    /// Uses rejection sampling so that no value is favoured (a plain modulo would be biased).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "MatchRng::below needs a positive bound");
        let zone = u64::MAX - (u64::MAX % bound);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % bound;
            }
        }
    }

    /// One roll of a die with `sides` faces, from 1 to `sides`.
    pub fn roll(&mut self, sides: u8) -> u8 {
        self.below(u64::from(sides)) as u8 + 1
    }

    /// Picks one element uniformly, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len() as u64) as usize)
        }
    }

    /// Fisher-Yates shuffle in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = MatchRng::from_seed(42);
        let mut b = MatchRng::from_seed(42);
        let xs: Vec<u64> = (0..16).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..16).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let mut c = MatchRng::from_seed(43);
        assert_ne!(xs[0], c.next_u64());
    }

    #[test]
    fn rolls_stay_in_range_and_cover_every_face() {
        let mut rng = MatchRng::from_seed(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let r = rng.roll(6);
            assert!((1..=6).contains(&r));
            seen[usize::from(r - 1)] += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 800),
            "faces badly skewed: {seen:?}"
        );
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = MatchRng::from_seed(1);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
