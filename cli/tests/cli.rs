//! Runs the built `tafl` binary as a user would and checks its output and exit codes.

use std::process::{Command, Output};

use engine::tafl::opentafl::parse_rules;
use engine::tafl::variants;

/// Runs `tafl` with `args`.
fn tafl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .expect("the tafl binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs `tafl` with `args`, expecting success, and returns its stdout.
fn succeeds(args: &[&str]) -> String {
    let output = tafl(args);
    assert!(
        output.status.success(),
        "tafl {args:?} failed: {}",
        stderr(&output)
    );
    stdout(&output)
}

/// Runs `tafl` with `args`, expecting it to fail with exit code 2, and returns its stderr.
fn fails(args: &[&str]) -> String {
    let output = tafl(args);
    assert_eq!(output.status.code(), Some(2), "tafl {args:?}");
    let message = stderr(&output);
    assert!(message.starts_with("tafl: "), "{message}");
    message
}

const COPENHAGEN_CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/copenhagen.csv"
);

#[test]
fn variants_lists_every_preset_with_its_size_and_rules_string() {
    let out = succeeds(&["variants"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), variants::NAMES.len());
    assert_eq!(lines.len(), 16);
    for (line, name) in lines.iter().zip(variants::NAMES) {
        let fields: Vec<&str> = line.splitn(3, char::is_whitespace).collect();
        assert_eq!(fields[0], name, "{line}");
        let preset = variants::preset(name).unwrap();
        let rules = line.split_once("name:").map(|(_, rest)| rest).unwrap();
        assert_eq!(parse_rules(&format!("name:{rules}")).unwrap(), preset);
        let dim = preset.dim();
        assert!(line.contains(&format!(" {dim}x{dim} ")), "{line}");
    }
}

#[test]
fn moves_lists_the_legal_moves_at_the_start() {
    assert_eq!(succeeds(&["moves", "copenhagen"]).lines().count(), 116);
    let brandubh = succeeds(&["moves", "brandubh"]);
    assert_eq!(brandubh.lines().count(), 40);
    assert!(brandubh.starts_with("d1-b1\nd1-c1\n"), "{brandubh}");
}

#[test]
fn moves_takes_a_position_and_the_side_to_move() {
    let lone_king = "/7/7/7/3K3/7/7/7/";
    let out = succeeds(&["moves", "brandubh", lone_king, "--turn", "defenders"]);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 12, "{out}");
    assert!(moves.iter().all(|m| m.starts_with("d4-")), "{out}");
    assert!(
        moves.contains(&"d4-a4") && moves.contains(&"d4-d7"),
        "{out}"
    );

    // Attackers move first in brandubh and have no pieces here: the game is over.
    let over = tafl(&["moves", "brandubh", lone_king]);
    assert!(over.status.success());
    assert_eq!(stdout(&over), "");
    assert!(
        stderr(&over).contains("over: defenders win (no_moves)"),
        "{}",
        stderr(&over)
    );
}

#[test]
fn moves_rejects_a_bad_position_with_its_column() {
    let message = fails(&["moves", "brandubh", "/3t3/3t3/3T3/ttTKTtq/3T3/3t3/3t3/"]);
    assert!(message.contains("column 20"), "{message}");
    let message = fails(&["moves", "copenhagen", "/7/7/7/3K3/7/7/7/"]);
    assert!(
        message.contains("7x7 position for 11x11 rules"),
        "{message}"
    );
}

#[test]
fn play_shows_the_board_the_moves_and_the_status() {
    let out = succeeds(&["play", "copenhagen", "d1-d3", "h6-h3"]);
    assert!(out.contains(" 3 . . . A . . . D . . .\n"), "{out}");
    assert!(out.contains("  1. d1-d3\n  2. h6-h3\n"), "{out}");
    assert!(out.ends_with("status: attackers to move\n"), "{out}");
    let record = succeeds(&["play", "copenhagen", "d1-d3", "h6-h3", "--record"]);
    assert!(record.starts_with("[variant:copenhagen]\n"), "{record}");
    assert!(
        record.ends_with("[result:ongoing]\n1. d1-d3 h6-h3\n"),
        "{record}"
    );
}

/// OpenTafl's own Copenhagen string carries `tfr:w`: the side that completes a threefold
/// repetition loses. Here the defenders' eighth-ply shuffle brings the start back a third time.
#[test]
fn play_reads_opentafls_copenhagen_repetition_rule() {
    let copenhagen = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
        start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let out = succeeds(&[
        "play", copenhagen, "a4-b4", "f4-e4", "b4-a4", "e4-f4", "a4-b4", "f4-e4", "b4-a4", "e4-f4",
    ]);
    assert!(
        out.ends_with("status: over, attackers win (repetition)\n"),
        "{out}"
    );
}

#[test]
fn play_reports_a_finished_game() {
    // Brandubh: the king leaves the throne by d5, walks up the e-file and escapes at g7.
    let out = succeeds(&[
        "play", "brandubh", "a4-a2", "d5-c5", "g4-g2", "d4-d5", "d6-b6", "d5-e5", "b6-b7", "e5-e7",
        "b7-b6", "e7-g7",
    ]);
    assert!(
        out.ends_with("status: over, defenders win (king_escaped)\n"),
        "{out}"
    );
}

