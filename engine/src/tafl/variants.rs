//! The preset rulesets: each is a [`Rules`] value built from the switches in `rules.rs`.
//!
//! Every preset cites its source next to its value; `docs/rules/tafl.md` has each one's board,
//! rules and the choices we made where the sources are vague. The seed document (the Haven
//! concept, `004_*.txt`) names the boards; Copenhagen, Fetlar and Brandubh follow aagenielsen.dk
//! and OpenTafl's built-in variants.

use super::layout::Layout;
use super::rules::{Escape, KingStrength, PieceSet, Repetition, Rules, Shieldwall};
use super::square::{Piece, Square};

/// Names of every preset, in the order `tafl variants` lists them.
pub const NAMES: [&str; 16] = [
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
    "hnefatafl-axes",
    "hnefatafl-13",
    "tawlbwrdd-13",
    "fithcheall",
    "ard-ri",
    "irish-board",
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
        // The seed's "main variation": its basic game with the vikings (the king's side) on the
        // central axes instead of in a diamond.
        "hnefatafl-axes" => seed_rules(name, AXES_ELEVEN),
        // The seed lists 13x13 boards for Hnefatafl and Tawlbwrdd without layouts: Hnefatafl
        // takes the 13x13 layout of Copenhagen 13x13, Tawlbwrdd its own axes layout, as on 11x11.
        "hnefatafl-13" => seed_rules(name, THIRTEEN),
        "tawlbwrdd-13" => seed_rules(name, AXES_THIRTEEN),
        // Fithcheall: the seed's 7x7 board, laid out as the Ballinderry board (Brandubh's cross).
        "fithcheall" => seed_rules(name, BALLINDERRY),
        "ard-ri" => seed_rules(
            name,
            "
            . . A A A . .
            . . . A . . .
            A . D D D . A
            A A D K D A A
            A . D D D . A
            . . . A . . .
            . . A A A . .",
        ),
        // The seed's "Irish board": the basic game with the land men (attackers) in a
        // swastika-like pinwheel, each edge's group turned a quarter from the next.
        "irish-board" => seed_rules(
            name,
            "
            . . A A A A . . . . .
            . . A . . A . . . . .
            . . . . . . . . . A A
            . . . . . D . . . . A
            . . . . D D D . . . A
            A A . D D K D D . A A
            A . . . D D D . . . .
            A . . . . D . . . . .
            A A . . . . . . . . .
            . . . . . A . . A . .
            . . . . . A A A A . .",
        ),
        _ => return None,
    })
}

/// The seed's rules (see [`hnefatafl`]) on another board.
fn seed_rules(name: &str, diagram: &str) -> Rules {
    Rules {
        name: name.into(),
        start: layout(diagram),
        ..hnefatafl()
    }
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

/// The basic game's attackers with the defenders on the central axes: the seed's "main
/// variation", and the Tawlbwrdd layout.
const AXES_ELEVEN: &str = "
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
    . . . A A A A A . . .";

/// The 13x13 attackers with the defenders on the axes, four to an arm.
const AXES_THIRTEEN: &str = "
    . . . A A A A A A A . . .
    . . . . . . A . . . . . .
    . . . . . . D . . . . . .
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    A A D D D D K D D D D A A
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    A . . . . . D . . . . . A
    . . . . . . D . . . . . .
    . . . . . . A . . . . . .
    . . . A A A A A A A . . .";

/// The 7x7 cross of the Ballinderry board, as Brandubh is usually laid out.
const BALLINDERRY: &str = "
    # . . A . . #
    . . . A . . .
    . . . D . . .
    A A D K D A A
    . . . D . . .
    . . . A . . .
    # . . A . . #";

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
        throne: true,
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
        shieldwall_flank: true,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        linnaean: false,
        speed: [None; 3],
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
        throne: true,
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
        shieldwall_flank: true,
        edge_fort: true,
        encirclement: true,
        repetition: Repetition::DefendersLose,
        linnaean: false,
        speed: [None; 3],
        start: layout(diagram),
    }
}

/// Brandubh: Copenhagen's corners and throne on the Ballinderry board, the king strong only on
/// or beside the throne (aagenielsen.dk). No encirclement and a drawn repetition, as in
/// OpenTafl's built-in Brandub (`surf:n`, no `tfr`).
fn brandubh() -> Rules {
    Rules {
        name: "brandubh".into(),
        king_strength: KingStrength::StrongAtThrone,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(BALLINDERRY),
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

/// Tawlbwrdd: edge escape, a weak king and no special squares at all (no throne, no corners:
/// `cor: cen:`, as in OpenTafl's built-in Tawlbwrdd), on the axes layout.
fn tawlbwrdd() -> Rules {
    Rules {
        name: "tawlbwrdd".into(),
        escape: Escape::Edge,
        corner_block: 0,
        throne: false,
        king_strength: KingStrength::Weak,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(AXES_ELEVEN),
        ..copenhagen("tawlbwrdd", ELEVEN)
    }
}

/// Alea Evangelii: 19x19, laid out as the seed's "great board" table (its reconstruction is
/// drawn in docs/rules/tafl.md). The king escapes to a 2x2 corner block; the blocks are hostile
/// to all and only the king may enter them; the sources name no throne rule, so the centre is an
/// ordinary square.
fn alea_evangelii() -> Rules {
    Rules {
        name: "alea-evangelii".into(),
        corner_block: 2,
        throne: false,
        shieldwall: Shieldwall::None,
        edge_fort: false,
        encirclement: false,
        repetition: Repetition::Draw,
        start: layout(
            "
            # # A . . A . . . . . . . A . . A # #
            # # . . . . . . . . . . . . . . . # #
            A . . . . A . . . . . . . A . . . . A
            . . . . . . . A . A . A . . . . . . .
            . . . . . . A . D . D . A . . . . . .
            A . A . . A . . . . . . . A . . A . A
            . . . . A . . . . D . . . . A . . . .
            . . . A . . . . D . D . . . . A . . .
            . . . . D . . D . D . D . . D . . . .
            . . . A . . D . D K D . D . . A . . .
            . . . . D . . D . D . D . . D . . . .
            . . . A . . . . D . D . . . . A . . .
            . . . . A . . . . D . . . . A . . . .
            A . A . . A . . . . . . . A . . A . A
            . . . . . . A . D . D . A . . . . . .
            . . . . . . . A . A . A . . . . . . .
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
