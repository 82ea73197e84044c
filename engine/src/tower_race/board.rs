//! The two boards: tiles, start tiles, safe zones and each start tile's spiral path.
//!
//! Every path is built by one rule at compile time: from the start tile, go clockwise round the
//! outer ring of tiles for one complete round, step inward onto the next ring and go round it
//! completely too, and so on until the centre, the End-tile. A path therefore visits every tile of
//! the board exactly once and ends in the centre. The step inward is taken from the last tile of
//! a round, which must not be a corner of its ring (a corner has no tile inward of it); the start
//! tiles are chosen so that it never is, which the compile-time construction checks.

use std::fmt;

use super::TowerRaceError;

/// The most tiles a board has (the advanced 7x7).
pub const MAX_TILES: usize = 49;

/// The most start tiles a board has (the advanced board seats 8).
const MAX_STARTS: usize = 8;

/// Which board, and with it which version of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Board {
    /// The original game: 5x5 tiles, 2 to 4 players, 3 pyramids each.
    Basic,
    /// The advanced version: 7x7 tiles, 4 to 8 players, 4 pyramids each, safe zones, and a
    /// challenge may be refused.
    Advanced,
}

impl Board {
    /// The board's geometry and numbers.
    pub(super) const fn layout(self) -> &'static Layout {
        match self {
            Board::Basic => &BASIC,
            Board::Advanced => &ADVANCED,
        }
    }

    /// Tiles per side: 5 or 7.
    pub const fn side(self) -> u8 {
        self.layout().side
    }

    /// Pyramids per player: 3 or 4.
    pub const fn pyramids(self) -> u8 {
        self.layout().pyramids
    }

    /// The fewest and the most players.
    pub const fn seat_range(self) -> (usize, usize) {
        match self {
            Board::Basic => (2, 4),
            Board::Advanced => (4, 8),
        }
    }

    /// Whether a challenged player may refuse (advanced version, rule 5).
    pub const fn refusals_allowed(self) -> bool {
        matches!(self, Board::Advanced)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Board::Basic => "basic",
            Board::Advanced => "advanced",
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tile, named like a chess square: files `a`.. from the left, ranks `1`.. from the bottom, so
/// on the basic board `a5` is the top-left corner and `c3` the centre.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    file: u8,
    rank: u8,
}

impl Tile {
    /// The tile at 0-based `file` and `rank`, on a board of any size up to 7x7.
    pub const fn new(file: u8, rank: u8) -> Option<Tile> {
        if file < 7 && rank < 7 {
            Some(Tile { file, rank })
        } else {
            None
        }
    }

    /// 0-based file, a = 0.
    pub const fn file(self) -> u8 {
        self.file
    }

    /// 0-based rank, 1 = 0.
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// Reads a tile's name such as `c3`, on a board with `side` tiles per side.
    pub fn parse(text: &str, side: u8) -> Result<Tile, TowerRaceError> {
        let mut chars = text.chars();
        let bad = || TowerRaceError::NoSuchTile {
            name: text.to_string(),
            side,
        };
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let file = u8::try_from(u32::from(file).wrapping_sub(u32::from('a'))).map_err(|_| bad())?;
        let rank = u8::try_from(u32::from(rank).wrapping_sub(u32::from('1'))).map_err(|_| bad())?;
        if file < side && rank < side {
            Ok(Tile { file, rank })
        } else {
            Err(bad())
        }
    }

    /// The tile's index on a board with `side` tiles per side: `rank * side + file`.
    pub(super) const fn index(self, side: u8) -> u8 {
        self.rank * side + self.file
    }

    pub(super) const fn from_index(index: u8, side: u8) -> Tile {
        Tile {
            file: index % side,
            rank: index / side,
        }
    }
}

/// Tiles serialise as their names, `c3`.
impl serde::Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

