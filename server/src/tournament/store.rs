//! Tournaments in the database: the tournament, its entrants and every game and bye of every
//! round (`migrations/*/0002_tournaments.sql`). A round's rows are written in one transaction
//! under the unique key (tournament, round, board), so a round is never created twice, and a
//! game's match is opened only after its row exists.

use protocol::ErrorReason;
use protocol::{MatchId, PlayerId, SeriesId, TournamentFormat, TournamentId};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::plan::{self, NewSlot, Slot};
use super::{Entrant, EntrantId, Outcome};
use crate::accounts::player::Player;
use crate::matches::new_match::Opening;
use crate::matches::store::insert_match;
use crate::ratings;
use crate::store::{Store, StoreError, StoreResult, unique};

/// The most entrants a tournament takes.
pub const MAX_ENTRANTS: u32 = 128;

/// Everything chosen when a tournament is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub name: String,
    pub creator: PlayerId,
    pub game: String,
    pub variant: String,
    pub format: TournamentFormat,
    /// Swiss: the rounds to play; 0 for the other formats until they start.
    pub rounds: u32,
    /// Fischer clock as (base, increment) in milliseconds.
    pub clock: Option<(u64, u64)>,
    pub rated: bool,
    /// Every pairing is a two-game match.
    pub two_games: bool,
    pub starts_ms: Option<i64>,
    pub created_ms: i64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TournamentStatus {
    Registering,
    Running,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Registering => "registering",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> TournamentStatus {
        match text {
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            _ => TournamentStatus::Registering,
        }
    }
}

/// A tournament as stored, with its creator and how many have entered.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTournament {
    pub id: TournamentId,
    pub name: String,
    pub creator: Player,
    pub game: String,
    pub variant: String,
    pub format: TournamentFormat,
    /// 0 while unknown (a round robin or knockout before its start).
    pub rounds: u32,
    pub clock: Option<(u64, u64)>,
    pub rated: bool,
    /// Every pairing is a two-game match.
    pub two_games: bool,
    pub starts_ms: Option<i64>,
    pub status: TournamentStatus,
    pub current_round: u32,
    pub state: Option<String>,
    pub reason: Option<String>,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub entrants: u32,
}

impl StoredTournament {
    pub fn plan_format(&self) -> plan::Format {
        match self.format {
            TournamentFormat::RoundRobin => plan::Format::RoundRobin { double: false },
            TournamentFormat::DoubleRoundRobin => plan::Format::RoundRobin { double: true },
            TournamentFormat::Swiss => plan::Format::Swiss {
                rounds: self.rounds,
            },
            TournamentFormat::Knockout => plan::Format::Knockout,
        }
    }

