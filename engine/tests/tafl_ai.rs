//! The tafl AI: wins and defences one move deep at every level, legal moves on every preset,
//! the budget, the transposition table's exactness, and a self-play series.
//!
//! Boards are diagrams (top rank first; `A` attacker, `D` defender, `K` king, `.` empty, `#` an
//! empty special square) over a preset's rules, as in `tafl_rules.rs`.

use std::cell::Cell;
use std::time::Instant;

use engine::MatchRng;
use engine::ai::{Ai, Budget, Level};
use engine::tafl::opentafl::{parse_move, print_move};
use engine::tafl::search::{MATE, SearchParams, WIN_THRESHOLD, is_decisive};
use engine::tafl::{Layout, Move, Side, Tafl, seat_of, variants};

fn game(variant: &str, turn: Side, diagram: &str) -> Tafl {
    let mut rules = variants::preset(variant).unwrap();
    rules.start = Layout::from_diagram(diagram).unwrap();
    let start = rules.start.clone();
    Tafl::from_layout(rules, &start, turn).unwrap()
}

fn levels() -> impl Iterator<Item = Level> {
    Level::ALL.into_iter()
}

fn choose(game: &Tafl, level: Level, nodes: u64, seed: u64) -> Move {
    let side = game.to_move().expect("the game is on");
    let mv = game
        .choose(
            seat_of(side),
            level,
            &Budget::nodes(nodes),
            &mut MatchRng::from_seed(seed),
        )
        .unwrap_or_else(|| panic!("level {} found no move", level.get()));
    assert!(
        game.legal_moves().contains(&mv),
        "level {} chose the illegal {mv:?}",
        level.get()
    );
    mv
}

fn name(game: &Tafl, mv: Move) -> String {
    print_move(mv, &[], game.dim())
}

/// Whether `mv` wins at once for the side to move.
fn wins_at_once(game: &Tafl, mv: Move) -> bool {
    let side = game.to_move().unwrap();
    let mut after = game.clone();
    after.play_move(mv).unwrap();
    after.verdict().is_some_and(|v| v.winner == Some(side))
}

/// Whether the side to move has a move that wins at once.
fn has_immediate_win(game: &Tafl) -> bool {
    game.legal_moves()
        .into_iter()
        .any(|mv| wins_at_once(game, mv))
}

// --- One move from the end -------------------------------------------------------------------

/// The king on a5 sees the corner a7; the a-file below him is shut by his own man.
const ESCAPE_7: &str = "
    # . . . . . #
    . . . . . . .
    K . . . . . .
    . . . . . A .
    D . . A . . .
    . . . . . . .
    # . . . . A #";

/// Copenhagen on 13x13 (the wide bitboard): the king on m10 runs to the corner m13.
const ESCAPE_13: &str = "
    # . . . . . . . . . . . #
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . A . . . . . K
    . . . . . . . . . . . . D
    . . . . . . . . . . . . .
    . . . A . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . D . . . . A . .
    . . . . . . . . . . . . .
    . . . . A . . . . . . . .
    . . . . . . . . . . . . .
    # . . . . . . . . . . . #";

/// Tablut escapes to any edge square: the king on e3 has a free file to e1.
const ESCAPE_EDGE_9: &str = "
    . . . A A A . . .
    . . . . A . . . .
    . . . . . . . . .
    A . . . . . . . A
    A A . . . . . A A
    A . . . . . . . A
    . . . D K D . . .
    . . . . . . . . .
    . . . A . A . . .";

#[test]
fn every_level_takes_a_one_move_escape() {
    for (variant, diagram, escape) in [
        ("brandubh", ESCAPE_7, "a5-a7"),
        ("copenhagen-13", ESCAPE_13, "m10-m13"),
        ("tablut", ESCAPE_EDGE_9, "e3-e1"),
    ] {
        let g = game(variant, Side::Defenders, diagram);
        assert!(
            wins_at_once(&g, parse_move(escape, g.dim()).unwrap().mv),
            "{variant}: {escape} should win"
        );
        for level in levels() {
            for seed in 0..3 {
                let mv = choose(&g, level, 50_000, seed);
                assert!(
                    wins_at_once(&g, mv),
                    "{variant}, level {}: {} does not win",
                    level.get(),
                    name(&g, mv)
                );
            }
        }
    }
}

/// Brandubh: the king on c6, away from the throne, is weak; g6-d6 sandwiches him against b6.
const CAPTURE_WEAK: &str = "
    # . . . . . #
    . A K . . . A
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . D . . . . .
    # . . . . . #";

/// Copenhagen: the strong king on e5 is shut on three sides; e1-e4 closes the fourth.
const CAPTURE_STRONG: &str = "
    # . . . . . . . . . #
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . A . . . . . .
    . . . A K A . . . . .
    . . . . . . . . . . .
    . . . . . . . D . . .
    . . . . . . . . . . .
    # . . . A . . . . . #";

