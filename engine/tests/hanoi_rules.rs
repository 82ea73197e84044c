//! Hanoi's rules, one by one, on small explicit positions (and the seed's own example from the
//! start position). The rules are stated in `docs/rules/hanoi.md`.

use engine::game::{Game, PlayError, Seat, SeatSet, Viewer};
use engine::hanoi::{
    Cell, Colour, Dir, Disc, Expected, Hanoi, HanoiAction, HanoiConfig, HanoiError, Players,
    SetupError, Size, Stack, StackingError, TURNS_PER_PLAYER,
};
use engine::notation::NotationError;
use engine::{Catalog, MatchRng};

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn disc(text: &str) -> Disc {
    Stack::parse(text).unwrap().top().unwrap()
}

fn act(text: &str) -> HanoiAction {
    HanoiAction::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position from `cell: stack` pairs, such as `("c3", "W5B4")`.
fn position(players: Players, mover: Colour, stacks: &[(&str, &str)]) -> Hanoi {
    let stacks: Vec<(Cell, Stack)> = stacks
        .iter()
        .map(|&(at, text)| (cell(at), Stack::parse(text).unwrap()))
        .collect();
    Hanoi::from_stacks(players, mover, &stacks).unwrap()
}

fn two(mover: Colour, stacks: &[(&str, &str)]) -> Hanoi {
    position(Players::Two, mover, stacks)
}

fn three(mover: Colour, stacks: &[(&str, &str)]) -> Hanoi {
    position(Players::Three, mover, stacks)
}

fn texts(actions: &[HanoiAction]) -> Vec<String> {
    actions.iter().map(HanoiAction::to_string).collect()
}

/// Plays `text` through the game contract, by the seat whose turn it is; it must be legal.
fn play(game: &mut Hanoi, text: &str) {
    let seat = game.turn().seat();
    Game::play(game, seat, &act(text), &mut MatchRng::from_seed(0))
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.diagram()));
}

/// Checks that `text` is refused with `expected`, directly and through `Game::play`, and that
/// the game is unchanged.
fn refused(game: &Hanoi, text: &str, expected: HanoiError) {
    let mut tried = game.clone();
    assert_eq!(
        tried.play_action(&act(text)),
        Err(expected.clone()),
        "{text}"
    );
    assert_eq!(&tried, game);
    let seat = game.turn().seat();
    let result = Game::play(&mut tried, seat, &act(text), &mut MatchRng::from_seed(0));
    assert_eq!(result, Err(PlayError::Illegal(expected)), "{text}");
    assert_eq!(&tried, game);
}

fn stack_text(game: &Hanoi, at: &str) -> String {
    game.stack(cell(at)).to_string()
}

fn seat(index: usize) -> Seat {
    Seat::new(index).unwrap()
}

#[test]
fn the_board_has_19_cells_named_as_on_an_abalone_board() {
    let names: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
    assert_eq!(
        names,
        [
            "a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5", "d2", "d3",
            "d4", "d5", "e3", "e4", "e5"
        ]
    );
    for c in Cell::all() {
        assert_eq!(Cell::parse(&c.to_string()), Ok(c));
    }
    for missing in ["a4", "a5", "b5", "d1", "e1", "e2"] {
        assert!(
            matches!(
                Cell::parse(missing),
                Err(HanoiError::OffBoard { at: 1, .. })
            ),
            "{missing}"
        );
    }
    let ray = |from: &str, dir: Dir| -> Vec<String> {
        cell(from).ray(dir).iter().map(|c| c.to_string()).collect()
    };
    // From a corner three lines cross the board and three leave it at once.
    assert_eq!(ray("a1", Dir::East), ["a2", "a3"]);
    assert_eq!(ray("a1", Dir::NorthEast), ["b2", "c3", "d4", "e5"]);
    assert_eq!(ray("a1", Dir::NorthWest), ["b1", "c1"]);
    for dir in [Dir::West, Dir::SouthWest, Dir::SouthEast] {
        assert!(ray("a1", dir).is_empty(), "{dir}");
    }
    // From the centre every line has two cells, and the six neighbours are all different.
    let mut neighbours: Vec<Cell> = Dir::ALL
        .iter()
        .map(|&dir| {
            assert_eq!(cell("c3").ray(dir).len(), 2, "{dir}");
            cell("c3").ray(dir)[0]
        })
        .collect();
    neighbours.sort();
    neighbours.dedup();
    assert_eq!(neighbours.len(), 6);
    assert_eq!(ray("c3", Dir::SouthEast), ["b3", "a3"]);
    assert_eq!(ray("c3", Dir::NorthWest), ["d3", "e3"]);
}

