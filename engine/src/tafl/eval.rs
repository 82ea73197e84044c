//! The static evaluation the tafl search uses at its leaves, and the one-move threat tests
//! (an escape or a king capture available right now) that both the evaluation and the search's
//! quiescence rely on.
//!
//! The evaluation reads the variant from the [`Board`] (escape squares, corners, the king's
//! strength where he stands, hostile squares) and from the rules' switches (encirclement, exit
//! forts, shieldwalls), so one function serves every preset and every rules string. It is
//! computed from the attackers' side and returned from the side to move's. One defending man is
//! worth 100; the terms, in that unit:
//!
//! * **Material**: a defender 100, an attacker `100 * defenders / attackers` of the variant's
//!   start (clamped to 30..=100), so trading one for one favours the side that started with more.
//! * **Escape**: each escape square the king can reach in one move costs the attackers 120;
//!   each square he can reach from which a further move escapes costs 35 (counted up to 6); and
//!   every step between the king and his nearest escape square is worth 6 to the attackers.
//! * **King freedom**: each square the king can move to is worth 4 to the defenders; each
//!   attacker (or empty square hostile to him) beside the king is worth 40 to the attackers where
//!   the king can be sandwiched, 18 where he must be surrounded (60 more with three sides shut);
//!   each attacker within two steps of him is worth 5.
//! * **Corners** (corner escape only): each attacker on a square that blocks a corner's
//!   approaches (two steps along the edge, or a knight's move, from it) is worth 12.
//! * **Encirclement** (`surf`): each edge square the defenders can still reach without crossing
//!   an attacker is worth 2 to the defenders: the fewer, the closer the attackers are to sealing
//!   them in.
//! * **Exit fort** (`efe`): a king on the edge is worth 30 to the defenders, 20 more per
//!   defender beside him.
//! * **Shieldwall** (`sw`): each man on an edge with an enemy directly in front of it is worth 8
//!   to the other side.
//! * **Tempo**: 10 to the side to move.

use super::bitboard::Bits;
use super::board::Board;
use super::position::Position;
use super::rules::{Escape, Shieldwall};
use super::square::{Dir, Move, Piece, Side};

/// Per-variant constants of the evaluation, computed once per search.
pub(super) struct Eval<B> {
    attacker_value: i32,
    defender_value: i32,
    /// Manhattan distance from each square to the nearest escape square.
    escape_distance: Vec<u8>,
    /// Squares from which an attacker blocks a corner's approaches (corner escape only).
    corner_guards: B,
    /// Each edge with the direction pointing into the board.
    edges: [(B, Dir); 4],
    encirclement: bool,
    edge_fort: bool,
    shieldwall: bool,
}

const DEFENDER: i32 = 100;
const ESCAPE_NOW: i32 = 120;
const ESCAPE_NEXT: i32 = 35;
const ESCAPE_STEP: i32 = 6;
const KING_MOBILITY: i32 = 4;
const BESIDE_WEAK: i32 = 40;
const BESIDE_STRONG: i32 = 18;
const THREE_SIDES: i32 = 60;
const NEAR_KING: i32 = 5;
const CORNER_GUARD: i32 = 12;
const EDGE_REACH: i32 = 2;
const FORT_EDGE: i32 = 30;
const FORT_WALL: i32 = 20;
const WALL_RISK: i32 = 8;
const TEMPO: i32 = 10;

