//! Tron over thousands of random games: they never panic and always end within the round cap,
//! replay exactly from their seed and log, accept every action they list, and never show a
//! seat (or a spectator) another seat's special cards or hidden choice.

use std::collections::BTreeMap;
use std::time::Instant;

use engine::MatchRng;
use engine::catalog::Catalog;
use engine::game::{Game, Seat, Viewer, replay};
use engine::playout::random_playout;
use engine::tron::{Card, Hand, MAX_ROUNDS, Special, Tron, TronAction, TronConfig};

fn new_game(seats: usize, seed: u64) -> (Tron, MatchRng) {
    let mut rng = MatchRng::from_seed(seed);
    let game = Tron::new(&TronConfig { seats }, &mut rng).unwrap();
    (game, rng)
}

/// The players' choices come from their own generator, never from the match's.
fn chooser(seed: u64) -> MatchRng {
    MatchRng::from_seed(seed ^ 0x7A0_5EED)
}

/// Plays a random game, calling `check` before every action with the game and the seat about
/// to act (the lowest seat that must act, as in `random_playout`).
fn random_game(seats: usize, seed: u64, mut check: impl FnMut(&Tron, Seat)) -> Tron {
    let (mut game, mut rng) = new_game(seats, seed);
    let mut choices = chooser(seed);
    let mut actions = 0;
    while let Some(seat) = game.to_act().iter().next() {
        actions += 1;
        assert!(actions < 100_000, "seats {seats} seed {seed}: no end");
        check(&game, seat);
        let legal = game.legal_actions(seat);
        let action = *choices
            .choose(&legal)
            .expect("a seat that must act has an action");
        game.play(seat, &action, &mut rng)
            .unwrap_or_else(|e| panic!("seats {seats} seed {seed}: {action}: {e}"));
    }
    game
}

