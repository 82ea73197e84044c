//! The 33-point cross: its points, named like chess squares, and the lines between them.

use std::fmt;

/// Files and ranks of the grid the cross is cut from.
pub(super) const SIZE: u8 = 7;

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

    /// The neighbouring point in `dir`, if the cross has one.
    pub(super) fn step(self, dir: Dir) -> Option<Point> {
        let (df, dr) = dir.offset();
        Point::new(
            self.file().checked_add_signed(df)?,
            self.rank().checked_add_signed(dr)?,
        )
    }

    /// The points one step away along a line (two to four of them).
    pub fn neighbours(self) -> impl Iterator<Item = Point> {
        Dir::ALL.into_iter().filter_map(move |dir| self.step(dir))
    }

    pub(super) const fn bit(self) -> u64 {
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

/// The four directions of the lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];
    /// Where a goose may go: forward (towards rank 7) or sideways.
    pub const GOOSE: [Dir; 3] = [Dir::North, Dir::East, Dir::West];

    /// (file, rank) change of one step.
    pub const fn offset(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }
}

/// How one point lies from another along a line, as far as moves care.
pub(super) enum Reach {
    /// The next point in this direction.
    Step(Dir),
    /// Two points on, with `over` in between.
    Jump { over: Point },
}

/// Whether `to` is a step or a jump away from `from`; `None` when it is neither.
pub(super) fn reach(from: Point, to: Point) -> Option<Reach> {
    Dir::ALL.into_iter().find_map(|dir| {
        let next = from.step(dir)?;
        if next == to {
            return Some(Reach::Step(dir));
        }
        (next.step(dir)? == to).then_some(Reach::Jump { over: next })
    })
}
