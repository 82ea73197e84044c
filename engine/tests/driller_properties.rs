//! Properties of Mr Driller over thousands of random games: games never panic and always end
//! within the round limit; a match rebuilt from its seed and action log is identical; every
//! listed move is accepted and agrees with an independent oracle; between rounds the board is
//! at rest and no block appears from nowhere; and no view shows a seat's held move to anyone
//! else.

use std::collections::BTreeMap;
use std::time::Instant;

use engine::driller::{
    COLUMNS, Colour, Dir, Driller, DrillerConfig, DrillerError, MAX_ROUNDS, MAX_STEPS, Move, ROWS,
};
use engine::game::{Game, PlayError, Seat, Viewer, replay};
use engine::playout::random_playout;
use engine::{Catalog, MatchRng};
use proptest::prelude::*;

fn seat(index: usize) -> Seat {
    Seat::new(index).unwrap()
}

fn new_game(seed: u64) -> (Driller, MatchRng) {
    let mut rng = MatchRng::from_seed(seed);
    let game = Driller::new(&DrillerConfig, &mut rng);
    (game, rng)
}

/// Plays a random game from `seed`, calling `check` on the game before every action.
fn random_game(seed: u64, mut check: impl FnMut(&Driller)) -> Driller {
    let (mut game, mut rng) = new_game(seed);
    let mut chooser = MatchRng::from_seed(seed ^ 0xd1e5);
    while let Some(seat) = game.to_act().iter().next() {
        check(&game);
        let moves = game.legal_actions(seat);
        let mv = *chooser.choose(&moves).expect("a seat to act has a move");
        game.play(seat, &mv, &mut rng)
            .unwrap_or_else(|e| panic!("seed {seed}: {mv}: {e}"));
    }
    game
}

#[test]
fn random_games_end_within_the_round_limit_and_replay_exactly() {
    let mut reasons = BTreeMap::new();
    let games = 3000;
    let started = Instant::now();
    for seed in 0..games {
        let (mut game, mut rng) = new_game(seed);
        let mut chooser = MatchRng::from_seed(seed + 1_000_000);
        let limit = 2 * MAX_ROUNDS as usize;
        let playout = random_playout(&mut game, &mut rng, &mut chooser, limit);
        assert!(playout.finished, "seed {seed}: no end in {limit} actions");
        assert!(game.rounds() <= MAX_ROUNDS);
        assert_eq!(playout.log.len(), 2 * game.rounds() as usize);
        let outcome = game.outcome().unwrap().clone();
        *reasons.entry(outcome.reason()).or_insert(0) += 1;

        let log = playout.log.iter().map(|(seat, mv)| (*seat, mv));
        let (replayed, mut replayed_rng) = replay::<Driller, _>(&DrillerConfig, seed, log)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed, game, "seed {seed}");
        assert_eq!(replayed_rng.next_u64(), rng.next_u64(), "seed {seed}");
    }
    let elapsed = started.elapsed();
    println!(
        "{games} random games (with replay) in {elapsed:?}: {:.0} games/s; endings {reasons:?}",
        games as f64 / elapsed.as_secs_f64()
    );
    for reason in ["reached_bottom", "crushed"] {
        assert!(reasons.contains_key(reason), "no {reason} in {reasons:?}");
    }
}

#[test]
fn playout_speed() {
    let games = 2000;
    let started = Instant::now();
    let mut rounds = 0;
    for seed in 0..games {
        let (mut game, mut rng) = new_game(seed);
        let mut chooser = MatchRng::from_seed(seed + 7);
        random_playout(&mut game, &mut rng, &mut chooser, usize::MAX);
        rounds += game.rounds();
    }
    let elapsed = started.elapsed();
    println!(
        "{games} random games, {rounds} rounds, in {elapsed:?}: {:.0} games/s",
        games as f64 / elapsed.as_secs_f64()
    );
}

#[test]
fn a_seeded_game_reaches_its_pinned_result() {
    // Pinned so that a change to the preparation, the physics or the RNG use shows up: stored
    // matches must replay to the result they had.
    let game = random_game(42, |_| {});
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.reason(), outcome.places(), game.rounds()),
        ("reached_bottom", &[0u8, 1][..], 9)
    );
}

/// Every move from `(column, row)` by plain coordinate arithmetic: each step stays on the
/// board and enters a square not yet on the path.
fn oracle_moves(column: i32, row: i32) -> Vec<String> {
    let mut moves = Vec::new();
    let mut paths: Vec<(String, Vec<(i32, i32)>)> = vec![(String::new(), vec![(column, row)])];
    for _ in 0..MAX_STEPS {
        let mut longer = Vec::new();
        for (text, squares) in &paths {
            let &(c, r) = squares.last().unwrap();
            for (letter, dc, dr) in [('U', 0, -1), ('D', 0, 1), ('L', -1, 0), ('R', 1, 0)] {
                let next = (c + dc, r + dr);
                let on_board = (0..i32::from(COLUMNS)).contains(&next.0)
                    && (0..i32::from(ROWS)).contains(&next.1);
                if on_board && !squares.contains(&next) {
                    let mut squares = squares.clone();
                    squares.push(next);
                    longer.push((format!("{text}{letter}"), squares));
                }
            }
        }
        moves.extend(longer.iter().map(|(text, _)| text.clone()));
        paths = longer;
    }
    moves
}

