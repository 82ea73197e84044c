//! Matches read back from the store: one to rebuild its room, and the lists players and pages
//! ask for.

use protocol::{ClockSpec, MatchId, PlayerId, SeriesId};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Entry, Status, StoredAction, StoredMatch, StoredTakeback};
use crate::matches::NewMatch;
use crate::series::InSeries;
use crate::store::{Store, StoreResult, player_from};

/// The columns of a match's header, from `matches m`, as `stored_match` reads them.
const MATCH_COLUMNS: &str = "m.id, m.game, m.variant, m.seats, m.rated, m.takebacks,
    m.clock_base_ms, m.clock_increment_ms, m.clock_per_move, m.private, m.invite, m.hotseat, m.seed, m.status,
    m.result_places, m.result_reason, m.last_seq, m.created_ms, m.started_ms, m.series_id,
    m.series_game";

impl Store {
    /// Every match not yet over, with seats and action logs: what a restart rebuilds.
    pub async fn unfinished_matches(&self) -> StoreResult<Vec<StoredMatch>> {
        let ids =
            sqlx::query("SELECT id FROM matches WHERE status IN ('waiting', 'live') ORDER BY id")
                .fetch_all(&self.pool)
                .await?;
        let mut out = Vec::with_capacity(ids.len());
        for row in ids {
            if let Some(m) = self.load_match(MatchId(row.try_get("id")?)).await? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// One match with its seats and its whole action log.
    pub async fn load_match(&self, id: MatchId) -> StoreResult<Option<StoredMatch>> {
        let Some(mut m) = self.match_header(id).await? else {
            return Ok(None);
        };
        let rows = sqlx::query(
            "SELECT ply, seq, seat, action, clock_ms, at_ms, command_id, back_to, clocks_ms
             FROM match_actions WHERE match_id = $1 ORDER BY ply",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        for r in rows {
            let ply = r.try_get::<i64, _>("ply")? as u32;
            let seq = r.try_get::<i64, _>("seq")? as u64;
            let seat = r.try_get::<i64, _>("seat")? as u8;
            let at_ms = r.try_get("at_ms")?;
            let entry = match r.try_get::<Option<i64>, _>("back_to")? {
                Some(back_to) => Entry::Takeback(StoredTakeback {
                    ply,
                    seq,
                    seat,
                    back_to: back_to as u32,
                    clocks_ms: r
                        .try_get::<Option<String>, _>("clocks_ms")?
                        .and_then(|json| serde_json::from_str(&json).ok()),
                    at_ms,
                }),
                None => Entry::Action(StoredAction {
                    ply,
                    seq,
                    seat,
                    action: r.try_get("action")?,
                    clock_ms: r.try_get::<Option<i64>, _>("clock_ms")?.map(|ms| ms as u64),
                    at_ms,
                    command_id: r.try_get("command_id")?,
                }),
            };
            m.log.push(entry);
        }
        // Moves do not update the match row (see `insert_as_json`): the last entry may be newer.
        if let Some(last) = m.log.last() {
            m.last_seq = m.last_seq.max(last.seq());
        }
        Ok(Some(m))
    }

    /// The match id a private invite code opens.
    pub async fn match_by_invite(&self, invite: &str) -> StoreResult<Option<MatchId>> {
        let row = sqlx::query("SELECT id FROM matches WHERE invite = $1")
            .bind(invite)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("id").map(MatchId)).transpose()?)
    }

