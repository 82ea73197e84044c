//! Hanoi over thousands of random games, two and three players: games end within the turn
//! limit, replay exactly from their log, never lose or invent a disc, list exactly the actions
//! the rules accept, keep the mover through a split, and show every viewer the same state.

use std::collections::BTreeMap;
use std::time::Instant;

use engine::game::{Game, Seat, SeatSet, Viewer, replay};
use engine::hanoi::{Cell, Dir, Hanoi, HanoiAction, HanoiConfig, Players, Size};
use engine::playout::random_playout;
use engine::{Catalog, MatchRng};

const BOTH: [Players; 2] = [Players::Two, Players::Three];

fn config(players: Players) -> HanoiConfig {
    HanoiConfig { players }
}

/// The match RNG and, kept apart from it, the players' chooser for game `seed`.
fn rngs(seed: u64) -> (MatchRng, MatchRng) {
    (
        MatchRng::from_seed(seed),
        MatchRng::from_seed(seed ^ 0x4a40_1000_0000_0001),
    )
}

/// Plays a random game from `seed`, calling `check` on each state before its action.
fn random_game(
    players: Players,
    seed: u64,
    mut check: impl FnMut(&Hanoi),
) -> (Hanoi, Vec<(Seat, HanoiAction)>) {
    let (mut rng, mut chooser) = rngs(seed);
    let mut game = Hanoi::new(&config(players));
    let mut log = Vec::new();
    while let Some(seat) = game.to_act().iter().next() {
        check(&game);
        let actions = Game::legal_actions(&game, seat);
        let action = *chooser
            .choose(&actions)
            .expect("a seat to act has an action");
        game.play(seat, &action, &mut rng)
            .unwrap_or_else(|e| panic!("{players:?} seed {seed}: {action}: {e}"));
        log.push((seat, action));
    }
    check(&game);
    (game, log)
}

/// No disc is ever lost or made: each colour in play keeps three discs of each size.
fn assert_discs_kept(game: &Hanoi) {
    for &colour in game.players().colours() {
        for size in Size::largest_first() {
            let count: usize = Cell::all()
                .map(|c| {
                    game.stack(c)
                        .discs()
                        .iter()
                        .filter(|d| d.colour == colour && d.size == size)
                        .count()
                })
                .sum();
            assert_eq!(count, 3, "{colour} size {size}\n{}", game.diagram());
        }
    }
}

#[test]
fn random_games_end_within_the_limit_and_replay_exactly() {
    for players in BOTH {
        let mut reasons = BTreeMap::new();
        let mut turns = Vec::new();
        for seed in 0..2000 {
            let (game, log) = random_game(players, seed, |game| {
                assert_discs_kept(game);
                assert!(game.turns() <= players.turn_limit());
                assert_eq!(game.to_act().len(), usize::from(game.outcome().is_none()));
            });
            let outcome = game.outcome().expect("the game ended").clone();
            *reasons.entry(outcome.reason()).or_insert(0) += 1;
            turns.push(game.turns());
            assert_eq!(outcome.places().len(), players.count());
            let (replayed, _) = replay::<Hanoi, _>(
                &config(players),
                seed,
                log.iter().map(|(seat, action)| (*seat, action)),
            )
            .unwrap_or_else(|e| panic!("{players:?} seed {seed}: {e}"));
            assert_eq!(replayed, game, "{players:?} seed {seed}");
            // Replaying through the text notation gives the same game too.
            let mut from_text = Hanoi::new(&config(players));
            let mut rng = MatchRng::from_seed(seed);
            for (seat, action) in &log {
                let parsed = from_text
                    .parse_action(&from_text.action_text(action))
                    .unwrap();
                from_text.play(*seat, &parsed, &mut rng).unwrap();
            }
            assert_eq!(from_text, game);
        }
        turns.sort();
        println!(
            "{players:?}: {reasons:?}; turns: median {}, longest {}",
            turns[turns.len() / 2],
            turns[turns.len() - 1]
        );
        assert!(reasons.contains_key("tower_majority"), "{reasons:?}");
        if players == Players::Three {
            assert!(reasons.contains_key("tower_minority"), "{reasons:?}");
        }
    }
}

#[test]
fn random_playouts_through_the_contract_finish() {
    for players in BOTH {
        for seed in 0..500 {
            let (mut rng, mut chooser) = rngs(seed);
            let mut game = <Hanoi as Game>::new(&config(players), &mut rng).unwrap();
            let playout = random_playout(&mut game, &mut rng, &mut chooser, 100_000);
            assert!(playout.finished, "{players:?} seed {seed}");
            // Every split and pass is at least one action, and the log holds every one.
            assert!(playout.log.len() >= game.turns() as usize);
            // The game never draws from the match RNG.
            assert_eq!(rng.next_u64(), MatchRng::from_seed(seed).next_u64());
        }
    }
}

