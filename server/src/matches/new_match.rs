//! A new match: everything chosen when it is created, built and checked here whoever opens it
//! (a player's create, a game against the AI, the queue's pairing, a tournament's round), so
//! that a match the store is given is always one the engine plays.

use protocol::{ClockSpec, CreateMatch, DAY_MS, ErrorReason, MatchId, TimeControl, Visibility};
use tokio::sync::mpsc;

use super::hosted::settle;
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::series::InSeries;

/// Everything chosen when a match is created.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NewMatch {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub rated: bool,
    /// Whether a rated match allows takebacks by agreement, as its players chose (casual ones
    /// always do: see [`NewMatch::allows_takebacks`]).
    pub takebacks: bool,
    /// A Fischer clock, or a per-move clock of days (correspondence); none for an untimed
    /// match.
    pub clock: Option<ClockSpec>,
    pub private: bool,
    /// A private match's code, which whoever joins or watches it must give.
    pub invite: Option<String>,
    /// One connection plays every seat.
    pub hotseat: bool,
    /// The first game of a two-game match (a series): a second follows with the sides
    /// swapped. Two-seat matches only.
    pub two_games: bool,
    /// The match's chance (dice, shuffles): its log replays from it.
    pub seed: u64,
    pub created_ms: i64,
}

/// An hour, the largest increment of a Fischer clock.
const HOUR_MS: u64 = 3600 * 1000;

/// The most days a move on a per-move clock may take.
const MOST_DAYS_PER_MOVE: u64 = 14;

/// The day a server counts correspondence in: 24 hours, or shorter in tests (`--day-ms`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Day(pub u64);

impl Day {
    /// A time control's clock, the days of a per-move one counted in this day.
    pub fn clock(self, control: TimeControl) -> ClockSpec {
        let clock = control.clock();
        match clock.per_move {
            true => ClockSpec {
                base_ms: clock.base_ms / DAY_MS * self.0,
                ..clock
            },
            false => clock,
        }
    }
}

/// Checks a clock a match is asked with: a Fischer clock of at most a day and an increment of
/// at most an hour, or a per-move clock of at most [`MOST_DAYS_PER_MOVE`] (in real days: a
/// test's shorter day makes short clocks, not long ones) without increment.
fn check_clock(clock: ClockSpec) -> ApiResult<ClockSpec> {
    let refused = |why: String| Err(ApiError::new(ErrorReason::BadRequest, why));
    match clock.per_move {
        true if clock.base_ms == 0 || clock.base_ms > MOST_DAYS_PER_MOVE * DAY_MS => refused(
            format!("a per-move clock has 1 ms to {MOST_DAYS_PER_MOVE} days a move"),
        ),
        true if clock.increment_ms != 0 => {
            refused("a per-move clock is full again after each move: its increment_ms is 0".into())
        }
        false if clock.base_ms == 0 || clock.base_ms > DAY_MS || clock.increment_ms > HOUR_MS => {
            refused("a clock has 1 ms to 24 h of base time and at most 1 h of increment".into())
        }
        _ => Ok(clock),
    }
}

impl NewMatch {
    /// A listed match of `game`, its variant and seat count checked by the engine (defaults
    /// where `None`), with a new seed.
    pub fn new(
        game: &str,
        variant: Option<&str>,
        seats: Option<u8>,
        rated: bool,
        clock: Option<ClockSpec>,
        now_ms: i64,
    ) -> ApiResult<NewMatch> {
        let settled = settle(game, variant, seats, rated)?;
        let clock = clock.map(check_clock).transpose()?;
        Ok(NewMatch {
            game: game.to_string(),
            variant: settled.variant,
            seats: settled.seats,
            rated,
            takebacks: false,
            clock,
            private: false,
            invite: None,
            hotseat: false,
            two_games: false,
            seed: rand::random(),
            created_ms: now_ms,
        })
    }

    /// The match a player asks to create: private ones get an invite code; hot-seat ones are
    /// casual.
    pub fn created(spec: &CreateMatch, now_ms: i64) -> ApiResult<NewMatch> {
        if spec.rated && spec.hotseat {
            return Err(ApiError::new(
                ErrorReason::HotSeatRated,
                "hot-seat matches are casual; set rated to false",
            ));
        }
        let mut new = NewMatch::new(
            &spec.game,
            spec.variant.as_deref(),
            spec.seats,
            spec.rated,
            spec.clock,
            now_ms,
        )?;
        new.private = spec.visibility == Visibility::Private;
        new.invite = new.private.then(invite_code);
        new.hotseat = spec.hotseat;
        new.takebacks = spec.takebacks;
        Ok(new)
    }

    /// The same match again, for a rematch: a new seed, and a new invite code for a private one.
    pub fn again(&self, now_ms: i64) -> NewMatch {
        NewMatch {
            invite: self.private.then(invite_code),
            seed: rand::random(),
            created_ms: now_ms,
            ..self.clone()
        }
    }

    /// Makes the match the first of a two-game match when `two_games`: only two can swap
    /// sides.
    pub fn in_two_games(mut self, two_games: bool) -> ApiResult<NewMatch> {
        if two_games && self.seats != 2 {
            return Err(ApiError::new(
                ErrorReason::TwoGamesForTwo,
                "a two-game match is for two players",
            ));
        }
        self.two_games = two_games;
        Ok(self)
    }

    /// Whether its players may take actions back by agreement: always in a casual match, in a
    /// rated one only if it was created allowing it.
    pub fn allows_takebacks(&self) -> bool {
        !self.rated || self.takebacks
    }

    /// Checks that a seat is one of the match's.
    pub fn seat(&self, seat: u8) -> ApiResult<u8> {
        if seat >= self.seats {
            return Err(ApiError::new(
                ErrorReason::NoSuchSeat { seat },
                format!("there is no seat {seat}"),
            ));
        }
        Ok(seat)
    }
}

/// A new match with the players who sit in it from the start, as it is stored and its room
/// started: in one transaction with its seats, so that nothing stored is read back.
pub struct Opening {
    pub spec: NewMatch,
    pub seating: Vec<(u8, Player)>,
    /// Why a rated match is played casual (the rated games between the same players), told
    /// to its followers before it starts.
    pub unrated: Option<String>,
    pub in_tournament: bool,
    /// A game of a series: the series and which game. Set for a second game; for a first one
    /// (`spec.two_games`) the series is made when the match is stored, and set then.
    pub series: Option<InSeries>,
}

impl Opening {
    /// Every seat taken from the start: the match is live at once.
    pub fn full(&self) -> bool {
        self.seating.len() == usize::from(self.spec.seats)
    }

    /// The events the match opens with, each seat's `seat_taken`, then for a full match
    /// `unrated` (if played casual) and `started`: its event count when stored.
    pub fn events(&self) -> u64 {
        let start = if self.full() {
            1 + u64::from(self.unrated.is_some())
        } else {
            0
        };
        self.seating.len() as u64 + start
    }
}

/// A private match's code: 12 characters that cannot be misread for one another.
fn invite_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    rand::random::<[u8; 12]>()
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// Where rooms send the second game of a series they stored, to have its room started
/// (`series::next_game`).
pub type NextGames = mpsc::UnboundedSender<(MatchId, Opening)>;
