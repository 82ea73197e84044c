//! Every rule of the Tower of Hanoi race, tested on small explicit positions.
//!
//! Positions are written as one list of places per seat, smallest pyramid first: `home`, `end`
//! or a tile name. In the two-player basic game seat 0 (A) starts on a5 and seat 1 (B) on e1;
//! their paths (see `docs/rules/tower-race.md`) number the tiles
//!
//! ```text
//!      seat 0 (a5)         seat 1 (e1)
//!   5   1  2  3  4  5     9 10 11 12 13
//!   4  16 17 18 19  6     8 21 22 23 14
//!   3  15 24 25 20  7     7 20 25 24 15
//!   2  14 23 22 21  8     6 19 18 17 16
//!   1  13 12 11 10  9     5  4  3  2  1
//!       a  b  c  d  e     a  b  c  d  e
//! ```

use engine::game::{Game, PlayError, Seat, SeatSet, Viewer, replay};
use engine::notation::NotationError;
use engine::tower_race::{
    Answer, Board, ChallengeKind, Die, Expected, MAX_ROUNDS, Place, Pyramid, SetupError, Size,
    Stage, Tile, TowerRace, TowerRaceAction, TowerRaceConfig, TowerRaceError, TurnRoll,
};
use engine::{Catalog, MatchRng};

