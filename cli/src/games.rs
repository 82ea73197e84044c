//! `games`: drive every game of the engine from a shell through the game contract alone.
//!
//! `games list` names the games, their variants and seat counts; `games playout` plays random
//! games and can print their action logs; `games replay` reads such a log back and replays it
//! from the match seed, so any game can be checked, reproduced and shared as plain text.
//!
//! A log has one action per line, `<seat> <action>`, seats numbered from 0 and actions in the
//! game's own notation; blank lines and lines starting with `#` are skipped.

use std::fs;
use std::io::{self, Read};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use engine::catalog::{GAME_IDS, GameTask, Hostable, with_game};
use engine::playout::random_playout;
use engine::{Catalog, MatchRng, Seat};

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
                Some(o) => format!("{} {:?}", o.reason(), o.places()),
                None => {
                    unfinished += 1;
                    "unfinished".to_string()
                }
            };
            if self.log {
                println!("# {} {variant} seats {seats} seed {seed}: {ending}", G::ID);
                // The text of an action can depend on the state, so the log is written while
                // the game is played again from its seed.
                let mut replay_rng = MatchRng::from_seed(seed);
                let mut replayed = G::new(&config, &mut replay_rng).map_err(|e| e.to_string())?;
                for (seat, action) in &playout.log {
                    println!("{} {}", seat.index(), replayed.action_text(action));
                    replayed
                        .play(*seat, action, &mut replay_rng)
                        .map_err(|e| e.to_string())?;
                }
                for line in game.render().lines() {
                    println!("# {line}");
                }
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

impl GameTask for &Replay<'_> {
    type Output = Result<(), String>;

    fn run<G: Hostable>(self) -> Result<(), String> {
        let (_, _, config) = self.table.config::<G>()?;
        let mut rng = MatchRng::from_seed(self.seed);
        let mut game = G::new(&config, &mut rng).map_err(|e| e.to_string())?;
        let mut played = 0;
        for (n, line) in self.text.lines().enumerate() {
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
        println!("{}", game.render());
        match game.outcome() {
            Some(o) => println!("{played} actions; over: {} {:?}", o.reason(), o.places()),
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
            let text = if log == "-" {
                let mut text = String::new();
                io::stdin().read_to_string(&mut text).map(|_| text)
            } else {
                fs::read_to_string(&log)
            }
            .map_err(|e| format!("cannot read {log}: {e}"))?;
            run_game(
                &table.game,
                &Replay {
                    table: &table,
                    seed,
                    text,
                },
            )
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