#[test]
fn every_level_captures_the_king_in_one_move() {
    for (variant, diagram, capture) in [
        ("brandubh", CAPTURE_WEAK, "g6-d6"),
        ("copenhagen", CAPTURE_STRONG, "e1-e4"),
    ] {
        let g = game(variant, Side::Attackers, diagram);
        assert!(
            wins_at_once(&g, parse_move(capture, g.dim()).unwrap().mv),
            "{variant}: {capture} should capture the king"
        );
        for level in levels() {
            for seed in 0..3 {
                let mv = choose(&g, level, 50_000, seed);
                assert!(
                    wins_at_once(&g, mv),
                    "{variant}, level {}: {} does not capture the king",
                    level.get(),
                    name(&g, mv)
                );
            }
        }
    }
}

/// Brandubh, attackers to move: the king on a5 threatens a5-a7, and only d6-a6 shuts the file
/// (the a-file below him is his own man's, the rank to his right ends on an ordinary edge
/// square).
const ONE_DEFENCE: &str = "
    # . . . . . #
    . . . A . . .
    K . . . . . .
    . . . . . . .
    D . . . . A .
    . . . . . . .
    # . . . . . #";

#[test]
fn levels_three_to_five_parry_a_threat_only_one_move_stops() {
    let g = game("brandubh", Side::Attackers, ONE_DEFENCE);
    let saving: Vec<Move> = g
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut after = g.clone();
            after.play_move(mv).unwrap();
            !has_immediate_win(&after)
        })
        .collect();
    assert_eq!(saving, vec![parse_move("d6-a6", 7).unwrap().mv]);
    for level in levels().filter(|l| l.get() >= 3) {
        for seed in 0..3 {
            let mv = choose(&g, level, 50_000, seed);
            assert_eq!(name(&g, mv), "d6-a6", "level {}", level.get());
        }
    }
}

#[test]
fn the_search_scores_forced_wins_and_losses() {
    let g = game("brandubh", Side::Defenders, ESCAPE_7);
    let report = g.search_info(
        &SearchParams::new(4, 100_000),
        &Budget::nodes(u64::MAX),
        &mut MatchRng::from_seed(0),
    );
    assert_eq!(report.score, MATE - 1);
    assert_eq!(report.pv.first(), report.best.as_ref());

    // The attackers to move cannot stop both a5-a7 and a5-a1: lost in two plies.
    let two_ways = game(
        "brandubh",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        K . . . . . .
        . . . . . . .
        . . . . . . .
        . . . D . A .
        # . . . . . #",
    );
    let report = two_ways.search_info(
        &SearchParams::new(3, 100_000),
        &Budget::nodes(u64::MAX),
        &mut MatchRng::from_seed(0),
    );
    assert!(report.score < -WIN_THRESHOLD, "{report:?}");
    assert!(is_decisive(report.score));
}

// --- Legal moves everywhere ------------------------------------------------------------------

#[test]
fn every_level_plays_legal_moves_on_every_preset() {
    for variant in variants::NAMES {
        for seed in 0..2 {
            let mut g = Tafl::preset(variant).unwrap();
            let mut rng = MatchRng::from_seed(seed);
            for ply in 0..40 {
                let Some(side) = g.to_move() else {
                    break;
                };
                if ply % 8 == 3 {
                    for level in levels() {
                        let mv = choose(&g, level, 2_000, seed + ply);
                        assert!(g.legal_moves().contains(&mv), "{variant}");
                        // Only the side to move is asked.
                        let other = seat_of(side.opponent());
                        assert_eq!(g.choose(other, level, &Budget::nodes(100), &mut rng), None);
                    }
                }
                let moves = g.legal_moves();
                g.play_move(*rng.choose(&moves).unwrap()).unwrap();
            }
        }
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let mut g = game("brandubh", Side::Defenders, ESCAPE_7);
    g.play_move(parse_move("a5-a7", 7).unwrap().mv).unwrap();
    assert!(g.verdict().is_some());
    for level in levels() {
        for side in [Side::Attackers, Side::Defenders] {
            let seat = seat_of(side);
            let budget = Budget::nodes(1_000);
            assert_eq!(
                g.choose(seat, level, &budget, &mut MatchRng::from_seed(0)),
                None
            );
        }
    }
}

// --- The budget ------------------------------------------------------------------------------

#[test]
fn a_stop_closure_ends_the_search_promptly() {
    let g = Tafl::preset("copenhagen").unwrap();
    for after in [0u32, 3, 20] {
        let calls = Cell::new(0u32);
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > after
        };
        let budget = Budget {
            max_nodes: u64::MAX,
            stop: &stop,
        };
        let report = g.search_info(
            &SearchParams::new(64, u64::MAX),
            &budget,
            &mut MatchRng::from_seed(0),
        );
        // Asked every 256 nodes, and never again once it has said stop.
        assert_eq!(calls.get(), after + 1);
        assert!(
            report.nodes <= 256 * u64::from(after + 1) + 200,
            "{after}: {report:?}"
        );
        assert!(g.legal_moves().contains(&report.best.unwrap()));
        // The same through the AI interface, at the strongest level.
        calls.set(0);
        let mv = g
            .choose(
                seat_of(Side::Attackers),
                Level::ALL[4],
                &budget,
                &mut MatchRng::from_seed(0),
            )
            .unwrap();
        assert!(g.legal_moves().contains(&mv));
        assert_eq!(calls.get(), after + 1);
    }
}

