//! The generic Monte Carlo tree search: iterations per second for every game but tafl (every
//! variant, fewest and most seats, from midgame positions, each game with its own tuning), then
//! a ladder where each level plays the level below it.
//!
//! `cargo bench -p engine --bench mcts [-- GAMES [LEVEL5_NODES [TOP]]] [speed|GAME_ID...]`:
//! GAMES games per rung (default 20, seats alternating; 0 for the speeds alone), level 5
//! searching LEVEL5_NODES iterations a move (default 30 000), rungs up to level TOP (default
//! 5); naming `speed` or game ids runs only those parts. A win counts 1, a draw 1/2; the figure
//! is the higher level's score share.

use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

use engine::ai::mcts::{self, MctsGame, Tuning};
use engine::ai::{Ai, Budget, Level};
use engine::driller::Driller;
use engine::fox_geese::FoxGeese;
use engine::game::Seat;
use engine::hanoi::Hanoi;
use engine::tower_race::TowerRace;
use engine::tron::Tron;
use engine::{Catalog, MatchRng};

/// A position some random actions into a game, with a choice to make for its first seat.
fn midgame<G: Catalog>(variant: &str, seats: usize, seed: u64, actions: usize) -> (G, Seat) {
    let config = G::config(variant, seats).expect("a catalogued variant");
    let mut rng = MatchRng::from_seed(seed);
    let mut chooser = MatchRng::from_seed(!seed);
    loop {
        let mut game = G::new(&config, &mut rng).expect("a valid configuration");
        for _ in 0..actions {
            let Some(seat) = game.to_act().iter().next() else {
                break;
            };
            let legal = game.legal_actions(seat);
            let action = chooser
                .choose(&legal)
                .expect("a seat to act has an action")
                .clone();
            game.play(seat, &action, &mut rng).expect("a legal action");
        }
        if let Some(seat) = game.to_act().iter().next()
            && game.legal_actions(seat).len() > 1
        {
            return (game, seat);
        }
    }
}

/// Iterations per second of a search with the game's own tuning, over a few midgame positions.
fn speed<G: Catalog>(variant: &str, seats: usize, tuning: &Tuning<G>) {
    const ITERATIONS: u64 = 3_000;
    let mut total = 0.0;
    let positions = 3;
    for seed in 0..positions {
        let (game, seat) = midgame::<G>(variant, seats, seed, 12 + 5 * seed as usize);
        let calls = Cell::new(0u64);
        let stop = || {
            calls.set(calls.get() + 1);
            false
        };
        let mut rng = MatchRng::from_seed(seed);
        let start = Instant::now();
        let search = black_box(mcts::search(
            &game, seat, ITERATIONS, &stop, &mut rng, tuning,
        ));
        total += start.elapsed().as_secs_f64();
        assert_eq!(search.iterations, ITERATIONS);
        assert_eq!(calls.get(), ITERATIONS, "one stop check per iteration");
    }
    println!(
        "{:<10} {variant:<10} {seats:>5} {:>12.0}",
        G::ID,
        (ITERATIONS * positions) as f64 / total
    );
}

/// Plays one game between two levels, `high` in seat `high_seat`, the rest of the seats (if
/// more) played by `low`. Returns the high level's score: 1, 1/2 for a draw, 0.
fn duel<G: Catalog + Ai>(
    config: &G::Config,
    high: Level,
    low: Level,
    high_seat: usize,
    seed: u64,
    level5_nodes: u64,
) -> f64 {
    let mut rng = MatchRng::from_seed(seed);
    let mut ai_rng = MatchRng::from_seed(seed ^ 0x5eed);
    let mut game = G::new(config, &mut rng).expect("a valid configuration");
    let budget = Budget::nodes(level5_nodes);
    let mut actions = 0;
    while !game.is_over() && actions < 5_000 {
        for seat in game.to_act().iter() {
            let level = if seat.index() == high_seat { high } else { low };
            let action = game
                .choose(seat, level, &budget, &mut ai_rng)
                .expect("a seat to act has an action");
            game.play(seat, &action, &mut rng)
                .expect("the AI plays legally");
            actions += 1;
        }
    }
    let Some(outcome) = game.outcome() else {
        return 0.5;
    };
    let mine = outcome.places()[high_seat];
    let best_other = (0..outcome.places().len())
        .filter(|&i| i != high_seat)
        .map(|i| outcome.places()[i])
        .min()
        .unwrap_or(u8::MAX);
    match mine.cmp(&best_other) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

/// Each level against the one below it, `games` games per rung with the seats alternating.
fn ladder<G: Catalog + Ai>(variant: &str, seats: usize, games: u64, level5_nodes: u64, top: usize) {
    let config = G::config(variant, seats).expect("a catalogued variant");
    for rung in 1..top.min(Level::ALL.len()) {
        let (high, low) = (Level::ALL[rung], Level::ALL[rung - 1]);
        let start = Instant::now();
        let score: f64 = (0..games)
            .map(|g| duel::<G>(&config, high, low, (g % 2) as usize, g, level5_nodes))
            .sum();
        println!(
            "{:<10} {variant:<8} {seats}p  level {} vs {}: {:>5.1}% over {games} games ({:.0} s)",
            G::ID,
            high.get(),
            low.get(),
            100.0 * score / games as f64,
            start.elapsed().as_secs_f64()
        );
    }
}

fn speeds<G: Catalog + MctsGame>() {
    let tuning = &G::tuning();
    for variant in G::variants() {
        let range = G::seat_counts(variant);
        let mut counts = vec![*range.start()];
        if range.end() != range.start() {
            counts.push(*range.end());
        }
        for seats in counts {
            speed::<G>(variant, seats, tuning);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let games = numbers.first().copied().unwrap_or(20);
    let level5_nodes = numbers.get(1).copied().unwrap_or(30_000);
    let top = numbers.get(2).map_or(5, |&n| n as usize);
    let ids: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<u64>().is_err() && !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let wanted = |id: &str| ids.is_empty() || ids.contains(&id);
    println!(
        "{:<10} {:<10} {:>5} {:>12}",
        "game", "variant", "seats", "iterations/s"
    );
    if wanted("speed") || ids.is_empty() {
        speeds::<FoxGeese>();
        speeds::<Hanoi>();
        speeds::<TowerRace>();
        speeds::<Tron>();
        speeds::<Driller>();
        println!();
    }
    if games == 0 {
        return;
    }
    if wanted(FoxGeese::ID) {
        ladder::<FoxGeese>("hala-tafl", 2, games, level5_nodes, top);
    }
    if wanted(Hanoi::ID) {
        ladder::<Hanoi>("standard", 2, games, level5_nodes, top);
    }
    if wanted(TowerRace::ID) {
        ladder::<TowerRace>("basic", 2, games, level5_nodes, top);
    }
    if wanted(Driller::ID) {
        ladder::<Driller>("standard", 2, games, level5_nodes, top);
    }
}
