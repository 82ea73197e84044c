//! Making a move and its captures: custodial captures of men, the king's capture per his
//! strength, and shieldwall captures. Only the moving side captures: a piece that moves between
//! two enemies is safe.

use super::bitboard::Bits;
use super::board::Board;
use super::position::Position;
use super::rules::{KingStrength, Shieldwall};
use super::square::{Coord, Dir, Move, Piece, Side, Square};

/// What a move took off the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Captures<B> {
    /// Captured men (never the king).
    pub men: B,
    pub king: bool,
}

/// The kind of man that `side` captures.
fn man_taken_by(side: Side) -> Piece {
    match side {
        Side::Attackers => Piece::Defender,
        Side::Defenders => Piece::Attacker,
    }
}

impl<B: Bits> Position<B> {
    /// Plays a move already checked legal (by [`Position::check_move`] or because it came from
    /// move generation) and removes what it captures.
    pub fn play(&mut self, board: &Board<B>, mv: Move) -> Captures<B> {
        let piece = self
            .piece_at(mv.from)
            .expect("a legal move starts on a piece");
        self.play_piece(board, mv, piece)
    }

    /// Plays `mv`, a legal move of `piece`, as [`Position::play`] does: for a caller that knows
    /// the piece already (from [`Position::check_move`]).
    #[inline]
    pub fn play_piece(&mut self, board: &Board<B>, mv: Move, piece: Piece) -> Captures<B> {
        self.shift_piece(piece, mv.from, mv.to);
        self.pass_turn();
        // Every capture but a shieldwall completed from afar (`swf:n`) takes a piece next to
        // the square moved to; most moves have none there and capture nothing.
        let near = board.around(mv.to) & self.side_bits(piece.side().opponent());
        if near.is_empty() && !board.shieldwall_from_afar() {
            return Captures {
                men: B::EMPTY,
                king: false,
            };
        }
        self.capture(board, mv.to, piece, near)
    }

    /// Removes what `piece`, which moved to `to` next to the enemies `near`, captures. Kept
    /// out of line: inlined, it would crowd the common path of a move that captures nothing.
    #[inline(never)]
    fn capture(&mut self, board: &Board<B>, to: Square, piece: Piece, near: B) -> Captures<B> {
        let side = piece.side();
        let mut men = B::EMPTY;
        // An unarmed king takes no part in captures.
        if piece != Piece::King || board.rules.king_armed {
            let hammers = self.hammers(board, side);
            men = self.custodial_captures(board, to, side, hammers, near);
            if board.rules.shieldwall != Shieldwall::None
                && (board.shieldwall_from_afar() || self.may_bracket_wall(board, to, near, hammers))
            {
                men |= self.shieldwall_captures(board, to, side, hammers);
            }
        }
        let king = side == Side::Attackers
            && (near & self.king).any()
            && self.king_is_captured_by(board, to);

        let victim = man_taken_by(side);
        for sq in men.squares() {
            self.remove(victim, sq);
        }
        if king {
            let k = self
                .king_square()
                .expect("a captured king was on the board");
            self.remove(Piece::King, k);
        }
        Captures { men, king }
    }

    /// Under `swf:y`, whether the move to `to`, next to the enemies `near`, can bracket a
    /// shieldwall: the move brackets the wall along the edge it stands on, next to the wall's
    /// end, which is an enemy on the edge with one of the mover's `hammers` in front of him.
    #[inline]
    fn may_bracket_wall(&self, board: &Board<B>, to: Square, near: B, hammers: B) -> bool {
        board.edge.has(to)
            && (near & board.edge)
                .squares()
                .any(|end| (board.around(end) & hammers & !board.edge).any())
    }

