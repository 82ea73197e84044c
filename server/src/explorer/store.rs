//! The explorer's counts of the server's games (`explorer_moves`) and the finished games waiting
//! to be counted (`explorer_pending`, written with each tafl result in `matches/store/results.rs`).
//! Each game is counted once: the transaction that adds its moves removes it from the queue, and
//! one that finds it gone (another node counted it) adds nothing.

use protocol::MatchId;
use sqlx::Row;

use super::line::{Step, steps};
use super::{Ended, PLIES, Tally, band_of, speed_code, speed_of};
use crate::ratings;
use crate::store::{Store, StoreResult};

/// One stored row of a position: a move in one time control and rating band.
pub struct Counted {
    pub action: String,
    pub speed: i32,
    pub band: u32,
    pub tally: Tally,
}

/// A finished game as the explorer counts it.
pub struct Game<'a> {
    pub variant: &'a str,
    pub steps: &'a [Step],
    pub speed: i32,
    pub band: u32,
    pub ended: Ended,
    /// The players' average rating, rounded.
    pub rating: u64,
}

impl Store {
    /// Counts up to `limit` waiting games; returns how many were taken from the queue.
    pub async fn explorer_count_pending(&self, limit: i64) -> StoreResult<usize> {
        let ids: Vec<i64> =
            sqlx::query("SELECT match_id FROM explorer_pending ORDER BY match_id LIMIT $1")
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
        for &id in &ids {
            self.explorer_count_one(MatchId(id)).await?;
        }
        Ok(ids.len())
    }

    async fn explorer_count_one(&self, id: MatchId) -> StoreResult<()> {
        let stored = self.load_match(id).await?;
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query("DELETE FROM explorer_pending WHERE match_id = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let counted = stored.as_ref().and_then(|m| {
            let ended = Ended::of_places(&m.result.as_ref()?.0)?;
            let actions = m.actions();
            let line = steps(&m.spec.variant, actions.iter().map(|a| a.action.as_str())).ok()?;
            Some((m, ended, line))
        });
        if let (1, Some((m, ended, line))) = (taken, counted) {
            let pool = format!("{}/{}", m.spec.game, m.spec.variant);
            let ratings: Vec<f64> = sqlx::query(
                "SELECT COALESCE(c.rating_before, r.rating) AS rating
                 FROM match_seats s
                 LEFT JOIN rating_changes c ON c.match_id = s.match_id AND c.seat = s.seat
                 LEFT JOIN ratings r ON r.player_id = s.player_id AND r.pool = $2
                 WHERE s.match_id = $1",
            )
            .bind(id.0)
            .bind(&pool)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| row.try_get::<Option<f64>, _>(0))
            .map(|rating| rating.map(|r| r.unwrap_or(ratings::INITIAL)))
            .collect::<Result<_, _>>()?;
            let average = if ratings.is_empty() {
                ratings::INITIAL
            } else {
                ratings.iter().sum::<f64>() / ratings.len() as f64
            };
            let game = Game {
                variant: &m.spec.variant,
                steps: &line,
                speed: speed_code(speed_of(m.spec.clock)),
                band: band_of(average),
                ended,
                rating: average.round().max(0.0) as u64,
            };
            count_game(&mut tx, &game).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every row of a position of `variant`: a few hundred at most (its moves, in each time
    /// control and band), found by the primary key's prefix.
    pub async fn explorer_rows(&self, variant: &str, position: u64) -> StoreResult<Vec<Counted>> {
        let rows = sqlx::query(
            "SELECT action, speed, band, attackers, defenders, draws, rating_sum
             FROM explorer_moves WHERE variant = $1 AND position = $2",
        )
        .bind(variant)
        .bind(position as i64)
        .fetch_all(&self.pool)
        .await?;
        let count = |row: &sqlx::any::AnyRow, column: &str| -> Result<u64, sqlx::Error> {
            Ok(row.try_get::<i64, _>(column)?.max(0) as u64)
        };
        rows.iter()
            .map(|row| {
                Ok(Counted {
                    action: row.try_get("action")?,
                    speed: row.try_get::<i32, _>("speed")?,
                    band: row.try_get::<i32, _>("band")?.max(0) as u32,
                    tally: Tally {
                        attackers: count(row, "attackers")?,
                        defenders: count(row, "defenders")?,
                        draws: count(row, "draws")?,
                        rating_sum: count(row, "rating_sum")?,
                    },
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Counts games in one transaction, as finished games are counted: for tools that load
    /// games from elsewhere (the explorer's benchmark).
    pub async fn explorer_count_games(&self, games: &[Game<'_>]) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        for game in games {
            count_game(&mut tx, game).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Forgets every count and queues every finished game of a preset tafl variant to be
    /// counted again (after a change to what is counted, or to the engine's hashes). Returns
    /// how many games were queued; [`Store::explorer_count_pending`] counts them.
    pub async fn explorer_rebuild(&self) -> StoreResult<u64> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM explorer_moves")
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM explorer_pending")
            .execute(&mut *tx)
            .await?;
        let queued = sqlx::query(
            "INSERT INTO explorer_pending (match_id)
             SELECT id FROM matches WHERE game = 'tafl' AND status = 'finished' AND hotseat = 0",
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(queued)
    }
}

/// Adds one game's moves to the counts.
pub async fn count_game(tx: &mut sqlx::AnyConnection, game: &Game<'_>) -> StoreResult<()> {
    let tally = Tally::of(game.ended, game.rating);
    for step in game.steps.iter().take(PLIES) {
        sqlx::query(
            "INSERT INTO explorer_moves
                 (variant, position, speed, band, action, attackers, defenders, draws, rating_sum)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (variant, position, speed, band, action) DO UPDATE SET
                 attackers = explorer_moves.attackers + excluded.attackers,
                 defenders = explorer_moves.defenders + excluded.defenders,
                 draws = explorer_moves.draws + excluded.draws,
                 rating_sum = explorer_moves.rating_sum + excluded.rating_sum",
        )
        .bind(game.variant)
        .bind(step.position as i64)
        .bind(game.speed)
        .bind(game.band as i32)
        .bind(&step.action)
        .bind(tally.attackers as i32)
        .bind(tally.defenders as i32)
        .bind(tally.draws as i32)
        .bind(tally.rating_sum as i64)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// `server explorer rebuild`: counts every finished game again, saying how many it counted.
pub async fn rebuild(database_url: &str) -> Result<String, String> {
    let store = Store::connect(database_url)
        .await
        .map_err(|e| e.to_string())?;
    let queued = store.explorer_rebuild().await.map_err(|e| e.to_string())?;
    let mut counted = 0;
    loop {
        let n = store
            .explorer_count_pending(500)
            .await
            .map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        counted += n;
        eprintln!("counted {counted} of {queued} games");
    }
    store.close().await;
    Ok(format!("the explorer counted {counted} finished games"))
}
