//! Squares, sides, pieces and moves.

use std::fmt;

/// The largest board side we support (Alea Evangelii).
pub const MAX_DIM: u8 = 19;

/// A square, as its index `rank * dim + file` (a1 = 0). Converting to coordinates needs the
/// board size, so conversions take `dim`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    pub const fn from_index(index: usize) -> Square {
        Square(index as u16)
    }

    /// The square at 0-based `file` (a = 0) and `rank` (1 = 0) on a `dim` x `dim` board.
    pub const fn at(file: u8, rank: u8, dim: u8) -> Square {
        Square(rank as u16 * dim as u16 + file as u16)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self, dim: u8) -> u8 {
        (self.0 % dim as u16) as u8
    }

    pub const fn rank(self, dim: u8) -> u8 {
        (self.0 / dim as u16) as u8
    }

    /// The neighbouring square in `dir`, if it is on the board.
    pub fn step(self, dir: Dir, dim: u8) -> Option<Square> {
        let (file, rank) = (self.file(dim) as i16, self.rank(dim) as i16);
        let (df, dr) = dir.offset();
        let (f, r) = (file + df, rank + dr);
        let inside = |v: i16| (0..dim as i16).contains(&v);
        (inside(f) && inside(r)).then(|| Square::at(f as u8, r as u8, dim))
    }

    /// Algebraic name, `a1` to `s19`.
    pub fn name(self, dim: u8) -> String {
        self.coord(dim).to_string()
    }

    pub const fn coord(self, dim: u8) -> Coord {
        Coord {
            file: self.file(dim),
            rank: self.rank(dim),
        }
    }
}

/// A square's coordinates, 0-based; displayed in algebraic form (`e5`). Errors carry these
/// so they can name squares without knowing the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    pub file: u8,
    pub rank: u8,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file) as char,
            u16::from(self.rank) + 1
        )
    }
}

/// The four orthogonal directions pieces move and capture along.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// (file, rank) change of one step.
    pub const fn offset(self) -> (i16, i16) {
        match self {
            Dir::North => (0, 1),
            Dir::South => (0, -1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
        }
    }

    /// Index into per-direction tables, in the order of [`Dir::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with index `i % 4` ([`Dir::index`]). Matched rather than looked up in
    /// [`Dir::ALL`], so that it compiles to the index itself, with no load from memory.
    pub const fn from_index(i: usize) -> Dir {
        match i % 4 {
            0 => Dir::North,
            1 => Dir::South,
            2 => Dir::East,
            _ => Dir::West,
        }
    }

    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::East => Dir::West,
            Dir::West => Dir::East,
        }
    }
}

/// The two sides of a tafl game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// The seat that plays this side: attackers sit at 0, defenders at 1.
    pub const fn seat_index(self) -> usize {
        match self {
            Side::Attackers => 0,
            Side::Defenders => 1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The three kinds of tafl piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Attacker,
    Defender,
    King,
}

impl Piece {
    pub const ALL: [Piece; 3] = [Piece::Attacker, Piece::Defender, Piece::King];

    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// Index into per-piece tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A move: one piece slides orthogonally from `from` to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        let sq = Square::at(4, 7, 11);
        assert_eq!(sq.index(), 7 * 11 + 4);
        assert_eq!((sq.file(11), sq.rank(11)), (4, 7));
        assert_eq!(sq.name(11), "e8");
        assert_eq!(Square::at(18, 18, 19).name(19), "s19");
    }

    #[test]
    fn steps_stop_at_the_edge() {
        let a1 = Square::at(0, 0, 7);
        assert_eq!(a1.step(Dir::South, 7), None);
        assert_eq!(a1.step(Dir::West, 7), None);
        assert_eq!(a1.step(Dir::North, 7), Some(Square::at(0, 1, 7)));
        assert_eq!(Square::at(6, 0, 7).step(Dir::East, 7), None);
    }
}