/// Every string of 1 to 3 direction letters.
fn every_direction_string() -> Vec<String> {
    let mut all = vec![String::new()];
    let mut out = Vec::new();
    for _ in 0..MAX_STEPS {
        all = all
            .iter()
            .flat_map(|text| Dir::ALL.map(|dir| format!("{text}{}", dir.letter())))
            .collect();
        out.extend(all.iter().cloned());
    }
    out
}

#[test]
fn legal_moves_agree_with_an_oracle_and_are_all_accepted() {
    let candidates = every_direction_string();
    let mut rng = MatchRng::from_seed(99);
    for seed in 0..150 {
        random_game(seed, |game| {
            for seat in game.to_act().iter() {
                let square = game.tokens()[seat.index()].square();
                let mut listed: Vec<String> = game
                    .legal_actions(seat)
                    .iter()
                    .map(|mv| game.action_text(mv))
                    .collect();
                let count = listed.len();
                listed.sort();
                listed.dedup();
                assert_eq!(listed.len(), count, "duplicates");
                let mut oracle = oracle_moves(i32::from(square.column()), i32::from(square.row()));
                oracle.sort();
                assert_eq!(listed, oracle, "seed {seed}, {seat} on {square}");
                for text in &candidates {
                    let mv = game.parse_action(text).unwrap();
                    assert_eq!(game.action_text(&mv), *text);
                    let mut tried = game.clone();
                    let result = tried.play(seat, &mv, &mut rng);
                    if listed.contains(text) {
                        assert_eq!(result, Ok(()), "seed {seed}: {text}");
                    } else {
                        assert!(
                            matches!(
                                result,
                                Err(PlayError::Illegal(
                                    DrillerError::OffBoard { .. } | DrillerError::Revisit { .. }
                                ))
                            ),
                            "seed {seed}: {text}: {result:?}"
                        );
                        assert_eq!(&tried, game);
                    }
                }
            }
        });
    }
}

#[test]
fn between_rounds_the_board_is_at_rest_and_no_block_appears() {
    for seed in 0..1000 {
        let mut last_counts = [u32::MAX; 4];
        let game = random_game(seed, |game| {
            if game.to_act().len() < 2 {
                return;
            }
            // A new round: the last one has settled.
            assert_eq!(game.unsupported(), None, "seed {seed}\n{}", game.diagram());
            let counts = Colour::ALL.map(|c| game.board().count(c));
            for (now, before) in counts.iter().zip(&last_counts) {
                assert!(now <= before, "seed {seed}: blocks appeared");
            }
            last_counts = counts;
            let [a, b] = game.tokens();
            assert_ne!(a.square(), b.square(), "seed {seed}");
            for token in [a, b] {
                assert!(!token.is_crushed());
                assert_eq!(game.board().at(token.square()), None, "seed {seed}");
            }
        });
        // A live token stands on a free square; a crushed one only marks where it was hit.
        for token in game.tokens().iter().filter(|token| !token.is_crushed()) {
            assert_eq!(game.board().at(token.square()), None, "seed {seed}");
        }
    }
}

#[test]
fn no_view_shows_a_held_move_to_anyone_but_its_seat() {
    let mut chooser = MatchRng::from_seed(5);
    for seed in 0..300 {
        random_game(seed, |game| {
            if game.to_act().len() < 2 {
                return;
            }
            for (first, other) in [(0, 1), (1, 0)] {
                let moves = game.legal_actions(seat(first));
                let a = *chooser.choose(&moves).unwrap();
                let b = *chooser.choose(&moves).unwrap();
                let mut rng = MatchRng::from_seed(seed);
                let mut with_a = game.clone();
                with_a.play(seat(first), &a, &mut rng).unwrap();
                let mut with_b = game.clone();
                with_b.play(seat(first), &b, &mut rng).unwrap();
                for viewer in [Viewer::Seat(seat(other)), Viewer::Spectator] {
                    let view = with_a.view(viewer);
                    assert_eq!(view, with_b.view(viewer), "seed {seed}: {viewer:?}");
                    assert_eq!(view.own_move, None);
                    assert!(view.chosen[first]);
                }
                let own = with_a.view(Viewer::Seat(seat(first)));
                assert_eq!(own.own_move, Some(a));
            }
        });
    }
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused_without_panic(text in "\\PC{0,6}") {
        if let Ok(mv) = Move::parse(&text) {
            prop_assert_eq!(Move::parse(&mv.to_string()), Ok(mv));
            prop_assert!(text.eq_ignore_ascii_case(&mv.to_string()));
        }
    }

    #[test]
    fn every_move_round_trips(steps in prop::collection::vec(0..4usize, 1..=MAX_STEPS)) {
        let dirs: Vec<Dir> = steps.iter().map(|&i| Dir::ALL[i]).collect();
        let mv = Move::new(&dirs).unwrap();
        prop_assert_eq!(mv.steps(), &dirs[..]);
        prop_assert_eq!(Move::parse(&mv.to_string()), Ok(mv));
    }
}
