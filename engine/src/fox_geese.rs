//! Fox and Geese (Hala-tafl): a hunt game for two on the 33-point cross.
//!
//! The rules as implemented, with every choice made where the seed is silent and why, are in
//! `docs/rules/fox-geese.md`: the 33-point cross with orthogonal lines only; the geese (seat 0,
//! first) step forward or sideways; the fox steps, or jumps and removes geese in one chained
//! action; the game ends by `geese_too_few`, `fox_trapped`, `geese_stuck`, `fox_escaped` or a
//! drawn `repetition`, judged in that order.
//!
//! There is no hidden information and no chance: every viewer sees the same [`FoxGeeseView`].

use std::convert::Infallible;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Game, Outcome, Seat, SeatSet, Viewer};
use crate::rng::MatchRng;

/// Files and ranks of the grid the cross is cut from.
const SIZE: u8 = 7;

/// The fewest geese that can trap the fox (see `docs/rules/fox-geese.md`, "Ends").
const MIN_GEESE: u32 = 4;

/// The geese's start: files c-e of ranks 1 and 2, then all of rank 3 (bit `rank * 7 + file`).
const START_GEESE: u64 = 0b0011100 | 0b0011100 << 7 | 0b1111111 << 14;

/// The fox's start, `d5`. Evaluated at compile time, so the `panic!` can never run.
const FOX_START: Point = match Point::new(3, 4) {
    Some(point) => point,
    None => panic!("d5 is on the cross"),
};

const GEESE_SEAT: Seat = match Seat::new(0) {
    Some(seat) => seat,
    None => panic!("every game has a seat 0"),
};

const FOX_SEAT: Seat = match Seat::new(1) {
    Some(seat) => seat,
    None => panic!("every game has a seat 1"),
};

/// A point of the cross, as its index `rank * 7 + file` in the 7x7 grid (a1 = 0). Only the 33
/// points of the cross can be built, so a `Point` is always on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point at 0-based `file` (a = 0) and `rank` (1 = 0), if it is on the cross: the
    /// middle three files and the middle three ranks make up the two arms.
    pub const fn new(file: u8, rank: u8) -> Option<Point> {
        let on_grid = file < SIZE && rank < SIZE;
        if on_grid && (file.abs_diff(3) <= 1 || rank.abs_diff(3) <= 1) {
            Some(Point(rank * SIZE + file))
        } else {
            None
        }
    }

    /// 0-based file, a = 0.
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// 0-based rank, 1 = 0.
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// All 33 points, rank by rank from the bottom.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..SIZE).flat_map(|rank| (0..SIZE).filter_map(move |file| Point::new(file, rank)))
    }

    /// Reads a point's name, such as `d5`; nothing may follow it.
    pub fn parse(text: &str) -> Result<Point, FoxGeeseError> {
        let mut cursor = Cursor::new(text);
        let point = cursor.point()?;
        cursor.end()?;
        Ok(point)
    }

    /// The neighbouring point in `dir`, if the cross has one.
    fn step(self, dir: Dir) -> Option<Point> {
        let (df, dr) = dir.offset();
        Point::new(
            self.file().checked_add_signed(df)?,
            self.rank().checked_add_signed(dr)?,
        )
    }

    /// The points one step away along a line (two to four of them).
    pub(crate) fn neighbours(self) -> impl Iterator<Item = Point> {
        Dir::ALL.into_iter().filter_map(move |dir| self.step(dir))
    }

    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Point {
    type Err = FoxGeeseError;

    fn from_str(text: &str) -> Result<Point, FoxGeeseError> {
        Point::parse(text)
    }
}

/// The four directions of the lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];
    /// Where a goose may go: forward (towards rank 7) or sideways.
    const GOOSE: [Dir; 3] = [Dir::North, Dir::East, Dir::West];

    /// (file, rank) change of one step.
    const fn offset(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }
}

/// How one point lies from another along a line, as far as moves care.
enum Reach {
    /// The next point in this direction.
    Step(Dir),
    /// Two points on, with `over` in between.
    Jump { over: Point },
}

/// Whether `to` is a step or a jump away from `from`; `None` when it is neither.
fn reach(from: Point, to: Point) -> Option<Reach> {
    Dir::ALL.into_iter().find_map(|dir| {
        let next = from.step(dir)?;
        if next == to {
            return Some(Reach::Step(dir));
        }
        (next.step(dir)? == to).then_some(Reach::Jump { over: next })
    })
}

/// The two sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Geese,
    Fox,
}

