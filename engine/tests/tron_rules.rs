//! Every rule of Tron on small explicit positions (3 seats on an 8x8 board unless said).
//! Seat 0 is `A` on the diagrams, seat 1 `B`, seat 2 `C`.

use engine::MatchRng;
use engine::catalog::Catalog;
use engine::game::{Game, PlayError, Seat, SeatSet, Viewer};
use engine::tron::{
    Card, Cause, Cell, Dir, Event, Hand, Line, LineUser, MAX_ROUNDS, Phase, SetupError, Special,
    StageView, Tron, TronAction, TronBuilder, TronConfig, TronError, Turn,
};

fn s(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

fn c(name: &str) -> Cell {
    match TronAction::parse(&format!("head {name}"), 22) {
        Ok(TronAction::Head(cell)) => cell,
        other => panic!("{name}: {other:?}"),
    }
}

fn line(name: &str) -> Line {
    match TronAction::parse(&format!("crusher {name}"), 22) {
        Ok(TronAction::Crusher { to, .. }) => to,
        other => panic!("{name}: {other:?}"),
    }
}

/// A light-cycle's squares, oldest tail square first, head last: `"c1 c2 c3"`.
fn body(names: &str) -> Vec<Cell> {
    names.split(' ').map(c).collect()
}

/// Three seats on an 8x8 board: the usual start of a test position.
fn position() -> TronBuilder {
    Tron::builder(3).size(8)
}

/// A game under test with the match RNG it is played with.
struct Table {
    game: Tron,
    rng: MatchRng,
}

impl Table {
    fn new(builder: TronBuilder) -> Table {
        Table {
            game: builder.build().unwrap(),
            rng: MatchRng::from_seed(7),
        }
    }

    fn act(&mut self, seat: usize, text: &str) {
        let action = self.game.parse_action(text).unwrap();
        self.game
            .play(s(seat), &action, &mut self.rng)
            .unwrap_or_else(|e| panic!("seat {seat} {text}: {e}"));
    }

    /// Checks that the action is refused with `expected` and changes nothing.
    fn refused(&mut self, seat: usize, text: &str, expected: TronError) {
        let before = self.game.clone();
        let action = self.game.parse_action(text).unwrap();
        assert_eq!(
            self.game.play(s(seat), &action, &mut self.rng),
            Err(PlayError::Illegal(expected)),
            "seat {seat} {text}"
        );
        assert_eq!(self.game, before);
    }

    /// Every seat plays its card in turn.
    fn round(&mut self, plays: &[(usize, &str)]) {
        for (seat, text) in plays {
            self.act(*seat, &format!("play {text}"));
        }
    }

    fn head(&self, seat: usize) -> Cell {
        self.game.cycle(s(seat)).unwrap().head
    }

    fn tail(&self, seat: usize) -> Vec<Cell> {
        self.game.cycle(s(seat)).unwrap().tail
    }

    fn score(&self, seat: usize) -> i32 {
        self.game.score(s(seat)).unwrap()
    }

    fn scores(&self) -> Vec<i32> {
        (0..3).map(|i| self.score(i)).collect()
    }

    fn died(&self, seat: usize) -> Option<Cause> {
        self.game.events().iter().find_map(|event| match event {
            Event::Died { seat: dead, cause } if *dead == s(seat) => Some(*cause),
            _ => None,
        })
    }

    fn stage(&self) -> StageView {
        self.game.view(Viewer::Spectator).stage
    }

    /// Places the tails of every reincarnated seat on their first legal square, until the next
    /// round's choosing begins.
    fn reincarnate_all(&mut self) {
        while let StageView::PlaceTail { seat, .. } = self.stage() {
            let action = self.game.legal_actions(seat)[0];
            self.game.play(seat, &action, &mut self.rng).unwrap();
        }
    }
}

/// Seat 2 out of the way in the top right corner, facing west: `forward` is always safe.
const C_AWAY: &str = "h8 g8";

#[test]
fn board_sizes_and_catalog() {
    for (seats, size) in [(3, 12), (4, 14), (5, 16), (8, 22)] {
        let config = Tron::config("standard", seats).unwrap();
        assert_eq!(config, TronConfig { seats });
        let game = Tron::new(&config, &mut MatchRng::from_seed(1)).unwrap();
        assert_eq!(game.size(), size);
        assert_eq!(game.seat_count(), seats);
    }
    assert!(Tron::config("standard", 2).is_err());
    assert!(Tron::config("standard", 9).is_err());
    assert!(Tron::config("classic", 3).is_err());
    let Err(err) = Tron::new(&TronConfig { seats: 2 }, &mut MatchRng::from_seed(1)) else {
        panic!("two players accepted")
    };
    assert_eq!(err, SetupError::Seats(2));
    assert_eq!(Tron::ID, "tron");
    assert_eq!(Tron::variants(), ["standard"]);
}

#[test]
fn setup_places_each_light_cycle_then_flags_and_one_special_card_each() {
    let mut rng = MatchRng::from_seed(11);
    let mut game = Tron::new(&TronConfig { seats: 3 }, &mut rng).unwrap();
    assert_eq!(game.round(), 0);
    let mut placed = Vec::new();
    for step in 0..3 {
        let seat = game.to_act().iter().next().unwrap();
        assert_eq!(game.to_act().len(), 1);
        assert!(!placed.contains(&seat), "each seat places once");
        placed.push(seat);
        assert_eq!(
            game.view(Viewer::Spectator).stage,
            StageView::PlaceHead { seat }
        );
        // Every free square with room for a tail; the first placer has the whole board.
        let heads = game.legal_actions(seat);
        if step == 0 {
            assert_eq!(heads.len(), 144);
        }
        let head = c(["c3", "j10", "f6"][step]);
        game.play(seat, &TronAction::Head(head), &mut rng).unwrap();
        assert_eq!(game.to_act(), SeatSet::single(seat));
        let mut tried = game.clone();
        assert_eq!(
            tried.play(seat, &TronAction::Tail(c("a1")), &mut rng),
            Err(PlayError::Illegal(TronError::TailNotBeside {
                head,
                tail: c("a1")
            }))
        );
        let tail = c(["c2", "k10", "f7"][step]);
        game.play(seat, &TronAction::Tail(tail), &mut rng).unwrap();
        assert_eq!(game.cycle(seat).unwrap().tail, vec![tail]);
    }
    assert_eq!(game.cycle(placed[0]).unwrap().facing, Dir::North);
    assert_eq!(game.cycle(placed[1]).unwrap().facing, Dir::West);
    assert_eq!(game.cycle(placed[2]).unwrap().facing, Dir::South);
    assert_eq!(game.round(), 1);
    assert_eq!(game.to_act(), SeatSet::first(3));
    assert_eq!(game.flags().len(), 3);
    for flag in game.flags() {
        assert_eq!(flag.barred, None);
        let on_a_cycle = (0..3).any(|i| {
            let cycle = game.cycle(s(i)).unwrap();
            cycle.head == flag.at || cycle.tail.contains(&flag.at)
        });
        assert!(!on_a_cycle, "flag on {}", flag.at);
    }
    for i in 0..3 {
        assert_eq!(game.hand(s(i)).unwrap().len(), 1);
    }
    assert_eq!(game.deck_len(), 9);
}

#[test]
fn a_head_needs_a_free_square_and_room_for_its_tail() {
    let mut rng = MatchRng::from_seed(2);
    let mut game = Tron::new(&TronConfig { seats: 3 }, &mut rng).unwrap();
    let first = game.to_act().iter().next().unwrap();
    game.play(first, &TronAction::Head(c("a2")), &mut rng)
        .unwrap();
    game.play(first, &TronAction::Tail(c("a3")), &mut rng)
        .unwrap();
    let second = game.to_act().iter().next().unwrap();
    let mut tried = game.clone();
    assert_eq!(
        tried.play(second, &TronAction::Head(c("a3")), &mut rng),
        Err(PlayError::Illegal(TronError::Occupied(c("a3"))))
    );
    assert_eq!(
        tried.play(second, &TronAction::Head(c("m1")), &mut rng),
        Err(PlayError::Illegal(TronError::OffBoard {
            cell: c("m1"),
            size: 12
        }))
    );
    game.play(second, &TronAction::Head(c("b1")), &mut rng)
        .unwrap();
    game.play(second, &TronAction::Tail(c("c1")), &mut rng)
        .unwrap();
    // a1 is boxed in by a2 and b1.
    let third = game.to_act().iter().next().unwrap();
    let mut tried = game.clone();
    assert_eq!(
        tried.play(third, &TronAction::Head(c("a1")), &mut rng),
        Err(PlayError::Illegal(TronError::BoxedIn(c("a1"))))
    );
    assert!(
        !game
            .legal_actions(third)
            .contains(&TronAction::Head(c("a1")))
    );
    assert_eq!(
        TronError::BoxedIn(c("a1")).to_string(),
        "a1 has no free square beside it for the tail"
    );
}

#[test]
fn cards_are_chosen_in_secret_and_turned_over_together() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("e1 e2 e3"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::Dash]),
    );
    assert_eq!(t.game.to_act(), SeatSet::first(3));
    t.act(0, "play dash");
    assert_eq!(t.game.to_act().len(), 2);
    assert!(!t.game.to_act().contains(s(0)));
    // Nobody changes their mind.
    let again = t.game.parse_action("play left").unwrap();
    assert_eq!(
        t.game.play(s(0), &again, &mut t.rng),
        Err(PlayError::NotYourTurn(s(0)))
    );
    let own = t.game.view(Viewer::Seat(s(0)));
    assert_eq!(
        own.pending,
        Some(TronAction::Play(Card::Special(Special::Dash)))
    );
    assert_eq!(own.hand, Some(Hand::of(&[Special::Dash])));
    for viewer in [Viewer::Seat(s(1)), Viewer::Spectator] {
        let view = t.game.view(viewer);
        assert!(view.seats[0].chosen);
        assert!(!view.seats[1].chosen);
        assert_eq!(view.seats[0].specials, 1);
        assert_eq!(view.pending, None);
        assert_eq!(view.played, vec![None, None, None]);
    }
    assert_eq!(t.game.view(Viewer::Spectator).hand, None);
    assert_eq!(t.game.view(Viewer::Seat(s(1))).hand, Some(Hand::default()));
    t.act(1, "play left");
    t.act(2, "play forward");
    // Turned over: regular movement done, the dash waits for its direction.
    let view = t.game.view(Viewer::Seat(s(1)));
    assert_eq!(
        view.played,
        vec![
            Some(Card::Special(Special::Dash)),
            Some(Card::Regular(Turn::Left)),
            Some(Card::Regular(Turn::Forward))
        ]
    );
    assert_eq!(
        view.stage,
        StageView::Enact {
            phase: Phase::Special(Special::Dash)
        }
    );
    assert_eq!(t.head(1), c("d3"));
    assert_eq!(t.game.to_act(), SeatSet::single(s(0)));
    assert_eq!(
        t.game.legal_actions(s(0)),
        [Turn::Forward, Turn::Left, Turn::Right].map(|turn| TronAction::Go { turn, distance: 2 })
    );
    t.act(0, "go left 2");
    assert_eq!(t.head(0), c("a3"));
    assert_eq!(t.game.hand(s(0)), Some(Hand::default()));
    assert_eq!(t.game.round(), 2);
}

