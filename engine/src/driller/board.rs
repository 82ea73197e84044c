//! The board and its physics: squares, block colours, drilling, gravity, merging and crushing.
//!
//! Same-coloured blocks that touch along an edge are one piece whatever pieces they were laid
//! as, so the board keeps only a colour per square: a piece is a connected set of one colour.
//! Each colour is a [`Mask`] of 24 rows of 12 bits, which makes flood fills and whole-board
//! falls a few shifts per row.

use std::fmt;

/// Columns of the board, `a` to `l`.
pub const COLUMNS: u8 = 12;
/// Rows of the board, `1` (the top, where the drillers start) to `24` (the bottom).
pub const ROWS: u8 = 24;
/// A merged piece of more than this many blocks is removed.
const MAX_MERGED_BLOCKS: u32 = 4;
const ROW_BITS: u16 = (1 << COLUMNS) - 1;

/// A square of the board: column `a`-`l` from the left, row `1`-`24` from the top, so the row
/// number is the depth. Only squares on the board can be built.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    column: u8,
}

impl Square {
    /// The square at 0-based `column` (a = 0) and `row` (row 1, the top, = 0), if on the board.
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column < COLUMNS && row < ROWS {
            Some(Square { row, column })
        } else {
            None
        }
    }

    /// 0-based column, a = 0.
    pub const fn column(self) -> u8 {
        self.column
    }

    /// 0-based row from the top: the depth below row 1.
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Whether the square lies on the bottom edge, the drillers' goal.
    pub const fn is_bottom(self) -> bool {
        self.row == ROWS - 1
    }

    /// The neighbouring square in `dir`, if the board has one.
    pub fn step(self, dir: Dir) -> Option<Square> {
        let (dc, dr) = dir.offset();
        Square::new(
            self.column.checked_add_signed(dc)?,
            self.row.checked_add_signed(dr)?,
        )
    }

    /// The square `rows` rows lower and `columns` columns further right, if on the board.
    pub(super) fn offset(self, rows: i8, columns: i8) -> Option<Square> {
        Square::new(
            self.column.checked_add_signed(columns)?,
            self.row.checked_add_signed(rows)?,
        )
    }

    /// Every square, row by row from the top, left to right.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..ROWS).flat_map(|row| (0..COLUMNS).map(move |column| Square { row, column }))
    }

    const fn bit(self) -> u16 {
        1 << self.column
    }

    const fn row_index(self) -> usize {
        self.row as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column) as char, self.row + 1)
    }
}

/// A square serialises as its name, `d1`.
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The four directions a driller may step in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// (column, row) change of one step; rows count downwards.
    const fn offset(self) -> (i8, i8) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The letter of the move notation.
    pub const fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction written `letter`, in either case.
    pub fn from_letter(letter: char) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|dir| dir.letter() == letter.to_ascii_uppercase())
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        })
    }
}

/// The four block colours.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Green, Colour::Yellow, Colour::Blue];

    /// The letter of diagrams and pictures.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
            Colour::Blue => 'B',
        }
    }

    pub fn from_letter(letter: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.letter() == letter)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
        })
    }
}

/// A set of squares: one 12-bit row per board row, bit `c` for column `c`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Mask([u16; ROWS as usize]);

impl Mask {
    const EMPTY: Mask = Mask([0; ROWS as usize]);

    const BOTTOM_ROW: Mask = {
        let mut rows = [0; ROWS as usize];
        rows[ROWS as usize - 1] = ROW_BITS;
        Mask(rows)
    };

    fn single(square: Square) -> Mask {
        let mut mask = Mask::EMPTY;
        mask.0[square.row_index()] = square.bit();
        mask
    }

    fn has(self, square: Square) -> bool {
        self.0[square.row_index()] & square.bit() != 0
    }

    fn is_empty(self) -> bool {
        self.0.iter().all(|&row| row == 0)
    }

    fn count(self) -> u32 {
        self.0.iter().map(|row| row.count_ones()).sum()
    }

    fn zip(self, other: Mask, f: impl Fn(u16, u16) -> u16) -> Mask {
        Mask(std::array::from_fn(|r| f(self.0[r], other.0[r])))
    }

    fn and(self, other: Mask) -> Mask {
        self.zip(other, |a, b| a & b)
    }

    fn or(self, other: Mask) -> Mask {
        self.zip(other, |a, b| a | b)
    }

    fn without(self, other: Mask) -> Mask {
        self.zip(other, |a, b| a & !b)
    }

    /// The squares orthogonally next to some square of the set.
    fn neighbours(self) -> Mask {
        let rows = &self.0;
        Mask(std::array::from_fn(|r| {
            let mut n = ((rows[r] << 1) | (rows[r] >> 1)) & ROW_BITS;
            if r > 0 {
                n |= rows[r - 1];
            }
            if r + 1 < rows.len() {
                n |= rows[r + 1];
            }
            n
        }))
    }

