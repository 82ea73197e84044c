//! Storage: accounts, sessions, matches with their action logs, and ratings, in PostgreSQL (the
//! production backend) or SQLite (the embedded default), through sqlx's Any driver so that one
//! set of queries serves both. Migrations for each backend live in `migrations/`.
//!
//! Every write that a client is told about happens here first: an action is acknowledged only
//! after `append_action` returns.

use std::str::FromStr;

use protocol::{ErrorCode, MatchId, PlayerId, PlayerRef};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Connection, Executor, Row};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Duration, Instant};

use crate::error::ApiError;
use crate::ratings::{self, Rated};

/// Names of the AI's accounts start with this, and no human's may.
pub const AI_PREFIX: &str = "ai-";

/// The AI level an account plays at, from its name (`ai-level-3`).
pub fn ai_level(name: &str) -> Option<engine::ai::Level> {
    let level = name
        .strip_prefix(AI_PREFIX)?
        .strip_prefix("level-")?
        .parse()
        .ok()?;
    engine::ai::Level::new(level)
}

#[derive(Debug)]
pub enum StoreError {
    /// A uniqueness rule was broken (a taken username or seat).
    Conflict(String),
    Database(sqlx::Error),
    /// The database could not be opened at start: where, and why.
    Unreachable {
        database: String,
        cause: String,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict(what) => write!(f, "{what}"),
            StoreError::Database(e) => write!(f, "database error: {e}"),
            StoreError::Unreachable { database, cause } => {
                write!(f, "could not open the database ({database}): {cause}")
            }
        }
    }
}

/// How long the server waits for its database at start before it gives up and says why.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(4);

/// Where a database URL points, for people: the SQLite file, or PostgreSQL's host, port,
/// database and user. Never the password.
pub fn describe(url: &str) -> String {
    if let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    {
        let path = path.split('?').next().unwrap_or(path);
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.into());
        return format!("SQLite file {}", absolute.display());
    }
    match sqlx::postgres::PgConnectOptions::from_str(url) {
        Ok(o) => format!(
            "PostgreSQL at {}:{}, database {}, user {}",
            o.get_host(),
            o.get_port(),
            o.get_database().unwrap_or("(the user's)"),
            o.get_username()
        ),
        Err(_) => "an unsupported database URL".to_string(),
    }
}

/// The root cause of a failed connection, in words (`Connection refused (os error 111)`).
fn cause(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Io(io) => io.to_string(),
        sqlx::Error::Database(db) => db.message().to_string(),
        other => other.to_string(),
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e)
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// A failed write as a storage error: a broken uniqueness rule becomes `Conflict(what)`, the
/// sentence the client is told; anything else stays a database error.
pub(crate) fn unique(what: impl FnOnce() -> String) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |e| match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what()),
        _ => StoreError::Database(e),
    }
}

/// Storage errors as the API reports them: a broken uniqueness rule is the client's `conflict`;
/// anything else is our fault, logged here and reported as `internal` without its details.
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict(what) => ApiError::new(ErrorCode::Conflict, what),
            e @ (StoreError::Database(_) | StoreError::Unreachable { .. }) => {
                // The details stay in the log; clients learn only that it was our fault.
                tracing::error!(error = %e, "database error");
                ApiError::new(
                    ErrorCode::Internal,
                    "the server could not complete the request",
                )
            }
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

#[derive(Clone, Debug)]
pub struct Store {
    /// Other modules add their own queries in `impl Store` blocks (tournaments do).
    pub(crate) pool: AnyPool,
    backend: Backend,
    /// Actions waiting for the group-commit writer (see [`Store::append_action`]).
    appends: mpsc::UnboundedSender<Append>,
}

/// An action to append, and where to say when it is durable.
#[derive(Debug)]
struct Append {
    id: MatchId,
    action: StoredAction,
    done: oneshot::Sender<StoreResult<()>>,
}

/// Most actions written in one transaction.
const MOST_PER_BATCH: usize = 64;

/// How much the database holds.
pub struct Counts {
    pub players: u64,
    pub finished_matches: u64,
    pub running_tournaments: u64,
}

/// A player row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub password_hash: Option<String>,
    pub guest: bool,
}

