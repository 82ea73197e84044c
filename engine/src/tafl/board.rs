//! The board: its size, its special squares, and what the rules let each kind of piece do on
//! them, compiled from [`Rules`] into bitboards once per match so that move generation and
//! capture tests are a few word operations.

use super::bitboard::Bits;
use super::rules::{KingStrength, Rules, RulesError, Shieldwall};
use super::square::{Coord, Dir, Piece, Square};

/// What the board knows about one square, looked up rather than computed (working out a
/// neighbour or a coordinate divides by the board size), and kept together so that one bounds
/// check covers every look-up about a square.
#[derive(Clone, Debug)]
struct Cell<B> {
    /// Every square beyond it in each direction ([`Dir::index`]), up to the edge.
    rays: [B; 4],
    /// Its neighbours.
    around: B,
    /// The squares two steps away along its rank and file: where the far side of a custodial
    /// capture by a piece moving there can be.
    two_away: B,
    /// Its neighbour in each direction.
    steps: [Option<Square>; 4],
    coord: Coord,
}

#[derive(Clone, Debug)]
pub struct Board<B> {
    pub rules: Rules,
    pub dim: u8,
    /// Every square of the board.
    pub all: B,
    pub edge: B,
    /// The corner squares (2x2 blocks when `corner_block` is 2).
    pub corners: B,
    /// The throne, unless the rules make the centre an ordinary square.
    pub throne: Option<Square>,
    /// The throne and its four neighbours: where `StrongAtThrone` and `ThroneOrTwoAttackers`
    /// kings are strong (empty without a throne).
    pub throne_zone: B,
    /// Where the king wins by reaching: the edge or the corners.
    pub escape: B,
    /// The throne (if any) and the corners: the only squares whose rules can make them
    /// hostile.
    pub throne_and_corners: B,
    not_first_file: B,
    not_last_file: B,
    /// Per piece kind: squares it may pass over / stop on when empty.
    passable: [B; 3],
    stoppable: [B; 3],
    /// Per victim kind: empty special squares hostile to it.
    hostile_when_empty: [B; 3],
    /// Per victim kind: the throne if it is hostile to it while occupied.
    hostile_when_occupied: [B; 3],
    /// What moves and captures look up about each square, by its index.
    cells: Box<[Cell<B>]>,
}