/// Every colour in play has its 15 discs, three of each size, as three full towers.
fn assert_full_sets(game: &Hanoi) {
    for &colour in game.players().colours() {
        let towers: Vec<Cell> = Cell::all()
            .filter(|&c| game.stack(c) == Stack::tower(colour))
            .collect();
        assert_eq!(towers.len(), 3, "{colour}");
    }
    let discs: usize = Cell::all().map(|c| game.stack(c).height()).sum();
    assert_eq!(discs, 15 * game.players().count());
}

#[test]
fn two_players_start_with_three_towers_each_on_alternate_corners() {
    let game = Hanoi::new(&HanoiConfig {
        players: Players::Two,
    });
    assert_full_sets(&game);
    for (at, colour) in [
        ("a1", Colour::White),
        ("c5", Colour::White),
        ("e3", Colour::White),
        ("a3", Colour::Blue),
        ("e5", Colour::Blue),
        ("c1", Colour::Blue),
    ] {
        assert_eq!(game.stack(cell(at)), Stack::tower(colour), "{at}");
    }
    assert_eq!(stack_text(&game, "a1"), "W5W4W3W2W1");
    assert_eq!(game.to_move(), Some(Colour::White));
    assert_eq!(game.to_act(), SeatSet::single(seat(0)));
    assert_eq!(
        game.diagram(),
        "              e3:W5W4W3W2W1 e4:.          e5:B5B4B3B2B1\n\
         \x20      d2:.          d3:.          d4:.          d5:.\n\
         c1:B5B4B3B2B1 c2:.          c3:.          c4:.          c5:W5W4W3W2W1\n\
         \x20      b1:.          b2:.          b3:.          b4:.\n\
         \x20             a1:W5W4W3W2W1 a2:.          a3:B5B4B3B2B1\n\
         white to move\n"
    );
    // Every white tower can move: three lines from each corner into the board.
    assert_eq!(
        texts(&game.legal_moves()),
        [
            "a1-e", "a1-ne", "a1-nw", "c5-nw", "c5-w", "c5-sw", "e3-e", "e3-sw", "e3-se"
        ]
    );
}

/// The cell a sixth of a turn anticlockwise round the centre: east goes to north-east.
fn rotated(c: Cell) -> Cell {
    Cell::new(c.diag(), c.diag() + 2 - c.row()).unwrap()
}

#[test]
fn three_players_start_alike_turned_round_the_centre() {
    let game = Hanoi::new(&HanoiConfig {
        players: Players::Three,
    });
    assert_full_sets(&game);
    assert_eq!(rotated(cell("c3")), cell("c3"));
    assert_eq!(rotated(cell("a1")), cell("a3"));
    // A third of a turn maps White's towers onto Red's, Red's onto Blue's, Blue's onto White's.
    let image = |colour| match colour {
        Colour::White => Colour::Red,
        Colour::Red => Colour::Blue,
        Colour::Blue => Colour::White,
    };
    for c in Cell::all() {
        let turned = rotated(rotated(c));
        assert_eq!(
            game.stack(c).owner().map(image),
            game.stack(turned).owner(),
            "{c} -> {turned}"
        );
    }
    let white: Vec<String> = Cell::all()
        .filter(|&c| game.stack(c).owner() == Some(Colour::White))
        .map(|c| c.to_string())
        .collect();
    assert_eq!(white, ["a1", "a2", "e5"]);
    // Two players: a sixth of a turn swaps the colours.
    let game = Hanoi::new(&HanoiConfig {
        players: Players::Two,
    });
    for c in Cell::all() {
        let other = |colour| match colour {
            Colour::White => Colour::Blue,
            _ => Colour::White,
        };
        assert_eq!(
            game.stack(c).owner().map(other),
            game.stack(rotated(c)).owner()
        );
    }
}