fn seat(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

fn size(n: u8) -> Size {
    Size::new(n).unwrap()
}

fn die(n: u8) -> Die {
    Die::new(n).unwrap()
}

fn pyramid(s: usize, n: u8) -> Pyramid {
    Pyramid {
        seat: seat(s),
        size: size(n),
    }
}

fn config(board: Board, seats: usize) -> TowerRaceConfig {
    TowerRaceConfig { board, seats }
}

fn tile(name: &str) -> Tile {
    Tile::parse(name, 7).unwrap()
}

fn place(name: &str) -> Place {
    match name {
        "home" => Place::Home,
        "end" => Place::End,
        name => Place::Tile(tile(name)),
    }
}

/// A game from places per seat (smallest pyramid first), `to_move` having rolled `roll`.
fn position(board: Board, places: &[&[&str]], to_move: usize, roll: u8) -> TowerRace {
    let config = config(board, places.len());
    let mut setup = engine::tower_race::Setup::new(&config, die(roll));
    setup.places = places
        .iter()
        .map(|seat| seat.iter().map(|name| place(name)).collect())
        .collect();
    setup.to_move = seat(to_move);
    TowerRace::from_setup(&config, &setup).unwrap_or_else(|e| panic!("{e}"))
}

fn basic(places: &[&[&str]], to_move: usize, roll: u8) -> TowerRace {
    position(Board::Basic, places, to_move, roll)
}

fn act(game: &TowerRace, text: &str) -> TowerRaceAction {
    game.parse_action(text).unwrap_or_else(|e| panic!("{e}"))
}

fn texts(actions: &[TowerRaceAction]) -> Vec<String> {
    actions.iter().map(ToString::to_string).collect()
}

/// The legal actions of the one seat that must act, which must be `s`.
fn legal(game: &TowerRace, s: usize) -> Vec<String> {
    assert_eq!(game.to_act(), SeatSet::single(seat(s)));
    texts(&game.legal_actions(seat(s)))
}

/// Plays `text` for seat `s`, which must be legal.
fn play(game: &mut TowerRace, s: usize, text: &str, rng: &mut MatchRng) {
    let action = act(game, text);
    game.play(seat(s), &action, rng)
        .unwrap_or_else(|e| panic!("{} {text}: {e}", seat(s)));
}

/// Checks that `text` by seat `s` is refused with `expected` and changes nothing, the RNG
/// included.
fn refused(game: &TowerRace, s: usize, text: &str, expected: TowerRaceError) {
    let mut tried = game.clone();
    let mut rng = MatchRng::from_seed(99);
    let action = act(game, text);
    assert_eq!(
        tried.play(seat(s), &action, &mut rng),
        Err(PlayError::Illegal(expected)),
        "{text}"
    );
    assert_eq!(&tried, game);
    assert_eq!(rng.next_u64(), MatchRng::from_seed(99).next_u64());
}

fn where_is(game: &TowerRace, s: usize, n: u8) -> String {
    match game.place(pyramid(s, n)) {
        Place::Home => "home".into(),
        Place::End => "end".into(),
        Place::Tile(tile) => tile.to_string(),
    }
}

fn stack(game: &TowerRace, name: &str) -> Vec<Pyramid> {
    game.stack(tile(name))
}

/// The first seed from which `check` holds after `play` has run on a copy of `game`.
fn find_seed(
    game: &TowerRace,
    mut play: impl FnMut(&mut TowerRace, &mut MatchRng),
    check: impl Fn(&TowerRace) -> bool,
) -> TowerRace {
    for seed in 0..1000 {
        let mut tried = game.clone();
        let mut rng = MatchRng::from_seed(seed);
        play(&mut tried, &mut rng);
        if check(&tried) {
            return tried;
        }
    }
    panic!("no seed below 1000 gives the wanted result");
}

// --- Set-up, board and turn order -------------------------------------------------------------

#[test]
fn a_new_game_starts_with_every_pyramid_home_and_seat_0_rolling() {
    let mut rng = MatchRng::from_seed(3);
    let game = TowerRace::new(&config(Board::Basic, 4), &mut rng).unwrap();
    let roll = MatchRng::from_seed(3).roll(6);
    assert_eq!(
        game.stage(),
        Stage::Move {
            seat: seat(0),
            roll: die(roll)
        }
    );
    assert_eq!(
        game.last_roll(),
        Some(TurnRoll {
            seat: seat(0),
            roll: die(roll)
        })
    );
    for s in 0..4 {
        for n in 1..=3 {
            assert_eq!(game.place(pyramid(s, n)), Place::Home);
        }
    }
    // Only the biggest pyramid, on the outside of the nested home stack, can enter.
    assert_eq!(legal(&game, 0), ["m3"]);
    assert_eq!(
        game.diagram(),
        format!(
            "   a     b     c     d     e\n\
             5  .     .     .     .     .\n\
             4  .     .     .     .     .\n\
             3  .     .     END   .     .\n\
             2  .     .     .     .     .\n\
             1  .     .     .     .     .\n\
             A = seat 0, start a5: 1 home, 2 home, 3 home\n\
             B = seat 1, start e5: 1 home, 2 home, 3 home\n\
             C = seat 2, start e1: 1 home, 2 home, 3 home\n\
             D = seat 3, start a1: 1 home, 2 home, 3 home\n\
             seat 0 has rolled {roll} and must move a pyramid or pass\n"
        )
    );
}

#[test]
fn start_tiles_are_the_corners_and_two_players_sit_opposite() {
    let starts = |board, seats| {
        let game = TowerRace::new(&config(board, seats), &mut MatchRng::from_seed(0)).unwrap();
        game.seat_list()
            .map(|s| game.start_tile(s).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(starts(Board::Basic, 2), ["a5", "e1"]);
    assert_eq!(starts(Board::Basic, 3), ["a5", "e5", "e1"]);
    assert_eq!(starts(Board::Basic, 4), ["a5", "e5", "e1", "a1"]);
    assert_eq!(starts(Board::Advanced, 4), ["a7", "g7", "g1", "a1"]);
    assert_eq!(starts(Board::Advanced, 5), ["a7", "c7", "g7", "g1", "a1"]);
    assert_eq!(
        starts(Board::Advanced, 8),
        ["a7", "c7", "g7", "g5", "g1", "e1", "a1", "a3"]
    );
}

#[test]
fn the_path_is_one_round_of_each_ring_then_the_end_tile() {
    let game = basic(&[&["home"; 3], &["home"; 3]], 0, 1);
    let names = |s| {
        game.path(seat(s))
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        names(0),
        "a5 b5 c5 d5 e5 e4 e3 e2 e1 d1 c1 b1 a1 a2 a3 a4 b4 c4 d4 d3 d2 c2 b2 b3 c3"
    );
    assert_eq!(
        names(1),
        "e1 d1 c1 b1 a1 a2 a3 a4 a5 b5 c5 d5 e5 e4 e3 e2 d2 c2 b2 b3 b4 c4 d4 d3 c3"
    );
    assert_eq!(game.end_tile().to_string(), "c3");
    assert!(game.safe_tiles().is_empty());
}

#[test]
fn play_goes_round_the_seats_in_order_with_a_new_roll_each_turn() {
    let mut rng = MatchRng::from_seed(11);
    let mut game = TowerRace::new(&config(Board::Basic, 3), &mut rng).unwrap();
    let mut movers = Vec::new();
    while movers.len() < 10 {
        if let Stage::Move { seat: mover, roll } = game.stage() {
            assert_eq!(game.last_roll(), Some(TurnRoll { seat: mover, roll }));
            movers.push(mover.index());
        }
        let s = game.to_act().iter().next().unwrap();
        let action = game.legal_actions(s)[0];
        game.play(s, &action, &mut rng).unwrap();
    }
    assert_eq!(movers, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
}

// --- Moving -----------------------------------------------------------------------------------

#[test]
fn entering_counts_the_start_tile_as_the_first_tile() {
    for (roll, to) in [(1, "a5"), (4, "d5"), (6, "e4")] {
        let mut game = basic(&[&["home"; 3], &["home"; 3]], 0, roll);
        play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
        assert_eq!(where_is(&game, 0, 3), to);
    }
}

#[test]
fn pyramids_enter_biggest_first_because_they_start_nested() {
    let game = basic(&[&["home", "home", "b5"], &["home"; 3]], 0, 3);
    assert_eq!(legal(&game, 0), ["m2", "m3"]);
    refused(
        &game,
        0,
        "m1",
        TowerRaceError::StillCovered {
            pyramid: pyramid(0, 1),
            by: size(2),
        },
    );
}

#[test]
fn a_pyramid_moves_exactly_the_roll_and_passes_over_anything() {
    // Seat 1's big pyramid on b5 and c5 lies between a5 and d5: it does not matter.
    let mut game = basic(&[&["home", "home", "a5"], &["end", "b5", "c5"]], 0, 3);
    play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
    assert_eq!(where_is(&game, 0, 3), "d5");
}

#[test]
fn after_a_complete_round_of_the_outer_ring_the_path_turns_inward() {
    for (roll, to) in [(1, "b4"), (2, "c4"), (5, "d2")] {
        let mut game = basic(&[&["home", "home", "a4"], &["home"; 3]], 0, roll);
        play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
        assert_eq!(where_is(&game, 0, 3), to, "roll {roll}");
    }
}

#[test]
fn a_pyramid_stacks_over_a_smaller_one_and_captures_it() {
    let mut game = basic(&[&["c5", "home", "home"], &["end", "b5", "home"]], 1, 1);
    play(&mut game, 1, "m2", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "c5"), [pyramid(0, 1), pyramid(1, 2)]);
    // The captured pyramid cannot move; seat 0's only other pyramid enters instead.
    let game = basic(&[&["c5", "home", "home"], &["end", "c5", "home"]], 0, 2);
    assert_eq!(legal(&game, 0), ["m3"]);
    refused(
        &game,
        0,
        "m1",
        TowerRaceError::Captured {
            pyramid: pyramid(0, 1),
            tile: tile("c5"),
            by: pyramid(1, 2),
        },
    );
}

#[test]
fn a_pyramid_may_cover_its_owners_smaller_pyramid_too() {
    let mut game = basic(&[&["c5", "b5", "home"], &["home"; 3]], 0, 1);
    assert_eq!(legal(&game, 0), ["m1", "m2", "m3"]);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "c5"), [pyramid(0, 1), pyramid(0, 2)]);
    // No challenge is offered against one's own pyramid: the turn simply ends.
    assert_eq!(game.to_act(), SeatSet::single(seat(1)));
}

#[test]
fn a_bigger_pyramid_blocks_the_tile() {
    let game = basic(&[&["b5", "home", "a5"], &["end", "end", "c5"]], 0, 1);
    refused(
        &game,
        0,
        "m1",
        TowerRaceError::Blocked {
            pyramid: pyramid(0, 1),
            tile: tile("c5"),
            by: pyramid(1, 3),
        },
    );
    assert_eq!(legal(&game, 0), ["m3"]);
}

#[test]
fn with_no_legal_move_the_turn_is_forfeit_and_with_one_it_is_not() {
    // Pyramid 1 is covered by 2, pyramid 2 is blocked by a bigger one on c5, and 3 may not
    // enter the End-tile before them.
    let game = basic(&[&["b5", "b5", "b3"], &["home", "home", "c5"]], 0, 1);
    assert_eq!(legal(&game, 0), ["pass"]);
    let mut passed = game.clone();
    let mut rng = MatchRng::from_seed(5);
    play(&mut passed, 0, "pass", &mut rng);
    assert!(matches!(passed.stage(), Stage::Move { seat: s, .. } if s == seat(1)));

    let game = basic(&[&["b5", "home", "home"], &["home"; 3]], 0, 1);
    refused(
        &game,
        0,
        "pass",
        TowerRaceError::MustMove {
            pyramid: pyramid(0, 1),
            roll: die(1),
        },
    );
}

#[test]
fn the_end_tile_is_entered_by_exact_count_only() {
    let game = basic(&[&["b2", "b3", "b3"], &["home"; 3]], 0, 3);
    // b2 is the 23rd tile of 25: a 2 enters, a 3 overshoots (and so it does from b3).
    refused(
        &game,
        0,
        "m1",
        TowerRaceError::Overshoot {
            pyramid: pyramid(0, 1),
            roll: die(3),
            needed: 2,
        },
    );
    assert_eq!(legal(&game, 0), ["pass"]);
}

#[test]
fn the_smallest_pyramid_enters_the_end_tile_first() {
    let game = basic(&[&["a5", "b3", "home"], &["home"; 3]], 0, 1);
    refused(
        &game,
        0,
        "m2",
        TowerRaceError::EndOrder {
            pyramid: pyramid(0, 2),
            first: size(1),
        },
    );
    let mut game = basic(&[&["end", "b3", "b2"], &["home"; 3]], 0, 1);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    assert_eq!(where_is(&game, 0, 2), "end");
    // The End-tile holds every player's finished pyramids apart: it is no stack.
    assert!(stack(&game, "c3").is_empty());
}

#[test]
fn moving_the_last_pyramid_into_the_end_tile_wins_at_once() {
    let mut game = basic(&[&["end", "end", "b3"], &["d3", "home", "home"]], 0, 1);
    play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "reached_end");
    assert_eq!(outcome.places(), &[0, 1]);
    assert_eq!(game.to_act(), SeatSet::EMPTY);
    assert_eq!(game.stage(), Stage::Over);
    assert!(game.legal_actions(seat(1)).is_empty());
    let mut tried = game.clone();
    assert_eq!(
        tried.play(seat(1), &TowerRaceAction::Pass, &mut MatchRng::from_seed(0)),
        Err(PlayError::GameOver)
    );
    assert_eq!(
        tried.play_action(seat(1), TowerRaceAction::Pass, &mut MatchRng::from_seed(0)),
        Err(TowerRaceError::GameOver)
    );
    // Three players: the winner first, the others share second place.
    let mut game = basic(&[&["end", "end", "b3"], &["home"; 3], &["home"; 3]], 0, 1);
    play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
    assert_eq!(game.outcome().unwrap().places(), &[0, 1, 1]);
}

