//! The storage of matches: a match's header, seats and action log as they are written. A
//! result is recorded in `store/results.rs`, and matches are read back and listed in
//! `store/reads.rs`. Actions are appended by the group-commit writer (`writer.rs`).

mod reads;
mod results;

pub use results::{Finish, Finished};

use protocol::ErrorReason;
use protocol::{MatchId, MatchResult, MatchSummary, PlayerId};
use sqlx::Row;

use super::new_match::{NewMatch, Opening};
use crate::accounts::player::Player;
use crate::cluster::store::{Epoch, fence};
use crate::series::InSeries;
use crate::store::{Store, StoreResult, flag, unique};

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

impl StoredMatch {
    /// The actions in play: the log with its takebacks folded in.
    pub fn actions(&self) -> Vec<&StoredAction> {
        fold(&self.log)
    }

    /// What a match's summary in a list shows of it.
    pub fn summary(&self) -> MatchSummary {
        MatchSummary {
            id: self.id,
            game: self.spec.game.clone(),
            variant: self.spec.variant.clone(),
            rated: self.spec.rated,
            clock: self.spec.clock,
            players: self
                .players
                .iter()
                .map(|p| p.as_ref().map(Player::public))
                .collect(),
            status: self.status.as_str().to_string(),
            result: self.result.clone().map(|(places, reason)| MatchResult {
                places,
                reason,
                ratings: Vec::new(),
            }),
            created_ms: self.spec.created_ms,
        }
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

    /// Records who sits in a seat, and the match's event count so far; with `start`, the seat
    /// fills the match, which starts in the same transaction.
    pub async fn take_seat(
        &self,
        id: MatchId,
        epoch: Epoch,
        seat: u8,
        player: PlayerId,
        seq: u64,
        start: Option<&Start>,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        sqlx::query("INSERT INTO match_seats (match_id, seat, player_id) VALUES ($1, $2, $3)")
            .bind(id.0)
            .bind(i32::from(seat))
            .bind(player.0)
            .execute(&mut *tx)
            .await
            .map_err(unique(ErrorReason::SeatTaken { seat }, || {
                format!("seat {seat} is taken")
            }))?;
        match start {
            Some(start) => set_live(&mut tx, id, start).await?,
            None => {
                sqlx::query("UPDATE matches SET last_seq = $1 WHERE id = $2")
                    .bind(seq as i64)
                    .bind(id.0)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Marks a match whose seats are all taken live.
    pub async fn set_live(&self, id: MatchId, epoch: Epoch, start: &Start) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        fence(&mut tx, self.backend(), id, epoch).await?;
        set_live(&mut tx, id, start).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// How a match starts: its event count then, when, and whether it is played casual though
/// created rated (its players have had their day's rated games against each other).
pub struct Start {
    pub seq: u64,
    pub at_ms: i64,
    pub casual: bool,
}

async fn set_live(conn: &mut sqlx::AnyConnection, id: MatchId, start: &Start) -> StoreResult<()> {
    sqlx::query(
        "UPDATE matches SET status = 'live', last_seq = $1, started_ms = $3,
                rated = CASE WHEN $4 = 1 THEN 0 ELSE rated END
         WHERE id = $2",
    )
    .bind(start.seq as i64)
    .bind(id.0)
    .bind(start.at_ms)
    .bind(i32::from(start.casual))
    .execute(conn)
    .await?;
    Ok(())
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
            .map_err(unique(ErrorReason::SeatTaken { seat: *seat }, || {
                format!("seat {seat} is taken")
            }))?;
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
