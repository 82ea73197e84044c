//! The board of Hanoi: the 19 cells of a size-3 hex-hex grid, its six directions and the lines
//! they draw, and the discs and stacks that stand on the cells.

use std::fmt;

use crate::game::Seat;

/// How many cells the board has.
pub const CELL_COUNT: usize = 19;

/// Rows and diagonals are numbered from 0 to `SPAN - 1`; a cell exists where its row and its
/// diagonal differ by at most `RADIUS`, which cuts the two corners off a 5x5 rhombus and leaves
/// the hexagon with three cells to a side.
const RADIUS: u8 = 2;
const SPAN: u8 = 2 * RADIUS + 1;

/// The longest line from a cell to the edge: from a corner across the centre to the far corner.
const LONGEST_RAY: usize = 2 * RADIUS as usize;

/// `(row, diagonal)` of each cell by index: rows `a` to `e`, each by increasing diagonal.
const COORDS: [(u8, u8); CELL_COUNT] = {
    let mut coords = [(0, 0); CELL_COUNT];
    let mut index = 0;
    let mut row = 0;
    while row < SPAN {
        let mut diag = 0;
        while diag < SPAN {
            if row.abs_diff(diag) <= RADIUS {
                coords[index] = (row, diag);
                index += 1;
            }
            diag += 1;
        }
        row += 1;
    }
    coords
};

/// A cell of the board, named by its row letter `a`-`e` (bottom to top) and its diagonal digit
/// `1`-`5` (the lines running up and to the right, numbered from the left), as on an Abalone
/// board: row `a` holds `a1`-`a3`, row `c` (the middle) `c1`-`c5`, row `e` `e3`-`e5`. Only the
/// 19 cells of the hexagon can be built, so a `Cell` is always on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell in 0-based `row` (a = 0) and `diag` (1 = 0), if the hexagon has it.
    pub const fn new(row: u8, diag: u8) -> Option<Cell> {
        let mut index = 0;
        while index < CELL_COUNT {
            if COORDS[index].0 == row && COORDS[index].1 == diag {
                return Some(Cell(index as u8));
            }
            index += 1;
        }
        None
    }

    /// 0-based row, a = 0.
    pub const fn row(self) -> u8 {
        COORDS[self.0 as usize].0
    }

    /// 0-based diagonal, 1 = 0.
    pub const fn diag(self) -> u8 {
        COORDS[self.0 as usize].1
    }

    /// The cell's place in [`Cell::all`], 0 to 18.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every cell, row by row from `a`, each row from the left.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }

    /// The cells along the line from this cell in `dir`, nearest first, up to the edge; empty
    /// when the cell is on the edge facing `dir`.
    pub fn ray(self, dir: Dir) -> &'static [Cell] {
        let ray = &RAYS[self.index()][dir as usize];
        &ray.cells[..usize::from(ray.len)]
    }

    /// The neighbouring cell in `dir`, if the board has one.
    const fn step(self, dir: Dir) -> Option<Cell> {
        let (d_row, d_diag) = dir.offset();
        let row = self.row() as i8 + d_row;
        let diag = self.diag() as i8 + d_diag;
        if row < 0 || diag < 0 {
            None
        } else {
            Cell::new(row as u8, diag as u8)
        }
    }
}

/// A cell serialises as its name, `c3`.
impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row()) as char, self.diag() + 1)
    }
}

/// The cells from one cell to the edge in one direction, nearest first.
#[derive(Copy, Clone)]
struct Ray {
    cells: [Cell; LONGEST_RAY],
    len: u8,
}

/// Every ray, by cell index and direction, worked out at compile time: finding where a disc
/// lands is then a walk along at most four precomputed cells.
const RAYS: [[Ray; 6]; CELL_COUNT] = {
    let empty = Ray {
        cells: [Cell(0); LONGEST_RAY],
        len: 0,
    };
    let mut rays = [[empty; 6]; CELL_COUNT];
    let mut index = 0;
    while index < CELL_COUNT {
        let mut d = 0;
        while d < Dir::ALL.len() {
            let ray = &mut rays[index][d];
            let mut at = Cell(index as u8);
            while let Some(next) = at.step(Dir::ALL[d]) {
                ray.cells[ray.len as usize] = next;
                ray.len += 1;
                at = next;
            }
            d += 1;
        }
        index += 1;
    }
    rays
};

/// The six directions of the lines, anticlockwise from east. Rows run east-west; a diagonal
/// runs north-east to south-west; north-west and south-east keep the diagonal and change the
/// row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    East,
    NorthEast,
    NorthWest,
    West,
    SouthWest,
    SouthEast,
}

impl Dir {
    pub const ALL: [Dir; 6] = [
        Dir::East,
        Dir::NorthEast,
        Dir::NorthWest,
        Dir::West,
        Dir::SouthWest,
        Dir::SouthEast,
    ];

    /// (row, diagonal) change of one step.
    const fn offset(self) -> (i8, i8) {
        match self {
            Dir::East => (0, 1),
            Dir::NorthEast => (1, 1),
            Dir::NorthWest => (1, 0),
            Dir::West => (0, -1),
            Dir::SouthWest => (-1, -1),
            Dir::SouthEast => (-1, 0),
        }
    }

    /// The direction's name in the notation: `e`, `ne`, `nw`, `w`, `sw`, `se`.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::East => "e",
            Dir::NorthEast => "ne",
            Dir::NorthWest => "nw",
            Dir::West => "w",
            Dir::SouthWest => "sw",
            Dir::SouthEast => "se",
        }
    }
}

/// A direction serialises as its name, `ne`.
impl serde::Serialize for Dir {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The players' colours, in turn order: White (seat 0) starts, then Blue (seat 1), then Red
/// (seat 2, three-player games only; the seed does not name the third colour).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    White,
    Blue,
    Red,
}