// --- Challenges -------------------------------------------------------------------------------

/// Seat 0's pyramid 2 on c5 rolls 2 towards e5, where seat 1's pyramid 2 sits on seat 1's
/// pyramid 1.
fn landing(board: Board) -> TowerRace {
    let (a, b): (&[&str], &[&str]) = match board {
        Board::Basic => (&["end", "c5", "home"], &["e5", "e5", "d3"]),
        Board::Advanced => (&["end", "c6", "home", "home"], &["e6", "e6", "d3", "b3"]),
    };
    let mut places = vec![a, b];
    if board == Board::Advanced {
        places.extend([&["home"; 4][..], &["home"; 4][..]]);
    }
    let roll = 2;
    position(board, &places, 0, roll)
}

#[test]
fn moving_onto_a_same_size_pyramid_is_a_challenge_answered_out_of_turn() {
    let mut game = landing(Board::Basic);
    assert_eq!(legal(&game, 0), ["m2", "m3"]);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    let Stage::Answer(challenge) = game.stage() else {
        panic!("{:?}", game.stage())
    };
    assert_eq!(challenge.kind, ChallengeKind::Landing);
    assert_eq!(challenge.challenger, pyramid(0, 2));
    assert_eq!(challenge.challenged, pyramid(1, 2));
    assert_eq!(challenge.tile, tile("e5"));
    // The challenged seat alone acts, and in the basic game it cannot refuse.
    assert_eq!(legal(&game, 1), ["accept"]);
    assert!(game.legal_actions(seat(0)).is_empty());
    refused(&game, 1, "refuse", TowerRaceError::NoRefusals);
    refused(
        &game,
        1,
        "m1",
        TowerRaceError::WrongTime {
            action: TowerRaceAction::Move(size(1)),
            stage: Stage::Answer(challenge),
        },
    );
    let mut tried = game.clone();
    assert_eq!(
        tried.play(
            seat(0),
            &TowerRaceAction::Accept,
            &mut MatchRng::from_seed(0)
        ),
        Err(PlayError::NotYourTurn(seat(0)))
    );
}