impl<B: Bits> Board<B> {
    pub fn new(rules: Rules) -> Result<Board<B>, RulesError> {
        rules.validate()?;
        let dim = rules.dim();
        let n = usize::from(dim) * usize::from(dim);
        if n > B::CAPACITY {
            return Err(RulesError(format!(
                "a {dim}x{dim} board does not fit this bitboard"
            )));
        }
        let select = |keep: &dyn Fn(u8, u8) -> bool| {
            (0..n).map(Square::from_index).fold(B::EMPTY, |acc, sq| {
                if keep(sq.file(dim), sq.rank(dim)) {
                    acc.with(sq)
                } else {
                    acc
                }
            })
        };
        let last = dim - 1;
        let cb = rules.corner_block;
        let all = select(&|_, _| true);
        let edge = select(&|f, r| f == 0 || r == 0 || f == last || r == last);
        let corners = select(&|f, r| (f < cb || f > last - cb) && (r < cb || r > last - cb));
        let throne = rules.throne.then(|| Square::at(dim / 2, dim / 2, dim));
        let throne_bit = throne.map_or(B::EMPTY, B::single);
        let throne_zone = throne.map_or(B::EMPTY, |throne| {
            Dir::ALL
                .iter()
                .filter_map(|&d| throne.step(d, dim))
                .fold(throne_bit, |acc, sq| acc.with(sq))
        });
        let escape = match rules.escape {
            super::rules::Escape::Edge => edge,
            super::rules::Escape::Corner => corners,
        };
        let mut passable = [all; 3];
        let mut stoppable = [all; 3];
        let mut hostile_when_empty = [B::EMPTY; 3];
        let mut hostile_when_occupied = [B::EMPTY; 3];
        for piece in Piece::ALL {
            let i = piece.index();
            if !rules.throne_passable.contains(piece) {
                passable[i] &= !throne_bit;
            }
            if !rules.throne_stoppable.contains(piece) {
                stoppable[i] &= !throne_bit;
            }
            if !rules.corner_passable.contains(piece) {
                passable[i] &= !corners;
            }
            if !rules.corner_stoppable.contains(piece) {
                stoppable[i] &= !corners;
            }
            if rules.corner_hostile.contains(piece) {
                hostile_when_empty[i] |= corners;
            }
            if rules.empty_throne_hostile.contains(piece) {
                hostile_when_empty[i] |= throne_bit;
            }
            if rules.throne_hostile.contains(piece) {
                hostile_when_occupied[i] |= throne_bit;
            }
        }
        let steps: Vec<[Option<Square>; 4]> = (0..n)
            .map(|i| Dir::ALL.map(|d| Square::from_index(i).step(d, dim)))
            .collect();
        // A square's ray is its neighbour and the neighbour's ray, so each direction is filled
        // from its far side: downwards for north and east, whose neighbours come later.
        let mut rays = vec![[B::EMPTY; 4]; n];
        for dir in Dir::ALL {
            let d = dir.index();
            let upwards = matches!(dir, Dir::South | Dir::West);
            for k in 0..n {
                let i = if upwards { k } else { n - 1 - k };
                rays[i][d] = steps[i][d].map_or(B::EMPTY, |next| rays[next.index()][d].with(next));
            }
        }
        let cells = (0..n)
            .map(|i| Cell {
                rays: rays[i],
                around: steps[i]
                    .iter()
                    .flatten()
                    .fold(B::EMPTY, |acc, &sq| acc.with(sq)),
                two_away: Dir::ALL.iter().fold(B::EMPTY, |acc, &d| {
                    match steps[i][d.index()].and_then(|next| steps[next.index()][d.index()]) {
                        Some(far) => acc.with(far),
                        None => acc,
                    }
                }),
                steps: steps[i],
                coord: Square::from_index(i).coord(dim),
            })
            .collect();
        Ok(Board {
            dim,
            all,
            edge,
            corners,
            throne,
            throne_zone,
            escape,
            throne_and_corners: throne_bit | corners,
            not_first_file: all & !select(&|f, _| f == 0),
            not_last_file: all & !select(&|f, _| f == last),
            passable,
            stoppable,
            hostile_when_empty,
            hostile_when_occupied,
            cells,
            rules,
        })
    }

    /// Every square of `b` moved one step in `dir`; squares leaving the board vanish.
    #[inline]
    pub fn shift(&self, b: B, dir: Dir) -> B {
        match dir {
            Dir::North => b.shl(u32::from(self.dim)) & self.all,
            Dir::South => b.shr(u32::from(self.dim)),
            Dir::East => b.shl(1) & self.not_first_file,
            Dir::West => b.shr(1) & self.not_last_file,
        }
    }

    /// The squares orthogonally next to any square of `b`.
    #[inline]
    pub fn neighbours(&self, b: B) -> B {
        self.shift(b, Dir::North)
            | self.shift(b, Dir::South)
            | self.shift(b, Dir::East)
            | self.shift(b, Dir::West)
    }

    /// The neighbour of `sq` (a square of the board) in `dir`, if it is on the board.
    #[inline]
    pub fn step(&self, sq: Square, dir: Dir) -> Option<Square> {
        self.cells[sq.index()].steps[dir.index()]
    }

    /// Every square beyond `sq` (a square of the board) in `dir`, up to the edge.
    #[inline]
    pub fn ray(&self, sq: Square, dir: Dir) -> B {
        self.cells[sq.index()].rays[dir.index()]
    }

    /// The squares next to `sq`, a square of the board.
    #[inline]
    pub fn around(&self, sq: Square) -> B {
        self.cells[sq.index()].around
    }

    /// How many squares the board has.
    #[inline]
    pub fn squares(&self) -> usize {
        self.cells.len()
    }