impl Colour {
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Blue, Colour::Red];

    /// The seat that plays this colour.
    pub const fn seat(self) -> Seat {
        match Seat::new(self as usize) {
            Some(seat) => seat,
            None => panic!("three colours fit in the eight seats"),
        }
    }

    /// The colour played from `seat`, if there is one (whether the game has that many players
    /// is the game's business).
    pub fn of_seat(seat: Seat) -> Option<Colour> {
        Colour::ALL.get(seat.index()).copied()
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Blue => "blue",
            Colour::Red => "red",
        }
    }

    /// The colour's letter in stack notation: `W`, `B`, `R`.
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Blue => 'B',
            Colour::Red => 'R',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A disc size, 1 (smallest) to 5 (largest); serialises as the number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct Size(u8);

impl Size {
    pub const SMALLEST: Size = Size(1);
    pub const LARGEST: Size = Size(5);

    pub const fn new(size: u8) -> Option<Size> {
        if size >= Size::SMALLEST.0 && size <= Size::LARGEST.0 {
            Some(Size(size))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// Every size, largest first: the order of a full tower from the bottom.
    pub fn largest_first() -> impl Iterator<Item = Size> {
        (Size::SMALLEST.0..=Size::LARGEST.0).rev().map(Size)
    }

    /// The size N+1 that a disc of this size N lands on and may stand on; none for the largest.
    pub const fn next_larger(self) -> Option<Size> {
        Size::new(self.0 + 1)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One disc. Its notation is the colour letter and the size: `W3` is a white 3-disc. It
/// serialises as `{"colour": "white", "size": 3}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Disc {
    pub colour: Colour,
    pub size: Size,
}

impl fmt::Display for Disc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.size)
    }
}

/// The discs on one cell, bottom first, each one size smaller than the disc below it ("N on
/// N+1"). Every way of building one keeps that rule, so a stack never holds more than five
/// discs. Its notation lists the discs bottom first: `W5B4W3`.
#[derive(Copy, Clone, Debug)]
pub struct Stack {
    /// The first `height` entries are the discs; the rest are leftovers of no meaning.
    discs: [Disc; Stack::TALLEST],
    height: u8,
}

impl Stack {
    /// The most discs a stack can hold: one of each size.
    pub const TALLEST: usize = Size::LARGEST.0 as usize;

    pub const EMPTY: Stack = Stack {
        discs: [Disc {
            colour: Colour::White,
            size: Size::SMALLEST,
        }; Stack::TALLEST],
        height: 0,
    };

    /// A full tower of one colour: sizes 5 to 1 from the bottom.
    pub const fn tower(colour: Colour) -> Stack {
        let mut tower = Stack::EMPTY;
        while tower.height < Size::LARGEST.0 {
            tower.discs[tower.height as usize] = Disc {
                colour,
                size: Size(Size::LARGEST.0 - tower.height),
            };
            tower.height += 1;
        }
        tower
    }

    /// A stack of `discs`, bottom first, if each stands on a disc one size larger.
    pub fn from_discs(discs: &[Disc]) -> Result<Stack, StackingError> {
        let mut stack = Stack::EMPTY;
        for &disc in discs {
            stack.try_push(disc)?;
        }
        Ok(stack)
    }

    /// The discs, bottom first.
    pub fn discs(&self) -> &[Disc] {
        &self.discs[..usize::from(self.height)]
    }

    pub fn top(&self) -> Option<Disc> {
        self.discs().last().copied()
    }

    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    pub fn is_empty(&self) -> bool {
        self.height == 0
    }

    /// The owner of a stack is the owner of its top disc.
    pub fn owner(&self) -> Option<Colour> {
        self.top().map(|disc| disc.colour)
    }

    /// How many of the discs are `colour`'s.
    pub fn count(&self, colour: Colour) -> usize {
        self.discs().iter().filter(|d| d.colour == colour).count()
    }

    /// Puts `disc` on top if it may stand there: on an empty cell, or one size smaller than
    /// the top disc.
    pub(super) fn try_push(&mut self, disc: Disc) -> Result<(), StackingError> {
        let fits = self
            .top()
            .is_none_or(|top| disc.size.next_larger() == Some(top.size));
        // A fitting disc always has a free slot (a full stack is topped by the smallest size,
        // which nothing fits on); the slot is looked up rather than indexed all the same.
        let height = self.height();
        match self.discs.get_mut(height) {
            Some(slot) if fits => {
                *slot = disc;
                self.height += 1;
                Ok(())
            }
            _ => Err(StackingError {
                below: self.top().unwrap_or(disc),
                above: disc,
            }),
        }
    }

    /// Takes the top disc off.
    pub(super) fn pop(&mut self) -> Option<Disc> {
        let top = self.top()?;
        self.height -= 1;
        Some(top)
    }
}

/// Two stacks are equal when they hold the same discs; the unused slots do not count.
impl PartialEq for Stack {
    fn eq(&self, other: &Stack) -> bool {
        self.discs() == other.discs()
    }
}

impl Eq for Stack {}

/// A stack serialises as the list of its discs, bottom first.
impl serde::Serialize for Stack {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.discs())
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.discs().iter().try_for_each(|disc| write!(f, "{disc}"))
    }
}

/// A disc that may not stand on another: only an N-disc may stand on an N+1-disc.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StackingError {
    pub below: Disc,
    pub above: Disc,
}

impl fmt::Display for StackingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} may not stand on {}: only an N-disc stands on an N+1-disc",
            self.above, self.below
        )
    }
}

impl std::error::Error for StackingError {}
