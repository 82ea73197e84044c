//! `tafl engine`: the tafl AI behind the OpenTafl Engine Protocol (OTEP), so that OpenTafl and
//! other tafl software can run it as an external engine.
//!
//! The protocol is line-based text on stdin/stdout, one command per line, unacknowledged. The
//! engine says `hello` when it starts, then answers as follows (OpenTafl's commands, as its
//! `opentafl-engine-protocol.txt` describes them):
//!
//! | received | what the engine does |
//! |---|---|
//! | `hello` | nothing (OpenTafl's answer to the engine's `hello`) |
//! | `rules <rules string>` | sets up the rules' start position, the side to move being the one that moves first; a rules string it cannot play is answered `error -1 <reason>` |
//! | `start` | nothing: the game begins |
//! | `position <position record>` | sets up that position (for analysis); the side to move stays as it was until `side` says otherwise |
//! | `side attackers\|defenders` | the side the engine plays; after a `position`, also the side to move |
//! | `clock <a-ms>[*] <d-ms>[*] <overtime-s> <a-overtimes> <d-overtimes>` | the time left (`*`: in an overtime period); a search in progress adopts the new limit at once |
//! | `play attackers\|defenders` | searches for that side (which becomes the side to move) and answers `status <search summary>` then `move <from-to>` |
//! | `move <position record>` | OpenTafl accepted the engine's move; the engine checks that it agrees on the position and takes OpenTafl's if not |
//! | `opponent-move <moves> <position record>` | plays the moves (`\|`-separated; piece letters, captures and `+`/`-` marks are accepted and ignored) and takes the position record as the truth if they do not lead to it |
//! | `error <code> [message]` | OpenTafl refused the engine's move; the `opponent-move` and `play` that follow set things right, so the engine only reports it on stderr |
//! | `analyze <number> <seconds>` | searches the current position at full strength for up to `seconds` and answers `analysis 1 <move>\|<move>... <evaluation>`: one line of play (the protocol asks for at least one) with the evaluation of its first move |
//! | `finish <code>` | stops thinking; the next game starts with `rules` |
//! | `goodbye` | stops and exits |
//! | anything else | `error 0 unknown command '<word>'` (a non-critical error: OpenTafl shows it and the game goes on); a known command with bad arguments gets `error 0 <reason>` too, or `error -1` when the engine cannot go on without it |
//!
//! Moves are sent in simple notation (`a4-a1`), the protocol's default. Evaluations follow
//! OpenTafl's convention: positive is good for the attackers; the unit is one defending man, and
//! a forced win shows as 10000 less a hundredth per ply (`9999.97`: the attackers win in three).
//!
//! Rules strings are read with [`engine::tafl::opentafl::parse_rules`], which gives every
//! OpenTafl switch and letter OpenTafl's meaning, reads the switches for pieces and moves the
//! engine has not got when they change nothing, and refuses them, naming the switch, when they
//! would.
//!
//! Time: `clock` messages are turned into a time limit per move, counted from the `play`
//! command (when OpenTafl starts the clock): a thirtieth of the main time left, plus seven tenths
//! of an overtime period when overtimes remain; in overtime, seven tenths of what is left of the
//! period. Without a clock (or with `-1`) only the node limit (`--nodes`) and the level bound the
//! search.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use engine::MatchRng;
use engine::ai::{Ai, Budget, Level};
use engine::tafl::opentafl::{parse_move, parse_position, parse_rules, print_move};
use engine::tafl::search::{MATE, MAX_DEPTH, SearchParams, SearchReport, is_decisive};
use engine::tafl::{Layout, Rules, Side, Tafl, seat_of};

/// How `tafl engine` plays.
pub struct Options {
    pub level: Level,
    /// At most this many nodes per search.
    pub max_nodes: u64,
}

/// What the main loop waits for: a line from OpenTafl, the end of input, or a finished search.
enum Event {
    Line(String),
    Closed,
    Searched { id: u64, report: SearchReport },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Task {
    Play,
    Analyze,
}

/// A search running on its own thread.
struct Running {
    id: u64,
    task: Task,
    stop: Arc<AtomicBool>,
    /// When to stop, in milliseconds after `epoch` (`u64::MAX`: no time limit).
    deadline: Arc<AtomicU64>,
    /// When the search was asked for: the clock counts from here.
    asked: Instant,
    side: Side,
}

/// The last `clock` message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Clock {
    /// Milliseconds left, and whether that is what is left of an overtime period.
    attackers: (i64, bool),
    defenders: (i64, bool),
    overtime_ms: i64,
    attacker_overtimes: i64,
    defender_overtimes: i64,
}

