//! The group-commit writer of actions: every room's accepted actions go through it, and those
//! that arrive while earlier ones are being written are written together, in one transaction, so
//! that a busy server pays one round trip and one commit for many moves.

use protocol::MatchId;
use sqlx::{AnyPool, Connection, Row as _};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::delivery::{Delivery, Unreached};
use super::store::Entry;
use crate::cluster::store::Epoch;
use crate::store::{Backend, PING_AFTER_IDLE, Store, StoreError, StoreResult};

/// Where rooms append their accepted actions: a handle on the group-commit writer, which runs
/// as long as a handle does.
#[derive(Clone, Debug)]
pub struct ActionLog {
    appends: mpsc::UnboundedSender<Append>,
}

impl ActionLog {
    /// Starts the writer on the store's pool.
    pub fn start(store: &Store) -> ActionLog {
        let (appends, waiting) = mpsc::unbounded_channel();
        tokio::spawn(write_appends(store.pool.clone(), store.backend(), waiting));
        ActionLog { appends }
    }

    /// Appends one entry (an accepted action, or a takeback) to the match's log, if the match
    /// is still owned at `epoch` (else [`StoreError::Fenced`]). Returns once it is durable.
    pub async fn append(&self, id: MatchId, epoch: Epoch, entry: &Entry) -> StoreResult<()> {
        Written(self.queue(id, epoch, entry, None))
            .outcome()
            .await
            .map(drop)
    }

    /// Appends one entry as [`ActionLog::append`] does, and has `then` sent once it is durable
    /// (or its mover refused if it cannot be), without waiting: the caller learns how it went
    /// from what this returns, when it needs to.
    pub fn append_then(&self, id: MatchId, epoch: Epoch, entry: &Entry, then: Delivery) -> Written {
        Written(self.queue(id, epoch, entry, Some(then)))
    }

    fn queue(
        &self,
        id: MatchId,
        epoch: Epoch,
        entry: &Entry,
        then: Option<Delivery>,
    ) -> oneshot::Receiver<StoreResult<Unreached>> {
        let (done, written) = oneshot::channel();
        let append = Append {
            row: Row::of(id, epoch, entry),
            then,
            done,
            queued: std::time::Instant::now(),
        };
        // A writer gone drops the append, and with it `done`: the receiver says so.
        let _ = self.appends.send(append);
        written
    }
}

/// How an entry appended with [`ActionLog::append_then`] went, once it has: the followers its
/// delivery did not reach.
pub struct Written(oneshot::Receiver<StoreResult<Unreached>>);

impl Written {
    pub async fn outcome(self) -> StoreResult<Unreached> {
        self.0
            .await
            .map_err(|_| StoreError::Database(sqlx::Error::PoolClosed))?
    }
}

/// An entry to append, what to send once it is durable, and where to say how it went.
struct Append {
    row: Row,
    then: Option<Delivery>,
    done: oneshot::Sender<StoreResult<Unreached>>,
    /// When the entry was handed over: the wait until durable is timed from here.
    queued: std::time::Instant,
}

impl Append {
    /// The write is over: what waited for it is sent (or its mover refused), and whoever
    /// waits is told.
    fn finish(self, written: StoreResult<()>) {
        crate::metrics::db_took("append_action", self.queued.elapsed());
        let told = match (written, self.then) {
            (Ok(()), Some(delivery)) => Ok(delivery.send()),
            (Ok(()), None) => Ok(Unreached::new()),
            (Err(e), then) => {
                if let Some(delivery) = then {
                    delivery.refuse(&e);
                }
                Err(e)
            }
        };
        let _ = self.done.send(told);
    }
}

/// An entry as its `match_actions` row: a takeback has an empty action, `back_to` and, in a
/// timed match, every seat's clock as JSON.
#[derive(Debug, serde::Serialize)]
struct Row {
    match_id: i64,
    /// The owner's epoch the entry was accepted under: written only while it still holds.
    epoch: i64,
    ply: u32,
    seq: u64,
    seat: u8,
    action: String,
    clock_ms: Option<u64>,
    at_ms: i64,
    command_id: Option<String>,
    back_to: Option<u32>,
    clocks_ms: Option<String>,
}

impl Row {
    fn of(id: MatchId, epoch: Epoch, entry: &Entry) -> Row {
        match entry {
            Entry::Action(a) => Row {
                match_id: id.0,
                epoch: epoch.0,
                ply: a.ply,
                seq: a.seq,
                seat: a.seat,
                action: a.action.clone(),
                clock_ms: a.clock_ms,
                at_ms: a.at_ms,
                command_id: a.command_id.clone(),
                back_to: None,
                clocks_ms: None,
            },
            Entry::Takeback(t) => Row {
                match_id: id.0,
                epoch: epoch.0,
                ply: t.ply,
                seq: t.seq,
                seat: t.seat,
                action: String::new(),
                clock_ms: None,
                at_ms: t.at_ms,
                command_id: None,
                back_to: Some(t.back_to),
                clocks_ms: t
                    .clocks_ms
                    .as_ref()
                    .map(|c| serde_json::to_string(c).expect("a list of numbers serialises")),
            },
        }
    }
}

