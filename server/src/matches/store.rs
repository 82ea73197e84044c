//! The storage of matches: a match's header, seats, action log and result, and the queries
//! that list matches. Actions are appended by the group-commit writer (`writer.rs`).

use protocol::{ClockSpec, MatchId, PlayerId, RatingChange, SeriesId};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::new_match::{NewMatch, Opening};
use crate::accounts::player::Player;
use crate::cluster::store::{Epoch, fence};
use crate::ratings::{self, Rated};
use crate::series::InSeries;
use crate::store::{Store, StoreResult, flag, player_from, unique};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting,
    Live,
    Finished,
    Aborted,
}

impl Status {
    /// Finished or called off: nothing more happens in the match.
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Finished | Status::Aborted)
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Live => "live",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    fn parse(text: &str) -> Status {
        match text {
            "live" => Status::Live,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => Status::Waiting,
        }
    }
}

/// One entry of a match's log, which is only ever appended to: an action, or a takeback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Action(StoredAction),
    Takeback(StoredTakeback),
}

impl Entry {
    pub fn seq(&self) -> u64 {
        match self {
            Entry::Action(a) => a.seq,
            Entry::Takeback(t) => t.seq,
        }
    }
}

/// The actions in play after a log's entries: each takeback keeps only the actions before the
/// ones it undid.
pub fn fold(log: &[Entry]) -> Vec<&StoredAction> {
    let mut actions = Vec::with_capacity(log.len());
    for entry in log {
        match entry {
            Entry::Action(a) => actions.push(a),
            Entry::Takeback(t) => actions.truncate(t.back_to as usize),
        }
    }
    actions
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// The entry's index in the log (takebacks are entries too).
    pub ply: u32,
    pub seq: u64,
    pub seat: u8,
    pub action: String,
    pub clock_ms: Option<u64>,
    pub at_ms: i64,
    /// The id of the command that sent it, if a client sent it: a resend of that command is
    /// answered with the original ack.
    pub command_id: Option<String>,
}

/// A takeback agreed by every seat: the match went back to its first `back_to` actions in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTakeback {
    /// The entry's index in the log.
    pub ply: u32,
    pub seq: u64,
    /// The seat that asked for it.
    pub seat: u8,
    pub back_to: u32,
    /// Every seat's clock then, in a timed match: a takeback does not give time back.
    pub clocks_ms: Option<Vec<u64>>,
    pub at_ms: i64,
}

/// A match as stored: its configuration, seat holders, result and (when loaded) action log.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredMatch {
    pub id: MatchId,
    pub spec: NewMatch,
    pub status: Status,
    pub result: Option<(Vec<u8>, String)>,
    /// The match's last event number: the row's, or its last action's when the log is loaded
    /// and newer (moves do not touch the row).
    pub last_seq: u64,
    pub players: Vec<Option<Player>>,
    /// The log as stored, takebacks included: most readers want [`StoredMatch::actions`].
    pub log: Vec<Entry>,
    /// A tournament's game: its pairing was not the players' choice, and the tournament needs
    /// a result however early it ends.
    pub in_tournament: bool,
    /// A game of a two-game match.
    pub series: Option<InSeries>,
    /// When every seat was taken (milliseconds since the Unix epoch): where the first move's
    /// per-move clock counts from. Unknown for matches stored before it was kept.
    pub started_ms: Option<i64>,
}

/// The columns of a match's header, from `matches m`, as `stored_match` reads them.
const MATCH_COLUMNS: &str = "m.id, m.game, m.variant, m.seats, m.rated, m.takebacks,
    m.clock_base_ms, m.clock_increment_ms, m.clock_per_move, m.private, m.invite, m.hotseat, m.seed, m.status,
    m.result_places, m.result_reason, m.last_seq, m.created_ms, m.started_ms, m.series_id,
    m.series_game";

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

impl StoredMatch {
    /// The actions in play: the log with its takebacks folded in.
    pub fn actions(&self) -> Vec<&StoredAction> {
        fold(&self.log)
    }
}