#[test]
fn a_card_must_be_in_hand_and_cut_tail_needs_a_tail_beside() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("e1 e2 e3"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::CutTail]),
    );
    t.refused(0, "play dash", TronError::NotInHand(Special::Dash));
    t.refused(0, "play cut-tail", TronError::NoTailToCut(c("c3")));
    assert_eq!(
        t.game.legal_actions(s(0)),
        ["forward", "left", "right"]
            .map(|turn| t.game.parse_action(&format!("play {turn}")).unwrap())
    );
    t.refused(
        0,
        "head a1",
        TronError::WrongStage {
            awaiting: "a card",
            got: "a head placement",
        },
    );
    assert_eq!(
        TronError::NotInHand(Special::Dash).to_string(),
        "there is no dash card in hand"
    );
}

#[test]
fn regular_cards_move_one_space_relative_to_the_facing() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f3 f2"))
            .cycle(s(2), &body(C_AWAY)),
    );
    t.round(&[(0, "left"), (1, "right"), (2, "forward")]);
    assert_eq!(t.head(0), c("b3"));
    assert_eq!(t.tail(0), body("c1 c2 c3"));
    assert_eq!(t.game.cycle(s(0)).unwrap().facing, Dir::West);
    // Seat 1 faces south, so its right is west.
    assert_eq!(t.head(1), c("e2"));
    assert_eq!(t.game.cycle(s(1)).unwrap().facing, Dir::West);
    assert_eq!(t.head(2), c("f8"));
    assert_eq!(t.scores(), [0, 0, 0]);
    t.round(&[(0, "right"), (1, "left"), (2, "forward")]);
    assert_eq!(t.head(0), c("b4"));
    assert_eq!(t.head(1), c("e1"));
    assert_eq!(t.tail(0), body("c1 c2 c3 b3"));
}