    /// Every square moved one row down; the bottom row drops off.
    fn shifted_down(self) -> Mask {
        Mask(std::array::from_fn(
            |r| if r == 0 { 0 } else { self.0[r - 1] },
        ))
    }

    /// Every square moved one row up: the squares directly above the set.
    fn shifted_up(self) -> Mask {
        Mask(std::array::from_fn(|r| {
            self.0.get(r + 1).copied().unwrap_or(0)
        }))
    }

    /// The first square in reading order (top row first, left to right).
    fn first(self) -> Option<Square> {
        let (row, bits) = self.0.iter().enumerate().find(|(_, bits)| **bits != 0)?;
        Square::new(bits.trailing_zeros() as u8, row as u8)
    }

    /// The squares of `within` connected to this set through squares of `within`.
    fn fill(self, within: Mask) -> Mask {
        let mut current = self.and(within);
        loop {
            let next = current.or(current.neighbours()).and(within);
            if next == current {
                return current;
            }
            current = next;
        }
    }
}

/// A driller's token: where it stands, or where it was crushed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Token {
    square: Square,
    crushed: bool,
}

impl Token {
    pub(super) const fn at(square: Square) -> Token {
        Token {
            square,
            crushed: false,
        }
    }

    pub const fn square(self) -> Square {
        self.square
    }

    /// Whether a block fell onto the token, on [`Token::square`]; the block may have fallen on
    /// or vanished since.
    pub const fn is_crushed(self) -> bool {
        self.crushed
    }

    pub(super) fn move_to(&mut self, square: Square) {
        self.square = square;
    }
}

/// When each driller reached the bottom or was crushed during one round, as a moment: step
/// `1` to `3` of the moves, then one moment per row of falling.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Events {
    pub(super) reached: [Option<u32>; 2],
    pub(super) crushed: [Option<u32>; 2],
}

impl Events {
    /// Records that driller `index` reached the bottom at `moment`, unless it already had.
    pub(super) fn reach(&mut self, index: usize, moment: u32) {
        self.reached[index].get_or_insert(moment);
    }

    fn crush(&mut self, index: usize, moment: u32) {
        self.crushed[index].get_or_insert(moment);
    }
}

/// The blocks on the board, as a colour per square.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    colours: [Mask; 4],
}

