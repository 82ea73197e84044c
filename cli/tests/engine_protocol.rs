//! `tafl engine` speaks the OpenTafl Engine Protocol: scripted sessions as OpenTafl would run
//! them, with every move the engine sends checked against the rules.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use engine::tafl::opentafl::{parse_move, print_move, print_position, print_rules};
use engine::tafl::{Move, Tafl, variants};

/// A running `tafl engine` with its output read line by line.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tafl binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        assert_eq!(engine.next_line(), "hello");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next_line(&mut self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the engine answers within 20 s")
    }

    /// The next line that is not a `status` line.
    fn answer(&mut self) -> String {
        loop {
            let line = self.next_line();
            if !line.starts_with("status ") {
                return line;
            }
        }
    }

    /// The next answer, which must be `move <from-to>`; the move is checked legal and played.
    fn expect_move(&mut self, game: &mut Tafl) -> Move {
        let answer = self.answer();
        let text = answer
            .strip_prefix("move ")
            .unwrap_or_else(|| panic!("expected a move, got '{answer}'"));
        let mv = parse_move(text, game.dim()).unwrap().mv;
        game.play_move(mv)
            .unwrap_or_else(|e| panic!("the engine's {text} is illegal: {e}"));
        mv
    }

    /// Says goodbye and checks that the engine exits cleanly.
    fn goodbye(mut self) {
        self.send("goodbye");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no exit");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A preset's rules string, which uses OpenTafl's defaults (`surf` only when off, `ks:n`).
fn opentafl_rules(variant: &str) -> String {
    print_rules(&variants::preset(variant).unwrap())
}

fn position(game: &Tafl) -> String {
    print_position(&game.layout())
}

#[test]
fn plays_a_game_against_opentafl_with_legal_moves() {
    let mut engine = Engine::start(&["--level", "3", "--nodes", "20000"]);
    let mut game = Tafl::preset("brandubh").unwrap();
    engine.send(&format!("rules {}", opentafl_rules("brandubh")));
    engine.send("side attackers");
    engine.send("start");
    for _ in 0..6 {
        engine.send("play attackers");
        engine.send("clock 60000 60000 0 0 0");
        engine.expect_move(&mut game);
        engine.send(&format!("move {}", position(&game)));
        if game.verdict().is_some() {
            break;
        }
        // OpenTafl's side: its first legal move.
        let reply = game.legal_moves()[0];
        game.play_move(reply).unwrap();
        engine.send(&format!(
            "opponent-move {} {}",
            print_move(reply, &[], game.dim()),
            position(&game)
        ));
        if game.verdict().is_some() {
            break;
        }
    }
    engine.send("finish 0");
    engine.goodbye();
}

#[test]
fn plays_the_defenders_and_every_level() {
    for level in ["1", "2", "3", "4", "5"] {
        let mut engine = Engine::start(&["--level", level, "--nodes", "5000"]);
        let mut game = Tafl::preset("copenhagen").unwrap();
        engine.send(&format!("rules {}", opentafl_rules("copenhagen")));
        engine.send("side defenders");
        engine.send("start");
        for _ in 0..3 {
            let opening = *game.legal_moves().last().unwrap();
            game.play_move(opening).unwrap();
            engine.send(&format!(
                "opponent-move {} {}",
                print_move(opening, &[], 11),
                position(&game)
            ));
            engine.send("play defenders");
            engine.send("clock 300000 300000 30 3 3");
            engine.expect_move(&mut game);
            engine.send(&format!("move {}", position(&game)));
        }
        engine.goodbye();
    }
}

#[test]
fn takes_opentafls_position_when_they_disagree() {
    let mut engine = Engine::start(&["--level", "3", "--nodes", "5000"]);
    engine.send(&format!("rules {}", opentafl_rules("brandubh")));
    engine.send("side defenders");
    // A move the engine cannot know about: the position it names is the truth.
    let mut game = Tafl::preset("brandubh").unwrap();
    for text in ["d6-f6", "d5-e5", "a4-a6"] {
        game.play_move(parse_move(text, 7).unwrap().mv).unwrap();
    }
    engine.send(&format!("opponent-move a4-a6 {}", position(&game)));
    engine.send("play defenders");
    engine.expect_move(&mut game);
    engine.goodbye();
}

#[test]
fn analyses_a_position_with_a_legal_line() {
    let mut engine = Engine::start(&["--nodes", "200000"]);
    engine.send(&format!("rules {}", opentafl_rules("copenhagen")));
    let mut game = Tafl::preset("copenhagen").unwrap();
    for text in ["d1-d3", "e5-e2"] {
        game.play_move(parse_move(text, 11).unwrap().mv).unwrap();
    }
    engine.send(&format!("position {}", position(&game)));
    engine.send("side attackers");
    engine.send("analyze 3 2");
    let answer = engine.answer();
    let fields: Vec<&str> = answer.split(' ').collect();
    assert_eq!(fields.len(), 4, "{answer}");
    assert_eq!(&fields[..2], ["analysis", "1"], "{answer}");
    assert!(fields[3].parse::<f64>().is_ok(), "{answer}");
    for text in fields[2].split('|') {
        let mv = parse_move(text, 11).unwrap().mv;
        game.play_move(mv)
            .unwrap_or_else(|e| panic!("{text} in {answer}: {e}"));
        if game.verdict().is_some() {
            break;
        }
    }
    engine.goodbye();
}

#[test]
fn keeps_to_the_clock() {
    // Without the clock this would search a billion nodes.
    let mut engine = Engine::start(&["--level", "5", "--nodes", "1000000000"]);
    let mut game = Tafl::preset("copenhagen").unwrap();
    engine.send(&format!("rules {}", opentafl_rules("copenhagen")));
    engine.send("side attackers");
    engine.send("start");
    let start = Instant::now();
    engine.send("play attackers");
    // A clock following `play`, as the protocol has it: three seconds left, no overtime.
    engine.send("clock 3000 3000 0 0 0");
    engine.expect_move(&mut game);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );

    // In overtime (`*`): seven tenths of the 600 ms left of the period.
    engine.send(&format!("move {}", position(&game)));
    let reply = game.legal_moves()[0];
    game.play_move(reply).unwrap();
    engine.send(&format!(
        "opponent-move {} {}",
        print_move(reply, &[], 11),
        position(&game)
    ));
    let start = Instant::now();
    engine.send("clock 600* 50000 10 2 3");
    engine.send("play attackers");
    engine.expect_move(&mut game);
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    engine.goodbye();
}

