//! Perft: the number of move sequences of a given length, the standard oracle for move
//! generation. A position where the game has ended is a leaf: it counts at depth 0 and has no
//! children. Repetition needs history and cannot occur within the short depths perft is run to
//! from a start position, so it is not judged here.

use super::bitboard::Bits;
use super::board::Board;
use super::position::Position;

impl<B: Bits> Position<B> {
    pub fn perft(&self, board: &Board<B>, depth: u32) -> u64 {
        match depth {
            0 => 1,
            // Every legal move leads to exactly one leaf: count without playing them.
            1 => self.count_moves(board),
            _ => {
                let mut moves = Vec::with_capacity(128);
                self.legal_moves_into(board, &mut moves);
                moves
                    .into_iter()
                    .map(|mv| {
                        let mut child = *self;
                        let captures = child.play(board, mv);
                        if child.verdict_after(board, self.turn, &captures).is_some() {
                            0
                        } else {
                            child.perft(board, depth - 1)
                        }
                    })
                    .sum()
            }
        }
    }
}
