//! Fox and Geese's rules, one by one, on small explicit positions. The rules are stated in
//! `docs/rules/fox-geese.md`.

use engine::MatchRng;
use engine::fox_geese::{
    Expected, FoxGeese, FoxGeeseAction, FoxGeeseConfig, FoxGeeseError, Point, SetupError, Side,
};
use engine::game::{Game, Outcome, PlayError, Seat, SeatSet, Viewer};
use engine::notation::NotationError;

fn p(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn act(text: &str) -> FoxGeeseAction {
    FoxGeeseAction::parse(text).unwrap()
}

fn position(fox: &str, geese: &[&str], turn: Side) -> FoxGeese {
    let geese: Vec<Point> = geese.iter().map(|name| p(name)).collect();
    FoxGeese::from_points(p(fox), &geese, turn).unwrap()
}

fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(Point::to_string).collect()
}

fn texts(actions: &[FoxGeeseAction]) -> Vec<String> {
    actions.iter().map(FoxGeeseAction::to_string).collect()
}

/// Plays `text`, which must be legal.
fn play(game: &mut FoxGeese, text: &str) {
    game.play_action(&act(text))
        .unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// Checks that `text` is refused with `expected`, both directly and through `Game::play`,
/// and that the game is unchanged.
fn refused(game: &FoxGeese, text: &str, expected: FoxGeeseError) {
    let mut tried = game.clone();
    assert_eq!(
        tried.play_action(&act(text)),
        Err(expected.clone()),
        "{text}"
    );
    assert_eq!(&tried, game);
    let seat = game.turn().seat();
    let mut rng = MatchRng::from_seed(0);
    let result = Game::play(&mut tried, seat, &act(text), &mut rng);
    assert_eq!(result, Err(PlayError::Illegal(expected)), "{text}");
    assert_eq!(&tried, game);
}

#[test]
fn the_cross_has_33_points_named_like_chess_squares() {
    assert_eq!(Point::all().count(), 33);
    assert_eq!(
        Point::all().next().map(|p| p.to_string()),
        Some("c1".into())
    );
    for point in Point::all() {
        assert_eq!(Point::parse(&point.to_string()), Ok(point));
    }
    for missing in ["a1", "b2", "f1", "g2", "a6", "b7", "f6", "g7"] {
        assert!(
            matches!(
                Point::parse(missing),
                Err(FoxGeeseError::OffBoard { at: 1, .. })
            ),
            "{missing}"
        );
    }
}

#[test]
fn start_position() {
    let game = FoxGeese::new(&FoxGeeseConfig);
    assert_eq!(
        names(&game.geese()),
        [
            "c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3", "f3", "g3"
        ]
    );
    assert_eq!(game.fox(), p("d5"));
    assert_eq!(game.to_move(), Some(Side::Geese));
    assert_eq!(
        game.diagram(),
        "7     . . .\n\
         6     . . .\n\
         5 . . . F . . .\n\
         4 . . . . . . .\n\
         3 G G G G G G G\n\
         2     G G G\n\
         1     G G G\n  \
         a b c d e f g\n"
    );
    // Only the front row can move: every other goose is walled in.
    assert_eq!(
        texts(&game.legal_moves()),
        [
            "a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4"
        ]
    );
}

#[test]
fn notation_errors_name_the_character() {
    let notation = |at, expected, found| {
        FoxGeeseError::Notation(NotationError {
            at,
            expected,
            found,
        })
    };
    let cases = [
        ("x5", notation(1, Expected::File, Some('x'))),
        ("", notation(1, Expected::File, None)),
        ("d", notation(2, Expected::Rank, None)),
        ("d8", notation(2, Expected::Rank, Some('8'))),
        ("d5", notation(3, Expected::Dash, None)),
        ("d5d4", notation(3, Expected::Dash, Some('d'))),
        ("d5-d", notation(5, Expected::Rank, None)),
        ("d5-d3-", notation(7, Expected::File, None)),
        (
            "d5-b2",
            FoxGeeseError::OffBoard {
                at: 4,
                file: 'b',
                rank: '2',
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(FoxGeeseAction::parse(text), Err(expected), "{text:?}");
    }
    let err = FoxGeeseAction::parse("d5-b2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "character 4: b2 is not a point of the cross"
    );
    assert_eq!(
        Point::parse("d5 "),
        Err(notation(3, Expected::End, Some(' ')))
    );
    assert_eq!(
        FoxGeeseAction::new(p("d5"), Vec::new()),
        Err(FoxGeeseError::NoLanding { from: p("d5") })
    );
}

#[test]
fn goose_cannot_move_backward() {
    let game = position("a5", &["d4", "c1", "d1", "e1"], Side::Geese);
    refused(
        &game,
        "d4-d3",
        FoxGeeseError::GooseBackward {
            from: p("d4"),
            to: p("d3"),
        },
    );
    let moves = texts(&game.legal_moves());
    for ok in ["d4-d5", "d4-c4", "d4-e4"] {
        assert!(moves.contains(&ok.to_string()), "{ok}");
    }
    assert!(!moves.iter().any(|m| m.ends_with("-d3")));
}

#[test]
fn fox_single_jump() {
    let mut game = position("d5", &["d4", "c1", "d1", "e1", "a3"], Side::Fox);
    assert!(texts(&game.legal_moves()).contains(&"d5-d3".to_string()));
    play(&mut game, "d5-d3");
    assert_eq!(game.fox(), p("d3"));
    assert_eq!(names(&game.geese()), ["c1", "d1", "e1", "a3"]);
    assert_eq!(game.to_move(), Some(Side::Geese));
}

#[test]
fn fox_chain_of_two_jumps_removes_both_geese() {
    let mut game = position("d5", &["d4", "e3", "c1", "d1", "e1", "a3"], Side::Fox);
    let moves = texts(&game.legal_moves());
    // Stopping after the first jump is allowed too.
    assert!(moves.contains(&"d5-d3".to_string()));
    assert!(moves.contains(&"d5-d3-f3".to_string()));
    play(&mut game, "d5-d3-f3");
    assert_eq!(game.fox(), p("f3"));
    assert_eq!(names(&game.geese()), ["c1", "d1", "e1", "a3"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.to_move(), Some(Side::Geese));
}

#[test]
fn chain_may_pass_back_through_its_start() {
    let geese = ["d4", "e3", "f4", "e5", "c1", "d1", "e1", "a3"];
    let mut game = position("d5", &geese, Side::Fox);
    assert!(texts(&game.legal_moves()).contains(&"d5-d3-f3-f5-d5".to_string()));
    play(&mut game, "d5-d3-f3-f5-d5");
    assert_eq!(game.fox(), p("d5"));
    assert_eq!(names(&game.geese()), ["c1", "d1", "e1", "a3"]);
}

#[test]
fn jump_blocked_by_an_occupied_landing_or_the_edge() {
    let game = position("d5", &["d4", "d3", "c1", "d1", "e1"], Side::Fox);
    refused(&game, "d5-d3", FoxGeeseError::Occupied(p("d3")));
    assert!(
        !game
            .legal_moves()
            .iter()
            .any(|a| a.landings()[0] == p("d3"))
    );

    // b2 is not on the cross, so the goose on b3 cannot be jumped from b4.
    let game = position("b4", &["b3", "c1", "d1", "e1"], Side::Fox);
    assert_eq!(texts(&game.legal_moves()), ["b4-b5", "b4-c4", "b4-a4"]);
    assert!(matches!(
        FoxGeeseAction::parse("b4-b2"),
        Err(FoxGeeseError::OffBoard { at: 4, .. })
    ));
}

#[test]
fn fox_trapped_geese_win() {
    let mut game = position("c1", &["d1", "e1", "c2", "b3"], Side::Geese);
    assert_eq!(game.outcome(), None);
    play(&mut game, "b3-c3");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "fox_trapped");
    assert_eq!(outcome.winners(), SeatSet::single(Side::Geese.seat()));
    assert_eq!(game.to_act(), SeatSet::EMPTY);
    assert!(game.legal_moves().is_empty());
    let mut tried = game.clone();
    assert_eq!(
        tried.play_action(&act("c1-c2")),
        Err(FoxGeeseError::GameOver)
    );
    let mut rng = MatchRng::from_seed(0);
    assert_eq!(
        Game::play(&mut tried, Side::Fox.seat(), &act("c1-c2"), &mut rng),
        Err(PlayError::GameOver)
    );
    assert_eq!(tried, game);
}

#[test]
fn geese_with_no_move_lose() {
    // Rank 5 full, and the geese above it walled in by each other, the edge and the fox.
    // Played out, the fox's only move would jump d5 and land behind every goose, so the
    // position is set up.
    let geese = [
        "a5", "b5", "c5", "d5", "e5", "f5", "g5", "c6", "e6", "c7", "d7", "e7",
    ];
    assert_eq!(position("d6", &geese, Side::Fox).outcome(), None);
    let game = position("d6", &geese, Side::Geese);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "geese_stuck");
    assert_eq!(outcome.winners(), SeatSet::single(Side::Fox.seat()));
}

#[test]
fn a_fox_behind_every_goose_has_escaped() {
    // The fox steps below the lowest goose.
    let geese = ["c5", "d5", "e5", "c6", "d6", "e6"];
    let mut game = position("b5", &geese, Side::Fox);
    assert_eq!(
        game.outcome(),
        None,
        "on the lowest goose's rank is not behind it"
    );
    play(&mut game, "b5-b4");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "fox_escaped");
    assert_eq!(outcome.winners(), SeatSet::single(Side::Fox.seat()));

    // The last goose on the fox's rank steps forward and leaves it behind.
    let geese = ["a4", "c5", "d5", "e5", "c6", "d6", "e6"];
    let mut game = position("c4", &geese, Side::Geese);
    assert_eq!(game.outcome(), None);
    play(&mut game, "a4-a5");
    assert_eq!(game.outcome().map(Outcome::reason), Some("fox_escaped"));
}

#[test]
fn a_fox_behind_the_geese_can_always_move() {
    // Below the lowest goose every point is empty, so a neighbour on the fox's own rank or
    // a lower one is a step it can always take.
    for point in Point::all() {
        assert!(
            point.neighbours().any(|n| n.rank() <= point.rank()),
            "{point}"
        );
    }
}

#[test]
fn fewer_than_four_geese_lose() {
    let mut game = position("d5", &["d4", "c1", "d1", "e1"], Side::Fox);
    assert_eq!(game.outcome(), None);
    play(&mut game, "d5-d3");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "geese_too_few");
    assert_eq!(outcome.winners(), SeatSet::single(Side::Fox.seat()));
}