#[test]
fn the_challenger_who_wins_a_landing_takes_the_tile() {
    let mut game = landing(Board::Basic);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    let won = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| where_is(g, 0, 2) == "e5",
    );
    // The loser went home; the winner stacks over the smaller pyramid left on the tile.
    assert_eq!(where_is(&won, 1, 2), "home");
    assert_eq!(stack(&won, "e5"), [pyramid(1, 1), pyramid(0, 2)]);
    let report = won.last_challenge().unwrap();
    let Answer::Played { rolls, winner } = &report.answer else {
        panic!("{report:?}")
    };
    assert_eq!(*winner, seat(0));
    let (last, ties) = rolls.split_last().unwrap();
    assert!(last.0 > last.1);
    assert!(ties.iter().all(|(a, b)| a == b));
    // The challenger's turn is over: seat 1 rolls.
    assert!(matches!(won.stage(), Stage::Move { seat: s, .. } if s == seat(1)));
}

#[test]
fn the_challenger_who_loses_goes_home() {
    let mut game = landing(Board::Basic);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    let lost = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| where_is(g, 0, 2) == "home",
    );
    assert_eq!(stack(&lost, "e5"), [pyramid(1, 1), pyramid(1, 2)]);
    assert!(stack(&lost, "c5").is_empty());
    assert!(matches!(
        &lost.last_challenge().unwrap().answer,
        Answer::Played { winner, .. } if *winner == seat(1)
    ));
}

#[test]
fn tied_challenge_rolls_are_rolled_again() {
    let mut game = landing(Board::Basic);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    let tied = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| {
            matches!(&g.last_challenge().unwrap().answer,
                Answer::Played { rolls, .. } if rolls.len() > 1)
        },
    );
    let Answer::Played { rolls, winner } = &tied.last_challenge().unwrap().answer else {
        unreachable!()
    };
    let (last, ties) = rolls.split_last().unwrap();
    assert!(ties.iter().all(|(a, b)| a == b));
    assert_eq!(*winner, if last.0 > last.1 { seat(0) } else { seat(1) });
}

#[test]
fn a_captured_pyramid_may_challenge_its_captor_at_the_end_of_its_owners_turn() {
    // Seat 0's pyramid 1 on c5 is captured by seat 1's pyramid 3.
    let mut game = basic(&[&["c5", "home", "home"], &["end", "end", "c5"]], 0, 1);
    assert_eq!(legal(&game, 0), ["m3"]);
    play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
    assert_eq!(game.stage(), Stage::Challenge { seat: seat(0) });
    assert_eq!(legal(&game, 0), ["c1x3", "wait"]);
    refused(
        &game,
        0,
        "c1x2",
        TowerRaceError::NoCaptor {
            mine: pyramid(0, 1),
            theirs: size(2),
        },
    );
    // Waiting ends the turn.
    let mut waited = game.clone();
    play(&mut waited, 0, "wait", &mut MatchRng::from_seed(0));
    assert!(matches!(waited.stage(), Stage::Move { seat: s, .. } if s == seat(1)));

    play(&mut game, 0, "c1x3", &mut MatchRng::from_seed(0));
    assert_eq!(legal(&game, 1), ["accept"]);
    let freed = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| where_is(g, 1, 3) == "home",
    );
    assert_eq!(stack(&freed, "c5"), [pyramid(0, 1)]);
    assert!(matches!(freed.stage(), Stage::Move { seat: s, .. } if s == seat(1)));
    let lost = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| where_is(g, 0, 1) == "home",
    );
    assert_eq!(stack(&lost, "c5"), [pyramid(1, 3)]);
}

#[test]
fn a_challenge_is_offered_after_a_forfeited_move_too() {
    let mut game = basic(&[&["c5", "b3", "b3"], &["end", "end", "c5"]], 0, 6);
    // Pyramid 1 is captured, 2 is covered by 3, and 3 is one tile from the End-tile.
    assert_eq!(legal(&game, 0), ["pass"]);
    play(&mut game, 0, "pass", &mut MatchRng::from_seed(0));
    assert_eq!(legal(&game, 0), ["c1x3", "wait"]);
}