#[test]
fn stacks_are_n_on_n_plus_1_only() {
    assert_eq!(Stack::parse("W5B4W3").unwrap().height(), 3);
    assert_eq!(Stack::parse("B2").unwrap().owner(), Some(Colour::Blue));
    assert!(Stack::parse("").unwrap().is_empty());
    // The seed's illegal 2-on-4, and a larger disc on a smaller one.
    for (text, at, below, above) in [
        ("W4B2", 3, "W4", "B2"),
        ("W3W4", 3, "W3", "W4"),
        ("W5W4W4", 5, "W4", "W4"),
    ] {
        assert_eq!(
            Stack::parse(text),
            Err(HanoiError::Stacking {
                at,
                error: StackingError {
                    below: disc(below),
                    above: disc(above),
                },
            }),
            "{text}"
        );
    }
    assert_eq!(
        Stack::parse("W4B2").unwrap_err().to_string(),
        "character 3: B2 may not stand on W4: only an N-disc stands on an N+1-disc"
    );
    assert!(Stack::from_discs(&[disc("W4"), disc("B3"), disc("R2")]).is_ok());
    assert_eq!(Stack::tower(Colour::Red).to_string(), "R5R4R3R2R1");
}

#[test]
fn a_disc_lands_on_the_closest_exposed_disc_one_size_larger() {
    // On a1's north-east line: b2 holds a 3 under a 2 (not exposed), c3 and d4 expose 3s.
    let mut game = two(
        Colour::White,
        &[
            ("a1", "W2"),
            ("b2", "B4B3B2"),
            ("c3", "B3"),
            ("d4", "B3"),
            ("e5", "B5"),
        ],
    );
    assert_eq!(game.landing(cell("a1"), Dir::NorthEast), Some(cell("c3")));
    play(&mut game, "a1-ne");
    assert_eq!(stack_text(&game, "c3"), "B3W2");
    assert_eq!(stack_text(&game, "b2"), "B4B3B2");
    assert!(game.stack(cell("a1")).is_empty());
    let placement = game.last_placement().unwrap();
    assert_eq!(
        (
            placement.disc,
            placement.from,
            placement.to,
            placement.pinned
        ),
        (disc("W2"), cell("a1"), cell("c3"), Some(disc("B3")))
    );
    // The pinned blue 3 is now under White's control.
    assert_eq!(game.stack(cell("c3")).owner(), Some(Colour::White));
}

#[test]
fn without_such_a_disc_it_goes_to_the_furthest_empty_cell_passing_over_stacks() {
    let game = two(
        Colour::White,
        &[
            ("a1", "W2"),
            ("c3", "B5"),
            ("e5", "B1"),
            ("a2", "B4"),
            ("c1", "W5"),
        ],
    );
    // North-east: over the 5 on c3 to d4; e5 is taken, so d4 is the furthest empty cell.
    assert_eq!(game.landing(cell("a1"), Dir::NorthEast), Some(cell("d4")));
    // East: over the 4 on a2 to a3, the end of the line.
    assert_eq!(game.landing(cell("a1"), Dir::East), Some(cell("a3")));
    // North-west: b1 is empty, c1 is not.
    assert_eq!(game.landing(cell("a1"), Dir::NorthWest), Some(cell("b1")));
    let mut moved = game.clone();
    play(&mut moved, "a1-ne");
    assert_eq!(stack_text(&moved, "d4"), "W2");
    assert_eq!(moved.last_placement().unwrap().pinned, None);

    // A 5-disc has nothing to land on: it goes to the furthest empty cell, over a stack
    // topped by a 1 (c3) and past any other disc.
    let game = two(
        Colour::White,
        &[("a1", "W5"), ("c3", "B1"), ("d4", "B4"), ("a3", "B5")],
    );
    assert_eq!(game.landing(cell("a1"), Dir::NorthEast), Some(cell("e5")));
    assert_eq!(game.landing(cell("a1"), Dir::East), Some(cell("a2")));
}

#[test]
fn a_line_with_no_landing_cannot_be_chosen() {
    // East of a1: a2 and a3 are full and neither shows a 2.
    let game = two(
        Colour::White,
        &[("a1", "W1"), ("a2", "B3"), ("a3", "B4"), ("c3", "B5")],
    );
    assert_eq!(game.landing(cell("a1"), Dir::East), None);
    refused(
        &game,
        "a1-e",
        HanoiError::NoLanding {
            disc: disc("W1"),
            from: cell("a1"),
            dir: Dir::East,
        },
    );
    refused(
        &game,
        "a1-sw",
        HanoiError::OffEdge {
            from: cell("a1"),
            dir: Dir::SouthWest,
        },
    );
    assert_eq!(texts(&game.legal_moves()), ["a1-ne", "a1-nw"]);
    assert_eq!(
        HanoiError::NoLanding {
            disc: disc("W1"),
            from: cell("a1"),
            dir: Dir::East,
        }
        .to_string(),
        "W1 on a1 cannot move e: that line has no empty cell and no exposed 2-disc"
    );
    assert_eq!(
        HanoiError::NoLanding {
            disc: disc("B5"),
            from: cell("c3"),
            dir: Dir::East,
        }
        .to_string(),
        "B5 on c3 cannot move e: that line has no empty cell"
    );
}