/// One board's geometry: everything about it that does not change during a game.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub board: Board,
    pub side: u8,
    /// Tiles on the board, and so also the count from the home stack to the End-tile.
    pub tiles: u8,
    pub pyramids: u8,
    /// Which start tiles an `n`-player game uses: the first `n` of this list, so that players
    /// sit as evenly spread as the board allows. It names every start tile once, by its index in
    /// clockwise order from the top-left corner.
    pub preference: &'static [u8],
    /// `paths[s][k]` is the tile counted `k + 1` from the home stack of start tile `s`:
    /// `paths[s][0]` is the start tile itself, `paths[s][tiles - 1]` the centre.
    pub paths: [[u8; MAX_TILES]; MAX_STARTS],
    /// One bit per safe tile, at its index.
    pub safe: u64,
}

impl Layout {
    /// Builds a board with `side` tiles per side and start tiles at these positions round the
    /// outer ring (0 is the top-left corner, counting clockwise), plus the extra safe tiles.
    const fn new(
        board: Board,
        side: u8,
        pyramids: u8,
        start_positions: &[u8],
        preference: &'static [u8],
        safe_zones: SafeZones,
    ) -> Layout {
        assert!(
            preference.len() == start_positions.len(),
            "the preference names every start tile"
        );
        let mut paths = [[0; MAX_TILES]; MAX_STARTS];
        let mut safe = 0u64;
        let mut s = 0;
        while s < start_positions.len() {
            let (file, rank) = ring_tile(side, start_positions[s]);
            if let SafeZones::StartsAnd(_) = safe_zones {
                safe |= 1 << (rank * side + file);
            }
            paths[s] = spiral(side, file, rank);
            s += 1;
        }
        if let SafeZones::StartsAnd(extra) = safe_zones {
            let mut e = 0;
            while e < extra.len() {
                let (file, rank) = extra[e];
                safe |= 1 << (rank * side + file);
                e += 1;
            }
        }
        Layout {
            board,
            side,
            tiles: side * side,
            pyramids,
            preference,
            paths,
            safe,
        }
    }

    /// The tile counted `progress` from the home stack of start tile `start`; `progress` runs
    /// from 1 (the start tile) to `tiles` (the centre).
    pub fn path_tile(&self, start: u8, progress: u8) -> u8 {
        self.paths[usize::from(start)][usize::from(progress - 1)]
    }

    pub fn is_safe(&self, tile: u8) -> bool {
        self.safe & (1 << tile) != 0
    }

    pub fn center(&self) -> u8 {
        self.tiles / 2
    }

    pub fn tile(&self, index: u8) -> Tile {
        Tile::from_index(index, self.side)
    }

    /// The start tiles of an `n`-player game, by index in clockwise order, which is also the
    /// order of play.
    pub fn starts_for(&self, players: usize) -> Vec<u8> {
        let mut chosen: Vec<u8> = self.preference[..players].to_vec();
        chosen.sort_unstable();
        chosen
    }
}