#[test]
fn a_captor_in_the_middle_of_a_stack_can_be_challenged_and_removed() {
    // c5 holds, bottom to top: seat 0's 1, seat 1's 2, seat 0's 3. Seat 0 moves its 3 away;
    // its 1 is still captured by seat 1's 2.
    let mut game = basic(&[&["c5", "home", "c5"], &["end", "c5", "home"]], 0, 6);
    play(&mut game, 0, "m3", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "c5"), [pyramid(0, 1), pyramid(1, 2)]);
    assert_eq!(legal(&game, 0), ["c1x2", "wait"]);
    play(&mut game, 0, "c1x2", &mut MatchRng::from_seed(0));
    let won = find_seed(
        &game,
        |g, rng| play(g, 1, "accept", rng),
        |g| where_is(g, 1, 2) == "home",
    );
    assert_eq!(stack(&won, "c5"), [pyramid(0, 1)]);
}

// --- The advanced version ---------------------------------------------------------------------

#[test]
fn advanced_safe_zones_hold_any_pyramids_without_capture() {
    let home = ["home"; 4];
    // Seat 0's pyramid 1 on b6 moves 2 onto d6, a safe zone holding seat 1's pyramid 4.
    let mut game = position(
        Board::Advanced,
        &[
            &["b6", "home", "home", "home"][..],
            &["home", "home", "home", "d6"],
            &home,
            &home,
        ],
        0,
        2,
    );
    let game_safe: Vec<String> = game.safe_tiles().iter().map(ToString::to_string).collect();
    assert_eq!(
        game_safe,
        [
            "a1", "e1", "g1", "d2", "a3", "b4", "f4", "g5", "d6", "a7", "c7", "g7"
        ]
    );
    play(&mut game, 0, "m1", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "d6"), [pyramid(0, 1), pyramid(1, 4)]);
    // Nothing is captured on a safe zone: the small pyramid moves on from under the big one.
    let game = position(
        Board::Advanced,
        &[
            &["d6", "home", "home", "home"][..],
            &["home", "home", "home", "d6"],
            &home,
            &home,
        ],
        0,
        1,
    );
    assert_eq!(legal(&game, 0), ["m1", "m4"]);
    // And a same-size pyramid there is no challenge.
    let mut game = position(
        Board::Advanced,
        &[
            &["b6", "home", "home", "home"][..],
            &["d6", "home", "home", "home"],
            &home,
            &home,
        ],
        0,
        2,
    );
    play(&mut game, 0, "m1", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "d6"), [pyramid(0, 1), pyramid(1, 1)]);
    assert!(matches!(game.stage(), Stage::Move { seat: s, .. } if s == seat(1)));
}

#[test]
fn advanced_start_tiles_are_safe_zones() {
    let home = ["home"; 4];
    // Seat 1's pyramid 4 stands on seat 0's start tile a7; seat 0 enters its own pyramid 4 there.
    let mut game = position(
        Board::Advanced,
        &[&home[..], &["home", "home", "home", "a7"], &home, &home],
        0,
        1,
    );
    play(&mut game, 0, "m4", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "a7"), [pyramid(0, 4), pyramid(1, 4)]);
    // c7 is a start tile of the eight-player board, and safe even when nobody starts there.
    let mut game = position(
        Board::Advanced,
        &[&home[..], &["home", "home", "home", "c7"], &home, &home],
        0,
        3,
    );
    play(&mut game, 0, "m4", &mut MatchRng::from_seed(0));
    assert_eq!(stack(&game, "c7"), [pyramid(0, 4), pyramid(1, 4)]);
}

#[test]
fn advanced_refusing_a_landing_costs_the_next_turn_and_the_challenger_moves_again() {
    let mut game = landing(Board::Advanced);
    let mut rng = MatchRng::from_seed(1);
    play(&mut game, 0, "m2", &mut rng);
    assert_eq!(legal(&game, 1), ["accept", "refuse"]);
    play(&mut game, 1, "refuse", &mut rng);
    assert!(game.loses_next_turn(seat(1)));
    assert!(!game.may_refuse(seat(1)));
    assert_eq!(
        game.last_challenge().map(|r| &r.answer),
        Some(&Answer::Refused)
    );
    // Still seat 0's turn, with the same roll; the refused challenge cannot be posed again.
    assert_eq!(
        game.stage(),
        Stage::Move {
            seat: seat(0),
            roll: die(2)
        }
    );
    assert_eq!(legal(&game, 0), ["m4"]);
    refused(
        &game,
        0,
        "m2",
        TowerRaceError::AlreadyRefused {
            pyramid: pyramid(0, 2),
            tile: tile("e6"),
            by: pyramid(1, 2),
        },
    );
    play(&mut game, 0, "m4", &mut rng);
    // Seat 1's turn is lost: seat 2 rolls next.
    assert!(!game.loses_next_turn(seat(1)));
    assert!(matches!(game.stage(), Stage::Move { seat: s, .. } if s == seat(2)));
    assert_eq!(game.turns(), 2);
}

