//! Reading Fox and Geese's notation: points (`d5`) and actions (`d5-d3-f3`).

use std::fmt;
use std::str::FromStr;

use super::point::Point;
use super::{FoxGeeseAction, FoxGeeseError};
use crate::notation::{Cursor, NotationError};

/// What the notation reader wanted to see next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    File,
    Rank,
    Dash,
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::File => "a file letter a-g",
            Expected::Rank => "a rank digit 1-7",
            Expected::Dash => "'-'",
            Expected::End => "the end of the text",
        })
    }
}

impl From<NotationError<Expected>> for FoxGeeseError {
    fn from(e: NotationError<Expected>) -> FoxGeeseError {
        FoxGeeseError::Notation(e)
    }
}

fn point(cursor: &mut Cursor) -> Result<Point, FoxGeeseError> {
    let at = cursor.at();
    let file = cursor.take(Expected::File, |c| ('a'..='g').contains(&c).then_some(c))?;
    let rank = cursor.take(Expected::Rank, |c| ('1'..='7').contains(&c).then_some(c))?;
    // Both characters were checked to be ASCII, so the byte arithmetic is exact.
    Point::new(file as u8 - b'a', rank as u8 - b'1').ok_or(FoxGeeseError::OffBoard {
        at,
        file,
        rank,
    })
}

// Reading lives with the notation, so that the board's types know nothing of it.
impl Point {
    /// Reads a point's name, such as `d5`; nothing may follow it.
    pub fn parse(text: &str) -> Result<Point, FoxGeeseError> {
        let mut cursor = Cursor::new(text);
        let point = point(&mut cursor)?;
        cursor.end(Expected::End)?;
        Ok(point)
    }
}

impl FromStr for Point {
    type Err = FoxGeeseError;

    fn from_str(text: &str) -> Result<Point, FoxGeeseError> {
        Point::parse(text)
    }
}

impl FoxGeeseAction {
    /// Reads the `d5-d3-f3` form that [`Display`](fmt::Display) writes.
    pub fn parse(text: &str) -> Result<FoxGeeseAction, FoxGeeseError> {
        let mut cursor = Cursor::new(text);
        let from = point(&mut cursor)?;
        let mut landings = Vec::new();
        while landings.is_empty() || !cursor.at_end() {
            cursor.expect('-', Expected::Dash)?;
            landings.push(point(&mut cursor)?);
        }
        FoxGeeseAction::new(from, landings)
    }
}

impl FromStr for FoxGeeseAction {
    type Err = FoxGeeseError;

    fn from_str(text: &str) -> Result<FoxGeeseAction, FoxGeeseError> {
        FoxGeeseAction::parse(text)
    }
}
