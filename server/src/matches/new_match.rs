//! A new match: everything chosen when it is created, built and checked here whoever opens it
//! (a player's create, a game against the AI, the queue's pairing, a tournament's round), so
//! that a match the store is given is always one the engine plays.

use protocol::{ClockSpec, CreateMatch, ErrorCode, Visibility};

use super::hosted::settle;
use crate::error::{ApiError, ApiResult};
use crate::player::Player;

/// Everything chosen when a match is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub rated: bool,
    /// Whether a rated match allows takebacks by agreement, as its players chose (casual ones
    /// always do: see [`NewMatch::allows_takebacks`]).
    pub takebacks: bool,
    /// No clock for correspondence play.
    pub clock: Option<ClockSpec>,
    pub private: bool,
    /// A private match's code, which whoever joins or watches it must give.
    pub invite: Option<String>,
    /// One connection plays every seat.
    pub hotseat: bool,
    /// The match's chance (dice, shuffles): its log replays from it.
    pub seed: u64,
    pub created_ms: i64,
}

/// A day, the longest base time a clock may have.
const DAY_MS: u64 = 24 * 3600 * 1000;
/// An hour, the largest increment.
const HOUR_MS: u64 = 3600 * 1000;

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
        if let Some(clock) = clock
            && (clock.base_ms == 0 || clock.base_ms > DAY_MS || clock.increment_ms > HOUR_MS)
        {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "a clock has 1 ms to 24 h of base time and at most 1 h of increment",
            ));
        }
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
            seed: rand::random(),
            created_ms: now_ms,
        })
    }

    /// The match a player asks to create: private ones get an invite code; hot-seat ones are
    /// casual.
    pub fn created(spec: &CreateMatch, now_ms: i64) -> ApiResult<NewMatch> {
        if spec.rated && spec.hotseat {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
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

    /// Whether its players may take actions back by agreement: always in a casual match, in a
    /// rated one only if it was created allowing it.
    pub fn allows_takebacks(&self) -> bool {
        !self.rated || self.takebacks
    }

    /// Checks that a seat is one of the match's.
    pub fn seat(&self, seat: u8) -> ApiResult<u8> {
        if seat >= self.seats {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
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
