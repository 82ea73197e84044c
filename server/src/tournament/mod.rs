//! Tournament logic for two-seat games: who plays whom, and who stands where. The pairing and
//! standings modules below are pure: no I/O, no async, no clock. A tournament actor owns the
//! state, creates the matches they ask for and feeds their results back.
//!
//! - [`round_robin`]: Berger tables, single or double, a bye each round for an odd field.
//! - [`swiss`]: score groups, no rematches, side balance, at most one bye per player, solved as a
//!   maximum-weight matching.
//! - [`knockout`]: a seeded bracket, byes for the top seeds, a decider game on a draw.
//! - [`standings`]: points, Buchholz, Sonneborn-Berger, shared ranks.
//!
//! Everything here is `Serialize`/`Deserialize`, so a tournament's state can be kept as JSON.
//!
//! Running tournaments on the server builds on that: [`plan`] says what to do next from what is
//! stored, [`store`] keeps tournaments in the database, [`director`] is the actor that starts
//! them, opens their matches and records their results, and [`http`] is their REST API.

pub mod director;
pub mod http;
pub mod knockout;
pub mod plan;
pub mod round_robin;
pub mod standings;
pub mod store;
pub mod swiss;

use serde::{Deserialize, Serialize};

/// The time control of a tournament that names none. Every tournament game needs a clock (see
/// `http::create`); tournaments stored before that rule have none and play at this one.
pub const DEFAULT_TIME_CONTROL: protocol::TimeControl = protocol::TimeControl::Rapid;

/// An entrant's number in its tournament: its index in the tournament's list of entrants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u32);

impl EntrantId {
    /// The index into the tournament's list of entrants.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for EntrantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One entrant as the pairing logic sees it: who, and how strong (for seeding and ordering).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    pub id: EntrantId,
    /// The rating the tournament seeds by (usually the Elo in the tournament's pool).
    pub rating: f64,
}

impl Entrant {
    pub fn new(id: u32, rating: f64) -> Entrant {
        Entrant {
            id: EntrantId(id),
            rating,
        }
    }
}

/// One game to play: who sits in seat 0 and who in seat 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    pub seat0: EntrantId,
    pub seat1: EntrantId,
}

impl Pairing {
    pub fn new(seat0: EntrantId, seat1: EntrantId) -> Pairing {
        Pairing { seat0, seat1 }
    }

    /// The same two entrants with the seats swapped.
    pub fn reversed(self) -> Pairing {
        Pairing {
            seat0: self.seat1,
            seat1: self.seat0,
        }
    }

    pub fn seats(self) -> [EntrantId; 2] {
        [self.seat0, self.seat1]
    }

    pub fn involves(self, entrant: EntrantId) -> bool {
        self.seat0 == entrant || self.seat1 == entrant
    }

    /// The seat `entrant` sits in (0 or 1), if it plays this game.
    pub fn seat_of(self, entrant: EntrantId) -> Option<usize> {
        self.seats().iter().position(|&e| e == entrant)
    }

    /// Whom `entrant` plays in this game, if it plays.
    pub fn opponent_of(self, entrant: EntrantId) -> Option<EntrantId> {
        self.seat_of(entrant).map(|seat| self.seats()[1 - seat])
    }

    /// Whether both games are between the same two entrants, whatever the seats.
    pub fn same_entrants(self, other: Pairing) -> bool {
        self == other || self == other.reversed()
    }
}

/// How a game ended, from seat 0's side: `Win` means seat 0 won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// The same result seen from seat 1's side.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// The points the seat whose result this is scores: 1, 0.5 or 0.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// Points in halves (2, 1 or 0), for exact arithmetic.
    pub(crate) fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// A played game: the pairing and how it ended (for seat 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    pub pairing: Pairing,
    pub outcome: Outcome,
}

impl GameResult {
    pub fn new(pairing: Pairing, outcome: Outcome) -> GameResult {
        GameResult { pairing, outcome }
    }

    /// How the game ended for `entrant`, if it played.
    pub fn outcome_for(self, entrant: EntrantId) -> Option<Outcome> {
        match self.pairing.seat_of(entrant)? {
            0 => Some(self.outcome),
            _ => Some(self.outcome.reversed()),
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<EntrantId> {
        match self.outcome {
            Outcome::Win => Some(self.pairing.seat0),
            Outcome::Draw => None,
            Outcome::Loss => Some(self.pairing.seat1),
        }
    }
}

/// One round to play: its games and the entrants who sit it out with a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based.
    pub number: u32,
    /// In board order: the first game is the top board.
    pub games: Vec<Pairing>,
    pub byes: Vec<EntrantId>,
}

impl Round {
    /// Whether `entrant` plays a game or has a bye in this round.
    pub fn includes(&self, entrant: EntrantId) -> bool {
        self.byes.contains(&entrant) || self.games.iter().any(|g| g.involves(entrant))
    }

    /// The round as played, with every game's outcome in board order. `None` when the number of
    /// outcomes is not the number of games.
    pub fn played(&self, outcomes: &[Outcome]) -> Option<PlayedRound> {
        (outcomes.len() == self.games.len()).then(|| PlayedRound {
            number: self.number,
            games: self
                .games
                .iter()
                .zip(outcomes)
                .map(|(&pairing, &outcome)| GameResult { pairing, outcome })
                .collect(),
            byes: self.byes.clone(),
        })
    }
}

/// One finished round: every game's result and the byes. A bye scores as a win.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedRound {
    /// 1-based.
    pub number: u32,
    pub games: Vec<GameResult>,
    pub byes: Vec<EntrantId>,
}

/// Entrants strongest first: by rating, then by id (lower first) so the order is total.
pub(crate) fn by_rating(a: &Entrant, b: &Entrant) -> std::cmp::Ordering {
    b.rating.total_cmp(&a.rating).then(a.id.cmp(&b.id))
}