/// Which tiles of a board are safe zones.
enum SafeZones {
    None,
    /// Every start tile (advanced rule 4) and these tiles, as (file, rank).
    StartsAnd(&'static [(u8, u8)]),
}

/// The basic board. The seed's sketch puts the four start tiles in the four corners; two players
/// take opposite corners.
static BASIC: Layout = Layout::new(
    Board::Basic,
    5,
    3,
    &[0, 4, 8, 12],
    &[0, 2, 1, 3],
    SafeZones::None,
);

/// The advanced board: eight start tiles, the corners and the tile two on from each corner
/// clockwise; four players take the corners. Besides the start tiles, the middle tile of each side
/// of the second ring (d6, f4, d2, b4) is a safe zone.
static ADVANCED: Layout = Layout::new(
    Board::Advanced,
    7,
    4,
    &[0, 2, 6, 8, 12, 14, 18, 20],
    &[0, 4, 2, 6, 1, 5, 3, 7],
    SafeZones::StartsAnd(&[(3, 5), (5, 3), (3, 1), (1, 3)]),
);

/// The tile `position` steps clockwise round the outer ring from the top-left corner.
const fn ring_tile(side: u8, position: u8) -> (u8, u8) {
    let mut tile = (0, side - 1);
    let mut i = 0;
    while i < position {
        tile = clockwise(side, tile.0, tile.1);
        i += 1;
    }
    tile
}

/// The ring a tile lies on: 0 for the outer ring, 1 inside it, and so on.
const fn ring(side: u8, file: u8, rank: u8) -> u8 {
    let a = if file < side - 1 - file {
        file
    } else {
        side - 1 - file
    };
    let b = if rank < side - 1 - rank {
        rank
    } else {
        side - 1 - rank
    };
    if a < b { a } else { b }
}

/// The next tile clockwise on the same ring: east along the top, south down the right, west
/// along the bottom, north up the left.
const fn clockwise(side: u8, file: u8, rank: u8) -> (u8, u8) {
    let lo = ring(side, file, rank);
    let hi = side - 1 - lo;
    if rank == hi && file < hi {
        (file + 1, rank)
    } else if file == hi && rank > lo {
        (file, rank - 1)
    } else if rank == lo && file > lo {
        (file - 1, rank)
    } else {
        (file, rank + 1)
    }
}

/// The tile just inside a tile that is not a corner of its ring.
const fn inward(side: u8, file: u8, rank: u8) -> (u8, u8) {
    let lo = ring(side, file, rank);
    let hi = side - 1 - lo;
    let corner = (file == lo || file == hi) && (rank == lo || rank == hi);
    assert!(!corner, "a path would leave a ring from a corner");
    if rank == hi {
        (file, rank - 1)
    } else if file == hi {
        (file - 1, rank)
    } else if rank == lo {
        (file, rank + 1)
    } else {
        (file + 1, rank)
    }
}

/// The path from a start tile on the outer ring: a complete clockwise round of each ring, outer
/// to inner, then the centre.
const fn spiral(side: u8, file: u8, rank: u8) -> [u8; MAX_TILES] {
    let mut path = [0; MAX_TILES];
    let (mut file, mut rank) = (file, rank);
    let mut k = 0;
    let mut ring_side = side;
    while ring_side > 1 {
        let round = 4 * (ring_side as usize - 1);
        let mut i = 0;
        while i < round {
            path[k] = rank * side + file;
            k += 1;
            if i + 1 < round {
                (file, rank) = clockwise(side, file, rank);
            }
            i += 1;
        }
        (file, rank) = inward(side, file, rank);
        ring_side -= 2;
    }
    path[k] = rank * side + file;
    assert!(
        k + 1 == side as usize * side as usize,
        "a path covers the board"
    );
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_visits_every_tile_once_and_ends_in_the_centre() {
        for layout in [&BASIC, &ADVANCED] {
            for s in 0..layout.preference.len() {
                let path = &layout.paths[s][..usize::from(layout.tiles)];
                let mut seen = 0u64;
                for &tile in path {
                    seen |= 1 << tile;
                }
                assert_eq!(seen.count_ones(), u32::from(layout.tiles));
                assert_eq!(*path.last().unwrap(), layout.center());
                for pair in path.windows(2) {
                    let (a, b) = (layout.tile(pair[0]), layout.tile(pair[1]));
                    let apart = a.file.abs_diff(b.file) + a.rank.abs_diff(b.rank);
                    assert_eq!(apart, 1, "{a} to {b}");
                }
            }
        }
    }

    #[test]
    fn tiles_are_named_like_chess_squares() {
        assert_eq!(BASIC.tile(BASIC.paths[0][0]).to_string(), "a5");
        assert_eq!(BASIC.tile(BASIC.center()).to_string(), "c3");
        assert_eq!(ADVANCED.tile(ADVANCED.center()).to_string(), "d4");
        assert_eq!(Tile::parse("e1", 5).map(|t| t.to_string()), Ok("e1".into()));
        for bad in ["f1", "a6", "a", "a10", "", "é1"] {
            assert!(Tile::parse(bad, 5).is_err(), "{bad}");
        }
    }
}
