//! The preset boards: each as its source gives it, and each documented on the rules page.

use engine::tafl::{Layout, Piece, Square, Tafl, variants};

fn start(name: &str) -> Layout {
    variants::preset(name).unwrap().start
}

fn counts(name: &str) -> (u8, usize, usize) {
    let start = start(name);
    (
        start.dim(),
        start.count(Piece::Attacker),
        start.count(Piece::Defender),
    )
}

/// The layout turned by a quarter, and mirrored left to right.
fn turned(layout: &Layout) -> Layout {
    transform(layout, |f, r, d| (r, d - 1 - f))
}

fn mirrored(layout: &Layout) -> Layout {
    transform(layout, |f, r, d| (d - 1 - f, r))
}

fn transform(layout: &Layout, map: impl Fn(u8, u8, u8) -> (u8, u8)) -> Layout {
    let dim = layout.dim();
    let mut out = Layout::empty(dim);
    for (sq, piece) in layout.pieces() {
        let (f, r) = map(sq.file(dim), sq.rank(dim), dim);
        out.set(Square::at(f, r, dim), Some(piece));
    }
    out
}

#[test]
fn the_new_boards_have_the_pieces_their_sources_give() {
    assert_eq!(counts("hnefatafl-axes"), (11, 24, 12));
    assert_eq!(counts("hnefatafl-13"), (13, 32, 16));
    assert_eq!(counts("tawlbwrdd-13"), (13, 32, 16));
    assert_eq!(counts("fithcheall"), (7, 8, 4));
    assert_eq!(counts("ard-ri"), (7, 16, 8));
    assert_eq!(counts("irish-board"), (11, 24, 12));
    for name in variants::NAMES {
        let game = Tafl::preset(name).unwrap();
        assert!(!game.legal_moves().is_empty(), "{name}");
    }
}

#[test]
fn the_axes_layouts_put_every_defender_on_a_central_line() {
    for name in ["hnefatafl-axes", "tawlbwrdd", "tawlbwrdd-13"] {
        let start = start(name);
        let mid = start.dim() / 2;
        for (sq, piece) in start.pieces() {
            if piece != Piece::Attacker {
                let (f, r) = (sq.file(start.dim()), sq.rank(start.dim()));
                assert!(f == mid || r == mid, "{name}: {}", sq.name(start.dim()));
            }
        }
    }
    // The basic game's attackers stay where the seed put them.
    let attackers = |name| {
        let s = start(name);
        s.pieces()
            .filter(|&(_, p)| p == Piece::Attacker)
            .collect::<Vec<_>>()
    };
    assert_eq!(attackers("hnefatafl-axes"), attackers("hnefatafl"));
}

#[test]
fn the_irish_board_is_a_pinwheel() {
    let start = start("irish-board");
    assert_eq!(turned(&start), start, "the same after a quarter turn");
    assert_ne!(mirrored(&start), start, "but not a mirror image");
}

/// The seed's great-board table, as reconstructed in docs/rules/tafl.md: symmetric under every
/// turn and reflection, with the squares the old preset had the wrong way round.
#[test]
fn alea_evangelii_is_the_seeds_great_board() {
    let start = start("alea-evangelii");
    assert_eq!(turned(&start), start);
    assert_eq!(mirrored(&start), start);
    assert_eq!(counts("alea-evangelii"), (19, 48, 24));
    let at = |name: &str| {
        let dim = 19;
        let file = name.as_bytes()[0] - b'a';
        let rank: u8 = name[1..].parse().unwrap();
        start.get(Square::at(file, rank - 1, dim))
    };
    // Table rows 3, 4, 5, 8 and 9 from the top (ranks 16, 15, 14, 11, 10).
    for sq in ["j16", "f14", "d10", "p10"] {
        assert_eq!(at(sq), Some(Piece::Attacker), "{sq}");
    }
    for sq in ["i15", "k15", "e11", "o11"] {
        assert_eq!(at(sq), Some(Piece::Defender), "{sq}");
    }
    assert_eq!(at("j10"), Some(Piece::King));
}

/// docs/rules/tafl.md has a section for every preset, with its rules string.
#[test]
fn every_preset_is_on_the_rules_page() {
    let page = include_str!("../../docs/rules/tafl.md");
    for name in variants::NAMES {
        let heading = format!("\n### `{name}`\n");
        assert!(page.contains(&heading), "no section for {name}");
        let rules = engine::tafl::opentafl::print_rules(&variants::preset(name).unwrap());
        assert!(page.contains(&rules), "{name}: the page lacks `{rules}`");
    }
    assert!(include_str!("../../docs/rules/fox-geese.md").contains("Fox and Geese"));
}