    /// The squares two steps from `sq`, a square of the board, along its rank and file.
    #[inline]
    pub fn two_away(&self, sq: Square) -> B {
        self.cells[sq.index()].two_away
    }

    /// The coordinates of `sq`, a square of the board.
    #[inline]
    pub fn coord(&self, sq: Square) -> Coord {
        self.cells[sq.index()].coord
    }

    /// The square `distance` steps back from `sq` against `dir`: where a move in `dir` that
    /// ends on `sq` started.
    #[inline]
    pub fn back(&self, sq: Square, dir: Dir, distance: u32) -> Square {
        Square::from_index((sq.index() as isize - self.delta(dir) * distance as isize) as usize)
    }

    /// The direction from `sq` to `next`, a square next to it. Computed rather than matched:
    /// captures ask it in no order a branch could predict.
    #[inline]
    pub fn direction(&self, sq: Square, next: Square) -> Dir {
        let along_rank = next.index().abs_diff(sq.index()) == 1;
        Dir::from_index(2 * usize::from(along_rank) + usize::from(next < sq))
    }

    /// The direction from `from` to `to`, another square on its rank or file. Computed rather
    /// than matched: moves go in no order a branch could predict.
    #[inline]
    pub fn line(&self, from: Square, to: Square) -> Dir {
        let along_rank = self.coord(from).file != self.coord(to).file;
        Dir::from_index(2 * usize::from(along_rank) + usize::from(to < from))
    }

    /// The speed limit of `piece`, if a move from `from` to `to` along a line breaks it.
    #[inline]
    pub fn too_far(&self, piece: Piece, from: Coord, to: Coord) -> Option<u8> {
        let limit = self.rules.speed[piece.index()]?;
        let distance = from.file.abs_diff(to.file) + from.rank.abs_diff(to.rank);
        (distance > limit).then_some(limit)
    }

    /// Index distance of one step in `dir`.
    #[inline]
    pub fn delta(&self, dir: Dir) -> isize {
        let (df, dr) = dir.offset();
        isize::from(dr) * isize::from(self.dim) + isize::from(df)
    }

    #[inline]
    pub fn passable(&self, piece: Piece) -> B {
        self.passable[piece.index()]
    }

    #[inline]
    pub fn stoppable(&self, piece: Piece) -> B {
        self.stoppable[piece.index()]
    }

    #[inline]
    pub fn hostile_when_empty(&self, victim: Piece) -> B {
        self.hostile_when_empty[victim.index()]
    }

    #[inline]
    pub fn hostile_when_occupied(&self, victim: Piece) -> B {
        self.hostile_when_occupied[victim.index()]
    }

    /// Whether a shieldwall can be captured by a move that is not next to it (`swf:n`).
    #[inline]
    pub fn shieldwall_from_afar(&self) -> bool {
        self.rules.shieldwall != Shieldwall::None && !self.rules.shieldwall_flank
    }

    /// Whether the king, standing on `sq`, must be surrounded on four sides.
    pub fn king_is_strong_at(&self, sq: Square) -> bool {
        match self.rules.king_strength {
            KingStrength::Strong => true,
            KingStrength::Weak | KingStrength::Middleweight => false,
            KingStrength::StrongAtThrone | KingStrength::ThroneOrTwoAttackers => {
                self.throne_zone.has(sq)
            }
        }
    }

    /// True for squares drawn as `#` in diagrams: the throne and corners when they have rules.
    pub fn is_special(&self, sq: Square) -> bool {
        let Some(throne) = self.throne else {
            return self.corners.has(sq) && self.corner_is_special();
        };
        let throne_special = self
            .passable
            .iter()
            .chain(&self.stoppable)
            .any(|b| !b.has(throne))
            || self.hostile_when_empty.iter().any(|b| b.has(throne));
        (sq == throne && throne_special) || (self.corners.has(sq) && self.corner_is_special())
    }

    fn corner_is_special(&self) -> bool {
        self.escape == self.corners
            || self
                .hostile_when_empty
                .iter()
                .any(|b| (*b & self.corners).any())
    }
}
