//! Sets of squares as machine words.
//!
//! Boards up to 11x11 (121 squares) fit a `u128`; 13x13 to 19x19 (up to 361 squares) use
//! [`Wide`], six 64-bit words. The rules are written once against [`Bits`] and compiled for both,
//! so the common board sizes pay nothing for the large ones. Square `i` is bit `i`, with
//! `i = rank * dim + file` (a1 = 0).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const EMPTY: Self;
    /// How many squares the word can hold.
    const CAPACITY: usize;

    fn single(sq: Square) -> Self;
    /// Moves every square `n` places towards higher indices (bits pushed past the top are lost).
    fn shl(self, n: u32) -> Self;
    /// Moves every square `n` places towards lower indices.
    fn shr(self, n: u32) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool;
    /// The square with the lowest index, if any.
    fn lowest(self) -> Option<Square>;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;

    fn has(self, sq: Square) -> bool {
        !(self & Self::single(sq)).is_empty()
    }

    fn with(self, sq: Square) -> Self {
        self | Self::single(sq)
    }

    fn without(self, sq: Square) -> Self {
        self & !Self::single(sq)
    }

    fn any(self) -> bool {
        !self.is_empty()
    }

    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates the squares of a set from the lowest index up.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.0.lowest()?;
        self.0 = self.0.without_lowest();
        Some(sq)
    }
}

/// Every one-square `u128`, looked up: a shift by a variable amount across two machine words
/// takes several instructions, and moves and captures make many such sets.
static SINGLES: [u128; 128] = {
    let mut singles = [0; 128];
    let mut i = 0;
    while i < 128 {
        singles[i] = 1 << i;
        i += 1;
    }
    singles
};

impl Bits for u128 {
    const EMPTY: Self = 0;
    const CAPACITY: usize = 128;

    #[inline]
    fn single(sq: Square) -> Self {
        // Squares of a board that fits are below 128: the mask only spares a bounds check.
        SINGLES[sq.index() % 128]
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn lowest(self) -> Option<Square> {
        (self != 0).then(|| Square::from_index(self.trailing_zeros() as usize))
    }
    #[inline]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

const WORDS: usize = 6;

/// A 384-bit set for boards from 13x13 up to 19x19.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Wide([u64; WORDS]);

impl Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide(")?;
        for w in self.0.iter().rev() {
            write!(f, "{w:016x}")?;
        }
        write!(f, ")")
    }
}

macro_rules! wide_binop {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline]
            fn $method(self, rhs: Wide) -> Wide {
                Wide(std::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }
        impl $assign_trait for Wide {
            #[inline]
            fn $assign(&mut self, rhs: Wide) {
                *self = *self $op rhs;
            }
        }
    };
}

wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

impl Bits for Wide {
    const EMPTY: Self = Wide([0; WORDS]);
    const CAPACITY: usize = 64 * WORDS;

    #[inline]
    fn single(sq: Square) -> Self {
        let mut w = [0; WORDS];
        w[sq.index() / 64] = 1 << (sq.index() % 64);
        Wide(w)
    }

    #[inline]
    fn shl(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        Wide(std::array::from_fn(|i| {
            let Some(src) = i.checked_sub(words) else {
                return 0;
            };
            let hi = self.0[src] << bits;
            let lo = match (bits, src.checked_sub(1)) {
                (0, _) | (_, None) => 0,
                (_, Some(below)) => self.0[below] >> (64 - bits),
            };
            hi | lo
        }))
    }

    #[inline]
    fn shr(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        Wide(std::array::from_fn(|i| {
            let src = i + words;
            if src >= WORDS {
                return 0;
            }
            let lo = self.0[src] >> bits;
            let hi = if bits == 0 || src + 1 >= WORDS {
                0
            } else {
                self.0[src + 1] << (64 - bits)
            };
            lo | hi
        }))
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    fn lowest(self) -> Option<Square> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|i| Square::from_index(i * 64 + self.0[i].trailing_zeros() as usize))
    }

    #[inline]
    fn without_lowest(self) -> Self {
        let mut words = self.0;
        if let Some(w) = words.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        Wide(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set<B: Bits>(indices: &[usize]) -> B {
        indices
            .iter()
            .fold(B::EMPTY, |b, &i| b.with(Square::from_index(i)))
    }

    fn indices<B: Bits>(b: B) -> Vec<usize> {
        b.squares().map(|s| s.index()).collect()
    }

    #[test]
    fn wide_shifts_cross_word_boundaries() {
        let b: Wide = set(&[0, 63, 64, 200, 300]);
        assert_eq!(indices(b.shl(1)), vec![1, 64, 65, 201, 301]);
        assert_eq!(indices(b.shl(19)), vec![19, 82, 83, 219, 319]);
        assert_eq!(indices(b.shr(19)), vec![44, 45, 181, 281]);
        assert_eq!(indices(b.shl(100)), vec![100, 163, 164, 300]);
        assert_eq!(indices(b.shr(64)), vec![0, 136, 236]);
        assert_eq!(indices(b.shl(0)), indices(b));
    }

    #[test]
    fn wide_agrees_with_u128_below_128() {
        let idx = [0, 5, 60, 64, 100, 120];
        let a: u128 = set(&idx);
        let w: Wide = set(&idx);
        for n in [1, 7, 11, 13, 64, 65] {
            let mask: u128 = set(&(0..128).collect::<Vec<_>>());
            assert_eq!(
                indices(a.shl(n) & mask),
                indices(w.shl(n) & set::<Wide>(&(0..128).collect::<Vec<_>>()))
            );
            assert_eq!(indices(a.shr(n)), indices(w.shr(n)));
        }
        assert_eq!(a.count(), w.count());
        assert_eq!(a.lowest(), w.lowest());
    }
}
