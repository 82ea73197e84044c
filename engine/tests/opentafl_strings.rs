//! OpenTafl rules strings mean here what they mean in OpenTafl: its built-in variants, its
//! repetition and king-strength letters, and the exit fort it recognises beside a corner.

use engine::tafl::opentafl::{parse_move, parse_rules};
use engine::tafl::{KingStrength, Layout, Reason, Repetition, Side, Tafl};

const BUILTIN: &str = include_str!("data/opentafl-builtin-variants.tsv");

fn builtin(name: &str) -> &'static str {
    BUILTIN
        .lines()
        .find_map(|line| {
            let (menu, rules) = line.split_once('\t')?;
            menu.ends_with(name).then_some(rules)
        })
        .unwrap_or_else(|| panic!("no built-in variant {name}"))
}

fn play_all(game: &mut Tafl, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = parse_move(text, game.dim()).unwrap().mv;
        game.play_move(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// Every built-in variant is read, except those needing a piece or a square we do not have, which
/// are refused with the switch or letter named and the words "not supported".
#[test]
fn every_builtin_variant_is_read_or_refused_by_name() {
    let mut read = Vec::new();
    for line in BUILTIN.lines() {
        let (menu, rules) = line.split_once('\t').unwrap();
        match parse_rules(rules) {
            Ok(parsed) => {
                Tafl::new(parsed).unwrap_or_else(|e| panic!("{menu}: {e}"));
                read.push(menu.split(' ').nth(1).unwrap());
            }
            Err(e) => {
                assert!(e.message.contains("not supported"), "{menu}: {e}");
                let named = ["ber:c", "kj:r", "'c'", "'N'", "afor:"];
                assert!(named.iter().any(|n| e.message.contains(n)), "{menu}: {e}");
            }
        }
    }
    assert_eq!(
        read,
        [
            "Sea",
            "Fetlar",
            "Copenhagen",
            "Copenhagen",
            "Brandub",
            "Tawlbwrdd",
            "Tablut",
            "Magpie",
        ]
    );
}

#[test]
fn builtin_letters_take_opentafl_meanings() {
    let copenhagen = parse_rules(builtin("Copenhagen 11x11")).unwrap();
    assert_eq!(copenhagen.repetition, Repetition::MoverLoses);
    assert!(copenhagen.shieldwall_flank);
    let relaxed = parse_rules(builtin("(relaxed shieldwall variant)")).unwrap();
    assert!(!relaxed.shieldwall_flank);
    let magpie = parse_rules(builtin("Magpie 7x7")).unwrap();
    assert_eq!(magpie.king_strength, KingStrength::Middleweight);
    assert_eq!(magpie.speed, [None, None, Some(1)]);
    let tablut = parse_rules(builtin("Tablut 9x9")).unwrap();
    assert_eq!(tablut.king_strength, KingStrength::StrongAtThrone);
    assert_eq!(tablut.corner_block, 0, "cor: lists no corner");
    let tawlbwrdd = parse_rules(builtin("Tawlbwrdd 11x11")).unwrap();
    assert!(!tawlbwrdd.throne, "cen: lists no centre");
}

/// OpenTafl's ThreefoldVictoryTest: defenders first, both sides shuffle a man out and back;
/// move 8 (the attackers') brings the start position a third time. Under `tfr:w` the side that
/// must answer the repetition (the defenders) wins; under `tfr:l` the side that made it does.
#[test]
fn threefold_repetition_follows_opentafl() {
    let start = "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let shuffle = "f4-e4 f2-e2 e4-f4 e2-f2 f4-e4 f2-e2 e4-f4 e2-f2";
    for (tfr, winner) in [("w", Side::Defenders), ("l", Side::Attackers)] {
        let rules = parse_rules(&format!("dim:11 atkf:n tfr:{tfr} {start}")).unwrap();
        let mut game = Tafl::new(rules).unwrap();
        play_all(&mut game, shuffle);
        let verdict = game.verdict().expect("the third occurrence ends the game");
        assert_eq!(
            (verdict.winner, verdict.reason),
            (Some(winner), Reason::Repetition),
            "tfr:{tfr}"
        );
    }
}

/// The exit fort of the issue: the king's area touches the empty corner a1, beyond which an
/// attacker stands on c1. The corner is no way in for an attacker, so the fort is made.
#[test]
fn an_exit_fort_beside_a_corner_is_recognised_at_once() {
    let rules = parse_rules(
        "dim:9 sw:s efe:y tfr:w atkf:n \
         start:/2tTTTt2/K1Ttt1t2/1T3t1tT/T6tT/8t/8t/7t1/1T5t1/2TT5/",
    )
    .unwrap();
    let mut game = Tafl::new(rules).unwrap();
    play_all(&mut game, "c9-c8 f3-f2 c2-b2");
    let verdict = game.verdict().expect("the fort ends the game");
    assert_eq!(
        (verdict.winner, verdict.reason),
        (Some(Side::Defenders), Reason::ExitFort)
    );
}

/// Magpie's `spd`: the king moves one square at a time, the men as far as they like.
#[test]
fn a_speed_limit_bounds_the_moves() {
    let magpie = parse_rules(builtin("Magpie 7x7")).unwrap();
    let start =
        Layout::from_diagram(". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . K . . .\n. . . . . . .\n. . . . . . .\n. . . . . A .")
            .unwrap();
    let game = Tafl::from_layout(magpie.clone(), &start, Side::Defenders).unwrap();
    let king_moves: Vec<String> = game.legal_moves().iter().map(|m| m.to.name(7)).collect();
    assert_eq!(king_moves.len(), 4, "{king_moves:?}");
    let mut game = game;
    let far = parse_move("d4-d6", 7).unwrap().mv;
    assert_eq!(
        game.play_move(far).unwrap_err().to_string(),
        "the king moves at most 1 squares"
    );
    let attackers = Tafl::from_layout(magpie, &start, Side::Attackers).unwrap();
    // f1 to b1 (a1 is a corner) and up the f-file: the men have no limit.
    assert_eq!(attackers.legal_moves().len(), 10);
    // The string prints back as OpenTafl writes it.
    let printed = engine::tafl::opentafl::print_rules(&parse_rules(builtin("Magpie 7x7")).unwrap());
    assert!(
        printed.contains(" spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, "),
        "{printed}"
    );
}

#[test]
fn a_man_may_not_start_where_he_may_not_stop() {
    let e = parse_rules("dim:7 start:/t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap_err();
    assert!(e.message.contains("a1"), "{e}");
    let e = parse_rules("dim:7 start:/3t3/3t3/3T3/ttTTKtt/3T3/3t3/3t3/").unwrap_err();
    assert!(e.message.contains("d4"), "{e}");
    // Where every piece may stop on the corners (cors:tTK), a man may start there.
    parse_rules("dim:7 cors:tTK start:/t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
}

#[test]
fn unsupported_switches_are_named() {
    let brandubh = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for (switch, named) in [
        ("ber:c", "ber:c"),
        ("kj:r", "kj:r"),
        ("ka:h", "ka:h"),
        ("afor:a4,", "afor:a4,"),
        ("cor:a1,b1,", "cor:a1,b1,"),
        ("cen:c3,", "cen:c3,"),
        ("corre:t", "corre:t"),
    ] {
        let e = parse_rules(&format!("dim:7 {switch} {brandubh}")).unwrap_err();
        assert!(e.message.contains(named), "{switch}: {e}");
        assert!(e.message.contains("not supported"), "{switch}: {e}");
    }
    let e = parse_rules("dim:7 start:/3t3/3c3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap_err();
    assert!(
        e.message.contains("'c'") && e.message.contains("not supported"),
        "{e}"
    );
}

/// Through the game catalog, a tafl variant is a preset's name or any rules string the engine
/// accepts (a custom variant, for casual matches); a string it refuses says which switch.
#[test]
fn the_catalog_takes_a_custom_rules_string_as_a_variant() {
    use engine::catalog::Catalog;
    let custom = "dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let rules = <Tafl as Catalog>::config(custom, 2).unwrap();
    assert_eq!(rules.start, parse_rules(custom).unwrap().start);
    assert!(<Tafl as Catalog>::config(custom, 3).is_err());
    let refused =
        <Tafl as Catalog>::config("dim:7 nj:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", 2)
            .unwrap_err()
            .to_string();
    assert!(refused.contains("nj"), "{refused}");
    assert!(<Tafl as Catalog>::config("no-such-preset", 2).is_err());
}
