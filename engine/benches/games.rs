//! Random-playout throughput of every registered game, every variant, at its fewest and most
//! seats, through the contract alone: `cargo bench -p engine --bench games`. Each figure is the best of three batches; compare
//! figures within one run. (The tafl presets have their own, more detailed bench: `tafl`.)

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::playout::random_playout;
use engine::registry::{GAME_IDS, GameTask, Hostable, with_game};
use engine::{Catalog, MatchRng};

/// Plays `games` random games of `variant` with `seats` seats; returns the best batch time and
/// the number of actions in a batch.
fn measure<G: Catalog>(variant: &str, seats: usize, games: u64) -> (Duration, usize) {
    let config = G::config(variant, seats).expect("a catalogued variant");
    let mut best = Duration::MAX;
    let mut actions = 0;
    for _ in 0..3 {
        let start = Instant::now();
        actions = (0..games)
            .map(|seed| {
                let mut rng = MatchRng::from_seed(seed);
                let mut chooser = MatchRng::from_seed(!seed);
                let mut game = G::new(&config, &mut rng).expect("a valid configuration");
                black_box(random_playout(&mut game, &mut rng, &mut chooser, 1_000_000))
                    .log
                    .len()
            })
            .sum();
        best = best.min(start.elapsed());
    }
    (best, actions)
}

/// Reports every variant of a game at its fewest and its most seats.
struct Report(u64);

impl GameTask for Report {
    type Output = ();

    fn run<G: Hostable>(self) {
        report::<G>(self.0);
    }
}

fn report<G: Catalog>(games: u64) {
    for variant in G::variants() {
        let range = G::seat_counts(variant);
        let mut seat_counts = vec![*range.start()];
        if range.end() != range.start() {
            seat_counts.push(*range.end());
        }
        for seats in seat_counts {
            let (time, actions) = measure::<G>(variant, seats, games);
            let secs = time.as_secs_f64();
            println!(
                "{:<10} {variant:<22} {seats:>5} {games:>6} {:>12.1} {:>10.0} {:>12.0}",
                G::ID,
                actions as f64 / games as f64,
                games as f64 / secs,
                actions as f64 / secs
            );
        }
    }
}

fn main() {
    println!(
        "{:<10} {:<22} {:>5} {:>6} {:>12} {:>10} {:>12}",
        "game", "variant", "seats", "games", "actions/game", "games/s", "actions/s"
    );
    for id in GAME_IDS {
        with_game(id, Report(500));
    }
}
