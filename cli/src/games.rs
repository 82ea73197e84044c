//! `games`: drive every game of the engine from a shell through the game contract alone.
//!
//! `games list` names the games, their variants and seat counts; `games playout` plays random
//! games and can print their action logs; `games replay` reads such a log back and replays it
//! from the match seed, so any game can be checked, reproduced and shared as plain text.
//! `games ai` asks the AI (at a level from 1 to 5, as the server plays it) for the next action
//! after a log, printed as a log line; `games selfplay` plays AI levels against each other.
//!
//! A log has one action per line, `<seat> <action>`, seats numbered from 0 and actions in the
//! game's own notation; blank lines and lines starting with `#` are skipped.

use std::fs;
use std::io::{self, Read};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use engine::ai::{Budget, Level};
use engine::playout::random_playout;
use engine::registry::{GAME_IDS, GameTask, Hostable, with_game};
use engine::{Catalog, MatchRng, Outcome, Seat};

/// The AI allocates in every playout; the server runs it with mimalloc, and so does this tool,
/// so that a level bounded by time (level 5) searches here as far as it does in the server.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "games",
    version,
    about = "Play, replay and list every game of the engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every game with its variants and seat counts.
    List,
    /// Play random games and report how they ended.
    Playout {
        #[command(flatten)]
        table: Table,
        /// Seed of the first game; game `i` uses seed `seed + i`.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many games to play.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Stop a game after this many actions.
        #[arg(long, default_value_t = 100_000)]
        max_actions: usize,
        /// Print each game's action log (replayable with `games replay`) and final state; the
        /// summary then goes to standard error.
        #[arg(long)]
        log: bool,
    },
    /// Replay an action log from the match seed and show the final state and result.
    Replay {
        #[command(flatten)]
        table: Table,
        /// The match seed the log was played with.
        #[arg(long)]
        seed: u64,
        /// The log file, or `-` for standard input.
        log: String,
    },
    /// Replay an action log and print the AI's next action, as a line to append to the log.
    Ai {
        #[command(flatten)]
        table: Table,
        /// The match seed the log was played with.
        #[arg(long)]
        seed: u64,
        #[command(flatten)]
        ai: AiArgs,
        /// AI level, 1 (a beginner) to 5 (the strongest).
        #[arg(long, value_parser = level)]
        level: Level,
        /// The seat to play (default: the first seat to act).
        #[arg(long)]
        seat: Option<usize>,
        /// The log file, or `-` for standard input.
        log: String,
    },
    /// Play AI levels against each other and report how each level did.
    Selfplay {
        #[command(flatten)]
        table: Table,
        /// One level per seat, comma-separated (`3,5`); game `i` turns them `i` seats on, so
        /// every level plays every seat.
        #[arg(long, value_delimiter = ',', value_parser = level, required = true)]
        levels: Vec<Level>,
        /// Seed of the first game; game `i` uses seed `seed + i`.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[command(flatten)]
        ai: AiArgs,
        /// How many games to play.
        #[arg(long, default_value_t = 2)]
        count: u64,
        /// Stop a game after this many actions (it then counts as unfinished).
        #[arg(long, default_value_t = 2_000)]
        max_actions: usize,
        /// Print each game as it ends: the levels by seat and the result as a comment, the
        /// action log, and the final position as comments.
        #[arg(long)]
        log: bool,
    },
}

/// How the AI searches.
#[derive(Args)]
struct AiArgs {
    /// Seed of the AI's own random choices.
    #[arg(long, default_value_t = 0)]
    ai_seed: u64,
    /// At most this many nodes (tafl) or iterations (other games) a move, on top of the level's
    /// own limit.
    #[arg(long, default_value_t = u64::MAX)]
    nodes: u64,
    /// Longest the AI thinks about one move, in milliseconds, as the server's `--ai-move-ms`
    /// (level 5 of the games other than tafl has no node limit of its own).
    #[arg(long, default_value_t = 1000)]
    move_ms: u64,
}

impl AiArgs {
    /// The AI's action for `seat`, within the node and time limits.
    fn choose<G: Hostable>(
        &self,
        game: &G,
        seat: Seat,
        level: Level,
        rng: &mut MatchRng,
    ) -> Option<G::Action> {
        let deadline = Instant::now() + std::time::Duration::from_millis(self.move_ms);
        let stop = || Instant::now() >= deadline;
        let budget = Budget {
            max_nodes: self.nodes,
            stop: &stop,
        };
        game.choose(seat, level, &budget, rng)
    }
}

fn level(text: &str) -> Result<Level, String> {
    text.parse()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("'{text}' is not a level from 1 to 5"))
}