#[test]
fn advanced_a_second_refusal_before_the_next_turn_costs_no_further_turn() {
    // Seat 1 refused a challenge earlier and then accepted one, so it may refuse again, and it
    // already loses its next turn.
    let config = config(Board::Advanced, 4);
    let mut setup = engine::tower_race::Setup::new(&config, die(2));
    let home = || vec![Place::Home; 4];
    setup.places = vec![
        vec![place("end"), place("c6"), Place::Home, Place::Home],
        vec![place("e6"), place("e6"), place("d3"), place("b3")],
        home(),
        home(),
    ];
    setup.loses_next_turn = SeatSet::single(seat(1));
    let mut game = TowerRace::from_setup(&config, &setup).unwrap();
    let mut rng = MatchRng::from_seed(3);
    play(&mut game, 0, "m2", &mut rng);
    play(&mut game, 1, "refuse", &mut rng);
    play(&mut game, 0, "m4", &mut rng);
    // The "immediate next turn" both refusals name is lost once; seat 1 plays the one after.
    let mut movers = Vec::new();
    while movers.len() < 4 {
        if let Stage::Move { seat: mover, .. } = game.stage() {
            movers.push(mover.index());
        }
        let s = game.to_act().iter().next().unwrap();
        let action = game.legal_actions(s)[0];
        game.play(s, &action, &mut rng).unwrap();
    }
    assert_eq!(movers, [2, 3, 0, 1]);
}

#[test]
fn advanced_two_refusals_in_a_row_are_not_allowed() {
    let config = config(Board::Advanced, 4);
    let mut setup = engine::tower_race::Setup::new(&config, die(2));
    let home = || vec![Place::Home; 4];
    setup.places = vec![
        vec![place("end"), place("c6"), Place::Home, Place::Home],
        vec![place("e6"), place("e6"), place("d3"), place("b3")],
        home(),
        home(),
    ];
    setup.refused_last = SeatSet::single(seat(1));
    let mut game = TowerRace::from_setup(&config, &setup).unwrap();
    let mut rng = MatchRng::from_seed(1);
    play(&mut game, 0, "m2", &mut rng);
    assert_eq!(legal(&game, 1), ["accept"]);
    refused(&game, 1, "refuse", TowerRaceError::RefusedLast(seat(1)));
    // Accepting clears it: the next challenge may be refused again.
    play(&mut game, 1, "accept", &mut rng);
    assert!(game.may_refuse(seat(1)));
}

#[test]
fn advanced_refusing_a_release_challenge_ends_the_challengers_turn() {
    let home = ["home"; 4];
    // Seat 0's pyramid 1 on b6 is captured by seat 1's pyramid 2.
    let mut game = position(
        Board::Advanced,
        &[
            &["b6", "home", "home", "home"][..],
            &["home", "b6", "home", "home"][..],
            &home,
            &home,
        ],
        0,
        1,
    );
    let mut rng = MatchRng::from_seed(4);
    play(&mut game, 0, "m4", &mut rng);
    play(&mut game, 0, "c1x2", &mut rng);
    play(&mut game, 1, "refuse", &mut rng);
    assert_eq!(stack(&game, "b6"), [pyramid(0, 1), pyramid(1, 2)]);
    // Seat 1 loses the turn that would have come now, and the penalty is paid.
    assert!(matches!(game.stage(), Stage::Move { seat: s, .. } if s == seat(2)));
    assert_eq!(game.turns(), 2);
    assert!(!game.loses_next_turn(seat(1)));
}

// --- Endings without a winner -----------------------------------------------------------------

#[test]
fn a_board_where_nothing_can_ever_move_ends_in_a_stalemate() {
    // Each seat has walled itself in just before the End-tile: its pyramid 3 covers the smaller
    // ones, and 3 may not enter before them.
    let mut game = basic(&[&["b3", "b3", "b3"], &["end", "d3", "d3"]], 0, 1);
    assert_eq!(legal(&game, 0), ["pass"]);
    play(&mut game, 0, "pass", &mut MatchRng::from_seed(0));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "stalemate");
    // Seat 1 has a pyramid in the End-tile.
    assert_eq!(outcome.places(), &[1, 0]);
}

#[test]
fn the_turn_limit_ends_a_game_nobody_can_win_and_ranks_by_progress() {
    // Seat 0's pyramid 1 is captured in seat 1's walled-in stack on d3, so a challenge is always
    // open to seat 0 and the board is not frozen; everyone passes and seat 0 always waits.
    let mut game = basic(&[&["d3", "b3", "b3"], &["end", "d3", "d3"]], 0, 1);
    let mut rng = MatchRng::from_seed(0);
    let mut actions = 0;
    while let Some(s) = game.to_act().iter().next() {
        let action = if game.stage() == (Stage::Challenge { seat: s }) {
            "wait"
        } else {
            "pass"
        };
        play(&mut game, s.index(), action, &mut rng);
        actions += 1;
    }
    assert_eq!(game.turns(), 2 * MAX_ROUNDS);
    assert_eq!(game.turn_limit(), 2 * MAX_ROUNDS);
    assert_eq!(actions, 3 * MAX_ROUNDS);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "turn_limit");
    assert_eq!(outcome.places(), &[1, 0]);
}

// --- Errors, set-up, notation, catalog and view ------------------------------------------------