impl Side {
    pub const fn opponent(self) -> Side {
        match self {
            Side::Geese => Side::Fox,
            Side::Fox => Side::Geese,
        }
    }

    /// The seat that plays this side: the geese sit at 0, the fox at 1.
    pub const fn seat(self) -> Seat {
        match self {
            Side::Geese => GEESE_SEAT,
            Side::Fox => FOX_SEAT,
        }
    }

    /// The side played from `seat`, if the game has that seat.
    pub fn of_seat(seat: Seat) -> Option<Side> {
        [Side::Geese, Side::Fox]
            .into_iter()
            .find(|side| side.seat() == seat)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Geese => "geese",
            Side::Fox => "fox",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One action: the piece on `from` goes to each landing point in turn. A goose has exactly one
/// landing; the fox has one for a step and one per jump of a chain. There is always at least one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FoxGeeseAction {
    from: Point,
    landings: Vec<Point>,
}

impl FoxGeeseAction {
    /// An action from `from` through `landings`, which may not be empty.
    pub fn new(from: Point, landings: Vec<Point>) -> Result<FoxGeeseAction, FoxGeeseError> {
        if landings.is_empty() {
            return Err(FoxGeeseError::NoLanding { from });
        }
        Ok(FoxGeeseAction { from, landings })
    }

    pub fn from(&self) -> Point {
        self.from
    }

    /// The points the piece lands on, in order; never empty.
    pub fn landings(&self) -> &[Point] {
        &self.landings
    }

    /// Reads the `d5-d3-f3` form that [`Display`](fmt::Display) writes.
    pub fn parse(text: &str) -> Result<FoxGeeseAction, FoxGeeseError> {
        let mut cursor = Cursor::new(text);
        let from = cursor.point()?;
        let mut landings = Vec::new();
        while landings.is_empty() || !cursor.at_end() {
            cursor.expect(Expected::Dash, |c| c == '-')?;
            landings.push(cursor.point()?);
        }
        Ok(FoxGeeseAction { from, landings })
    }
}

impl fmt::Display for FoxGeeseAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        for landing in &self.landings {
            write!(f, "-{landing}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for FoxGeeseAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for FoxGeeseAction {
    type Err = FoxGeeseError;

    fn from_str(text: &str) -> Result<FoxGeeseAction, FoxGeeseError> {
        FoxGeeseAction::parse(text)
    }
}

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

/// Reads notation one character at a time, keeping the position for error messages.
struct Cursor {
    chars: Vec<char>,
    next: usize,
}

impl Cursor {
    fn new(text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            next: 0,
        }
    }

    fn at_end(&self) -> bool {
        self.next >= self.chars.len()
    }

    /// Takes the next character if `wanted` accepts it.
    fn expect(
        &mut self,
        expected: Expected,
        wanted: impl Fn(char) -> bool,
    ) -> Result<char, FoxGeeseError> {
        match self.chars.get(self.next) {
            Some(&c) if wanted(c) => {
                self.next += 1;
                Ok(c)
            }
            found => Err(FoxGeeseError::Notation {
                at: self.next + 1,
                expected,
                found: found.copied(),
            }),
        }
    }

    fn point(&mut self) -> Result<Point, FoxGeeseError> {
        let at = self.next + 1;
        let file = self.expect(Expected::File, |c| ('a'..='g').contains(&c))?;
        let rank = self.expect(Expected::Rank, |c| ('1'..='7').contains(&c))?;
        // Both characters were checked to be ASCII, so the byte arithmetic is exact.
        Point::new(file as u8 - b'a', rank as u8 - b'1').ok_or(FoxGeeseError::OffBoard {
            at,
            file,
            rank,
        })
    }

    fn end(&self) -> Result<(), FoxGeeseError> {
        match self.chars.get(self.next) {
            None => Ok(()),
            Some(&c) => Err(FoxGeeseError::Notation {
                at: self.next + 1,
                expected: Expected::End,
                found: Some(c),
            }),
        }
    }
}

/// Why an action cannot be read or played. Character positions count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoxGeeseError {
    /// The notation has the wrong character (or ends) at character `at`.
    Notation {
        at: usize,
        expected: Expected,
        found: Option<char>,
    },
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
            FoxGeeseError::Notation {
                at,
                expected,
                found,
            } => {
                write!(f, "character {at}: expected {expected}, found ")?;
                match found {
                    Some(c) => write!(f, "'{c}'"),
                    None => write!(f, "the end of the text"),
                }
            }
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

/// Where the pieces stand and who is to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Position {
    /// One bit per goose, at the point's index.
    geese: u64,
    fox: Point,
    turn: Side,
}

