//! The preset rulesets: each is a [`Rules`] value built from the switches in `rules.rs`.
//!
//! Sources: the seed document (Haven concept, `004_*.txt`) for `hnefatafl`, aagenielsen.dk for
//! Copenhagen, Fetlar and Brandubh, and `design/tafl.md` for the rest. Choices made where a
//! source is silent are written next to the value.

use super::layout::Layout;
use super::rules::{Escape, KingStrength, PieceSet, Repetition, Rules, Shieldwall};
use super::square::{Piece, Square};

/// Names of every preset, in the order `tafl variants` lists them.
pub const NAMES: [&str; 10] = [
    "hnefatafl",
    "hnefatafl-weaponless",
    "hnefatafl-second-board",
    "copenhagen",
    "fetlar",
    "brandubh",
    "tablut",
    "tawlbwrdd",
    "copenhagen-13",
    "alea-evangelii",
];

/// The preset with this name.
pub fn preset(name: &str) -> Option<Rules> {
    Some(match name {
        "hnefatafl" => hnefatafl(),
        "hnefatafl-weaponless" => Rules {
            name: name.into(),
            king_armed: false,
            ..hnefatafl()
        },
        "hnefatafl-second-board" => Rules {
            name: name.into(),
            start: second_board(),
            ..hnefatafl()
        },
        "copenhagen" => copenhagen(name, ELEVEN),
        // Fetlar: Copenhagen's board, first move and hostility, without shieldwall or exit fort,
        // and a repetition is a draw. The king cannot be taken on the edge (a strong king needs
        // four hostile sides), so there he is lost only with all his men, by encirclement.
        "fetlar" => Rules {
            shieldwall: Shieldwall::None,
            edge_fort: false,
            repetition: Repetition::Draw,
            ..copenhagen(name, ELEVEN)
        },
        "brandubh" => brandubh(),
        "tablut" => tablut(),
        "tawlbwrdd" => tawlbwrdd(),
        "copenhagen-13" => copenhagen(name, THIRTEEN),
        "alea-evangelii" => alea_evangelii(),
        _ => return None,
    })
}

fn layout(diagram: &str) -> Layout {
    Layout::from_diagram(diagram).expect("preset diagrams are valid")
}

const ELEVEN: &str = "
    # . . A A A A A . . #
    . . . . . A . . . . .
    . . . . . . . . . . .
    A . . . . D . . . . A
    A . . . D D D . . . A
    A A . D D K D D . A A
    A . . . D D D . . . A
    A . . . . D . . . . A
    . . . . . . . . . . .
    . . . . . A . . . . .
    # . . A A A A A . . #";

const THIRTEEN: &str = "
    # . . A A A A A A A . . #
    . . . . . . A . . . . . .
    . . . . . . . . . . . . .
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    A . . . . D D D . . . . A
    A A . D D D K D D D . A A
    A . . . . D D D . . . . A
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    . . . . . . . . . . . . .
    . . . . . . A . . . . . .
    # . . A A A A A A A . . #";

/// The seed's own rules: the king's side (the seed's "vikings") moves first and escapes to any
/// edge square; the king is taken on four sides, or three and the empty king square; only the king
/// may stop on or pass the king square. The seed is silent on hostile squares for men, so there
/// are none; it names no repetition rule, so a threefold repetition is a draw.
fn hnefatafl() -> Rules {
    Rules {
        name: "hnefatafl".into(),
        attackers_first: false,
        escape: Escape::Edge,
        corner_block: 1,
        king_armed: true,
        king_strength: KingStrength::Strong,
        corner_hostile: PieceSet::NONE,
        throne_hostile: PieceSet::NONE,
        empty_throne_hostile: PieceSet::KING,
        throne_passable: PieceSet::KING,
        throne_stoppable: PieceSet::KING,
        corner_passable: PieceSet::ALL,
        corner_stoppable: PieceSet::ALL,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        linnaean: false,
        start: layout(ELEVEN),
    }
}

/// The seed's "second board": the four advance scouts (b6, j6, f2, f10) start in the corners.
fn second_board() -> Layout {
    let mut start = layout(ELEVEN);
    let at = |file, rank| Square::at(file, rank, 11);
    for (scout, corner) in [
        (at(1, 5), at(0, 0)),
        (at(9, 5), at(10, 10)),
        (at(5, 1), at(10, 0)),
        (at(5, 9), at(0, 10)),
    ] {
        start.set(scout, None);
        start.set(corner, Some(Piece::Attacker));
    }
    start
}

/// Copenhagen Hnefatafl, on 11x11 or on the 13x13 board.
fn copenhagen(name: &str, diagram: &str) -> Rules {
    Rules {
        name: name.into(),
        attackers_first: true,
        escape: Escape::Corner,
        corner_block: 1,
        king_armed: true,
        king_strength: KingStrength::Strong,
        corner_hostile: PieceSet::ALL,
        throne_hostile: PieceSet::ATTACKERS,
        empty_throne_hostile: PieceSet::ALL,
        throne_passable: PieceSet::ALL,
        throne_stoppable: PieceSet::KING,
        corner_passable: PieceSet::KING,
        corner_stoppable: PieceSet::KING,
        shieldwall: Shieldwall::Strong,
        edge_fort: true,
        encirclement: true,
        repetition: Repetition::DefendersLose,
        linnaean: false,
        start: layout(diagram),
    }
}