#[test]
fn a_split_moves_every_disc_from_top_to_bottom_whatever_its_colour() {
    let mut game = two(Colour::White, &[("c3", "B4W3B2W1")]);
    assert_eq!(game.legal_moves().len(), 6);
    play(&mut game, "c3-e");
    // Still White's turn: the split goes on with the blue 2, and only from c3.
    assert_eq!(game.to_act(), SeatSet::single(Colour::White.seat()));
    assert_eq!(game.splitting(), Some(cell("c3")));
    assert!(
        game.legal_moves()
            .iter()
            .all(|a| matches!(a, HanoiAction::Move { from, .. } if *from == cell("c3")))
    );
    play(&mut game, "c3-ne");
    play(&mut game, "c3-w");
    assert_eq!(game.turns(), 0);
    play(&mut game, "c3-sw");
    // The stack is gone: the turn has passed to Blue.
    assert!(game.stack(cell("c3")).is_empty());
    assert_eq!(game.splitting(), None);
    assert_eq!(game.turn(), Colour::Blue);
    assert_eq!(game.turns(), 1);
    for (at, text) in [("c5", "W1"), ("e5", "B2"), ("c1", "W3"), ("a1", "B4")] {
        assert_eq!(stack_text(&game, at), text, "{at}");
    }
}

#[test]
fn a_split_under_way_must_go_on_with_its_own_stack() {
    let mut game = two(Colour::White, &[("c3", "W2W1"), ("a1", "W5"), ("e5", "B5")]);
    play(&mut game, "c3-w");
    refused(
        &game,
        "a1-e",
        HanoiError::SplitUnfinished {
            splitting: cell("c3"),
            from: cell("a1"),
        },
    );
    refused(&game, "pass", HanoiError::MustMove(Colour::White));
    assert_eq!(
        HanoiError::SplitUnfinished {
            splitting: cell("c3"),
            from: cell("a1"),
        }
        .to_string(),
        "the split of c3 is not finished: its next disc moves, not one from a1"
    );
}

/// White's 2-1 on a1 can be split two ways: the 1 pins the blue 2 on e5 and the 2 then takes
/// the only free cell, c1; or the 1 takes c1 and the 2 is left stuck.
fn fork() -> Hanoi {
    two(
        Colour::White,
        &[
            ("a1", "W2W1"),
            ("a2", "B5"),
            ("a3", "B4"),
            ("b1", "B5"),
            ("b2", "B4"),
            ("c3", "W5"),
            ("d4", "W4"),
            ("e5", "B3B2"),
        ],
    )
}

#[test]
fn the_turn_stops_when_the_current_disc_has_no_line() {
    let mut game = fork();
    let from_a1: Vec<String> = texts(&game.legal_moves())
        .into_iter()
        .filter(|text| text.starts_with("a1"))
        .collect();
    assert_eq!(from_a1, ["a1-ne", "a1-nw"]);
    play(&mut game, "a1-nw");
    // The white 2 left on a1 has no line: the turn is over and it stays.
    assert_eq!(game.turn(), Colour::Blue);
    assert_eq!(game.splitting(), None);
    assert_eq!(stack_text(&game, "a1"), "W2");
    assert_eq!(stack_text(&game, "c1"), "W1");
}

#[test]
fn a_turn_may_deploy_fewer_discs_and_pinning_is_not_compulsory() {
    // The other way deploys both discs; the way above deployed one without pinning.
    let mut game = fork();
    play(&mut game, "a1-ne");
    assert_eq!(stack_text(&game, "e5"), "B3B2W1");
    assert_eq!(texts(&game.legal_moves()), ["a1-nw"]);
    play(&mut game, "a1-nw");
    assert_eq!(stack_text(&game, "c1"), "W2");
    assert!(game.stack(cell("a1")).is_empty());
    assert_eq!(game.turn(), Colour::Blue);
}

