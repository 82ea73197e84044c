//! Properties of the Tower of Hanoi race over thousands of random playouts, on every board and
//! seat count: games end (within the turn limit), replay exactly from seed and log, accept
//! exactly the actions they list, keep their stacks consistent, and show every viewer the same.

use std::collections::BTreeMap;
use std::time::Instant;

use engine::game::{Game, PlayError, Seat, Viewer, replay};
use engine::playout::random_playout;
use engine::tower_race::{
    Board, MAX_ROUNDS, Place, Size, Stage, TowerRace, TowerRaceAction, TowerRaceConfig,
};
use engine::{Catalog, MatchRng};

/// Every board with every seat count it allows.
fn tables() -> Vec<TowerRaceConfig> {
    [Board::Basic, Board::Advanced]
        .into_iter()
        .flat_map(|board| {
            let (least, most) = board.seat_range();
            (least..=most).map(move |seats| TowerRaceConfig { board, seats })
        })
        .collect()
}

/// Every action there is in a game with `pyramids` sizes, legal or not.
fn every_action(pyramids: u8) -> Vec<TowerRaceAction> {
    let sizes: Vec<Size> = (1..=pyramids).filter_map(Size::new).collect();
    let mut all: Vec<TowerRaceAction> = sizes.iter().map(|&s| TowerRaceAction::Move(s)).collect();
    for &mine in &sizes {
        for &theirs in &sizes {
            all.push(TowerRaceAction::Challenge { mine, theirs });
        }
    }
    all.extend([
        TowerRaceAction::Pass,
        TowerRaceAction::Wait,
        TowerRaceAction::Accept,
        TowerRaceAction::Refuse,
    ]);
    all
}

/// Stacks agree with where each pyramid is, stacks off the safe zones grow in size upward, and
/// the End-tile is filled smallest first.
fn check_consistent(game: &TowerRace) {
    let safe = game.safe_tiles();
    let pyramids = game.board().pyramids();
    let mut on_board = 0;
    for seat in game.seat_list() {
        let mut finished = true;
        for size in (1..=pyramids).filter_map(Size::new) {
            let pyramid = engine::tower_race::Pyramid { seat, size };
            match game.place(pyramid) {
                Place::Tile(tile) => {
                    on_board += 1;
                    assert!(game.stack(tile).contains(&pyramid), "{pyramid} on {tile}");
                    finished = false;
                }
                Place::Home => finished = false,
                Place::End => assert!(finished, "{pyramid} finished before a smaller one"),
            }
        }
    }
    let mut stacked = 0;
    for tile in game.path(Seat::new(0).unwrap()) {
        let stack = game.stack(tile);
        stacked += stack.len();
        if !safe.contains(&tile) {
            assert!(
                stack.windows(2).all(|w| w[0].size < w[1].size),
                "{tile}: {stack:?}"
            );
        }
    }
    assert_eq!(stacked, on_board);
}

#[test]
fn random_playouts_end_within_the_limit_and_replay_exactly() {
    let mut reasons = BTreeMap::new();
    for config in tables() {
        let games = if config.board == Board::Basic {
            1000
        } else {
            150
        };
        for seed in 0..games {
            let mut rng = MatchRng::from_seed(seed);
            let mut chooser = MatchRng::from_seed(seed ^ 0x5eed);
            let mut game = TowerRace::new(&config, &mut rng).unwrap();
            let playout = random_playout(&mut game, &mut rng, &mut chooser, 1_000_000);
            assert!(playout.finished, "{config:?} seed {seed}");
            assert!(game.turns() <= MAX_ROUNDS * config.seats as u32);
            let outcome = game.outcome().unwrap().clone();
            assert_eq!(outcome.places().len(), config.seats);
            assert!(outcome.places().contains(&0));
            *reasons.entry(outcome.reason()).or_insert(0) += 1;
            check_consistent(&game);

            let log = playout.log.iter().map(|(seat, action)| (*seat, action));
            let (replayed, mut replayed_rng) = replay::<TowerRace, _>(&config, seed, log)
                .unwrap_or_else(|e| panic!("{config:?} seed {seed}: {e}"));
            assert_eq!(replayed, game, "{config:?} seed {seed}");
            assert_eq!(replayed_rng.next_u64(), rng.next_u64());
            // The log holds decisions only: its text replays as well.
            for (seat, action) in &playout.log {
                let text = game.action_text(action);
                assert_eq!(&game.parse_action(&text).unwrap(), action, "{seat}: {text}");
            }
        }
    }
    // Random play mostly finishes the race; the other endings do occur.
    assert!(
        reasons["reached_end"] > reasons.values().sum::<i32>() * 9 / 10,
        "{reasons:?}"
    );
    assert!(reasons.contains_key("stalemate"), "{reasons:?}");
}

