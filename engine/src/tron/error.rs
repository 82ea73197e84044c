//! Why an action or a set-up position is refused.

use std::fmt;

use super::board::{Cell, Line, Turn};
use super::cards::{Phase, Special};
use crate::game::{Explain, Seat, Why};

/// What already uses a line, so that no crusher may go there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineUser {
    Crusher,
    /// This seat's tail runs across the line.
    Tail(Seat),
}

/// Why an action breaks the rules. The game is unchanged whenever this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TronError {
    /// The seat is not among those who must act now.
    NotYourTurn(Seat),
    /// The game waits for another kind of action.
    WrongStage {
        awaiting: &'static str,
        got: &'static str,
    },
    OffBoard {
        cell: Cell,
        size: u8,
    },
    LineOffBoard {
        line: Line,
        size: u8,
    },
    /// A light-cycle, tail or flag is on the square.
    Occupied(Cell),
    /// A head may not go where its tail would have no free square beside it.
    BoxedIn(Cell),
    TailNotBeside {
        head: Cell,
        tail: Cell,
    },
    TailAcrossCrusher {
        head: Cell,
        tail: Cell,
    },
    NotInHand(Special),
    /// Cut tail needs a tail ahead, left or right of the head.
    NoTailToCut(Cell),
    /// A regular movement card goes the way it says, also in over-drive.
    WrongTurn {
        card: Turn,
        tried: Turn,
    },
    Distance {
        phase: Phase,
        distance: u8,
        min: u8,
        max: u8,
    },
    Keep {
        length: u16,
        tail: u16,
    },
    LineTaken {
        line: Line,
        by: LineUser,
    },
    /// A crusher is still off the board, so that one must be used.
    ReserveFirst,
    /// Every crusher is on the board, so the action must name the one to move.
    MoveOne,
    NoCrusherOn(Line),
}

impl fmt::Display for TronError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TronError::NotYourTurn(seat) => write!(f, "{seat} need not act now"),
            TronError::WrongStage { awaiting, got } => {
                write!(f, "the game awaits {awaiting}, not {got}")
            }
            TronError::OffBoard { cell, size } => {
                write!(f, "{cell} is off the {size}x{size} board")
            }
            TronError::LineOffBoard { line, size } => {
                write!(f, "the line {line} is off the {size}x{size} board")
            }
            TronError::Occupied(cell) => {
                write!(
                    f,
                    "{cell} is not free: a light-cycle, tail or flag is on it"
                )
            }
            TronError::BoxedIn(cell) => {
                write!(f, "{cell} has no free square beside it for the tail")
            }
            TronError::TailNotBeside { head, tail } => {
                write!(
                    f,
                    "the tail goes beside the head on {head}, and {tail} is not"
                )
            }
            TronError::TailAcrossCrusher { head, tail } => {
                write!(f, "a crusher stands between {head} and {tail}")
            }
            TronError::NotInHand(card) => write!(f, "there is no {card} card in hand"),
            TronError::NoTailToCut(head) => {
                write!(
                    f,
                    "cut-tail needs a tail ahead, left or right of the head on {head}"
                )
            }
            TronError::WrongTurn { card, tried } => write!(
                f,
                "the card played was {card}, so the move goes {card}, not {tried}"
            ),
            TronError::Distance {
                phase,
                distance,
                min,
                max,
            } if min == max => write!(f, "{phase} goes {min} spaces, not {distance}"),
            TronError::Distance {
                phase,
                distance,
                min,
                max,
            } => write!(
                f,
                "{phase} goes {min} to {max} spaces in over-drive, not {distance}"
            ),
            TronError::Keep { length, tail } => write!(
                f,
                "the tail is {tail} long: keep 1 to {tail} of it, not {length}"
            ),
            TronError::LineTaken {
                line,
                by: LineUser::Crusher,
            } => write!(f, "a crusher already stands on {line}"),
            TronError::LineTaken {
                line,
                by: LineUser::Tail(seat),
            } => write!(f, "the tail of {seat} runs across {line}"),
            TronError::ReserveFirst => write!(
                f,
                "a crusher is still off the board, so that one must be placed (no 'from')"
            ),
            TronError::MoveOne => write!(
                f,
                "every crusher is on the board: name the one to move ('from')"
            ),
            TronError::NoCrusherOn(line) => write!(f, "no crusher stands on {line}"),
        }
    }
}

impl std::error::Error for TronError {}