#[test]
fn a_stack_belongs_to_the_owner_of_its_top_disc() {
    let game = two(
        Colour::White,
        &[("c3", "W3B2"), ("a1", "B5W4"), ("e5", "B5")],
    );
    refused(
        &game,
        "c3-e",
        HanoiError::NotYourStack {
            cell: cell("c3"),
            owner: Colour::Blue,
        },
    );
    refused(&game, "b2-e", HanoiError::NoStack(cell("b2")));
    // White controls a1, with a blue 5 pinned under its 4, and splits it blue disc and all.
    let mut moved = game.clone();
    play(&mut moved, "a1-e");
    play(&mut moved, "a1-nw");
    assert_eq!(stack_text(&moved, "a3"), "W4");
    assert_eq!(stack_text(&moved, "c1"), "B5");
    assert_eq!(moved.turn(), Colour::Blue);
    assert_eq!(
        HanoiError::NotYourStack {
            cell: cell("c3"),
            owner: Colour::Blue,
        }
        .to_string(),
        "the stack on c3 is blue's: its top disc is blue"
    );
}

#[test]
fn a_stack_whose_top_cannot_move_cannot_be_chosen() {
    // White's 1 on a1 is walled in: every line is full and shows no 2.
    let game = two(
        Colour::White,
        &[
            ("a1", "W1"),
            ("a2", "B3"),
            ("a3", "B4"),
            ("b1", "B5"),
            ("c1", "B4"),
            ("b2", "B5"),
            ("c3", "B3"),
            ("d4", "W5"),
            ("e5", "W3"),
            ("c5", "W5"),
        ],
    );
    assert!(
        game.legal_moves()
            .iter()
            .all(|a| !matches!(a, HanoiAction::Move { from, .. } if *from == cell("a1")))
    );
    for dir in Dir::ALL {
        let mut tried = game.clone();
        assert!(
            tried
                .play_action(&HanoiAction::Move {
                    from: cell("a1"),
                    dir,
                })
                .is_err()
        );
        assert_eq!(tried, game);
    }
}

#[test]
fn the_seed_example_blue_pins_a_white_2_and_a_white_5() {
    let mut game = Hanoi::new(&HanoiConfig {
        players: Players::Two,
    });
    // White scatters the a1 tower: nothing exposed is one size larger, so every disc goes to
    // the furthest empty cell of its line.
    for text in ["a1-e", "a1-ne", "a1-ne", "a1-nw", "a1-ne"] {
        play(&mut game, text);
        assert_eq!(game.last_placement().unwrap().pinned, None, "{text}");
    }
    assert_eq!(game.turn(), Colour::Blue);
    // Blue splits e5: its 1 lands on White's 2 and its 4 on White's 5.
    let mut pins = Vec::new();
    for text in ["e5-sw", "e5-w", "e5-sw", "e5-sw", "e5-se"] {
        play(&mut game, text);
        let placement = game.last_placement().unwrap();
        pins.extend(placement.pinned.map(|pinned| (placement.disc, pinned)));
    }
    assert_eq!(pins, [(disc("B1"), disc("W2")), (disc("B4"), disc("W5"))]);
    assert_eq!(stack_text(&game, "d4"), "W2B1");
    assert_eq!(stack_text(&game, "b2"), "W5B4");
    // The pinned white discs are under Blue's control.
    assert_eq!(game.stack(cell("d4")).owner(), Some(Colour::Blue));
    assert_eq!(game.turn(), Colour::White);
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_multicoloured_tower_of_five_wins_for_its_majority() {
    let mut game = two(
        Colour::White,
        &[("c3", "W5B4W3W2"), ("c1", "W1"), ("e5", "B5")],
    );
    play(&mut game, "c1-e");
    assert_eq!(stack_text(&game, "c3"), "W5B4W3W2W1");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "tower_majority");
    assert_eq!(outcome.places(), [0, 1]);
    assert_eq!(game.to_act(), SeatSet::EMPTY);
    assert!(game.legal_moves().is_empty());
    assert!(Game::legal_actions(&game, seat(1)).is_empty());
    let mut tried = game.clone();
    assert_eq!(tried.play_action(&act("e5-w")), Err(HanoiError::GameOver));
    assert_eq!(
        Game::play(
            &mut tried,
            seat(1),
            &act("e5-w"),
            &mut MatchRng::from_seed(0)
        ),
        Err(PlayError::GameOver)
    );
    assert_eq!(tried, game);
    assert!(
        game.diagram()
            .ends_with("game over (tower_majority): white wins\n")
    );
}