impl<B: Bits> Eval<B> {
    pub(super) fn new(board: &Board<B>) -> Eval<B> {
        let rules = &board.rules;
        let start_attackers = rules.start.count(Piece::Attacker).max(1) as i32;
        let start_defenders = rules.start.count(Piece::Defender).max(1) as i32;
        let dim = board.dim;
        let squares = usize::from(dim) * usize::from(dim);
        let distance_to = |targets: B| -> Vec<u8> {
            let targets: Vec<(i32, i32)> = targets
                .squares()
                .map(|t| (i32::from(t.file(dim)), i32::from(t.rank(dim))))
                .collect();
            (0..squares)
                .map(|i| {
                    let sq = super::square::Square::from_index(i);
                    let (f, r) = (i32::from(sq.file(dim)), i32::from(sq.rank(dim)));
                    targets
                        .iter()
                        .map(|&(tf, tr)| (tf - f).abs() + (tr - r).abs())
                        .min()
                        .unwrap_or(0) as u8
                })
                .collect()
        };
        let corner_distance = distance_to(board.corners);
        let corner_guards = match rules.escape {
            Escape::Corner => (0..squares)
                .map(super::square::Square::from_index)
                .filter(|sq| {
                    let d = corner_distance[sq.index()];
                    let on_edge = board.edge.has(*sq);
                    (d == 2 && on_edge) || (d == 3 && !on_edge)
                })
                .fold(B::EMPTY, |acc, sq| acc.with(sq)),
            Escape::Edge => B::EMPTY,
        };
        let all = board.all;
        let edge_of = |inward: Dir| all & !board.shift(all, inward);
        Eval {
            attacker_value: (DEFENDER * start_defenders / start_attackers).clamp(30, 100),
            defender_value: DEFENDER,
            escape_distance: distance_to(board.escape),
            corner_guards,
            edges: [
                (edge_of(Dir::North), Dir::North),
                (edge_of(Dir::South), Dir::South),
                (edge_of(Dir::East), Dir::East),
                (edge_of(Dir::West), Dir::West),
            ],
            encirclement: rules.encirclement,
            edge_fort: rules.edge_fort,
            shieldwall: rules.shieldwall != Shieldwall::None,
        }
    }

    /// The position's value for the side to move.
    pub(super) fn evaluate(&self, pos: &Position<B>, board: &Board<B>) -> i32 {
        let attackers = pos.attackers;
        let defenders = pos.defenders;
        let mut v = self.attacker_value * attackers.count() as i32
            - self.defender_value * defenders.count() as i32;
        if let Some(k) = pos.king_square() {
            let empty = pos.empty(board);
            let reach = king_reach(pos, board);
            let escapes_now = (reach & board.escape).count() as i32;
            let escapes_next = (reach & escape_approaches(pos, board)).count() as i32;
            v -= ESCAPE_NOW * escapes_now + ESCAPE_NEXT * escapes_next.min(6);
            v += ESCAPE_STEP * i32::from(self.escape_distance[k.index()]);
            v -= KING_MOBILITY * reach.count() as i32;

            let around = board.neighbours(pos.king);
            let hostile = attackers | (empty & board.hostile_when_empty(Piece::King));
            let shut = (around & hostile).count() as i32;
            if board.king_is_strong_at(k) {
                v += BESIDE_STRONG * shut;
                if shut == 3 && around.count() == 4 {
                    v += THREE_SIDES;
                }
            } else {
                v += BESIDE_WEAK * shut;
            }
            let near = board.neighbours(around) | around;
            v += NEAR_KING * (near & attackers).count() as i32;

            if self.edge_fort && board.edge.has(k) {
                v -= FORT_EDGE + FORT_WALL * (around & defenders).count() as i32;
            }
        }
        v += CORNER_GUARD * (attackers & self.corner_guards).count() as i32;
        if self.encirclement {
            let reach = flood(
                board,
                pos.side_bits(Side::Defenders),
                board.all & !attackers,
            );
            v -= EDGE_REACH * (reach & board.edge).count() as i32;
        }
        if self.shieldwall {
            let defending = pos.side_bits(Side::Defenders);
            for &(edge, inward) in &self.edges {
                let fronted = |men: B, enemies: B| {
                    (edge & men & board.shift(enemies, inward.opposite())).count() as i32
                };
                v += WALL_RISK * (fronted(defenders, attackers) - fronted(attackers, defending));
            }
        }
        match pos.turn {
            Side::Attackers => v + TEMPO,
            Side::Defenders => TEMPO - v,
        }
    }
}