impl Player {
    pub fn public(&self) -> PlayerRef {
        PlayerRef {
            id: self.id,
            name: self.name.clone(),
            guest: self.guest,
        }
    }
}

/// Everything chosen when a match is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    pub game: String,
    pub variant: String,
    pub seats: u8,
    pub rated: bool,
    /// Fischer clock as (base, increment) in milliseconds.
    pub clock: Option<(u64, u64)>,
    pub private: bool,
    pub invite: Option<String>,
    pub hotseat: bool,
    pub seed: u64,
    pub created_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting,
    Live,
    Finished,
    Aborted,
}

impl Status {
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

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
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
    pub actions: Vec<StoredAction>,
    /// A tournament's game: its pairing was not the players' choice, and the tournament needs
    /// a result however early it ends.
    pub in_tournament: bool,
}

/// A rating change written with a result.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub seat: u8,
    pub player: PlayerId,
    pub before: f64,
    pub after: f64,
}

fn flag(b: bool) -> i32 {
    i32::from(b)
}

fn player_from(row: &AnyRow, prefix: &str) -> sqlx::Result<Player> {
    let col = |name: &str| format!("{prefix}{name}");
    Ok(Player {
        id: PlayerId(row.try_get(col("id").as_str())?),
        name: row.try_get(col("name").as_str())?,
        password_hash: row.try_get(col("password_hash").as_str())?,
        guest: row.try_get::<i64, _>(col("guest").as_str())? != 0,
    })
}