#[test]
fn third_repetition_is_a_draw() {
    let mut game = position("d5", &["a3", "c1", "d1", "e1"], Side::Geese);
    let cycle = ["a3-b3", "d5-d6", "b3-a3", "d6-d5"];
    for (i, text) in cycle.iter().chain(&cycle).enumerate() {
        assert_eq!(game.outcome(), None, "before action {i}");
        play(&mut game, text);
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason(), "repetition");
    assert!(outcome.is_draw());
}

#[test]
fn illegal_actions_change_nothing() {
    let mut game = FoxGeese::new(&FoxGeeseConfig);
    let cases = [
        (
            "d5-d4",
            FoxGeeseError::NotYourPiece {
                point: p("d5"),
                owner: Side::Fox,
            },
        ),
        ("d4-d5", FoxGeeseError::NoPiece(p("d4"))),
        ("d2-d3", FoxGeeseError::Occupied(p("d3"))),
        (
            "a3-a5",
            FoxGeeseError::NotAdjacent {
                from: p("a3"),
                to: p("a5"),
            },
        ),
        (
            "a3-b4",
            FoxGeeseError::NotAdjacent {
                from: p("a3"),
                to: p("b4"),
            },
        ),
        ("a3-a4-a5", FoxGeeseError::GooseChain { from: p("a3") }),
    ];
    for (text, expected) in cases {
        refused(&game, text, expected);
    }
    play(&mut game, "a3-a4");
    let cases = [
        (
            "d5-d3",
            FoxGeeseError::BadJump {
                from: p("d5"),
                over: p("d4"),
                to: p("d3"),
            },
        ),
        (
            "d5-d4-d3",
            FoxGeeseError::StepInChain {
                from: p("d5"),
                to: p("d4"),
            },
        ),
        (
            "d5-f4",
            FoxGeeseError::NotAdjacent {
                from: p("d5"),
                to: p("f4"),
            },
        ),
        (
            "d5-d5",
            FoxGeeseError::NotAdjacent {
                from: p("d5"),
                to: p("d5"),
            },
        ),
        (
            "a4-a5",
            FoxGeeseError::NotYourPiece {
                point: p("a4"),
                owner: Side::Geese,
            },
        ),
    ];
    for (text, expected) in cases {
        refused(&game, text, expected);
    }
    let message = FoxGeeseError::BadJump {
        from: p("d5"),
        over: p("d4"),
        to: p("d3"),
    }
    .to_string();
    assert_eq!(
        message,
        "the fox cannot jump from d5 to d3: there is no goose on d4"
    );
}

