//! Actions and their text notation.
//!
//! | action | text |
//! |---|---|
//! | place the head (setup) | `head c5` |
//! | place the tail (setup, reincarnation) | `tail c4` |
//! | choose the round's card | `play forward`, `play left`, `play right`, `play cut-tail`, `play retract-tail`, `play dash`, `play uber-dash`, `play crusher`, `play over-drive` |
//! | steer a move when it is enacted | `go left 2` (turn, then spaces) |
//! | retract the tail to a length | `keep 3` |
//! | place a crusher | `crusher c5-c6`, or moving one already on the board: `crusher c5-c6 from d1-d2` |

use std::fmt;

use super::board::{Cell, Line, MAX_SIZE, Turn};
use super::cards::Card;
use crate::notation::{self, Cursor};

/// One action of one seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TronAction {
    /// Setup: put the head of the light-cycle on this square.
    Head(Cell),
    /// Setup or reincarnation: put the tail on this square beside the head; the light-cycle then
    /// faces from the tail to the head.
    Tail(Cell),
    /// The round's card, chosen in secret.
    Play(Card),
    /// How a played move goes, chosen when it is enacted: cut tail, dash and uber-dash choose
    /// the turn; in over-drive every move also chooses how many spaces.
    Go { turn: Turn, distance: u8 },
    /// Retract tail: the tail length to keep.
    Keep(u16),
    /// Crusher: the line to put a crusher on, and, once all crushers are on the board, the line
    /// of the one to move there.
    Crusher { to: Line, from: Option<Line> },
}

impl TronAction {
    /// What kind of action this is, for error messages.
    pub(crate) const fn kind(&self) -> &'static str {
        match self {
            TronAction::Head(_) => "a head placement",
            TronAction::Tail(_) => "a tail placement",
            TronAction::Play(_) => "a card",
            TronAction::Go { .. } => "a move ('go')",
            TronAction::Keep(_) => "a tail length ('keep')",
            TronAction::Crusher { .. } => "a crusher placement",
        }
    }

    /// Reads the notation that [`Display`](fmt::Display) writes, for a `size` x `size` board:
    /// squares off that board are refused where they are written.
    pub fn parse(text: &str, size: u8) -> Result<TronAction, NotationError> {
        let mut cursor = Reader {
            cursor: Cursor::new(text),
            size: size.clamp(1, MAX_SIZE),
        };
        let (at, word) = cursor.word(Expected::Action)?;
        let action = match word.as_str() {
            "head" => TronAction::Head(cursor.then_cell()?),
            "tail" => TronAction::Tail(cursor.then_cell()?),
            "play" => {
                cursor.space()?;
                let (at, name) = cursor.word(Expected::Card)?;
                let card = Card::ALL
                    .into_iter()
                    .find(|card| card.name() == name)
                    .ok_or(NotationError::unexpected(at, Expected::Card, &name))?;
                TronAction::Play(card)
            }
            "go" => {
                cursor.space()?;
                let (at, name) = cursor.word(Expected::Turn)?;
                let turn = Turn::ALL
                    .into_iter()
                    .find(|turn| turn.name() == name)
                    .ok_or(NotationError::unexpected(at, Expected::Turn, &name))?;
                cursor.space()?;
                let distance = cursor.number(0..=u8::MAX, Expected::Number(u8::MAX.into()))?;
                TronAction::Go { turn, distance }
            }
            "keep" => {
                cursor.space()?;
                TronAction::Keep(cursor.number(0..=u16::MAX, Expected::Number(u16::MAX.into()))?)
            }
            "crusher" => {
                cursor.space()?;
                let to = cursor.line()?;
                let from = if cursor.cursor.at_end() {
                    None
                } else {
                    cursor.space()?;
                    let (at, word) = cursor.word(Expected::From)?;
                    if word != "from" {
                        return Err(NotationError::unexpected(at, Expected::From, &word));
                    }
                    cursor.space()?;
                    Some(cursor.line()?)
                };
                TronAction::Crusher { to, from }
            }
            _ => return Err(NotationError::unexpected(at, Expected::Action, &word)),
        };
        cursor.cursor.end(Expected::End)?;
        Ok(action)
    }
}

