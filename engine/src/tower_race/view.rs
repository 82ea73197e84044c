//! What a viewer sees (everything: the game has no hidden information), and the text diagram.

use std::fmt::Write;

use super::{ChallengeReport, Place, Pyramid, Stage, Tile, TowerRace, TurnRoll};
use crate::game::{Outcome, Seat};

use super::Board;

/// One seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SeatView {
    #[serde(serialize_with = "super::seat_number")]
    pub seat: Seat,
    pub start: Tile,
    /// The seat's path, start tile first, the End-tile last.
    pub path: Vec<Tile>,
    /// Where each pyramid is, smallest first.
    pub pyramids: Vec<Place>,
    /// Whether the seat will lose its next turn for refusing a challenge.
    pub loses_next_turn: bool,
    /// Whether the seat could refuse a challenge posed now.
    pub may_refuse: bool,
}

/// The whole public state of a game. It serialises to JSON with tiles by name (`c3`), seats by
/// number and pyramids as `{"seat": 0, "size": 2}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TowerRaceView {
    pub board: Board,
    pub seats: Vec<SeatView>,
    /// Every occupied tile with its pyramids, from the bottom of the stack up.
    pub stacks: Vec<(Tile, Vec<Pyramid>)>,
    pub safe_tiles: Vec<Tile>,
    pub end_tile: Tile,
    /// Who must act now, and what they must do.
    pub stage: Stage,
    /// The latest turn roll and whose it was.
    pub last_roll: Option<TurnRoll>,
    /// The latest challenge, with its rolls.
    pub last_challenge: Option<ChallengeReport>,
    /// Turns finished, played or lost, and the turn at which the game is cut off.
    pub turns: u32,
    pub turn_limit: u32,
    pub outcome: Option<Outcome>,
}

impl TowerRaceView {
    pub(super) fn of(game: &TowerRace) -> TowerRaceView {
        let seats = game
            .seat_list()
            .map(|seat| SeatView {
                seat,
                start: game.start_tile(seat),
                path: game.path(seat),
                pyramids: game.pyramids_of(seat).map(|p| game.place(p)).collect(),
                loses_next_turn: game.loses_next_turn(seat),
                may_refuse: game.may_refuse(seat),
            })
            .collect();
        TowerRaceView {
            board: game.board(),
            seats,
            stacks: game.stacks(),
            safe_tiles: game.safe_tiles(),
            end_tile: game.end_tile(),
            stage: game.stage(),
            last_roll: game.last_roll(),
            last_challenge: game.last_challenge().cloned(),
            turns: game.turns(),
            turn_limit: game.turn_limit(),
            outcome: game.outcome.clone(),
        }
    }
}

/// A seat's letter in the diagram: `A` for seat 0.
fn letter(seat: Seat) -> char {
    char::from(b'A' + seat.index() as u8)
}

/// A pyramid in the diagram: its owner's letter and its size, `B3`.
fn short(pyramid: Pyramid) -> String {
    format!("{}{}", letter(pyramid.seat), pyramid.size)
}

impl TowerRace {
    /// Every occupied tile with its pyramids, from the bottom of the stack up, in tile order.
    fn stacks(&self) -> Vec<(Tile, Vec<Pyramid>)> {
        (0..self.layout.tiles)
            .map(|tile| self.layout.tile(tile))
            .map(|tile| (tile, self.stack(tile)))
            .filter(|(_, stack)| !stack.is_empty())
            .collect()
    }

    /// The board, top rank first, then every seat's pyramids, the stacks of more than one
    /// pyramid, and who must act. A tile shows the top of its stack (`B3`, seat 1's pyramid 3)
    /// with `+n` for the `n` pyramids beneath; `.` is an empty tile, `*` a safe zone (with its
    /// pyramid, or how many it holds), `END` the End-tile.
    pub fn diagram(&self) -> String {
        let side = self.layout.side;
        let safe = self.safe_tiles();
        let mut out = String::new();
        out.push_str("  ");
        for file in 0..side {
            let _ = write!(out, " {:<5}", char::from(b'a' + file));
        }
        out = out.trim_end().to_string();
        out.push('\n');
        for rank in (0..side).rev() {
            let mut line = format!("{} ", rank + 1);
            for file in 0..side {
                let Some(tile) = Tile::new(file, rank) else {
                    continue;
                };
                let stack = self.stack(tile);
                let cell = if tile == self.end_tile() {
                    "END".to_string()
                } else if safe.contains(&tile) {
                    match stack.as_slice() {
                        [] => "*".to_string(),
                        [one] => format!("*{}", short(*one)),
                        many => format!("*{}", many.len()),
                    }
                } else {
                    match stack.split_last() {
                        None => ".".to_string(),
                        Some((top, [])) => short(*top),
                        Some((top, beneath)) => format!("{}+{}", short(*top), beneath.len()),
                    }
                };
                let _ = write!(line, " {cell:<5}");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for seat in self.seat_list() {
            let _ = write!(
                out,
                "{} = {seat}, start {}:",
                letter(seat),
                self.start_tile(seat)
            );
            for pyramid in self.pyramids_of(seat) {
                let _ = write!(out, " {} {}", pyramid.size, self.place(pyramid));
                if pyramid.size.get() < self.layout.pyramids {
                    out.push(',');
                }
            }
            if self.loses_next_turn(seat) {
                out.push_str("; loses its next turn");
            }
            out.push('\n');
        }
        for (tile, stack) in self.stacks().into_iter().filter(|(_, s)| s.len() > 1) {
            let names: Vec<String> = stack.into_iter().map(short).collect();
            let order = if safe.contains(&tile) {
                "safe zone"
            } else {
                "bottom to top"
            };
            let _ = writeln!(out, "{tile} ({order}): {}", names.join(" "));
        }
        if let Some(report) = self.last_challenge() {
            let _ = writeln!(out, "last challenge: {}", report_text(report));
        }
        match (&self.outcome, self.stage()) {
            (Some(outcome), _) => {
                let _ = writeln!(
                    out,
                    "over ({}): places {:?}",
                    outcome.reason(),
                    outcome.places()
                );
            }
            (None, stage) => {
                let _ = writeln!(out, "{stage}");
            }
        }
        out
    }
}

/// A challenge and its result in words.
fn report_text(report: &ChallengeReport) -> String {
    match &report.answer {
        super::Answer::Refused => format!("{}; refused", report.challenge),
        super::Answer::Played { rolls, winner } => {
            let rolls: Vec<String> = rolls.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            format!(
                "{}; rolled {}; {winner} won",
                report.challenge,
                rolls.join(", ")
            )
        }
    }
}
