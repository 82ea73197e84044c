//! The grid: squares, directions, the lines between squares, and what stands on a square.

use std::fmt;

use crate::game::Seat;

/// The largest board: eight players play on 22x22, columns lettered `a` to `v`.
pub const MAX_SIZE: u8 = 22;

/// Squares of the largest board.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// A square, by 0-based column (`a` = 0) and row (`1` = 0), written like a chess square: `c5`
/// is column c, row 5. Row 1 is at the bottom of the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// The square at 0-based `col` and `row`, if it lies within the largest board.
    pub const fn new(col: u8, row: u8) -> Option<Cell> {
        if col < MAX_SIZE && row < MAX_SIZE {
            Some(Cell { row, col })
        } else {
            None
        }
    }

    /// 0-based column, `a` = 0.
    pub const fn col(self) -> u8 {
        self.col
    }

    /// 0-based row, `1` = 0.
    pub const fn row(self) -> u8 {
        self.row
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}

impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A compass direction on the board: north is towards higher rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The direction a light-cycle facing `self` drives when it goes `turn`.
    pub const fn turned(self, turn: Turn) -> Dir {
        match (turn, self) {
            (Turn::Forward, dir) => dir,
            (Turn::Left, Dir::North) | (Turn::Right, Dir::South) => Dir::West,
            (Turn::Left, Dir::East) | (Turn::Right, Dir::West) => Dir::North,
            (Turn::Left, Dir::South) | (Turn::Right, Dir::North) => Dir::East,
            (Turn::Left, Dir::West) | (Turn::Right, Dir::East) => Dir::South,
        }
    }

    /// (column, row) change of one step.
    const fn offset(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which way a light-cycle goes relative to the way it faces. There is no reverse: the square
/// behind a light-cycle is its own tail.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    Forward,
    Left,
    Right,
}

impl Turn {
    pub const ALL: [Turn; 3] = [Turn::Forward, Turn::Left, Turn::Right];

    pub const fn name(self) -> &'static str {
        match self {
            Turn::Forward => "forward",
            Turn::Left => "left",
            Turn::Right => "right",
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The line between two side-by-side squares, where a crusher stands (never on a square). Kept
/// as its south or west square and whether the other square lies north of it or east, so each
/// line has exactly one value. Written as its two squares, south or west first: `c5-c6`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Line {
    cell: Cell,
    north: bool,
}

impl Line {
    /// The line between two squares, if they are side by side.
    pub fn between(a: Cell, b: Cell) -> Option<Line> {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        if low.col == high.col && low.row + 1 == high.row {
            Some(Line {
                cell: low,
                north: true,
            })
        } else if low.row == high.row && low.col + 1 == high.col {
            Some(Line {
                cell: low,
                north: false,
            })
        } else {
            None
        }
    }

    /// The two squares, south or west first.
    pub fn cells(self) -> (Cell, Cell) {
        let other = if self.north {
            Cell {
                row: self.cell.row + 1,
                col: self.cell.col,
            }
        } else {
            Cell {
                row: self.cell.row,
                col: self.cell.col + 1,
            }
        };
        (self.cell, other)
    }

    /// Whether the line runs between a square and the one north of it (a horizontal line on
    /// the diagram) rather than the one east of it.
    pub fn is_north(self) -> bool {
        self.north
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.cells();
        write!(f, "{a}-{b}")
    }
}

impl serde::Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The geometry of one board: which squares and lines exist, and their indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    size: u8,
}

impl Board {
    /// A `size` x `size` board; `size` is at most [`MAX_SIZE`] (checked by the callers).
    pub(crate) const fn new(size: u8) -> Board {
        Board { size }
    }

    pub(crate) const fn size(self) -> u8 {
        self.size
    }

    pub(crate) const fn contains(self, cell: Cell) -> bool {
        cell.col < self.size && cell.row < self.size
    }

    /// The square's index in a row-major array of this board's squares.
    pub(crate) const fn index(self, cell: Cell) -> usize {
        cell.row as usize * self.size as usize + cell.col as usize
    }

    pub(crate) const fn cell_count(self) -> usize {
        self.size as usize * self.size as usize
    }

