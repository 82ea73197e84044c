//! A matchmaking pool: which game, variant, seats, time control, rated or casual, and one or
//! two games, as a player asks to wait in it.

use protocol::{ErrorReason, TimeControl};

use crate::error::{ApiError, ApiResult};
use crate::matches::NewMatch;
use crate::matches::hosted::settle;
use crate::matches::new_match::Day;

/// A matchmaking pool.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Pool {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub time_control: TimeControl,
    pub rated: bool,
    pub two_games: bool,
}

impl Pool {
    /// The pool a player asks to wait in, checked now rather than at pairing time: a named
    /// variant of a game (its first when none is named), for its seat count.
    pub fn new(
        game: &str,
        variant: Option<&str>,
        seats: Option<u8>,
        time_control: TimeControl,
        rated: bool,
        two_games: bool,
    ) -> ApiResult<Pool> {
        let settled = settle(game, variant, seats, rated)?;
        if !settled.named {
            return Err(ApiError::new(
                ErrorReason::QueueNamedVariants,
                "the queue pairs players in named variants only: create a match for a custom one",
            ));
        }
        if two_games && settled.seats != 2 {
            return Err(ApiError::new(
                ErrorReason::TwoGamesForTwo,
                "a two-game match is for two players",
            ));
        }
        Ok(Pool {
            game: game.to_string(),
            variant: settled.variant,
            seats: settled.seats,
            time_control,
            rated,
            two_games,
        })
    }

    /// A match for a group of this pool, its correspondence days counted in `day`.
    pub(super) fn new_match(&self, day: Day) -> ApiResult<NewMatch> {
        let clock = Some(day.clock(self.time_control));
        let (variant, seats) = (Some(self.variant.as_str()), Some(self.seats));
        NewMatch::new(
            &self.game,
            variant,
            seats,
            self.rated,
            clock,
            crate::clock::now_ms(),
        )?
        .in_two_games(self.two_games)
    }

    /// The rating pool (`game/variant`) this queue pool is rated in.
    pub fn rating_pool(&self) -> String {
        format!("{}/{}", self.game, self.variant)
    }

    /// Its labels on the `tafl_queue_waiting` gauge: game, variant, seats, time control, rated.
    pub(super) fn metric_labels(&self) -> [String; 5] {
        [
            self.game.clone(),
            self.variant.clone(),
            self.seats.to_string(),
            crate::metrics::wire_name(self.time_control),
            self.rated.to_string(),
        ]
    }
}
