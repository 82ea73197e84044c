//! The generic Monte Carlo tree search (`engine::ai::mcts`) and the AI of every game but tafl:
//! legal choices at every level in every game, budgets, no use of hidden information, immediate
//! wins found, and levels that beat the ones below.

use std::cell::Cell;

use engine::ai::mcts::{self, MctsGame, Tuning};
use engine::ai::{Ai, Budget, Level};
use engine::driller::{Driller, Move};
use engine::fox_geese::{FoxGeese, FoxGeeseAction, Point, Side};
use engine::game::{Game, Seat, Viewer};
use engine::hanoi::Hanoi;
use engine::registry::GAME_IDS;
use engine::tower_race::TowerRace;
use engine::tron::{Hand, StageView, Tron};
use engine::{Catalog, MatchRng};

fn seat(index: usize) -> Seat {
    Seat::new(index).unwrap()
}

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

/// Checks that at every level every seat that must act gets an action the game accepts, at
/// positions along a few random games of every variant at its fewest and most seats, and that
/// a seat that need not act gets none.
fn plays_legally<G: Catalog + Ai>() {
    const GAMES: u64 = 3;
    const POSITIONS: usize = 6;
    for variant in G::variants() {
        let range = G::seat_counts(variant);
        for seats in [*range.start(), *range.end()] {
            let config = G::config(variant, seats).unwrap();
            for seed in 0..GAMES {
                let mut rng = MatchRng::from_seed(seed);
                let mut chooser = MatchRng::from_seed(100 + seed);
                let mut ai_rng = MatchRng::from_seed(200 + seed);
                let mut game = G::new(&config, &mut rng).unwrap();
                // Positions a random number of random actions apart, the start included.
                for _ in 0..POSITIONS {
                    if game.is_over() {
                        break;
                    }
                    let to_act = game.to_act();
                    for s in (0..seats).map(seat) {
                        for l in Level::ALL {
                            let budget = Budget::nodes(20);
                            let choice = game.choose(s, l, &budget, &mut ai_rng);
                            if !to_act.contains(s) {
                                assert_eq!(choice, None, "{} {variant} {seats}: {s}", G::ID);
                                continue;
                            }
                            let action = choice.unwrap_or_else(|| {
                                panic!("{} {variant} {seats}p: no action for {s}", G::ID)
                            });
                            let mut next = game.clone();
                            next.play(s, &action, &mut rng.clone()).unwrap_or_else(|e| {
                                panic!("{} {variant} {seats}p level {}: {e}", G::ID, l.get())
                            });
                        }
                    }
                    let steps = 1 + chooser.below(40);
                    for _ in 0..steps {
                        let Some(s) = game.to_act().iter().next() else {
                            break;
                        };
                        let legal = game.legal_actions(s);
                        let action = chooser.choose(&legal).unwrap().clone();
                        game.play(s, &action, &mut rng).unwrap();
                    }
                }
            }
        }
    }
}

#[test]
fn every_level_plays_legally_in_fox_and_geese() {
    plays_legally::<FoxGeese>();
}

#[test]
fn every_level_plays_legally_in_hanoi() {
    plays_legally::<Hanoi>();
}

#[test]
fn every_level_plays_legally_in_the_tower_race() {
    plays_legally::<TowerRace>();
}

#[test]
fn every_level_plays_legally_in_tron() {
    plays_legally::<Tron>();
}

#[test]
fn every_level_plays_legally_in_mr_driller() {
    plays_legally::<Driller>();
}

#[test]
fn every_game_but_tafl_is_covered() {
    let covered = [
        FoxGeese::ID,
        Hanoi::ID,
        TowerRace::ID,
        Tron::ID,
        Driller::ID,
    ];
    for id in GAME_IDS {
        assert!(
            id == "tafl" || covered.contains(&id),
            "{id} has no MCTS test"
        );
    }
}