#[test]
fn actions_at_the_wrong_time_or_by_the_wrong_seat_change_nothing() {
    let game = basic(&[&["home"; 3], &["home"; 3]], 0, 3);
    let stage = game.stage();
    for text in ["wait", "accept", "c1x2"] {
        refused(
            &game,
            0,
            text,
            TowerRaceError::WrongTime {
                action: act(&game, text),
                stage,
            },
        );
    }
    let mut tried = game.clone();
    assert_eq!(
        tried.play_action(seat(1), TowerRaceAction::Pass, &mut MatchRng::from_seed(0)),
        Err(TowerRaceError::NotToAct {
            seat: seat(1),
            stage
        })
    );
    assert_eq!(
        tried.play(seat(2), &TowerRaceAction::Pass, &mut MatchRng::from_seed(0)),
        Err(PlayError::NoSuchSeat(seat(2)))
    );
    assert_eq!(tried, game);
    // A size the basic game does not have.
    let mut tried = game.clone();
    assert_eq!(
        tried.play_action(
            seat(0),
            TowerRaceAction::Move(size(4)),
            &mut MatchRng::from_seed(0)
        ),
        Err(TowerRaceError::NoSuchPyramid {
            size: size(4),
            pyramids: 3
        })
    );
    assert_eq!(
        TowerRaceError::NoSuchPyramid {
            size: size(4),
            pyramids: 3
        }
        .to_string(),
        "there is no pyramid 4: players have pyramids 1 to 3"
    );
    assert_eq!(tried, game);
}

#[test]
fn error_messages_name_the_pyramids_and_tiles() {
    let cases = [
        (
            TowerRaceError::Blocked {
                pyramid: pyramid(0, 1),
                tile: tile("c5"),
                by: pyramid(1, 3),
            },
            "seat 0's pyramid 1 cannot move onto c5: seat 1's pyramid 3 there is bigger",
        ),
        (
            TowerRaceError::Overshoot {
                pyramid: pyramid(0, 1),
                roll: die(3),
                needed: 2,
            },
            "seat 0's pyramid 1 is 2 tiles from the End-tile and must enter it exactly, not with a 3",
        ),
        (
            TowerRaceError::EndOrder {
                pyramid: pyramid(2, 3),
                first: size(2),
            },
            "seat 2's pyramid 3 cannot enter the End-tile before its pyramid 2",
        ),
        (
            TowerRaceError::RefusedLast(seat(1)),
            "seat 1 refused the last challenge and may not refuse two in a row",
        ),
    ];
    for (error, text) in cases {
        assert_eq!(error.to_string(), text);
    }
}

#[test]
fn setups_are_checked() {
    let basic2 = config(Board::Basic, 2);
    let with = |places: [[&str; 3]; 2]| {
        let mut setup = engine::tower_race::Setup::new(&basic2, die(1));
        setup.places = places
            .iter()
            .map(|seat| seat.iter().map(|name| place(name)).collect())
            .collect();
        TowerRace::from_setup(&basic2, &setup)
    };
    assert_eq!(
        with([["c4", "home", "home"], ["c4", "home", "home"]]).unwrap_err(),
        SetupError::SameSize {
            tile: tile("c4"),
            first: pyramid(0, 1),
            second: pyramid(1, 1)
        }
    );
    assert_eq!(
        with([["home", "end", "home"], ["home"; 3]]).unwrap_err(),
        SetupError::EndOrder {
            pyramid: pyramid(0, 2),
            missing: size(1)
        }
    );
    assert_eq!(
        with([["c3", "home", "home"], ["home"; 3]]).unwrap_err(),
        SetupError::OnEndTile {
            pyramid: pyramid(0, 1)
        }
    );
    assert_eq!(
        with([["g7", "home", "home"], ["home"; 3]]).unwrap_err(),
        SetupError::OffBoard {
            pyramid: pyramid(0, 1),
            tile: tile("g7")
        }
    );
    let mut setup = engine::tower_race::Setup::new(&basic2, die(1));
    setup.refused_last = SeatSet::single(seat(1));
    assert_eq!(
        TowerRace::from_setup(&basic2, &setup).unwrap_err(),
        SetupError::NoRefusals(seat(1))
    );
    let mut setup = engine::tower_race::Setup::new(&basic2, die(1));
    setup.to_move = seat(2);
    assert_eq!(
        TowerRace::from_setup(&basic2, &setup).unwrap_err(),
        SetupError::NoSuchSeat(seat(2))
    );
    let err = TowerRace::new(&config(Board::Advanced, 3), &mut MatchRng::from_seed(0)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the advanced game is played by 4 to 8 players, not 3"
    );
    // A seat with every pyramid in the End-tile has already won.
    let game = with([["end"; 3], ["home"; 3]]).unwrap();
    assert_eq!(game.outcome().unwrap().places(), &[0, 1]);
}

#[test]
fn notation_round_trips_and_errors_name_the_character() {
    let game = basic(&[&["home"; 3], &["home"; 3]], 0, 1);
    for text in ["m1", "m3", "pass", "c1x3", "wait", "accept", "refuse"] {
        assert_eq!(game.action_text(&act(&game, text)), text);
    }
    let notation = |at, expected, found| {
        TowerRaceError::Notation(NotationError {
            at,
            expected,
            found,
        })
    };
    let cases = [
        ("", notation(1, Expected::Action, None)),
        ("x", notation(1, Expected::Action, Some('x'))),
        ("m", notation(2, Expected::Size(3), None)),
        ("m4", notation(2, Expected::Size(3), Some('4'))),
        ("m0", notation(2, Expected::Size(3), Some('0'))),
        ("m12", notation(3, Expected::End, Some('2'))),
        ("c1", notation(3, Expected::Letter('x'), None)),
        ("c1y2", notation(3, Expected::Letter('x'), Some('y'))),
        ("c1x", notation(4, Expected::Size(3), None)),
        ("pas", notation(4, Expected::Letter('s'), None)),
        ("accepted", notation(7, Expected::End, Some('e'))),
        ("refuse ", notation(7, Expected::End, Some(' '))),
    ];
    for (text, expected) in cases {
        assert_eq!(TowerRaceAction::parse(text, 3), Err(expected), "{text:?}");
    }
    assert_eq!(
        TowerRaceAction::parse("m4", 4),
        Ok(TowerRaceAction::Move(size(4)))
    );
    let err = game.parse_action("c1y2").unwrap_err();
    assert_eq!(err.0, "'c1y2': character 3: expected 'x', found 'y'");
}