impl Store {
    /// How many matches a player sits in that wait for opponents.
    pub async fn open_matches_of(&self, player: PlayerId) -> StoreResult<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM matches m JOIN match_seats s ON s.match_id = m.id
             WHERE s.player_id = $1 AND m.status = 'waiting'",
        )
        .bind(player.0)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u32)
    }

    /// Rated matches two players have sat in together since `since_ms`, finished or still
    /// being played.
    pub async fn rated_games_between(
        &self,
        a: PlayerId,
        b: PlayerId,
        since_ms: i64,
    ) -> StoreResult<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM matches m
             WHERE m.rated = 1 AND m.hotseat = 0 AND m.status IN ('live', 'finished')
               AND COALESCE(m.finished_ms, m.created_ms) >= $3
               AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.player_id = $1)
               AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.player_id = $2)",
        )
        .bind(a.0)
        .bind(b.0)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u32)
    }

    /// Makes a rated match casual before it starts.
    pub async fn set_casual(&self, id: MatchId, epoch: Epoch) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        sqlx::query("UPDATE matches SET rated = 0 WHERE id = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Casual matches without a clock, waiting or being played, in which nothing has happened
    /// since `idle_since_ms`: each with its number of log entries (actions and takebacks), so
    /// that the room can tell whether one came in meanwhile.
    pub async fn idle_matches(&self, idle_since_ms: i64) -> StoreResult<Vec<(MatchId, usize)>> {
        let rows = sqlx::query(
            "SELECT m.id, (SELECT COUNT(*) FROM match_actions a WHERE a.match_id = m.id) AS entries
             FROM matches m
             WHERE m.status IN ('waiting', 'live') AND m.rated = 0 AND m.clock_base_ms IS NULL
               AND COALESCE((SELECT MAX(a.at_ms) FROM match_actions a WHERE a.match_id = m.id),
                            m.created_ms) < $1
             ORDER BY m.id",
        )
        .bind(idle_since_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    MatchId(r.try_get("id")?),
                    r.try_get::<i64, _>("entries")? as usize,
                ))
            })
            .collect()
    }

    // --- Matches --------------------------------------------------------------------------

    /// Stores a new match and its first seats (and a first game's series), in one transaction.
    pub async fn create_match(&self, opening: &mut Opening) -> StoreResult<MatchId> {
        let mut tx = self.pool.begin().await?;
        let id = insert_match(&mut tx, opening).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Records who sits in a seat, and the match's event count so far.
    pub async fn take_seat(
        &self,
        id: MatchId,
        epoch: Epoch,
        seat: u8,
        player: PlayerId,
        seq: u64,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        sqlx::query("INSERT INTO match_seats (match_id, seat, player_id) VALUES ($1, $2, $3)")
            .bind(id.0)
            .bind(i32::from(seat))
            .bind(player.0)
            .execute(&mut *tx)
            .await
            .map_err(unique(|| format!("seat {seat} is taken")))?;
        sqlx::query("UPDATE matches SET last_seq = $1 WHERE id = $2")
            .bind(seq as i64)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn set_live(
        &self,
        id: MatchId,
        epoch: Epoch,
        seq: u64,
        now_ms: i64,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        sqlx::query(
            "UPDATE matches SET status = 'live', last_seq = $1, started_ms = $3 WHERE id = $2",
        )
        .bind(seq as i64)
        .bind(id.0)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

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
        let places_json = serde_json::to_string(places).expect("a list of numbers serialises");
        let done = sqlx::query(
            "UPDATE matches SET status = 'finished', result_places = $1, result_reason = $2,
                    finished_ms = $3, last_seq = $4
             WHERE id = $5 AND status IN ('waiting', 'live')",
        )
        .bind(&places_json)
        .bind(reason)
        .bind(now_ms)
        .bind(seq as i64)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        let row = sqlx::query("SELECT game, variant, rated, hotseat FROM matches WHERE id = $1")
            .bind(id.0)
            .fetch_one(&mut *tx)
            .await?;
        let rated = row.try_get::<i64, _>("rated")? != 0 && row.try_get::<i64, _>("hotseat")? == 0;
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
        let places_json = serde_json::to_string(places).expect("a list of numbers serialises");
        let done = sqlx::query(
            "UPDATE matches SET status = 'aborted', result_places = $4, result_reason = $5,
                    finished_ms = $1, last_seq = $2
             WHERE id = $3 AND status IN ('waiting', 'live')",
        )
        .bind(now_ms)
        .bind(seq as i64)
        .bind(id.0)
        .bind(places_json)
        .bind(reason)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(series) = series {
            crate::series::store::abort_series(&mut tx, series.id, now_ms).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

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

    /// The latest matches a player sat in, newest first.
    pub async fn matches_of(&self, player: PlayerId, limit: i64) -> StoreResult<Vec<StoredMatch>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MATCH_COLUMNS}
             FROM matches m WHERE m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)
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

/// Inserts a new match with its first players in their seats, live if every seat is taken;
/// on a connection rather than the pool so that a caller makes it part of its transaction (the
/// tournament director links the match to its game in the same one). The first game of a
/// two-game match makes its series here, and the opening is given it.
pub(crate) async fn insert_match(
    conn: &mut sqlx::AnyConnection,
    opening: &mut Opening,
) -> StoreResult<MatchId> {
    if opening.spec.two_games && opening.series.is_none() {
        let id = crate::series::store::insert_series(conn, opening.spec.created_ms).await?;
        opening.series = Some(InSeries { id, game: 1 });
    }
    let spec = &opening.spec;
    let row = sqlx::query(
        "INSERT INTO matches (game, variant, seats, rated, clock_base_ms, clock_increment_ms,
                              clock_per_move, private, invite, hotseat, seed, status, last_seq,
                              created_ms, started_ms, series_id, series_game, takebacks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18)
         RETURNING id",
    )
    .bind(&spec.game)
    .bind(&spec.variant)
    .bind(i32::from(spec.seats))
    .bind(flag(spec.rated))
    .bind(spec.clock.map(|c| c.base_ms as i64))
    .bind(spec.clock.map(|c| c.increment_ms as i64))
    .bind(flag(spec.clock.is_some_and(|c| c.per_move)))
    .bind(flag(spec.private))
    .bind(spec.invite.as_deref())
    .bind(flag(spec.hotseat))
    // Seeds are any u64; the column is signed, so the bits are stored as they are.
    .bind(spec.seed as i64)
    .bind(
        match opening.full() {
            true => Status::Live,
            false => Status::Waiting,
        }
        .as_str(),
    )
    .bind(opening.events() as i64)
    .bind(spec.created_ms)
    .bind(opening.full().then_some(spec.created_ms))
    .bind(opening.series.map(|s| s.id.0))
    .bind(opening.series.map(|s| i32::from(s.game)))
    .bind(flag(spec.takebacks))
    .fetch_one(&mut *conn)
    .await?;
    let id = MatchId(row.try_get("id")?);
    for (seat, player) in &opening.seating {
        sqlx::query("INSERT INTO match_seats (match_id, seat, player_id) VALUES ($1, $2, $3)")
            .bind(id.0)
            .bind(i32::from(*seat))
            .bind(player.id.0)
            .execute(&mut *conn)
            .await
            .map_err(unique(|| format!("seat {seat} is taken")))?;
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(ply: u32) -> Entry {
        Entry::Action(StoredAction {
            ply,
            seq: u64::from(ply),
            seat: (ply % 2) as u8,
            action: format!("a{ply}"),
            clock_ms: None,
            at_ms: 0,
            command_id: None,
        })
    }

    fn takeback(ply: u32, back_to: u32) -> Entry {
        Entry::Takeback(StoredTakeback {
            ply,
            seq: u64::from(ply),
            seat: 0,
            back_to,
            clocks_ms: None,
            at_ms: 0,
        })
    }

    fn kept(log: &[Entry]) -> Vec<&str> {
        fold(log).iter().map(|a| a.action.as_str()).collect()
    }

    #[test]
    fn takebacks_fold_in_order_each_counting_the_actions_in_play_then() {
        let log = [action(0), action(1), action(2), takeback(3, 1), action(4)];
        assert_eq!(kept(&log), ["a0", "a4"]);
        let log = [
            action(0),
            action(1),
            takeback(2, 0),
            action(3),
            takeback(4, 0),
        ];
        assert!(kept(&log).is_empty());
        assert_eq!(kept(&[action(0), takeback(1, 1)]), ["a0"]);
    }
}