impl Store {
    /// Connects to `url` (`postgres://...` or `sqlite://path`), creating an SQLite file if it
    /// does not exist, and runs the backend's migrations.
    pub async fn connect(url: &str) -> StoreResult<Store> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            return Err(StoreError::Database(sqlx::Error::Configuration(
                format!("unsupported database URL '{url}': use postgres:// or sqlite://").into(),
            )));
        };
        let url = match backend {
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_string(),
        };
        let options = AnyConnectOptions::from_str(&url)?;
        // One connection first, bounded in time, so that a database that is down, unreachable or
        // not writable is reported at once, by name, rather than after the pool's long wait.
        let unreachable = |cause: String| StoreError::Unreachable {
            database: describe(&url),
            cause,
        };
        match tokio::time::timeout(CONNECT_TIMEOUT, sqlx::AnyConnection::connect_with(&options))
            .await
        {
            Ok(Ok(conn)) => {
                let _ = conn.close().await;
            }
            Ok(Err(e)) => return Err(unreachable(cause(&e))),
            Err(_) => {
                return Err(unreachable(format!(
                    "no answer within {} s",
                    CONNECT_TIMEOUT.as_secs()
                )));
            }
        }
        let pool = AnyPoolOptions::new()
            // SQLite allows one writer at a time; more connections only wait on each other.
            .max_connections(match backend {
                Backend::Postgres => 16,
                Backend::Sqlite => 1,
            })
            // On every connection, not once: the pool replaces idle and old connections.
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // Write-ahead logging lets readers work beside the writer; NORMAL sync
                        // is durable across process crashes (the guarantee we give), only not
                        // across power loss.
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                             PRAGMA foreign_keys = ON;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        let migrator = match backend {
            Backend::Postgres => sqlx::migrate!("../migrations/postgres"),
            Backend::Sqlite => sqlx::migrate!("../migrations/sqlite"),
        };
        migrator
            .run(&pool)
            .await
            .map_err(|e| StoreError::Database(e.into()))?;
        let (appends, waiting) = mpsc::unbounded_channel();
        tokio::spawn(write_appends(pool.clone(), backend, waiting));
        Ok(Store {
            pool,
            backend,
            appends,
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool, waiting for every connection in use to come back. The server calls it
    /// once every match room has stopped: a room waits for each of its actions to be durable
    /// before it goes on, so by then the group-commit writer has nothing in flight. Later writes
    /// fail (`PoolClosed`) rather than vanish: the writers' own PostgreSQL connections are not
    /// the pool's, so each writer checks and lets its connection go.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// What the database holds, for the start-up log.
    pub async fn counts(&self) -> StoreResult<Counts> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM players WHERE removed_ms IS NULL) AS players,
                    (SELECT COUNT(*) FROM matches WHERE status = 'finished') AS finished,
                    (SELECT COUNT(*) FROM tournaments WHERE status = 'running') AS tournaments",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(Counts {
            players: row.try_get::<i64, _>("players")? as u64,
            finished_matches: row.try_get::<i64, _>("finished")? as u64,
            running_tournaments: row.try_get::<i64, _>("tournaments")? as u64,
        })
    }

    /// Cheap check that the database answers.
    pub async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    // --- Accounts -------------------------------------------------------------------------

    pub async fn create_player(
        &self,
        name: &str,
        password_hash: Option<&str>,
        guest: bool,
        now_ms: i64,
    ) -> StoreResult<Player> {
        let row = sqlx::query(
            "INSERT INTO players (name, name_key, password_hash, guest, created_ms)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(password_hash)
        .bind(flag(guest))
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await
        .map_err(unique(|| format!("the name '{name}' is taken")))?;
        Ok(Player {
            id: PlayerId(row.try_get("id")?),
            name: name.to_string(),
            password_hash: password_hash.map(str::to_string),
            guest,
        })
    }

    /// The AI's accounts, `ai-level-1` to `ai-level-5`, created on first use. They have no
    /// password, so nobody can log in as them, and `ai-` names are reserved (`auth.rs`).
    pub async fn ai_players(&self, now_ms: i64) -> StoreResult<Vec<Player>> {
        let mut players = Vec::new();
        for level in engine::ai::Level::ALL {
            let name = format!("{AI_PREFIX}level-{}", level.get());
            let player = match self.player_by_name(&name).await? {
                Some(p) => p,
                None => match self.create_player(&name, None, false, now_ms).await {
                    Ok(p) => p,
                    // Another server on the same database created it first.
                    Err(StoreError::Conflict(_)) => self
                        .player_by_name(&name)
                        .await?
                        .ok_or_else(|| StoreError::Conflict(format!("{name} vanished")))?,
                    Err(e) => return Err(e),
                },
            };
            players.push(player);
        }
        Ok(players)
    }

    /// The player with this name, compared case-insensitively.
    pub async fn player_by_name(&self, name: &str) -> StoreResult<Option<Player>> {
        let row =
            sqlx::query("SELECT id, name, password_hash, guest FROM players WHERE name_key = $1")
                .bind(name.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| player_from(&r, "")).transpose()?)
    }

    pub async fn player(&self, id: PlayerId) -> StoreResult<Option<Player>> {
        let row = sqlx::query("SELECT id, name, password_hash, guest FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| player_from(&r, "")).transpose()?)
    }

    pub async fn create_session(
        &self,
        token_hash: &str,
        player: PlayerId,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, player_id, created_ms, expires_ms, revoked)
             VALUES ($1, $2, $3, $4, 0)",
        )
        .bind(token_hash)
        .bind(player.0)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The player a live (unexpired, unrevoked) session belongs to.
    pub async fn session_player(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<Player>> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.password_hash, p.guest
             FROM sessions s JOIN players p ON p.id = s.player_id
             WHERE s.token_hash = $1 AND s.revoked = 0 AND s.expires_ms > $2
               AND p.banned_ms IS NULL",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| player_from(&r, "")).transpose()?)
    }

    pub async fn revoke_session(&self, token_hash: &str) -> StoreResult<()> {
        sqlx::query("UPDATE sessions SET revoked = 1 WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Notes that an account is in use now (a login, a session, a socket): idle guests are
    /// removed by how long they have gone unused.
    pub async fn touch_player(&self, id: PlayerId, now_ms: i64) -> StoreResult<()> {
        sqlx::query("UPDATE players SET last_seen_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // --- Fair play and moderation ---------------------------------------------------------

    /// Makes an account an admin, or not; false if there is no such account.
    pub async fn set_admin(&self, name: &str, admin: bool) -> StoreResult<bool> {
        let done = sqlx::query("UPDATE players SET admin = $1 WHERE name_key = $2")
            .bind(flag(admin))
            .bind(name.to_lowercase())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn is_admin(&self, id: PlayerId) -> StoreResult<bool> {
        let row = sqlx::query("SELECT admin FROM players WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>("admin")? != 0,
            None => false,
        })
    }

    /// Bans an account and revokes every session of it, in one transaction; false if there is
    /// no such account.
    pub async fn ban(&self, id: PlayerId, reason: &str, now_ms: i64) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query("UPDATE players SET banned_ms = $1, ban_reason = $2 WHERE id = $3")
            .bind(now_ms)
            .bind(reason)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE sessions SET revoked = 1 WHERE player_id = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Lifts a ban; false if there is no such account.
    pub async fn unban(&self, id: PlayerId) -> StoreResult<bool> {
        let done =
            sqlx::query("UPDATE players SET banned_ms = NULL, ban_reason = NULL WHERE id = $1")
                .bind(id.0)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Why an account is banned; `None` when it is not.
    pub async fn ban_reason(&self, id: PlayerId) -> StoreResult<Option<String>> {
        let row =
            sqlx::query("SELECT ban_reason FROM players WHERE id = $1 AND banned_ms IS NOT NULL")
                .bind(id.0)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| r.try_get("ban_reason")).transpose()?)
    }

    /// Removes the guest accounts unused since `idle_since_ms` that sit in no unfinished match
    /// and no unfinished tournament: their sessions go, and their name becomes `anonymous`; the
    /// row stays, so that their finished matches keep their seats. Returns how many went.
    pub async fn remove_idle_guests(&self, idle_since_ms: i64, now_ms: i64) -> StoreResult<u64> {
        let mut tx = self.pool.begin().await?;
        let idle = "guest = 1 AND removed_ms IS NULL
            AND COALESCE(last_seen_ms, created_ms) < $1
            AND NOT EXISTS (SELECT 1 FROM match_seats s JOIN matches m ON m.id = s.match_id
                            WHERE s.player_id = players.id AND m.status IN ('waiting', 'live'))
            AND NOT EXISTS (SELECT 1 FROM tournament_entrants e
                            JOIN tournaments t ON t.id = e.tournament_id
                            WHERE e.player_id = players.id
                              AND t.status IN ('registering', 'running'))";
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM sessions WHERE player_id IN (SELECT id FROM players WHERE {idle})"
        )))
        .bind(idle_since_ms)
        .execute(&mut *tx)
        .await?;
        let removed = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE players SET name = 'anonymous', name_key = 'removed-' || id,
                    removed_ms = $2
             WHERE {idle}"
        )))
        .bind(idle_since_ms)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(removed.rows_affected())
    }

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
    pub async fn set_casual(&self, id: MatchId) -> StoreResult<()> {
        sqlx::query("UPDATE matches SET rated = 0 WHERE id = $1")
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Casual matches without a clock, waiting or being played, in which nothing has happened
    /// since `idle_since_ms`: each with its number of actions, so that the room can tell
    /// whether one came in meanwhile.
    pub async fn idle_matches(&self, idle_since_ms: i64) -> StoreResult<Vec<(MatchId, usize)>> {
        let rows = sqlx::query(
            "SELECT m.id, (SELECT COUNT(*) FROM match_actions a WHERE a.match_id = m.id) AS plies
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
                    r.try_get::<i64, _>("plies")? as usize,
                ))
            })
            .collect()
    }

    // --- Matches --------------------------------------------------------------------------

    pub async fn create_match(&self, spec: &NewMatch) -> StoreResult<MatchId> {
        let mut conn = self.pool.acquire().await?;
        insert_match(&mut conn, spec).await
    }

    /// Records who sits in a seat, and the match's event count so far.
    pub async fn take_seat(
        &self,
        id: MatchId,
        seat: u8,
        player: PlayerId,
        seq: u64,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
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

    pub async fn set_live(&self, id: MatchId, seq: u64) -> StoreResult<()> {
        sqlx::query("UPDATE matches SET status = 'live', last_seq = $1 WHERE id = $2")
            .bind(seq as i64)
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Appends one accepted action to the match's log. Returns once it is durable.
    ///
    /// The actions of every match go through one group-commit writer: those that arrive while
    /// earlier ones are being written are written together, in one transaction, so that a busy
    /// server pays one round trip and one commit for many moves (see `write_appends`).
    pub async fn append_action(&self, id: MatchId, action: &StoredAction) -> StoreResult<()> {
        let (done, written) = oneshot::channel();
        let append = Append {
            id,
            action: action.clone(),
            done,
        };
        let gone = || StoreError::Database(sqlx::Error::PoolClosed);
        self.appends.send(append).map_err(|_| gone())?;
        written.await.map_err(|_| gone())?
    }

    /// Records the result of a live or waiting match and, for a rated one, every seat's rating
    /// change, in one transaction. Returns the rating changes, or `None` if the match was
    /// already over: a result is written exactly once.
    pub async fn finish_match(
        &self,
        id: MatchId,
        places: &[u8],
        reason: &str,
        seq: u64,
        now_ms: i64,
    ) -> StoreResult<Option<Vec<RatingChange>>> {
        let mut tx = self.pool.begin().await?;
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
        tx.commit().await?;
        Ok(Some(changes))
    }

    /// Calls off a match that has not finished, unrated, with every seat in `places` (all
    /// equal) and why (`aborted`, `idle`). Returns false if it was already over.
    pub async fn abort_match(
        &self,
        id: MatchId,
        places: &[u8],
        reason: &str,
        seq: u64,
        now_ms: i64,
    ) -> StoreResult<bool> {
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
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
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
            "SELECT ply, seq, seat, action, clock_ms, at_ms, command_id FROM match_actions
             WHERE match_id = $1 ORDER BY ply",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        for r in rows {
            m.actions.push(StoredAction {
                ply: r.try_get::<i64, _>("ply")? as u32,
                seq: r.try_get::<i64, _>("seq")? as u64,
                seat: r.try_get::<i64, _>("seat")? as u8,
                action: r.try_get("action")?,
                clock_ms: r.try_get::<Option<i64>, _>("clock_ms")?.map(|ms| ms as u64),
                at_ms: r.try_get("at_ms")?,
                command_id: r.try_get("command_id")?,
            });
        }
        // Moves do not update the match row (see `insert_as_json`): the last action may be newer.
        if let Some(last) = m.actions.last() {
            m.last_seq = m.last_seq.max(last.seq);
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
        let row = sqlx::query(
            "SELECT id, game, variant, seats, rated, clock_base_ms, clock_increment_ms, private,
                    invite, hotseat, seed, status, result_places, result_reason, last_seq,
                    created_ms,
                    EXISTS (SELECT 1 FROM tournament_games g WHERE g.match_id = matches.id)
                        AS in_tournament
             FROM matches WHERE id = $1",
        )
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
        let places: Option<String> = row.try_get("result_places")?;
        let reason: Option<String> = row.try_get("result_reason")?;
        let spec = NewMatch {
            game: row.try_get("game")?,
            variant: row.try_get("variant")?,
            seats,
            rated: row.try_get::<i64, _>("rated")? != 0,
            clock: base.zip(inc).map(|(b, i)| (b as u64, i as u64)),
            private: row.try_get::<i64, _>("private")? != 0,
            invite: row.try_get("invite")?,
            hotseat: row.try_get::<i64, _>("hotseat")? != 0,
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
            actions: Vec::new(),
            // Lists of matches do not ask.
            in_tournament: row
                .try_get::<bool, _>("in_tournament")
                .or_else(|_| row.try_get::<i64, _>("in_tournament").map(|n| n != 0))
                .unwrap_or(false),
        })
    }

    /// The latest matches a player sat in, newest first.
    pub async fn matches_of(&self, player: PlayerId, limit: i64) -> StoreResult<Vec<StoredMatch>> {
        let rows = sqlx::query(
            "SELECT m.id, m.game, m.variant, m.seats, m.rated, m.clock_base_ms,
                    m.clock_increment_ms, m.private, m.invite, m.hotseat, m.seed, m.status,
                    m.result_places, m.result_reason, m.last_seq, m.created_ms
             FROM matches m WHERE m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)
             ORDER BY m.id DESC LIMIT $2",
        )
        .bind(player.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        self.stored_matches(&rows).await
    }

    /// One page of the public matches with this status, newest first: those being played
    /// (`Live`, hot-seat ones left out: nobody can join or would watch them) or those waiting
    /// for players (`Waiting`).
    pub async fn listed_matches(
        &self,
        status: Status,
        page: u32,
        per_page: u32,
    ) -> StoreResult<Vec<StoredMatch>> {
        let rows = sqlx::query(
            "SELECT id, game, variant, seats, rated, clock_base_ms, clock_increment_ms, private,
                    invite, hotseat, seed, status, result_places, result_reason, last_seq,
                    created_ms
             FROM matches WHERE status = $1 AND private = 0 AND hotseat = 0
             ORDER BY id DESC LIMIT $2 OFFSET $3",
        )
        .bind(status.as_str())
        .bind(i64::from(per_page))
        .bind(i64::from(page.saturating_sub(1)) * i64::from(per_page))
        .fetch_all(&self.pool)
        .await?;
        self.stored_matches(&rows).await
    }

    async fn stored_matches(&self, rows: &[AnyRow]) -> StoreResult<Vec<StoredMatch>> {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.stored_match(row).await?);
        }
        Ok(out)
    }

    /// The seats a player took in their latest matches of a game and variant, newest first:
    /// what the queue balances tafl sides with.
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

    // --- Ratings --------------------------------------------------------------------------

    /// A player's rating in one pool, or the initial rating if they have not played in it.
    pub async fn rating_in(&self, player: PlayerId, pool: &str) -> StoreResult<f64> {
        let row = sqlx::query("SELECT rating FROM ratings WHERE player_id = $1 AND pool = $2")
            .bind(player.0)
            .bind(pool)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("rating")?,
            None => ratings::INITIAL,
        })
    }

    /// One page of a pool's leaderboard: players with their rating and games played.
    pub async fn leaderboard(
        &self,
        pool: &str,
        page: u32,
        per_page: u32,
    ) -> StoreResult<Vec<(Player, f64, u32)>> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.password_hash, p.guest, r.rating, r.games
             FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.pool = $1 AND p.banned_ms IS NULL
             ORDER BY r.rating DESC, p.id LIMIT $2 OFFSET $3",
        )
        .bind(pool)
        .bind(i64::from(per_page))
        .bind(i64::from(page.saturating_sub(1)) * i64::from(per_page))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    player_from(r, "")?,
                    r.try_get::<f64, _>("rating")?,
                    r.try_get::<i64, _>("games")? as u32,
                ))
            })
            .collect()
    }

    /// A player's rating in every pool they have played.
    pub async fn ratings_of(&self, player: PlayerId) -> StoreResult<Vec<(String, f64, u32)>> {
        let rows = sqlx::query(
            "SELECT pool, rating, games FROM ratings WHERE player_id = $1 ORDER BY pool",
        )
        .bind(player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("pool")?,
                    r.try_get::<f64, _>("rating")?,
                    r.try_get::<i64, _>("games")? as u32,
                ))
            })
            .collect()
    }

    /// Every rating change of a player, oldest first: (pool, match, before, after, at).
    pub async fn rating_history(
        &self,
        player: PlayerId,
    ) -> StoreResult<Vec<(String, MatchId, f64, f64, i64)>> {
        let rows = sqlx::query(
            "SELECT pool, match_id, rating_before, rating_after, at_ms FROM rating_changes
             WHERE player_id = $1 ORDER BY at_ms, match_id",
        )
        .bind(player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("pool")?,
                    MatchId(r.try_get("match_id")?),
                    r.try_get::<f64, _>("rating_before")?,
                    r.try_get::<f64, _>("rating_after")?,
                    r.try_get("at_ms")?,
                ))
            })
            .collect()
    }

    /// The rating changes recorded for one match, by seat.
    pub async fn rating_changes(&self, id: MatchId) -> StoreResult<Vec<RatingChange>> {
        let rows = sqlx::query(
            "SELECT seat, player_id, rating_before, rating_after FROM rating_changes
             WHERE match_id = $1 ORDER BY seat",
        )
        .bind(id.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingChange {
                    seat: r.try_get::<i64, _>("seat")? as u8,
                    player: PlayerId(r.try_get("player_id")?),
                    before: r.try_get("rating_before")?,
                    after: r.try_get("rating_after")?,
                })
            })
            .collect()
    }
}