impl Board {
    /// The colour of the block on `square`, if it holds one.
    pub fn at(&self, square: Square) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|c| self.colours[c.index()].has(square))
    }

    /// How many blocks make up the piece on `square` (0 on an empty square).
    pub fn piece_size(&self, square: Square) -> u32 {
        self.piece(square).map_or(0, |(_, piece)| piece.count())
    }

    /// How many blocks of `colour` are on the board.
    pub fn count(&self, colour: Colour) -> u32 {
        self.colours[colour.index()].count()
    }

    /// Puts a block of `colour` on an empty `square` (setting up a board).
    pub(super) fn put(&mut self, square: Square, colour: Colour) {
        let mask = &mut self.colours[colour.index()];
        mask.0[square.row_index()] |= square.bit();
    }

    /// Row `row` (0-based from the top) as text: a colour letter per block, `.` per empty square.
    pub fn row_text(&self, row: u8) -> String {
        (0..COLUMNS)
            .filter_map(|column| Square::new(column, row))
            .map(|square| self.at(square).map_or('.', Colour::letter))
            .collect()
    }

    fn occupied(&self) -> Mask {
        self.colours.iter().fold(Mask::EMPTY, |all, &m| all.or(m))
    }

    /// The colour and squares of the whole piece containing `square`.
    fn piece(&self, square: Square) -> Option<(Colour, Mask)> {
        let colour = self.at(square)?;
        Some((
            colour,
            Mask::single(square).fill(self.colours[colour.index()]),
        ))
    }

    /// Drills `square`: the whole piece containing it is taken out.
    pub(super) fn drill(&mut self, square: Square) {
        if let Some((colour, piece)) = self.piece(square) {
            let mask = &mut self.colours[colour.index()];
            *mask = mask.without(piece);
        }
    }

    /// The blocks that stay put: a piece stands if one of its blocks lies on the bottom row or
    /// directly on a block that stands. Drillers hold nothing up.
    fn standing(&self) -> Mask {
        let occupied = self.occupied();
        let mut standing = occupied.and(Mask::BOTTOM_ROW);
        loop {
            // Resting on a standing block, then spreading to the rest of each such piece.
            let mut next = standing.or(occupied.and(standing.shifted_up()));
            for &colour in &self.colours {
                next = next.or(colour.and(next.and(colour).neighbours()));
            }
            if next == standing {
                return standing;
            }
            standing = next;
        }
    }

    /// Which of the two tokens would fall now, given the standing blocks: a token stays on the
    /// bottom row, on a standing block, or on the other token if that one stays.
    fn falling_tokens(tokens: &[Token; 2], standing: Mask) -> [bool; 2] {
        let mut falls = [false; 2];
        // The lower token first, since the upper one may stand on it.
        let order = if tokens[0].square.row >= tokens[1].square.row {
            [0, 1]
        } else {
            [1, 0]
        };
        for index in order {
            let token = tokens[index];
            if token.crushed {
                continue;
            }
            let Some(below) = token.square.step(Dir::Down) else {
                continue;
            };
            let other = tokens[1 - index];
            let on_token = !other.crushed && other.square == below && !falls[1 - index];
            falls[index] = !standing.has(below) && !on_token;
        }
        falls
    }

    /// The first square (in reading order) whose block gravity would move.
    pub(super) fn first_floating(&self) -> Option<Square> {
        self.occupied().without(self.standing()).first()
    }

    /// The first square (in reading order) whose block or live token gravity would move.
    pub(super) fn first_unsupported(&self, tokens: &[Token; 2]) -> Option<Square> {
        let falls = Board::falling_tokens(tokens, self.standing());
        let tokens = (0..2).filter(|&i| falls[i]).map(|i| tokens[i].square);
        self.first_floating().into_iter().chain(tokens).min()
    }

    /// Lets everything fall until the board is at rest, one row per moment starting at
    /// `moment`, recording drillers that reach the bottom or are crushed.
    ///
    /// Each moment, every block and token without support drops one row together. A block
    /// that lands on a standing token crushes it. A falling piece that now touches a standing
    /// piece of its colour joins it; a joined piece of more than four blocks is removed at once,
    /// which may leave more to fall in the next moment.
    pub(super) fn settle(&mut self, tokens: &mut [Token; 2], events: &mut Events, moment: u32) {
        let mut moment = moment;
        loop {
            let standing = self.standing();
            let falls = Board::falling_tokens(tokens, standing);
            let falling = self.occupied().without(standing);
            if falling.is_empty() && falls == [false, false] {
                return;
            }
            for mask in &mut self.colours {
                *mask = mask.and(standing).or(mask.without(standing).shifted_down());
            }
            let occupied = self.occupied();
            for (index, token) in tokens.iter_mut().enumerate() {
                if token.crushed {
                    continue;
                }
                if falls[index] {
                    // Falling tokens always have a square below: the bottom row holds them.
                    if let Some(below) = token.square.step(Dir::Down) {
                        token.square = below;
                    }
                    if token.square.is_bottom() {
                        events.reach(index, moment);
                    }
                } else if occupied.has(token.square) {
                    token.crushed = true;
                    events.crush(index, moment);
                }
            }
            self.remove_large_merges(falling.shifted_down());
            moment += 1;
        }
    }

    /// Removes every piece of more than four blocks that `moved` (blocks that fell this
    /// moment) formed by touching standing blocks of their colour. Falling blocks never touch
    /// blocks of their colour that fall with them for the first time, since they all move
    /// alike, so a moved block next to an unmoved one of its colour is exactly a new contact.
    fn remove_large_merges(&mut self, moved: Mask) {
        for mask in &mut self.colours {
            let moved_here = moved.and(*mask);
            let unmoved = mask.without(moved_here);
            let mut contacts = moved_here.and(unmoved.neighbours());
            while let Some(square) = contacts.first() {
                let merged = Mask::single(square).fill(*mask);
                if merged.count() > MAX_MERGED_BLOCKS {
                    *mask = mask.without(merged);
                }
                contacts = contacts.without(merged);
            }
        }
    }
}

/// A board serialises as its rows, top first, each as [`Board::row_text`] writes it.
impl serde::Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..ROWS).map(|row| self.row_text(row)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(column: u8, row: u8) -> Square {
        Square::new(column, row).unwrap()
    }

    #[test]
    fn masks_shift_and_fill() {
        let corner = Mask::single(sq(0, 0));
        assert_eq!(corner.neighbours().count(), 2);
        assert_eq!(corner.shifted_up(), Mask::EMPTY);
        assert_eq!(corner.shifted_down(), Mask::single(sq(0, 1)));
        assert_eq!(Mask::BOTTOM_ROW.shifted_down(), Mask::EMPTY);
        assert_eq!(Mask::BOTTOM_ROW.count(), 12);
        let right = Mask::single(sq(11, 5));
        assert_eq!(right.neighbours().count(), 3);
        assert!(!right.neighbours().has(sq(0, 5)), "no wrap to the next row");
        let line = Mask::BOTTOM_ROW.without(Mask::single(sq(6, 23)));
        assert_eq!(Mask::single(sq(0, 23)).fill(line).count(), 6);
        assert_eq!(line.first(), Some(sq(0, 23)));
    }

    #[test]
    fn squares_are_named_by_column_and_depth() {
        assert_eq!(sq(3, 0).to_string(), "d1");
        assert_eq!(sq(11, 23).to_string(), "l24");
        assert_eq!(sq(0, 0).step(Dir::Up), None);
        assert_eq!(sq(0, 0).step(Dir::Left), None);
        assert_eq!(sq(0, 0).step(Dir::Down), Some(sq(0, 1)));
        assert_eq!(Square::new(12, 0), None);
        assert_eq!(Square::all().count(), 288);
    }
}