#[test]
fn exactly_the_listed_actions_are_accepted() {
    let every_action: Vec<HanoiAction> = Cell::all()
        .flat_map(|from| Dir::ALL.map(|dir| HanoiAction::Move { from, dir }))
        .chain([HanoiAction::Pass])
        .collect();
    for players in BOTH {
        for seed in 0..60 {
            random_game(players, seed, |game| {
                let listed = game.legal_moves();
                let mut unique = listed.clone();
                unique.sort_by_key(ToString::to_string);
                unique.dedup();
                assert_eq!(unique.len(), listed.len(), "duplicates in {listed:?}");
                for action in &every_action {
                    let mut tried = game.clone();
                    let accepted = tried.play_action(action).is_ok();
                    assert_eq!(
                        accepted,
                        listed.contains(action),
                        "{action}\n{}",
                        game.diagram()
                    );
                    if !accepted {
                        assert_eq!(&tried, game, "a refused {action} changed the game");
                    }
                }
                for seat in (0..players.count()).filter_map(Seat::new) {
                    if !game.to_act().contains(seat) {
                        assert!(Game::legal_actions(game, seat).is_empty());
                    }
                }
            });
        }
    }
}

#[test]
fn the_mover_keeps_the_turn_exactly_while_the_split_can_go_on() {
    for players in BOTH {
        for seed in 0..300 {
            let (mut rng, mut chooser) = rngs(seed);
            let mut game = Hanoi::new(&config(players));
            while let Some(mover) = game.to_move() {
                let actions = game.legal_moves();
                let action = *chooser.choose(&actions).unwrap();
                let before = game.clone();
                game.play(mover.seat(), &action, &mut rng).unwrap();
                let HanoiAction::Move { from, .. } = action else {
                    // A pass moves nothing and hands the turn on.
                    assert_eq!(
                        game.view(Viewer::Spectator).stacks,
                        before.view(Viewer::Spectator).stacks
                    );
                    assert_eq!(game.turn(), players.next(mover));
                    continue;
                };
                let placement = game.last_placement().unwrap();
                assert_eq!((placement.from, placement.mover), (from, mover));
                assert_eq!(game.stack(placement.to).top(), Some(placement.disc));
                let can_go_on = Dir::ALL
                    .iter()
                    .any(|&dir| game.landing(from, dir).is_some());
                let tower = game
                    .outcome()
                    .is_some_and(|o| o.reason().starts_with("tower"));
                if tower {
                    assert_eq!(game.stack(placement.to).height(), 5);
                } else if can_go_on {
                    assert_eq!(game.to_act(), SeatSet::single(mover.seat()));
                    assert_eq!(game.splitting(), Some(from));
                } else {
                    assert_eq!(game.splitting(), None);
                    assert_eq!(game.turns(), before.turns() + 1);
                    assert_eq!(game.turn(), players.next(mover));
                }
            }
        }
    }
}

#[test]
fn every_viewer_sees_the_same() {
    for players in BOTH {
        for seed in 0..100 {
            random_game(players, seed, |game| {
                let view = game.view(Viewer::Spectator);
                for seat in (0..players.count()).filter_map(Seat::new) {
                    assert_eq!(game.view(Viewer::Seat(seat)), view);
                }
                assert_eq!(view.to_move, game.to_move());
                let discs: usize = view.stacks.iter().map(|(_, s)| s.height()).sum();
                assert_eq!(discs, 15 * players.count());
            });
        }
    }
}

#[test]
fn seeded_games_are_reproducible() {
    for players in BOTH {
        let (first, first_log) = random_game(players, 7, |_| {});
        let (second, second_log) = random_game(players, 7, |_| {});
        assert_eq!(first_log, second_log);
        assert_eq!(first, second);
        let (other, other_log) = random_game(players, 8, |_| {});
        assert!(other_log != first_log || other != first);
    }
}

#[test]
fn playout_speed() {
    for players in BOTH {
        let games = 2000;
        let start = Instant::now();
        let mut actions = 0;
        for seed in 0..games {
            let (mut rng, mut chooser) = rngs(seed);
            let mut game = Hanoi::new(&config(players));
            actions += random_playout(&mut game, &mut rng, &mut chooser, 100_000)
                .log
                .len();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "hanoi {players:?}: {:.0} games/s, {:.1} actions/game",
            games as f64 / secs,
            actions as f64 / games as f64
        );
    }
}