#[test]
fn driving_off_the_grid_destroys() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("h1 h2"))
            .cycle(s(2), &body(C_AWAY)),
    );
    t.round(&[(0, "forward"), (1, "right"), (2, "forward")]);
    assert_eq!(t.died(1), Some(Cause::OffGrid { at: c("h2") }));
    assert_eq!(t.scores(), [0, -1, 0]);
    // The wreck has left the board; seat 1 is drawn a square and places its tail.
    assert_eq!(t.game.cycle(s(1)), None);
    let StageView::PlaceTail { seat, head } = t.stage() else {
        panic!("{:?}", t.stage())
    };
    assert_eq!(seat, s(1));
    assert!(matches!(
        t.game.events().last(),
        Some(Event::Reincarnated { seat, at }) if *seat == s(1) && *at == head
    ));
    assert_eq!(t.game.to_act(), SeatSet::single(s(1)));
    let tails = t.game.legal_actions(s(1));
    assert!(!tails.is_empty());
    let TronAction::Tail(tail) = tails[0] else {
        panic!("{tails:?}")
    };
    t.game.play(s(1), &tails[0], &mut t.rng).unwrap();
    let cycle = t.game.cycle(s(1)).unwrap();
    assert_eq!(
        (cycle.head, cycle.tail, cycle.alive),
        (head, vec![tail], true)
    );
    assert_eq!(t.stage(), StageView::Choose);
    assert_eq!(t.game.to_act(), SeatSet::first(3));
}

#[test]
fn crashing_into_a_tail_scores_for_its_owner_and_into_ones_own_is_suicide() {
    // Seat 0 drives into seat 1's tail; seat 2 turns back into its own.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("b4 c4 d4 e4"))
            .cycle(s(2), &body("g6 h6 h7 g7")),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "left")]);
    assert_eq!(
        t.died(0),
        Some(Cause::Tail {
            owner: s(1),
            at: c("c4")
        })
    );
    assert_eq!(
        t.died(2),
        Some(Cause::Tail {
            owner: s(2),
            at: c("g6")
        })
    );
    assert_eq!(t.died(1), None);
    assert_eq!(t.scores(), [-1, 2, -1]);
    // A tail is not harmed by a crash.
    assert_eq!(t.tail(1), body("b4 c4 d4 e4"));
}

#[test]
fn head_on_collisions_destroy_both_for_no_points() {
    // Two heads entering one square.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("e4 d4"))
            .cycle(s(2), &body(C_AWAY)),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.died(0), Some(Cause::HeadOn { at: c("c4") }));
    assert_eq!(t.died(1), Some(Cause::HeadOn { at: c("c4") }));
    assert_eq!(t.scores(), [0, 0, 0]);

    // Two heads swapping squares.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("c6 c5 c4"))
            .cycle(s(2), &body(C_AWAY)),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert!(matches!(t.died(0), Some(Cause::HeadOn { .. })));
    assert!(matches!(t.died(1), Some(Cause::HeadOn { .. })));
    assert_eq!(t.scores(), [0, 0, 0]);

    // Driving into a head that stands still: its retract is never enacted.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f4 e4 d4 c4"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(1), &[Special::RetractTail]),
    );
    t.round(&[(0, "forward"), (1, "retract-tail"), (2, "forward")]);
    assert_eq!(t.died(0), Some(Cause::HeadOn { at: c("c4") }));
    assert_eq!(t.died(1), Some(Cause::HeadOn { at: c("c4") }));
    assert!(
        !t.game
            .events()
            .iter()
            .any(|e| matches!(e, Event::Retracted { .. }))
    );
    assert_eq!(t.scores(), [0, 0, 0]);
    // The used card went back into the deck all the same.
    assert_eq!(t.game.hand(s(1)), Some(Hand::default()));
    assert_eq!(t.game.deck_len(), 12);
}

#[test]
fn following_into_a_square_just_left_crashes_into_the_leaders_tail() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("b4 c4"))
            .cycle(s(2), &body(C_AWAY)),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(
        t.died(0),
        Some(Cause::Tail {
            owner: s(1),
            at: c("c4")
        })
    );
    assert_eq!(t.scores(), [-1, 2, 0]);
}

#[test]
fn a_wreck_stays_until_the_end_of_the_round_and_counts_as_tail() {
    // Seat 1 drives off the grid in the regular phase; seat 2's dash then hits its wreck.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("a1 a2"))
            .cycle(s(1), &body("h1 h2"))
            .cycle(s(2), &body("f2 g2"))
            .hand(s(2), &[Special::Dash]),
    );
    t.round(&[(0, "forward"), (1, "right"), (2, "dash")]);
    assert!(
        !t.game.cycle(s(1)).unwrap().alive,
        "the wreck is still there"
    );
    t.act(2, "go forward 2");
    assert_eq!(
        t.died(2),
        Some(Cause::Tail {
            owner: s(1),
            at: c("h2")
        })
    );
    assert_eq!(t.scores(), [0, -1 + 2, -1]);
    assert_eq!(t.game.cycle(s(1)), None);
    assert_eq!(t.game.cycle(s(2)), None);
}