impl Clock {
    fn parse(args: &[&str]) -> Result<Clock, String> {
        let number = |i: usize| -> Result<i64, String> {
            let text = args.get(i).ok_or("clock needs five numbers")?;
            text.trim_end_matches('*')
                .parse()
                .map_err(|_| format!("clock: '{text}' is not a number"))
        };
        let side = |i: usize| -> Result<(i64, bool), String> {
            Ok((number(i)?, args.get(i).is_some_and(|t| t.ends_with('*'))))
        };
        Ok(Clock {
            attackers: side(0)?,
            defenders: side(1)?,
            overtime_ms: number(2).unwrap_or(0).saturating_mul(1000),
            attacker_overtimes: number(3).unwrap_or(0),
            defender_overtimes: number(4).unwrap_or(0),
        })
    }

    /// How long `side` may think about one move, or `None` when it is not timed.
    fn think_time(&self, side: Side) -> Option<Duration> {
        let ((left, in_overtime), overtimes) = match side {
            Side::Attackers => (self.attackers, self.attacker_overtimes),
            Side::Defenders => (self.defenders, self.defender_overtimes),
        };
        if left < 0 {
            return None;
        }
        let period = self.overtime_ms.max(0);
        let ms = if in_overtime {
            left * 7 / 10
        } else if overtimes > 0 && period > 0 {
            left / 30 + period * 7 / 10
        } else {
            left / 30
        };
        // A little for the pipes and the process; never nothing.
        Some(Duration::from_millis((ms - 50).max(20) as u64))
    }
}

struct Engine<W: Write> {
    out: W,
    options: Options,
    events: Sender<Event>,
    epoch: Instant,
    rules: Option<Rules>,
    game: Option<Tafl>,
    /// The side the engine plays, once told.
    side: Option<Side>,
    /// The position came from a `position` command, so `side` also names the side to move.
    analysing: bool,
    clock: Option<Clock>,
    running: Option<Running>,
    next_id: u64,
    seed: u64,
}

/// Speaks the protocol on stdin and stdout until `goodbye` or the end of input.
pub fn run(options: Options) -> io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else {
                break;
            };
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Closed);
    });
    let mut engine = Engine {
        out: io::stdout().lock(),
        options,
        events,
        epoch: Instant::now(),
        rules: None,
        game: None,
        side: None,
        analysing: false,
        clock: None,
        running: None,
        next_id: 0,
        seed: 0,
    };
    engine.serve(inbox)
}

impl<W: Write> Engine<W> {
    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn serve(&mut self, inbox: Receiver<Event>) -> io::Result<()> {
        self.send("hello")?;
        while let Ok(event) = inbox.recv() {
            match event {
                Event::Line(line) => {
                    if !self.command(line.trim())? {
                        break;
                    }
                }
                Event::Closed => break,
                Event::Searched { id, report } => self.searched(id, report)?,
            }
        }
        self.cancel();
        Ok(())
    }