/// Which game is set up, and how.
#[derive(Args)]
struct Table {
    /// The game: one of the ids `games list` prints.
    game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// How many seats (default: the fewest the variant allows).
    #[arg(long)]
    seats: Option<usize>,
}

/// Runs a task with the game named `id`.
fn run_game<T: GameTask<Output = Result<(), String>>>(id: &str, task: T) -> Result<(), String> {
    with_game(id, task)
        .unwrap_or_else(|| Err(format!("no game '{id}' (games: {})", GAME_IDS.join(", "))))
}

impl Table {
    /// The variant, seat count and configuration this table asks for.
    fn config<G: Catalog>(&self) -> Result<(String, usize, G::Config), String> {
        let variant = self
            .variant
            .clone()
            .unwrap_or_else(|| G::variants()[0].to_string());
        let seats = self
            .seats
            .unwrap_or_else(|| *G::seat_counts(&variant).start());
        let config = G::config(&variant, seats).map_err(|e| e.to_string())?;
        Ok((variant, seats, config))
    }
}

struct List;

impl GameTask for &List {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        for variant in G::variants() {
            let seats = G::seat_counts(variant);
            println!(
                "{:<12} {variant:<24} {}-{} seats",
                G::ID,
                seats.start(),
                seats.end()
            );
        }
        Ok(())
    }
}

struct Playout<'a> {
    table: &'a Table,
    seed: u64,
    count: u64,
    max_actions: usize,
    log: bool,
}

impl GameTask for &Playout<'_> {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        let (variant, seats, config) = self.table.config::<G>()?;
        let mut endings = std::collections::BTreeMap::<String, u64>::new();
        let (mut actions, mut unfinished) = (0, 0);
        let start = Instant::now();
        for i in 0..self.count {
            let seed = self.seed + i;
            let mut rng = MatchRng::from_seed(seed);
            // The players' choices come from their own generator, never the match's.
            let mut chooser = MatchRng::from_seed(seed ^ 0x5EED_C4A5_E000_0001);
            let mut game = G::new(&config, &mut rng).map_err(|e| e.to_string())?;
            let playout = random_playout(&mut game, &mut rng, &mut chooser, self.max_actions);
            actions += playout.log.len();
            let ending = match game.outcome() {
                Some(o) => ending(o),
                None => {
                    unfinished += 1;
                    "unfinished".to_string()
                }
            };
            if self.log {
                // The text of an action can depend on the state, so the log is written while
                // the game is played again from its seed.
                let mut replay_rng = MatchRng::from_seed(seed);
                let mut replayed = G::new(&config, &mut replay_rng).map_err(|e| e.to_string())?;
                let mut lines = Vec::with_capacity(playout.log.len());
                for (seat, action) in &playout.log {
                    lines.push(log_line(&replayed, *seat, action));
                    replayed
                        .play(*seat, action, &mut replay_rng)
                        .map_err(|e| e.to_string())?;
                }
                let header = format!("{} {variant} seats {seats} seed {seed}: {ending}", G::ID);
                print_log(&header, &lines, &game);
            }
            *endings.entry(ending).or_default() += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let mut summary = vec![format!(
            "{} games of {} {variant} ({seats} seats): {unfinished} unfinished, {:.1} actions/game, {:.0} games/s",
            self.count,
            G::ID,
            actions as f64 / self.count.max(1) as f64,
            self.count as f64 / secs
        )];
        summary.extend(
            endings
                .iter()
                .map(|(ending, n)| format!("{n:>8}  {ending}")),
        );
        // With logs on standard output, the summary goes to standard error so that the output
        // stays a replayable log.
        for line in summary {
            if self.log {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
        Ok(())
    }
}

struct Replay<'a> {
    table: &'a Table,
    seed: u64,
    text: String,
}

/// How a game ended, as the tool prints it everywhere: the reason and each seat's place.
fn ending(outcome: &Outcome) -> String {
    format!("{} {:?}", outcome.reason(), outcome.places())
}

/// One line of a log: the seat and the action in the game's notation, as it reads before the
/// action is played.
fn log_line<G: Hostable>(game: &G, seat: Seat, action: &G::Action) -> String {
    format!("{} {}", seat.index(), game.action_text(action))
}

/// Prints a game as a log `games replay` reads back: a comment saying what it was, the
/// actions, and the final position as comments.
fn print_log<G: Hostable>(header: &str, lines: &[String], game: &G) {
    println!("# {header}");
    for line in lines {
        println!("{line}");
    }
    for line in game.render().lines() {
        println!("# {line}");
    }
}