#[test]
fn the_node_limit_is_kept() {
    for variant in ["brandubh", "copenhagen", "alea-evangelii"] {
        let g = Tafl::preset(variant).unwrap();
        for limit in [1, 100, 10_000, 40_000] {
            let report = g.search_info(
                &SearchParams::new(64, u64::MAX),
                &Budget::nodes(limit),
                &mut MatchRng::from_seed(0),
            );
            // The only extra nodes are the first look at each root move for a win.
            let roots = g.legal_moves().len() as u64;
            assert!(
                report.nodes <= limit + roots,
                "{variant} {limit}: {report:?}"
            );
            assert!(
                report.nodes + 1 >= limit.min(1_000),
                "{variant} {limit}: {report:?}"
            );
            assert!(g.legal_moves().contains(&report.best.unwrap()));
        }
        // A level's own limit applies under a larger budget.
        let params = SearchParams::for_level(Level::new(3).unwrap());
        let level3 = g.search_info(
            &params,
            &Budget::nodes(u64::MAX),
            &mut MatchRng::from_seed(0),
        );
        assert!(level3.nodes <= params.max_nodes + g.legal_moves().len() as u64);
    }
}

// --- The transposition table -----------------------------------------------------------------

/// A position `plies` random moves into `variant`.
fn random_position(variant: &str, plies: u64, seed: u64) -> Tafl {
    let mut g = Tafl::preset(variant).unwrap();
    let mut rng = MatchRng::from_seed(seed);
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play_move(*rng.choose(&moves).unwrap()).unwrap();
    }
    g
}

#[test]
fn the_table_does_not_change_a_fixed_depth_search() {
    let cases = [
        ("brandubh", 0, 0, 4),
        ("brandubh", 6, 1, 4),
        ("brandubh", 12, 2, 4),
        ("tablut", 4, 3, 3),
        ("copenhagen", 8, 4, 3),
        ("alea-evangelii", 6, 5, 2),
    ];
    for (variant, plies, seed, max_depth) in cases {
        let g = random_position(variant, plies, seed);
        if g.verdict().is_some() {
            continue;
        }
        for depth in 1..=max_depth {
            let exact = |tt_entries| SearchParams {
                tt_entries,
                reductions: false,
                ..SearchParams::new(depth, u64::MAX)
            };
            let run = |params: &SearchParams| {
                g.search_info(
                    params,
                    &Budget::nodes(u64::MAX),
                    &mut MatchRng::from_seed(0),
                )
            };
            let with_table = run(&exact(1 << 16));
            let without = run(&exact(0));
            assert_eq!(
                with_table.score, without.score,
                "{variant} after {plies} plies, depth {depth}"
            );
            // A forced result found early ends the deepening.
            assert!(with_table.depth == depth || is_decisive(with_table.score));
            // The move chosen with the table is worth the same without it, one ply less deep
            // from the position it leads to.
            let mut after = g.clone();
            after.play_move(with_table.best.unwrap()).unwrap();
            if after.verdict().is_none() && depth > 1 && !is_decisive(with_table.score) {
                let reply = after.search_info(
                    &SearchParams {
                        tt_entries: 0,
                        reductions: false,
                        ..SearchParams::new(depth - 1, u64::MAX)
                    },
                    &Budget::nodes(u64::MAX),
                    &mut MatchRng::from_seed(0),
                );
                assert_eq!(-reply.score, with_table.score, "{variant}, depth {depth}");
            }
        }
    }
}

// --- Self-play -------------------------------------------------------------------------------

/// Plays a Brandubh game between two levels; returns the winner, if any.
fn self_play(attackers: Level, defenders: Level, seed: u64, nodes: u64) -> Option<Side> {
    let mut g = Tafl::preset("brandubh").unwrap();
    let mut rng = MatchRng::from_seed(seed);
    let budget = Budget::nodes(nodes);
    for _ in 0..200 {
        let Some(side) = g.to_move() else {
            break;
        };
        let level = match side {
            Side::Attackers => attackers,
            Side::Defenders => defenders,
        };
        let mv = g.choose(seat_of(side), level, &budget, &mut rng).unwrap();
        g.play_move(mv).unwrap();
    }
    g.verdict().and_then(|v| v.winner)
}

#[test]
fn level_three_beats_level_one_on_brandubh() {
    let start = Instant::now();
    let (one, three) = (Level::new(1).unwrap(), Level::new(3).unwrap());
    let mut wins = 0;
    for seed in 0..20 {
        let (winner, three_side) = if seed % 2 == 0 {
            (self_play(three, one, seed, 3_000), Side::Attackers)
        } else {
            (self_play(one, three, seed, 3_000), Side::Defenders)
        };
        wins += u32::from(winner == Some(three_side));
    }
    assert!(wins > 10, "level 3 won {wins} of 20");
    println!("level 3 beat level 1 in {wins} of 20 games");
    assert!(start.elapsed().as_secs() < 60);
}