#[test]
fn regular_movement_reaches_a_flag_before_an_uber_dash_and_both_die() {
    // The essay's case: a normal card lands on the flag, an uber-dash goes through it.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f4 e4"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("c4"), None)
            .hand(s(1), &[Special::UberDash]),
    );
    t.round(&[(0, "forward"), (1, "uber-dash"), (2, "forward")]);
    assert_eq!(t.game.flags()[0].reached, Some(s(0)));
    t.act(1, "go forward 3");
    assert_eq!(t.died(0), Some(Cause::HeadOn { at: c("c4") }));
    assert_eq!(t.died(1), Some(Cause::HeadOn { at: c("c4") }));
    assert_eq!(t.scores(), [0, 0, 0]);
    // Nobody lived through the round: the flag stays.
    assert_eq!(t.game.flags().len(), 1);
    assert_eq!(t.game.flags()[0].at, c("c4"));
    assert_eq!(t.game.flags()[0].reached, None);
}

#[test]
fn of_two_dashers_the_one_closer_to_the_crossing_wins() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("g4 f4 e4"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::Dash])
            .hand(s(1), &[Special::Dash]),
    );
    t.round(&[(0, "dash"), (1, "dash"), (2, "forward")]);
    assert_eq!(t.game.to_act(), SeatSet::first(2));
    t.act(1, "go forward 2");
    // The first direction stays hidden until both have chosen.
    assert_eq!(t.game.view(Viewer::Seat(s(0))).pending, None);
    assert!(t.game.view(Viewer::Seat(s(0))).seats[1].chosen);
    assert_eq!(
        t.game.view(Viewer::Seat(s(1))).pending,
        Some(TronAction::Go {
            turn: Turn::Forward,
            distance: 2
        })
    );
    t.refused(
        0,
        "go forward 3",
        TronError::Distance {
            phase: Phase::Special(Special::Dash),
            distance: 3,
            min: 2,
            max: 2,
        },
    );
    t.act(0, "go forward 2");
    assert_eq!(t.head(0), c("c5"));
    assert_eq!(
        t.died(1),
        Some(Cause::Tail {
            owner: s(0),
            at: c("c4")
        })
    );
    assert_eq!(t.scores(), [2, -1, 0]);
    assert_eq!(
        TronError::Distance {
            phase: Phase::Special(Special::Dash),
            distance: 3,
            min: 2,
            max: 2,
        }
        .to_string(),
        "dash goes 2 spaces, not 3"
    );
}

#[test]
fn cut_tail_removes_the_part_no_longer_attached() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("a4 b4 c4 d4 e4"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::CutTail]),
    );
    t.round(&[(0, "cut-tail"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.head(1), c("f4"));
    assert_eq!(t.game.legal_actions(s(0)).len(), 3);
    t.refused(
        0,
        "go forward 2",
        TronError::Distance {
            phase: Phase::Special(Special::CutTail),
            distance: 2,
            min: 1,
            max: 1,
        },
    );
    t.act(0, "go forward 1");
    assert_eq!(t.head(0), c("c4"));
    assert_eq!(t.tail(0), body("c1 c2 c3"));
    assert_eq!(t.tail(1), body("d4 e4"));
    assert_eq!(t.scores(), [0, 0, 0]);
    assert!(t.game.events().contains(&Event::Cut {
        seat: s(0),
        owner: s(1),
        at: c("c4")
    }));
}

#[test]
fn cut_tail_may_cut_ones_own_tail() {
    // Seat 0 curls round (b3 b4 c4 c3, facing south); its right is its own oldest square.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("b3 b4 c4 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::CutTail]),
    );
    t.round(&[(0, "cut-tail"), (1, "forward"), (2, "forward")]);
    t.act(0, "go right 1");
    let cycle = t.game.cycle(s(0)).unwrap();
    assert!(cycle.alive);
    assert_eq!(cycle.head, c("b3"));
    assert_eq!(cycle.facing, Dir::West);
    assert_eq!(cycle.tail, body("b4 c4 c3"));
}

#[test]
fn cutting_a_wreck_at_its_head_removes_the_whole_wreck() {
    // Seat 1 crashes into seat 2's tail in the regular phase; seat 0 then cuts into its head.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("d3 d4 c4"))
            .cycle(s(2), &body("a4 b4 b5"))
            .hand(s(0), &[Special::CutTail]),
    );
    t.round(&[(0, "cut-tail"), (1, "forward"), (2, "forward")]);
    assert_eq!(
        t.died(1),
        Some(Cause::Tail {
            owner: s(2),
            at: c("b4")
        })
    );
    t.act(0, "go forward 1");
    assert_eq!(t.head(0), c("c4"));
    assert!(t.game.cycle(s(0)).unwrap().alive);
    assert_eq!(t.scores(), [0, -1, 2]);
    let bodies: Vec<Cell> = (0..3)
        .filter_map(|i| t.game.cycle(s(i)))
        .flat_map(|cycle| cycle.tail.into_iter().chain([cycle.head]))
        .collect();
    assert!(!bodies.contains(&c("d3")) && !bodies.contains(&c("d4")));
}