    /// A match without its action log.
    pub async fn match_header(&self, id: MatchId) -> StoreResult<Option<StoredMatch>> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS},
                    EXISTS (SELECT 1 FROM tournament_games g WHERE g.match_id = m.id)
                        AS in_tournament
             FROM matches m WHERE m.id = $1"
        )))
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        self.stored_match(&row).await.map(Some)
    }

    async fn stored_match(&self, row: &AnyRow) -> StoreResult<StoredMatch> {
        let id = MatchId(row.try_get("id")?);
        let seats = row.try_get::<i64, _>("seats")? as u8;
        let base: Option<i64> = row.try_get("clock_base_ms")?;
        let inc: Option<i64> = row.try_get("clock_increment_ms")?;
        let per_move: i64 = row.try_get("clock_per_move")?;
        let places: Option<String> = row.try_get("result_places")?;
        let reason: Option<String> = row.try_get("result_reason")?;
        let series_id: Option<i64> = row.try_get("series_id")?;
        let series_game: Option<i64> = row.try_get("series_game")?;
        let series = series_id.zip(series_game).map(|(id, game)| InSeries {
            id: SeriesId(id),
            game: game as u8,
        });
        let spec = NewMatch {
            game: row.try_get("game")?,
            variant: row.try_get("variant")?,
            seats,
            rated: row.try_get::<i64, _>("rated")? != 0,
            takebacks: row.try_get::<i64, _>("takebacks")? != 0,
            clock: base.zip(inc).map(|(b, i)| ClockSpec {
                base_ms: b as u64,
                increment_ms: i as u64,
                per_move: per_move != 0,
            }),
            private: row.try_get::<i64, _>("private")? != 0,
            invite: row.try_get("invite")?,
            hotseat: row.try_get::<i64, _>("hotseat")? != 0,
            two_games: series.is_some(),
            seed: row.try_get::<i64, _>("seed")? as u64,
            created_ms: row.try_get("created_ms")?,
        };
        let mut players = vec![None; usize::from(seats)];
        let seat_rows = sqlx::query(
            "SELECT s.seat, p.id, p.name, p.password_hash, p.guest
             FROM match_seats s JOIN players p ON p.id = s.player_id
             WHERE s.match_id = $1",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        for r in seat_rows {
            let seat = r.try_get::<i64, _>("seat")? as usize;
            if let Some(slot) = players.get_mut(seat) {
                *slot = Some(player_from(&r, "")?);
            }
        }
        let result = match (places, reason) {
            (Some(p), Some(r)) => Some((serde_json::from_str(&p).unwrap_or_default(), r)),
            _ => None,
        };
        Ok(StoredMatch {
            id,
            spec,
            status: Status::parse(&row.try_get::<String, _>("status")?),
            result,
            last_seq: row.try_get::<i64, _>("last_seq")? as u64,
            players,
            log: Vec::new(),
            // Lists of matches do not ask.
            in_tournament: truth(row, "in_tournament").unwrap_or(false),
            series,
            started_ms: row.try_get("started_ms")?,
        })
    }

    /// The latest matches a player sat in, newest first; not those called off before every
    /// seat was taken (a withdrawn seek), which were never games. Seats are never given up, so
    /// a match's seat rows say whether it filled (its `started_ms` is unknown for old matches).
    pub async fn matches_of(&self, player: PlayerId, limit: i64) -> StoreResult<Vec<StoredMatch>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS}
             FROM matches m WHERE m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)
               AND (m.status <> 'aborted'
                    OR (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = m.id) = m.seats)
             ORDER BY m.id DESC LIMIT $2"
        )))
        .bind(player.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        self.stored_matches(&rows).await
    }

    /// The matches a player sits in that are not over (waiting for players or live), newest
    /// first.
    pub async fn ongoing_matches_of(&self, player: PlayerId) -> StoreResult<Vec<StoredMatch>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS}
             FROM matches m
             WHERE m.status IN ('waiting', 'live')
               AND m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)
             ORDER BY m.id DESC"
        )))
        .bind(player.0)
        .fetch_all(&self.pool)
        .await?;
        self.stored_matches(&rows).await
    }

    /// The live matches on a per-move clock a player sits in: those whose clocks the player's
    /// vacation stops.
    pub async fn per_move_matches_of(&self, player: PlayerId) -> StoreResult<Vec<MatchId>> {
        let rows = sqlx::query(
            "SELECT m.id FROM matches m
             WHERE m.status = 'live' AND m.clock_per_move = 1
               AND m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)",
        )
        .bind(player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(MatchId(r.try_get("id")?))).collect()
    }

    /// The public matches with this status, newest first, each with whether `viewer` sits in
    /// it: those being played (`Live`, hot-seat ones left out: nobody can join or would watch
    /// them) or those waiting for players (`Waiting`). The lists of matches page through them.
    pub async fn listed_matches(
        &self,
        status: Status,
        viewer: Option<PlayerId>,
    ) -> StoreResult<Vec<(MatchId, bool)>> {
        let rows = sqlx::query(
            "SELECT id, EXISTS (SELECT 1 FROM match_seats s
                                WHERE s.match_id = matches.id AND s.player_id = $2) AS seated
             FROM matches WHERE status = $1 AND private = 0 AND hotseat = 0
             ORDER BY id DESC",
        )
        .bind(status.as_str())
        .bind(viewer.map(|p| p.0))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((MatchId(r.try_get("id")?), truth(r, "seated")?)))
            .collect()
    }

    async fn stored_matches(&self, rows: &[AnyRow]) -> StoreResult<Vec<StoredMatch>> {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.stored_match(row).await?);
        }
        Ok(out)
    }

    /// The seats a player took in their latest matches of a game and variant, newest first:
    /// what the queue balances seats with.
    pub async fn recent_seats(
        &self,
        player: PlayerId,
        game: &str,
        variant: &str,
        limit: i64,
    ) -> StoreResult<Vec<u8>> {
        let rows = sqlx::query(
            "SELECT s.seat FROM match_seats s JOIN matches m ON m.id = s.match_id
             WHERE s.player_id = $1 AND m.game = $2 AND m.variant = $3 AND m.hotseat = 0
             ORDER BY m.id DESC LIMIT $4",
        )
        .bind(player.0)
        .bind(game)
        .bind(variant)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<i64, _>("seat")? as u8))
            .collect()
    }
}

/// A truth value computed by a query (`EXISTS`): a boolean on PostgreSQL, an integer on SQLite.
fn truth(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    row.try_get::<bool, _>(column)
        .or_else(|_| row.try_get::<i64, _>(column).map(|n| n != 0))
}
