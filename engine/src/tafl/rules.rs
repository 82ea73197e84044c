//! The data-driven tafl ruleset: every rule is a field, so a variant is a value, not a code path.
//!
//! Field names follow OpenTafl's rules-string keys (given in each field's doc) so rules import
//! and export losslessly; see [`opentafl`](super::opentafl) for the string form.

use std::fmt;

use super::layout::Layout;
use super::square::Piece;

/// Where the king escapes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Any edge square (`esc:e`).
    Edge,
    /// A corner square (`esc:c`).
    Corner,
}

/// How hard the king is to capture (`ks`; OpenTafl has only `y` and `n`, `c` and `m` are ours).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KingStrength {
    /// `y` (OpenTafl's "king strong"; `s` is read too): surrounded on all four sides by
    /// attackers or squares hostile to him.
    Strong,
    /// `n` (`w` is read too): sandwiched like any other piece.
    Weak,
    /// `c`: strong on or next to the throne, weak elsewhere.
    StrongAtThrone,
    /// `m`: strong on or next to the throne; elsewhere sandwiched, but only between two
    /// attackers (hostile squares do not count).
    Middleweight,
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

/// What happens when a move makes a position occur for the third time (`tfr`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// `i`: nothing; play goes on.
    Ignored,
    /// `d`: the game is drawn.
    Draw,
    /// `w`: the player who made the third occurrence wins.
    MoverWins,
    /// `l`: the player who made the third occurrence loses.
    MoverLoses,
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
    /// `corb` (our extension): side of the square block in each corner that counts as the corner
    /// (1 normally, 2 for Alea Evangelii).
    pub corner_block: u8,
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
    /// `efe`: the defenders win by an exit fort.
    pub edge_fort: bool,
    /// `surf`: the attackers win by enclosing the king and every defender away from the edge.
    pub encirclement: bool,
    /// `tfr`.
    pub repetition: Repetition,
    /// `linc`: Linnaean capture: a defender beside the throne is captured against it when the
    /// king sits there surrounded by attackers on his other three sides.
    pub linnaean: bool,
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
    /// square), exactly one king, a corner block that fits.
    pub fn validate(&self) -> Result<(), RulesError> {
        let dim = self.dim();
        if dim < 5 || dim.is_multiple_of(2) {
            return Err(RulesError(format!(
                "board size {dim}: must be odd and at least 5"
            )));
        }
        let kings = self.start.count(Piece::King);
        if kings != 1 {
            return Err(RulesError(format!(
                "start layout has {kings} kings; exactly one needed"
            )));
        }
        if self.corner_block == 0 || self.corner_block * 2 >= dim {
            return Err(RulesError(format!(
                "corner block of {} does not fit a {dim}x{dim} board",
                self.corner_block
            )));
        }
        Ok(())
    }
}