#[test]
fn retract_tail_keeps_the_squares_nearest_the_head() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("a1 a2 a3 a4 a5"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::RetractTail]),
    );
    t.round(&[(0, "retract-tail"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.game.to_act(), SeatSet::single(s(0)));
    assert_eq!(t.game.legal_actions(s(0)).len(), 4);
    t.refused(0, "keep 0", TronError::Keep { length: 0, tail: 4 });
    t.refused(0, "keep 5", TronError::Keep { length: 5, tail: 4 });
    t.act(0, "keep 2");
    assert_eq!(t.tail(0), body("a3 a4"));
    assert_eq!(t.head(0), c("a5"));
    assert_eq!(t.game.round(), 2);

    // A tail of one has nothing to retract: the round ends at once.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("a1 a2"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::RetractTail]),
    );
    t.round(&[(0, "retract-tail"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.game.round(), 2);
    assert_eq!(t.tail(0), body("a1"));
}

#[test]
fn crushers_go_on_free_lines_the_spare_one_first() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("a1 a2"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .crusher(line("d1-d2"))
            .crusher(line("d7-d8"))
            .hand(s(0), &[Special::Crusher, Special::Crusher]),
    );
    t.round(&[(0, "crusher"), (1, "forward"), (2, "forward")]);
    assert_eq!(
        t.stage(),
        StageView::Enact {
            phase: Phase::Special(Special::Crusher)
        }
    );
    t.refused(0, "crusher c5-c6 from d1-d2", TronError::ReserveFirst);
    t.refused(
        0,
        "crusher d1-d2",
        TronError::LineTaken {
            line: line("d1-d2"),
            by: LineUser::Crusher,
        },
    );
    t.refused(
        0,
        "crusher f2-f3",
        TronError::LineTaken {
            line: line("f2-f3"),
            by: LineUser::Tail(s(1)),
        },
    );
    // 112 lines on 8x8, less two crushers and the five links of the tails (a1-a2, f1-f2,
    // f2-f3, g8-h8, f8-g8).
    assert_eq!(t.game.legal_actions(s(0)).len(), 112 - 2 - 5);
    t.act(0, "crusher c5-c6");
    assert_eq!(
        t.game.crushers(),
        vec![line("d1-d2"), line("d7-d8"), line("c5-c6")]
    );
    // All three are on the board: the next one is moved.
    t.round(&[(0, "crusher"), (1, "forward"), (2, "forward")]);
    t.refused(0, "crusher b5-b6", TronError::MoveOne);
    t.refused(
        0,
        "crusher b5-b6 from b1-b2",
        TronError::NoCrusherOn(line("b1-b2")),
    );
    assert_eq!(t.game.legal_actions(s(0)).len(), 3 * (112 - 3 - 7));
    t.act(0, "crusher b5-b6 from d7-d8");
    assert_eq!(
        t.game.crushers(),
        vec![line("d1-d2"), line("b5-b6"), line("c5-c6")]
    );
}

#[test]
fn driving_across_a_crusher_destroys_and_scores_for_nobody() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .crusher(line("c3-c4")),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(
        t.died(0),
        Some(Cause::Crusher {
            line: line("c3-c4")
        })
    );
    assert_eq!(t.scores(), [-1, 0, 0]);
    // The crusher is not harmed.
    assert_eq!(t.game.crushers(), vec![line("c3-c4")]);
}

#[test]
fn crusher_players_place_one_at_a_time_starting_with_a_seat_that_moves_on() {
    let build = |round| {
        Table::new(
            position()
                .cycle(s(0), &body("a1 a2"))
                .cycle(s(1), &body("f1 f2"))
                .cycle(s(2), &body(C_AWAY))
                .hand(s(0), &[Special::Crusher])
                .hand(s(1), &[Special::Crusher])
                .round(round),
        )
    };
    let mut t = build(1);
    t.round(&[(0, "crusher"), (1, "crusher"), (2, "forward")]);
    assert_eq!(t.game.to_act(), SeatSet::single(s(0)));
    t.act(0, "crusher c5-c6");
    assert_eq!(t.game.to_act(), SeatSet::single(s(1)));
    // The first placement is public and taken.
    t.refused(
        1,
        "crusher c5-c6",
        TronError::LineTaken {
            line: line("c5-c6"),
            by: LineUser::Crusher,
        },
    );
    t.act(1, "crusher c6-c7");
    assert_eq!(t.game.round(), 2);
    // In round 2 seat 1 is first.
    let mut t = build(2);
    t.round(&[(0, "crusher"), (1, "crusher"), (2, "forward")]);
    assert_eq!(t.game.to_act(), SeatSet::single(s(1)));
}

#[test]
fn over_drive_starts_after_its_round_and_lets_moves_go_any_distance() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::OverDrive]),
    );
    t.round(&[(0, "over-drive"), (1, "forward"), (2, "forward")]);
    // The regular movement of the same round was still normal.
    assert_eq!(t.head(1), c("f3"));
    assert!(t.game.over_drive());
    assert!(t.game.events().contains(&Event::OverDrive {
        seat: s(0),
        on: true
    }));
    t.round(&[(0, "left"), (1, "forward"), (2, "forward")]);
    assert_eq!(
        t.stage(),
        StageView::Enact {
            phase: Phase::Regular
        }
    );
    assert_eq!(t.game.to_act(), SeatSet::first(3));
    assert_eq!(t.game.legal_actions(s(0)).len(), 7);
    t.refused(
        0,
        "go forward 2",
        TronError::WrongTurn {
            card: Turn::Left,
            tried: Turn::Forward,
        },
    );
    t.refused(
        0,
        "go left 8",
        TronError::Distance {
            phase: Phase::Regular,
            distance: 8,
            min: 1,
            max: 7,
        },
    );
    t.act(0, "go left 2");
    t.act(1, "go forward 4");
    t.act(2, "go forward 3");
    assert_eq!(t.head(0), c("a2"));
    assert_eq!(t.head(1), c("f7"));
    assert_eq!(t.head(2), c("c8"));
    assert_eq!(t.tail(1), body("f1 f2 f3 f4 f5 f6"));
    // Played again, the card switches over-drive off (the deck holds it again).
    let over_drive_card = Hand::of(&[Special::OverDrive]);
    t.game = t.game.with_hand(s(1), over_drive_card).unwrap();
    t.round(&[(0, "right"), (1, "over-drive"), (2, "forward")]);
    assert_eq!(
        t.stage(),
        StageView::Enact {
            phase: Phase::Regular
        }
    );
    t.act(0, "go right 1");
    t.act(2, "go forward 1");
    assert!(!t.game.over_drive());
    assert_eq!(
        TronError::Distance {
            phase: Phase::Regular,
            distance: 8,
            min: 1,
            max: 7,
        }
        .to_string(),
        "regular movement goes 1 to 7 spaces in over-drive, not 8"
    );
}

