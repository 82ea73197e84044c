//! The masters' games: the 1,752 Copenhagen games played by people that ship with the server
//! (`engine/tests/data/copenhagen.csv`, whose README names their source; the engine replays
//! them to test its rules), counted once, in memory, the first time they are asked for. They
//! have no ratings or clocks, so the explorer's filters do not apply to them.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::line::steps;
use super::{Ended, Tally};

/// The bundled records: `moves,attacker_captures,defender_captures,result` a line.
const RECORDS: &str = include_str!("../../../engine/tests/data/copenhagen.csv");

/// The variant the bundled games were played under.
pub const VARIANT: &str = "copenhagen";

/// Each position's moves with their tallies.
pub type Book = HashMap<u64, HashMap<String, Tally>>;

/// The result a record claims, when it claims one (`Ongoing` games are not counted).
fn ended(result: &str) -> Option<Ended> {
    match result.trim() {
        "Black" => Some(Ended::Attackers),
        "White" => Some(Ended::Defenders),
        "Draw" => Some(Ended::Draw),
        _ => None,
    }
}

/// Counts `records` (in the bundled format): each finished game's counted steps.
pub fn count(records: &str) -> Book {
    let mut book = Book::new();
    for line in records.lines() {
        let mut columns = line.split(',');
        let (Some(moves), Some(result)) = (columns.next(), columns.next_back()) else {
            continue;
        };
        let Some(ended) = ended(result) else {
            continue;
        };
        // A capture is written after the move (`g3-e3xe2`); the engine finds it itself.
        let actions = moves
            .split_whitespace()
            .take_while(|m| *m != "timeout")
            .map(|m| m.split('x').next().unwrap_or(m));
        let Ok(steps) = steps(VARIANT, actions) else {
            continue;
        };
        for step in steps {
            book.entry(step.position)
                .or_default()
                .entry(step.action)
                .or_default()
                .add(Tally::of(ended, 0));
        }
    }
    book
}

/// The bundled games, counted on first use.
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| count(RECORDS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::line::start;

    #[test]
    fn every_finished_game_is_counted_from_the_start() {
        let finished = RECORDS
            .lines()
            .filter(|l| l.split(',').next().is_some_and(|m| !m.trim().is_empty()))
            .filter(|l| l.rsplit(',').next().and_then(ended).is_some())
            .count();
        let start = start(VARIANT).unwrap().hash();
        let games: u64 = book()[&start].values().map(Tally::games).sum();
        assert_eq!(games, finished as u64);
        assert!(games > 1_600, "{games}");
    }

    #[test]
    fn a_capture_written_in_the_record_is_the_same_move() {
        let book = count(
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Black\nd1-d3 e5-e2 g1-g3 f4-c4 g3-e3,1,0,White",
        );
        let mut game = start(VARIANT).unwrap();
        for (ply, m) in ["d1-d3", "e5-e2", "g1-g3", "f4-c4"].into_iter().enumerate() {
            crate::explorer::line::play(&mut game, ply + 1, m).unwrap();
        }
        let moves = &book[&game.hash()];
        assert_eq!(moves.len(), 1);
        let tally = moves.values().next().unwrap();
        assert_eq!((tally.attackers, tally.defenders), (1, 1));
    }

    #[test]
    fn unfinished_games_are_not_counted() {
        assert!(count("d1-d3 e5-e2,0,0,Ongoing").is_empty());
    }
}
