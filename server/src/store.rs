//! Storage: accounts, sessions, matches with their action logs, and ratings, in PostgreSQL (the
//! production backend) or SQLite (the embedded default), through sqlx's Any driver so that one
//! set of queries serves both. Migrations for each backend live in `migrations/`.
//!
//! The match queries and the group-commit writer of actions live with matches
//! (`matches/store.rs`, `matches/writer.rs`); tournaments keep theirs in `tournament/store.rs`.
//! Storage is a floor: it reads no clock (callers pass `now`) and records no metrics.

use std::str::FromStr;
use std::sync::Arc;

use protocol::{ErrorReason, MatchId, PlayerId, PlayerRef, RatingChange};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Connection, Executor, Row};
use tokio::time::Duration;

use crate::accounts::player::{AI_PREFIX, Player};
use crate::error::ApiError;

#[derive(Debug)]
pub enum StoreError {
    /// A uniqueness rule was broken (a taken username or seat): why, for the client.
    Conflict(ErrorReason, String),
    /// A write of a match by a node that no longer owns it (another node took it over): it
    /// was not made.
    Fenced(MatchId),
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
            StoreError::Conflict(_, what) => write!(f, "{what}"),
            StoreError::Fenced(id) => write!(f, "match {} is owned by another node now", id.0),
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
    if let Some(path) = sqlite_path(url) {
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

/// The SQLite file of an `sqlite:` URL, without its options.
fn sqlite_path(url: &str) -> Option<&str> {
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    path.split('?').next()
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

/// A failed write as a storage error: a broken uniqueness rule becomes `Conflict(reason, what)`,
/// what the client is told; anything else stays a database error.
pub(crate) fn unique(
    reason: ErrorReason,
    what: impl FnOnce() -> String,
) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |e| match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict(reason, what())
        }
        _ => StoreError::Database(e),
    }
}

/// What a client is told when its command reached a node that just lost the match: the
/// match goes on elsewhere, and the command may be sent again.
pub const MOVED: &str = "the match moved to another server node: send the command again";

/// Storage errors as the API reports them: a broken uniqueness rule is the client's `conflict`;
/// anything else is our fault, logged here and reported as `internal` without its details.
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::from(&e)
    }
}

