//! What a viewer may see, what happened in a round, and the text diagram.

use std::fmt::{self, Write};

use super::board::Square;
use super::cards::{Card, Hand, Phase};
use super::notation::TronAction;
use super::{Cell, Cycle, Dir, Flag, Line, Stage, Tron};
use crate::game::{Game, Outcome, Seat, Viewer};

fn seat_index<S: serde::Serializer>(seat: &Seat, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(seat.index() as u64)
}

fn optional_seat_index<S: serde::Serializer>(
    seat: &Option<Seat>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match seat {
        Some(seat) => serializer.serialize_some(&(seat.index() as u64)),
        None => serializer.serialize_none(),
    }
}

/// Why a light-cycle was destroyed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cause {
    /// It drove off the grid from `at` (-1).
    OffGrid { at: Cell },
    /// It drove into a crusher (-1; nothing for whoever placed it).
    Crusher { line: Line },
    /// It drove into `owner`'s tail or wreck on `at` (-1, and +2 to `owner` unless it is its
    /// own tail).
    Tail {
        #[serde(serialize_with = "seat_index")]
        owner: Seat,
        at: Cell,
    },
    /// A head-on collision on `at` (0 for everyone in it).
    HeadOn { at: Cell },
}

/// Something that happened while a round was enacted or ended. Nothing private: a card drawn
/// is only counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Died {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        cause: Cause,
    },
    /// In over-drive, stopped short on `at` of a square another mover reached first.
    Stopped {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        at: Cell,
    },
    /// Cut `owner`'s tail (or wreck) at `at`.
    Cut {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        #[serde(serialize_with = "seat_index")]
        owner: Seat,
        at: Cell,
    },
    Retracted {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        length: u16,
    },
    CrusherPlaced {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        to: Line,
        from: Option<Line>,
    },
    OverDrive {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        on: bool,
    },
    Captured {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        at: Cell,
    },
    Drew {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        cards: u8,
    },
    /// The Row/Column draw put the seat's head on `at`; it places its tail next.
    Reincarnated {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        at: Cell,
    },
    /// A flag was placed on `at` by `by` (`None` at setup).
    FlagPlaced {
        #[serde(serialize_with = "optional_seat_index")]
        by: Option<Seat>,
        at: Cell,
    },
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::OffGrid { at } => write!(f, "drove off the grid from {at}"),
            Cause::Crusher { line } => write!(f, "drove into the crusher on {line}"),
            Cause::Tail { owner, at } => write!(f, "crashed into the tail of {owner} on {at}"),
            Cause::HeadOn { at } => write!(f, "collided head-on at {at}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Died { seat, cause } => write!(f, "{seat} {cause}"),
            Event::Stopped { seat, at } => write!(f, "{seat} stopped short on {at}"),
            Event::Cut { seat, owner, at } => write!(f, "{seat} cut the tail of {owner} at {at}"),
            Event::Retracted { seat, length } => {
                write!(f, "{seat} retracted its tail to {length}")
            }
            Event::CrusherPlaced { seat, to, from } => match from {
                Some(from) => write!(f, "{seat} moved the crusher on {from} to {to}"),
                None => write!(f, "{seat} placed a crusher on {to}"),
            },
            Event::OverDrive { seat, on } => {
                let mode = if *on { "on" } else { "off" };
                write!(f, "{seat} turned over-drive {mode}")
            }
            Event::Captured { seat, at } => write!(f, "{seat} captured the flag on {at}"),
            Event::Drew { seat, cards } => write!(f, "{seat} drew {cards} special card(s)"),
            Event::Reincarnated { seat, at } => write!(f, "{seat} was reincarnated on {at}"),
            Event::FlagPlaced { by: Some(seat), at } => write!(f, "{seat} placed a flag on {at}"),
            Event::FlagPlaced { by: None, at } => write!(f, "a flag was placed on {at}"),
        }
    }
}

/// A light-cycle as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CycleView {
    pub head: Cell,
    pub facing: Dir,
    /// Oldest square first; the last is beside the head.
    pub tail: Vec<Cell>,
    /// False for a wreck, which leaves the board at the end of the round.
    pub alive: bool,
}