#[test]
fn in_over_drive_the_farther_player_stops_short_and_equals_collide() {
    // Seat 0 crosses e4 first; seat 1 would get there a step later and stops on f4.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("e1 e2 e3"))
            .cycle(s(1), &body("h4 g4"))
            .cycle(s(2), &body(C_AWAY))
            .over_drive(true),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    t.act(0, "go forward 3");
    t.act(1, "go forward 5");
    t.act(2, "go forward 1");
    assert_eq!(t.head(0), c("e6"));
    assert_eq!(t.head(1), c("f4"));
    assert!(t.game.cycle(s(1)).unwrap().alive);
    assert!(t.game.events().contains(&Event::Stopped {
        seat: s(1),
        at: c("f4")
    }));
    assert_eq!(t.scores(), [0, 0, 0]);

    // Equally far from e4: both are destroyed.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("e1 e2 e3"))
            .cycle(s(1), &body("g4 f4"))
            .cycle(s(2), &body(C_AWAY))
            .over_drive(true),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    t.act(0, "go forward 3");
    t.act(1, "go forward 5");
    t.act(2, "go forward 1");
    assert_eq!(t.died(0), Some(Cause::HeadOn { at: c("e4") }));
    assert_eq!(t.died(1), Some(Cause::HeadOn { at: c("e4") }));

    // A tail that was there before the phase still destroys.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("e1 e2 e3"))
            .cycle(s(1), &body("d5 e5 f5"))
            .cycle(s(2), &body(C_AWAY))
            .over_drive(true),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    t.act(0, "go forward 4");
    t.act(1, "go forward 1");
    t.act(2, "go forward 1");
    assert_eq!(
        t.died(0),
        Some(Cause::Tail {
            owner: s(1),
            at: c("e5")
        })
    );
    assert_eq!(t.scores(), [-1, 2, 0]);
}

#[test]
fn in_over_drive_a_dash_waits_then_goes_any_distance() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::UberDash])
            .over_drive(true),
    );
    t.round(&[(0, "uber-dash"), (1, "left"), (2, "forward")]);
    // Regular movement first.
    assert_eq!(t.game.to_act(), SeatSet::from_iter([s(1), s(2)]));
    t.act(1, "go left 2");
    t.act(2, "go forward 1");
    assert_eq!(t.head(1), c("d2"));
    assert_eq!(t.game.to_act(), SeatSet::single(s(0)));
    assert_eq!(t.game.legal_actions(s(0)).len(), 3 * 7);
    // Seat 1's head now stands east of seat 0, which goes north instead, and far.
    t.act(0, "go forward 5");
    assert_eq!(t.head(0), c("c7"));
}

#[test]
fn a_captured_flag_scores_gives_the_others_a_card_and_is_placed_again_by_the_capturer() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("c4"), None),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.scores(), [3, 0, 0]);
    assert!(t.game.events().contains(&Event::Captured {
        seat: s(0),
        at: c("c4")
    }));
    assert_eq!(t.game.hand(s(0)).unwrap().len(), 0);
    assert_eq!(t.game.hand(s(1)).unwrap().len(), 1);
    assert_eq!(t.game.hand(s(2)).unwrap().len(), 1);
    assert_eq!(t.game.deck_len(), 10);
    let flags = t.game.flags();
    assert_eq!(flags.len(), 1);
    assert_ne!(flags[0].at, c("c4"));
    assert_eq!(flags[0].barred, Some(s(0)));
    assert!(t.game.events().contains(&Event::FlagPlaced {
        by: Some(s(0)),
        at: flags[0].at
    }));
}

#[test]
fn nobody_captures_the_last_flag_they_placed_but_may_drive_over_it() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("c4"), Some(s(0))),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.scores(), [0, 0, 0]);
    assert_eq!(t.head(0), c("c4"));
    let flags = t.game.flags();
    assert_eq!((flags[0].at, flags[0].barred), (c("c4"), Some(s(0))));
}

#[test]
fn the_seeds_last_placed_flag_example() {
    // "Player 1 captures a flag at (1,1) and places a new one at (2,2)": here seat 0 has
    // placed the flag on b7 last. It now captures the one on c4 and places a new one...
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("b7"), Some(s(0)))
            .flag(c("c4"), None),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    // ... so it may capture b7 again, but not the new one.
    let flags = t.game.flags();
    assert_eq!((flags[0].at, flags[0].barred), (c("b7"), None));
    assert_eq!(flags[1].barred, Some(s(0)));
    assert_ne!(flags[1].at, c("c4"));

    // "Player 2 captures the flag at (4,4) and places a new one at (5,5). Player 1 may capture
    // ANY flag, but Player 2 may not capture the flag at (5,5)."
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("a1 a2"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("b7"), None)
            .flag(c("f3"), Some(s(0))),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.score(1), 3);
    let flags = t.game.flags();
    assert_eq!(flags[0].barred, None);
    assert_eq!(flags[1].barred, Some(s(1)));
}

#[test]
fn a_flag_is_captured_only_by_a_player_who_survives_the_round() {
    // Through the flag on c4 in over-drive, then off the top of the board.
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("c4"), None)
            .over_drive(true),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    t.act(0, "go forward 7");
    t.act(1, "go forward 1");
    t.act(2, "go forward 1");
    assert_eq!(t.died(0), Some(Cause::OffGrid { at: c("c8") }));
    assert_eq!(t.scores(), [-1, 0, 0]);
    assert_eq!(t.game.flags()[0].at, c("c4"));
    assert_eq!(t.game.hand(s(1)).unwrap().len(), 0);
}

#[test]
fn cards_for_captures_are_dealt_evenly_or_not_at_all() {
    // Two captures: seats 0 and 1 are owed one card each, seat 2 two; 3 cards in the deck.
    let all_but = |left: usize| {
        let deck = [
            Special::Dash,
            Special::Dash,
            Special::Dash,
            Special::UberDash,
            Special::UberDash,
            Special::UberDash,
            Special::Crusher,
            Special::Crusher,
            Special::Crusher,
            Special::CutTail,
            Special::RetractTail,
            Special::OverDrive,
        ];
        deck[left..].to_vec()
    };
    let build = |left: usize| {
        Table::new(
            position()
                .cycle(s(0), &body("c1 c2 c3"))
                .cycle(s(1), &body("f1 f2"))
                .cycle(s(2), &body(C_AWAY))
                .flag(c("c4"), None)
                .flag(c("f3"), None)
                .hand(s(2), &all_but(left)),
        )
    };
    let mut t = build(3);
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.scores(), [3, 3, 0]);
    let hands: Vec<usize> = (0..3).map(|i| t.game.hand(s(i)).unwrap().len()).collect();
    assert_eq!(hands, [1, 1, 9 + 1]);
    assert_eq!(t.game.deck_len(), 0);
    // With 2 cards for 3 players owed, nobody gets any.
    let mut t = build(2);
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    let hands: Vec<usize> = (0..3).map(|i| t.game.hand(s(i)).unwrap().len()).collect();
    assert_eq!(hands, [0, 0, 10]);
    assert_eq!(t.game.deck_len(), 2);
    assert!(
        !t.game
            .events()
            .iter()
            .any(|e| matches!(e, Event::Drew { .. }))
    );
}

