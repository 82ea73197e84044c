//! `tafl puzzles`: the puzzle set, made from the recorded Copenhagen games and from the AI's
//! games against itself, written as JSON lines (one [`Puzzle`] a line, the format in
//! `docs/engine.md`).
//!
//! Every game is a task; the tasks are shared out over threads, and their puzzles are written in
//! task order, each position once (the first found), so that the output is the same byte for
//! byte on every run and any number of threads.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use engine::tafl::opentafl::parse_move;
use engine::tafl::puzzle::{
    Harvest, Limits, Puzzle, SelfPlay, Source, game_puzzles, self_play_game,
};
use engine::tafl::{Move, Rules, variants};

/// What each variant's positions are searched for: the win within `win_moves` of the solver's
/// moves, a man won within `material_moves`, each within a node budget per position.
struct VariantPlan {
    variant: &'static str,
    win_moves: u8,
    material_moves: u8,
    max_nodes: u64,
}

/// The recorded games are Copenhagen; the AI plays Brandubh, Tablut and Tawlbwrdd too.
const PLANS: [VariantPlan; 4] = [
    VariantPlan {
        variant: "copenhagen",
        win_moves: 3,
        material_moves: 2,
        max_nodes: 200_000,
    },
    VariantPlan {
        variant: "brandubh",
        win_moves: 4,
        material_moves: 3,
        max_nodes: 200_000,
    },
    VariantPlan {
        variant: "tablut",
        win_moves: 3,
        material_moves: 2,
        max_nodes: 200_000,
    },
    VariantPlan {
        variant: "tawlbwrdd",
        win_moves: 3,
        material_moves: 2,
        max_nodes: 200_000,
    },
];

const SELF_PLAY: SelfPlay = SelfPlay {
    random_plies: 8,
    max_plies: 300,
};

/// One game to look through.
enum Task {
    /// Line `line` (from 1) of the recorded collection.
    Recorded { line: u32, moves: Vec<Move> },
    /// The AI's game against itself with this seed.
    SelfPlay { plan: usize, seed: u64 },
}

/// What to make.
pub struct Options<'a> {
    /// The recorded Copenhagen games (the copenhagen.csv format) and the name to cite them by.
    pub games: &'a Path,
    /// At most this many recorded games (all of them when `None`).
    pub max_games: Option<usize>,
    /// Self-play games per variant that the AI plays.
    pub self_play: u64,
    pub threads: usize,
}

/// Makes the set, writes it to `out`, and returns a summary for the terminal.
pub fn run(options: &Options<'_>, out: &mut impl Write) -> Result<String, String> {
    let started = Instant::now();
    let text = std::fs::read_to_string(options.games)
        .map_err(|e| format!("cannot read {}: {e}", options.games.display()))?;
    let collection = options
        .games
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let copenhagen = variants::preset("copenhagen").expect("a preset");
    let mut tasks = recorded_tasks(&text, &copenhagen, options.max_games)?;
    for (plan, _) in PLANS.iter().enumerate().skip(1) {
        tasks.extend((0..options.self_play).map(|seed| Task::SelfPlay { plan, seed }));
    }
    let results = run_tasks(&tasks, options.threads, |task| match task {
        Task::Recorded { line, moves } => game_puzzles(
            "copenhagen",
            &copenhagen,
            moves,
            &harvest(&PLANS[0]),
            |ply| Source::Game {
                collection: collection.clone(),
                game: *line,
                ply,
            },
        ),
        Task::SelfPlay { plan, seed } => {
            let plan = &PLANS[*plan];
            let rules = variants::preset(plan.variant).expect("a preset");
            let moves = self_play_game(&rules, *seed, &SELF_PLAY);
            game_puzzles(plan.variant, &rules, &moves, &harvest(plan), |ply| {
                Source::SelfPlay { seed: *seed, ply }
            })
        }
    });
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for puzzle in results.into_iter().flatten() {
        if seen.insert(puzzle.id.clone()) {
            kept.push(puzzle);
        }
    }
    for puzzle in &kept {
        let line = serde_json::to_string(puzzle).expect("a puzzle serialises");
        writeln!(out, "{line}").map_err(|e| format!("cannot write the puzzles: {e}"))?;
    }
    Ok(summary(&kept, started.elapsed().as_secs_f64()))
}

fn harvest(plan: &VariantPlan) -> Harvest {
    Harvest {
        win: Limits {
            max_moves: plan.win_moves,
            max_nodes: plan.max_nodes,
        },
        scout_nodes: 20_000,
        material: Some(Limits {
            max_moves: plan.material_moves,
            max_nodes: plan.max_nodes,
        }),
    }
}

/// The recorded games as tasks: each line's moves up to a `timeout` or the first move the
/// engine does not accept (what follows it cannot be replayed).
fn recorded_tasks(text: &str, rules: &Rules, max: Option<usize>) -> Result<Vec<Task>, String> {
    let dim = rules.dim();
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if max.is_some_and(|max| tasks.len() >= max) {
            break;
        }
        let moves_field = line.split(',').next().unwrap_or_default();
        let moves = moves_field
            .split_whitespace()
            .take_while(|&text| text != "timeout")
            .map_while(|text| parse_move(text, dim).ok().map(|written| written.mv))
            .collect();
        tasks.push(Task::Recorded {
            line: i as u32 + 1,
            moves,
        });
    }
    if tasks.is_empty() {
        return Err("the collection holds no games".into());
    }
    Ok(tasks)
}

/// Runs `work` on every task over `threads` threads; the results in task order.
fn run_tasks<T: Sync, R: Send>(
    tasks: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(tasks.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(i) else { break };
                    let result = work(task);
                    let mut done = done.lock().expect("no thread panics");
                    done.push((i, result));
                    // A tenth of the way at a time: the whole run takes minutes.
                    if done.len() % tasks.len().div_ceil(10) == 0 {
                        eprintln!("{} of {} games", done.len(), tasks.len());
                    }
                }
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panics");
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, result)| result).collect()
}

/// Counts per variant and per theme, and the time taken.
fn summary(puzzles: &[Puzzle], secs: f64) -> String {
    let mut variants: BTreeMap<&str, usize> = BTreeMap::new();
    let mut themes: BTreeMap<String, usize> = BTreeMap::new();
    let mut lengths: BTreeMap<u8, usize> = BTreeMap::new();
    for puzzle in puzzles {
        *variants.entry(&puzzle.variant).or_default() += 1;
        *lengths.entry(puzzle.moves).or_default() += 1;
        for theme in &puzzle.themes {
            let name = serde_json::to_string(theme).expect("a theme serialises");
            *themes
                .entry(name.trim_matches('"').to_string())
                .or_default() += 1;
        }
    }
    let mut text = format!("{} puzzles in {secs:.1} s\n", puzzles.len());
    for (name, n) in variants {
        text += &format!("  {name:<12}{n:>6}\n");
    }
    for (name, n) in themes {
        text += &format!("  {name:<12}{n:>6}\n");
    }
    for (moves, n) in lengths {
        text += &format!("  in {moves}       {n:>6}\n");
    }
    text
}
