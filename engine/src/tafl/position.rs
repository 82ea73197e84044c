//! A tafl position: where the pieces stand and who is to move, with its Zobrist hash kept up to
//! date by every change. Move generation lives in `movegen.rs`, captures in `capture.rs`, and the
//! end-of-game tests in `ending.rs`; all are methods on [`Position`].

use super::bitboard::Bits;
use super::board::Board;
use super::layout::Layout;
use super::square::{Piece, Side, Square};
use super::zobrist;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position<B> {
    pub(super) attackers: B,
    /// Defending men, without the king.
    pub(super) defenders: B,
    /// The king's square, or empty once he is captured.
    pub(super) king: B,
    /// Every piece: the three sets together, kept with them so that the move check, move
    /// generation and the endings need not put them together on every move.
    occupied: B,
    pub(super) turn: Side,
    pub(super) hash: u64,
}

impl<B: Bits> Position<B> {
    pub fn from_layout(layout: &Layout, turn: Side) -> Position<B> {
        let mut pos = Position {
            attackers: B::EMPTY,
            defenders: B::EMPTY,
            king: B::EMPTY,
            occupied: B::EMPTY,
            turn,
            hash: zobrist::side_key(turn),
        };
        for (sq, piece) in layout.pieces() {
            pos.put(piece, sq);
        }
        pos
    }

    pub fn layout(&self, dim: u8) -> Layout {
        let mut layout = Layout::empty(dim);
        for piece in Piece::ALL {
            for sq in self.bits(piece).squares() {
                layout.set(sq, Some(piece));
            }
        }
        layout
    }

    pub fn turn(&self) -> Side {
        self.turn
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn recomputed_hash(&self) -> u64 {
        Piece::ALL
            .iter()
            .fold(zobrist::side_key(self.turn), |h, &piece| {
                self.bits(piece)
                    .squares()
                    .fold(h, |h, sq| h ^ zobrist::piece_key(piece, sq))
            })
    }

    pub fn king_square(&self) -> Option<Square> {
        self.king.lowest()
    }

    #[inline]
    pub fn bits(&self, piece: Piece) -> B {
        match piece {
            Piece::Attacker => self.attackers,
            Piece::Defender => self.defenders,
            Piece::King => self.king,
        }
    }

    /// Every piece of `side`, the king included for the defenders.
    #[inline]
    pub fn side_bits(&self, side: Side) -> B {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders | self.king,
        }
    }

    #[inline]
    pub fn occupied(&self) -> B {
        self.occupied
    }

    /// The empty squares of `board`.
    #[inline]
    pub fn empty(&self, board: &Board<B>) -> B {
        board.all & !self.occupied
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = B::single(sq);
        if (self.attackers & b).any() {
            Some(Piece::Attacker)
        } else if (self.defenders & b).any() {
            Some(Piece::Defender)
        } else if (self.king & b).any() {
            Some(Piece::King)
        } else {
            None
        }
    }

    #[inline]
    fn bits_mut(&mut self, piece: Piece) -> &mut B {
        match piece {
            Piece::Attacker => &mut self.attackers,
            Piece::Defender => &mut self.defenders,
            Piece::King => &mut self.king,
        }
    }

    #[inline]
    pub(super) fn put(&mut self, piece: Piece, sq: Square) {
        let bit = B::single(sq);
        *self.bits_mut(piece) |= bit;
        self.occupied |= bit;
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    pub(super) fn remove(&mut self, piece: Piece, sq: Square) {
        let bit = B::single(sq);
        *self.bits_mut(piece) &= !bit;
        self.occupied &= !bit;
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Moves `piece` from `from` to `to`, an empty square.
    #[inline]
    pub(super) fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let squares = B::single(from) | B::single(to);
        *self.bits_mut(piece) ^= squares;
        self.occupied ^= squares;
        self.hash ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
    }

    /// Hands the move to the other side. The hash holds the turn key exactly when the defenders
    /// are to move, so either way the key goes in or out.
    #[inline]
    pub(super) fn pass_turn(&mut self) {
        self.hash ^= zobrist::side_key(Side::Defenders);
        self.turn = self.turn.opponent();
    }
}
