//! Players' vacations: while a player is on vacation, the per-move clocks of their
//! correspondence matches stand still, for at most an allowance in any 365 days. A vacation is
//! stored as a stretch of time whose end is set when it starts (when the allowance left would
//! run out) and moved earlier if the player comes back sooner, so that one running out needs no
//! writer, and a room restored at any time can tell how long a turn's player was away. A
//! vacation lasts at least a day once taken: switching on and off would otherwise stop and start
//! the clocks of every correspondence match of the player over and over, each time an event for
//! all their followers.

use protocol::{ErrorReason, PlayerId, VacationState};
use sqlx::Row;

use crate::error::{ApiError, ApiResult};
use crate::store::{Store, StoreResult, unique};

/// One vacation: from `from_ms` to `until_ms` (milliseconds since the Unix epoch).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stretch {
    pub from_ms: i64,
    pub until_ms: i64,
}

/// A player's vacations, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vacations(pub Vec<Stretch>);

impl Vacations {
    /// The time spent on vacation between `from_ms` and `to_ms`.
    pub fn within(&self, from_ms: i64, to_ms: i64) -> i64 {
        self.0
            .iter()
            .map(|s| (s.until_ms.min(to_ms) - s.from_ms.max(from_ms)).max(0))
            .sum()
    }

    /// The vacation the player is on at `now_ms`, if any.
    pub fn current(&self, now_ms: i64) -> Option<Stretch> {
        self.0
            .iter()
            .find(|s| s.from_ms <= now_ms && now_ms < s.until_ms)
            .copied()
    }

    /// When the vacation the player is on at `now_ms` ends, if they are on one.
    pub fn until(&self, now_ms: i64) -> Option<i64> {
        self.current(now_ms).map(|s| s.until_ms)
    }
}

/// How much vacation a player has: `allowance_ms` in any `year_ms`, each vacation lasting at
/// least `least_ms`.
#[derive(Copy, Clone, Debug)]
pub struct Allowance {
    pub allowance_ms: i64,
    pub year_ms: i64,
    pub least_ms: i64,
}

impl Allowance {
    /// The server's: `--vacation-days` in 365 days, counted in its day (`--day-ms`).
    pub fn of(config: &crate::config::Config) -> Allowance {
        let day = config.day_ms as i64;
        Allowance {
            allowance_ms: config.vacation_days as i64 * day,
            year_ms: 365 * day,
            least_ms: day,
        }
    }

    /// Since when the vacations counted against the allowance at `now_ms` reach.
    pub fn year_before(&self, now_ms: i64) -> i64 {
        now_ms - self.year_ms
    }

    /// The vacation time left at `now_ms`.
    pub fn left(&self, vacations: &Vacations, now_ms: i64) -> i64 {
        let used = vacations.within(self.year_before(now_ms), now_ms);
        (self.allowance_ms - used).max(0)
    }

    /// The earliest the player on vacation at `now_ms` may come back: once it has lasted
    /// `least_ms`, or when it ends by itself if that is sooner.
    pub fn back_from(&self, vacations: &Vacations, now_ms: i64) -> Option<i64> {
        let stretch = vacations.current(now_ms)?;
        Some((stretch.from_ms + self.least_ms).min(stretch.until_ms))
    }

    /// Refuses a player's coming back at `now_ms` before their vacation has lasted its least.
    pub fn may_come_back(&self, vacations: &Vacations, now_ms: i64) -> ApiResult<()> {
        match self.back_from(vacations, now_ms) {
            Some(back_from) if now_ms < back_from => Err(ApiError::new(
                ErrorReason::VacationTooShort {
                    minutes: (back_from - now_ms + 59_999) as u64 / 60_000,
                },
                format!(
                    "a vacation lasts at least a day: you may come back in {}",
                    wait_text(back_from - now_ms)
                ),
            )),
            _ => Ok(()),
        }
    }

    /// A player's vacation as the REST API shows it.
    pub fn state(&self, vacations: &Vacations, now_ms: i64) -> VacationState {
        let until = vacations.until(now_ms);
        VacationState {
            on: until.is_some(),
            until_ms: until,
            back_from_ms: self.back_from(vacations, now_ms),
            left_ms: self.left(vacations, now_ms),
            allowance_ms: self.allowance_ms,
        }
    }
}