#[test]
fn reincarnation_draws_a_free_square_and_the_player_places_the_tail() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("h1 h2"))
            .cycle(s(2), &body("h7 h6"))
            .flag(c("c4"), None),
    );
    // Seats 1 and 2 both drive off the board; seat 0 captures.
    t.round(&[(0, "forward"), (1, "right"), (2, "left")]);
    assert_eq!(t.game.to_act(), SeatSet::single(s(1)));
    let StageView::PlaceTail { head, .. } = t.stage() else {
        panic!("{:?}", t.stage())
    };
    // The flag captured this round is not placed before the reincarnated players.
    assert!(t.game.flags().is_empty());
    let wrong = t.game.legal_actions(s(1)).len();
    assert!((1..=4).contains(&wrong));
    t.refused(
        1,
        "head a1",
        TronError::WrongStage {
            awaiting: "a tail placement",
            got: "a head placement",
        },
    );
    t.reincarnate_all();
    assert!(t.game.cycle(s(1)).is_some() && t.game.cycle(s(2)).is_some());
    assert_eq!(t.game.cycle(s(1)).unwrap().head, head);
    assert_eq!(t.game.flags().len(), 1);
    assert_eq!(t.game.round(), 2);
    // Deaths cost a point each; the dead keep their hands and got the card for the capture.
    assert_eq!(t.scores(), [3, -1, -1]);
    assert_eq!(t.game.hand(s(1)).unwrap().len(), 1);
}

#[test]
fn the_first_to_fifteen_wins() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("c4"), None)
            .score(s(0), 12)
            .score(s(1), 14),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    let outcome = t.game.outcome().unwrap();
    assert_eq!(outcome.reason(), "target_reached");
    assert_eq!(outcome.places(), [0, 1, 2]);
    assert_eq!(t.game.to_act(), SeatSet::EMPTY);
    assert!(t.game.legal_actions(s(0)).is_empty());
    let action = t.game.parse_action("play forward").unwrap();
    assert_eq!(
        t.game.clone().play(s(0), &action, &mut t.rng),
        Err(PlayError::GameOver)
    );
}

#[test]
fn two_reaching_fifteen_together_play_on_to_sixteen_and_so_on() {
    let build = |a, b| {
        Table::new(
            position()
                .cycle(s(0), &body("c1 c2 c3"))
                .cycle(s(1), &body("f1 f2"))
                .cycle(s(2), &body(C_AWAY))
                .flag(c("c4"), None)
                .flag(c("f3"), None)
                .score(s(0), a)
                .score(s(1), b),
        )
    };
    // Both on 15: nobody has won, the target is now 16.
    let mut t = build(12, 12);
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.game.outcome(), None);
    assert_eq!(t.game.target(), 16);
    assert_eq!(t.game.round(), 2);
    // 17 against 15: the 17 reached 16 first.
    let mut t = build(14, 12);
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    assert_eq!(t.game.outcome().unwrap().places(), [0, 1, 2]);
    assert_eq!(t.game.target(), 16);
}

#[test]
fn the_round_cap_ends_the_game_ranked_by_score() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .score(s(0), 4)
            .score(s(1), 4)
            .score(s(2), -2)
            .round(MAX_ROUNDS),
    );
    t.round(&[(0, "forward"), (1, "forward"), (2, "forward")]);
    let outcome = t.game.outcome().unwrap();
    assert_eq!(outcome.reason(), "round_limit");
    assert_eq!(outcome.places(), [0, 0, 2]);
}

#[test]
fn explicit_positions_are_checked() {
    let err = |builder: TronBuilder| builder.build().unwrap_err();
    assert_eq!(err(Tron::builder(2)), SetupError::Seats(2));
    assert_eq!(err(position().size(7)), SetupError::Size(7));
    assert_eq!(err(position()), SetupError::NoCycle);
    assert_eq!(
        err(position().cycle(s(0), &body("a1"))),
        SetupError::ShortBody(s(0))
    );
    assert_eq!(
        err(position().cycle(s(0), &body("a1 a3"))),
        SetupError::NotBeside(c("a1"), c("a3"))
    );
    assert_eq!(
        err(position()
            .cycle(s(0), &body("a1 a2"))
            .cycle(s(1), &body("a2 b2"))),
        SetupError::Taken(c("a2"))
    );
    assert_eq!(
        err(position().cycle(s(0), &body("a1 a2")).flag(c("a1"), None)),
        SetupError::Taken(c("a1"))
    );
    assert_eq!(
        err(position()
            .cycle(s(0), &body("a1 a2"))
            .crusher(line("a1-a2"))),
        SetupError::LineTaken(line("a1-a2"))
    );
    assert_eq!(
        err(position()
            .cycle(s(0), &body("a1 a2"))
            .hand(s(1), &[Special::OverDrive, Special::OverDrive])),
        SetupError::TooManyCards(Special::OverDrive)
    );
    assert_eq!(
        err(position().cycle(s(5), &body("a1 a2"))),
        SetupError::NoSuchSeat(s(5))
    );
    assert_eq!(
        err(position().cycle(s(0), &body("a1 a2")).round(0)),
        SetupError::Round(0)
    );
}

