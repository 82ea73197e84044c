//! Every rule of Mr Driller on small explicit positions.
//!
//! Pictures show the lowest rows of the board, one line per row, row 24 last (the rows above
//! are empty): `.` empty, `R G Y B` blocks, `0` and `1` the tokens of seats 0 and 1.

use engine::driller::{
    COLUMNS, Colour, Dir, Driller, DrillerConfig, DrillerError, Expected, MAX_ROUNDS, Move, ROWS,
    START_SQUARES, SetupError, Square,
};
use engine::game::{Game, PlayError, Seat, SeatSet, Viewer};
use engine::notation::NotationError;
use engine::{Catalog, MatchRng};

fn seat(index: usize) -> Seat {
    Seat::new(index).unwrap()
}

/// The square named like `d1`: column letter, then row number from the top.
fn sq(name: &str) -> Square {
    let column = name.as_bytes()[0] - b'a';
    let row: u8 = name[1..].parse().unwrap();
    Square::new(column, row - 1).unwrap()
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn position(picture: &str) -> Driller {
    Driller::from_picture(picture).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays one round: seat 0's move, then seat 1's.
fn round(game: &mut Driller, first: &str, second: &str, rng: &mut MatchRng) {
    game.play(seat(0), &mv(first), rng)
        .unwrap_or_else(|e| panic!("seat 0 {first}: {e}"));
    game.play(seat(1), &mv(second), rng)
        .unwrap_or_else(|e| panic!("seat 1 {second}: {e}"));
}

/// The lowest `rows` rows of the game's diagram, as a picture.
fn lowest(game: &Driller, rows: usize) -> String {
    let diagram = game.diagram();
    let lines: Vec<String> = diagram
        .lines()
        .skip(1 + usize::from(ROWS) - rows)
        .map(|line| line[2..].split_whitespace().collect())
        .collect();
    lines.join("\n")
}

/// Trims the indentation of a picture written in the test.
fn picture(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

#[test]
fn the_preparation_packs_the_board_and_places_the_tokens() {
    for seed in 0..100 {
        let game = Driller::new(&DrillerConfig, &mut MatchRng::from_seed(seed));
        assert_eq!(game.unsupported(), None, "seed {seed}");
        assert_eq!(game.rounds(), 0);
        assert_eq!(game.to_act(), SeatSet::first(2));
        let blocks: u32 = Colour::ALL.iter().map(|&c| game.board().count(c)).sum();
        // 286 squares are free of the start squares; a few stay empty where nothing fitted.
        assert!(blocks >= 270, "seed {seed}: only {blocks} blocks");
        for colour in Colour::ALL {
            assert!(game.board().count(colour) <= 72, "seed {seed}: {colour}");
        }
        for (token, start) in game.tokens().iter().zip(START_SQUARES) {
            // On the marked square, or dropped straight down onto the first block below.
            let square = token.square();
            assert_eq!(square.column(), start.column(), "seed {seed}");
            for row in 0..square.row() {
                let above = Square::new(square.column(), row).unwrap();
                assert_eq!(game.board().at(above), None, "seed {seed}: {above}");
            }
        }
    }
    assert_eq!(START_SQUARES, [sq("d1"), sq("i1")]);
}

#[test]
fn the_board_is_drawn_from_the_match_rng() {
    let board = |seed| *Driller::new(&DrillerConfig, &mut MatchRng::from_seed(seed)).board();
    assert_eq!(board(5), board(5));
    assert_ne!(board(5), board(6));
    // Pinned, so that a stored match keeps replaying on the board it was played on.
    let game = Driller::new(&DrillerConfig, &mut MatchRng::from_seed(1));
    let top: Vec<String> = (0..4).map(|row| game.board().row_text(row)).collect();
    let bottom = game.board().row_text(ROWS - 1);
    assert_eq!(
        top,
        [
            "GG...BGG.B..",
            "G.BGGBGGGBRR",
            "GGBG.YYBBBRR",
            "BYYYYYRRYYYR"
        ]
    );
    assert_eq!(bottom, "RBYYYRBYYGGB");
}

#[test]
fn both_seats_choose_at_once_and_a_held_move_stays_secret() {
    let picture = "
        ..0......1..
        BBBBBBBBBBBB
        BBBBBBBBBBBB";
    let mut rng = MatchRng::from_seed(0);
    let mut game = position(picture);
    assert_eq!(game.to_act(), SeatSet::first(2));
    let before = game.view(Viewer::Seat(seat(0)));

    game.play(seat(1), &mv("L"), &mut rng).unwrap();
    assert_eq!(game.to_act(), SeatSet::single(seat(0)));
    assert!(game.legal_actions(seat(1)).is_empty());
    assert_eq!(
        game.play(seat(1), &mv("R"), &mut rng),
        Err(PlayError::NotYourTurn(seat(1)))
    );
    assert_eq!(game.view(Viewer::Seat(seat(1))).own_move, Some(mv("L")));
    // The other seat and spectators see only that seat 1 has chosen, not what.
    let other = game.view(Viewer::Seat(seat(0)));
    assert_eq!(other.own_move, None);
    assert_eq!(other.chosen, [false, true]);
    assert_eq!(game.view(Viewer::Spectator).own_move, None);
    let mut alternative = position(picture);
    alternative.play(seat(1), &mv("DD"), &mut rng).unwrap();
    assert_eq!(alternative.view(Viewer::Seat(seat(0))), other);
    assert_eq!(
        alternative.view(Viewer::Spectator),
        game.view(Viewer::Spectator)
    );
    assert_eq!(
        other.board, before.board,
        "nothing moves before the round resolves"
    );

    // The second choice resolves the round in the same call.
    game.play(seat(0), &mv("R"), &mut rng).unwrap();
    assert_eq!(game.rounds(), 1);
    assert_eq!(game.to_act(), SeatSet::first(2));
    assert_eq!(game.tokens().map(|t| t.square()), [sq("d22"), sq("i22")]);
    let report = game.view(Viewer::Spectator).last_round.unwrap();
    assert_eq!(report.moves, [mv("R"), mv("L")]);
    assert_eq!(report.dispute, None);
}

#[test]
fn a_move_is_one_to_three_steps_on_the_board_never_entering_a_square_twice() {
    let game = position(
        "
        .....0......
        BBBBBBBBBBBB
        BBBBBBBBBBBB
        BBBBBBBBBBB1
        BBBBBBBBBBBB",
    );
    // In the open: 4 one-step moves, 4 x 3 two-step moves, 4 x 3 x 3 three-step moves.
    assert_eq!(game.legal_moves(seat(0)).len(), 4 + 12 + 36);
    let moves = game.legal_moves(seat(1));
    for listed in ["U", "D", "L", "UL", "DL", "LU", "LUU", "ULD"] {
        assert!(moves.contains(&mv(listed)), "{listed}");
    }
    for missing in ["R", "DD", "UD", "LR", "URDL"] {
        assert!(!moves.iter().any(|m| m.to_string() == missing), "{missing}");
    }
    let cases = [
        (
            "R",
            DrillerError::OffBoard {
                step: 1,
                from: sq("l23"),
                dir: Dir::Right,
            },
        ),
        (
            "DD",
            DrillerError::OffBoard {
                step: 2,
                from: sq("l24"),
                dir: Dir::Down,
            },
        ),
        (
            "UD",
            DrillerError::Revisit {
                step: 2,
                square: sq("l23"),
            },
        ),
        (
            "ULR",
            DrillerError::Revisit {
                step: 3,
                square: sq("l22"),
            },
        ),
    ];
    let mut rng = MatchRng::from_seed(0);
    for (text, expected) in cases {
        let mut tried = game.clone();
        assert_eq!(
            tried.play(seat(1), &mv(text), &mut rng),
            Err(PlayError::Illegal(expected.clone())),
            "{text}"
        );
        assert_eq!(tried, game, "{text}");
    }
    assert_eq!(
        DrillerError::Revisit {
            step: 3,
            square: sq("l22")
        }
        .to_string(),
        "step 3 enters l22, which the move has already visited"
    );
    assert_eq!(
        DrillerError::OffBoard {
            step: 1,
            from: sq("l23"),
            dir: Dir::Right
        }
        .to_string(),
        "step 1 goes right from l23, off the board"
    );
    assert_eq!(Move::new(&[]), Err(DrillerError::StepCount(0)));
    assert_eq!(Move::new(&[Dir::Up; 4]), Err(DrillerError::StepCount(4)));
}

#[test]
fn drilling_takes_out_the_whole_piece_of_every_square_entered() {
    let mut game = position(
        "
        0...........
        GGGY........
        YYGY......1.
        YYGGBBBBBBBB
        RRRRRRRRRRRR",
    );
    let mut rng = MatchRng::from_seed(0);
    // a21 belongs to the six green blocks a21-c21, c22, c23, d23: all go. The yellow pair on
    // d21-d22 rested on d23 and drops one row; the other yellows stay.
    assert_eq!(game.board().piece_size(sq("a21")), 6);
    round(&mut game, "D", "L", &mut rng);
    assert_eq!(
        lowest(&game, 5),
        picture(
            "
            ............
            0...........
            YY.Y.....1..
            YY.YBBBBBBBB
            RRRRRRRRRRRR"
        )
    );
    // Entering a22 takes the whole yellow square a22-b23; the driller then drops into it.
    round(&mut game, "DR", "U", &mut rng);
    assert_eq!(game.board().at(sq("a22")), None);
    assert_eq!(game.board().at(sq("b23")), None);
    assert_eq!(game.tokens()[0].square(), sq("b23"));
}

#[test]
fn a_piece_stands_on_any_of_its_blocks_and_falls_as_one() {
    let mut game = position(
        "
        ....RRR.....
        ....G.Y.....
        ...0G.YY.1..
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    // Without the green below its left end, the red bar still rests on the yellow.
    round(&mut game, "R", "L", &mut rng);
    assert_eq!(
        lowest(&game, 4),
        picture(
            "
            ....RRR.....
            ......Y.....
            ....0.YY1...
            BBBBBBBBBBBB"
        )
    );
    // Drilling the yellow at h23 takes g22-g23 with it, and the red bar falls whole.
    round(&mut game, "L", "L", &mut rng);
    assert_eq!(
        lowest(&game, 4),
        picture(
            "
            ............
            ............
            ...0RRR1....
            BBBBBBBBBBBB"
        )
    );
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_falling_piece_joins_one_of_its_colour_and_a_join_of_four_stays() {
    let mut game = position(
        "
        .....G......
        .....G......
        ....GRRR0...
        ....GBBBB.1.
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    // The green pair falls one row, touches the green pair on e22-e23 and sticks to it: four
    // blocks, so the piece stays, hanging on by its side.
    round(&mut game, "L", "L", &mut rng);
    assert_eq!(
        lowest(&game, 5),
        picture(
            "
            ............
            .....G......
            ....GG.0....
            ....GBBBB1..
            BBBBBBBBBBBB"
        )
    );
    assert_eq!(game.board().piece_size(sq("f21")), 4);
    assert_eq!(game.unsupported(), None);
}

#[test]
fn a_join_of_more_than_four_blocks_vanishes_and_what_it_held_falls() {
    let mut game = position(
        "
        .....Y......
        .....G......
        .....G......
        .....RR0....
        ....GGGB..1.
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    // The green pair drops onto the green bar: five blocks, removed. The yellow that rode on
    // the pair and the driller that stood on the bar fall on.
    round(&mut game, "L", "L", &mut rng);
    assert_eq!(
        lowest(&game, 6),
        picture(
            "
            ............
            ............
            ............
            ............
            .....Y0B.1..
            BBBBBBBBBBBB"
        )
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(game.board().count(Colour::Green), 0);
}

#[test]
fn pieces_laid_together_at_the_start_stay_whatever_their_size() {
    let mut game = position(
        "
        ..........0.
        GGGGGGGG..B.
        BBBBBBBBBBB1
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    assert_eq!(game.board().piece_size(sq("a22")), 8);
    round(&mut game, "U", "U", &mut rng);
    assert_eq!(game.board().piece_size(sq("a22")), 8);
}

#[test]
fn a_block_falling_onto_a_driller_crushes_it_and_the_other_wins() {
    let mut game = position(
        "
        ......RR....
        ......Y.....
        ......Y.0.1.
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "LL", "L", &mut rng);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "crushed");
    assert_eq!(outcome.places(), &[1, 0]);
    assert!(game.tokens()[0].is_crushed());
    assert_eq!(game.board().at(sq("g23")), Some(Colour::Red));
    assert_eq!(game.to_act(), SeatSet::EMPTY);
    assert_eq!(
        game.play(seat(0), &mv("U"), &mut rng),
        Err(PlayError::GameOver)
    );
    assert_eq!(
        game.clone().choose(seat(0), &mv("U"), &mut rng),
        Err(DrillerError::GameOver)
    );
    assert!(
        !lowest(&game, 2).contains('0'),
        "a crushed token is not drawn"
    );
}

#[test]
fn both_crushed_at_the_same_moment_is_a_draw() {
    let mut game = position(
        "
        ..RR....RR..
        ..Y......Y..
        ..Y.0..1.Y..
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "LL", "RR", &mut rng);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "crushed_together");
    assert!(outcome.is_draw());
}

#[test]
fn a_driller_that_falls_without_a_block_on_it_lives() {
    let mut game = position(
        "
        ..0.........
        ..GG........
        ...G......1.
        ...GBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    // The green piece c22-d24 goes; the driller drops two rows to the bottom edge.
    round(&mut game, "D", "L", &mut rng);
    assert_eq!(game.tokens()[0].square(), sq("c24"));
    assert_eq!(game.outcome().unwrap().reason(), "reached_bottom");
    assert_eq!(game.outcome().unwrap().places(), &[0, 1]);
}

#[test]
fn reaching_the_bottom_by_a_move_wins() {
    let mut game = position(
        "
        0.......1...
        B.......B...
        RRRRRRYYYYYY",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "DD", "R", &mut rng);
    assert_eq!(game.tokens()[1].square(), sq("j23"));
    assert_eq!(game.outcome().unwrap().reason(), "reached_bottom");
    assert_eq!(game.outcome().unwrap().winners(), SeatSet::single(seat(0)));
}

#[test]
fn the_first_to_reach_the_bottom_wins_even_within_one_round() {
    // Seat 1 arrives at step 2 of its move; seat 0 only by falling afterwards.
    let mut game = position(
        "
        ..0.........
        ..GG......1.
        ...G......B.
        ...GBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "D", "DD", &mut rng);
    assert_eq!(game.tokens()[0].square(), sq("c24"));
    assert_eq!(game.outcome().unwrap().reason(), "reached_bottom");
    assert_eq!(game.outcome().unwrap().winners(), SeatSet::single(seat(1)));

    // Step 1 comes before step 2.
    let mut game = position(
        "
        ..........1.
        ..0.......B.
        BBBBBBBBBBBB",
    );
    round(&mut game, "D", "DD", &mut rng);
    assert_eq!(game.outcome().unwrap().winners(), SeatSet::single(seat(0)));
}

#[test]
fn reaching_the_bottom_at_the_same_moment_is_a_draw() {
    let mut game = position(
        "
        ..0.......1.
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "D", "D", &mut rng);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "reached_bottom_together");
    assert!(outcome.is_draw());
}

#[test]
fn a_block_falling_on_a_driller_after_it_reached_the_bottom_changes_nothing() {
    let mut game = position(
        "
        .R..........
        0B........1.
        YY.......BBB",
    );
    let mut rng = MatchRng::from_seed(0);
    // a24 at step 1 wins; the blue block that then falls onto b24 crushes the token too late.
    round(&mut game, "DR", "L", &mut rng);
    assert!(game.tokens()[0].is_crushed());
    assert_eq!(game.outcome().unwrap().reason(), "reached_bottom");
    assert_eq!(game.outcome().unwrap().winners(), SeatSet::single(seat(0)));
}

#[test]
fn a_dispute_is_settled_by_the_match_rng_and_the_loser_stops_one_square_short() {
    let picture = "
        .0...1......
        BYYYYYBBBBBB
        BBBBBBBBBBBB";
    let mut winners = [0; 2];
    for seed in 0..40 {
        let mut game = position(picture);
        let mut rng = MatchRng::from_seed(seed);
        // The dispute is the round's only draw from the match RNG.
        let expected = MatchRng::from_seed(seed).below(2) as usize;
        round(&mut game, "DRR", "DLL", &mut rng);
        let dispute = game.last_round().unwrap().dispute.unwrap();
        assert_eq!(dispute.square, sq("d23"));
        assert_eq!(dispute.winner, seat(expected));
        winners[expected] += 1;
        let short = [sq("c23"), sq("e23")];
        let squares = game.tokens().map(|t| t.square());
        assert_eq!(squares[expected], sq("d23"), "seed {seed}");
        assert_eq!(squares[1 - expected], short[1 - expected], "seed {seed}");
        // The whole yellow piece went with the first square either driller entered.
        assert_eq!(game.board().count(Colour::Yellow), 0);
    }
    assert!(winners[0] > 5 && winners[1] > 5, "{winners:?}");
}

#[test]
fn a_one_step_loser_stays_where_it_was_and_crossing_paths_are_no_dispute() {
    let picture = "
        ..0.1.......
        BBBBBBBBBBBB";
    let mut game = position(picture);
    let mut rng = MatchRng::from_seed(3);
    let expected = MatchRng::from_seed(3).below(2) as usize;
    round(&mut game, "R", "L", &mut rng);
    let squares = game.tokens().map(|t| t.square());
    assert_eq!(squares[expected], sq("d23"));
    assert_eq!(squares[1 - expected], [sq("c23"), sq("e23")][1 - expected]);

    // Swapping squares, the drillers pass each other.
    let mut game = position(
        "
        ..01........
        BBBBBBBBBBBB",
    );
    round(&mut game, "R", "L", &mut rng);
    assert_eq!(game.tokens().map(|t| t.square()), [sq("d23"), sq("c23")]);
    assert_eq!(game.last_round().unwrap().dispute, None);
}

#[test]
fn a_driller_may_stand_on_the_other() {
    let picture = "
        ..0.........
        ..GG........
        ..1B........
        BBBBBBBBBBBB";
    for seed in 0..8 {
        let mut game = position(picture);
        let mut rng = MatchRng::from_seed(seed);
        // Both want c22. If seat 0 gets it, it drills the green and stands on seat 1; if seat
        // 1 gets it, seat 1 falls back to c23 and seat 0, left on c21, falls with it onto it.
        round(&mut game, "D", "U", &mut rng);
        assert!(game.last_round().unwrap().dispute.is_some());
        assert_eq!(game.tokens().map(|t| t.square()), [sq("c22"), sq("c23")]);
        assert_eq!(game.unsupported(), None);
        assert_eq!(game.outcome(), None);
    }
}

#[test]
fn after_the_round_limit_the_deeper_driller_wins() {
    let mut rng = MatchRng::from_seed(0);
    let mut game = position(
        "
        0...........
        BBBB......1.
        BBBBBBBBBBBB",
    );
    for round_number in 0..MAX_ROUNDS {
        assert_eq!(game.outcome(), None, "round {round_number}");
        let (first, second) = if round_number % 2 == 0 {
            ("R", "L")
        } else {
            ("L", "R")
        };
        round(&mut game, first, second, &mut rng);
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "round_limit");
    assert_eq!(outcome.winners(), SeatSet::single(seat(1)));

    let mut game = position(
        "
        0.........1.
        BBBBBBBBBBBB",
    );
    for round_number in 0..MAX_ROUNDS {
        let (first, second) = if round_number % 2 == 0 {
            ("R", "L")
        } else {
            ("L", "R")
        };
        round(&mut game, first, second, &mut rng);
    }
    assert_eq!(game.rounds(), MAX_ROUNDS);
    assert!(game.outcome().unwrap().is_draw());
    assert_eq!(game.outcome().unwrap().reason(), "round_limit");
}

#[test]
fn pictures_are_checked() {
    let cases = [
        (
            "0...........\n..........1",
            SetupError::RowWidth { row: 24, width: 11 },
        ),
        (
            "0....X.....1\nBBBBBBBBBBBB",
            SetupError::UnknownMark {
                square: sq("f23"),
                found: 'X',
            },
        ),
        (
            "0..........0\nBBBBBBBBBBBB",
            SetupError::TokenTwice(seat(0)),
        ),
        (
            "0...........\nBBBBBBBBBBBB",
            SetupError::TokenMissing(seat(1)),
        ),
        (
            "0....R.....1\nBBBBB.BBBBBB",
            SetupError::Unsupported(sq("f23")),
        ),
        (
            "0....1......\nBBBBB.BBBBBB",
            SetupError::Unsupported(sq("f23")),
        ),
        (
            "1...........\n0BBBBBBBBBBB",
            SetupError::TokenOnBottom(seat(0)),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(Driller::from_picture(text), Err(expected), "{text}");
    }
    let too_tall = "............\n".repeat(25);
    assert_eq!(
        Driller::from_picture(&too_tall),
        Err(SetupError::TooManyRows(25))
    );
    assert_eq!(
        SetupError::Unsupported(sq("f23")).to_string(),
        "f23 has nothing under it and would fall"
    );
}

#[test]
fn notation_round_trips_and_errors_name_the_character() {
    for text in ["U", "DDL", "RRR", "LU"] {
        assert_eq!(mv(text).to_string(), text);
    }
    assert_eq!(mv("dl"), mv("DL"));
    let notation = |at, expected, found| {
        DrillerError::Notation(NotationError {
            at,
            expected,
            found,
        })
    };
    let cases = [
        ("", notation(1, Expected::Direction, None)),
        ("X", notation(1, Expected::Direction, Some('X'))),
        ("DD ", notation(3, Expected::Direction, Some(' '))),
        ("DDDD", notation(4, Expected::End, Some('D'))),
    ];
    for (text, expected) in cases {
        assert_eq!(Move::parse(text), Err(expected), "{text:?}");
    }
    assert_eq!(
        Move::parse("DxD").unwrap_err().to_string(),
        "character 2: expected a direction U, D, L or R, found 'x'"
    );
}

#[test]
fn the_catalog_names_one_variant_for_two_seats() {
    assert_eq!(Driller::ID, "driller");
    assert_eq!(Driller::variants(), ["standard"]);
    assert_eq!(Driller::seat_counts("standard"), 2..=2);
    assert!(Driller::config("standard", 2).is_ok());
    assert!(Driller::config("standard", 3).is_err());
    assert!(Driller::config("arcade", 2).is_err());
    let game = Driller::new(&DrillerConfig, &mut MatchRng::from_seed(0));
    assert!(game.hides_actions());
    assert_eq!(game.parse_action("drl"), Ok(mv("DRL")));
    assert_eq!(game.action_text(&mv("DRL")), "DRL");
    let err = game.parse_action("D4").unwrap_err();
    assert!(err.0.contains("character 2"), "{err}");
    for action in game.legal_actions(seat(0)) {
        assert_eq!(game.parse_action(&game.action_text(&action)), Ok(action));
    }
    let rendered = game.render();
    assert_eq!(rendered.lines().count(), usize::from(ROWS) + 1);
    assert!(rendered.starts_with("   a b c d e f g h i j k l\n 1 "));
    assert_eq!(game.seat_count(), 2);
    assert_eq!(usize::from(COLUMNS), 12);
}

#[test]
fn a_direct_apply_by_a_seat_that_may_not_act_is_refused() {
    let mut game = position(
        "
        ..0.1.......
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    let third = seat(2);
    assert_eq!(
        game.apply(third, &mv("U"), &mut rng),
        Err(DrillerError::NoSuchSeat(third))
    );
    game.apply(seat(0), &mv("U"), &mut rng).unwrap();
    let held = game.clone();
    assert_eq!(
        game.apply(seat(0), &mv("L"), &mut rng),
        Err(DrillerError::AlreadyChosen(seat(0)))
    );
    assert_eq!(game, held);
}

#[test]
fn the_view_serialises_in_notation() {
    let mut game = position(
        "
        ..0.1.......
        BBBBBBBBBBBB",
    );
    let mut rng = MatchRng::from_seed(0);
    round(&mut game, "U", "R", &mut rng);
    let json = serde_json::to_value(game.view(Viewer::Seat(seat(0)))).unwrap();
    assert_eq!(json["board"][23], "BBBBBBBBBBBB");
    assert_eq!(json["board"][0], "............");
    assert_eq!(json["tokens"][1]["square"], "f23");
    assert_eq!(json["tokens"][1]["crushed"], false);
    assert_eq!(json["last_round"]["moves"][0], "U");
    assert_eq!(json["chosen"][0], false);
    assert!(json["own_move"].is_null());
}

#[test]
fn determinize_keeps_the_viewers_view_and_draws_the_others_held_move_again() {
    let mut rng = MatchRng::from_seed(3);
    let mut game = Driller::new(&DrillerConfig, &mut rng);
    game.play(seat(1), &mv("D"), &mut rng).unwrap();
    let mut others = std::collections::HashSet::new();
    for seed in 0..20 {
        for viewer in [seat(0), seat(1)] {
            let sample = game.determinize(viewer, &mut MatchRng::from_seed(seed));
            for look in [Viewer::Seat(viewer), Viewer::Spectator] {
                assert_eq!(sample.view(look), game.view(look));
            }
            if viewer == seat(0) {
                let held = sample.view(Viewer::Seat(seat(1))).own_move.unwrap();
                others.insert(held.to_string());
            }
        }
    }
    // Seat 1 keeps its own move; seat 0 samples many.
    assert!(others.len() > 5, "{others:?}");
    // The same draws give the same sample whatever seat 1 really chose.
    let mut twin = Driller::new(&DrillerConfig, &mut MatchRng::from_seed(3));
    twin.play(seat(1), &mv("L"), &mut rng).unwrap();
    assert_ne!(twin, game);
    assert_eq!(
        twin.determinize(seat(0), &mut MatchRng::from_seed(1)),
        game.determinize(seat(0), &mut MatchRng::from_seed(1))
    );
}
