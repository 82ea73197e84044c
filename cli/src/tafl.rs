//! `tafl`: check the tafl engine from a shell. List the presets, show legal moves, play a line of
//! moves, count perft nodes, replay a collection of recorded games, and run the AI as an
//! external engine for OpenTafl (`tafl engine`, see `otep.rs`).
//!
//! Every rules argument is a preset name or an OpenTafl rules string; positions and moves are in
//! OpenTafl notation (see `engine::tafl::opentafl`).

mod otep;
mod puzzles;

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use engine::ai::Level;
use engine::tafl::corpus::{Agreement, Summary, replay_line};
use engine::tafl::opentafl::{
    NotationError, export_record, parse_move, parse_position, parse_rules, print_move, print_rules,
};
use engine::tafl::{Rules, Side, Square, Tafl, Verdict, variants};

#[derive(Parser)]
#[command(name = "tafl", version, about = "Check the tafl engine from a shell")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every preset with its board size and OpenTafl rules string.
    Variants,
    /// List the legal moves of the side to move, one `from-to` per line.
    ///
    /// Sorted by from-square, then by to-square, in board order (a1, b1, ..., a2, ...).
    Moves {
        /// A preset name or an OpenTafl rules string.
        rules: String,
        /// A position in OpenTafl notation (default: the rules' start position).
        position: Option<String>,
        /// The side to move (default: the side that moves first under the rules).
        #[arg(long, value_enum)]
        turn: Option<Turn>,
    },
    /// Play moves from the start position, then show the board, the moves and the game status.
    Play {
        /// A preset name or an OpenTafl rules string.
        rules: String,
        /// Moves in OpenTafl notation (`d1-d3`); claimed captures (`e5-e8xe9`) are checked.
        moves: Vec<String>,
        /// Print the game as an OpenTafl record instead of the board, moves and status.
        #[arg(long)]
        record: bool,
    },
    /// Count the move sequences of each length from the start position.
    Perft {
        /// A preset name or an OpenTafl rules string.
        rules: String,
        /// The longest sequence to count, in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// Also count the sequences of `depth` plies under each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Replay a collection of recorded games (the copenhagen.csv format) and classify each.
    Replay {
        /// A preset name or an OpenTafl rules string.
        rules: String,
        /// The collection: one game per line, `moves,attacker_captures,defender_captures,result`.
        csv: PathBuf,
        /// Also list every game that neither agrees nor was decided off the board.
        #[arg(long)]
        verbose: bool,
    },
    /// Make the puzzle set from the recorded Copenhagen games and the AI's games against itself.
    ///
    /// Writes one puzzle a line in JSON (see docs/engine.md, "Puzzles"), the same on every
    /// run; prints the counts per variant and theme and the time taken on stderr.
    Puzzles {
        /// The recorded games, one a line (the copenhagen.csv format).
        #[arg(long, default_value = "engine/tests/data/copenhagen.csv")]
        games: PathBuf,
        /// Look through only the first this many recorded games.
        #[arg(long)]
        max_games: Option<usize>,
        /// Games of the AI against itself for each of Brandubh, Tablut and Tawlbwrdd.
        #[arg(long, default_value_t = 200)]
        self_play: u64,
        /// Threads to share the games over.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
        threads: u32,
        /// Where to write the puzzles (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play as an external engine over the OpenTafl Engine Protocol on stdin and stdout.
    ///
    /// OpenTafl sends the rules, the moves and the clock; the engine answers with its moves (and
    /// analyses). The time per move comes from OpenTafl's clock messages.
    Engine {
        /// AI strength, 1 (random) to 5 (the strongest within the limits).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
        level: u8,
        /// At most this many search nodes per move (about a second per million).
        #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
    },
}

/// `--turn`: a local copy of [`Side`], because clap's derive needs a type of this crate.
#[derive(Copy, Clone, ValueEnum)]
enum Turn {
    Attackers,
    Defenders,
}

impl From<Turn> for Side {
    fn from(turn: Turn) -> Side {
        match turn {
            Turn::Attackers => Side::Attackers,
            Turn::Defenders => Side::Defenders,
        }
    }
}

/// Why a command failed.
enum Error {
    /// The user's input is wrong: an unknown variant, bad notation, an illegal move, an
    /// unreadable file. Exit code 2.
    Input(String),
    /// Writing the output failed. Exit code 1.
    Output(io::Error),
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Output(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Variants => variants_command(&mut out),
        Command::Moves {
            rules,
            position,
            turn,
        } => moves_command(&mut out, &rules, position.as_deref(), turn.map(Side::from)),
        Command::Play {
            rules,
            moves,
            record,
        } => play_command(&mut out, &rules, &moves, record),
        Command::Perft {
            rules,
            depth,
            divide,
        } => perft_command(&mut out, &rules, depth, divide),
        Command::Replay {
            rules,
            csv,
            verbose,
        } => replay_command(&mut out, &rules, &csv, verbose),
        Command::Puzzles {
            games,
            max_games,
            self_play,
            threads,
            out: path,
        } => {
            let options = puzzles::Options {
                games: &games,
                max_games,
                self_play,
                threads: threads as usize,
            };
            puzzles_command(&mut out, &options, path.as_deref())
        }
        Command::Engine { level, nodes } => {
            // The protocol owns stdin and stdout.
            drop(out);
            let options = otep::Options {
                level: Level::new(level).expect("clap checks the range"),
                max_nodes: nodes,
            };
            return match otep::run(options) {
                Ok(()) => ExitCode::SUCCESS,
                // OpenTafl has gone away: nobody is left to tell.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("tafl: engine: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    match result.and_then(|()| out.flush().map_err(Error::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Input(message)) => {
            eprintln!("tafl: {message}");
            ExitCode::from(2)
        }
        // The reader has gone (`tafl moves ... | head`): nobody is left to tell.
        Err(Error::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(Error::Output(e)) => {
            eprintln!("tafl: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves a `<variant|rules string>` argument: a preset name, or else an OpenTafl rules string.
fn resolve_rules(arg: &str) -> Result<Rules, Error> {
    if let Some(rules) = variants::preset(arg) {
        return Ok(rules);
    }
    // Every rules string has `key:value` pairs, so a text without a colon was meant as a name.
    if !arg.contains(':') {
        return Err(Error::Input(format!(
            "unknown variant '{arg}'; the variants are: {}",
            variants::NAMES.join(", ")
        )));
    }
    parse_rules(arg).map_err(|e| Error::Input(notation_error("rules string", arg, &e)))
}

/// Describes a notation error in a long text, with a caret under the column it names.
fn notation_error(what: &str, text: &str, e: &NotationError) -> String {
    let caret = " ".repeat(e.column.saturating_sub(1));
    format!("bad {what} {e}\n  {text}\n  {caret}^")
}

/// A new game, or the engine's reason why these rules and this position cannot be played.
fn new_game(rules: Rules, position: Option<&str>, turn: Option<Side>) -> Result<Tafl, Error> {
    let layout = match position {
        Some(text) => {
            parse_position(text).map_err(|e| Error::Input(notation_error("position", text, &e)))?
        }
        None => rules.start.clone(),
    };
    let first = if rules.attackers_first {
        Side::Attackers
    } else {
        Side::Defenders
    };
    Tafl::from_layout(rules, &layout, turn.unwrap_or(first))
        .map_err(|e| Error::Input(format!("cannot set up the game: {e}")))
}

/// A finished game's result: `attackers win (king_captured)` or `draw (repetition)`.
fn result(verdict: Verdict) -> String {
    let reason = verdict.reason.code();
    match verdict.winner {
        Some(side) => format!("{side} win ({reason})"),
        None => format!("draw ({reason})"),
    }
}

fn variants_command(out: &mut impl Write) -> Result<(), Error> {
    for name in variants::NAMES {
        let rules = variants::preset(name).expect("every listed name is a preset");
        let dim = rules.dim();
        let size = format!("{dim}x{dim}");
        writeln!(out, "{name:<24}{size:<7}{}", print_rules(&rules))?;
    }
    Ok(())
}

fn moves_command(
    out: &mut impl Write,
    rules: &str,
    position: Option<&str>,
    turn: Option<Side>,
) -> Result<(), Error> {
    let game = new_game(resolve_rules(rules)?, position, turn)?;
    if let Some(verdict) = game.verdict() {
        // Not an error: "no legal moves" is the answer, and stderr says why.
        eprintln!("tafl: the game is over: {}", result(verdict));
        return Ok(());
    }
    let dim = game.dim();
    let mut moves = game.legal_moves();
    moves.sort_by_key(|mv| (mv.from, mv.to));
    for mv in moves {
        writeln!(out, "{}", print_move(mv, &[], dim))?;
    }
    Ok(())
}

fn play_command(
    out: &mut impl Write,
    rules: &str,
    moves: &[String],
    record: bool,
) -> Result<(), Error> {
    let mut game = new_game(resolve_rules(rules)?, None, None)?;
    let dim = game.dim();
    for (i, text) in moves.iter().enumerate() {
        let bad_move = |reason: String| Error::Input(format!("move {} ({text}): {reason}", i + 1));
        let written = parse_move(text, dim).map_err(|e| bad_move(e.to_string()))?;
        let played = game
            .play_move(written.mv)
            .map_err(|e| bad_move(e.to_string()))?;
        // A move written without captures claims nothing, so there is nothing to check.
        if !written.captures.is_empty() && written.captures != played.captured {
            return Err(bad_move(format!(
                "the engine captures {}, not {}",
                squares(&played.captured, dim),
                squares(&written.captures, dim)
            )));
        }
    }
    if record {
        // The record already holds the moves and the result.
        write!(out, "{}", export_record(&game))?;
        return Ok(());
    }
    write!(out, "{}", game.diagram())?;
    for (i, played) in game.moves().iter().enumerate() {
        writeln!(
            out,
            "{:>3}. {}",
            i + 1,
            print_move(played.mv, &played.captured, dim)
        )?;
    }
    let status = match game.verdict() {
        Some(verdict) => format!("over, {}", result(verdict)),
        None => format!("{} to move", game.turn()),
    };
    writeln!(out, "status: {status}")?;
    Ok(())
}

/// Names a list of captured squares for an error message.
fn squares(list: &[Square], dim: u8) -> String {
    if list.is_empty() {
        return "nothing".to_string();
    }
    let names: Vec<String> = list.iter().map(|sq| sq.name(dim)).collect();
    names.join("/")
}

fn perft_command(out: &mut impl Write, rules: &str, depth: u32, divide: bool) -> Result<(), Error> {
    let game = new_game(resolve_rules(rules)?, None, None)?;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = game.perft(d);
        let secs = start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            format!("{:.0}", nodes as f64 / secs)
        } else {
            "-".to_string()
        };
        writeln!(
            out,
            "perft({d}) = {nodes}  {:.1} ms  {rate} nodes/s",
            secs * 1000.0
        )?;
        // Flush each depth as it is done: the deep ones can take a while.
        out.flush()?;
    }
    if divide {
        let dim = game.dim();
        let mut moves = game.legal_moves();
        moves.sort_by_key(|mv| (mv.from, mv.to));
        let mut total = 0;
        for mv in moves {
            let mut child = game.clone();
            child
                .play_move(mv)
                .expect("the engine's legal moves can be played");
            // `Tafl::perft` counts a game that this move ended as 1 at depth 0 and 0 deeper.
            let nodes = child.perft(depth - 1);
            total += nodes;
            writeln!(out, "{}  {nodes}", print_move(mv, &[], dim))?;
        }
        writeln!(out, "total  {total}")?;
    }
    Ok(())
}

fn puzzles_command(
    out: &mut impl Write,
    options: &puzzles::Options<'_>,
    path: Option<&Path>,
) -> Result<(), Error> {
    let summary = match path {
        Some(path) => {
            let mut file = io::BufWriter::new(
                fs::File::create(path)
                    .map_err(|e| Error::Input(format!("cannot create {}: {e}", path.display())))?,
            );
            let summary = puzzles::run(options, &mut file).map_err(Error::Input)?;
            file.flush()?;
            summary
        }
        None => puzzles::run(options, out).map_err(Error::Input)?,
    };
    eprint!("{summary}");
    Ok(())
}

fn replay_command(
    out: &mut impl Write,
    rules: &str,
    csv: &Path,
    verbose: bool,
) -> Result<(), Error> {
    let rules = resolve_rules(rules)?;
    let text = fs::read_to_string(csv)
        .map_err(|e| Error::Input(format!("cannot read {}: {e}", csv.display())))?;
    let mut summary = Summary::default();
    for (i, line) in text.lines().enumerate() {
        // Blank lines hold no game; skipping them keeps a trailing empty line from counting.
        if line.trim().is_empty() {
            continue;
        }
        let replay = replay_line(&rules, line);
        let expected = matches!(
            replay.agreement,
            Agreement::Agrees | Agreement::DecidedOffTheBoard
        );
        if verbose && !expected {
            writeln!(
                out,
                "line {}: {}: {}",
                i + 1,
                replay.agreement,
                replay.detail
            )?;
        }
        summary.add(&replay);
    }
    write!(out, "{summary}")?;
    Ok(())
}