impl Position {
    fn has_goose(&self, point: Point) -> bool {
        self.geese & point.bit() != 0
    }

    fn is_empty(&self, point: Point) -> bool {
        point != self.fox && !self.has_goose(point)
    }

    fn piece_at(&self, point: Point) -> Option<Side> {
        if point == self.fox {
            Some(Side::Fox)
        } else if self.has_goose(point) {
            Some(Side::Geese)
        } else {
            None
        }
    }

    fn goose_count(&self) -> u32 {
        self.geese.count_ones()
    }

    /// The 0-based rank of the lowest goose, `None` when no goose is left.
    fn lowest_goose_rank(&self) -> Option<u8> {
        // Bits run rank by rank from a1, so the lowest set bit is a goose on the lowest rank.
        (self.geese != 0).then(|| self.geese.trailing_zeros() as u8 / SIZE)
    }

    /// Whether the fox stands on a lower rank than every goose (`fox_escaped`).
    fn fox_behind_geese(&self) -> bool {
        self.lowest_goose_rank()
            .is_some_and(|lowest| self.fox.rank() < lowest)
    }

    fn geese(&self) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(|&point| self.has_goose(point))
    }

    /// What must stay the same for an earlier position to come back. Geese are never added and
    /// never step backward, so a capture lowers their number for good and, while the number
    /// holds, a forward step raises the sum of their ranks for good.
    fn irreversible(&self) -> (u32, u32) {
        let rank_sum = self.geese().map(|point| u32::from(point.rank())).sum();
        (self.goose_count(), rank_sum)
    }

    /// The empty points one step from `from` in `dirs`.
    fn steps<'a>(&'a self, from: Point, dirs: &'a [Dir]) -> impl Iterator<Item = Point> + 'a {
        dirs.iter()
            .filter_map(move |&dir| from.step(dir))
            .filter(|&to| self.is_empty(to))
    }

    /// Every single jump open to the fox now: the goose it jumps and where it lands.
    fn jumps(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        Dir::ALL.into_iter().filter_map(|dir| {
            let over = self.fox.step(dir).filter(|&p| self.has_goose(p))?;
            let to = over.step(dir).filter(|&p| self.is_empty(p))?;
            Some((over, to))
        })
    }

    /// The position after the fox jumps the goose on `over` and lands on `to` (turn unchanged).
    fn jumped(&self, over: Point, to: Point) -> Position {
        Position {
            geese: self.geese & !over.bit(),
            fox: to,
            turn: self.turn,
        }
    }

    fn has_moves(&self) -> bool {
        match self.turn {
            Side::Geese => self
                .geese()
                .any(|goose| self.steps(goose, &Dir::GOOSE).next().is_some()),
            Side::Fox => {
                self.steps(self.fox, &Dir::ALL).next().is_some() || self.jumps().next().is_some()
            }
        }
    }

    /// Every legal action of the side to move, every prefix of every jump chain included.
    fn legal_actions(&self) -> Vec<FoxGeeseAction> {
        let single = |from, to| FoxGeeseAction {
            from,
            landings: vec![to],
        };
        let mut out = Vec::new();
        match self.turn {
            Side::Geese => {
                for goose in self.geese() {
                    out.extend(self.steps(goose, &Dir::GOOSE).map(|to| single(goose, to)));
                }
            }
            Side::Fox => {
                out.extend(
                    self.steps(self.fox, &Dir::ALL)
                        .map(|to| single(self.fox, to)),
                );
                self.jump_chains(self.fox, &mut Vec::new(), &mut out);
            }
        }
        out
    }

    /// Appends every chain from `from` that continues `path`, the landings so far. Each jump
    /// removes a goose, so the recursion is at most as deep as there are geese.
    fn jump_chains(&self, from: Point, path: &mut Vec<Point>, out: &mut Vec<FoxGeeseAction>) {
        for (over, to) in self.jumps() {
            path.push(to);
            out.push(FoxGeeseAction {
                from,
                landings: path.clone(),
            });
            self.jumped(over, to).jump_chains(from, path, out);
            path.pop();
        }
    }

    /// The position after `action`, or why it is illegal. Works on a copy, so a refused action
    /// changes nothing.
    fn after(&self, action: &FoxGeeseAction) -> Result<Position, FoxGeeseError> {
        let from = action.from;
        let mut next = match self.piece_at(from) {
            None => return Err(FoxGeeseError::NoPiece(from)),
            Some(owner) if owner != self.turn => {
                return Err(FoxGeeseError::NotYourPiece { point: from, owner });
            }
            Some(Side::Geese) => self.goose_moved(from, &action.landings)?,
            Some(Side::Fox) => self.fox_moved(&action.landings)?,
        };
        next.turn = self.turn.opponent();
        Ok(next)
    }

    fn goose_moved(&self, from: Point, landings: &[Point]) -> Result<Position, FoxGeeseError> {
        let &[to] = landings else {
            return Err(FoxGeeseError::GooseChain { from });
        };
        match reach(from, to) {
            Some(Reach::Step(Dir::South)) => Err(FoxGeeseError::GooseBackward { from, to }),
            Some(Reach::Step(_)) if self.is_empty(to) => Ok(Position {
                geese: (self.geese & !from.bit()) | to.bit(),
                ..*self
            }),
            Some(Reach::Step(_)) => Err(FoxGeeseError::Occupied(to)),
            Some(Reach::Jump { .. }) | None => Err(FoxGeeseError::NotAdjacent { from, to }),
        }
    }

    fn fox_moved(&self, landings: &[Point]) -> Result<Position, FoxGeeseError> {
        let chain = landings.len() > 1;
        let mut pos = *self;
        for &to in landings {
            let from = pos.fox;
            pos = match reach(from, to) {
                None => return Err(FoxGeeseError::NotAdjacent { from, to }),
                Some(Reach::Step(_)) if chain => {
                    return Err(FoxGeeseError::StepInChain { from, to });
                }
                Some(Reach::Jump { over }) if !pos.has_goose(over) => {
                    return Err(FoxGeeseError::BadJump { from, over, to });
                }
                _ if !pos.is_empty(to) => return Err(FoxGeeseError::Occupied(to)),
                Some(Reach::Step(_)) => Position { fox: to, ..pos },
                Some(Reach::Jump { over }) => pos.jumped(over, to),
            };
        }
        Ok(pos)
    }
}