/// The group-commit writer: takes every action waiting, up to [`MOST_PER_BATCH`], writes them in
/// one transaction and tells each sender. A few batches are written at once (one [`Writer`]
/// each), so that the next batch fills while earlier ones commit.
async fn write_appends(
    pool: AnyPool,
    backend: Backend,
    mut waiting: mpsc::UnboundedReceiver<Append>,
) {
    let writers = match backend {
        Backend::Postgres => 2,
        Backend::Sqlite => 1,
    };
    let (idle, mut free) = mpsc::channel(writers);
    for _ in 0..writers {
        let writer = match backend {
            Backend::Postgres => Writer::Postgres {
                pool: pool.clone(),
                own: None,
            },
            Backend::Sqlite => Writer::Sqlite(pool.clone()),
        };
        idle.try_send(writer).expect("room for every writer");
    }
    // `idle` is kept here, so `free` never ends.
    while let Some(mut writer) = free.recv().await {
        let mut batch = Vec::with_capacity(MOST_PER_BATCH);
        if waiting.recv_many(&mut batch, MOST_PER_BATCH).await == 0 {
            return;
        }
        let idle = idle.clone();
        tokio::spawn(async move {
            match writer.write(&batch).await {
                Ok(()) => {
                    for append in batch {
                        let _ = append.done.send(Ok(()));
                    }
                }
                Err(e) if batch.len() == 1 => {
                    let append = batch.pop().expect("one action");
                    let _ = append.done.send(Err(e));
                }
                // Nothing was written; one bad action must not sink the others.
                Err(_) => {
                    for append in batch {
                        let written = writer.write(std::slice::from_ref(&append)).await;
                        let _ = append.done.send(written);
                    }
                }
            }
            let _ = idle.send(writer).await;
        });
    }
}