fn brandubh() -> Rules {
    Rules {
        name: "brandubh".into(),
        king_strength: KingStrength::StrongAtThrone,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(
            "
            # . . A . . #
            . . . A . . .
            . . . D . . .
            A A D K D A A
            . . . D . . .
            . . . A . . .
            # . . A . . #",
        ),
        ..copenhagen("brandubh", ELEVEN)
    }
}

/// Tablut after Linnaeus: edge escape, the king strong on or beside the throne, the empty throne
/// hostile to all, and Linnaean capture (the rule is named after his account of this game).
fn tablut() -> Rules {
    Rules {
        name: "tablut".into(),
        escape: Escape::Edge,
        king_strength: KingStrength::StrongAtThrone,
        corner_hostile: PieceSet::NONE,
        throne_hostile: PieceSet::NONE,
        corner_passable: PieceSet::ALL,
        corner_stoppable: PieceSet::ALL,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        linnaean: true,
        start: layout(
            "
            . . . A A A . . .
            . . . . A . . . .
            . . . . D . . . .
            A . . . D . . . A
            A A D D K D D A A
            A . . . D . . . A
            . . . . D . . . .
            . . . . A . . . .
            . . . A A A . . .",
        ),
        ..copenhagen("tablut", ELEVEN)
    }
}

/// Tawlbwrdd: edge escape, a weak king and no special squares at all.
fn tawlbwrdd() -> Rules {
    Rules {
        name: "tawlbwrdd".into(),
        escape: Escape::Edge,
        king_strength: KingStrength::Weak,
        corner_hostile: PieceSet::NONE,
        throne_hostile: PieceSet::NONE,
        empty_throne_hostile: PieceSet::NONE,
        throne_passable: PieceSet::ALL,
        throne_stoppable: PieceSet::ALL,
        corner_passable: PieceSet::ALL,
        corner_stoppable: PieceSet::ALL,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(
            "
            . . . A A A A A . . .
            . . . . . A . . . . .
            . . . . . D . . . . .
            A . . . . D . . . . A
            A . . . . D . . . . A
            A A D D D K D D D A A
            A . . . . D . . . . A
            A . . . . D . . . . A
            . . . . . D . . . . .
            . . . . . A . . . . .
            . . . A A A A A . . .",
        ),
        ..copenhagen("tawlbwrdd", ELEVEN)
    }
}

/// Alea Evangelii: 19x19, the king escapes to a 2x2 corner block, the blocks are hostile to all
/// and only the king may enter them; the sources name no throne rule, so the centre is an
/// ordinary square.
fn alea_evangelii() -> Rules {
    Rules {
        name: "alea-evangelii".into(),
        corner_block: 2,
        throne_hostile: PieceSet::NONE,
        empty_throne_hostile: PieceSet::NONE,
        throne_passable: PieceSet::ALL,
        throne_stoppable: PieceSet::ALL,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(
            "
            # # A . . A . . . . . . . A . . A # #
            # # . . . . . . . . . . . . . . . # #
            A . . . . A . . . . . . . A . . . . A
            . . . . . . . A . D . A . . . . . . .
            . . . . . . A . A . A . A . . . . . .
            A . A . . D . . . . . . . D . . A . A
            . . . . A . . . . D . . . . A . . . .
            . . . A . . . . D . D . . . . A . . .
            . . . . A . . D . D . D . . A . . . .
            . . . D . . D . D K D . D . . D . . .
            . . . . A . . D . D . D . . A . . . .
            . . . A . . . . D . D . . . . A . . .
            . . . . A . . . . D . . . . A . . . .
            A . A . . D . . . . . . . D . . A . A
            . . . . . . A . A . A . A . . . . . .
            . . . . . . . A . D . A . . . . . . .
            A . . . . A . . . . . . . A . . . . A
            # # . . . . . . . . . . . . . . . # #
            # # A . . A . . . . . . . A . . A # #",
        ),
        ..copenhagen("alea-evangelii", ELEVEN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named() {
        for name in NAMES {
            let rules = preset(name).unwrap();
            assert_eq!(rules.name, name);
            rules.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(preset("chess").is_none());
    }

    #[test]
    fn piece_counts_match_the_published_layouts() {
        let counts = |name| {
            let start = preset(name).unwrap().start;
            (
                start.dim(),
                start.count(Piece::Attacker),
                start.count(Piece::Defender),
            )
        };
        assert_eq!(counts("copenhagen"), (11, 24, 12));
        assert_eq!(counts("hnefatafl-second-board"), (11, 24, 12));
        assert_eq!(counts("brandubh"), (7, 8, 4));
        assert_eq!(counts("tablut"), (9, 16, 8));
        assert_eq!(counts("tawlbwrdd"), (11, 24, 12));
        assert_eq!(counts("copenhagen-13"), (13, 32, 16));
        assert_eq!(counts("alea-evangelii"), (19, 48, 24));
    }

    #[test]
    fn second_board_puts_the_scouts_in_the_corners() {
        let start = preset("hnefatafl-second-board").unwrap().start;
        for (f, r) in [(0, 0), (10, 0), (0, 10), (10, 10)] {
            assert_eq!(start.get(Square::at(f, r, 11)), Some(Piece::Attacker));
        }
        for (f, r) in [(1, 5), (9, 5), (5, 1), (5, 9)] {
            assert_eq!(start.get(Square::at(f, r, 11)), None);
        }
    }
}