/// The game's options. The standard game has none; the type exists so that Fox and Geese fits
/// the [`Game`] contract like every other game and can gain variants without a new interface.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FoxGeeseConfig;

/// What anyone may see of the game: it has no hidden information. Points and actions serialise
/// in their notation (`d5`, `d5-d3-f3`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FoxGeeseView {
    pub fox: Point,
    /// Every goose, in point order.
    pub geese: Vec<Point>,
    /// The side whose turn it is in the position, also after the game has ended.
    pub turn: Side,
    /// The side that must act now, or `None` once the game is over.
    pub to_move: Option<Side>,
    pub plies: usize,
    pub last_action: Option<FoxGeeseAction>,
    pub outcome: Option<Outcome>,
}

/// A game of Fox and Geese: position, history and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoxGeese {
    position: Position,
    /// Every position since the last irreversible action, the current one last: only these
    /// can occur again, so only these count towards a repetition.
    history: Vec<Position>,
    record: Vec<FoxGeeseAction>,
    outcome: Option<Outcome>,
}

impl FoxGeese {
    /// A new game at the start position, geese to move.
    pub fn new(_config: &FoxGeeseConfig) -> FoxGeese {
        FoxGeese::from_position(Position {
            geese: START_GEESE,
            fox: FOX_START,
            turn: Side::Geese,
        })
    }

    /// A game from any position, with `turn` to move. The position is judged at once, so it
    /// may already be over (a trapped fox, too few geese).
    pub fn from_points(fox: Point, geese: &[Point], turn: Side) -> Result<FoxGeese, SetupError> {
        let mut bits = 0;
        for &goose in geese {
            if goose == fox {
                return Err(SetupError::FoxOnGoose(goose));
            }
            if bits & goose.bit() != 0 {
                return Err(SetupError::GooseTwice(goose));
            }
            bits |= goose.bit();
        }
        Ok(FoxGeese::from_position(Position {
            geese: bits,
            fox,
            turn,
        }))
    }