/// One of the group-commit writers.
enum Writer {
    /// Through the pool's one connection, which keeps every write to the file in one queue.
    Sqlite(AnyPool),
    /// With a connection of the writer's own, kept from batch to batch, and when it was last
    /// used. One taken from the pool for each batch is pinged by sqlx when taken and again when
    /// given back: two extra round trips a batch, 8% of the server's CPU under load.
    Postgres {
        pool: AnyPool,
        own: Option<(sqlx::AnyConnection, Instant)>,
    },
}

/// A writer's connection left alone this long is pinged before its next batch, so that one
/// the database dropped meanwhile (a restart) is replaced instead of failing a move. Under
/// load, batches follow each other much faster than this.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

impl Writer {
    async fn write(&mut self, batch: &[Append]) -> StoreResult<()> {
        let (pool, own) = match self {
            Writer::Sqlite(pool) => return insert_in_transaction(pool, batch).await,
            Writer::Postgres { pool, own } => (pool, own),
        };
        if pool.is_closed() {
            // The store is closing: refuse, as the pool does, and let the connection go.
            *own = None;
            return Err(sqlx::Error::PoolClosed.into());
        }
        if let Some((conn, used)) = own
            && used.elapsed() > PING_AFTER_IDLE
            && conn.ping().await.is_err()
        {
            *own = None;
        }
        let (conn, used) = match own {
            Some(own) => own,
            None => own.insert((pool.acquire().await?.detach(), Instant::now())),
        };
        let written = insert_as_json(conn, batch).await;
        *used = Instant::now();
        if written.is_err() {
            // The connection may be what failed: the next batch opens a new one.
            *own = None;
        }
        written
    }
}