/// Sets up `table`'s game from `seed` and plays the log `text` on it; returns the game, the
/// match's generator as the log left it, and the number of actions played.
fn replay_log<G: Hostable>(
    table: &Table,
    seed: u64,
    text: &str,
) -> Result<(G, MatchRng, usize), String> {
    let (_, _, config) = table.config::<G>()?;
    let mut rng = MatchRng::from_seed(seed);
    let mut game = G::new(&config, &mut rng).map_err(|e| e.to_string())?;
    let mut played = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", n + 1);
        let (seat, action) = line
            .split_once(' ')
            .ok_or_else(|| at(format!("'{line}' is not '<seat> <action>'")))?;
        let seat = seat
            .parse()
            .ok()
            .and_then(Seat::new)
            .ok_or_else(|| at(format!("'{seat}' is not a seat number")))?;
        let action = game
            .parse_action(action.trim())
            .map_err(|e| at(e.to_string()))?;
        game.play(seat, &action, &mut rng)
            .map_err(|e| at(e.to_string()))?;
        played += 1;
    }
    Ok((game, rng, played))
}

impl GameTask for &Replay<'_> {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        let (game, _, played) = replay_log::<G>(self.table, self.seed, &self.text)?;
        println!("{}", game.render());
        match game.outcome() {
            Some(o) => println!("{played} actions; over: {}", ending(o)),
            None => {
                let seats: Vec<String> = game
                    .to_act()
                    .iter()
                    .map(|s| s.index().to_string())
                    .collect();
                println!("{played} actions; to act: seat {}", seats.join(", "));
            }
        }
        Ok(())
    }
}

/// Reads a log file, or standard input for `-`.
fn read_log(log: &str) -> Result<String, String> {
    if log == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        fs::read_to_string(log)
    }
    .map_err(|e| format!("cannot read {log}: {e}"))
}

struct AskAi<'a> {
    table: &'a Table,
    seed: u64,
    text: String,
    ai: &'a AiArgs,
    level: Level,
    seat: Option<usize>,
}

impl GameTask for &AskAi<'_> {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        let (game, _, _) = replay_log::<G>(self.table, self.seed, &self.text)?;
        if game.is_over() {
            return Err("the game is over".into());
        }
        let to_act = game.to_act();
        let seat = match self.seat {
            Some(n) => Seat::new(n)
                .filter(|s| to_act.contains(*s))
                .ok_or_else(|| format!("seat {n} is not to act"))?,
            None => to_act.iter().next().ok_or("no seat is to act")?,
        };
        let mut rng = MatchRng::from_seed(self.ai.ai_seed);
        let action = self
            .ai
            .choose(&game, seat, self.level, &mut rng)
            .ok_or_else(|| format!("seat {} has no action", seat.index()))?;
        println!("{} {}", seat.index(), game.action_text(&action));
        Ok(())
    }
}

struct Selfplay<'a> {
    table: &'a Table,
    levels: &'a [Level],
    seed: u64,
    ai: &'a AiArgs,
    count: u64,
    max_actions: usize,
    log: bool,
}

/// How one entry of `--levels` did over the games, seat by seat: in asymmetric games (the fox
/// or the geese, attackers or defenders) a level's record often differs with the side it plays.
struct Tally {
    /// `[won, shared first place, lost]` for each seat.
    by_seat: Vec<[u64; 3]>,
}

impl Tally {
    fn total(&self) -> [u64; 3] {
        self.by_seat.iter().fold([0; 3], |sum, seat| {
            [sum[0] + seat[0], sum[1] + seat[1], sum[2] + seat[2]]
        })
    }
}

