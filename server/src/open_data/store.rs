//! The open data's reads: the months that have finished rated games, and a month's games a page
//! at a time in the order they ended (`matches_rated_finished`, a partial index on
//! `(finished_ms, id)`: each page is a range of it after the last game of the page before).

use futures_util::Stream;
use protocol::MatchId;
use sqlx::Row;

use super::PAGE;
use super::files::{FileKind, OpenGame, SeatRow};
use super::month::Month;
use crate::matches::store::StoredMatch;
use crate::store::{Store, StoreResult};

/// Where the next page of a month starts: after this game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct After {
    pub finished_ms: i64,
    pub id: i64,
}

impl Store {
    /// Each month with finished rated games, oldest first, with how many.
    pub async fn open_data_months(&self) -> StoreResult<Vec<(Month, u64)>> {
        let ends = // Each condition is `matches_rated_finished`'s, so that the index serves it.
        sqlx::query(
            "SELECT MIN(finished_ms) AS first, MAX(finished_ms) AS last FROM matches
             WHERE status = 'finished' AND rated = 1 AND hotseat = 0",
        )
        .fetch_one(&self.pool)
        .await?;
        let (Some(first), Some(last)) = (
            ends.try_get::<Option<i64>, _>("first")?,
            ends.try_get::<Option<i64>, _>("last")?,
        ) else {
            return Ok(Vec::new());
        };
        let mut months = Vec::new();
        let mut month = Month::of_ms(first);
        while month <= Month::of_ms(last) {
            let (start, end) = month.span_ms();
            let count: i64 = sqlx::query(
                "SELECT COUNT(*) FROM matches
                 WHERE status = 'finished' AND rated = 1 AND hotseat = 0
                   AND finished_ms >= $1 AND finished_ms < $2",
            )
            .bind(start)
            .bind(end)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
            if count > 0 {
                months.push((month, count as u64));
            }
            month = month.next();
        }
        Ok(months)
    }

    /// Up to `limit` finished rated games of `month` after `after` (from its start when `None`),
    /// in the order they ended, with their seats, ratings and records.
    pub async fn open_data_page(
        &self,
        month: Month,
        after: Option<After>,
        limit: i64,
    ) -> StoreResult<Vec<OpenGame>> {
        // A row comparison, which the index's range starts at: each page reads only its own
        // entries, however far into the month it is.
        let (start, end) = month.span_ms();
        let after = after.unwrap_or(After {
            finished_ms: start,
            id: i64::MIN,
        });
        let ids = sqlx::query(
            "SELECT id, finished_ms FROM matches
             WHERE status = 'finished' AND rated = 1 AND hotseat = 0
               AND finished_ms < $1 AND (finished_ms, id) > ($2, $3)
             ORDER BY finished_ms, id LIMIT $4",
        )
        .bind(end)
        .bind(after.finished_ms)
        .bind(after.id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut games = Vec::with_capacity(ids.len());
        for row in ids {
            let id = MatchId(row.try_get("id")?);
            let finished_ms: i64 = row.try_get("finished_ms")?;
            if let Some(m) = self.load_match(id).await? {
                let changes = self.open_data_ratings(id).await?;
                games.push(open_game(&m, finished_ms, &changes));
            }
        }
        Ok(games)
    }

    /// Each seat's rating before and after a rated game, by seat.
    async fn open_data_ratings(&self, id: MatchId) -> StoreResult<Vec<(u8, f64, f64)>> {
        let rows = sqlx::query(
            "SELECT seat, rating_before, rating_after FROM rating_changes WHERE match_id = $1",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<i64, _>("seat")? as u8,
                    r.try_get("rating_before")?,
                    r.try_get("rating_after")?,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

/// A month's file, a chunk a page: the header, then each page of games as it is read. Only one
/// page is held at a time, however many games the month has. Fused: the compression layer
/// polls a body once more after its end, which a bare unfold panics at.
pub fn file(
    store: Store,
    month: Month,
    kind: FileKind,
) -> impl Stream<Item = StoreResult<Vec<u8>>> {
    /// Where the file is: its header not yet written, after a game, or done.
    enum At {
        Start,
        After(Option<After>),
        Done,
    }
    let pages = futures_util::stream::unfold(At::Start, move |at| {
        let store = store.clone();
        async move {
            let after = match at {
                At::Done => return None,
                At::Start => return Some((Ok(kind.header().to_vec()), At::After(None))),
                At::After(after) => after,
            };
            match store.open_data_page(month, after, PAGE).await {
                Err(e) => Some((Err(e), At::Done)),
                Ok(games) if games.is_empty() => None,
                Ok(games) => {
                    let last = games.last().map(|g| After {
                        finished_ms: g.finished_ms,
                        id: g.id,
                    });
                    let next = if (games.len() as i64) < PAGE {
                        At::Done
                    } else {
                        At::After(last)
                    };
                    Some((Ok(kind.render(&games)), next))
                }
            }
        }
    });
    futures_util::StreamExt::fuse(pages)
}

/// A stored game as the files show it. A record the engine no longer replays is given as its
/// actions.
fn open_game(m: &StoredMatch, finished_ms: i64, changes: &[(u8, f64, f64)]) -> OpenGame {
    let (places, reason) = m.result.clone().unwrap_or_default();
    let seats = m
        .players
        .iter()
        .enumerate()
        .map(|(seat, player)| {
            let change = changes.iter().find(|(s, _, _)| usize::from(*s) == seat);
            SeatRow {
                player: player.as_ref().map(|p| p.name.clone()).unwrap_or_default(),
                rating_before: change.map(|c| c.1),
                rating_after: change.map(|c| c.2),
                place: places.get(seat).copied(),
            }
        })
        .collect();
    let record = crate::matches::http::record_of(m).unwrap_or_else(|_| {
        let lines: String = m
            .actions()
            .iter()
            .map(|a| format!("{}: {}\n", a.seat, a.action))
            .collect();
        ("actions".to_string(), lines)
    });
    OpenGame {
        id: m.id.0,
        finished_ms,
        game: m.spec.game.clone(),
        variant: m.spec.variant.clone(),
        clock: m.spec.clock,
        reason,
        plies: m.actions().len(),
        seats,
        record,
    }
}