#[test]
fn forming_a_tower_that_is_mostly_the_opponents_loses_even_mid_split() {
    // White's 2-1 on c1: the 1 completes a tower of three blue discs, and the game ends before
    // the white 2 moves.
    let mut game = two(
        Colour::White,
        &[("c3", "B5B4W3B2"), ("c1", "W2W1"), ("e5", "B5")],
    );
    play(&mut game, "c1-e");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "tower_majority");
    assert_eq!(outcome.winners(), SeatSet::single(Colour::Blue.seat()));
    assert_eq!(stack_text(&game, "c1"), "W2");
    assert_eq!(game.splitting(), None);
}

#[test]
fn a_one_colour_tower_of_five_does_not_end_the_game() {
    let mut game = two(
        Colour::White,
        &[("c3", "W5W4W3W2"), ("c1", "W1"), ("e5", "B5")],
    );
    play(&mut game, "c1-e");
    assert_eq!(game.stack(cell("c3")), Stack::tower(Colour::White));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.turn(), Colour::Blue);
}

#[test]
fn three_players_a_2_2_1_tower_goes_to_the_minority() {
    // Blue completes White 2, Red 1, Blue 2: Red, the single disc, wins.
    let mut game = three(
        Colour::Blue,
        &[("c3", "W5R4W3B2"), ("c1", "B1"), ("e5", "R5")],
    );
    play(&mut game, "c1-e");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "tower_minority");
    assert_eq!(outcome.places(), [1, 1, 0]);

    // 3:1:1 has a majority.
    let mut game = three(
        Colour::Blue,
        &[("c3", "W5R4W3W2"), ("c1", "B1"), ("e5", "R5")],
    );
    play(&mut game, "c1-e");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "tower_majority");
    assert_eq!(outcome.places(), [0, 1, 1]);
}

#[test]
fn three_players_a_player_with_no_move_must_pass_and_only_then() {
    // White owns no stack: its discs are pinned under Blue's and Red's.
    let mut game = three(
        Colour::White,
        &[("c3", "W5B4"), ("a1", "W3R2"), ("e5", "R5")],
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(texts(&game.legal_moves()), ["pass"]);
    refused(
        &game,
        "c3-e",
        HanoiError::NotYourStack {
            cell: cell("c3"),
            owner: Colour::Blue,
        },
    );
    play(&mut game, "pass");
    assert_eq!(game.turn(), Colour::Blue);
    assert_eq!(game.turns(), 1);
    refused(&game, "pass", HanoiError::MustMove(Colour::Blue));
    assert!(!game.legal_moves().contains(&HanoiAction::Pass));
    assert_eq!(
        HanoiError::MustMove(Colour::Blue).to_string(),
        "blue has a move, so may not pass"
    );
}

#[test]
fn two_players_a_player_with_no_move_loses() {
    // Blue's only stack is the 2 on c3; White's 1 pins it and Blue is left with nothing.
    let mut game = two(Colour::White, &[("c3", "B2"), ("c1", "W1"), ("a1", "W5")]);
    assert!(!game.legal_moves().contains(&HanoiAction::Pass));
    refused(&game, "pass", HanoiError::MustMove(Colour::White));
    play(&mut game, "c1-e");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "no_moves");
    assert_eq!(outcome.winners(), SeatSet::single(Colour::White.seat()));
    // A set-up position is judged at once.
    let game = two(Colour::Blue, &[("c3", "B2W1"), ("a1", "W5")]);
    assert_eq!(game.outcome().map(|o| o.reason()), Some("no_moves"));
}

#[test]
fn a_game_that_cannot_end_is_drawn_at_the_turn_limit() {
    // Lone 5-discs can never build a tower; they wander for ever.
    for players in [Players::Two, Players::Three] {
        let stacks: &[(&str, &str)] = match players {
            Players::Two => &[("a1", "W5"), ("e5", "B5")],
            Players::Three => &[("a1", "W5"), ("e5", "B5"), ("c1", "R5")],
        };
        let mut game = position(players, Colour::White, stacks);
        let limit = TURNS_PER_PLAYER * players.count() as u32;
        assert_eq!(players.turn_limit(), limit);
        while game.turns() + 1 < limit {
            let first = game.legal_moves()[0];
            game.play_action(&first).unwrap();
            assert_eq!(game.outcome(), None);
        }
        let first = game.legal_moves()[0];
        game.play_action(&first).unwrap();
        assert_eq!(game.turns(), limit);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.reason(), "turn_limit");
        assert!(outcome.is_draw());
        assert_eq!(outcome.places().len(), players.count());
    }
}