impl fmt::Display for TronAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TronAction::Head(cell) => write!(f, "head {cell}"),
            TronAction::Tail(cell) => write!(f, "tail {cell}"),
            TronAction::Play(card) => write!(f, "play {card}"),
            TronAction::Go { turn, distance } => write!(f, "go {turn} {distance}"),
            TronAction::Keep(length) => write!(f, "keep {length}"),
            TronAction::Crusher { to, from: None } => write!(f, "crusher {to}"),
            TronAction::Crusher {
                to,
                from: Some(from),
            } => {
                write!(f, "crusher {to} from {from}")
            }
        }
    }
}

impl serde::Serialize for TronAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What the notation reader wanted to see next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    Action,
    Card,
    Turn,
    /// A column letter, `a` to this one.
    Column(char),
    /// A row number, 1 to this one.
    Row(u8),
    /// A number no larger than this.
    Number(u32),
    /// The `-` between the two squares of a line.
    Dash,
    From,
    Space,
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Action => f.write_str("an action: head, tail, play, go, keep or crusher"),
            Expected::Card => f.write_str(
                "a card: forward, left, right, cut-tail, retract-tail, dash, uber-dash, \
                 crusher or over-drive",
            ),
            Expected::Turn => f.write_str("forward, left or right"),
            Expected::Column(last) => write!(f, "a column letter a-{last}"),
            Expected::Row(last) => write!(f, "a row number 1-{last}"),
            Expected::Number(max) => write!(f, "a number 0-{max}"),
            Expected::Dash => f.write_str("'-' between the two squares of a line"),
            Expected::From => f.write_str("'from'"),
            Expected::Space => f.write_str("a space"),
            Expected::End => f.write_str("the end of the text"),
        }
    }
}

/// Why a text is not an action. Character positions count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text has the wrong thing (or ends) where the error says; what it found is a word.
    Unexpected(notation::NotationError<Expected, String>),
    /// The line starting at character `at` joins two squares that are not side by side.
    NotSideBySide { at: usize, a: Cell, b: Cell },
}

impl NotationError {
    fn unexpected(at: usize, expected: Expected, found: &str) -> NotationError {
        NotationError::Unexpected(notation::NotationError {
            at,
            expected,
            found: Some(found.to_string()),
        })
    }
}

