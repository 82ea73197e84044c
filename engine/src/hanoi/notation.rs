//! Reading Hanoi's notation: cells (`c3`), actions (`c3-ne`, `pass`) and stacks (`W5B4W3`).
//! Every error names the character position, counted from 1.

use std::fmt;

use super::HanoiAction;
use super::HanoiError;
use super::board::{Cell, Colour, Dir, Disc, Size, Stack};
use crate::notation::{Cursor, NotationError};

/// What the reader wanted to see next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A row letter `a`-`e`.
    Row,
    /// A diagonal digit `1`-`5`.
    Diagonal,
    Dash,
    /// `n`, `s`, `e` or `w`, starting a direction.
    Direction,
    /// `e` or `w`, completing `n` or `s` into a direction.
    EastOrWest,
    /// The next letter of the word `pass`.
    Pass,
    /// A colour letter `W`, `B` or `R`.
    Colour,
    /// A disc size digit `1`-`5`.
    Size,
    End,
}

impl From<NotationError<Expected>> for HanoiError {
    fn from(e: NotationError<Expected>) -> HanoiError {
        HanoiError::Notation(e)
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Row => "a row letter a-e",
            Expected::Diagonal => "a diagonal digit 1-5",
            Expected::Dash => "'-'",
            Expected::Direction => "a direction (e, ne, nw, w, sw, se)",
            Expected::EastOrWest => "'e' or 'w'",
            Expected::Pass => "the word 'pass'",
            Expected::Colour => "a colour letter W, B or R",
            Expected::Size => "a disc size 1-5",
            Expected::End => "the end of the text",
        })
    }
}

fn cell(cursor: &mut Cursor) -> Result<Cell, HanoiError> {
    let at = cursor.at();
    let row = cursor.take(Expected::Row, |c| ('a'..='e').contains(&c).then_some(c))?;
    let diag = cursor.take(Expected::Diagonal, |c| {
        ('1'..='5').contains(&c).then_some(c)
    })?;
    // Both characters were checked to be ASCII, so the byte arithmetic is exact.
    Cell::new(row as u8 - b'a', diag as u8 - b'1').ok_or(HanoiError::OffBoard { at, row, diag })
}

fn dir(cursor: &mut Cursor) -> Result<Dir, NotationError<Expected>> {
    let first = cursor.take(Expected::Direction, |c| "nsew".contains(c).then_some(c))?;
    let dir = match first {
        'e' => Dir::East,
        'w' => Dir::West,
        _ => {
            let east = cursor.take(Expected::EastOrWest, |c| match c {
                'e' => Some(true),
                'w' => Some(false),
                _ => None,
            })?;
            match (first == 'n', east) {
                (true, true) => Dir::NorthEast,
                (true, false) => Dir::NorthWest,
                (false, true) => Dir::SouthEast,
                (false, false) => Dir::SouthWest,
            }
        }
    };
    Ok(dir)
}

fn disc(cursor: &mut Cursor) -> Result<Disc, NotationError<Expected>> {
    let colour = cursor.take(Expected::Colour, |c| {
        Colour::ALL.into_iter().find(|colour| colour.letter() == c)
    })?;
    let size = cursor.take(Expected::Size, |c| {
        c.to_digit(10).and_then(|n| Size::new(n as u8))
    })?;
    Ok(Disc { colour, size })
}

pub(super) fn parse_cell(text: &str) -> Result<Cell, HanoiError> {
    let mut cursor = Cursor::new(text);
    let cell = cell(&mut cursor)?;
    cursor.end(Expected::End)?;
    Ok(cell)
}

/// Reads `pass` or `<cell>-<direction>`.
pub(super) fn parse_action(text: &str) -> Result<HanoiAction, HanoiError> {
    let mut cursor = Cursor::new(text);
    let action = if cursor.peek() == Some('p') {
        for letter in "pass".chars() {
            cursor.expect(letter, Expected::Pass)?;
        }
        HanoiAction::Pass
    } else {
        let from = cell(&mut cursor)?;
        cursor.expect('-', Expected::Dash)?;
        HanoiAction::Move {
            from,
            dir: dir(&mut cursor)?,
        }
    };
    cursor.end(Expected::End)?;
    Ok(action)
}

/// Reads a stack, bottom disc first, such as `W5B4W3`.
pub(super) fn parse_stack(text: &str) -> Result<Stack, HanoiError> {
    let mut cursor = Cursor::new(text);
    let mut stack = Stack::EMPTY;
    while cursor.peek().is_some() {
        let at = cursor.at();
        let disc = disc(&mut cursor)?;
        stack
            .try_push(disc)
            .map_err(|error| HanoiError::Stacking { at, error })?;
    }
    Ok(stack)
}

// Reading lives with the notation, so that the board's types know nothing of it.
impl Cell {
    /// Reads a cell's name, such as `c3`; nothing may follow it.
    pub fn parse(text: &str) -> Result<Cell, HanoiError> {
        parse_cell(text)
    }
}

impl Stack {
    /// Reads the `W5B4W3` form that [`Display`](fmt::Display) writes; the empty text is the
    /// empty stack.
    pub fn parse(text: &str) -> Result<Stack, HanoiError> {
        parse_stack(text)
    }
}