/// Inserts a new match, waiting for players; on a connection rather than the pool so that a
/// caller can make it part of a transaction (the tournament director links the match to its
/// game in the same one).
pub(crate) async fn insert_match(
    conn: &mut sqlx::AnyConnection,
    spec: &NewMatch,
) -> StoreResult<MatchId> {
    let row = sqlx::query(
        "INSERT INTO matches (game, variant, seats, rated, clock_base_ms, clock_increment_ms,
                              private, invite, hotseat, seed, status, last_seq, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'waiting', 0, $11) RETURNING id",
    )
    .bind(&spec.game)
    .bind(&spec.variant)
    .bind(i32::from(spec.seats))
    .bind(flag(spec.rated))
    .bind(spec.clock.map(|(base, _)| base as i64))
    .bind(spec.clock.map(|(_, inc)| inc as i64))
    .bind(flag(spec.private))
    .bind(spec.invite.as_deref())
    .bind(flag(spec.hotseat))
    // Seeds are any u64; the column is signed, so the bits are stored as they are.
    .bind(spec.seed as i64)
    .bind(spec.created_ms)
    .fetch_one(conn)
    .await?;
    Ok(MatchId(row.try_get("id")?))
}

/// Writes actions on PostgreSQL (at most one per match: a room waits for each) in one statement.
/// The match's event count is not touched: an action carries its own event number, and
/// [`Store::load_match`] takes the larger of the two, which saves a row update per move.
async fn insert_as_json(conn: &mut sqlx::AnyConnection, batch: &[Append]) -> StoreResult<()> {
    // The batch goes as one JSON parameter, so the statement's text is the same for every
    // batch size: it is prepared once per connection instead of planned for each batch.
    #[derive(serde::Serialize)]
    struct Row<'a> {
        match_id: i64,
        ply: u32,
        seq: u64,
        seat: u8,
        action: &'a str,
        clock_ms: Option<u64>,
        at_ms: i64,
        command_id: Option<&'a str>,
    }
    let rows: Vec<Row> = batch
        .iter()
        .map(|Append { id, action: a, .. }| Row {
            match_id: id.0,
            ply: a.ply,
            seq: a.seq,
            seat: a.seat,
            action: &a.action,
            clock_ms: a.clock_ms,
            at_ms: a.at_ms,
            command_id: a.command_id.as_deref(),
        })
        .collect();
    sqlx::query(
        "INSERT INTO match_actions (match_id, ply, seq, seat, action, clock_ms, at_ms, command_id)
         SELECT match_id, ply, seq, seat, action, clock_ms, at_ms, command_id
         FROM json_to_recordset($1::json) AS v (match_id BIGINT, ply INTEGER, seq BIGINT,
                                                seat INTEGER, action TEXT,
                                                clock_ms BIGINT, at_ms BIGINT,
                                                command_id TEXT)",
    )
    .bind(serde_json::to_string(&rows).expect("actions serialise"))
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes actions on SQLite, one statement each, in one transaction (as in
/// [`insert_as_json`], the match's event count is not touched).
async fn insert_in_transaction(pool: &AnyPool, batch: &[Append]) -> StoreResult<()> {
    let mut tx = pool.begin().await?;
    for Append { id, action, .. } in batch {
        sqlx::query(
            "INSERT INTO match_actions
                 (match_id, ply, seq, seat, action, clock_ms, at_ms, command_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id.0)
        .bind(action.ply as i32)
        .bind(action.seq as i64)
        .bind(i32::from(action.seat))
        .bind(&action.action)
        .bind(action.clock_ms.map(|ms| ms as i64))
        .bind(action.at_ms)
        .bind(action.command_id.as_deref())
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool replaces idle, old and broken connections: each new one gets the settings too.
    #[tokio::test]
    async fn every_new_sqlite_connection_gets_the_settings() {
        let dir = std::env::temp_dir().join("tafl-server-tests");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("settings-{:016x}.db", rand::random::<u64>()));
        let store = Store::connect(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        for _ in 0..2 {
            let mut conn = store.pool.acquire().await.unwrap();
            let mut setting = async |name: &'static str| -> i64 {
                sqlx::query_scalar(name)
                    .fetch_one(&mut *conn)
                    .await
                    .unwrap()
            };
            let synchronous_normal = 1;
            assert_eq!(setting("PRAGMA synchronous").await, synchronous_normal);
            assert_eq!(setting("PRAGMA foreign_keys").await, 1);
            // Out of the pool for good: the next acquire opens a new connection.
            conn.detach().close().await.unwrap();
        }
        store.close().await;
        std::fs::remove_file(path).unwrap();
    }
}