impl From<&StoreError> for ApiError {
    fn from(e: &StoreError) -> ApiError {
        match e {
            StoreError::Conflict(reason, what) => ApiError::new(reason.clone(), what.clone()),
            StoreError::Fenced(id) => {
                tracing::warn!(
                    match_id = id.0,
                    "a write of a match another node took over was refused"
                );
                ApiError::new(ErrorReason::MatchMoved, MOVED)
            }
            e @ (StoreError::Database(_) | StoreError::Unreachable { .. }) => {
                // The details stay in the log; clients learn only that it was our fault.
                tracing::error!(error = %e, "database error");
                ApiError::new(
                    ErrorReason::Internal,
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

/// A connection left alone this long is pinged before it is used again, so that one the
/// database dropped meanwhile (a restart) is replaced instead of failing a statement. Under
/// load, statements follow each other much faster than this, and are not delayed by a ping.
pub const PING_AFTER_IDLE: std::time::Duration = std::time::Duration::from_secs(1);

#[derive(Clone, Debug)]
pub struct Store {
    /// Other modules add their own queries in `impl Store` blocks (tournaments do).
    pub(crate) pool: AnyPool,
    backend: Backend,
    /// The SQLite file, locked while a server serves it (`Store::claim_sole_server`).
    sole: Option<Arc<std::fs::File>>,
}

/// A username's failed logins, as stored (in the database, so that every node of a cluster
/// counts them): how many, and the end of the lock (the last failure's time while failures
/// are free), in milliseconds since the Unix epoch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Failures {
    pub count: u32,
    pub locked_until_ms: i64,
}

/// How much the database holds.
pub struct Counts {
    pub players: u64,
    pub finished_matches: u64,
    pub running_tournaments: u64,
}

pub(crate) fn flag(b: bool) -> i32 {
    i32::from(b)
}

pub(crate) fn player_from(row: &AnyRow, prefix: &str) -> sqlx::Result<Player> {
    let col = |name: &str| format!("{prefix}{name}");
    Ok(Player {
        id: PlayerId(row.try_get(col("id").as_str())?),
        name: row.try_get(col("name").as_str())?,
        password_hash: row.try_get(col("password_hash").as_str())?,
        guest: row.try_get::<i64, _>(col("guest").as_str())? != 0,
    })
}

pub(crate) fn player_ref(row: &AnyRow, prefix: &str) -> sqlx::Result<PlayerRef> {
    let col = |name: &str| format!("{prefix}{name}");
    Ok(PlayerRef {
        id: PlayerId(row.try_get(col("id").as_str())?),
        name: row.try_get(col("name").as_str())?,
        guest: row.try_get::<i64, _>(col("guest").as_str())? != 0,
    })
}

impl Store {
    /// A username's failed logins, if it has any remembered.
    pub async fn login_failures(&self, username: &str) -> StoreResult<Option<Failures>> {
        let row =
            sqlx::query("SELECT count, locked_until_ms FROM login_failures WHERE username = $1")
                .bind(username.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| {
            Ok(Failures {
                count: r.try_get::<i64, _>("count")? as u32,
                locked_until_ms: r.try_get("locked_until_ms")?,
            })
        })
        .transpose()
    }

    /// Stores a username's failed logins (`None`: forgets them, after a successful login).
    pub async fn set_login_failures(
        &self,
        username: &str,
        failures: Option<Failures>,
    ) -> StoreResult<()> {
        let name = username.to_lowercase();
        match failures {
            Some(f) => sqlx::query(
                "INSERT INTO login_failures (username, count, locked_until_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (username) DO UPDATE SET count = $2, locked_until_ms = $3",
            )
            .bind(name)
            .bind(i64::from(f.count))
            .bind(f.locked_until_ms),
            None => sqlx::query("DELETE FROM login_failures WHERE username = $1").bind(name),
        }
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets the failed logins whose lock ended before `before_ms`.
    pub async fn forget_login_failures(&self, before_ms: i64) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM login_failures WHERE locked_until_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

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
            // sqlx pings a connection every time it is taken from the pool by default: a round
            // trip on every statement of a move's path. Only one left idle a while is checked,
            // as the group-commit writer does with its own.
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_AFTER_IDLE {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
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
        Ok(Store {
            pool,
            backend,
            sole: None,
        })
    }

    /// Makes this process the one server of its SQLite file. Nothing shares the matches of one
    /// file between two processes (several nodes are for PostgreSQL), so a second server
    /// on the same file refuses to start instead of playing every match twice. The lock is the
    /// system's (`flock`) on the file itself: held while the store lives, gone with the process
    /// however it ends. Tools that only change rows (`server admin`) do not take it.
    pub fn claim_sole_server(mut self, url: &str) -> StoreResult<Store> {
        let Some(path) = sqlite_path(url).filter(|p| !p.starts_with(":memory:")) else {
            return Ok(self);
        };
        let unreachable = |cause: String| StoreError::Unreachable {
            database: describe(url),
            cause,
        };
        let file = std::fs::File::open(path).map_err(|e| unreachable(e.to_string()))?;
        match file.try_lock() {
            Ok(()) => {
                self.sole = Some(Arc::new(file));
                Ok(self)
            }
            Err(std::fs::TryLockError::WouldBlock) => Err(unreachable(
                "another server process is serving it; an SQLite database serves one server \
                 process"
                    .into(),
            )),
            Err(std::fs::TryLockError::Error(e)) => Err(unreachable(e.to_string())),
        }
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
        .map_err(unique(
            ErrorReason::UsernameTaken {
                name: name.to_string(),
            },
            || format!("the name '{name}' is taken"),
        ))?;
        Ok(Player {
            id: PlayerId(row.try_get("id")?),
            name: name.to_string(),
            password_hash: password_hash.map(str::to_string),
            guest,
        })
    }

    /// The AI's accounts, `ai-level-1` to `ai-level-5`, created on first use. They have no
    /// password, so nobody can log in as them, and `ai-` names are reserved (`accounts/credentials.rs`).
    pub async fn ai_players(&self, now_ms: i64) -> StoreResult<Vec<Player>> {
        let mut players = Vec::new();
        for level in engine::ai::Level::ALL {
            let name = format!("{AI_PREFIX}level-{}", level.get());
            let player = match self.player_by_name(&name).await? {
                Some(p) => p,
                None => match self.create_player(&name, None, false, now_ms).await {
                    Ok(p) => p,
                    // Another server on the same database created it first.
                    Err(StoreError::Conflict(..)) => {
                        self.player_by_name(&name).await?.ok_or_else(|| {
                            StoreError::Conflict(ErrorReason::Conflict, format!("{name} vanished"))
                        })?
                    }
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
    /// and no unfinished tournament: their sessions and follows go, and their name becomes
    /// `anonymous`; the row stays, so that their finished matches keep their seats. Returns how
    /// many went.
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
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM follows WHERE follower_id IN (SELECT id FROM players WHERE {idle})
                OR followed_id IN (SELECT id FROM players WHERE {idle})"
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
            None => crate::ratings::INITIAL,
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