/// A Tron game played at random up to a round where every seat must choose its card.
fn tron_at_choice(seats: usize, seed: u64) -> (Tron, MatchRng) {
    let mut rng = MatchRng::from_seed(seed);
    let mut chooser = MatchRng::from_seed(!seed);
    let config = Tron::config("standard", seats).unwrap();
    let mut game = Tron::new(&config, &mut rng).unwrap();
    loop {
        let view = game.view(Viewer::Spectator);
        if view.stage == StageView::Choose && game.to_act().len() == seats && game.round() > 1 {
            return (game, rng);
        }
        let s = game.to_act().iter().next().expect("the game goes on");
        let legal = game.legal_actions(s);
        game.play(s, chooser.choose(&legal).unwrap(), &mut rng)
            .unwrap();
    }
}

/// `seat`'s hand with one card swapped for another the deck holds, if there is one.
fn other_hand(game: &Tron, s: Seat) -> Option<Tron> {
    let cards: Vec<_> = game.hand(s)?.cards().collect();
    for i in 0..cards.len() {
        for card in engine::tron::Special::ALL {
            let mut changed = cards.clone();
            changed[i] = card;
            if changed == cards {
                continue;
            }
            if let Ok(twin) = game.with_hand(s, Hand::of(&changed)) {
                return Some(twin);
            }
        }
    }
    None
}

/// Searches `game` and `twin` for `s` with the same AI rng at several levels: the choices and
/// every root statistic must be equal.
fn same_choice<G: Game>(game: &G, twin: &G, s: Seat, tuning: &Tuning<G>)
where
    G::View: PartialEq,
{
    assert_eq!(
        game.view(Viewer::Seat(s)),
        twin.view(Viewer::Seat(s)),
        "twins must look alike to {s}"
    );
    for l in Level::ALL {
        let budget = Budget::nodes(300);
        let a = mcts::choose_with(game, s, l, &budget, &mut MatchRng::from_seed(9), tuning);
        let b = mcts::choose_with(twin, s, l, &budget, &mut MatchRng::from_seed(9), tuning);
        assert_eq!(a, b, "level {}", l.get());
    }
    let never = || false;
    let a = mcts::search(game, s, 300, &never, &mut MatchRng::from_seed(3), tuning);
    let b = mcts::search(twin, s, 300, &never, &mut MatchRng::from_seed(3), tuning);
    assert_eq!(format!("{:?}", a.root), format!("{:?}", b.root));
    assert_eq!(a.nodes, b.nodes);
}

#[test]
fn determinisation_never_leaks_tron_hands_or_hidden_cards() {
    let tuning = <Tron as MctsGame>::tuning();
    let mut twins = 0;
    for seed in 0..6 {
        let (game, mut rng) = tron_at_choice(3 + seed as usize % 2, seed);
        // Seat 1 chooses one card in one twin, another in the other; seat 2's hand differs.
        let cards = game.legal_actions(seat(1));
        let mut first = game.clone();
        first.play(seat(1), &cards[0], &mut rng.clone()).unwrap();
        let mut second = game.clone();
        second
            .play(seat(1), cards.last().unwrap(), &mut rng)
            .unwrap();
        if let Some(changed) = other_hand(&second, seat(2)) {
            second = changed;
        }
        if first == second {
            continue;
        }
        twins += 1;
        same_choice(&first, &second, seat(0), &tuning);
        assert_eq!(
            first.choose(
                seat(0),
                level(3),
                &Budget::nodes(200),
                &mut MatchRng::from_seed(5)
            ),
            second.choose(
                seat(0),
                level(3),
                &Budget::nodes(200),
                &mut MatchRng::from_seed(5)
            ),
        );
    }
    assert!(twins >= 4, "only {twins} twin positions");
}