#[test]
fn actions_are_written_as_cell_and_direction() {
    let actions = [
        (
            "c3-e",
            HanoiAction::Move {
                from: cell("c3"),
                dir: Dir::East,
            },
        ),
        (
            "a1-ne",
            HanoiAction::Move {
                from: cell("a1"),
                dir: Dir::NorthEast,
            },
        ),
        (
            "e5-sw",
            HanoiAction::Move {
                from: cell("e5"),
                dir: Dir::SouthWest,
            },
        ),
        (
            "b2-se",
            HanoiAction::Move {
                from: cell("b2"),
                dir: Dir::SouthEast,
            },
        ),
        (
            "d4-nw",
            HanoiAction::Move {
                from: cell("d4"),
                dir: Dir::NorthWest,
            },
        ),
        (
            "c5-w",
            HanoiAction::Move {
                from: cell("c5"),
                dir: Dir::West,
            },
        ),
        ("pass", HanoiAction::Pass),
    ];
    for (text, action) in actions {
        assert_eq!(act(text), action);
        assert_eq!(action.to_string(), text);
    }
}

#[test]
fn notation_errors_name_the_character() {
    let notation = |at, expected, found| {
        HanoiError::Notation(NotationError {
            at,
            expected,
            found,
        })
    };
    let cases = [
        ("", notation(1, Expected::Row, None)),
        ("f1-e", notation(1, Expected::Row, Some('f'))),
        ("c", notation(2, Expected::Diagonal, None)),
        ("c6-e", notation(2, Expected::Diagonal, Some('6'))),
        ("c3e", notation(3, Expected::Dash, Some('e'))),
        ("c3-", notation(4, Expected::Direction, None)),
        ("c3-x", notation(4, Expected::Direction, Some('x'))),
        ("c3-n", notation(5, Expected::EastOrWest, None)),
        ("c3-sx", notation(5, Expected::EastOrWest, Some('x'))),
        ("c3-ne ", notation(6, Expected::End, Some(' '))),
        ("pas", notation(4, Expected::Pass, None)),
        ("pasta", notation(4, Expected::Pass, Some('t'))),
        ("passe", notation(5, Expected::End, Some('e'))),
        (
            "a4-e",
            HanoiError::OffBoard {
                at: 1,
                row: 'a',
                diag: '4',
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(HanoiAction::parse(text), Err(expected), "{text:?}");
    }
    assert_eq!(
        HanoiAction::parse("c3-n").unwrap_err().to_string(),
        "character 5: expected 'e' or 'w', found the end of the text"
    );
    assert_eq!(
        HanoiAction::parse("a4-e").unwrap_err().to_string(),
        "character 1: a4 is not a cell of the board"
    );
    for (text, expected) in [
        ("X5", notation(1, Expected::Colour, Some('X'))),
        ("W6", notation(2, Expected::Size, Some('6'))),
        ("W5B", notation(4, Expected::Size, None)),
    ] {
        assert_eq!(Stack::parse(text), Err(expected), "{text:?}");
    }
    let hanoi = Hanoi::new(&HanoiConfig {
        players: Players::Two,
    });
    let err = hanoi.parse_action("c3-q").unwrap_err();
    assert_eq!(
        err.0,
        "'c3-q': character 4: expected a direction (e, ne, nw, w, sw, se), found 'q'"
    );
}

#[test]
fn out_of_turn_and_missing_seats_are_refused() {
    let game = Hanoi::new(&HanoiConfig {
        players: Players::Two,
    });
    let mut tried = game.clone();
    let mut rng = MatchRng::from_seed(0);
    assert!(Game::legal_actions(&game, seat(1)).is_empty());
    assert_eq!(
        tried.play(seat(1), &act("a3-nw"), &mut rng),
        Err(PlayError::NotYourTurn(seat(1)))
    );
    assert_eq!(
        tried.play(seat(2), &act("a1-ne"), &mut rng),
        Err(PlayError::NoSuchSeat(seat(2)))
    );
    assert_eq!(tried, game);
    let three = Hanoi::new(&HanoiConfig {
        players: Players::Three,
    });
    assert_eq!(three.seat_count(), 3);
    let mut tried = three.clone();
    assert_eq!(
        tried.play(seat(3), &act("a1-ne"), &mut rng),
        Err(PlayError::NoSuchSeat(seat(3)))
    );
    assert_eq!(Colour::of_seat(seat(2)), Some(Colour::Red));
    assert_eq!(Colour::of_seat(seat(3)), None);
}

#[test]
fn turns_go_white_blue_red() {
    let mut game = Hanoi::new(&HanoiConfig {
        players: Players::Three,
    });
    let mut seen = Vec::new();
    while seen.len() < 4 {
        let mover = game.turn();
        let first = game.legal_moves()[0];
        game.play_action(&first).unwrap();
        if game.turn() != mover {
            seen.push(mover);
        }
    }
    assert_eq!(
        seen,
        [Colour::White, Colour::Blue, Colour::Red, Colour::White]
    );
}

#[test]
fn setups_are_checked() {
    let c3 = cell("c3");
    let stack = |text: &str| Stack::parse(text).unwrap();
    assert_eq!(
        Hanoi::from_stacks(
            Players::Two,
            Colour::White,
            &[(c3, stack("W1")), (c3, stack("B1"))]
        ),
        Err(SetupError::CellTwice(c3))
    );
    assert_eq!(
        Hanoi::from_stacks(Players::Two, Colour::White, &[(c3, stack("W5R4"))]),
        Err(SetupError::ColourNotInGame(Colour::Red))
    );
    assert_eq!(
        Hanoi::from_stacks(Players::Two, Colour::Red, &[(c3, stack("W5"))]),
        Err(SetupError::ColourNotInGame(Colour::Red))
    );
    let fives: Vec<(Cell, Stack)> = ["a1", "a2", "a3", "b1"]
        .iter()
        .map(|&at| (cell(at), stack("W5")))
        .collect();
    let err = Hanoi::from_stacks(Players::Two, Colour::White, &fives).unwrap_err();
    assert_eq!(
        err,
        SetupError::TooManyDiscs {
            colour: Colour::White,
            size: Size::LARGEST,
        }
    );
    assert_eq!(err.to_string(), "white has more than 3 discs of size 5");
}

#[test]
fn the_catalog_names_one_variant_for_two_or_three() {
    assert_eq!(Hanoi::ID, "hanoi");
    assert_eq!(Hanoi::variants(), ["standard"]);
    assert_eq!(Hanoi::seat_counts("standard"), 2..=3);
    assert_eq!(
        Hanoi::config("standard", 3).unwrap(),
        HanoiConfig {
            players: Players::Three,
        }
    );
    assert_eq!(
        Hanoi::config("standard", 4).unwrap_err().0,
        "hanoi standard is played by 2 to 3 players, not 4"
    );
    assert!(Hanoi::config("three-player", 3).is_err());
    let game = Hanoi::new(&Hanoi::config("standard", 2).unwrap());
    assert_eq!(game.render(), game.diagram());
    for action in game.legal_moves() {
        let text = game.action_text(&action);
        assert_eq!(game.parse_action(&text), Ok(action));
    }
}

#[test]
fn every_viewer_sees_the_same_public_state() {
    let mut game = Hanoi::new(&HanoiConfig {
        players: Players::Three,
    });
    play(&mut game, "a1-ne");
    let view = game.view(Viewer::Spectator);
    for index in 0..3 {
        assert_eq!(game.view(Viewer::Seat(seat(index))), view);
    }
    assert_eq!(view.splitting, Some(cell("a1")));
    assert_eq!(view.to_move, Some(Colour::White));
    assert_eq!(view.turns, 0);
    assert_eq!(view.stacks.len(), 10);
    let placement = view.last_placement.unwrap();
    assert_eq!((placement.disc, placement.to), (disc("W1"), cell("d4")));
    assert!(game.diagram().ends_with("white is splitting a1\n"));
    // Cells, directions and discs serialise in a form a client can read directly.
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["splitting"], "a1");
    assert_eq!(json["last_placement"]["dir"], "ne");
    assert_eq!(json["stacks"][0][0], "a1");
    assert_eq!(json["stacks"][0][1][0]["colour"], "white");
    assert_eq!(json["stacks"][0][1][0]["size"], 5);
}