impl CycleView {
    pub(super) fn of(cycle: &Cycle) -> CycleView {
        CycleView {
            head: cycle.head,
            facing: cycle.facing,
            tail: cycle.tail.iter().copied().collect(),
            alive: cycle.alive,
        }
    }
}

/// A flag on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FlagView {
    pub at: Cell,
    /// The player who placed it last and may not capture it (`None` for a setup flag or once
    /// that player has placed another).
    #[serde(serialize_with = "optional_seat_index")]
    pub barred: Option<Seat>,
    /// Who entered its square first this round, and captures it by surviving the round.
    #[serde(serialize_with = "optional_seat_index")]
    pub reached: Option<Seat>,
}

impl FlagView {
    pub(super) fn of(flag: &Flag) -> Option<FlagView> {
        Some(FlagView {
            at: flag.at?,
            barred: flag.owner,
            reached: flag.reached,
        })
    }
}

/// One seat as everyone sees it: its special cards only counted.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SeatView {
    pub score: i32,
    /// How many special cards it holds.
    pub specials: usize,
    /// `None` while off the board.
    pub cycle: Option<CycleView>,
    /// It must act now.
    pub to_act: bool,
    /// It has made its hidden choice of the current step (what it is stays hidden).
    pub chosen: bool,
}

/// What the game waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum StageView {
    /// Setup: the seat places its head.
    PlaceHead {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
    },
    /// Setup or reincarnation: the seat places its tail beside `head`.
    PlaceTail {
        #[serde(serialize_with = "seat_index")]
        seat: Seat,
        head: Cell,
    },
    /// Every seat on the board chooses its card in secret.
    Choose,
    /// The cards of this phase are being enacted: their players decide how.
    Enact {
        phase: Phase,
    },
    Over,
}

/// What one viewer may see: the board, scores and hand sizes, the cards turned over, and the
/// viewer's own hand and hidden choice only.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TronView {
    pub size: u8,
    /// The round being played, from 1; 0 during setup.
    pub round: u32,
    /// Points needed to win now.
    pub target: i32,
    pub over_drive: bool,
    pub stage: StageView,
    pub seats: Vec<SeatView>,
    pub flags: Vec<FlagView>,
    pub crushers: Vec<Line>,
    pub crushers_off_board: usize,
    /// Cards in the special deck.
    pub deck: usize,
    /// The cards turned over this round, per seat (kept until the next are turned over).
    pub played: Vec<Option<Card>>,
    /// What happened since the cards were last turned over.
    pub events: Vec<Event>,
    /// The viewer's own special cards; `None` for a spectator.
    pub hand: Option<Hand>,
    /// The viewer's own hidden choice of the current step.
    pub pending: Option<TronAction>,
    pub outcome: Option<Outcome>,
}

impl TronView {
    pub(super) fn of(game: &Tron, viewer: Viewer) -> TronView {
        let to_act = game.to_act();
        let own = match viewer {
            Viewer::Seat(seat) => game.players.get(seat.index()).map(|p| (seat, p.hand)),
            Viewer::Spectator => None,
        };
        let seats = game
            .seats()
            .zip(&game.players)
            .map(|(seat, player)| SeatView {
                score: player.score,
                specials: player.hand.len(),
                cycle: player.cycle.as_ref().map(CycleView::of),
                to_act: to_act.contains(seat),
                chosen: game.pending[seat.index()].is_some(),
            })
            .collect();
        let stage = match game.stage {
            Stage::PlaceHead(seat) => StageView::PlaceHead { seat },
            Stage::PlaceTail { seat, head } => StageView::PlaceTail { seat, head },
            Stage::Choose => StageView::Choose,
            Stage::Enact { phase, .. } => StageView::Enact { phase },
            Stage::Over => StageView::Over,
        };
        TronView {
            size: game.size(),
            round: game.round,
            target: game.target,
            over_drive: game.over_drive,
            stage,
            seats,
            flags: game.flags(),
            crushers: game.crushers(),
            crushers_off_board: game.crushers.iter().filter(|c| c.is_none()).count(),
            deck: game.deck.len(),
            played: game.played.clone(),
            events: game.events.clone(),
            hand: own.map(|(_, hand)| hand),
            pending: own.and_then(|(seat, _)| game.pending[seat.index()].map(|p| p.action())),
            outcome: game.outcome.clone(),
        }
    }
}