#[test]
fn exactly_the_listed_actions_are_accepted_and_refusals_change_nothing() {
    for config in tables() {
        let games = if config.board == Board::Basic {
            300
        } else {
            20
        };
        let universe = every_action(config.board.pyramids());
        for seed in 0..games {
            let mut rng = MatchRng::from_seed(seed);
            let mut chooser = MatchRng::from_seed(seed + 77);
            let mut game = TowerRace::new(&config, &mut rng).unwrap();
            while let Some(actor) = game.to_act().iter().next() {
                assert_eq!(game.to_act().len(), 1, "one seat acts at a time");
                let legal = game.legal_actions(actor);
                assert!(!legal.is_empty());
                for action in &universe {
                    let mut tried = game.clone();
                    let mut tried_rng = rng.clone();
                    let result = tried.play(actor, action, &mut tried_rng);
                    assert_eq!(
                        result.is_ok(),
                        legal.contains(action),
                        "{config:?} seed {seed}: {action} in {:?}: {result:?}",
                        game.stage()
                    );
                    if result.is_err() {
                        assert_eq!(tried, game);
                        assert_eq!(tried_rng.next_u64(), rng.clone().next_u64());
                    }
                }
                for other in game.seat_list().filter(|&s| s != actor) {
                    assert!(game.legal_actions(other).is_empty());
                    let mut tried = game.clone();
                    assert_eq!(
                        tried.play(other, &legal[0], &mut rng.clone()),
                        Err(PlayError::NotYourTurn(other))
                    );
                }
                // A challenge is answered by the challenged seat alone, out of turn.
                if let Stage::Answer(challenge) = game.stage() {
                    assert_eq!(actor, challenge.challenged.seat);
                    assert_ne!(actor, challenge.challenger.seat);
                }
                let action = *chooser.choose(&legal).unwrap();
                game.play(actor, &action, &mut rng).unwrap();
                check_consistent(&game);
            }
        }
    }
}

#[test]
fn every_viewer_sees_the_same_public_state() {
    for config in [
        TowerRaceConfig {
            board: Board::Basic,
            seats: 4,
        },
        TowerRaceConfig {
            board: Board::Advanced,
            seats: 8,
        },
    ] {
        let mut rng = MatchRng::from_seed(5);
        let mut chooser = MatchRng::from_seed(6);
        let mut game = TowerRace::new(&config, &mut rng).unwrap();
        while let Some(actor) = game.to_act().iter().next() {
            let spectator = game.view(Viewer::Spectator);
            for seat in game.seat_list() {
                assert_eq!(game.view(Viewer::Seat(seat)), spectator);
            }
            assert_eq!(spectator.stage, game.stage());
            assert_eq!(spectator.last_roll, game.last_roll());
            let legal = game.legal_actions(actor);
            game.play(actor, chooser.choose(&legal).unwrap(), &mut rng)
                .unwrap();
        }
        assert_eq!(
            game.view(Viewer::Spectator).outcome.as_ref(),
            game.outcome()
        );
    }
}

/// Prints random-playout throughput; run with `--nocapture` to see it. Nothing is asserted.
#[test]
fn playout_speed() {
    for config in tables() {
        let games = if config.board == Board::Basic {
            2000
        } else {
            200
        };
        let started = Instant::now();
        let mut actions = 0;
        for seed in 0..games {
            let mut rng = MatchRng::from_seed(seed);
            let mut chooser = MatchRng::from_seed(!seed);
            let mut game = TowerRace::new(&config, &mut rng).unwrap();
            actions += random_playout(&mut game, &mut rng, &mut chooser, 1_000_000)
                .log
                .len();
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{} {} seats: {:.0} games/s, {:.0} actions/game",
            config.board,
            config.seats,
            games as f64 / seconds,
            actions as f64 / games as f64
        );
    }
}
