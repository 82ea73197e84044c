//! Properties of the tafl engine over random playouts of every preset:
//! playouts never panic and always end; the incremental Zobrist hash always equals a hash
//! recomputed from scratch; every position survives a round trip through OpenTafl notation;
//! move generation agrees with the independent one-move checker; and a match rebuilt from its
//! seed and action log is identical.

use std::collections::HashSet;

use engine::MatchRng;
use engine::game::{Game, Seat, Viewer, replay};
use engine::playout::random_playout;
use engine::tafl::opentafl::{parse_position, print_position};
use engine::tafl::{Move, Square, Tafl, variants};
use proptest::prelude::*;

/// Long enough for every preset: the longest of 200 random Alea Evangelii games was 4,600 plies.
const MAX_PLIES: usize = 20_000;

/// Every move the one-move checker accepts, found by trying every straight line from every
/// square: an oracle that shares nothing with the bitboard generator.
fn brute_force_moves(game: &Tafl) -> HashSet<Move> {
    let dim = game.dim();
    let mut moves = HashSet::new();
    let squares = (0..usize::from(dim) * usize::from(dim)).map(Square::from_index);
    for from in squares.clone() {
        for to in squares.clone() {
            let same_line = from.file(dim) == to.file(dim) || from.rank(dim) == to.rank(dim);
            if from != to && same_line {
                let mv = Move { from, to };
                if game.clone().play_move(mv).is_ok() {
                    moves.insert(mv);
                }
            }
        }
    }
    moves
}

