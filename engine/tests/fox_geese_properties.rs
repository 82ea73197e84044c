//! Fox and Geese over random games: games end and replay exactly from their log, and the
//! legal actions are exactly those the rules accept, each written and read back unchanged.

use engine::MatchRng;
use engine::fox_geese::{FoxGeese, FoxGeeseAction, FoxGeeseConfig, Point};
use engine::game::{Game, Seat, replay};

fn act(text: &str) -> FoxGeeseAction {
    FoxGeeseAction::parse(text).unwrap()
}

/// Plays a random game from `seed`, calling `check` on each game before its action.
fn random_game(
    seed: u64,
    mut check: impl FnMut(&FoxGeese),
) -> (FoxGeese, Vec<(Seat, FoxGeeseAction)>) {
    let mut rng = MatchRng::from_seed(seed);
    let mut chooser = MatchRng::from_seed(seed ^ 0x5eed);
    let Ok(mut game) = <FoxGeese as Game>::new(&FoxGeeseConfig, &mut rng);
    let mut log = Vec::new();
    while let Some(seat) = game.to_act().iter().next() {
        assert!(log.len() < 2000, "seed {seed}: no end after 2000 actions");
        check(&game);
        let actions = Game::legal_actions(&game, seat);
        let action = chooser
            .choose(&actions)
            .expect("a seat to act has a move")
            .clone();
        game.play(seat, &action, &mut rng)
            .unwrap_or_else(|e| panic!("seed {seed}: {action}: {e}"));
        log.push((seat, action));
    }
    (game, log)
}

#[test]
fn random_playouts_end_and_replay() {
    let mut reasons = std::collections::BTreeMap::new();
    for seed in 0..200 {
        let (game, log) = random_game(seed, |_| {});
        let outcome = game.outcome().expect("the game ended").clone();
        *reasons.entry(outcome.reason()).or_insert(0) += 1;
        let (replayed, _) = replay::<FoxGeese, _>(
            &FoxGeeseConfig,
            seed,
            log.iter().map(|(seat, action)| (*seat, action)),
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed, game, "seed {seed}");
        assert_eq!(replayed.outcome(), Some(&outcome));
    }
    assert!(
        reasons.len() > 1,
        "every game ended the same way: {reasons:?}"
    );
}

#[test]
fn legal_actions_are_accepted_and_round_trip() {
    for seed in 0..20 {
        random_game(seed, |game| {
            let actions = game.legal_moves();
            let mut unique = actions.clone();
            unique.sort_by_key(ToString::to_string);
            unique.dedup();
            assert_eq!(unique.len(), actions.len(), "duplicates in {actions:?}");
            let other = game.turn().opponent().seat();
            assert!(Game::legal_actions(game, other).is_empty());
            for action in &actions {
                assert_eq!(&act(&action.to_string()), action);
                let mut tried = game.clone();
                assert_eq!(tried.play_action(action), Ok(()), "{action}");
            }
            // Every single-landing action the rules accept is listed.
            for from in Point::all() {
                for to in Point::all() {
                    let single = FoxGeeseAction::new(from, vec![to]).unwrap();
                    // The game goes on, so `play_action` refuses exactly what the rules refuse.
                    let accepted = game.clone().play_action(&single).is_ok();
                    assert_eq!(accepted, actions.contains(&single), "{single}");
                }
            }
        });
    }
}
