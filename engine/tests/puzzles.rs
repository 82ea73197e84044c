//! The checked-in puzzle set (`data/puzzles/puzzles.jsonl`, made by `tafl puzzles`): every line
//! reads as a puzzle, the set is as large and as varied as promised, and a sample drawn anew
//! from a fixed seed is proven again on every run, solution and uniqueness included.

use std::collections::{BTreeMap, HashSet};

use engine::rng::MatchRng;
use engine::tafl::puzzle::{Goal, Puzzle, Theme};

const SET: &str = include_str!("../../data/puzzles/puzzles.jsonl");

/// Far more than any stored puzzle needed when it was made: the check must not fail for want of
/// nodes.
const CHECK_NODES: u64 = 20_000_000;

fn puzzles() -> Vec<Puzzle> {
    SET.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("line {} is not a puzzle: {e}", i + 1))
        })
        .collect()
}

#[test]
fn the_set_holds_a_thousand_puzzles_over_four_variants() {
    let puzzles = puzzles();
    assert!(puzzles.len() >= 1000, "{} puzzles", puzzles.len());
    let mut per_variant: BTreeMap<&str, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        *per_variant.entry(&puzzle.variant).or_default() += 1;
    }
    for variant in ["copenhagen", "brandubh", "tablut", "tawlbwrdd"] {
        let n = per_variant.get(variant).copied().unwrap_or(0);
        assert!(n >= 100, "{variant}: {n} puzzles");
    }
    let ids: HashSet<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), puzzles.len(), "every position once");
    for theme in [Theme::Escape, Theme::KingCapture, Theme::Material] {
        assert!(
            puzzles.iter().any(|p| p.themes.contains(&theme)),
            "no puzzle of {theme:?}"
        );
    }
    for puzzle in &puzzles {
        assert!((1..=5).contains(&puzzle.moves), "{}", puzzle.id);
        assert_eq!(
            puzzle.line.len(),
            2 * usize::from(puzzle.moves) - 1,
            "{}",
            puzzle.id
        );
        assert!((1..=5).contains(&puzzle.difficulty), "{}", puzzle.id);
        assert_eq!(
            puzzle.goal == Goal::Material,
            puzzle.themes.contains(&Theme::Material),
            "{}",
            puzzle.id
        );
    }
}

#[test]
fn a_seeded_sample_is_proven_again() {
    let puzzles = puzzles();
    let mut rng = MatchRng::from_seed(31);
    let mut sample: Vec<usize> = (0..puzzles.len()).collect();
    rng.shuffle(&mut sample);
    for &i in sample.iter().take(50) {
        puzzles[i]
            .check(CHECK_NODES)
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
    }
}