#[test]
fn the_catalog_names_both_versions() {
    assert_eq!(TowerRace::ID, "tower-race");
    assert_eq!(TowerRace::variants(), ["basic", "advanced"]);
    assert_eq!(TowerRace::seat_counts("basic"), 2..=4);
    assert_eq!(TowerRace::seat_counts("advanced"), 4..=8);
    assert_eq!(
        TowerRace::config("advanced", 8).unwrap(),
        config(Board::Advanced, 8)
    );
    assert!(TowerRace::config("basic", 5).is_err());
    assert!(TowerRace::config("advanced", 2).is_err());
    assert!(TowerRace::config("challenge", 2).is_err());
}

#[test]
fn every_viewer_sees_everything_including_the_rolls() {
    let mut game = landing(Board::Basic);
    let mut rng = MatchRng::from_seed(2);
    play(&mut game, 0, "m2", &mut rng);
    play(&mut game, 1, "accept", &mut rng);
    let view = game.view(Viewer::Spectator);
    assert_eq!(game.view(Viewer::Seat(seat(0))), view);
    assert_eq!(game.view(Viewer::Seat(seat(1))), view);
    assert_eq!(view.board, Board::Basic);
    assert_eq!(view.stage, game.stage());
    assert_eq!(view.last_roll, game.last_roll());
    assert_eq!(view.last_challenge.as_ref(), game.last_challenge());
    assert!(matches!(
        view.last_challenge.as_ref().map(|r| &r.answer),
        Some(Answer::Played { .. })
    ));
    assert_eq!(view.seats.len(), 2);
    assert_eq!(view.seats[1].start, tile("e1"));
    assert_eq!(view.seats[1].path.len(), 25);
    assert_eq!(view.end_tile, tile("c3"));
    assert_eq!(view.turn_limit, 2 * MAX_ROUNDS);
    let e5 = view.stacks.iter().find(|(t, _)| *t == tile("e5")).unwrap();
    assert_eq!(e5.1, stack(&game, "e5"));
}

#[test]
fn the_diagram_shows_stacks_safe_zones_and_the_last_challenge() {
    let mut game = basic(&[&["c5", "home", "home"], &["end", "end", "c5"]], 0, 1);
    let mut rng = MatchRng::from_seed(0);
    play(&mut game, 0, "m3", &mut rng);
    play(&mut game, 0, "c1x3", &mut rng);
    let text = game.diagram();
    assert!(text.contains("5  A3    .     B3+1  .     ."), "{text}");
    assert!(text.contains("c5 (bottom to top): A1 B3"), "{text}");
    assert!(
        text.contains(
            "seat 1 must answer: seat 0's pyramid 1, captured on c5, challenges seat 1's pyramid 3"
        ),
        "{text}"
    );
    let advanced = TowerRace::new(&config(Board::Advanced, 4), &mut rng).unwrap();
    let text = advanced.diagram();
    assert!(
        text.starts_with(
            "   a     b     c     d     e     f     g\n7  *     .     *     .     .     .     *\n"
        ),
        "{text}"
    );
}

#[test]
fn a_recorded_game_replays_to_the_same_state() {
    let config = config(Board::Basic, 2);
    let mut rng = MatchRng::from_seed(8);
    let mut game = TowerRace::new(&config, &mut rng).unwrap();
    let mut log = Vec::new();
    for _ in 0..40 {
        let Some(s) = game.to_act().iter().next() else {
            break;
        };
        let action = game.legal_actions(s)[0];
        game.play(s, &action, &mut rng).unwrap();
        log.push((s, action));
    }
    let (replayed, mut replayed_rng) =
        replay::<TowerRace, _>(&config, 8, log.iter().map(|(s, a)| (*s, a))).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed_rng.next_u64(), rng.next_u64());
}

#[test]
fn the_view_serialises_to_json_with_tiles_by_name_and_seats_by_number() {
    let mut game = landing(Board::Basic);
    play(&mut game, 0, "m2", &mut MatchRng::from_seed(0));
    let json = serde_json::to_value(game.view(Viewer::Spectator)).unwrap();
    assert_eq!(json["board"], "basic");
    assert_eq!(json["end_tile"], "c3");
    assert_eq!(json["seats"][1]["start"], "e1");
    assert_eq!(
        json["seats"][0]["pyramids"],
        serde_json::json!(["end", "c5", "home"])
    );
    assert_eq!(
        json["stage"],
        serde_json::json!({"answer": {
            "kind": "landing",
            "challenger": {"seat": 0, "size": 2},
            "challenged": {"seat": 1, "size": 2},
            "tile": "e5",
        }})
    );
    assert_eq!(json["last_roll"], serde_json::json!({"seat": 0, "roll": 2}));
    assert_eq!(
        serde_json::to_value(TowerRaceAction::Challenge {
            mine: size(1),
            theirs: size(3)
        })
        .unwrap(),
        "c1x3"
    );
    assert_eq!(game.render(), game.diagram());
}