#[test]
fn determinisation_never_leaks_a_drillers_held_move() {
    let tuning = <Driller as MctsGame>::tuning();
    for seed in 0..6 {
        let mut rng = MatchRng::from_seed(seed);
        let game = Driller::new(&engine::driller::DrillerConfig, &mut rng);
        let moves = game.legal_actions(seat(1));
        let (mut first, mut second) = (game.clone(), game.clone());
        first.play(seat(1), &moves[0], &mut rng.clone()).unwrap();
        second
            .play(seat(1), moves.last().unwrap(), &mut rng.clone())
            .unwrap();
        assert_ne!(first, second);
        same_choice(&first, &second, seat(0), &tuning);
    }
}

/// Plays `action` for `s` and tells whether `s` has won.
fn wins<G: Game>(game: &G, s: Seat, action: &G::Action) -> bool {
    let mut next = game.clone();
    next.play(s, action, &mut MatchRng::from_seed(0)).unwrap();
    next.outcome()
        .is_some_and(|o| o.place(s) == Some(0) && !o.is_draw())
}

fn points(names: &str) -> Vec<Point> {
    names.split(' ').map(|n| Point::parse(n).unwrap()).collect()
}

#[test]
fn every_level_takes_an_immediate_win_in_fox_and_geese() {
    // The geese close the trap with d6-d7: the fox on c7 can neither step nor jump.
    let geese = FoxGeese::from_points(
        Point::parse("c7").unwrap(),
        &points("e7 c6 c5 d6"),
        Side::Geese,
    )
    .unwrap();
    let trap = FoxGeeseAction::parse("d6-d7").unwrap();
    // The fox takes the fourth goose of four and the geese are too few to trap it.
    let fox = FoxGeese::from_points(
        Point::parse("d5").unwrap(),
        &points("d4 a3 g3 c1"),
        Side::Fox,
    )
    .unwrap();
    for (game, s) in [(&geese, seat(0)), (&fox, seat(1))] {
        let legal = game.legal_actions(s);
        assert!(legal.len() > 2 && legal.iter().any(|a| !wins(game, s, a)));
        for l in Level::ALL {
            for seed in 0..3 {
                let action = game
                    .choose(s, l, &Budget::nodes(2_000), &mut MatchRng::from_seed(seed))
                    .unwrap();
                assert!(wins(game, s, &action), "level {}: {action:?}", l.get());
            }
        }
    }
    assert!(wins(&geese, seat(0), &trap));
}

#[test]
fn the_search_takes_an_immediate_win_in_a_simultaneous_round() {
    // Seat 0 drills straight down to the bottom with DDD, whatever seat 1 does, which is too
    // high up to get there this round. No other move of seat 0 gets there (every block is a
    // piece of its own, so drilling one opens no shaft to fall down).
    let game = Driller::from_picture(
        "...........1
         ...........B
         ...........Y
         0..........R
         RGRGRGRGRGRG
         YBYBYBYBYBYB
         RGRGRGRGRGRG",
    )
    .unwrap();
    let ddd = Move::parse("DDD").unwrap();
    // Before seat 1 has chosen, and after (its held move hidden from seat 0).
    let mut held = game.clone();
    held.play(
        seat(1),
        &Move::parse("D").unwrap(),
        &mut MatchRng::from_seed(0),
    )
    .unwrap();
    for position in [&game, &held] {
        for l in Level::ALL {
            let action = position
                .choose(
                    seat(0),
                    l,
                    &Budget::nodes(2_000),
                    &mut MatchRng::from_seed(1),
                )
                .unwrap();
            assert_eq!(action, ddd, "level {}", l.get());
        }
    }
}