#[test]
fn play_rejects_an_illegal_move_and_names_it() {
    let message = fails(&["play", "copenhagen", "d1-d3", "d3-d1"]);
    assert!(message.contains("move 2 (d3-d1): "), "{message}");
    assert!(message.contains("defenders"), "{message}");
    let message = fails(&["play", "brandubh", "d7-z7"]);
    assert!(message.contains("move 1 (d7-z7): at column 4"), "{message}");
}

#[test]
fn play_checks_the_captures_a_move_claims() {
    let line = ["play", "copenhagen", "d1-d3", "h6-h3", "k7-j7", "g5-g2"];
    let right = succeeds(&[&line[..], &["h1-h2xg2"]].concat());
    assert!(right.contains("  5. h1-h2xg2\n"), "{right}");
    let unclaimed = succeeds(&[&line[..], &["h1-h2"]].concat());
    assert!(unclaimed.contains("  5. h1-h2xg2\n"), "{unclaimed}");
    let message = fails(&[&line[..], &["h1-h2xg3"]].concat());
    assert!(
        message.contains("move 5 (h1-h2xg3): the engine captures g2, not g3"),
        "{message}"
    );
}

#[test]
fn perft_counts_each_depth() {
    let out = succeeds(&["perft", "brandubh", "3"]);
    let counts: Vec<&str> = out
        .lines()
        .map(|line| line.split("  ").next().unwrap())
        .collect();
    assert_eq!(
        counts,
        ["perft(1) = 40", "perft(2) = 960", "perft(3) = 39512"],
        "{out}"
    );
}

#[test]
fn perft_divide_splits_the_count_by_root_move() {
    let out = succeeds(&["perft", "brandubh", "3", "--divide"]);
    let divide: Vec<&str> = out.lines().skip(3).collect();
    assert_eq!(divide.len(), 41, "{out}");
    let sum: u64 = divide[..40]
        .iter()
        .map(|line| line.split_once("  ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 39512);
    assert_eq!(divide[40], "total  39512");
}

#[test]
fn replay_classifies_the_copenhagen_collection() {
    // The same counts as engine/tests/copenhagen_replay.rs, which explains them.
    let out = succeeds(&["replay", "copenhagen", COPENHAGEN_CSV]);
    assert_eq!(
        out,
        "1752 games\n   371  agrees\n  1375  decided off the board\n     6  plays on after repetition\n"
    );
    let verbose = succeeds(&["replay", "copenhagen", COPENHAGEN_CSV, "--verbose"]);
    let listed: Vec<&str> = verbose.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(listed.len(), 6, "{verbose}");
    assert!(
        listed[0].starts_with("line 443: plays on after repetition: "),
        "{verbose}"
    );
}

#[test]
fn replay_reports_an_unreadable_file() {
    let message = fails(&["replay", "copenhagen", "/no/such/file.csv"]);
    assert!(
        message.contains("cannot read /no/such/file.csv"),
        "{message}"
    );
}

#[test]
fn bad_rules_are_reported_clearly() {
    let message = fails(&["moves", "chess"]);
    assert!(message.contains("unknown variant 'chess'"), "{message}");
    for name in variants::NAMES {
        assert!(message.contains(name), "{message}");
    }
    let rules = "dim:11 esc:q start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let message = fails(&["perft", rules, "1"]);
    assert!(message.contains("column 12"), "{message}");
}

#[test]
fn a_rules_string_works_like_its_preset() {
    let brandubh = "name:brandubh dim:7 ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    assert_eq!(
        succeeds(&["moves", brandubh]),
        succeeds(&["moves", "brandubh"])
    );
}

/// `tafl puzzles` on a few games: the same bytes with one thread or two, each line a proven
/// puzzle from one of the named sources.
#[test]
fn puzzles_are_the_same_on_any_number_of_threads() {
    let args = ["puzzles", "--games", COPENHAGEN_CSV, "--max-games", "8"];
    let one = succeeds(&[&args[..], &["--self-play", "1", "--threads", "1"]].concat());
    let two = succeeds(&[&args[..], &["--self-play", "1", "--threads", "2"]].concat());
    assert_eq!(one, two);
    let puzzles: Vec<engine::tafl::puzzle::Puzzle> = one
        .lines()
        .map(|line| serde_json::from_str(line).expect("a puzzle a line"))
        .collect();
    assert!(puzzles.len() >= 3, "{one}");
    for puzzle in &puzzles {
        puzzle.check(10_000_000).expect("proven again");
    }
    let variants: std::collections::BTreeSet<&str> =
        puzzles.iter().map(|p| p.variant.as_str()).collect();
    assert!(variants.len() >= 3, "{variants:?}");
}

#[test]
fn puzzles_report_an_unreadable_collection() {
    let message = fails(&[
        "puzzles",
        "--games",
        "/no/such/games.csv",
        "--self-play",
        "0",
    ]);
    assert!(
        message.contains("cannot read /no/such/games.csv"),
        "{message}"
    );
}