    /// Handles one command; false to stop serving.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(true);
        };
        let args: Vec<&str> = words.collect();
        let rest = line[word.len()..].trim();
        match word {
            "hello" | "start" => {}
            "rules" => {
                self.cancel();
                match parse_rules(rest) {
                    Ok(rules) => self.new_game(rules)?,
                    Err(reason) => {
                        self.rules = None;
                        self.game = None;
                        self.send(&format!("error -1 rules not supported: {reason}"))?;
                    }
                }
            }
            "position" => {
                self.cancel();
                self.set_position(rest)?;
            }
            "side" => match parse_side(&args) {
                Some(side) => {
                    self.side = Some(side);
                    if self.analysing {
                        self.set_turn(side)?;
                    }
                }
                None => self.send("error 0 side takes attackers or defenders")?,
            },
            "clock" => match Clock::parse(&args) {
                Ok(clock) => {
                    self.clock = Some(clock);
                    if let Some(running) = &self.running
                        && running.task == Task::Play
                    {
                        let deadline = self.deadline(running.asked, running.side);
                        running.deadline.store(deadline, Ordering::Relaxed);
                    }
                }
                Err(reason) => self.send(&format!("error 0 {reason}"))?,
            },
            "play" => {
                self.cancel();
                self.analysing = false;
                match parse_side(&args) {
                    Some(side) => {
                        self.side = Some(side);
                        self.set_turn(side)?;
                        self.start_search(Task::Play, side, None)?;
                    }
                    None => self.send("error 0 play takes attackers or defenders")?,
                }
            }
            "analyze" => {
                self.cancel();
                let seconds = args.get(1).and_then(|s| s.parse::<f64>().ok());
                match (args.first().and_then(|n| n.parse::<u32>().ok()), seconds) {
                    (Some(_), Some(seconds)) if seconds >= 0.0 => {
                        let side = self.game.as_ref().map_or(Side::Attackers, Tafl::turn);
                        let limit = Duration::from_secs_f64(seconds.min(1e6));
                        self.start_search(Task::Analyze, side, Some(limit))?;
                    }
                    _ => self.send("error 0 analyze takes a number of moves and seconds")?,
                }
            }
            "move" => self.confirmed(rest)?,
            "opponent-move" => {
                self.cancel();
                self.opponent_move(&args)?;
            }
            "error" => eprintln!("tafl engine: OpenTafl refused the move: {rest}"),
            "finish" => {
                self.cancel();
                self.clock = None;
                self.analysing = false;
            }
            "goodbye" => return Ok(false),
            other => self.send(&format!("error 0 unknown command '{other}'"))?,
        }
        Ok(true)
    }

    /// Abandons the running search, if any; its result will be ignored.
    fn cancel(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    fn new_game(&mut self, rules: Rules) -> io::Result<()> {
        match Tafl::new(rules.clone()) {
            Ok(game) => {
                self.rules = Some(rules);
                self.game = Some(game);
                self.analysing = false;
                Ok(())
            }
            Err(e) => self.send(&format!("error -1 rules not supported: {e}")),
        }
    }

    /// Sets up `layout` under the current rules with `turn` to move.
    fn set_up(&mut self, layout: &Layout, turn: Side) -> Result<(), String> {
        let rules = self.rules.clone().ok_or("no rules yet")?;
        let game = Tafl::from_layout(rules, layout, turn).map_err(|e| e.to_string())?;
        self.game = Some(game);
        Ok(())
    }

    fn set_position(&mut self, text: &str) -> io::Result<()> {
        let turn = self.game.as_ref().map_or(Side::Attackers, Tafl::turn);
        let result = parse_position(text)
            .map_err(|e| format!("bad position {e}"))
            .and_then(|layout| self.set_up(&layout, turn));
        match result {
            Ok(()) => {
                self.analysing = true;
                Ok(())
            }
            Err(reason) => self.send(&format!("error 0 {reason}")),
        }
    }

    /// Makes `side` the side to move (a fresh game from the current position if it was not).
    fn set_turn(&mut self, side: Side) -> io::Result<()> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        if game.turn() == side && game.verdict().is_none() {
            return Ok(());
        }
        let layout = game.layout();
        if let Err(reason) = self.set_up(&layout, side) {
            self.send(&format!("error 0 {reason}"))?;
        }
        Ok(())
    }

    /// The deadline for a search asked for at `asked` by `side`, in ms after `epoch`.
    fn deadline(&self, asked: Instant, side: Side) -> u64 {
        match self.clock.and_then(|c| c.think_time(side)) {
            Some(time) => (asked + time - self.epoch).as_millis() as u64,
            None => u64::MAX,
        }
    }

    fn start_search(&mut self, task: Task, side: Side, limit: Option<Duration>) -> io::Result<()> {
        let Some(game) = self.game.clone() else {
            let severity = if task == Task::Play { -1 } else { 0 };
            return self.send(&format!("error {severity} no rules yet"));
        };
        if game.verdict().is_some() {
            return self.send("error 0 the game is over");
        }
        let asked = Instant::now();
        let deadline = match limit {
            Some(limit) => (asked + limit - self.epoch).as_millis() as u64,
            None => self.deadline(asked, side),
        };
        let running = Running {
            id: self.next_id,
            task,
            stop: Arc::new(AtomicBool::new(false)),
            deadline: Arc::new(AtomicU64::new(deadline)),
            asked,
            side,
        };
        self.next_id += 1;
        self.seed += 1;
        let (id, stop, deadline) = (
            running.id,
            Arc::clone(&running.stop),
            Arc::clone(&running.deadline),
        );
        let (epoch, events, level, max_nodes, seed) = (
            self.epoch,
            self.events.clone(),
            self.options.level,
            self.options.max_nodes,
            self.seed,
        );
        self.running = Some(running);
        thread::spawn(move || {
            let stop = || {
                stop.load(Ordering::Relaxed)
                    || epoch.elapsed().as_millis() as u64 >= deadline.load(Ordering::Relaxed)
            };
            let budget = Budget {
                max_nodes,
                stop: &stop,
            };
            let mut rng = MatchRng::from_seed(seed);
            let report = match (task, level.get()) {
                // Level 1 does not search: it plays a random move, or a win on the spot.
                (Task::Play, 1) => {
                    let best = game.choose(seat_of(game.turn()), level, &budget, &mut rng);
                    SearchReport {
                        best,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        pv: best.into_iter().collect(),
                    }
                }
                (Task::Play, _) => {
                    game.search_info(&SearchParams::for_level(level), &budget, &mut rng)
                }
                // Full strength: bounded only by the time and `--nodes`, not by level 5's cap.
                (Task::Analyze, _) => {
                    game.search_info(&SearchParams::new(MAX_DEPTH, u64::MAX), &budget, &mut rng)
                }
            };
            let _ = events.send(Event::Searched { id, report });
        });
        Ok(())
    }

    fn searched(&mut self, id: u64, report: SearchReport) -> io::Result<()> {
        let Some(running) = self.running.take_if(|r| r.id == id) else {
            // A search that was called off.
            return Ok(());
        };
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        let dim = game.dim();
        let line: Vec<String> = report
            .pv
            .iter()
            .map(|&mv| print_move(mv, &[], dim))
            .collect();
        let evaluation = evaluation(report.score, game.turn());
        match running.task {
            Task::Analyze => {
                let Some(best) = report.best else {
                    return self.send("error 0 no legal move");
                };
                let line = if line.is_empty() {
                    print_move(best, &[], dim)
                } else {
                    line.join("|")
                };
                self.send(&format!("analysis 1 {line} {evaluation}"))
            }
            Task::Play => {
                let Some(best) = report.best else {
                    return self.send("error 0 no legal move");
                };
                if game.play_move(best).is_err() {
                    return self.send("error -1 the engine chose an illegal move");
                }
                let seconds = running.asked.elapsed().as_secs_f64();
                let status = format!(
                    "status depth {} nodes {} time {seconds:.2}s eval {evaluation} line {}",
                    report.depth,
                    report.nodes,
                    line.join(" ")
                );
                self.send(&status)?;
                self.send(&format!("move {}", print_move(best, &[], dim)))
            }
        }
    }

    /// OpenTafl's `move <position>` after accepting our move.
    fn confirmed(&mut self, text: &str) -> io::Result<()> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        let Ok(layout) = parse_position(text) else {
            return self.send(&format!("error 0 bad position '{text}'"));
        };
        if layout != game.layout() {
            let turn = game.turn();
            if let Err(reason) = self.set_up(&layout, turn) {
                self.send(&format!("error 0 {reason}"))?;
            }
        }
        Ok(())
    }

    fn opponent_move(&mut self, args: &[&str]) -> io::Result<()> {
        let Some(game) = self.game.as_mut() else {
            return self.send("error 0 no rules yet");
        };
        self.analysing = false;
        let dim = game.dim();
        let moves = args.first().copied().unwrap_or("");
        let mut agreed = true;
        for text in moves.split('|').filter(|t| !t.is_empty()) {
            let played = parse_move(simple_move(text), dim)
                .is_ok_and(|written| game.play_move(written.mv).is_ok());
            if !played {
                agreed = false;
                break;
            }
        }
        let Some(position) = args.get(1) else {
            return match agreed {
                true => Ok(()),
                false => self.send(&format!("error 0 cannot play '{moves}'")),
            };
        };
        let layout = match parse_position(position) {
            Ok(layout) => layout,
            Err(e) => return self.send(&format!("error 0 bad position {e}")),
        };
        let game = self.game.as_ref().expect("checked above");
        if agreed && layout == game.layout() {
            return Ok(());
        }
        // Take OpenTafl's word for it: the other side moved, so it is the engine's turn.
        let turn = self.side.unwrap_or_else(|| game.turn());
        match self.set_up(&layout, turn) {
            Ok(()) => Ok(()),
            Err(reason) => self.send(&format!("error 0 {reason}")),
        }
    }
}