    /// The rating pool of the tournament's games.
    pub fn pool(&self) -> String {
        format!("{}/{}", self.game, self.variant)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StoredEntrant {
    pub entrant: u32,
    pub player: Player,
    /// The seeding rating, from the start.
    pub rating: Option<f64>,
}

impl StoredEntrant {
    /// The entrant as the pairing logic sees it.
    pub fn seed(&self) -> Entrant {
        Entrant::new(self.entrant, self.rating.unwrap_or(ratings::INITIAL))
    }
}

/// One game or bye, with its match's state when it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub round: u32,
    pub board: u32,
    pub match_id: Option<MatchId>,
    pub seat0: u32,
    /// `None` for a bye.
    pub seat1: Option<u32>,
    pub decider: bool,
    /// `win`, `draw` or `loss` for seat 0; `bye`.
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_ms: i64,
    /// The match's status (`waiting`, `live`, `finished`, `aborted`); a two-game match's is its
    /// series' (`live` until game 2 ends).
    pub match_status: Option<String>,
    /// The match's places and reason, once over; a two-game match's are its series'.
    pub match_result: Option<(Vec<u8>, String)>,
    pub match_created_ms: Option<i64>,
    /// A two-game match: its series, and once decided each seat's game points in halves.
    pub series: Option<SeriesId>,
    pub game_points: Option<[u32; 2]>,
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

pub fn parse_outcome(text: &str) -> Option<Outcome> {
    match text {
        "win" => Some(Outcome::Win),
        "draw" => Some(Outcome::Draw),
        "loss" => Some(Outcome::Loss),
        _ => None,
    }
}

impl StoredGame {
    /// Seat 0's result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result.as_deref().and_then(parse_outcome)
    }

    pub fn slot(&self) -> Slot {
        Slot {
            round: self.round,
            board: self.board,
            seat0: EntrantId(self.seat0),
            seat1: self.seat1.map(EntrantId),
            decider: self.decider,
            outcome: self.outcome(),
        }
    }
}

/// How a start went.
#[derive(Clone, Debug, PartialEq)]
pub enum Started {
    Started,
    /// Not registering any more (already started, finished or cancelled).
    NotRegistering,
    /// Fewer than two entrants: left registering.
    TooFew(u32),
    /// Fewer than two entrants at the start time: cancelled.
    Cancelled,
}

fn format_columns(format: TournamentFormat) -> (&'static str, i32) {
    match format {
        TournamentFormat::RoundRobin => ("round_robin", 0),
        TournamentFormat::DoubleRoundRobin => ("round_robin", 1),
        TournamentFormat::Swiss => ("swiss", 0),
        TournamentFormat::Knockout => ("knockout", 0),
    }
}

fn format_from(text: &str, double: bool) -> TournamentFormat {
    match (text, double) {
        ("round_robin", false) => TournamentFormat::RoundRobin,
        ("round_robin", true) => TournamentFormat::DoubleRoundRobin,
        ("swiss", _) => TournamentFormat::Swiss,
        _ => TournamentFormat::Knockout,
    }
}

fn player(row: &AnyRow, prefix: &str) -> sqlx::Result<Player> {
    let col = |name: &str| format!("{prefix}{name}");
    Ok(Player {
        id: PlayerId(row.try_get(col("id").as_str())?),
        name: row.try_get(col("name").as_str())?,
        password_hash: row.try_get(col("password_hash").as_str())?,
        guest: row.try_get::<i64, _>(col("guest").as_str())? != 0,
    })
}

fn conflict(what: impl Into<String>) -> StoreError {
    StoreError::Conflict(ErrorReason::Conflict, what.into())
}

const TOURNAMENT_COLUMNS: &str = "SELECT t.id, t.name, t.game, t.variant, t.format, t.rounds,
        t.double_round, t.clock_base_ms, t.clock_increment_ms, t.rated, t.starts_ms, t.status,
        t.current_round, t.state, t.reason, t.created_ms, t.started_ms, t.two_games,
        p.id AS creator_id, p.name AS creator_name, p.password_hash AS creator_password_hash,
        p.guest AS creator_guest,
        (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id) AS entrant_count
    FROM tournaments t JOIN players p ON p.id = t.creator_id";

fn tournament_from(row: &AnyRow) -> sqlx::Result<StoredTournament> {
    let base: Option<i64> = row.try_get("clock_base_ms")?;
    let inc: Option<i64> = row.try_get("clock_increment_ms")?;
    let double = row.try_get::<i64, _>("double_round")? != 0;
    Ok(StoredTournament {
        id: TournamentId(row.try_get("id")?),
        name: row.try_get("name")?,
        creator: player(row, "creator_")?,
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        format: format_from(&row.try_get::<String, _>("format")?, double),
        rounds: row.try_get::<i64, _>("rounds")? as u32,
        clock: base.zip(inc).map(|(b, i)| (b as u64, i as u64)),
        rated: row.try_get::<i64, _>("rated")? != 0,
        two_games: row.try_get::<i64, _>("two_games")? != 0,
        starts_ms: row.try_get("starts_ms")?,
        status: TournamentStatus::parse(&row.try_get::<String, _>("status")?),
        current_round: row.try_get::<i64, _>("current_round")? as u32,
        state: row.try_get("state")?,
        reason: row.try_get("reason")?,
        created_ms: row.try_get("created_ms")?,
        started_ms: row.try_get("started_ms")?,
        entrants: row.try_get::<i64, _>("entrant_count")? as u32,
    })
}

impl Store {
    pub async fn create_tournament(&self, t: &NewTournament) -> StoreResult<TournamentId> {
        let (format, double) = format_columns(t.format);
        let row = sqlx::query(
            "INSERT INTO tournaments (name, creator_id, game, variant, format, rounds, double_round,
                                      clock_base_ms, clock_increment_ms, rated, starts_ms, status,
                                      current_round, created_ms, two_games)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'registering', 0, $12, $13)
             RETURNING id",
        )
        .bind(&t.name)
        .bind(t.creator.0)
        .bind(&t.game)
        .bind(&t.variant)
        .bind(format)
        .bind(t.rounds as i32)
        .bind(double)
        .bind(t.clock.map(|(base, _)| base as i64))
        .bind(t.clock.map(|(_, inc)| inc as i64))
        .bind(i32::from(t.rated))
        .bind(t.starts_ms)
        .bind(t.created_ms)
        .bind(i32::from(t.two_games))
        .fetch_one(&self.pool)
        .await?;
        Ok(TournamentId(row.try_get("id")?))
    }

    pub async fn tournament(&self, id: TournamentId) -> StoreResult<Option<StoredTournament>> {
        let sql = format!("{TOURNAMENT_COLUMNS} WHERE t.id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(tournament_from).transpose()?)
    }

    /// How many tournaments a player has created since `since_ms`.
    pub async fn tournaments_created_since(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> StoreResult<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments WHERE creator_id = $1 AND created_ms >= $2",
        )
        .bind(creator.0)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as u32)
    }

    /// The latest tournaments, newest first.
    pub async fn tournaments(&self, limit: i64) -> StoreResult<Vec<StoredTournament>> {
        let sql = format!("{TOURNAMENT_COLUMNS} ORDER BY t.id DESC LIMIT $1");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(tournament_from).collect::<Result<_, _>>()?)
    }

    /// Tournaments still registering whose start time has come.
    pub async fn tournaments_due(&self, now_ms: i64) -> StoreResult<Vec<TournamentId>> {
        let rows = sqlx::query(
            "SELECT id FROM tournaments
             WHERE status = 'registering' AND starts_ms IS NOT NULL AND starts_ms <= $1
             ORDER BY id",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id").map(TournamentId))
            .collect::<Result<_, _>>()?)
    }

    pub async fn running_tournaments(&self) -> StoreResult<Vec<TournamentId>> {
        let rows = sqlx::query("SELECT id FROM tournaments WHERE status = 'running' ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id").map(TournamentId))
            .collect::<Result<_, _>>()?)
    }

    pub async fn tournament_entrants(&self, id: TournamentId) -> StoreResult<Vec<StoredEntrant>> {
        let rows = sqlx::query(
            "SELECT e.entrant, e.rating, p.id, p.name, p.password_hash, p.guest
             FROM tournament_entrants e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = $1 ORDER BY e.entrant",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredEntrant {
                    entrant: r.try_get::<i64, _>("entrant")? as u32,
                    player: player(r, "")?,
                    rating: r.try_get("rating")?,
                })
            })
            .collect()
    }

    /// Enters a player while the tournament is registering; returns their entrant number. The
    /// tournament's row is locked first (an update that changes nothing), so that a start and
    /// a registration never overlap.
    pub async fn add_entrant(
        &self,
        id: TournamentId,
        player: PlayerId,
        now_ms: i64,
    ) -> StoreResult<u32> {
        let mut tx = self.pool.begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET status = status WHERE id = $1 AND status = 'registering'",
        )
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if open.rows_affected() != 1 {
            return Err(StoreError::Conflict(
                ErrorReason::TournamentNotRegistering,
                "registration for this tournament is closed".to_string(),
            ));
        }
        let already = sqlx::query(
            "SELECT entrant FROM tournament_entrants WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(id.0)
        .bind(player.0)
        .fetch_optional(&mut *tx)
        .await?;
        if already.is_some() {
            return Err(conflict("that player has already entered this tournament"));
        }
        let count: i64 =
            sqlx::query("SELECT COUNT(*) AS n FROM tournament_entrants WHERE tournament_id = $1")
                .bind(id.0)
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
        let entrant = count as u32;
        if entrant >= MAX_ENTRANTS {
            return Err(conflict(format!(
                "the tournament is full ({MAX_ENTRANTS} entrants)"
            )));
        }
        sqlx::query(
            "INSERT INTO tournament_entrants (tournament_id, entrant, player_id, joined_ms)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id.0)
        .bind(entrant as i32)
        .bind(player.0)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(unique(ErrorReason::Conflict, || {
            "that player has already entered this tournament".to_string()
        }))?;
        tx.commit().await?;
        Ok(entrant)
    }

    /// Closes registration and starts the tournament: every entrant's seeding rating is fixed
    /// (their rating in the pool now), and the number of rounds and the format's state are
    /// stored. With fewer than two entrants the tournament is cancelled when `cancel_if_too_few`
    /// (its start time came) and left registering otherwise.
    pub async fn start_tournament(
        &self,
        t: &StoredTournament,
        cancel_if_too_few: bool,
        now_ms: i64,
    ) -> StoreResult<Started> {
        let mut tx = self.pool.begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET status = status WHERE id = $1 AND status = 'registering'",
        )
        .bind(t.id.0)
        .execute(&mut *tx)
        .await?;
        if open.rows_affected() != 1 {
            return Ok(Started::NotRegistering);
        }
        let rows = sqlx::query(
            "SELECT e.entrant, r.rating FROM tournament_entrants e
             LEFT JOIN ratings r ON r.player_id = e.player_id AND r.pool = $2
             WHERE e.tournament_id = $1 ORDER BY e.entrant",
        )
        .bind(t.id.0)
        .bind(t.pool())
        .fetch_all(&mut *tx)
        .await?;
        let mut entrants = Vec::with_capacity(rows.len());
        for r in &rows {
            let rating: Option<f64> = r.try_get("rating")?;
            entrants.push(Entrant::new(
                r.try_get::<i64, _>("entrant")? as u32,
                rating.unwrap_or(ratings::INITIAL),
            ));
        }
        if entrants.len() < 2 {
            if !cancel_if_too_few {
                return Ok(Started::TooFew(entrants.len() as u32));
            }
            sqlx::query(
                "UPDATE tournaments SET status = 'cancelled', reason = $1, finished_ms = $2
                 WHERE id = $3",
            )
            .bind(format!(
                "fewer than two entrants at the start ({})",
                entrants.len()
            ))
            .bind(now_ms)
            .bind(t.id.0)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(Started::Cancelled);
        }
        let (rounds, state) = plan::at_start(t.plan_format(), &entrants).map_err(|e| {
            StoreError::Conflict(
                ErrorReason::Conflict,
                format!("the tournament cannot start: {e}"),
            )
        })?;
        for e in &entrants {
            sqlx::query(
                "UPDATE tournament_entrants SET rating = $1 WHERE tournament_id = $2 AND entrant = $3",
            )
            .bind(e.rating)
            .bind(t.id.0)
            .bind(e.id.0 as i32)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE tournaments SET status = 'running', rounds = $1, state = $2, started_ms = $3
             WHERE id = $4",
        )
        .bind(rounds as i32)
        .bind(state)
        .bind(now_ms)
        .bind(t.id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Started::Started)
    }

    /// The tournament and round whose pairing a series is, if it is one's: the tournament
    /// links its game 1.
    pub async fn tournament_round_of_series(
        &self,
        series: SeriesId,
    ) -> StoreResult<Option<(TournamentId, u32)>> {
        let row = sqlx::query(
            "SELECT g.tournament_id, g.round FROM tournament_games g
             JOIN matches m ON m.id = g.match_id WHERE m.series_id = $1",
        )
        .bind(series.0)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>((
                    TournamentId(r.try_get("tournament_id")?),
                    r.try_get::<i64, _>("round")? as u32,
                ))
            })
            .transpose()?)
    }

    /// Every game and bye of a tournament, in round and board order, with its match's state.
    pub async fn tournament_games(&self, id: TournamentId) -> StoreResult<Vec<StoredGame>> {
        let rows = sqlx::query(
            "SELECT g.round, g.board, g.match_id, g.seat0_entrant, g.seat1_entrant, g.decider,
                    g.result, g.reason, g.created_ms, m.created_ms AS match_created_ms,
                    m.series_id, s.points,
                    CASE WHEN s.id IS NULL THEN m.status ELSE s.status END AS match_status,
                    CASE WHEN s.id IS NULL THEN m.result_places ELSE s.result_places END
                        AS result_places,
                    CASE WHEN s.id IS NULL THEN m.result_reason ELSE s.result_reason END
                        AS result_reason
             FROM tournament_games g LEFT JOIN matches m ON m.id = g.match_id
                  LEFT JOIN series s ON s.id = m.series_id
             WHERE g.tournament_id = $1 ORDER BY g.round, g.board",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let places: Option<String> = r.try_get("result_places")?;
                let reason: Option<String> = r.try_get("result_reason")?;
                Ok(StoredGame {
                    round: r.try_get::<i64, _>("round")? as u32,
                    board: r.try_get::<i64, _>("board")? as u32,
                    match_id: r.try_get::<Option<i64>, _>("match_id")?.map(MatchId),
                    seat0: r.try_get::<i64, _>("seat0_entrant")? as u32,
                    seat1: r
                        .try_get::<Option<i64>, _>("seat1_entrant")?
                        .map(|s| s as u32),
                    decider: r.try_get::<i64, _>("decider")? != 0,
                    result: r.try_get("result")?,
                    reason: r.try_get("reason")?,
                    created_ms: r.try_get("created_ms")?,
                    match_status: r.try_get("match_status")?,
                    match_result: places
                        .zip(reason)
                        .map(|(p, r)| (serde_json::from_str(&p).unwrap_or_default(), r)),
                    match_created_ms: r.try_get("match_created_ms")?,
                    series: r.try_get::<Option<i64>, _>("series_id")?.map(SeriesId),
                    game_points: r
                        .try_get::<Option<String>, _>("points")?
                        .and_then(|p| serde_json::from_str(&p).ok()),
                })
            })
            .collect()
    }

    /// Adds games and byes to a round in one transaction, and makes it the current round.
    /// Returns false (and writes nothing) if any of their boards already exists.
    pub async fn add_tournament_games(
        &self,
        id: TournamentId,
        round: u32,
        slots: &[NewSlot],
        now_ms: i64,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        for slot in slots {
            let inserted = sqlx::query(
                "INSERT INTO tournament_games (tournament_id, round, board, seat0_entrant,
                                               seat1_entrant, decider, result, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(id.0)
            .bind(round as i32)
            .bind(slot.board as i32)
            .bind(slot.seat0.0 as i32)
            .bind(slot.seat1.map(|s| s.0 as i32))
            .bind(i32::from(slot.decider))
            .bind(slot.seat1.is_none().then_some("bye"))
            .bind(now_ms)
            .execute(&mut *tx)
            .await;
            match inserted {
                Ok(_) => {}
                Err(sqlx::Error::Database(db)) if db.is_unique_violation() => return Ok(false),
                Err(e) => return Err(e.into()),
            }
        }
        sqlx::query(
            "UPDATE tournaments SET current_round = $1 WHERE id = $2 AND current_round < $1",
        )
        .bind(round as i32)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores the match of a game and links the game to it, in one transaction, so that a crash
    /// can never leave a match that its game does not know of (the director would open a second
    /// one). `None` when the game already has a match: nothing is stored then.
    pub async fn create_tournament_match(
        &self,
        id: TournamentId,
        round: u32,
        board: u32,
        opening: &mut Opening,
    ) -> StoreResult<Option<MatchId>> {
        let mut tx = self.pool.begin().await?;
        let match_id = insert_match(&mut tx, opening).await?;
        let linked = sqlx::query(
            "UPDATE tournament_games SET match_id = $1
             WHERE tournament_id = $2 AND round = $3 AND board = $4 AND match_id IS NULL",
        )
        .bind(match_id.0)
        .bind(id.0)
        .bind(round as i32)
        .bind(board as i32)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if linked != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        tx.commit().await?;
        Ok(Some(match_id))
    }

    /// Records a game's result, once: false if it already had one.
    pub async fn set_tournament_result(
        &self,
        id: TournamentId,
        round: u32,
        board: u32,
        outcome: Outcome,
        reason: &str,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE tournament_games SET result = $1, reason = $2
             WHERE tournament_id = $3 AND round = $4 AND board = $5 AND result IS NULL",
        )
        .bind(outcome_name(outcome))
        .bind(reason)
        .bind(id.0)
        .bind(round as i32)
        .bind(board as i32)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn set_tournament_state(&self, id: TournamentId, state: &str) -> StoreResult<()> {
        sqlx::query("UPDATE tournaments SET state = $1 WHERE id = $2")
            .bind(state)
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks a running tournament finished; false if it was not running.
    pub async fn finish_tournament(&self, id: TournamentId, now_ms: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'finished', finished_ms = $1
             WHERE id = $2 AND status = 'running'",
        )
        .bind(now_ms)
        .bind(id.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
