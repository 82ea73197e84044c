//! Replays all 1,752 recorded Copenhagen games (tests/data/copenhagen.csv) through the engine.
//!
//! Every recorded move must be legal and capture exactly the recorded men. Games are then
//! classified; the counts are asserted exactly, so any change in the engine's rules shows here.
//! The only records that contradict the published rules are six games that play on after the
//! defenders repeat a position a third time (Copenhagen rule 9 makes that a loss for them).

use std::collections::BTreeMap;

use engine::tafl::corpus::{Agreement, Summary, replay_line};
use engine::tafl::variants;

const DATA: &str = include_str!("data/copenhagen.csv");

#[test]
fn every_recorded_copenhagen_game_agrees_with_the_rules_or_is_classified() {
    let rules = variants::preset("copenhagen").unwrap();
    let mut summary = Summary::default();
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    for (n, line) in DATA.lines().enumerate() {
        let replay = replay_line(&rules, line);
        assert!(
            !matches!(
                replay.agreement,
                Agreement::IllegalMove
                    | Agreement::DifferentCaptures
                    | Agreement::DifferentResult
                    | Agreement::Unreadable
            ),
            "line {}: {}: {}",
            n + 1,
            replay.agreement,
            replay.detail
        );
        if replay.agreement == Agreement::Agrees {
            *endings.entry(replay.detail.clone()).or_default() += 1;
        }
        summary.add(&replay);
    }
    assert_eq!(summary.games, 1752);
    let classes: Vec<(String, usize)> = summary
        .classes
        .iter()
        .map(|(class, n)| (class.to_string(), *n))
        .collect();
    assert_eq!(
        classes,
        vec![
            ("agrees".to_string(), 371),
            ("decided off the board".to_string(), 1375),
            ("plays on after repetition".to_string(), 6),
        ],
        "{summary}"
    );
    // The games the rules decide, by how they end: every ending rule is exercised by real play.
    let endings: Vec<(&str, usize)> = endings.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        endings,
        vec![
            ("encirclement", 24),
            ("exit_fort", 48),
            ("king_captured", 45),
            ("king_escaped", 234),
            ("no_moves", 20),
        ]
    );
}

#[test]
fn a_game_that_plays_on_after_a_defender_repetition_is_reported_with_the_move() {
    let rules = variants::preset("copenhagen").unwrap();
    let line = DATA.lines().nth(442).unwrap();
    let replay = replay_line(&rules, line);
    assert_eq!(replay.agreement, Agreement::PlaysOnAfter("repetition"));
    assert!(
        replay.detail.contains("before move 23"),
        "{}",
        replay.detail
    );
}

#[test]
fn a_wrong_capture_in_a_record_is_caught() {
    let rules = variants::preset("copenhagen").unwrap();
    // Move 5 (h1-h2) captures g2 in the real game; claim it took nothing.
    let line = "d1-d3 h6-h3 k7-j7 g5-g2 h1-h2 g6-g2,0,0,Ongoing";
    let replay = replay_line(&rules, line);
    assert_eq!(
        replay.agreement,
        Agreement::DifferentCaptures,
        "{}",
        replay.detail
    );
    assert!(replay.detail.contains("move 5"), "{}", replay.detail);
    let illegal = replay_line(&rules, "d1-d3 d3-d1,0,0,Ongoing");
    assert_eq!(illegal.agreement, Agreement::IllegalMove);
}