impl Explain for TronError {
    fn why(&self) -> Why {
        match self {
            TronError::NotYourTurn(seat) => Why::new("not_your_turn").with("seat", seat),
            TronError::WrongStage { awaiting, got } => Why::new("wrong_stage")
                .with("awaiting", awaiting)
                .with("got", got),
            TronError::OffBoard { cell, size } => Why::new("off_board")
                .with("square", cell)
                .with("size", size),
            TronError::LineOffBoard { line, size } => Why::new("line_off_board")
                .with("line", line)
                .with("size", size),
            TronError::Occupied(cell) => Why::new("occupied").with("square", cell),
            TronError::BoxedIn(cell) => Why::new("boxed_in").with("square", cell),
            TronError::TailNotBeside { head, tail } => Why::new("tail_not_beside")
                .with("head", head)
                .with("tail", tail),
            TronError::TailAcrossCrusher { head, tail } => Why::new("tail_across_crusher")
                .with("head", head)
                .with("tail", tail),
            TronError::NotInHand(card) => Why::new("not_in_hand").with("card", card),
            TronError::NoTailToCut(cell) => Why::new("no_tail_to_cut").with("square", cell),
            TronError::WrongTurn { card, tried } => Why::new("wrong_turn")
                .with("card", card)
                .with("tried", tried),
            TronError::Distance {
                phase,
                distance,
                min,
                max,
            } => Why::new("distance")
                .with("phase", phase)
                .with("distance", distance)
                .with("min", min)
                .with("max", max),
            TronError::Keep { length, tail } => {
                Why::new("keep").with("length", length).with("tail", tail)
            }
            TronError::LineTaken { line, .. } => Why::new("line_taken").with("line", line),
            TronError::ReserveFirst => Why::new("reserve_first"),
            TronError::MoveOne => Why::new("move_one"),
            TronError::NoCrusherOn(line) => Why::new("no_crusher_on").with("line", line),
        }
    }
}

/// Why a configuration or an explicit position cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Seats(usize),
    NoSuchSeat(Seat),
    /// The seat is given two light-cycles.
    CycleTwice(Seat),
    Size(u8),
    OffBoard(Cell),
    /// The square is given twice (two light-cycles, a light-cycle and a flag, two flags).
    Taken(Cell),
    /// A light-cycle needs a head and at least one tail square.
    ShortBody(Seat),
    NotBeside(Cell, Cell),
    TooManyCrushers(usize),
    LineOffBoard(Line),
    LineTaken(Line),
    TooManyCards(Special),
    /// The seat has chosen this special card for the round, so its hand must keep it.
    ChosenCard(Special),
    TooManyFlags(usize),
    NoCycle,
    Round(u32),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Seats(n) => write!(f, "Tron is played by 3 to 8 players, not {n}"),
            SetupError::NoSuchSeat(seat) => write!(f, "there is no {seat} in this game"),
            SetupError::CycleTwice(seat) => write!(f, "{seat} is given two light-cycles"),
            SetupError::Size(n) => {
                write!(f, "the board must be 8 to 22 squares across, not {n}")
            }
            SetupError::OffBoard(cell) => write!(f, "{cell} is off the board"),
            SetupError::Taken(cell) => write!(f, "{cell} is given twice"),
            SetupError::ShortBody(seat) => write!(
                f,
                "the light-cycle of {seat} needs a head and at least one tail square"
            ),
            SetupError::NotBeside(a, b) => write!(
                f,
                "{a} and {b} follow each other in a light-cycle but are not side by side"
            ),
            SetupError::TooManyCrushers(n) => write!(f, "there are 3 crushers, not {n}"),
            SetupError::LineOffBoard(line) => write!(f, "the line {line} is off the board"),
            SetupError::LineTaken(line) => {
                write!(f, "{line} already has a crusher or a tail across it")
            }
            SetupError::TooManyCards(card) => write!(
                f,
                "the hands hold more {card} cards than the deck's {}",
                card.in_deck()
            ),
            SetupError::ChosenCard(card) => write!(
                f,
                "the seat has chosen its {card} card this round, so its hand must keep it"
            ),
            SetupError::TooManyFlags(n) => {
                write!(f, "there is one flag per player, so not {n}")
            }
            SetupError::NoCycle => write!(f, "at least one light-cycle must be on the board"),
            SetupError::Round(n) => write!(f, "round {n} is not between 1 and the round cap"),
        }
    }
}

impl std::error::Error for SetupError {}