/// A seat's letter on the diagram: `A` for seat 0 (its head; its tail in lower case).
fn letter(seat: Seat) -> char {
    char::from(b'A' + seat.index() as u8)
}

impl Tron {
    /// The public state as text: the board, top row first (`A` seat 0's head, `a` its tail,
    /// `*` a flag, `.` an empty square, `|` and `-` crushers on the lines between squares),
    /// then each seat, the flags, the crushers and what the game waits for. Nothing private.
    pub fn diagram(&self) -> String {
        let size = self.size();
        let columns: String = (0..size)
            .map(|col| format!(" {}", char::from(b'a' + col)))
            .collect();
        let mut out = format!("  {columns}\n");
        let crusher_on =
            |line: Option<Line>| line.is_some_and(|l| self.crushers.contains(&Some(l)));
        for row in (0..size).rev() {
            let mut text = format!("{:>2} ", row + 1);
            for col in 0..size {
                let Some(cell) = Cell::new(col, row) else {
                    continue;
                };
                text.push(match self.square(cell) {
                    Square::Head(seat) => letter(seat),
                    Square::Tail(seat) => letter(seat).to_ascii_lowercase(),
                    Square::Empty if self.flag_at(cell).is_some() => '*',
                    Square::Empty => '.',
                });
                let east = Cell::new(col + 1, row).and_then(|next| Line::between(cell, next));
                text.push(if crusher_on(east) { '|' } else { ' ' });
            }
            out.push_str(text.trim_end());
            out.push('\n');
            let below = (0..size).map(|col| {
                let (Some(cell), Some(south)) = (Cell::new(col, row), row.checked_sub(1)) else {
                    return false;
                };
                crusher_on(Cell::new(col, south).and_then(|s| Line::between(cell, s)))
            });
            let marks: String = below.map(|c| if c { "- " } else { "  " }).collect();
            if marks.contains('-') {
                out.push_str(&format!("   {}\n", marks.trim_end()));
            }
        }
        out.push_str(&format!("  {columns}\n"));
        for (seat, player) in self.seats().zip(&self.players) {
            let _ = write!(
                out,
                "{} = {seat}: {} points, {} special cards, ",
                letter(seat),
                player.score,
                player.hand.len()
            );
            match &player.cycle {
                Some(cycle) => {
                    let _ = write!(
                        out,
                        "head {} facing {}, tail {}",
                        cycle.head,
                        cycle.facing,
                        cycle.tail.len()
                    );
                    if !cycle.alive {
                        out.push_str(", destroyed");
                    }
                }
                None => out.push_str("off the board"),
            }
            out.push('\n');
        }
        let flags: Vec<String> = self
            .flags()
            .iter()
            .map(|flag| match flag.barred {
                Some(seat) => format!("{} (not for {seat})", flag.at),
                None => flag.at.to_string(),
            })
            .collect();
        let _ = writeln!(out, "flags: {}", flags.join(", "));
        let crushers: Vec<String> = self.crushers().iter().map(Line::to_string).collect();
        let _ = writeln!(
            out,
            "crushers: {} ({} off the board)",
            if crushers.is_empty() {
                "none".to_string()
            } else {
                crushers.join(", ")
            },
            self.crushers.iter().filter(|c| c.is_none()).count()
        );
        let mode = if self.over_drive {
            "over-drive"
        } else {
            "normal mode"
        };
        let _ = write!(
            out,
            "round {}, {mode}, target {}: ",
            self.round, self.target
        );
        let waiting: Vec<String> = self.to_act().iter().map(|s| s.to_string()).collect();
        let waiting = waiting.join(", ");
        let _ = match self.stage {
            Stage::PlaceHead(_) => writeln!(out, "{waiting} places a head"),
            Stage::PlaceTail { head, .. } => {
                writeln!(out, "{waiting} places a tail beside {head}")
            }
            Stage::Choose => writeln!(out, "{waiting} to choose a card"),
            Stage::Enact { phase, .. } => writeln!(out, "{phase}: {waiting} to decide"),
            Stage::Over => match &self.outcome {
                Some(outcome) => writeln!(
                    out,
                    "over ({}), places {:?}",
                    outcome.reason(),
                    outcome.places()
                ),
                None => writeln!(out, "over"),
            },
        };
        out
    }
}
