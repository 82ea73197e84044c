//! A match's result as it is recorded: rating changes, the series' next game, and a match
//! called off, each in one transaction with the match's status.

use protocol::{MatchId, PlayerId, RatingChange};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Status, insert_match};
use crate::cluster::store::{Epoch, fence};
use crate::matches::new_match::Opening;
use crate::ratings::{self, Rated};
use crate::series::InSeries;
use crate::store::{Store, StoreResult};

/// How a match ends, as the room stores it.
pub struct Finish<'a> {
    pub places: &'a [u8],
    pub reason: &'a str,
    /// The match's place in its series, if it has one.
    pub series: Option<InSeries>,
    /// Game 1's end: game 2, stored with the result (a called-off game has none).
    pub next: Option<&'a mut Opening>,
}

/// What recording a result did.
pub struct Finished {
    pub ratings: Vec<RatingChange>,
    /// The series' game 2, when this was game 1.
    pub next_game: Option<MatchId>,
}

impl Store {
    /// Records the result of a live or waiting match and, for a rated one, every seat's rating
    /// change, in one transaction, with what it does to the match's series: game 1's end
    /// stores game 2 (`next`), game 2's decides the series. Returns the rating changes and
    /// game 2's id, or `None` if the match was already over: a result is written exactly once.
    pub async fn finish_match(
        &self,
        id: MatchId,
        epoch: Epoch,
        finish: Finish<'_>,
        seq: u64,
        now_ms: i64,
    ) -> StoreResult<Option<Finished>> {
        let Finish {
            places,
            reason,
            series,
            next,
        } = finish;
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        let ending = Ending {
            status: Status::Finished,
            places,
            reason,
        };
        let Some(row) = end(&mut tx, id, ending, seq, now_ms).await? else {
            return Ok(None);
        };
        let hotseat = row.try_get::<i64, _>("hotseat")? != 0;
        let rated = row.try_get::<i64, _>("rated")? != 0 && !hotseat;
        // A finished tafl game waits here to be counted by the opening explorer
        // (`explorer/store.rs`): queued with its result, it is counted even if the process dies.
        if !hotseat && row.try_get::<String, _>("game")? == "tafl" {
            sqlx::query("INSERT INTO explorer_pending (match_id) VALUES ($1)")
                .bind(id.0)
                .execute(&mut *tx)
                .await?;
        }
        let mut changes = Vec::new();
        if rated {
            let pool = format!(
                "{}/{}",
                row.try_get::<String, _>("game")?,
                row.try_get::<String, _>("variant")?
            );
            let mut seats = Vec::new();
            for row in sqlx::query("SELECT seat, player_id FROM match_seats WHERE match_id = $1")
                .bind(id.0)
                .fetch_all(&mut *tx)
                .await?
            {
                let seat = row.try_get::<i64, _>("seat")? as u8;
                seats.push((seat, PlayerId(row.try_get("player_id")?)));
            }
            // Two results of one player may be recorded at the same moment (the AI accounts
            // play many matches at once): each locks its players' rating rows before reading
            // them, so neither update is lost. The upsert makes a missing row and locks the row
            // on both backends, in player order, so that two results never wait on each other.
            seats.sort_by_key(|&(_, player)| player.0);
            let mut players = Vec::new();
            for (seat, player) in seats {
                let current = sqlx::query(
                    "INSERT INTO ratings (player_id, pool, rating, games) VALUES ($1, $2, $3, 0)
                     ON CONFLICT (player_id, pool) DO UPDATE SET games = ratings.games
                     RETURNING rating, games",
                )
                .bind(player.0)
                .bind(&pool)
                .bind(ratings::INITIAL)
                .fetch_one(&mut *tx)
                .await?;
                let place = places.get(usize::from(seat)).copied().unwrap_or(u8::MAX);
                players.push((
                    seat,
                    player,
                    Rated {
                        rating: current.try_get("rating")?,
                        games: current.try_get::<i64, _>("games")? as u32,
                        place,
                    },
                ));
            }
            // The changes are reported in seat order.
            players.sort_by_key(|&(seat, _, _)| seat);
            let rated: Vec<Rated> = players.iter().map(|(_, _, r)| *r).collect();
            let after = ratings::update(&rated);
            for ((seat, player, before), after) in players.into_iter().zip(after) {
                sqlx::query(
                    "INSERT INTO rating_changes
                         (match_id, seat, player_id, pool, rating_before, rating_after, at_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(id.0)
                .bind(i32::from(seat))
                .bind(player.0)
                .bind(&pool)
                .bind(before.rating)
                .bind(after)
                .bind(now_ms)
                .execute(&mut *tx)
                .await?;
                let games = before.games as i32 + 1;
                sqlx::query(
                    "UPDATE ratings SET rating = $1, games = $2 WHERE player_id = $3 AND pool = $4",
                )
                .bind(after)
                .bind(games)
                .bind(player.0)
                .bind(&pool)
                .execute(&mut *tx)
                .await?;
                changes.push(RatingChange {
                    seat,
                    player,
                    before: before.rating,
                    after,
                });
            }
        }
        let next_game = match (series, next) {
            (Some(InSeries { game: 1, .. }), Some(next)) => {
                Some(insert_match(&mut tx, next).await?)
            }
            (Some(InSeries { id, .. }), _) => {
                crate::series::store::decide_series(&mut tx, id, now_ms).await?;
                None
            }
            (None, _) => None,
        };
        tx.commit().await?;
        Ok(Some(Finished {
            ratings: changes,
            next_game,
        }))
    }

    /// Calls off a match that has not finished, unrated, with every seat in `places` (all
    /// equal) and why (`aborted`, `idle`), and its series with it. Returns false if it was
    /// already over.
    pub async fn abort_match(
        &self,
        id: MatchId,
        epoch: Epoch,
        finish: Finish<'_>,
        seq: u64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let Finish {
            places,
            reason,
            series,
            ..
        } = finish;
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        let ending = Ending {
            status: Status::Aborted,
            places,
            reason,
        };
        if end(&mut tx, id, ending, seq, now_ms).await?.is_none() {
            return Ok(false);
        }
        if let Some(series) = series {
            crate::series::store::abort_series(&mut tx, series.id, now_ms).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

/// How a match that has not ended ends: finished or called off, with its places and why.
struct Ending<'a> {
    status: Status,
    places: &'a [u8],
    reason: &'a str,
}

/// Marks a match that has not ended as ended, with its event count: its game, variant and
/// whether it was rated (`game`, `variant`, `rated`, `hotseat`), or `None` if it had ended
/// already.
async fn end(
    tx: &mut sqlx::AnyConnection,
    id: MatchId,
    ending: Ending<'_>,
    seq: u64,
    now_ms: i64,
) -> StoreResult<Option<AnyRow>> {
    let places = serde_json::to_string(ending.places).expect("a list of numbers serialises");
    let ended = sqlx::query(
        "UPDATE matches SET status = $1, result_places = $2, result_reason = $3,
                finished_ms = $4, last_seq = $5
         WHERE id = $6 AND status IN ('waiting', 'live')
         RETURNING game, variant, rated, hotseat",
    )
    .bind(ending.status.as_str())
    .bind(places)
    .bind(ending.reason)
    .bind(now_ms)
    .bind(seq as i64)
    .bind(id.0)
    .fetch_optional(tx)
    .await?;
    Ok(ended)
}
