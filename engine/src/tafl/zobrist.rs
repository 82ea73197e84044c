//! Zobrist keys: a position's hash is the XOR of one key per (piece kind, square) it holds, plus
//! one key when the defenders are to move. A move updates it with two or three XORs, which makes
//! repetition detection (and later a transposition table) cheap.

use super::square::{MAX_DIM, Piece, Side, Square};

const SQUARES: usize = MAX_DIM as usize * MAX_DIM as usize;

/// SplitMix64: a fixed, well-mixed sequence so the keys are the same in every build.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn generate() -> ([[u64; SQUARES]; 3], u64) {
    let mut keys = [[0u64; SQUARES]; 3];
    let mut state = 0x7AF1_2024_u64;
    let mut kind = 0;
    while kind < 3 {
        let mut sq = 0;
        while sq < SQUARES {
            let (next, key) = splitmix(state);
            state = next;
            keys[kind][sq] = key;
            sq += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const TABLES: ([[u64; SQUARES]; 3], u64) = generate();
static PIECE_KEYS: [[u64; SQUARES]; 3] = TABLES.0;
const DEFENDERS_TO_MOVE: u64 = TABLES.1;

#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}

#[inline]
pub fn side_key(side: Side) -> u64 {
    match side {
        Side::Attackers => 0,
        Side::Defenders => DEFENDERS_TO_MOVE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(DEFENDERS_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