    /// The pieces of `side` that take part in captures: every man, and the king if armed.
    #[inline]
    fn hammers(&self, board: &Board<B>, side: Side) -> B {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders if board.rules.king_armed => self.defenders | self.king,
            Side::Defenders => self.defenders,
        }
    }

    /// Linnaean capture: the king is on the throne and attackers stand on the throne's other
    /// three sides, so the throne counts against the defender on the fourth (`victim_sq`).
    fn linnaean_throne(&self, board: &Board<B>, victim_sq: Square) -> bool {
        let Some(throne) = board.throne else {
            return false;
        };
        self.king.has(throne)
            && Dir::ALL
                .iter()
                .filter_map(|&d| board.step(throne, d))
                .filter(|&n| n != victim_sq)
                .all(|n| self.attackers.has(n))
    }

    /// The men next to `to` (among the enemies `near`) sandwiched between the piece of `side`
    /// that moved there and a square beyond them that closes a capture: one of the mover's
    /// pieces (`hammers`), or the throne or a corner whose rules make it hostile.
    fn custodial_captures(
        &self,
        board: &Board<B>,
        to: Square,
        side: Side,
        hammers: B,
        near: B,
    ) -> B {
        let victim = man_taken_by(side);
        let men = near & self.bits(victim);
        if men.is_empty() {
            return B::EMPTY;
        }
        let beyond = board.two_away(to);
        let mut anvils = beyond & hammers;
        // Besides the mover's pieces only the throne and the corners can close a capture:
        // looked at only when one of them is two squares away.
        let special = beyond & board.throne_and_corners;
        if special.any() {
            anvils |= self.hostile_specials(board, victim, special);
        }
        let mut captured = B::EMPTY;
        // The man between `to` and a square two away on its rank or file is half way.
        for far in anvils.squares() {
            let man = Square::from_index((far.index() + to.index()) / 2);
            if men.has(man) {
                captured = captured.with(man);
            }
        }
        if special.any() && victim == Piece::Defender && board.rules.linnaean {
            captured |= self.linnaean_captures(board, to, men, special);
        }
        captured
    }

    /// Which of `special`, squares among the throne and the corners, are hostile to `victim`
    /// now: empty and hostile, or the occupied throne where the rules make it hostile.
    fn hostile_specials(&self, board: &Board<B>, victim: Piece, special: B) -> B {
        let occupied = self.occupied();
        special
            & ((board.hostile_when_empty(victim) & !occupied)
                | (board.hostile_when_occupied(victim) & occupied))
    }

    /// The men of `men`, next to `to`, taken against the occupied throne (among `special`,
    /// beyond them) by the Linnaean rule.
    #[cold]
    fn linnaean_captures(&self, board: &Board<B>, to: Square, men: B, special: B) -> B {
        let Some(throne) = board.throne else {
            return B::EMPTY;
        };
        if !(special & self.occupied()).has(throne) {
            return B::EMPTY;
        }
        let man = Square::from_index((throne.index() + to.index()) / 2);
        if men.has(man) && self.linnaean_throne(board, man) {
            B::single(man)
        } else {
            B::EMPTY
        }
    }

    /// Whether the attacker that just moved to `to` captures the king.
    #[inline(never)]
    fn king_is_captured_by(&self, board: &Board<B>, to: Square) -> bool {
        let Some(k) = self.king_square() else {
            return false;
        };
        if !board.around(k).has(to) {
            return false;
        }
        let toward_mover = board.direction(k, to);
        let empty = self.empty(board);
        let hostile_square = |sq: Square| {
            self.attackers.has(sq)
                || (empty.has(sq) && board.hostile_when_empty(Piece::King).has(sq))
        };
        if board.king_is_strong_at(k) {
            // Off the board is never hostile, so a strong king is safe on the edge.
            return Dir::ALL
                .iter()
                .all(|&d| board.step(k, d).is_some_and(hostile_square));
        }
        if board.rules.king_strength == KingStrength::Middleweight {
            // Only the squares on the board count, so the edge helps to confine him.
            return Dir::ALL
                .iter()
                .all(|&d| board.step(k, d).is_none_or(hostile_square));
        }
        let Some(opposite) = board.step(k, toward_mover.opposite()) else {
            return false;
        };
        match board.rules.king_strength {
            KingStrength::ThroneOrTwoAttackers => self.attackers.has(opposite),
            _ => hostile_square(opposite),
        }
    }

    /// Shieldwall: a row of two or more enemy pieces on an edge, each with one of the mover's
    /// pieces directly in front of it and bracketed at both ends along the edge (by a piece, or
    /// under the strong rule by a corner), is captured by the move that brackets it. The king
    /// may stand in the wall but is never taken by it.
    ///
    /// Under `swf:y` only a bracketing move captures, as the Copenhagen rules word it ("captured
    /// together, by bracketing the whole group at both ends") and as the recorded Copenhagen games
    /// confirm: moving the last piece into the front row of an already bracketed wall captures
    /// nothing. Under `swf:n` (OpenTafl's relaxed shieldwall) any move that leaves a wall closed,
    /// on any edge, captures it.
    #[inline(never)]
    fn shieldwall_captures(&self, board: &Board<B>, to: Square, side: Side, hammers: B) -> B {
        let dim = board.dim;
        let last = dim - 1;
        let victims = self.side_bits(side.opponent());
        let Coord { file: tf, rank: tr } = board.coord(to);
        let corner_brackets = board.rules.shieldwall == Shieldwall::Strong;
        let mut captured = B::EMPTY;
        let d = usize::from(dim);
        // Each edge as (its first square, the index step along it, the index step inward, how
        // far `to` is from it, where `to` lies along it). Only an edge `to` stands on can hold
        // a wall this move brackets.
        let edges = [
            (0, 1, d as isize, tr, tf),
            (usize::from(last) * d, 1, -(d as isize), last - tr, tf),
            (0, d, 1, tf, tr),
            (usize::from(last), d, -1, last - tf, tr),
        ];
        for (first, step, inward, depth, along) in edges {
            if depth != 0 && board.rules.shieldwall_flank {
                continue;
            }
            let at = |i: u8| Square::from_index(first + usize::from(i) * step);
            let front = |i: u8| Square::from_index((at(i).index() as isize + inward) as usize);
            let bracket = |i: Option<u8>| {
                i.filter(|&i| i < dim).map(at).is_some_and(|sq| {
                    hammers.has(sq)
                        || (corner_brackets && board.corners.has(sq) && !self.occupied().has(sq))
                })
            };
            let mut i = 0;
            while i < dim {
                if !victims.has(at(i)) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < dim && victims.has(at(i)) {
                    i += 1;
                }
                let end = i - 1;
                // Under `swf:y` the move must bracket the wall; otherwise completing it is enough.
                let involved =
                    !board.rules.shieldwall_flank || along + 1 == start || along == end + 1;
                let fronted = (start..=end).all(|j| hammers.has(front(j)));
                if end > start
                    && involved
                    && fronted
                    && bracket(start.checked_sub(1))
                    && bracket(Some(end + 1))
                {
                    for j in start..=end {
                        if !self.king.has(at(j)) {
                            captured = captured.with(at(j));
                        }
                    }
                }
            }
        }
        captured
    }
}