#[test]
fn budgets_are_honoured() {
    let (tron, _) = tron_at_choice(4, 1);
    let fox_geese = FoxGeese::new(&FoxGeese::config("hala-tafl", 2).unwrap());
    let calls = Cell::new(0u64);
    let counting = || {
        calls.set(calls.get() + 1);
        false
    };
    // One stop check per iteration: a level's cap (each game tunes its own), or the budget's if
    // it is smaller.
    let (tron_levels, fox_geese_levels) = (
        <Tron as MctsGame>::tuning(),
        <FoxGeese as MctsGame>::tuning(),
    );
    for (l, max_nodes) in [(2, 1_000_000), (3, 1_000_000), (3, 20), (4, 40), (5, 77)] {
        let cap = |own: Option<u64>| own.map_or(max_nodes, |own| own.min(max_nodes));
        let expected = cap(tron_levels.iterations(level(l)));
        for s in [seat(0), seat(2)] {
            calls.set(0);
            let budget = Budget {
                max_nodes,
                stop: &counting,
            };
            let action = tron.choose(s, level(l), &budget, &mut MatchRng::from_seed(1));
            assert!(action.is_some());
            assert_eq!(calls.get(), expected, "tron level {l}");
        }
        calls.set(0);
        let budget = Budget {
            max_nodes,
            stop: &counting,
        };
        fox_geese.choose(seat(0), level(l), &budget, &mut MatchRng::from_seed(1));
        let expected = cap(fox_geese_levels.iterations(level(l)));
        assert_eq!(calls.get(), expected, "fox and geese level {l}");
    }
    // The outside stop ends the search after the iteration it is checked before.
    let counter = &calls;
    let stop_after = |n: u64| {
        move || {
            counter.set(counter.get() + 1);
            counter.get() > n
        }
    };
    for n in [0, 1, 17] {
        calls.set(0);
        let stop = stop_after(n);
        let budget = Budget {
            max_nodes: u64::MAX,
            stop: &stop,
        };
        let action = fox_geese
            .choose(seat(0), level(5), &budget, &mut MatchRng::from_seed(2))
            .unwrap();
        assert_eq!(calls.get(), n + 1);
        let mut next = fox_geese.clone();
        next.play(seat(0), &action, &mut MatchRng::from_seed(0))
            .unwrap();
        calls.set(0);
        let search = mcts::search(
            &tron,
            seat(1),
            u64::MAX,
            &stop,
            &mut MatchRng::from_seed(3),
            &Tuning::default(),
        );
        assert_eq!(search.iterations, n);
        assert!(search.nodes as u64 <= n + 1);
    }
    // Nothing to search with: still a legal action.
    for l in Level::ALL {
        let action = tron
            .choose(seat(3), l, &Budget::nodes(0), &mut MatchRng::from_seed(4))
            .unwrap();
        tron.clone()
            .play(seat(3), &action, &mut MatchRng::from_seed(0))
            .unwrap();
    }
}

/// Plays `games` games of a two-seat game between `strong` and `weak`, alternating the seats;
/// returns the strong level's wins and draws.
fn series<G: Catalog + Ai>(variant: &str, strong: Level, weak: Level, games: u64) -> (u32, u32) {
    let config = G::config(variant, 2).unwrap();
    let (mut won, mut drawn) = (0, 0);
    for g in 0..games {
        let strong_seat = seat(g as usize % 2);
        let mut rng = MatchRng::from_seed(g);
        let mut ai_rng = MatchRng::from_seed(1000 + g);
        let mut game = G::new(&config, &mut rng).unwrap();
        while !game.is_over() {
            for s in game.to_act().iter() {
                let l = if s == strong_seat { strong } else { weak };
                let action = game
                    .choose(s, l, &Budget::nodes(u64::MAX), &mut ai_rng)
                    .unwrap();
                game.play(s, &action, &mut rng).unwrap();
            }
        }
        let outcome = game.outcome().unwrap();
        if outcome.is_draw() {
            drawn += 1;
        } else if outcome.place(strong_seat) == Some(0) {
            won += 1;
        }
    }
    (won, drawn)
}

#[test]
fn level_three_beats_level_one_at_fox_and_geese() {
    let (won, drawn) = series::<FoxGeese>("hala-tafl", level(3), level(1), 4);
    assert!(won >= 3, "won {won}, drew {drawn} of 4");
}

#[test]
fn level_three_beats_level_one_at_hanoi() {
    let (won, drawn) = series::<Hanoi>("standard", level(3), level(1), 4);
    assert!(won >= 3, "won {won}, drew {drawn} of 4");
}