    /// Every square, row by row from row 1.
    pub(crate) fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.cell_count()).map(move |i| self.cell_at(i))
    }

    /// The square with this index.
    const fn cell_at(self, index: usize) -> Cell {
        let size = self.size as usize;
        Cell {
            row: (index / size) as u8,
            col: (index % size) as u8,
        }
    }

    /// The square one step from `cell` in `dir`, if it is on the board.
    pub(crate) fn step(self, cell: Cell, dir: Dir) -> Option<Cell> {
        let (dc, dr) = dir.offset();
        let next = Cell {
            col: cell.col.checked_add_signed(dc)?,
            row: cell.row.checked_add_signed(dr)?,
        };
        self.contains(next).then_some(next)
    }

    /// The squares beside `cell`, north, east, south, west.
    pub(crate) fn neighbours(self, cell: Cell) -> impl Iterator<Item = Cell> {
        Dir::ALL
            .into_iter()
            .filter_map(move |dir| self.step(cell, dir))
    }

    pub(crate) fn contains_line(self, line: Line) -> bool {
        self.contains(line.cells().1)
    }

    /// Every line between two squares of the board, square by square.
    pub(crate) fn lines(self) -> impl Iterator<Item = Line> {
        (0..self.line_slots())
            .map(move |i| Line {
                cell: self.cell_at(i / 2),
                north: i % 2 == 1,
            })
            .filter(move |&line| self.contains_line(line))
    }

    /// The line's index in an array of [`Board::line_slots`] entries.
    pub(crate) const fn line_index(self, line: Line) -> usize {
        2 * self.index(line.cell) + line.north as usize
    }

    /// Enough slots for every line's index (two per square; those off the edge stay unused).
    pub(crate) const fn line_slots(self) -> usize {
        2 * self.cell_count()
    }
}

/// What stands on a square. A flag is kept apart: it shares its square with nothing at first,
/// but a light-cycle may drive over a flag it may not capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Square {
    Empty,
    /// The head of this seat's light-cycle.
    Head(Seat),
    /// Part of this seat's tail.
    Tail(Seat),
}

/// A set of squares of the board, by index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellSet([u64; MAX_CELLS.div_ceil(64)]);

impl CellSet {
    pub(crate) fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    pub(crate) fn contains(&self, index: usize) -> bool {
        self.0[index / 64] & (1 << (index % 64)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(col: u8, row: u8) -> Cell {
        Cell::new(col, row).unwrap()
    }

    #[test]
    fn turns_are_relative_to_the_facing() {
        assert_eq!(Dir::North.turned(Turn::Left), Dir::West);
        assert_eq!(Dir::North.turned(Turn::Right), Dir::East);
        assert_eq!(Dir::East.turned(Turn::Left), Dir::North);
        assert_eq!(Dir::South.turned(Turn::Right), Dir::West);
        for dir in Dir::ALL {
            assert_eq!(dir.turned(Turn::Forward), dir);
            assert_eq!(dir.turned(Turn::Left).turned(Turn::Right), dir);
        }
    }

    #[test]
    fn lines_join_neighbours_only_and_have_one_form() {
        let line = Line::between(c(2, 5), c(2, 4)).unwrap();
        assert_eq!(line, Line::between(c(2, 4), c(2, 5)).unwrap());
        assert_eq!(line.to_string(), "c5-c6");
        assert_eq!(line.cells(), (c(2, 4), c(2, 5)));
        assert_eq!(
            Line::between(c(3, 0), c(2, 0)).unwrap().to_string(),
            "c1-d1"
        );
        assert_eq!(Line::between(c(2, 4), c(3, 5)), None);
        assert_eq!(Line::between(c(2, 4), c(2, 4)), None);
        assert_eq!(Line::between(c(2, 4), c(2, 6)), None);
    }

    #[test]
    fn a_board_has_two_lines_per_square_less_the_edges() {
        let board = Board::new(12);
        assert_eq!(board.lines().count(), 2 * 12 * 11);
        let mut seen = vec![false; board.line_slots()];
        for line in board.lines() {
            let i = board.line_index(line);
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert_eq!(board.step(c(0, 0), Dir::West), None);
        assert_eq!(board.step(c(11, 11), Dir::North), None);
        assert_eq!(board.step(c(3, 3), Dir::East), Some(c(4, 3)));
        assert_eq!(board.neighbours(c(0, 0)).count(), 2);
    }
}
