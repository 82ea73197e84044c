//! The preparation: the pieces laid at random on the board, as packed as possible, nothing
//! floating and the two start squares left free.
//!
//! The board is filled square by square from the bottom row up, left to right. Each free square
//! is covered by a piece drawn at random from those left, among the ones that fit there; a
//! square no piece fits is left empty. A piece is laid only where it rests on the bottom edge or
//! on a block already laid, so nothing floats.

use super::START_SQUARES;
use super::board::{Board, COLUMNS, Colour, ROWS, Square};
use crate::rng::MatchRng;

/// The three kinds of piece in the box.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Three squares in a line.
    I3,
    /// Two squares in a line.
    I2,
    /// Three squares in an L (a 2x2 square less one corner).
    L3,
}

/// Every orientation of a piece as the (row, column) offsets of its squares from its first
/// square in filling order (rows downwards): the other squares lie higher up, or further right
/// in the same row.
type Shape = &'static [(i8, i8)];

impl Kind {
    const ALL: [Kind; 3] = [Kind::I3, Kind::I2, Kind::L3];

    /// Pieces of this kind in each colour.
    const fn per_colour(self) -> u32 {
        match self {
            Kind::I3 => 8,
            Kind::I2 => 12,
            Kind::L3 => 8,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    fn shapes(self) -> &'static [Shape] {
        match self {
            Kind::I3 => &[&[(0, 0), (0, 1), (0, 2)], &[(0, 0), (-1, 0), (-2, 0)]],
            Kind::I2 => &[&[(0, 0), (0, 1)], &[(0, 0), (-1, 0)]],
            // The missing corner: top left, top right, bottom left, bottom right.
            Kind::L3 => &[
                &[(0, 0), (0, 1), (-1, 1)],
                &[(0, 0), (0, 1), (-1, 0)],
                &[(0, 0), (-1, -1), (-1, 0)],
                &[(0, 0), (-1, 0), (-1, 1)],
            ],
        }
    }
}

/// The squares `shape` would cover with its first square on `anchor`, if they are all on the
/// board, free and not a start square, and the piece would rest on the bottom edge or a block.
fn fit(board: &Board, anchor: Square, shape: Shape) -> Option<[Option<Square>; 3]> {
    let mut squares = [None; 3];
    let mut rests = false;
    for (slot, &(rows, columns)) in squares.iter_mut().zip(shape) {
        let square = anchor.offset(rows, columns)?;
        if board.at(square).is_some() || START_SQUARES.contains(&square) {
            return None;
        }
        rests |= square
            .step(super::Dir::Down)
            .is_none_or(|below| board.at(below).is_some());
        *slot = Some(square);
    }
    rests.then_some(squares)
}

/// An index drawn with probability proportional to its weight, or `None` if all are zero.
fn pick_weighted(rng: &mut MatchRng, weights: &[u32]) -> Option<usize> {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut draw = rng.below(u64::from(total)) as u32;
    weights.iter().position(|&weight| {
        if draw < weight {
            true
        } else {
            draw -= weight;
            false
        }
    })
}

/// A random packed board drawn from `rng`.
pub(super) fn random_board(rng: &mut MatchRng) -> Board {
    let mut board = Board::default();
    // Pieces left in the box, by kind and colour.
    let mut left = Kind::ALL.map(|kind| [kind.per_colour(); 4]);
    for row in (0..ROWS).rev() {
        for column in 0..COLUMNS {
            let Some(anchor) = Square::new(column, row) else {
                continue;
            };
            if board.at(anchor).is_some() || START_SQUARES.contains(&anchor) {
                continue;
            }
            // A kind is drawn as often as it has pieces left, if any of its shapes fits here.
            let fitting = Kind::ALL.map(|kind| {
                kind.shapes()
                    .iter()
                    .filter_map(|&shape| fit(&board, anchor, shape))
                    .collect::<Vec<_>>()
            });
            let weights = Kind::ALL.map(|kind| {
                let fits = !fitting[kind.index()].is_empty();
                if fits {
                    left[kind.index()].iter().sum()
                } else {
                    0
                }
            });
            let Some(kind) = pick_weighted(rng, &weights) else {
                continue;
            };
            let shapes = &fitting[kind];
            let squares = shapes[rng.below(shapes.len() as u64) as usize];
            let Some(colour) = pick_weighted(rng, &left[kind]) else {
                continue;
            };
            left[kind][colour] -= 1;
            for square in squares.into_iter().flatten() {
                board.put(square, Colour::ALL[colour]);
            }
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_starts_at_its_first_square_in_filling_order() {
        for kind in Kind::ALL {
            for shape in kind.shapes() {
                assert_eq!(shape[0], (0, 0), "{kind:?}");
                for &(rows, columns) in &shape[1..] {
                    assert!(rows < 0 || (rows == 0 && columns > 0), "{kind:?} {shape:?}");
                }
            }
        }
    }

    #[test]
    fn the_box_holds_the_pieces_of_the_seed() {
        // 32 I3, 48 I2 and 32 L3 pieces: 288 squares, exactly the board.
        let squares: u32 = Kind::ALL
            .iter()
            .map(|&kind| 4 * kind.per_colour() * kind.shapes()[0].len() as u32)
            .sum();
        assert_eq!(squares, u32::from(COLUMNS) * u32::from(ROWS));
    }

    #[test]
    fn boards_are_packed_rest_on_the_bottom_and_leave_the_start_squares_free() {
        let mut holes = 0;
        for seed in 0..200 {
            let board = random_board(&mut MatchRng::from_seed(seed));
            for square in START_SQUARES {
                assert_eq!(board.at(square), None, "seed {seed}");
            }
            for colour in Colour::ALL {
                assert!(board.count(colour) <= 72, "seed {seed}: too much {colour}");
            }
            assert_eq!(board.first_floating(), None, "seed {seed}");
            let blocks: u32 = Colour::ALL.iter().map(|&c| board.count(c)).sum();
            holes += 286 - blocks;
        }
        println!(
            "free squares per board besides the start squares: {}",
            f64::from(holes) / 200.0
        );
        assert!(
            holes < 200 * 10,
            "boards are not packed: {holes} holes in 200"
        );
    }
}