fn parse_side(args: &[&str]) -> Option<Side> {
    match args.first().copied() {
        Some("attackers") => Some(Side::Attackers),
        Some("defenders") => Some(Side::Defenders),
        _ => None,
    }
}

/// A score for the side to move as OpenTafl shows evaluations: attackers positive, in men.
fn evaluation(score: i32, to_move: Side) -> String {
    let for_attackers = match to_move {
        Side::Attackers => score,
        Side::Defenders => -score,
    };
    let value = if is_decisive(for_attackers) {
        // MATE - plies becomes 10000 - plies/100.
        let plies = MATE - for_attackers.abs();
        for_attackers.signum() as f64 * (10_000.0 - f64::from(plies) / 100.0)
    } else {
        f64::from(for_attackers) / 100.0
    };
    format!("{value:.2}")
}

/// The `from-to` part of a move record in either of OpenTafl's notations: without a leading
/// piece letter (`Ke5-e1`), captures (`xe9/d8`) or the marks after it (`+`, `-`, `++`, `--`).
fn simple_move(text: &str) -> &str {
    let text = text.split('x').next().unwrap_or(text);
    let mut chars = text.chars();
    let text = match (chars.next(), chars.next()) {
        (Some(piece), Some(next)) if piece.is_ascii_alphabetic() && next.is_ascii_alphabetic() => {
            &text[1..]
        }
        _ => text,
    };
    text.trim_end_matches(['+', '-'])
}