impl GameTask for &Selfplay<'_> {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        let n = self.levels.len();
        let table = Table {
            game: self.table.game.clone(),
            variant: self.table.variant.clone(),
            seats: Some(self.table.seats.unwrap_or(n)),
        };
        let (variant, seats, config) = table.config::<G>()?;
        if seats != n {
            return Err(format!(
                "{n} levels for {seats} seats: give one level per seat"
            ));
        }
        let mut tallies: Vec<Tally> = (0..n)
            .map(|_| Tally {
                by_seat: vec![[0; 3]; n],
            })
            .collect();
        // ahead[a][b]: the games in which entry `a` finished above entry `b`. With more than two
        // seats, winning is not the only way to beat a weaker level: the server rates such games
        // pairwise, and so is the ladder judged.
        let mut ahead = vec![vec![0u64; n]; n];
        let (mut actions, mut unfinished) = (0, 0);
        let start = Instant::now();
        for i in 0..self.count {
            let seed = self.seed + i;
            let mut rng = MatchRng::from_seed(seed);
            // The AI's choices come from its own generator, never the match's.
            let mut ai_rng = MatchRng::from_seed(self.ai.ai_seed ^ seed.rotate_left(32));
            let mut game = G::new(&config, &mut rng).map_err(|e| e.to_string())?;
            // Seat `s` is played by entry `(s + i) % n`.
            let entry = |seat: usize| (seat + i as usize) % n;
            let mut played = 0;
            let mut log = Vec::new();
            while !game.is_over() && played < self.max_actions {
                for seat in game.to_act().iter() {
                    let action = self
                        .ai
                        .choose(&game, seat, self.levels[entry(seat.index())], &mut ai_rng)
                        .ok_or_else(|| format!("seat {} to act has no action", seat.index()))?;
                    if self.log {
                        log.push(log_line(&game, seat, &action));
                    }
                    game.play(seat, &action, &mut rng)
                        .map_err(|e| format!("the AI played an illegal action: {e}"))?;
                    played += 1;
                }
            }
            actions += played;
            if self.log {
                let by_seat: Vec<String> = (0..n)
                    .map(|seat| self.levels[entry(seat)].get().to_string())
                    .collect();
                let ending = game.outcome().map_or("unfinished".to_string(), ending);
                let header = format!(
                    "{} {variant} seed {seed}, levels by seat {}: {ending}",
                    G::ID,
                    by_seat.join(",")
                );
                print_log(&header, &log, &game);
            }
            let Some(outcome) = game.outcome() else {
                unfinished += 1;
                continue;
            };
            let places = outcome.places();
            for (a, &above) in places.iter().enumerate() {
                for (b, &below) in places.iter().enumerate() {
                    if above < below {
                        ahead[entry(a)][entry(b)] += 1;
                    }
                }
            }
            for (seat, &place) in places.iter().enumerate() {
                let best_other = (0..places.len())
                    .filter(|&other| other != seat)
                    .map(|other| places[other])
                    .min()
                    .unwrap_or(u8::MAX);
                let column = match place.cmp(&best_other) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 2,
                };
                tallies[entry(seat)].by_seat[seat][column] += 1;
            }
        }
        let levels: Vec<String> = self.levels.iter().map(|l| l.get().to_string()).collect();
        println!(
            "{} games of {} {variant} ({seats} seats), levels {}: {unfinished} unfinished, {:.1} actions/game, {:.2} s/game",
            self.count,
            G::ID,
            levels.join(","),
            actions as f64 / self.count.max(1) as f64,
            start.elapsed().as_secs_f64() / self.count.max(1) as f64
        );
        for (level, tally) in self.levels.iter().zip(&tallies) {
            let [won, shared, lost] = tally.total();
            let by_seat: Vec<String> = tally
                .by_seat
                .iter()
                .enumerate()
                .map(|(seat, [won, shared, lost])| format!("seat {seat} {won}-{shared}-{lost}"))
                .collect();
            println!(
                "level {}: {won} won, {shared} shared first place, {lost} lost (won-shared-lost by seat: {})",
                level.get(),
                by_seat.join(", ")
            );
        }
        if n > 2 {
            for (a, level_a) in self.levels.iter().enumerate() {
                for (b, level_b) in self.levels.iter().enumerate().skip(a + 1) {
                    println!(
                        "entry {a} (level {}) finished above entry {b} (level {}) in {} games, below it in {}",
                        level_a.get(),
                        level_b.get(),
                        ahead[a][b],
                        ahead[b][a]
                    );
                }
            }
        }
        Ok(())
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::List => GAME_IDS.iter().try_for_each(|id| run_game(id, &List)),
        Command::Playout {
            table,
            seed,
            count,
            max_actions,
            log,
        } => {
            let task = Playout {
                table: &table,
                seed,
                count,
                max_actions,
                log,
            };
            run_game(&table.game, &task)
        }
        Command::Replay { table, seed, log } => {
            let text = read_log(&log)?;
            run_game(
                &table.game,
                &Replay {
                    table: &table,
                    seed,
                    text,
                },
            )
        }
        Command::Ai {
            table,
            seed,
            ai,
            level,
            seat,
            log,
        } => {
            let task = AskAi {
                table: &table,
                seed,
                text: read_log(&log)?,
                ai: &ai,
                level,
                seat,
            };
            run_game(&table.game, &task)
        }
        Command::Selfplay {
            table,
            levels,
            seed,
            ai,
            count,
            max_actions,
            log,
        } => {
            let task = Selfplay {
                table: &table,
                levels: &levels,
                seed,
                ai: &ai,
                count,
                max_actions,
                log,
            };
            run_game(&table.game, &task)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("games: {message}");
            ExitCode::from(2)
        }
    }
}