    fn from_position(position: Position) -> FoxGeese {
        let mut game = FoxGeese {
            position,
            history: vec![position],
            record: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    pub fn fox(&self) -> Point {
        self.position.fox
    }

    /// The 0-based rank of the lowest goose, `None` when no goose is left. Geese never step
    /// back, so the points below it stay empty for the rest of the game.
    pub fn lowest_goose_rank(&self) -> Option<u8> {
        self.position.lowest_goose_rank()
    }

    /// Every goose, in point order.
    pub fn geese(&self) -> Vec<Point> {
        self.position.geese().collect()
    }

    pub fn piece_at(&self, point: Point) -> Option<Side> {
        self.position.piece_at(point)
    }

    /// The side whose turn it is in the position, also after the game has ended.
    pub fn turn(&self) -> Side {
        self.position.turn
    }

    /// The side to move, or `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.outcome.is_none().then_some(self.position.turn)
    }

    /// Every action played so far.
    pub fn record(&self) -> &[FoxGeeseAction] {
        &self.record
    }

    /// Every legal action of the side to move; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<FoxGeeseAction> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_actions()
    }

    /// Checks and plays one action for the side to move, then judges whether it ended the game.
    pub fn play_action(&mut self, action: &FoxGeeseAction) -> Result<(), FoxGeeseError> {
        if self.outcome.is_some() {
            return Err(FoxGeeseError::GameOver);
        }
        let next = self.position.after(action)?;
        if next.irreversible() != self.position.irreversible() {
            self.history.clear();
        }
        self.position = next;
        self.history.push(next);
        self.record.push(action.clone());
        self.outcome = self.judge();
        Ok(())
    }

    /// The end of the game in the current position, if it has come (rules in the module docs).
    fn judge(&self) -> Option<Outcome> {
        let pos = &self.position;
        let win = |side: Side, reason| Some(Outcome::win(side.seat(), 2, reason));
        if pos.goose_count() < MIN_GEESE {
            return win(Side::Fox, "geese_too_few");
        }
        if !pos.has_moves() {
            return match pos.turn {
                Side::Fox => win(Side::Geese, "fox_trapped"),
                Side::Geese => win(Side::Fox, "geese_stuck"),
            };
        }
        if pos.fox_behind_geese() {
            return win(Side::Fox, "fox_escaped");
        }
        if self.history.iter().filter(|&&seen| seen == *pos).count() >= 3 {
            return Some(Outcome::draw(2, "repetition"));
        }
        None
    }

    /// The board with rank numbers and file letters, top rank first: `G` a goose, `F` the fox,
    /// `.` an empty point, a space where the grid has no point.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let mut line = format!("{} ", rank + 1);
            for file in 0..SIZE {
                line.push(match Point::new(file, rank) {
                    None => ' ',
                    Some(point) => match self.piece_at(point) {
                        Some(Side::Geese) => 'G',
                        Some(Side::Fox) => 'F',
                        None => '.',
                    },
                });
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str("  a b c d e f g\n");
        out
    }
}

impl Game for FoxGeese {
    type Config = FoxGeeseConfig;
    type Action = FoxGeeseAction;
    type View = FoxGeeseView;
    type Illegal = FoxGeeseError;
    type ConfigError = Infallible;

    fn new(config: &FoxGeeseConfig, _rng: &mut MatchRng) -> Result<FoxGeese, Infallible> {
        Ok(FoxGeese::new(config))
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> SeatSet {
        self.to_move()
            .map_or(SeatSet::EMPTY, |side| SeatSet::single(side.seat()))
    }

    fn legal_actions(&self, seat: Seat) -> Vec<FoxGeeseAction> {
        if self.to_act().contains(seat) {
            self.legal_moves()
        } else {
            Vec::new()
        }
    }

    // `play` has checked that `seat` is the side to move, and the action's piece is checked
    // against the side to move, so the seat itself is not needed here.
    fn apply(
        &mut self,
        _seat: Seat,
        action: &FoxGeeseAction,
        _rng: &mut MatchRng,
    ) -> Result<(), FoxGeeseError> {
        self.play_action(action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, _viewer: Viewer) -> FoxGeeseView {
        FoxGeeseView {
            fox: self.fox(),
            geese: self.geese(),
            turn: self.turn(),
            to_move: self.to_move(),
            plies: self.record.len(),
            last_action: self.record.last().cloned(),
            outcome: self.outcome.clone(),
        }
    }
}

impl Catalog for FoxGeese {
    const ID: &'static str = "fox-geese";
    const NAME: &'static str = "Fox and Geese";

    fn seat_name(seat: Seat) -> Option<&'static str> {
        Side::of_seat(seat).map(Side::name)
    }

    fn variants() -> &'static [&'static str] {
        &["hala-tafl"]
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        2..=2
    }