#[test]
fn answers_what_it_cannot_do_with_errors() {
    let mut engine = Engine::start(&["--level", "2", "--nodes", "5000"]);
    engine.send("frobnicate now");
    assert_eq!(engine.answer(), "error 0 unknown command 'frobnicate'");
    engine.send("play attackers");
    assert!(engine.answer().starts_with("error -1 "));
    let brandubh = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    engine.send(&format!("rules dim:7 ber:c start:{brandubh}"));
    assert_eq!(
        engine.answer(),
        "error -1 rules not supported: at column 7: ber:c is not supported: berserk moves"
    );
    engine.send(&format!("rules dim:7 frob:y start:{brandubh}"));
    assert!(
        engine
            .answer()
            .starts_with("error -1 rules not supported: ")
    );
    // OpenTafl's own switches, at values that change nothing here, are accepted.
    engine.send(&format!(
        "rules dim:7 name:Brandubh_7 ks:n kj:n swf:y ber:n spd:-1 cenre:tcnkTCNK \
         cor:a1,g1,a7,g7, cen:d4, corh:tcnkTCNK surf:n start:{brandubh}"
    ));
    engine.send("play attackers");
    let mut game = Tafl::preset("brandubh").unwrap();
    engine.expect_move(&mut game);
    engine.goodbye();
}

/// OpenTafl's built-in Copenhagen, Fetlar and Brandub strings, exactly as OpenTafl writes them,
/// are games the engine plays (under the meanings tests/opentafl_strings.rs in the engine pins).
#[test]
fn plays_opentafl_builtin_strings() {
    let builtin = include_str!("../../engine/tests/data/opentafl-builtin-variants.tsv");
    for name in ["Copenhagen 11x11", "Fetlar 11x11", "Brandub 7x7"] {
        let rules = builtin
            .lines()
            .find_map(|l| l.split_once('\t').filter(|(menu, _)| menu.ends_with(name)))
            .map(|(_, rules)| rules)
            .unwrap();
        let mut game = Tafl::new(engine::tafl::opentafl::parse_rules(rules).unwrap()).unwrap();
        let mut engine = Engine::start(&["--level", "2", "--nodes", "5000"]);
        engine.send(&format!("rules {rules}"));
        engine.send("play attackers");
        engine.expect_move(&mut game);
        engine.goodbye();
    }
}

#[test]
fn the_end_of_input_ends_the_engine() {
    let mut engine = Engine::start(&[]);
    drop(engine.stdin);
    let start = Instant::now();
    while engine.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(10));
        thread::sleep(Duration::from_millis(20));
    }
}
