//! The data-driven tafl ruleset: every rule is a field, so a variant is a value, not a code path.
//!
//! Field names follow OpenTafl's rules-string keys (given in each field's doc) so rules import
//! and export losslessly; see [`opentafl`](super::opentafl) for the string form.

use std::fmt;

use super::layout::Layout;
use super::square::{Piece, Square};

/// Where the king escapes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Any edge square (`esc:e`).
    Edge,
    /// A corner square (`esc:c`).
    Corner,
}

/// How hard the king is to capture (`ks`). `y`/`s`, `n`/`w`, `c` and `m` are OpenTafl's and
/// mean what they mean there; `a` is ours.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KingStrength {
    /// `y` (`s` is read too): surrounded on all four sides by attackers or squares hostile to
    /// him, so never on the edge.
    Strong,
    /// `n` (`w` is read too): sandwiched like any other piece.
    Weak,
    /// `c`: strong on or next to the throne, weak elsewhere.
    StrongAtThrone,
    /// `m` (OpenTafl's "middleweight"): every square next to him on the board is an attacker or
    /// hostile to him, so three attackers take him against the edge.
    Middleweight,
    /// `a` (our extension): strong on or next to the throne; elsewhere sandwiched, but only
    /// between two attackers (hostile squares do not count).
    ThroneOrTwoAttackers,
}

/// Shieldwall captures (`sw`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shieldwall {
    /// `n`: no shieldwall captures.
    None,
    /// `w`: both brackets must be pieces.
    Weak,
    /// `s`: a corner may stand in for one bracket.
    Strong,
}

/// What happens when a move makes a position occur for the third time (`tfr`). OpenTafl's
/// letters judge the side that made the third occurrence: under `w` the side that must answer
/// it wins (the one that forced the repetition loses), under `l` the reverse.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// `i`: nothing; play goes on.
    Ignored,
    /// `d`: the game is drawn.
    Draw,
    /// `w`: the player who made the third occurrence loses.
    MoverLoses,
    /// `l`: the player who made the third occurrence wins.
    MoverWins,
    /// `c` (our extension, Copenhagen rule 9): the defenders lose when their move makes the third
    /// occurrence; a repetition completed by the attackers is ignored.
    DefendersLose,
}

/// A set of piece kinds, for the rules that treat kinds differently (hostility, restricted
/// squares). Written in rules strings as OpenTafl does: `t` attacker, `T` defender, `K` king.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceSet(u8);

impl PieceSet {
    pub const NONE: PieceSet = PieceSet(0);
    pub const ALL: PieceSet = PieceSet(0b111);
    pub const KING: PieceSet = PieceSet::of(&[Piece::King]);
    pub const ATTACKERS: PieceSet = PieceSet::of(&[Piece::Attacker]);

    pub const fn of(pieces: &[Piece]) -> PieceSet {
        let mut bits = 0;
        let mut i = 0;
        while i < pieces.len() {
            bits |= 1 << pieces[i] as u8;
            i += 1;
        }
        PieceSet(bits)
    }

    pub const fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece as u8) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Piece> {
        Piece::ALL.into_iter().filter(move |&p| self.contains(p))
    }
}