impl From<notation::NotationError<Expected>> for NotationError {
    fn from(e: notation::NotationError<Expected>) -> NotationError {
        NotationError::Unexpected(e.as_word())
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unexpected(e) => e.fmt(f),
            NotationError::NotSideBySide { at, a, b } => write!(
                f,
                "character {at}: {a} and {b} are not side by side, so no line runs between them"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// The shared [`Cursor`], and the size of the board whose squares it reads.
struct Reader {
    cursor: Cursor,
    size: u8,
}

impl Reader {
    /// A word of lowercase letters and dashes.
    fn word(&mut self, expected: Expected) -> Result<(usize, String), NotationError> {
        let (at, word) = self
            .cursor
            .take_while(|c| c.is_ascii_lowercase() || c == '-');
        if word.is_empty() {
            return Err(self.cursor.error(expected).into());
        }
        Ok((at, word))
    }

    fn space(&mut self) -> Result<(), NotationError> {
        Ok(self.cursor.expect(' ', Expected::Space)?)
    }

    /// Digits making a number in `range`; `expected` names the range in the error.
    fn number<T: std::str::FromStr + PartialOrd>(
        &mut self,
        range: std::ops::RangeInclusive<T>,
        expected: Expected,
    ) -> Result<T, NotationError> {
        let (at, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
        if digits.is_empty() {
            return Err(self.cursor.error(expected).into());
        }
        digits
            .parse::<T>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or(NotationError::unexpected(at, expected, &digits))
    }

    fn cell(&mut self) -> Result<Cell, NotationError> {
        let last_col = char::from(b'a' + self.size - 1);
        let col = self.cursor.take(Expected::Column(last_col), |c| {
            ('a'..=last_col).contains(&c).then(|| c as u8 - b'a')
        })?;
        let row = self.number(1..=self.size, Expected::Row(self.size))?;
        Ok(Cell::new(col, row - 1).expect("a column and a row within the board"))
    }

    /// A space, then a square.
    fn then_cell(&mut self) -> Result<Cell, NotationError> {
        self.space()?;
        self.cell()
    }

    fn line(&mut self) -> Result<Line, NotationError> {
        let at = self.cursor.at();
        let a = self.cell()?;
        self.cursor.expect('-', Expected::Dash)?;
        let b = self.cell()?;
        Line::between(a, b).ok_or(NotationError::NotSideBySide { at, a, b })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::Special;

    fn cell(text: &str) -> Cell {
        match TronAction::parse(&format!("head {text}"), MAX_SIZE) {
            Ok(TronAction::Head(cell)) => cell,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn every_form_round_trips() {
        let line = Line::between(cell("c5"), cell("c6")).unwrap();
        let other = Line::between(cell("d1"), cell("e1")).unwrap();
        let actions = [
            TronAction::Head(cell("a1")),
            TronAction::Tail(cell("l12")),
            TronAction::Play(Card::Special(Special::UberDash)),
            TronAction::Play(Card::Regular(Turn::Left)),
            TronAction::Go {
                turn: Turn::Right,
                distance: 11,
            },
            TronAction::Keep(40),
            TronAction::Crusher {
                to: line,
                from: None,
            },
            TronAction::Crusher {
                to: line,
                from: Some(other),
            },
        ];
        for action in actions {
            let text = action.to_string();
            assert_eq!(TronAction::parse(&text, 12), Ok(action), "{text}");
        }
        assert_eq!(
            actions[7].to_string(),
            "crusher c5-c6 from d1-e1",
            "lines are written south or west square first"
        );
    }

    #[test]
    fn errors_name_the_character() {
        let err = |text: &str| TronAction::parse(text, 12).unwrap_err().to_string();
        assert_eq!(
            err("jump a1"),
            "character 1: expected an action: head, tail, play, go, keep or crusher, \
             found 'jump'"
        );
        assert_eq!(
            err("head m1"),
            "character 6: expected a column letter a-l, found 'm'"
        );
        assert_eq!(
            err("head a13"),
            "character 7: expected a row number 1-12, found '13'"
        );
        assert_eq!(
            err("head a0"),
            "character 7: expected a row number 1-12, found '0'"
        );
        assert_eq!(
            err("tail"),
            "character 5: expected a space, found the end of the text"
        );
        assert_eq!(
            err("play jump"),
            "character 6: expected a card: forward, left, right, cut-tail, retract-tail, dash, \
             uber-dash, crusher or over-drive, found 'jump'"
        );
        assert_eq!(
            err("go up 2"),
            "character 4: expected forward, left or right, found 'up'"
        );
        assert_eq!(
            err("go left 300"),
            "character 9: expected a number 0-255, found '300'"
        );
        assert_eq!(
            err("crusher c5-d6"),
            "character 9: c5 and d6 are not side by side, so no line runs between them"
        );
        assert_eq!(
            err("crusher c5c6"),
            "character 11: expected '-' between the two squares of a line, found 'c'"
        );
        assert_eq!(
            err("crusher c5-c6 to d1-d2"),
            "character 15: expected 'from', found 'to'"
        );
        assert_eq!(
            err("keep 3 "),
            "character 7: expected the end of the text, found ' '"
        );
    }
}
