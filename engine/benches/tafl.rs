//! Tafl engine benchmarks: `cargo bench -p engine --bench tafl`.
//!
//! Prints perft times at depths 1-4 from the start of Copenhagen, Brandubh and Tablut, perft(4)
//! of Copenhagen through the game contract alone (what a server or client pays per move), and the
//! random-playout throughput (games/s, plies/s) of every preset. Each figure is the best of a
//! few runs, to damp the noise of a shared machine; compare figures within one run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::MatchRng;
use engine::playout::{perft, random_playout};
use engine::tafl::{Tafl, variants};

/// The fastest of `runs` timings of `f`, with its last result.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = black_box(f());
        best = best.min(start.elapsed());
        result = Some(r);
    }
    (best, result.expect("at least one run"))
}

fn main() {
    println!("perft from the start position (best of 3)");
    println!(
        "{:<12} {:>5} {:>12} {:>10} {:>12}",
        "variant", "depth", "nodes", "ms", "Mnodes/s"
    );
    for name in ["copenhagen", "brandubh", "tablut"] {
        let game = Tafl::preset(name).expect("preset");
        for depth in 1..=4 {
            let (time, nodes) = best_of(3, || game.perft(depth));
            let ms = time.as_secs_f64() * 1e3;
            let rate = nodes as f64 / time.as_secs_f64() / 1e6;
            println!("{name:<12} {depth:>5} {nodes:>12} {ms:>10.3} {rate:>12.1}");
        }
    }

    println!();
    println!("perft through the game contract (best of 3)");
    println!(
        "{:<12} {:>5} {:>12} {:>10} {:>12}",
        "variant", "depth", "nodes", "ms", "Mnodes/s"
    );
    let mut game = Tafl::preset("copenhagen").expect("preset");
    for depth in 1..=4 {
        let (time, nodes) = best_of(3, || perft(&mut game, depth, &mut MatchRng::from_seed(0)));
        let ms = time.as_secs_f64() * 1e3;
        let rate = nodes as f64 / time.as_secs_f64() / 1e6;
        println!(
            "{:<12} {depth:>5} {nodes:>12} {ms:>10.3} {rate:>12.1}",
            "copenhagen"
        );
    }

    println!();
    println!("random playouts (best of 3 batches)");
    println!(
        "{:<24} {:>6} {:>10} {:>10} {:>12}",
        "variant", "games", "plies/game", "games/s", "plies/s"
    );
    for name in variants::NAMES {
        let games = match name {
            "alea-evangelii" | "copenhagen-13" => 20,
            _ => 200,
        };
        let (time, plies) = best_of(3, || {
            (0..games)
                .map(|seed| {
                    let mut game = Tafl::preset(name).expect("preset");
                    let (mut rng, mut chooser) =
                        (MatchRng::from_seed(0), MatchRng::from_seed(seed));
                    random_playout(&mut game, &mut rng, &mut chooser, 100_000)
                        .log
                        .len()
                })
                .sum::<usize>()
        });
        let secs = time.as_secs_f64();
        println!(
            "{name:<24} {games:>6} {:>10.0} {:>10.0} {:>12.0}",
            plies as f64 / games as f64,
            games as f64 / secs,
            plies as f64 / secs
        );
    }
}