fn check_playout(name: &str, seed: u64, oracle_every: usize) {
    let mut game = Tafl::preset(name).unwrap();
    let mut rng = MatchRng::from_seed(seed);
    let mut plies = 0;
    while let Some(seat) = game.to_act().iter().next() {
        assert!(
            plies < MAX_PLIES,
            "{name} seed {seed}: no end after {MAX_PLIES} plies"
        );
        let moves = game.legal_moves();
        if plies % oracle_every == 0 {
            let generated: HashSet<Move> = moves.iter().copied().collect();
            assert_eq!(generated.len(), moves.len(), "{name}: duplicate moves");
            assert_eq!(
                generated,
                brute_force_moves(&game),
                "{name} seed {seed} ply {plies}"
            );
        }
        let mv = *rng.choose(&moves).unwrap();
        game.play(seat, &mv, &mut rng).unwrap();
        plies += 1;
        assert_eq!(
            game.hash(),
            game.recomputed_hash(),
            "{name} seed {seed} ply {plies}"
        );
        let layout = game.layout();
        assert_eq!(parse_position(&print_position(&layout)).unwrap(), layout);
    }
    assert!(game.outcome().is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn small_board_playouts_keep_every_invariant(seed in any::<u64>(), which in 0usize..8) {
        check_playout(variants::NAMES[which], seed, 7);
    }

    #[test]
    fn large_board_playouts_keep_every_invariant(seed in any::<u64>(), large in any::<bool>()) {
        let name = if large { "alea-evangelii" } else { "copenhagen-13" };
        check_playout(name, seed, 97);
    }

    #[test]
    fn a_match_is_rebuilt_exactly_from_its_seed_and_log(seed in any::<u64>(), which in 0usize..10) {
        let rules = variants::preset(variants::NAMES[which]).unwrap();
        let mut rng = MatchRng::from_seed(seed);
        let mut live = <Tafl as Game>::new(&rules, &mut rng).unwrap();
        let mut chooser = MatchRng::from_seed(!seed);
        let playout = random_playout(&mut live, &mut rng, &mut chooser, MAX_PLIES);
        prop_assert!(playout.finished);
        let log = playout.log.iter().map(|(seat, mv)| (*seat, mv));
        let (rebuilt, _) = replay::<Tafl, _>(&rules, seed, log).unwrap();
        prop_assert_eq!(rebuilt.layout(), live.layout());
        prop_assert_eq!(rebuilt.hash(), live.hash());
        prop_assert_eq!(rebuilt.outcome(), live.outcome());
        prop_assert_eq!(rebuilt.moves(), live.moves());
    }
}

#[test]
fn every_preset_plays_to_an_end_from_many_seeds() {
    for name in variants::NAMES {
        for seed in 0..40 {
            let mut game = Tafl::preset(name).unwrap();
            let (mut rng, mut chooser) = (MatchRng::from_seed(0), MatchRng::from_seed(seed));
            let playout = random_playout(&mut game, &mut rng, &mut chooser, MAX_PLIES);
            assert!(playout.finished, "{name} seed {seed}");
            let outcome = game.outcome().unwrap();
            assert_eq!(outcome.places().len(), 2);
            // The side that cannot act any more is exactly the game being over.
            assert!(game.to_act().is_empty());
            assert!(game.legal_actions(Seat::new(0).unwrap()).is_empty());
        }
    }
}

/// Perft by the slow road: moves from the brute-force oracle, each played through the full game.
fn oracle_perft(game: &Tafl, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.verdict().is_some() {
        return 0;
    }
    brute_force_moves(game)
        .into_iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play_move(mv).unwrap();
            oracle_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_the_brute_force_oracle() {
    for (name, depth) in [
        ("copenhagen", 2),
        ("brandubh", 3),
        ("hnefatafl", 2),
        ("alea-evangelii", 1),
    ] {
        let game = Tafl::preset(name).unwrap();
        assert_eq!(
            game.perft(depth),
            oracle_perft(&game, depth),
            "{name} perft({depth})"
        );
    }
}

#[test]
fn perft_from_the_start_positions() {
    // Regression values of this engine; the first ply is checked by hand against the diagrams
    // (Copenhagen: the 24 attackers have 116 moves; Brandubh 40; Tablut 80).
    let expect: [(&str, &[u64]); 3] = [
        ("copenhagen", &[116, 6_788, 806_344, 50_456_804]),
        ("brandubh", &[40, 960, 39_512, 1_007_392]),
        ("tablut", &[80, 4_400, 353_200, 19_913_864]),
    ];
    for (name, counts) in expect {
        let game = Tafl::preset(name).unwrap();
        for (depth, &n) in counts.iter().enumerate() {
            assert_eq!(
                game.perft(depth as u32 + 1),
                n,
                "{name} perft({})",
                depth + 1
            );
        }
    }
}

#[test]
fn perft_through_the_contract_counts_what_the_bulk_perft_counts() {
    for (name, counts) in [
        ("copenhagen", &[116, 6_788, 806_344][..]),
        ("brandubh", &[40, 960, 39_512, 1_007_392][..]),
        ("alea-evangelii", &[580, 107_492][..]),
    ] {
        let mut game = Tafl::preset(name).unwrap();
        for (depth, &n) in counts.iter().enumerate() {
            let depth = depth as u32 + 1;
            let mut rng = MatchRng::from_seed(0);
            assert_eq!(game.perft(depth), n, "{name} bulk perft({depth})");
            assert_eq!(
                engine::playout::perft(&mut game, depth, &mut rng),
                n,
                "{name} contract perft({depth})"
            );
        }
        // Every move tried was taken back.
        assert!(game.moves().is_empty(), "{name}");
        assert_eq!(game.hash(), Tafl::preset(name).unwrap().hash(), "{name}");
    }
}

/// Two copies of a random game, one of which tries every legal move with `explore` before each
/// move, stay identical to the end: explore puts back the position, the record, the result and
/// the history the repetition rule reads (captures and endings among the moves tried).
#[test]
fn exploring_every_move_leaves_the_game_as_it_was() {
    for (name, seeds) in [
        ("copenhagen", 4),
        ("brandubh", 4),
        ("tablut", 4),
        ("alea-evangelii", 1),
    ] {
        for seed in 0..seeds {
            let mut explored = Tafl::preset(name).unwrap();
            let mut plain = explored.clone();
            let (mut rng, mut chooser) = (MatchRng::from_seed(seed), MatchRng::from_seed(!seed));
            while let Some(seat) = plain.to_act().iter().next() {
                let moves = explored.legal_actions(seat);
                let mut endings = 0;
                for mv in &moves {
                    endings += explored
                        .explore(seat, mv, &mut rng, |next, _| usize::from(next.is_over()))
                        .unwrap();
                }
                assert!(endings <= moves.len());
                assert_eq!(
                    explored.view(Viewer::Spectator),
                    plain.view(Viewer::Spectator)
                );
                assert_eq!(explored.moves(), plain.moves(), "{name} seed {seed}");
                assert_eq!(explored.hash(), plain.hash(), "{name} seed {seed}");
                let mv = *chooser.choose(&moves).unwrap();
                explored.play(seat, &mv, &mut rng).unwrap();
                plain.play(seat, &mv, &mut rng).unwrap();
                assert_eq!(explored.outcome(), plain.outcome(), "{name} seed {seed}");
            }
            assert!(explored.is_over());
        }
    }
}

/// A playout's random action is the one drawn from the listed actions with the same draw.
#[test]
fn a_random_action_is_the_listed_action_the_same_draw_picks() {
    for name in variants::NAMES {
        let mut game = Tafl::preset(name).unwrap();
        let (mut rng, mut chooser) = (MatchRng::from_seed(7), MatchRng::from_seed(11));
        let mut twin = chooser.clone();
        while let Some(seat) = game.to_act().iter().next() {
            let listed = *twin.choose(&game.legal_actions(seat)).unwrap();
            let drawn = game.random_action(seat, &mut chooser).unwrap();
            assert_eq!(drawn, listed, "{name} ply {}", game.moves().len());
            game.play(seat, &drawn, &mut rng).unwrap();
        }
        assert_eq!(
            game.random_action(Seat::new(0).unwrap(), &mut chooser),
            None
        );
        assert_eq!(
            chooser.next_u64(),
            twin.next_u64(),
            "{name}: nothing drawn at the end"
        );
    }
}
