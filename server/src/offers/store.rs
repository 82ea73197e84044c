//! The offers wing in the database (`migrations/*/0005_offers.sql`): the challenges waiting for
//! an answer (whom each player follows and takes challenges from is the accounts wing's: see
//! `accounts/follows.rs` and `accounts/settings.rs`). A challenge's row
//! goes when it ends, so the table holds only those that stand, one per challenger and
//! challenged at most.

use protocol::ErrorReason;
use protocol::{ChallengeId, ClockSpec, PlayerId};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::accounts::player::Player;
use crate::store::{Store, StoreResult, flag, player_from, unique};

/// A challenge as stored, with both players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    pub id: ChallengeId,
    pub from: Player,
    pub to: Player,
    pub game: String,
    pub variant: String,
    /// The challenger's seat.
    pub seat: u8,
    pub rated: bool,
    /// Whether the match, if rated, allows takebacks by agreement.
    pub takebacks: bool,
    pub clock: Option<ClockSpec>,
    pub two_games: bool,
    pub expires_ms: i64,
}

impl StoredChallenge {
    pub fn wire(&self) -> protocol::Challenge {
        protocol::Challenge {
            id: self.id,
            from: self.from.public(),
            to: self.to.public(),
            game: self.game.clone(),
            variant: self.variant.clone(),
            seat: self.seat,
            rated: self.rated,
            takebacks: self.takebacks,
            clock: self.clock,
            two_games: self.two_games,
            expires_ms: self.expires_ms,
        }
    }
}

/// A challenge to store: who, whom, and the match they would play.
pub struct NewChallenge<'a> {
    pub from: &'a Player,
    pub to: &'a Player,
    pub game: &'a str,
    pub variant: &'a str,
    pub seat: u8,
    pub rated: bool,
    pub takebacks: bool,
    pub clock: Option<ClockSpec>,
    pub two_games: bool,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// Both players of a challenge, each column prefixed `f_` (from) or `t_` (to).
const CHALLENGE_COLUMNS: &str = "c.id, c.game, c.variant, c.seat, c.rated, c.takebacks,
    c.clock_base_ms, c.clock_increment_ms, c.clock_per_move, c.two_games, c.expires_ms,
    f.id AS f_id, f.name AS f_name, f.password_hash AS f_password_hash, f.guest AS f_guest,
    t.id AS t_id, t.name AS t_name, t.password_hash AS t_password_hash, t.guest AS t_guest
    FROM challenges c JOIN players f ON f.id = c.challenger_id
    JOIN players t ON t.id = c.challenged_id";

fn challenge_from(row: &AnyRow) -> sqlx::Result<StoredChallenge> {
    let base: Option<i64> = row.try_get("clock_base_ms")?;
    let increment: Option<i64> = row.try_get("clock_increment_ms")?;
    let per_move = row.try_get::<i64, _>("clock_per_move")? != 0;
    Ok(StoredChallenge {
        id: ChallengeId(row.try_get("id")?),
        from: player_from(row, "f_")?,
        to: player_from(row, "t_")?,
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        seat: row.try_get::<i64, _>("seat")? as u8,
        rated: row.try_get::<i64, _>("rated")? != 0,
        takebacks: row.try_get::<i64, _>("takebacks")? != 0,
        clock: base.zip(increment).map(|(b, i)| ClockSpec {
            base_ms: b as u64,
            increment_ms: i as u64,
            per_move,
        }),
        two_games: row.try_get::<i64, _>("two_games")? != 0,
        expires_ms: row.try_get("expires_ms")?,
    })
}

impl Store {
    /// Stores a challenge; `Conflict` when its challenger has one standing to the same player.
    pub async fn create_challenge(&self, new: &NewChallenge<'_>) -> StoreResult<ChallengeId> {
        let row = sqlx::query(
            "INSERT INTO challenges (challenger_id, challenged_id, game, variant, seat, rated,
                 clock_base_ms, clock_increment_ms, clock_per_move, created_ms, expires_ms,
                 two_games, takebacks)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
        )
        .bind(new.from.id.0)
        .bind(new.to.id.0)
        .bind(new.game)
        .bind(new.variant)
        .bind(i32::from(new.seat))
        .bind(flag(new.rated))
        .bind(new.clock.map(|c| c.base_ms as i64))
        .bind(new.clock.map(|c| c.increment_ms as i64))
        .bind(flag(new.clock.is_some_and(|c| c.per_move)))
        .bind(new.created_ms)
        .bind(new.expires_ms)
        .bind(flag(new.two_games))
        .bind(flag(new.takebacks))
        .fetch_one(&self.pool)
        .await
        .map_err(unique(ErrorReason::Conflict, || {
            format!(
                "you have challenged {} already: wait for their answer",
                new.to.name
            )
        }))?;
        Ok(ChallengeId(row.try_get("id")?))
    }

    /// A challenge that stands at `now_ms`: one whose time is up has ended, even before the
    /// expiry (which may not have run yet, after a restart) has forgotten it.
    pub async fn challenge(
        &self,
        id: ChallengeId,
        now_ms: i64,
    ) -> StoreResult<Option<StoredChallenge>> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHALLENGE_COLUMNS} WHERE c.id = $1 AND c.expires_ms > $2"
        )))
        .bind(id.0)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| challenge_from(&r)).transpose()?)
    }

    /// The challenges standing at `now_ms` that a player made or was sent, oldest first.
    pub async fn challenges_of(
        &self,
        player: PlayerId,
        now_ms: i64,
    ) -> StoreResult<Vec<StoredChallenge>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHALLENGE_COLUMNS}
             WHERE (c.challenger_id = $1 OR c.challenged_id = $1) AND c.expires_ms > $2
             ORDER BY c.id"
        )))
        .bind(player.0)
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(challenge_from)
            .collect::<sqlx::Result<_>>()?)
    }

    /// The challenges that have expired by `now_ms`.
    pub async fn expired_challenges(&self, now_ms: i64) -> StoreResult<Vec<StoredChallenge>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHALLENGE_COLUMNS} WHERE c.expires_ms <= $1 ORDER BY c.id"
        )))
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(challenge_from)
            .collect::<sqlx::Result<_>>()?)
    }

    /// When the next challenge expires, if one stands.
    pub async fn next_challenge_expiry(&self) -> StoreResult<Option<i64>> {
        let row = sqlx::query("SELECT MIN(expires_ms) AS next FROM challenges")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("next")?)
    }

    pub async fn delete_challenge(&self, id: ChallengeId) -> StoreResult<()> {
        sqlx::query("DELETE FROM challenges WHERE id = $1")
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
