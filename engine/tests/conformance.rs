//! Runs the tafl conformance suite (tests/conformance/*.txt; the format is in its README): every
//! case's moves must be legal, the last must capture exactly the men listed, and the game must
//! then stand as the case says.

use std::fs;
use std::path::Path;

use engine::tafl::Tafl;
use engine::tafl::opentafl::{parse_move, parse_rules};

/// What a case expects, or why it failed.
fn run(rules: &str, moves: &str, captures: &str, status: &str) -> Result<(), String> {
    let rules = parse_rules(rules).map_err(|e| format!("rules: {e}"))?;
    let mut game = Tafl::new(rules).map_err(|e| format!("rules: {e}"))?;
    let dim = game.dim();
    let mut last = None;
    for text in moves.split_whitespace() {
        let mv = parse_move(text, dim)
            .map_err(|e| format!("{text}: {e}"))?
            .mv;
        last = Some(game.play_move(mv).map_err(|e| format!("{text}: {e}"))?);
    }
    let last = last.ok_or("no moves")?;
    let mut taken: Vec<String> = last.captured.iter().map(|sq| sq.name(dim)).collect();
    taken.sort();
    let mut expected: Vec<String> = match captures {
        "-" => Vec::new(),
        list => list.split('/').map(str::to_string).collect(),
    };
    expected.sort();
    if taken != expected {
        return Err(format!("captured {taken:?}, expected {expected:?}"));
    }
    let actual = match game.verdict() {
        None => "ongoing".to_string(),
        Some(v) => match v.winner {
            Some(side) => format!("{side} {}", v.reason.code()),
            None => format!("draw {}", v.reason.code()),
        },
    };
    if actual != status {
        return Err(format!("status {actual}, expected {status}"));
    }
    Ok(())
}

#[test]
fn every_conformance_case_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let place = format!("{}:{}", path.file_name().unwrap().to_string_lossy(), n + 1);
            let [name, rules, moves, captures, status] = fields[..] else {
                failures.push(format!("{place}: not five fields"));
                continue;
            };
            cases += 1;
            if let Err(why) = run(rules, moves, captures, status) {
                failures.push(format!("{place} {name}: {why}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases >= 80, "only {cases} cases");
}
