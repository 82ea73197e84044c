//! The `games` tool, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn games(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_games"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A command line's arguments, written as one line.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn list_names_every_game_and_variant() {
    let out = games(&["list"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("tafl         copenhagen"), "{text}");
    assert!(text.contains("fox-geese    hala-tafl"), "{text}");
    assert!(text.lines().count() >= 11, "{text}");
}

#[test]
fn playouts_report_how_games_ended() {
    let out = games(&["playout", "fox-geese", "--count", "40"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("40 games of fox-geese hala-tafl (2 seats): 0 unfinished"),
        "{text}"
    );
}

#[test]
fn a_logged_playout_replays_to_the_same_end() {
    let logged = games(
        &[
            "playout",
            "tafl",
            "--variant",
            "brandubh",
            "--seed",
            "7",
            "--log",
        ],
        "",
    );
    assert!(logged.status.success());
    let log = stdout(&logged);
    let first = log.lines().next().unwrap();
    let ending = first.split(": ").nth(1).unwrap();
    let replayed = games(
        &[
            "replay",
            "tafl",
            "--variant",
            "brandubh",
            "--seed",
            "7",
            "-",
        ],
        &log,
    );
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    let text = stdout(&replayed);
    assert!(
        text.contains(&format!("over: {ending}")),
        "{ending} / {text}"
    );
}

#[test]
fn logs_of_games_with_chance_and_secrets_replay_too() {
    for (game, seats) in [
        ("tron", "3"),
        ("driller", "2"),
        ("tower-race", "4"),
        ("hanoi", "3"),
    ] {
        let args = ["playout", game, "--seats", seats, "--seed", "11", "--log"];
        let logged = games(&args, "");
        assert!(logged.status.success(), "{game}: {}", stderr(&logged));
        let log = stdout(&logged);
        let ending = log
            .lines()
            .next()
            .unwrap()
            .split(": ")
            .nth(1)
            .unwrap()
            .to_string();
        let replay = ["replay", game, "--seats", seats, "--seed", "11", "-"];
        let replayed = games(&replay, &log);
        assert!(replayed.status.success(), "{game}: {}", stderr(&replayed));
        assert!(
            stdout(&replayed).contains(&format!("over: {ending}")),
            "{game}"
        );
    }
}

#[test]
fn a_bad_log_line_is_named_and_fails() {
    let out = games(
        &[
            "replay",
            "tafl",
            "--variant",
            "brandubh",
            "--seed",
            "1",
            "-",
        ],
        "0 d7-b7\n0 d7-c7\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "games: line 2: it is not seat 0's turn"
    );
    let out = games(
        &["replay", "tafl", "--seed", "1", "-"],
        "# comment\nzero d1-d3\n",
    );
    assert_eq!(
        stderr(&out).trim(),
        "games: line 2: 'zero' is not a seat number"
    );
}

#[test]
fn unknown_games_variants_and_seat_counts_are_refused() {
    let out = games(&["playout", "chess"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no game 'chess'"));
    let out = games(&["playout", "tafl", "--seats", "3"], "");
    assert!(stderr(&out).contains("not 3"), "{}", stderr(&out));
    let out = games(&["playout", "tafl", "--variant", "chess"], "");
    assert!(
        stderr(&out).contains("no variant 'chess'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_ai_continues_a_log_in_every_game_with_lines_that_replay() {
    for (game, seats) in [
        ("tafl", "2"),
        ("fox-geese", "2"),
        ("hanoi", "3"),
        ("tower-race", "2"),
        ("tron", "3"),
        ("driller", "2"),
    ] {
        let mut log = String::new();
        for (ply, level) in ["2", "5", "3", "5", "1", "4"].iter().enumerate() {
            let ai_seed = ply.to_string();
            let args = [
                "ai",
                game,
                "--seats",
                seats,
                "--seed",
                "5",
                "--level",
                level,
                "--nodes",
                "300",
                "--ai-seed",
                &ai_seed,
                "-",
            ];
            let out = games(&args, &log);
            assert!(out.status.success(), "{game}: {}", stderr(&out));
            let line = stdout(&out);
            assert_eq!(line.lines().count(), 1, "{game}: {line}");
            log.push_str(&line);
        }
        let replay = ["replay", game, "--seats", seats, "--seed", "5", "-"];
        let replayed = games(&replay, &log);
        assert!(replayed.status.success(), "{game}: {}", stderr(&replayed));
        assert!(stdout(&replayed).contains("6 actions"), "{game}: {log}");
    }
}

#[test]
fn selfplay_reports_how_each_level_did() {
    // Level 5 against level 1 (random moves), each side once; seeded, so always the same games.
    let out = games(
        &words("selfplay tafl --variant brandubh --levels 1,5 --count 2 --nodes 20000"),
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("2 games of tafl brandubh (2 seats), levels 1,5: 0 unfinished"),
        "{text}"
    );
    assert!(
        text.contains(
            "level 5: 2 won, 0 shared first place, 0 lost (won-shared-lost by seat: seat 0 1-0-0, seat 1 1-0-0)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "level 1: 0 won, 0 shared first place, 2 lost (won-shared-lost by seat: seat 0 0-0-1, seat 1 0-0-1)"
        ),
        "{text}"
    );
}

#[test]
fn a_logged_selfplay_game_replays_to_the_result_it_reports() {
    let out = games(
        &words("selfplay fox-geese --levels 2,1 --count 1 --seed 9 --log"),
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    let (what, ending) = header.split_once(": ").unwrap();
    assert_eq!(
        what, "# fox-geese hala-tafl seed 9, levels by seat 2,1",
        "{text}"
    );
    assert_ne!(ending, "unfinished", "{text}");
    let log: String = text
        .lines()
        .take_while(|line| !line.starts_with("1 games of"))
        .map(|line| format!("{line}\n"))
        .collect();
    let replayed = games(&["replay", "fox-geese", "--seed", "9", "-"], &log);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(
        stdout(&replayed).contains(&format!("over: {ending}")),
        "{}\n{text}",
        stdout(&replayed)
    );
}

#[test]
fn selfplay_with_more_seats_reports_who_finished_above_whom() {
    let out = games(
        &["selfplay", "tron", "--levels", "2,1,1", "--count", "3"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Seeded: level 2 wins all three games, so it finished above both others in each.
    assert!(text.contains("level 2: 3 won"), "{text}");
    for other in [1, 2] {
        let line = format!(
            "entry 0 (level 2) finished above entry {other} (level 1) in 3 games, below it in 0"
        );
        assert!(text.contains(&line), "{text}");
    }
    let between = text
        .lines()
        .find(|l| l.starts_with("entry 1 (level 1) finished above entry 2 (level 1) in "))
        .unwrap_or_else(|| panic!("{text}"));
    let counts: Vec<u64> = between
        .split(' ')
        .filter_map(|word| word.parse().ok())
        .collect();
    // "entry 1 (level 1) ... entry 2 (level 1) in A games, below it in B": the last two numbers.
    let (above, below) = (counts[counts.len() - 2], counts[counts.len() - 1]);
    assert!(above + below <= 3, "{text}");
}

#[test]
fn bad_ai_requests_are_refused() {
    let out = games(&["ai", "tafl", "--seed", "1", "--level", "6", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a level from 1 to 5"),
        "{}",
        stderr(&out)
    );
    let out = games(
        &[
            "ai",
            "tafl",
            "--variant",
            "brandubh",
            "--seed",
            "1",
            "--level",
            "3",
            "--seat",
            "1",
            "-",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).trim(), "games: seat 1 is not to act");
    let out = games(&["selfplay", "tafl", "--levels", "1,2,3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not 3"), "{}", stderr(&out));
}