#[test]
fn a_seats_hidden_cards_can_be_swapped_with_the_deck() {
    let t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::Dash]),
    );
    let swapped = t
        .game
        .with_hand(s(0), Hand::of(&[Special::Crusher]))
        .unwrap();
    assert_eq!(swapped.hand(s(0)), Some(Hand::of(&[Special::Crusher])));
    assert_eq!(swapped.deck_len(), t.game.deck_len());
    for viewer in [Viewer::Seat(s(1)), Viewer::Seat(s(2)), Viewer::Spectator] {
        assert_eq!(swapped.view(viewer), t.game.view(viewer));
    }
    assert_ne!(
        swapped.view(Viewer::Seat(s(0))),
        t.game.view(Viewer::Seat(s(0)))
    );
    assert_eq!(
        t.game
            .with_hand(s(0), Hand::of(&[Special::OverDrive, Special::OverDrive]))
            .unwrap_err(),
        SetupError::TooManyCards(Special::OverDrive)
    );
}

#[test]
fn the_diagram_shows_the_public_state() {
    let t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("e5"), Some(s(1)))
            .crusher(line("c3-c4"))
            .crusher(line("a8-b8"))
            .hand(s(0), &[Special::Dash])
            .score(s(1), 5),
    );
    let expected = [
        "   a b c d e f g h",
        " 8 .|. . . . . C c",
        " 7 . . . . . . . .",
        " 6 . . . . . . . .",
        " 5 . . . . * . . .",
        " 4 . . . . . . . .",
        "       -",
        " 3 . . A . . . . .",
        " 2 . . a . . B . .",
        " 1 . . a . . b . .",
        "   a b c d e f g h",
        "A = seat 0: 0 points, 1 special cards, head c3 facing north, tail 2",
        "B = seat 1: 5 points, 0 special cards, head f2 facing north, tail 1",
        "C = seat 2: 0 points, 0 special cards, head g8 facing west, tail 1",
        "flags: e5 (not for seat 1)",
        "crushers: c3-c4, a8-b8 (1 off the board)",
        "round 1, normal mode, target 15: seat 0, seat 1, seat 2 to choose a card",
    ];
    assert_eq!(t.game.diagram(), expected.join("\n") + "\n");
}

#[test]
fn the_view_serialises_with_squares_cards_and_seats_as_plain_values() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("f1 f2"))
            .cycle(s(2), &body(C_AWAY))
            .flag(c("e5"), Some(s(1)))
            .crusher(line("c3-c4"))
            .hand(s(0), &[Special::Dash, Special::CutTail]),
    );
    t.act(0, "play dash");
    let json = serde_json::to_value(t.game.view(Viewer::Seat(s(0)))).unwrap();
    assert_eq!(json["hand"], serde_json::json!(["cut-tail", "dash"]));
    assert_eq!(json["pending"], "play dash");
    assert_eq!(json["stage"], serde_json::json!({"stage": "choose"}));
    assert_eq!(json["seats"][0]["cycle"]["head"], "c3");
    assert_eq!(json["seats"][0]["cycle"]["facing"], "north");
    assert_eq!(json["seats"][0]["chosen"], true);
    assert_eq!(
        json["flags"][0],
        serde_json::json!({"at": "e5", "barred": 1, "reached": null})
    );
    assert_eq!(json["crushers"], serde_json::json!(["c3-c4"]));
    let other = serde_json::to_value(t.game.view(Viewer::Seat(s(1)))).unwrap();
    assert_eq!(other["hand"], serde_json::json!([]));
    assert_eq!(other["pending"], serde_json::Value::Null);
    assert_eq!(other["seats"][0]["specials"], 2);
    t.act(1, "play forward");
    t.act(2, "play forward");
    let json = serde_json::to_value(t.game.view(Viewer::Spectator)).unwrap();
    assert_eq!(
        json["stage"],
        serde_json::json!({"stage": "enact", "phase": "dash"})
    );
    assert_eq!(
        json["played"],
        serde_json::json!(["dash", "forward", "forward"])
    );
}

#[test]
fn determinize_keeps_the_viewers_view_and_deals_the_hidden_cards_again() {
    let mut t = Table::new(
        position()
            .cycle(s(0), &body("c1 c2 c3"))
            .cycle(s(1), &body("e1 e2 e3"))
            .cycle(s(2), &body(C_AWAY))
            .hand(s(0), &[Special::Dash])
            .hand(s(1), &[Special::Crusher, Special::UberDash])
            .hand(s(2), &[Special::OverDrive]),
    );
    t.act(1, "play crusher");
    t.act(2, "play forward");
    let game = t.game.clone();
    let mut changed = [false; 3];
    for seed in 0..40 {
        for viewer in (0..3).map(s) {
            let mut rng = MatchRng::from_seed(seed);
            let sample = game.determinize(viewer, &mut rng);
            for look in [Viewer::Seat(viewer), Viewer::Spectator] {
                assert_eq!(sample.view(look), game.view(look), "seed {seed}, {viewer}");
            }
            for other in (0..3).map(s).filter(|&o| o != viewer) {
                let (theirs, real) = (
                    sample.view(Viewer::Seat(other)),
                    game.view(Viewer::Seat(other)),
                );
                assert_eq!(theirs.hand.map(|h| h.len()), real.hand.map(|h| h.len()));
                // A choice is held by whoever held one, and it is one they may make.
                assert_eq!(theirs.pending.is_some(), real.pending.is_some());
                if let Some(TronAction::Play(Card::Special(card))) = theirs.pending {
                    assert!(sample.hand(other).unwrap().count(card) > 0);
                }
                changed[other.index()] |= theirs != real;
            }
            // The sample is a game that goes on: every seat to act may act.
            for seat in sample.to_act().iter() {
                let action = sample.legal_actions(seat)[0];
                sample.clone().play(seat, &action, &mut rng).unwrap();
            }
        }
    }
    // Seat 0 holds no choice, but its dash may be dealt to another seat in a sample for them.
    assert_eq!(changed, [true, true, true]);
    // What the viewer cannot see does not matter: the same draws give the same sample.
    let twin = game
        .with_hand(s(2), Hand::of(&[Special::UberDash]))
        .unwrap();
    assert_ne!(twin, game);
    let mut first = MatchRng::from_seed(5);
    let mut second = MatchRng::from_seed(5);
    assert_eq!(
        game.determinize(s(0), &mut first),
        twin.determinize(s(0), &mut second)
    );
}
