//! Pyramids, dice and actions, with the actions' text notation.

use std::fmt;

use super::TowerRaceError;
use crate::game::{MAX_SEATS, Seat};
use crate::notation::{Cursor, NotationError};
use crate::rng::MatchRng;

/// The most pyramids a player has (the advanced version's 4).
pub const MAX_PYRAMIDS: usize = 4;

/// A pyramid's size, 1 being the smallest. Each player has one pyramid of each size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size(u8);

impl Size {
    /// The size `n`, from 1 to [`MAX_PYRAMIDS`].
    pub const fn new(n: u8) -> Option<Size> {
        if n >= 1 && n as usize <= MAX_PYRAMIDS {
            Some(Size(n))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// 0-based, for arrays indexed by size.
    pub(super) const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The sizes of a set of `count` pyramids, smallest first.
    pub(super) fn up_to(count: u8) -> impl Iterator<Item = Size> {
        (1..=count).map(Size)
    }
}

impl serde::Serialize for Size {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of sizes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct SizeSet(u8);

impl SizeSet {
    pub fn contains(self, size: Size) -> bool {
        self.0 & (1 << size.0) != 0
    }

    pub fn with(self, size: Size) -> SizeSet {
        SizeSet(self.0 | 1 << size.0)
    }
}

/// One face of the D6.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Die(u8);

impl Die {
    /// The face `n`, from 1 to 6.
    pub const fn new(n: u8) -> Option<Die> {
        if n >= 1 && n <= 6 { Some(Die(n)) } else { None }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// A roll of the D6 from the match's RNG.
    pub(super) fn roll(rng: &mut MatchRng) -> Die {
        Die(rng.roll(6))
    }
}

impl serde::Serialize for Die {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Every seat, by index: built at compile time, so the `panic!` can never run.
pub(super) const SEATS: [Seat; MAX_SEATS] = {
    let mut seats = [match Seat::new(0) {
        Some(seat) => seat,
        None => panic!("every game has a seat 0"),
    }; MAX_SEATS];
    let mut i = 0;
    while i < MAX_SEATS {
        seats[i] = match Seat::new(i) {
            Some(seat) => seat,
            None => panic!("seats below MAX_SEATS exist"),
        };
        i += 1;
    }
    seats
};

/// One player's pyramid of one size. Serialises as `{"seat": 0, "size": 2}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Pyramid {
    #[serde(serialize_with = "super::seat_number")]
    pub seat: Seat,
    pub size: Size,
}

impl Pyramid {
    /// The pyramid's bit in a tile's set of occupants: grouped by size, so that the highest set
    /// bit of a tile is its biggest pyramid, the top of its stack.
    pub(super) const fn bit(self) -> u32 {
        1 << (self.size.index() * 8 + self.seat.index())
    }

    /// The pyramid whose [`Pyramid::bit`] is bit `index` (0 to 31).
    pub(super) fn from_bit(index: u32) -> Pyramid {
        Pyramid {
            seat: SEATS[index as usize % MAX_SEATS],
            size: Size((index / 8) as u8 + 1),
        }
    }
}

impl fmt::Display for Pyramid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s pyramid {}", self.seat, self.size)
    }
}

/// One decision of one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TowerRaceAction {
    /// `m2`: move my pyramid of this size forward by the die (entering the board, moving along
    /// the path, or into the End-tile). Onto a tile whose top is an opponent's pyramid of the same
    /// size, it challenges that pyramid.
    Move(Size),
    /// `pass`: forfeit the move, allowed only when no pyramid can move by the die.
    Pass,
    /// `c1x3`: at the end of my turn, challenge with my captured pyramid `mine` the opponent's
    /// pyramid of size `theirs` stacked over it.
    Challenge { mine: Size, theirs: Size },
    /// `wait`: end my turn without challenging.
    Wait,
    /// `accept`: play the challenge posed to me (roll the die).
    Accept,
    /// `refuse`: refuse the challenge posed to me (advanced version only), losing my next turn.
    Refuse,
}

/// Actions serialise in their notation (`m2`, `c1x3`, `accept`).
impl serde::Serialize for TowerRaceAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl TowerRaceAction {
    /// Reads the notation [`Display`](fmt::Display) writes, for a game of `pyramids` pyramids per
    /// player.
    pub fn parse(text: &str, pyramids: u8) -> Result<TowerRaceAction, TowerRaceError> {
        let mut cursor = Cursor::new(text);
        let size = |cursor: &mut Cursor| {
            cursor.take(Expected::Size(pyramids), |c| {
                let n = u8::try_from(c.to_digit(10)?).ok()?;
                Size::new(n).filter(|size| size.get() <= pyramids)
            })
        };
        let word = |cursor: &mut Cursor, word: &str, action| {
            word.chars()
                .try_for_each(|letter| cursor.expect(letter, Expected::Letter(letter)))
                .map(|()| action)
        };
        let action = match cursor.peek() {
            Some('m') => {
                cursor.advance();
                TowerRaceAction::Move(size(&mut cursor)?)
            }
            Some('c') => {
                cursor.advance();
                let mine = size(&mut cursor)?;
                cursor.expect('x', Expected::Letter('x'))?;
                TowerRaceAction::Challenge {
                    mine,
                    theirs: size(&mut cursor)?,
                }
            }
            Some('p') => word(&mut cursor, "pass", TowerRaceAction::Pass)?,
            Some('w') => word(&mut cursor, "wait", TowerRaceAction::Wait)?,
            Some('a') => word(&mut cursor, "accept", TowerRaceAction::Accept)?,
            Some('r') => word(&mut cursor, "refuse", TowerRaceAction::Refuse)?,
            _ => return Err(cursor.error(Expected::Action).into()),
        };
        cursor.end(Expected::End)?;
        Ok(action)
    }
}

impl fmt::Display for TowerRaceAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TowerRaceAction::Move(size) => write!(f, "m{size}"),
            TowerRaceAction::Pass => f.write_str("pass"),
            TowerRaceAction::Challenge { mine, theirs } => write!(f, "c{mine}x{theirs}"),
            TowerRaceAction::Wait => f.write_str("wait"),
            TowerRaceAction::Accept => f.write_str("accept"),
            TowerRaceAction::Refuse => f.write_str("refuse"),
        }
    }
}

/// What the notation reader wanted to see next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The start of an action.
    Action,
    /// A pyramid size from 1 to this many.
    Size(u8),
    /// This letter of a word.
    Letter(char),
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Action => f.write_str("an action (m, c, pass, wait, accept or refuse)"),
            Expected::Size(most) => write!(f, "a pyramid size 1-{most}"),
            Expected::Letter(c) => write!(f, "'{c}'"),
            Expected::End => f.write_str("the end of the text"),
        }
    }
}

impl From<NotationError<Expected>> for TowerRaceError {
    fn from(e: NotationError<Expected>) -> TowerRaceError {
        TowerRaceError::Notation(e)
    }
}