/// A wait for people: seconds under a minute, else hours and minutes (rounded up, so that
/// coming back when told is never too soon).
fn wait_text(ms: i64) -> String {
    if ms < 60_000 {
        return format!("{} s", (ms + 999) / 1000);
    }
    let minutes = (ms + 59_999) / 60_000;
    match minutes / 60 {
        0 => format!("{minutes} min"),
        hours => format!("{hours} h {} min", minutes % 60),
    }
}

impl Store {
    /// A player's vacations that end after `since_ms`, oldest first.
    pub async fn vacations_of(&self, player: PlayerId, since_ms: i64) -> StoreResult<Vacations> {
        let rows = sqlx::query(
            "SELECT from_ms, until_ms FROM vacations
             WHERE player_id = $1 AND until_ms > $2 ORDER BY from_ms",
        )
        .bind(player.0)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        let stretches = rows
            .iter()
            .map(|r| {
                Ok(Stretch {
                    from_ms: r.try_get("from_ms")?,
                    until_ms: r.try_get("until_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok(Vacations(stretches))
    }

    /// Starts a vacation that ends by itself at `until_ms`.
    pub async fn start_vacation(
        &self,
        player: PlayerId,
        from_ms: i64,
        until_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query("INSERT INTO vacations (player_id, from_ms, until_ms) VALUES ($1, $2, $3)")
            .bind(player.0)
            .bind(from_ms)
            .bind(until_ms)
            .execute(&self.pool)
            .await
            .map_err(unique(ErrorReason::Conflict, || {
                "a vacation just ended: try again".to_string()
            }))?;
        Ok(())
    }

    /// Ends the vacation a player is on at `now_ms`.
    pub async fn end_vacation(&self, player: PlayerId, now_ms: i64) -> StoreResult<()> {
        sqlx::query(
            "UPDATE vacations SET until_ms = $2
             WHERE player_id = $1 AND from_ms <= $2 AND until_ms > $2",
        )
        .bind(player.0)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const YEAR: Allowance = Allowance {
        allowance_ms: 100,
        year_ms: 1000,
        least_ms: 10,
    };

    #[test]
    fn vacation_time_is_counted_within_a_window() {
        let v = Vacations(vec![
            Stretch {
                from_ms: 10,
                until_ms: 30,
            },
            Stretch {
                from_ms: 50,
                until_ms: 90,
            },
        ]);
        assert_eq!(v.within(0, 100), 60);
        assert_eq!(v.within(20, 60), 20);
        assert_eq!(v.within(95, 200), 0);
        assert_eq!(v.until(60), Some(90));
        assert_eq!(v.until(90), None);
    }

    #[test]
    fn the_allowance_counts_the_last_year_only() {
        let v = Vacations(vec![Stretch {
            from_ms: 0,
            until_ms: 80,
        }]);
        assert_eq!(YEAR.left(&v, 100), 20);
        // A year on, the old vacation has rolled out of the window.
        assert_eq!(YEAR.left(&v, 1040), 60);
        assert_eq!(YEAR.left(&v, 2000), 100);
        let state = YEAR.state(&v, 50);
        assert!(state.on);
        assert_eq!(state.until_ms, Some(80));
    }

    #[test]
    fn a_vacation_lasts_its_least_unless_it_runs_out_sooner() {
        let v = Vacations(vec![
            Stretch {
                from_ms: 0,
                until_ms: 80,
            },
            Stretch {
                from_ms: 100,
                until_ms: 105,
            },
        ]);
        assert_eq!(YEAR.back_from(&v, 5), Some(10));
        assert!(YEAR.may_come_back(&v, 5).is_err());
        assert!(YEAR.may_come_back(&v, 10).is_ok());
        assert_eq!(YEAR.back_from(&v, 102), Some(105));
        assert_eq!(YEAR.back_from(&v, 90), None);
        assert!(YEAR.may_come_back(&v, 90).is_ok());
    }

    #[test]
    fn a_wait_reads_in_seconds_or_hours_and_minutes_rounded_up() {
        assert_eq!(wait_text(1), "1 s");
        assert_eq!(wait_text(59_000), "59 s");
        assert_eq!(wait_text(60_000), "1 min");
        assert_eq!(wait_text(61_000), "2 min");
        assert_eq!(wait_text(86_400_000 - 1), "24 h 0 min");
        assert_eq!(wait_text(83_520_000), "23 h 12 min");
    }
}