/// Most actions written in one transaction. Batches are as large as the queue is long, up to
/// this: the statement's cost is mostly per batch, so a long queue is drained in few commits.
const MOST_PER_BATCH: usize = 1024;

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
                Ok(fenced) => {
                    for append in batch {
                        let match_id = append.row.match_id;
                        match fenced.contains(&match_id) {
                            true => append.finish(Err(StoreError::Fenced(MatchId(match_id)))),
                            false => append.finish(Ok(())),
                        }
                    }
                }
                Err(e) if batch.len() == 1 => {
                    batch.pop().expect("one action").finish(Err(e));
                }
                // Nothing was written; one bad action must not sink the others.
                Err(_) => {
                    for append in batch {
                        let written = writer.write(std::slice::from_ref(&append)).await;
                        let written = written.and_then(|fenced| match fenced.is_empty() {
                            true => Ok(()),
                            false => Err(StoreError::Fenced(MatchId(append.row.match_id))),
                        });
                        append.finish(written);
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

/// The matches of a batch whose entries were not written: their owner's epoch had passed.
type Fenced = Vec<i64>;

impl Writer {
    async fn write(&mut self, batch: &[Append]) -> StoreResult<Fenced> {
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

/// The statement that appends a batch of log entries on PostgreSQL, each only while its match
/// is owned at the entry's epoch. The owner is looked up per entry, by its key, in a lateral
/// subquery (which the planner cannot flatten, since it locks): joined as a whole, the owners'
/// table was scanned and hashed once per batch, a cost that grew with every match ever hosted.
/// Public so that a test can read its plan.
pub const APPEND_ACTIONS: &str = "WITH v AS (
         SELECT v.* FROM json_to_recordset($1::json) AS v (match_id BIGINT, epoch BIGINT,
                ply INTEGER, seq BIGINT, seat INTEGER, action TEXT, clock_ms BIGINT,
                at_ms BIGINT, command_id TEXT, back_to INTEGER, clocks_ms TEXT)
         CROSS JOIN LATERAL (
             SELECT 1 FROM match_owners o
             WHERE o.match_id = v.match_id AND o.epoch = v.epoch
             FOR SHARE) owner)
     INSERT INTO match_actions
         (match_id, ply, seq, seat, action, clock_ms, at_ms, command_id, back_to, clocks_ms)
     SELECT match_id, ply, seq, seat, action, clock_ms, at_ms, command_id, back_to, clocks_ms
     FROM v
     RETURNING match_id";

/// Writes actions on PostgreSQL (at most one per match: a room waits for each) in one statement.
/// The match's event count is not touched: an action carries its own event number, and
/// [`Store::load_match`] takes the larger of the two, which saves a row update per move.
///
/// Each row is written only if its match is still owned at the row's epoch; the owner's row is
/// locked (shared) until the commit, so a takeover waits for this write and then sees it.
async fn insert_as_json(conn: &mut sqlx::AnyConnection, batch: &[Append]) -> StoreResult<Fenced> {
    // The batch goes as one JSON parameter, so the statement's text is the same for every
    // batch size: it is prepared once per connection instead of planned for each batch.
    let rows: Vec<&Row> = batch.iter().map(|append| &append.row).collect();
    let written = sqlx::query(APPEND_ACTIONS)
        .bind(serde_json::to_string(&rows).expect("actions serialise"))
        .fetch_all(conn)
        .await?;
    let written: Vec<i64> = written
        .iter()
        .map(|r| r.try_get::<i64, _>("match_id"))
        .collect::<sqlx::Result<_>>()?;
    Ok(batch
        .iter()
        .map(|a| a.row.match_id)
        .filter(|m| !written.contains(m))
        .collect())
}

/// Writes actions on SQLite, one statement each, in one transaction (as in
/// [`insert_as_json`], the match's event count is not touched, and a row is written only
/// while its match is owned at its epoch).
async fn insert_in_transaction(pool: &AnyPool, batch: &[Append]) -> StoreResult<Fenced> {
    let mut tx = pool.begin().await?;
    let mut fenced = Vec::new();
    for Append { row, .. } in batch {
        let done = sqlx::query(
            "INSERT INTO match_actions (match_id, ply, seq, seat, action, clock_ms, at_ms,
                                        command_id, back_to, clocks_ms)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
             WHERE EXISTS (SELECT 1 FROM match_owners WHERE match_id = $1 AND epoch = $11)",
        )
        .bind(row.match_id)
        .bind(row.ply as i32)
        .bind(row.seq as i64)
        .bind(i32::from(row.seat))
        .bind(&row.action)
        .bind(row.clock_ms.map(|ms| ms as i64))
        .bind(row.at_ms)
        .bind(row.command_id.as_deref())
        .bind(row.back_to.map(|n| n as i32))
        .bind(row.clocks_ms.as_deref())
        .bind(row.epoch)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            fenced.push(row.match_id);
        }
    }
    tx.commit().await?;
    Ok(fenced)
}
