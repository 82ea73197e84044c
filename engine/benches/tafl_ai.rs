//! Tafl AI benchmarks: `cargo bench -p engine --bench tafl_ai`.
//!
//! 1. Search speed: fixed-depth searches (full strength: table, reductions) from the start of
//!    Brandubh and Copenhagen, with nodes, time (best of 3, including the allocation of a
//!    2^20-entry table, which dominates the shallowest depths), nodes/s, score and the chosen
//!    move.
//! 2. A self-play ladder: each level against the one below, on Brandubh and Copenhagen, the same
//!    number of games with each side. Every game opens with one random move per side (from the
//!    game's seed) so that the deterministic levels do not replay one game; games still running
//!    after the ply limit count as draws. Win rates are the upper level's. Each level searches
//!    its own node limit, as it does on the server (less a server's time limit), with the
//!    seconds per move of the upper level shown.
//!
//! `cargo bench -p engine --bench tafl_ai -- [speed] [ladder] [VARIANT...] [RUNG...] [GAMES]`:
//! naming parts, variants (`brandubh`, `copenhagen`) or rungs (`5v4`) runs only those; GAMES is
//! games per side and rung (default 4 on Brandubh, 2 on Copenhagen). `TAFL_AI_NODES` caps every
//! level's nodes a move (default: no cap beyond the levels' own).

use std::time::Instant;

use engine::MatchRng;
use engine::ai::{Ai, Budget, Level};
use engine::tafl::opentafl::print_move;
use engine::tafl::search::SearchParams;
use engine::tafl::{Side, Tafl, seat_of};

/// What the command line asked for.
struct Args {
    words: Vec<String>,
    games: Option<u64>,
}

impl Args {
    fn parse() -> Args {
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        Args {
            games: args.iter().find_map(|a| a.parse().ok()),
            words: args
                .into_iter()
                .filter(|a| a.parse::<u64>().is_err())
                .collect(),
        }
    }

    /// Whether `word` is wanted, among the words of its kind (`of`): all are when none is named.
    fn wants(&self, word: &str, of: &[&str]) -> bool {
        self.words.iter().any(|w| w == word) || !self.words.iter().any(|w| of.contains(&w.as_str()))
    }
}

const VARIANTS: [&str; 2] = ["brandubh", "copenhagen"];
const RUNGS: [&str; 4] = ["2v1", "3v2", "4v3", "5v4"];

fn speed(args: &Args) {
    println!("fixed-depth search from the start position (best of 3)");
    println!(
        "{:<12} {:>5} {:>11} {:>10} {:>10} {:>8} {:>8}",
        "variant", "depth", "nodes", "ms", "knodes/s", "score", "move"
    );
    for (name, depths) in [("brandubh", 1..=7), ("copenhagen", 1..=5)] {
        if !args.wants(name, &VARIANTS) {
            continue;
        }
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

/// One game's result.
struct Game {
    winner: Option<Side>,
    plies: usize,
    /// Moves searched by `timed`'s side, the seconds they took, and the longest.
    timed_moves: u32,
    timed_secs: f64,
    timed_max: f64,
}

/// Plays one game, timing the moves of side `timed`.
fn play(
    name: &str,
    attackers: Level,
    defenders: Level,
    timed: Side,
    seed: u64,
    nodes: u64,
    max_plies: usize,
) -> Game {
    let mut game = Tafl::preset(name).expect("preset");
    let mut rng = MatchRng::from_seed(seed);
    let budget = Budget::nodes(nodes);
    let mut result = Game {
        winner: None,
        plies: 0,
        timed_moves: 0,
        timed_secs: 0.0,
        timed_max: 0.0,
    };
    while let Some(side) = game.to_move() {
        if result.plies >= max_plies {
            return result;
        }
        let mv = if result.plies < 2 {
            let moves = game.legal_moves();
            *rng.choose(&moves).expect("a side to move has moves")
        } else {
            let level = match side {
                Side::Attackers => attackers,
                Side::Defenders => defenders,
            };
            let start = Instant::now();
            let mv = game
                .choose(seat_of(side), level, &budget, &mut rng)
                .expect("the side to move has a move");
            if side == timed {
                result.timed_moves += 1;
                let secs = start.elapsed().as_secs_f64();
                result.timed_secs += secs;
                result.timed_max = result.timed_max.max(secs);
            }
            mv
        };
        game.play_move(mv).expect("the AI plays legal moves");
        result.plies += 1;
    }
    result.winner = game.verdict().and_then(|v| v.winner);
    result
}

fn ladder(args: &Args) {
    let nodes = std::env::var("TAFL_AI_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    println!();
    println!("self-play ladder: each level against the one below (each within its own node limit)");
    println!(
        "{:<12} {:>7} {:>6} {:>5} {:>6} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "variant",
        "pairing",
        "games",
        "wins",
        "losses",
        "draws",
        "win rate",
        "plies/gm",
        "s/move",
        "max s",
        "s"
    );
    for (name, default_games, max_plies) in [("brandubh", 4, 200), ("copenhagen", 2, 300)] {
        if !args.wants(name, &VARIANTS) {
            continue;
        }
        let games = args.games.unwrap_or(default_games);
        for upper in 2..=5u8 {
            if !args.wants(RUNGS[usize::from(upper) - 2], &RUNGS) {
                continue;
            }
            let high = Level::new(upper).expect("level");
            let low = Level::new(upper - 1).expect("level");
            let start = Instant::now();
            let (mut wins, mut losses, mut draws, mut plies) = (0, 0, 0, 0);
            let (mut moves, mut secs, mut longest) = (0, 0.0, 0.0f64);
            for g in 0..games {
                for high_side in [Side::Attackers, Side::Defenders] {
                    let (attackers, defenders) = match high_side {
                        Side::Attackers => (high, low),
                        Side::Defenders => (low, high),
                    };
                    let seed = 1000 * u64::from(upper) + g;
                    let game = play(
                        name, attackers, defenders, high_side, seed, nodes, max_plies,
                    );
                    plies += game.plies;
                    moves += game.timed_moves;
                    secs += game.timed_secs;
                    longest = longest.max(game.timed_max);
                    match game.winner {
                        Some(side) if side == high_side => wins += 1,
                        Some(_) => losses += 1,
                        None => draws += 1,
                    }
                }
            }
            let total = wins + losses + draws;
            println!(
                "{name:<12} {:>7} {total:>6} {wins:>5} {losses:>6} {draws:>5} {:>8.0}% {:>9.0} {:>9.3} {:>9.3} {:>8.1}",
                format!("{upper}v{}", upper - 1),
                100.0 * f64::from(wins) / f64::from(total),
                plies as f64 / f64::from(total),
                secs / f64::from(moves.max(1)),
                longest,
                start.elapsed().as_secs_f64()
            );
        }
    }
}

fn main() {
    let args = Args::parse();
    let parts = ["speed", "ladder"];
    if args.wants("speed", &parts) {
        speed(&args);
    }
    if args.wants("ladder", &parts) {
        ladder(&args);
    }
}