    fn config(variant: &str, seats: usize) -> Result<FoxGeeseConfig, CatalogError> {
        check_variant::<FoxGeese>(variant, seats)?;
        Ok(FoxGeeseConfig)
    }

    fn parse_action(&self, text: &str) -> Result<FoxGeeseAction, CatalogError> {
        text.parse()
            .map_err(|e| CatalogError(format!("'{text}': {e}")))
    }

    /// Nothing is hidden: the view ignores its viewer.
    fn same_view_for_all(&self) -> bool {
        true
    }

    fn action_text(&self, action: &FoxGeeseAction) -> String {
        action.to_string()
    }

    fn render(&self) -> String {
        self.diagram()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{PlayError, replay};

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
        let notation = |at, expected, found| FoxGeeseError::Notation {
            at,
            expected,
            found,
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
    fn three_geese_can_never_trap_the_fox() {
        let points: Vec<Point> = Point::all().collect();
        for &fox in &points {
            let others: Vec<Point> = points.iter().copied().filter(|&q| q != fox).collect();
            for (i, a) in others.iter().enumerate() {
                for (j, b) in others.iter().enumerate().skip(i + 1) {
                    for c in others.iter().skip(j + 1) {
                        let pos = Position {
                            geese: a.bit() | b.bit() | c.bit(),
                            fox,
                            turn: Side::Fox,
                        };
                        assert!(pos.has_moves(), "fox {fox}, geese {a} {b} {c}");
                    }
                }
            }
        }
        // Four can: the fox at an arm's end.
        let game = position("c1", &["d1", "e1", "c2", "c3"], Side::Fox);
        assert_eq!(game.outcome().map(Outcome::reason), Some("fox_trapped"));
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

    /// Plays a random game from `seed`, calling `check` on each game before its action.
    fn random_game(
        seed: u64,
        mut check: impl FnMut(&FoxGeese),
    ) -> (FoxGeese, Vec<(Seat, FoxGeeseAction)>) {
        let mut rng = MatchRng::from_seed(seed);
        let mut chooser = MatchRng::from_seed(seed ^ 0x5eed);
        let Ok(mut game) = <FoxGeese as Game>::new(&FoxGeeseConfig, &mut rng);
        let mut log = Vec::new();
        while let Some(seat) = game.to_act().iter().next() {
            assert!(log.len() < 2000, "seed {seed}: no end after 2000 actions");
            check(&game);
            let actions = Game::legal_actions(&game, seat);
            let action = chooser
                .choose(&actions)
                .expect("a seat to act has a move")
                .clone();
            game.play(seat, &action, &mut rng)
                .unwrap_or_else(|e| panic!("seed {seed}: {action}: {e}"));
            log.push((seat, action));
        }
        (game, log)
    }

    #[test]
    fn random_playouts_end_and_replay() {
        let mut reasons = std::collections::BTreeMap::new();
        for seed in 0..200 {
            let (game, log) = random_game(seed, |_| {});
            let outcome = game.outcome().expect("the game ended").clone();
            *reasons.entry(outcome.reason()).or_insert(0) += 1;
            let (replayed, _) = replay::<FoxGeese, _>(
                &FoxGeeseConfig,
                seed,
                log.iter().map(|(seat, action)| (*seat, action)),
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(replayed, game, "seed {seed}");
            assert_eq!(replayed.outcome(), Some(&outcome));
        }
        assert!(
            reasons.len() > 1,
            "every game ended the same way: {reasons:?}"
        );
    }

    #[test]
    fn legal_actions_are_accepted_and_round_trip() {
        for seed in 0..20 {
            random_game(seed, |game| {
                let actions = game.legal_moves();
                let mut unique = actions.clone();
                unique.sort_by_key(ToString::to_string);
                unique.dedup();
                assert_eq!(unique.len(), actions.len(), "duplicates in {actions:?}");
                let other = game.turn().opponent().seat();
                assert!(Game::legal_actions(game, other).is_empty());
                for action in &actions {
                    assert_eq!(&act(&action.to_string()), action);
                    let mut tried = game.clone();
                    assert_eq!(tried.play_action(action), Ok(()), "{action}");
                }
                // Every single-landing action the rules accept is listed.
                for from in Point::all() {
                    for to in Point::all() {
                        let single = FoxGeeseAction::new(from, vec![to]).unwrap();
                        // `play_action` runs exactly this check once the game is known to go on.
                        let accepted = game.position.after(&single).is_ok();
                        assert_eq!(accepted, actions.contains(&single), "{single}");
                    }
                }
            });
        }
    }
}