/// A complete tafl ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Display name of the variant, not part of the rules proper.
    pub name: String,
    /// `atkf`: the attackers move first.
    pub attackers_first: bool,
    /// `esc`.
    pub escape: Escape,
    /// `cor`: side of the square block in each corner that counts as the corner: 1 normally
    /// (the four corner squares), 2 for Alea Evangelii, 0 when the corners are ordinary squares
    /// (`cor:` with an empty list). Written as OpenTafl's list of squares.
    pub corner_block: u8,
    /// `cen`: the centre square is a throne (`cen:` with an empty list makes it ordinary).
    pub throne: bool,
    /// `ka`: the king takes part in captures (false is the seed's "weaponless king").
    pub king_armed: bool,
    /// `ks`.
    pub king_strength: KingStrength,
    /// `corh`: pieces the corners are hostile to.
    pub corner_hostile: PieceSet,
    /// `cenh`: pieces the throne is hostile to while occupied.
    pub throne_hostile: PieceSet,
    /// `cenhe`: pieces the throne is hostile to while empty.
    pub empty_throne_hostile: PieceSet,
    /// `cenp`: pieces that may pass over the empty throne.
    pub throne_passable: PieceSet,
    /// `cens`: pieces that may stop on the throne.
    pub throne_stoppable: PieceSet,
    /// `corp`: pieces that may pass over a corner (only matters for 2x2 corner blocks).
    pub corner_passable: PieceSet,
    /// `cors`: pieces that may stop on a corner.
    pub corner_stoppable: PieceSet,
    /// `sw`.
    pub shieldwall: Shieldwall,
    /// `swf`: only a move that brackets a shieldwall captures it; when false, any move that
    /// completes one (its front row included) does.
    pub shieldwall_flank: bool,
    /// `efe`: the defenders win by an exit fort.
    pub edge_fort: bool,
    /// `surf`: the attackers win by enclosing the king and every defender away from the edge.
    pub encirclement: bool,
    /// `tfr`.
    pub repetition: Repetition,
    /// `linc`: Linnaean capture: a defender beside the throne is captured against it when the
    /// king sits there surrounded by attackers on his other three sides.
    pub linnaean: bool,
    /// `spd`: the most squares a piece of each kind may move (indexed by [`Piece::index`]);
    /// `None` for no limit.
    pub speed: [Option<u8>; 3],
    /// `start`.
    pub start: Layout,
}

/// A ruleset whose fields cannot work together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    pub fn dim(&self) -> u8 {
        self.start.dim()
    }

    /// Checks what the board geometry and the engine need: an odd size (the throne is the centre
    /// square), a corner block that fits, corners to escape to, and a start layout that
    /// [`Rules::check_layout`] accepts.
    pub fn validate(&self) -> Result<(), RulesError> {
        let dim = self.dim();
        if dim < 5 || dim.is_multiple_of(2) {
            return Err(RulesError(format!(
                "board size {dim}: must be odd and at least 5"
            )));
        }
        if self.corner_block * 2 >= dim {
            return Err(RulesError(format!(
                "corner block of {} does not fit a {dim}x{dim} board",
                self.corner_block
            )));
        }
        if self.speed.contains(&Some(0)) {
            return Err(RulesError(
                "a speed limit of 0 leaves a piece unable to move".into(),
            ));
        }
        if self.corner_block == 0 && self.escape == Escape::Corner {
            return Err(RulesError(
                "the king escapes to a corner, but there are no corners".into(),
            ));
        }
        self.check_layout(&self.start)
    }

    /// Whether `sq` is one of the corner squares.
    pub fn is_corner(&self, sq: Square) -> bool {
        let (dim, cb) = (self.dim(), self.corner_block);
        let near = |x: u8| x < cb || x >= dim - cb;
        near(sq.file(dim)) && near(sq.rank(dim))
    }

    /// Whether `sq` is the throne.
    pub fn is_throne(&self, sq: Square) -> bool {
        let dim = self.dim();
        self.throne && sq == Square::at(dim / 2, dim / 2, dim)
    }

    /// Whether a piece of kind `piece` may stand on `sq`.
    pub fn may_stop(&self, piece: Piece, sq: Square) -> bool {
        (!self.is_corner(sq) || self.corner_stoppable.contains(piece))
            && (!self.is_throne(sq) || self.throne_stoppable.contains(piece))
    }

    /// Checks a position for these rules: its size, exactly one king, and no man on a square
    /// his kind may not stop on (he could never have got there).
    pub fn check_layout(&self, layout: &Layout) -> Result<(), RulesError> {
        let dim = self.dim();
        if layout.dim() != dim {
            return Err(RulesError(format!(
                "a {0}x{0} position for {1}x{1} rules",
                layout.dim(),
                dim
            )));
        }
        let kings = layout.count(Piece::King);
        if kings != 1 {
            return Err(RulesError(format!(
                "the position has {kings} kings; exactly one needed"
            )));
        }
        if let Some((sq, piece)) = layout
            .pieces()
            .find(|&(sq, piece)| piece != Piece::King && !self.may_stop(piece, sq))
        {
            let who = match piece {
                Piece::Attacker => "an attacker",
                _ => "a defender",
            };
            return Err(RulesError(format!(
                "{who} stands on {}, where the rules let it neither stop nor start",
                sq.name(dim)
            )));
        }
        Ok(())
    }
}