#[test]
fn random_games_end_within_the_cap_replay_exactly_and_rank_by_score() {
    let start = Instant::now();
    let mut games = 0;
    let mut reasons = BTreeMap::new();
    for seats in 3..=8 {
        for seed in 0..250 {
            let (mut live, mut rng) = new_game(seats, seed);
            let playout = random_playout(&mut live, &mut rng, &mut chooser(seed), 1_000_000);
            assert!(playout.finished, "seats {seats} seed {seed}");
            assert!(live.round() <= MAX_ROUNDS);
            games += 1;
            let outcome = live.outcome().unwrap().clone();
            *reasons.entry(outcome.reason()).or_insert(0) += 1;
            let scores: Vec<i32> = (0..seats)
                .map(|i| live.score(Seat::new(i).unwrap()).unwrap())
                .collect();
            for (i, &place) in outcome.places().iter().enumerate() {
                let better = scores.iter().filter(|&&other| other > scores[i]).count();
                assert_eq!(usize::from(place), better, "seats {seats} seed {seed}");
            }
            match outcome.reason() {
                "target_reached" => {
                    assert_eq!(outcome.winners().len(), 1);
                    let best = *scores.iter().max().unwrap();
                    assert!(best >= live.target() && live.target() >= 15);
                }
                "round_limit" => assert_eq!(live.round(), MAX_ROUNDS),
                other => panic!("unknown reason {other}"),
            }
            let log = playout.log.iter().map(|(seat, action)| (*seat, action));
            let (rebuilt, mut rebuilt_rng) =
                replay::<Tron, _>(&TronConfig { seats }, seed, log).unwrap();
            assert_eq!(rebuilt, live, "seats {seats} seed {seed}");
            assert_eq!(rebuilt_rng.next_u64(), rng.next_u64());
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!("{games} games (each also replayed) in {elapsed:.2}s; endings {reasons:?}");
    assert_eq!(reasons.len(), 2, "both endings occur: {reasons:?}");
}

#[test]
fn playout_speed() {
    for seats in [3, 5, 8] {
        let start = Instant::now();
        let (mut actions, mut rounds) = (0, 0);
        let games = 200;
        for seed in 0..games {
            let (mut game, mut rng) = new_game(seats, seed);
            let playout = random_playout(&mut game, &mut rng, &mut chooser(seed), 1_000_000);
            actions += playout.log.len();
            rounds += game.round();
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{seats} seats: {:.0} games/s, {} actions and {} rounds per game",
            games as f64 / elapsed,
            actions / games as usize,
            rounds / games as u32
        );
    }
}

#[test]
fn every_listed_action_is_accepted_and_its_text_reads_back() {
    let mut checked = 0;
    for seats in [3, 4, 6] {
        for seed in 0..6 {
            random_game(seats, seed, |game, seat| {
                for other in 0..seats {
                    let other = Seat::new(other).unwrap();
                    if !game.to_act().contains(other) {
                        assert!(game.legal_actions(other).is_empty());
                    }
                }
                let legal = game.legal_actions(seat);
                assert!(!legal.is_empty());
                // Crusher placements run to thousands: every one is read back, a spread of
                // them is played.
                let stride = legal.len() / 40 + 1;
                for (i, action) in legal.iter().enumerate() {
                    let text = game.action_text(action);
                    assert_eq!(game.parse_action(&text).as_ref(), Ok(action), "{text}");
                    if i % stride == 0 {
                        let mut tried = game.clone();
                        let mut rng = MatchRng::from_seed(i as u64);
                        tried
                            .play(seat, action, &mut rng)
                            .unwrap_or_else(|e| panic!("{text}: {e}"));
                        checked += 1;
                    }
                }
            });
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn refused_actions_change_nothing() {
    let candidates: Vec<TronAction> = [
        "head a1",
        "tail b2",
        "play dash",
        "play crusher",
        "go left 3",
        "keep 1",
        "crusher c5-c6",
        "crusher c5-c6 from a1-a2",
        "play cut-tail",
        "go forward 9",
    ]
    .iter()
    .map(|text| TronAction::parse(text, 12).unwrap())
    .collect();
    let mut refused = 0;
    for seed in 0..30 {
        random_game(3, seed, |game, seat| {
            for action in &candidates {
                let mut tried = game.clone();
                let mut rng = MatchRng::from_seed(seed);
                if tried.play(seat, action, &mut rng).is_err() {
                    assert_eq!(&tried, game, "{action}");
                    refused += 1;
                }
            }
        });
    }
    assert!(refused > 1000, "{refused}");
}

/// A hand of the same size as `hand` but different, if the deck allows one: one card swapped
/// for another kind.
fn other_hands(hand: Hand) -> impl Iterator<Item = Hand> {
    hand.cards().flat_map(move |out| {
        Special::ALL
            .into_iter()
            .filter(move |&card| card != out)
            .map(move |card| {
                let mut cards: Vec<Special> = hand.cards().collect();
                let at = cards.iter().position(|&c| c == out).unwrap();
                cards[at] = card;
                Hand::of(&cards)
            })
    })
}

fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(|i| Viewer::Seat(Seat::new(i).unwrap()))
        .chain([Viewer::Spectator])
}

#[test]
fn no_view_shows_another_seats_cards_or_hidden_choice() {
    let (mut hands_varied, mut choices_varied) = (0, 0);
    for seats in [3, 4, 5] {
        for seed in 0..12 {
            random_game(seats, seed, |game, actor| {
                // What each viewer is shown of its own.
                for viewer in viewers(seats) {
                    let view = game.view(viewer);
                    match viewer {
                        Viewer::Seat(seat) => assert_eq!(view.hand, game.hand(seat)),
                        Viewer::Spectator => {
                            assert_eq!(view.hand, None);
                            assert_eq!(view.pending, None);
                        }
                    }
                }
                for t in 0..seats {
                    let t = Seat::new(t).unwrap();
                    // The same game but for seat t's cards: nobody else sees a difference.
                    let twin = other_hands(game.hand(t).unwrap())
                        .find_map(|hand| game.with_hand(t, hand).ok());
                    if let Some(twin) = twin {
                        assert_ne!(twin.hand(t), game.hand(t));
                        hands_varied += 1;
                        for viewer in viewers(seats).filter(|v| *v != Viewer::Seat(t)) {
                            assert_eq!(twin.view(viewer), game.view(viewer), "{viewer:?}");
                        }
                    }
                }
                // The same game but for the actor's hidden choice, while others must still
                // choose: nobody else sees a difference.
                if game.to_act().len() < 2 {
                    return;
                }
                let legal = game.legal_actions(actor);
                let (Some(first), Some(last)) = (legal.first(), legal.last()) else {
                    return;
                };
                if first == last {
                    return;
                }
                let (mut a, mut b) = (game.clone(), game.clone());
                a.play(actor, first, &mut MatchRng::from_seed(0)).unwrap();
                b.play(actor, last, &mut MatchRng::from_seed(0)).unwrap();
                choices_varied += 1;
                for viewer in viewers(seats).filter(|v| *v != Viewer::Seat(actor)) {
                    assert_eq!(a.view(viewer), b.view(viewer), "{viewer:?}");
                }
                assert_eq!(a.view(Viewer::Seat(actor)).pending, Some(*first));
                assert_eq!(b.view(Viewer::Seat(actor)).pending, Some(*last));
            });
        }
    }
    assert!(
        hands_varied > 1000 && choices_varied > 1000,
        "{hands_varied} {choices_varied}"
    );
}

#[test]
fn a_seeded_game_reads_back_from_its_text_log() {
    let seats = 4;
    let seed = 2008;
    let (mut live, mut rng) = new_game(seats, seed);
    let playout = random_playout(&mut live, &mut rng, &mut chooser(seed), 1_000_000);
    assert!(playout.finished);
    // The log as text, one `<seat> <action>` a line, read back by a fresh game.
    let lines: Vec<String> = playout
        .log
        .iter()
        .map(|(seat, action)| format!("{} {}", seat.index(), live.action_text(action)))
        .collect();
    let mut rng = MatchRng::from_seed(seed);
    let mut game = Tron::new(&TronConfig { seats }, &mut rng).unwrap();
    for line in &lines {
        let (seat, text) = line.split_once(' ').unwrap();
        let seat = Seat::new(seat.parse().unwrap()).unwrap();
        let action = game.parse_action(text).unwrap();
        game.play(seat, &action, &mut rng).unwrap();
    }
    assert_eq!(game, live);
    // Every kind of action and card turns up in a game this long.
    for prefix in ["head ", "tail ", "play ", "go ", "keep ", "crusher "] {
        assert!(lines.iter().any(|l| l.contains(prefix)), "{prefix}");
    }
    for card in Card::ALL {
        let play = format!("play {card}");
        assert!(lines.iter().any(|l| l.ends_with(&play)), "{play}");
    }
}