/// The squares the king can move to.
pub(super) fn king_reach<B: Bits>(pos: &Position<B>, board: &Board<B>) -> B {
    if pos.king.is_empty() {
        return B::EMPTY;
    }
    let empty = pos.empty(board);
    let pass = board.passable(Piece::King);
    let stop = board.stoppable(Piece::King);
    let enter = empty & (pass | stop);
    let mut destinations = B::EMPTY;
    for dir in Dir::ALL {
        let mut front = pos.king;
        loop {
            let reached = board.shift(front, dir) & enter;
            if reached.is_empty() {
                break;
            }
            destinations |= reached & stop;
            front = reached & pass;
        }
    }
    destinations
}

/// The empty squares, not themselves escape squares, from which the king could reach an escape
/// square in one move.
pub(super) fn escape_approaches<B: Bits>(pos: &Position<B>, board: &Board<B>) -> B {
    let empty = pos.empty(board);
    let stop = board.stoppable(Piece::King);
    let pass = board.passable(Piece::King) & empty;
    let targets = board.escape & empty & stop;
    let mut from = B::EMPTY;
    for dir in Dir::ALL {
        let back = dir.opposite();
        let mut front = board.shift(targets, back);
        let mut seen = front;
        loop {
            front = board.shift(front & pass, back) & !seen;
            if front.is_empty() {
                break;
            }
            seen |= front;
        }
        from |= seen;
    }
    from & empty & stop & !board.escape
}

/// Whether the king could reach an escape square with his next move.
pub(super) fn king_can_escape<B: Bits>(pos: &Position<B>, board: &Board<B>) -> bool {
    (king_reach(pos, board) & board.escape).any()
}

/// An attacker's move that would capture the king right now (whoever is to move).
pub(super) fn king_capture<B: Bits>(pos: &Position<B>, board: &Board<B>) -> Option<Move> {
    let k = pos.king_square()?;
    let empty = pos.empty(board);
    let around = board.neighbours(pos.king);
    let shut = (around & pos.attackers).count()
        + (around & empty & board.hostile_when_empty(Piece::King)).count();
    // A strong king needs all four sides shut, three of them before the move; a sandwich needs
    // one side shut already.
    let needed = if board.king_is_strong_at(k) { 3 } else { 1 };
    if shut < needed || (board.king_is_strong_at(k) && around.count() < 4) {
        return None;
    }
    let pass = board.passable(Piece::Attacker) & empty;
    let targets = around & empty & board.stoppable(Piece::Attacker);
    for to in targets.squares() {
        for dir in Dir::ALL {
            let mut sq = to;
            let from = loop {
                let Some(next) = board.step(sq, dir) else {
                    break None;
                };
                if pos.attackers.has(next) {
                    break Some(next);
                }
                if !pass.has(next) {
                    break None;
                }
                sq = next;
            };
            if let Some(from) = from {
                let mv = Move { from, to };
                let mut after = *pos;
                if after.play(board, mv).king {
                    return Some(mv);
                }
            }
        }
    }
    None
}

/// Squares where a man of `side` would, by moving there, sandwich an enemy man against one of
/// its own pieces or a square hostile to the enemy: the likely captures, for move ordering.
pub(super) fn capture_squares<B: Bits>(pos: &Position<B>, board: &Board<B>, side: Side) -> B {
    let empty = pos.empty(board);
    let (victims, victim, hammers) = match side {
        Side::Attackers => (pos.defenders, Piece::Defender, pos.attackers),
        Side::Defenders => (pos.attackers, Piece::Attacker, pos.defenders | pos.king),
    };
    let anvils = hammers | (empty & board.hostile_when_empty(victim));
    let mut squares = B::EMPTY;
    for dir in Dir::ALL {
        let back = dir.opposite();
        squares |= board.shift(victims & board.shift(anvils, back), back);
    }
    squares & empty
}

/// Every square of `within` connected orthogonally to `seeds` through `within`.
fn flood<B: Bits>(board: &Board<B>, seeds: B, within: B) -> B {
    let mut reach = seeds;
    loop {
        let next = (reach | board.neighbours(reach)) & within;
        if next == reach {
            return reach;
        }
        reach = next;
    }
}
