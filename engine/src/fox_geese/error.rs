//! Why an action cannot be read or played, and why a position cannot be set up.

use std::fmt;

use super::Side;
use super::notation::Expected;
use super::point::Point;
use crate::game::{Explain, Why};
use crate::notation::NotationError;

/// Why an action cannot be read or played. Character positions count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoxGeeseError {
    /// The notation has the wrong character (or ends) at character `at`.
    Notation(NotationError<Expected>),
    /// The name starting at character `at` is on the 7x7 grid but not on the cross.
    OffBoard {
        at: usize,
        file: char,
        rank: char,
    },
    /// An action was built with no landing point.
    NoLanding {
        from: Point,
    },
    /// No action is legal once the game has ended.
    GameOver,
    NoPiece(Point),
    NotYourPiece {
        point: Point,
        owner: Side,
    },
    /// The piece would land on a point that is not empty.
    Occupied(Point),
    /// `to` is neither a step nor a jump away from `from` along a line.
    NotAdjacent {
        from: Point,
        to: Point,
    },
    GooseBackward {
        from: Point,
        to: Point,
    },
    /// A goose was given more than one landing.
    GooseChain {
        from: Point,
    },
    /// The fox tried to step as part of a chain of jumps.
    StepInChain {
        from: Point,
        to: Point,
    },
    /// The fox tried to jump a point that holds no goose.
    BadJump {
        from: Point,
        over: Point,
        to: Point,
    },
}

impl fmt::Display for FoxGeeseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FoxGeeseError::Notation(e) => e.fmt(f),
            FoxGeeseError::OffBoard { at, file, rank } => {
                write!(
                    f,
                    "character {at}: {file}{rank} is not a point of the cross"
                )
            }
            FoxGeeseError::NoLanding { from } => {
                write!(f, "the action from {from} has no landing point")
            }
            FoxGeeseError::GameOver => write!(f, "the game is over"),
            FoxGeeseError::NoPiece(point) => write!(f, "there is no piece on {point}"),
            FoxGeeseError::NotYourPiece { point, owner } => {
                write!(
                    f,
                    "the piece on {point} is the {owner}'s, and it is not their turn"
                )
            }
            FoxGeeseError::Occupied(point) => write!(f, "{point} is not empty"),
            FoxGeeseError::NotAdjacent { from, to } => {
                write!(f, "{to} is not a step or a jump from {from} along a line")
            }
            FoxGeeseError::GooseBackward { from, to } => {
                write!(f, "the goose on {from} may not move backward to {to}")
            }
            FoxGeeseError::GooseChain { from } => {
                write!(f, "the goose on {from} moves one step, not several")
            }
            FoxGeeseError::StepInChain { from, to } => write!(
                f,
                "the fox may not step from {from} to {to} within a chain of jumps"
            ),
            FoxGeeseError::BadJump { from, over, to } => write!(
                f,
                "the fox cannot jump from {from} to {to}: there is no goose on {over}"
            ),
        }
    }
}

impl std::error::Error for FoxGeeseError {}

impl Explain for FoxGeeseError {
    fn why(&self) -> Why {
        match self {
            FoxGeeseError::Notation(e) => Why::new("notation").with("at", e.at),
            FoxGeeseError::OffBoard { at, file, rank } => Why::new("not_on_cross")
                .with("at", at)
                .with("point", format!("{file}{rank}")),
            FoxGeeseError::NoLanding { from } => Why::new("no_landing").with("from", from),
            FoxGeeseError::GameOver => Why::new("game_over"),
            FoxGeeseError::NoPiece(point) => Why::new("no_piece").with("square", point),
            FoxGeeseError::NotYourPiece { point, owner } => Why::new("not_your_piece")
                .with("square", point)
                .with("side", owner),
            FoxGeeseError::Occupied(point) => Why::new("occupied").with("square", point),
            FoxGeeseError::NotAdjacent { from, to } => {
                Why::new("not_adjacent").with("from", from).with("to", to)
            }
            FoxGeeseError::GooseBackward { from, to } => {
                Why::new("goose_backward").with("from", from).with("to", to)
            }
            FoxGeeseError::GooseChain { from } => Why::new("goose_chain").with("from", from),
            FoxGeeseError::StepInChain { from, to } => {
                Why::new("step_in_chain").with("from", from).with("to", to)
            }
            FoxGeeseError::BadJump { from, over, to } => Why::new("bad_jump")
                .with("from", from)
                .with("over", over)
                .with("to", to),
        }
    }
}

/// Why a position cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    FoxOnGoose(Point),
    GooseTwice(Point),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::FoxOnGoose(point) => write!(f, "the fox and a goose are both on {point}"),
            SetupError::GooseTwice(point) => write!(f, "{point} is given two geese"),
        }
    }
}

impl std::error::Error for SetupError {}
