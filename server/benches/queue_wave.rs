//! One matchmaking wave over 10,000 waiting players: `cargo bench -p server --bench queue_wave`.
//! Prints the time of a wave (best of 5) and how many pairs it formed.

use std::time::{Duration, Instant};

use server::queue::wave::{Waiting, Window, pair};

fn main() {
    let mut seed = 42u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u32
    };
    for n in [1_000usize, 10_000, 100_000] {
        let waiting: Vec<Waiting<u32>> = (0..n)
            .map(|i| Waiting {
                player: i as u32,
                // Roughly normal ratings around 1500.
                rating: 1500.0 + (0..4).map(|_| f64::from(next() % 400) - 200.0).sum::<f64>(),
                waited: Duration::from_millis(u64::from(next() % 60_000)),
                last_opponent: (i > 0 && next() % 4 == 0).then(|| (i - 1) as u32),
            })
            .collect();
        let mut best = Duration::MAX;
        let mut pairs = 0;
        for _ in 0..5 {
            let start = Instant::now();
            pairs = std::hint::black_box(pair(&waiting, Window::DEFAULT)).len();
            best = best.min(start.elapsed());
        }
        println!(
            "{n:>7} waiting: {pairs:>6} pairs in {:.2} ms",
            best.as_secs_f64() * 1e3
        );
    }
}