#[test]
fn out_of_turn_is_rejected() {
    let game = FoxGeese::new(&FoxGeeseConfig);
    let mut tried = game.clone();
    let mut rng = MatchRng::from_seed(0);
    let fox = Side::Fox.seat();
    assert!(Game::legal_actions(&game, fox).is_empty());
    assert_eq!(
        tried.play(fox, &act("d5-d4"), &mut rng),
        Err(PlayError::NotYourTurn(fox))
    );
    let third = Seat::new(2).unwrap();
    assert_eq!(
        tried.play(third, &act("d5-d4"), &mut rng),
        Err(PlayError::NoSuchSeat(third))
    );
    assert_eq!(tried, game);
    assert_eq!(Side::of_seat(third), None);
    assert_eq!(Side::of_seat(fox), Some(Side::Fox));
}

#[test]
fn setup_is_checked() {
    assert_eq!(
        FoxGeese::from_points(p("d5"), &[p("d5")], Side::Fox),
        Err(SetupError::FoxOnGoose(p("d5")))
    );
    assert_eq!(
        FoxGeese::from_points(p("d5"), &[p("c1"), p("c1")], Side::Fox),
        Err(SetupError::GooseTwice(p("c1")))
    );
}

#[test]
fn every_viewer_sees_the_same() {
    let mut game = FoxGeese::new(&FoxGeeseConfig);
    play(&mut game, "d3-d4");
    let view = game.view(Viewer::Spectator);
    assert_eq!(game.view(Viewer::Seat(Side::Geese.seat())), view);
    assert_eq!(game.view(Viewer::Seat(Side::Fox.seat())), view);
    assert_eq!(view.last_action, Some(act("d3-d4")));
    assert_eq!(view.to_move, Some(Side::Fox));
    assert_eq!(view.plies, 1);
    assert_eq!(view.geese.len(), 13);
}
