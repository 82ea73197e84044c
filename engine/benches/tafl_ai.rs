//! Tafl AI benchmarks: `cargo bench -p engine --bench tafl_ai`.
//!
//! 1. Search speed: fixed-depth searches (full strength: table, reductions) from the start of
//!    Brandubh and Copenhagen, with nodes, time (best of 3, including the allocation of a
//!    2^20-entry table, which dominates the shallowest depths), nodes/s, score and the chosen
//!    move.
//! 2. A self-play ladder: each level against the one below, on Brandubh and Copenhagen, the same
//!    number of games with each side. Every game opens with one random move per side (from the
//!    game's seed) so that the deterministic levels do not replay one game; games still running
//!    after the ply limit count as draws. Win rates are the upper level's.
//!
//! Environment: `TAFL_AI_GAMES` (games per side and pairing; default 4 on Brandubh, 2 on
//! Copenhagen), `TAFL_AI_NODES` (the budget given to every level; default 100,000, so level 5
//! searches 100,000 nodes a move, level 4 50,000, level 3 5,000).

use std::time::Instant;

use engine::MatchRng;
use engine::ai::{Ai, Budget, Level};
use engine::tafl::opentafl::print_move;
use engine::tafl::search::SearchParams;
use engine::tafl::{Side, Tafl, seat_of};

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn speed() {
    println!("fixed-depth search from the start position (best of 3)");
    println!(
        "{:<12} {:>5} {:>11} {:>10} {:>10} {:>8} {:>8}",
        "variant", "depth", "nodes", "ms", "knodes/s", "score", "move"
    );
    for (name, depths) in [("brandubh", 1..=7), ("copenhagen", 1..=5)] {
        let game = Tafl::preset(name).expect("preset");
        for depth in depths {
            let params = SearchParams::new(depth, u64::MAX);
            // The fastest of three runs, to damp the noise of a shared machine.
            let (secs, report) = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    let report = game.search_info(
                        &params,
                        &Budget::nodes(u64::MAX),
                        &mut MatchRng::from_seed(0),
                    );
                    (start.elapsed().as_secs_f64(), report)
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .expect("three runs");
            let mv = report
                .best
                .map_or("-".to_string(), |mv| print_move(mv, &[], game.dim()));
            println!(
                "{name:<12} {depth:>5} {:>11} {:>10.1} {:>10.0} {:>8} {:>8}",
                report.nodes,
                secs * 1e3,
                report.nodes as f64 / secs / 1e3,
                report.score,
                mv
            );
        }
    }
}

/// Plays one game; returns the winner, if any, and the number of plies.
fn play(
    name: &str,
    attackers: Level,
    defenders: Level,
    seed: u64,
    nodes: u64,
    max_plies: usize,
) -> (Option<Side>, usize) {
    let mut game = Tafl::preset(name).expect("preset");
    let mut rng = MatchRng::from_seed(seed);
    let budget = Budget::nodes(nodes);
    let mut plies = 0;
    while let Some(side) = game.to_move() {
        if plies >= max_plies {
            return (None, plies);
        }
        let mv = if plies < 2 {
            let moves = game.legal_moves();
            *rng.choose(&moves).expect("a side to move has moves")
        } else {
            let level = match side {
                Side::Attackers => attackers,
                Side::Defenders => defenders,
            };
            game.choose(seat_of(side), level, &budget, &mut rng)
                .expect("the side to move has a move")
        };
        game.play_move(mv).expect("the AI plays legal moves");
        plies += 1;
    }
    (game.verdict().and_then(|v| v.winner), plies)
}

fn ladder() {
    let nodes = env_number("TAFL_AI_NODES").unwrap_or(100_000);
    println!();
    println!("self-play ladder: each level against the one below (budget {nodes} nodes a move)");
    println!(
        "{:<12} {:>7} {:>6} {:>5} {:>6} {:>5} {:>9} {:>9} {:>8}",
        "variant", "pairing", "games", "wins", "losses", "draws", "win rate", "plies/gm", "s"
    );
    for (name, default_games, max_plies) in [("brandubh", 4, 200), ("copenhagen", 2, 300)] {
        let games = env_number("TAFL_AI_GAMES").unwrap_or(default_games);
        for upper in 2..=5u8 {
            let high = Level::new(upper).expect("level");
            let low = Level::new(upper - 1).expect("level");
            let start = Instant::now();
            let (mut wins, mut losses, mut draws, mut plies) = (0, 0, 0, 0);
            for g in 0..games {
                for high_side in [Side::Attackers, Side::Defenders] {
                    let (attackers, defenders) = match high_side {
                        Side::Attackers => (high, low),
                        Side::Defenders => (low, high),
                    };
                    let seed = 1000 * u64::from(upper) + g;
                    let (winner, n) = play(name, attackers, defenders, seed, nodes, max_plies);
                    plies += n;
                    match winner {
                        Some(side) if side == high_side => wins += 1,
                        Some(_) => losses += 1,
                        None => draws += 1,
                    }
                }
            }
            let total = wins + losses + draws;
            println!(
                "{name:<12} {:>7} {total:>6} {wins:>5} {losses:>6} {draws:>5} {:>8.0}% {:>9.0} {:>8.1}",
                format!("{upper}v{}", upper - 1),
                100.0 * f64::from(wins) / f64::from(total),
                plies as f64 / f64::from(total),
                start.elapsed().as_secs_f64()
            );
        }
    }
}

fn main() {
    speed();
    ladder();
}
