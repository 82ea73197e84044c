//! Replaying recorded games (the `copenhagen.csv` collection format) through the engine and
//! classifying how each record agrees with the rules.
//!
//! Format, one game per line: `moves,attacker_captures,defender_captures,result`, moves
//! space-separated in `from-to[xsq...]` notation with attackers first, the king's capture not
//! written, possibly ending in the word `timeout`; result `Black` (attackers won), `White`
//! (defenders won), `Draw` or `Ongoing`.

use std::collections::BTreeMap;
use std::fmt;

use super::Tafl;
use super::ending::Reason;
use super::opentafl::parse_move;
use super::rules::Rules;
use super::square::Side;

/// The result a record claims.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    Winner(Side),
    Draw,
    Ongoing,
}

/// How one recorded game compares with the engine.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Agreement {
    /// Every move legal with the same captures, and the engine ends the game where the record
    /// does, with the recorded result.
    Agrees,
    /// The record stops before the rules end the game: its result came from a resignation, a
    /// timeout, an agreed draw or an unfinished game. Every move and capture agreed.
    DecidedOffTheBoard,
    /// The rules ended the game (for the given reason) but the record plays on: the server the
    /// games were played on did not apply that rule.
    PlaysOnAfter(&'static str),
    /// The engine ends the game at the last recorded move with a different result.
    DifferentResult,
    /// A recorded move is illegal under the rules.
    IllegalMove,
    /// A move captures different men than recorded.
    DifferentCaptures,
    /// The line could not be read.
    Unreadable,
}

impl fmt::Display for Agreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agreement::Agrees => write!(f, "agrees"),
            Agreement::DecidedOffTheBoard => write!(f, "decided off the board"),
            Agreement::PlaysOnAfter(reason) => write!(f, "plays on after {reason}"),
            Agreement::DifferentResult => write!(f, "different result"),
            Agreement::IllegalMove => write!(f, "illegal move"),
            Agreement::DifferentCaptures => write!(f, "different captures"),
            Agreement::Unreadable => write!(f, "unreadable"),
        }
    }
}

/// The comparison of one game, with a human explanation of the first disagreement.
#[derive(Clone, Debug)]
pub struct GameReplay {
    pub agreement: Agreement,
    pub detail: String,
}

/// Replays one line of the collection under `rules`.
pub fn replay_line(rules: &Rules, line: &str) -> GameReplay {
    let verdict = |agreement, detail: String| GameReplay { agreement, detail };
    let fields: Vec<&str> = line.trim_end().split(',').collect();
    let [moves, _, _, result] = fields[..] else {
        return verdict(
            Agreement::Unreadable,
            format!("{} fields, expected 4", fields.len()),
        );
    };
    let recorded = match result {
        "Black" => Recorded::Winner(Side::Attackers),
        "White" => Recorded::Winner(Side::Defenders),
        "Draw" => Recorded::Draw,
        "Ongoing" => Recorded::Ongoing,
        other => return verdict(Agreement::Unreadable, format!("unknown result '{other}'")),
    };
    let mut game = match Tafl::new(rules.clone()) {
        Ok(game) => game,
        Err(e) => return verdict(Agreement::Unreadable, e.to_string()),
    };
    let dim = rules.dim();
    for (n, text) in moves.split_whitespace().enumerate() {
        let ply = n + 1;
        if text == "timeout" {
            break;
        }
        if let Some(v) = game.verdict() {
            return verdict(
                Agreement::PlaysOnAfter(v.reason.code()),
                format!("the game ended before move {ply} ({text}): {:?}", v),
            );
        }
        let written = match parse_move(text, dim) {
            Ok(m) => m,
            Err(e) => return verdict(Agreement::Unreadable, format!("move {ply} '{text}' {e}")),
        };
        let report = match game.play_move(written.mv) {
            Ok(r) => r,
            Err(e) => {
                return verdict(Agreement::IllegalMove, format!("move {ply} '{text}': {e}"));
            }
        };
        if report.captured != written.captures {
            let ours: Vec<String> = report.captured.iter().map(|s| s.name(dim)).collect();
            return verdict(
                Agreement::DifferentCaptures,
                format!("move {ply} '{text}': the engine captures {ours:?}"),
            );
        }
    }
    let ours = game.verdict();
    match (ours, recorded) {
        (None, _) => verdict(Agreement::DecidedOffTheBoard, format!("recorded {result}")),
        (Some(v), Recorded::Winner(side)) if v.winner == Some(side) => {
            verdict(Agreement::Agrees, v.reason.code().to_string())
        }
        (Some(v), Recorded::Draw) if v.winner.is_none() => {
            verdict(Agreement::Agrees, v.reason.code().to_string())
        }
        (Some(v), _) if v.reason == Reason::Repetition && recorded == Recorded::Ongoing => verdict(
            Agreement::PlaysOnAfter(v.reason.code()),
            "the last move repeats a position a third time; recorded as unfinished".into(),
        ),
        (Some(v), _) => verdict(
            Agreement::DifferentResult,
            format!("recorded {result}, the engine ends it {:?}", v),
        ),
    }
}

/// Counts of each agreement class over a collection.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub classes: BTreeMap<Agreement, usize>,
}

impl Summary {
    pub fn add(&mut self, replay: &GameReplay) {
        self.games += 1;
        *self.classes.entry(replay.agreement.clone()).or_default() += 1;
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} games", self.games)?;
        for (class, n) in &self.classes {
            writeln!(f, "{n:>6}  {class}")?;
        }
        Ok(())
    }
}
