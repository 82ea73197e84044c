//! The cluster's tables: nodes and their heartbeats, the owner and fencing epoch of each match,
//! the holders of the single jobs, and the messages too long for a notification. Plain SQL that
//! both backends run; the clock is the caller's.

use std::collections::HashMap;

use protocol::{MatchId, PlayerId};
use sqlx::{AnyConnection, Row};

use super::process::Process;
use crate::store::{Backend, Store, StoreError, StoreResult};

/// A server process, as the cluster knows it: a new id each time a process starts.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct NodeId(pub i64);

/// A match's fencing epoch: it grows with every change of owner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Epoch(pub i64);

/// The epoch of a new match's first owner: one after the `released_epoch` it is stored with.
pub const FIRST_EPOCH: Epoch = Epoch(1);

/// A node's heartbeat: its time, unless it said it stopped.
pub const NODE_SEEN: &str = "UPDATE nodes SET seen_ms = $2 WHERE id = $1 AND stopped_ms IS NULL";

/// The name a node's heartbeat connection goes by in PostgreSQL's `pg_stat_activity`.
pub fn connection_name(node: NodeId) -> String {
    format!("tafl-node-{}", node.0)
}

/// Deletes the rows of nodes not heard of since `$1` that nothing refers to any more: they hold
/// no single job, have nobody online, and own no unfinished match (a finished match's owner
/// row may name a node that is gone: a node without a row is as dead as one with an old one).
/// Found by the heartbeat's index; the references by theirs.
pub const FORGET_NODES: &str = "DELETE FROM nodes WHERE seen_ms < $1
     AND NOT EXISTS (SELECT 1 FROM singletons s WHERE s.node = nodes.id)
     AND NOT EXISTS (SELECT 1 FROM online_players p WHERE p.node = nodes.id)
     AND NOT EXISTS (SELECT 1 FROM match_owners o JOIN matches m ON m.id = o.match_id
                     WHERE o.node = nodes.id AND m.status IN ('waiting', 'live'))";

/// The matches owned by any of `nodes` that are (or are not) over, oldest first, found by the
/// owners' index.
pub fn matches_of_nodes_sql(nodes: &[NodeId], played: Played) -> String {
    let status = match played {
        Played::Unfinished => "IN ('waiting', 'live')",
        Played::Finished => "NOT IN ('waiting', 'live')",
    };
    format!(
        "SELECT o.match_id, o.epoch FROM match_owners o JOIN matches m ON m.id = o.match_id
         WHERE o.node IN ({}) AND m.status {status}
         ORDER BY o.match_id",
        numbers(nodes.iter().map(|n| n.0))
    )
}

/// Which of their matches a look at some nodes wants.
#[derive(Clone, Copy, Debug)]
pub enum Played {
    /// Still waiting or live: to be taken over.
    Unfinished,
    /// Over: only their owner rows are left, to be given up.
    Finished,
}

/// The nodes that own a match, each read once from the owners' index (a loose index scan: one
/// look per node, not one row per match). Public so that a test can read its plan.
pub const OWNING_NODES: &str = "WITH RECURSIVE owning (node) AS (
         SELECT MIN(node) FROM match_owners
         UNION ALL
         SELECT (SELECT MIN(o.node) FROM match_owners o WHERE o.node > owning.node)
         FROM owning WHERE owning.node IS NOT NULL)
     SELECT node FROM owning WHERE node IS NOT NULL";

/// The names of the nodes' heartbeat connections open now (PostgreSQL).
pub const NODE_CONNECTIONS: &str = "SELECT application_name FROM pg_stat_activity
     WHERE application_name LIKE 'tafl-node-%'";

/// When the node `n` is live: its heartbeat came after the parameter `since` and it has not
/// said it stopped; on PostgreSQL, its heartbeat connection is also still open. A process
/// that dies (killed, crashed) loses its connections at once, so it is found dead at the next
/// heartbeat rather than a lease later; a paused one keeps them, and its lease decides.
fn alive(backend: Backend, since: &str) -> String {
    let beat = format!("n.seen_ms > {since} AND n.stopped_ms IS NULL");
    match backend {
        Backend::Sqlite => beat,
        Backend::Postgres => format!(
            "{beat} AND EXISTS (SELECT 1 FROM pg_stat_activity a
                                WHERE a.application_name = 'tafl-node-' || n.id)"
        ),
    }
}

/// The live nodes whose heartbeat came after `$1`, oldest first: the recent few, found by the
/// heartbeat's index among every node that ran in the last day.
pub fn live_nodes_sql(backend: Backend) -> String {
    format!(
        "SELECT id, name, started_ms FROM nodes n WHERE {} ORDER BY id",
        alive(backend, "$1")
    )
}

/// A node as the cluster's table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    pub id: NodeId,
    pub name: String,
    pub started_ms: i64,
}

impl NodeRow {
    pub fn health(&self) -> protocol::NodeHealth {
        protocol::NodeHealth {
            id: self.id.0,
            name: self.name.clone(),
            started_ms: self.started_ms,
        }
    }
}

/// Who owns a match, as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub node: NodeId,
    pub epoch: Epoch,
    pub live: bool,
}

impl Store {
    /// Registers a node that starts now; its id is new, never one a node had before.
    pub async fn add_node(
        &self,
        name: &str,
        process: &Process,
        now_ms: i64,
    ) -> StoreResult<NodeId> {
        let row = sqlx::query(
            "INSERT INTO nodes (name, started_ms, seen_ms, host, boot_id, pid)
             VALUES ($1, $2, $2, $3, $4, $5) RETURNING id",
        )
        .bind(name)
        .bind(now_ms)
        .bind(&process.host)
        .bind(&process.boot_id)
        .bind(process.pid)
        .fetch_one(&self.pool)
        .await?;
        Ok(NodeId(row.try_get("id")?))
    }

    /// Marks as stopped every other node that is an earlier run of the node starting now, and
    /// returns their ids: one registered under the same name (a name is one process at a time:
    /// a container restarted keeps its host name, and its process id, 1), or one whose process
    /// ran on this machine and is gone ([`Process::outlived`]). Their leases may still look
    /// young, and their connections may linger; they hold nothing any more.
    pub async fn retire_predecessors(
        &self,
        name: &str,
        node: NodeId,
        process: &Process,
        now_ms: i64,
    ) -> StoreResult<Vec<NodeId>> {
        let rows = sqlx::query(
            "SELECT id, name, host, boot_id, pid FROM nodes
             WHERE stopped_ms IS NULL AND id <> $1
               AND (name = $2 OR (host = $3 AND boot_id = $4))",
        )
        .bind(node.0)
        .bind(name)
        .bind(&process.host)
        .bind(&process.boot_id)
        .fetch_all(&self.pool)
        .await?;
        let mut gone = Vec::new();
        for r in &rows {
            let other = Process {
                host: r.try_get::<Option<String>, _>("host")?.unwrap_or_default(),
                boot_id: r
                    .try_get::<Option<String>, _>("boot_id")?
                    .unwrap_or_default(),
                pid: r.try_get::<Option<i64>, _>("pid")?.unwrap_or(0),
            };
            if r.try_get::<String, _>("name")? == name || process.outlived(&other) {
                gone.push(NodeId(r.try_get("id")?));
            }
        }
        if !gone.is_empty() {
            let sql = format!(
                "UPDATE nodes SET stopped_ms = $1 WHERE id IN ({})",
                numbers(gone.iter().map(|n| n.0))
            );
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(now_ms)
                .execute(&self.pool)
                .await?;
        }
        Ok(gone)
    }

    /// A node's heartbeat, through the pool (alone, on SQLite). False if the node had said it
    /// stopped.
    pub async fn node_seen(&self, node: NodeId, now_ms: i64) -> StoreResult<bool> {
        let done = sqlx::query(NODE_SEEN)
            .bind(node.0)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A node stops: from now on it is not live, and what it held may be taken at once.
    pub async fn node_stopped(&self, node: NodeId, now_ms: i64) -> StoreResult<()> {
        sqlx::query("UPDATE nodes SET stopped_ms = $2 WHERE id = $1")
            .bind(node.0)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live nodes (see `alive`), oldest first.
    pub async fn live_nodes(&self, since_ms: i64) -> StoreResult<Vec<NodeRow>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(live_nodes_sql(self.backend())))
            .bind(since_ms)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(NodeRow {
                    id: NodeId(r.try_get("id")?),
                    name: r.try_get("name")?,
                    started_ms: r.try_get("started_ms")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Who owns a match, if anyone ever did, and whether that node is live (its heartbeat
    /// came after `alive_since_ms`; see `alive`).
    pub async fn match_owner(
        &self,
        id: MatchId,
        alive_since_ms: i64,
    ) -> StoreResult<Option<Owner>> {
        let sql = format!(
            "SELECT o.node, o.epoch,
                    EXISTS (SELECT 1 FROM nodes n WHERE n.id = o.node AND {}) AS live
             FROM match_owners o WHERE o.match_id = $1",
            alive(self.backend(), "$2")
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.0)
            .bind(alive_since_ms)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| owner_of(&r)).transpose().map_err(Into::into)
    }

    /// The owners of these matches (those that have one).
    pub async fn match_owners(&self, ids: &[MatchId]) -> StoreResult<HashMap<MatchId, NodeId>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT match_id, node FROM match_owners WHERE match_id IN ({})",
            numbers(ids.iter().map(|id| id.0))
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((MatchId(r.try_get("match_id")?), NodeId(r.try_get("node")?))))
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Takes a match nobody owns, at the epoch after the last one it was given up at (the
    /// first, for a new match), so that no epoch of a match is ever held twice. `None` if
    /// someone came first, or if there is no such match.
    pub async fn claim_unowned(&self, id: MatchId, node: NodeId) -> StoreResult<Option<Epoch>> {
        let row = sqlx::query(
            "INSERT INTO match_owners (match_id, node, epoch)
             SELECT id, $2, released_epoch + 1 FROM matches WHERE id = $1
             ON CONFLICT (match_id) DO NOTHING
             RETURNING epoch",
        )
        .bind(id.0)
        .bind(node.0)
        .fetch_optional(&self.pool)
        .await?;
        let epoch = row.map(|r| r.try_get::<i64, _>("epoch")).transpose()?;
        Ok(epoch.map(Epoch))
    }

    /// Gives up a finished match owned at `epoch`: its row goes, and the epoch is kept on the
    /// match for whoever opens it next. Nothing if the match moved meanwhile.
    pub async fn release(&self, id: MatchId, epoch: Epoch) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        let gone = sqlx::query("DELETE FROM match_owners WHERE match_id = $1 AND epoch = $2")
            .bind(id.0)
            .bind(epoch.0)
            .execute(&mut *tx)
            .await?;
        if gone.rows_affected() == 1 {
            sqlx::query("UPDATE matches SET released_epoch = $2 WHERE id = $1")
                .bind(id.0)
                .bind(epoch.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Gives up the finished matches whose owner is none of `live` (it died with their rooms
    /// open), as [`Store::release`] does. How many.
    ///
    /// It looks among the owning nodes first, read from the owners' index: most beats find
    /// only live ones and read no owner row. (The `nodes` table cannot say which: a node is
    /// forgotten while rows of its finished matches may remain.)
    pub async fn release_finished_of_gone(&self, live: &[NodeId]) -> StoreResult<usize> {
        let owning: Vec<i64> = sqlx::query_scalar(OWNING_NODES)
            .fetch_all(&self.pool)
            .await?;
        let gone: Vec<NodeId> = (owning.into_iter().map(NodeId))
            .filter(|node| !live.contains(node))
            .collect();
        if gone.is_empty() {
            return Ok(0);
        }
        let sql = matches_of_nodes_sql(&gone, Played::Finished);
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        let left = match_epochs(&rows)?;
        for (id, epoch) in &left {
            self.release(*id, *epoch).await?;
        }
        Ok(left.len())
    }

    /// Takes a match from the owner seen at epoch `seen`, at the next epoch, unless that owner's
    /// heartbeat came after `alive_since_ms` (it is live: whoever thought it dead had not heard
    /// of it yet). False if it is live or its owner changed meanwhile. On PostgreSQL this waits
    /// for any write of the old owner in progress (it holds the row shared), so the new owner
    /// reads a log that has it.
    pub async fn take_over(
        &self,
        id: MatchId,
        seen: Epoch,
        node: NodeId,
        alive_since_ms: i64,
    ) -> StoreResult<bool> {
        let sql = format!(
            "UPDATE match_owners SET node = $3, epoch = epoch + 1
             WHERE match_id = $1 AND epoch = $2
               AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = match_owners.node AND {})",
            alive(self.backend(), "$4")
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.0)
            .bind(seen.0)
            .bind(node.0)
            .bind(alive_since_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The matches a node owns, with their epochs.
    pub async fn owned_by(&self, node: NodeId) -> StoreResult<Vec<(MatchId, Epoch)>> {
        let rows = sqlx::query("SELECT match_id, epoch FROM match_owners WHERE node = $1")
            .bind(node.0)
            .fetch_all(&self.pool)
            .await?;
        match_epochs(&rows)
    }

    /// Unfinished matches whose owner is none of `live`, oldest first: what a dead or stopped
    /// node left behind.
    ///
    /// It looks among the nodes first: a node that owns an unfinished match is never forgotten
    /// ([`FORGET_NODES`]), so the owners of orphans are among the nodes not live, and most
    /// beats find none and read no owner row. Joined from the owners' table instead, the look
    /// read one row per live match on every node's every beat (10 ms a beat with 5,000).
    pub async fn orphaned_matches(&self, live: &[NodeId]) -> StoreResult<Vec<(MatchId, Epoch)>> {
        let sql = format!(
            "SELECT id FROM nodes WHERE id NOT IN ({})",
            numbers(live.iter().map(|n| n.0))
        );
        let dead: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        if dead.is_empty() {
            return Ok(Vec::new());
        }
        let dead: Vec<NodeId> = dead.into_iter().map(NodeId).collect();
        let sql = matches_of_nodes_sql(&dead, Played::Unfinished);
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        match_epochs(&rows)
    }

    /// The holder of every single job that has one.
    pub async fn singleton_holders(&self) -> StoreResult<Vec<(String, NodeId, Epoch)>> {
        let rows = sqlx::query("SELECT name, node, epoch FROM singletons")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("name")?,
                    NodeId(r.try_get("node")?),
                    Epoch(r.try_get("epoch")?),
                ))
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Takes a single job nobody held, or whose holder at epoch `seen` is gone. False if
    /// another node came first.
    pub async fn claim_singleton(
        &self,
        name: &str,
        seen: Option<Epoch>,
        node: NodeId,
    ) -> StoreResult<bool> {
        let done = match seen {
            None => {
                sqlx::query(
                    "INSERT INTO singletons (name, node, epoch) VALUES ($1, $2, 1)
                     ON CONFLICT (name) DO NOTHING",
                )
                .bind(name)
                .bind(node.0)
                .execute(&self.pool)
                .await?
            }
            Some(seen) => {
                sqlx::query(
                    "UPDATE singletons SET node = $2, epoch = epoch + 1
                     WHERE name = $1 AND epoch = $3",
                )
                .bind(name)
                .bind(node.0)
                .bind(seen.0)
                .execute(&self.pool)
                .await?
            }
        };
        Ok(done.rows_affected() == 1)
    }

    /// A player has sockets on a node (`true`), or no longer has.
    pub async fn set_online(
        &self,
        node: NodeId,
        player: PlayerId,
        online: bool,
    ) -> StoreResult<()> {
        match online {
            true => sqlx::query(
                "INSERT INTO online_players (node, player_id) VALUES ($1, $2)
                 ON CONFLICT (node, player_id) DO NOTHING",
            ),
            false => sqlx::query("DELETE FROM online_players WHERE node = $1 AND player_id = $2"),
        }
        .bind(node.0)
        .bind(player.0)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether a player has sockets on a node whose heartbeat came after `alive_since_ms`.
    pub async fn online_elsewhere(
        &self,
        player: PlayerId,
        alive_since_ms: i64,
    ) -> StoreResult<bool> {
        let sql = format!(
            "SELECT 1 AS one FROM online_players o JOIN nodes n ON n.id = o.node
             WHERE o.player_id = $1 AND {} LIMIT 1",
            alive(self.backend(), "$2")
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(player.0)
            .bind(alive_since_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Forgets who was online on nodes whose heartbeat is older than `alive_since_ms` (dead).
    pub async fn forget_dead_presence(&self, alive_since_ms: i64) -> StoreResult<u64> {
        let sql = format!(
            "DELETE FROM online_players WHERE node NOT IN (SELECT id FROM nodes n WHERE {})",
            alive(self.backend(), "$1")
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(alive_since_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Forgets the nodes not heard of since `before_ms` that nothing refers to ([`FORGET_NODES`]);
    /// returns how many.
    pub async fn forget_nodes(&self, before_ms: i64) -> StoreResult<u64> {
        let done = sqlx::query(FORGET_NODES)
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Keeps a message too long for a notification; returns its id.
    pub async fn keep_message(&self, body: &str, now_ms: i64) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO cluster_messages (body, created_ms) VALUES ($1, $2) RETURNING id",
        )
        .bind(body)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    pub async fn kept_message(&self, id: i64) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT body FROM cluster_messages WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("body")).transpose()?)
    }

    /// Deletes the long messages written before `before_ms` (every reader had them long since).
    pub async fn forget_messages(&self, before_ms: i64) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM cluster_messages WHERE created_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

/// Ids for an `IN (...)` list: numbers the server holds, not input, written into the statement
/// (SQLite has no array parameters). An empty list is `0`, which no row has.
fn numbers(ids: impl Iterator<Item = i64>) -> String {
    let list: Vec<String> = ids.map(|id| id.to_string()).collect();
    match list.is_empty() {
        true => "0".to_string(),
        false => list.join(", "),
    }
}

/// Rows of `match_id` and `epoch`.
fn match_epochs(rows: &[sqlx::any::AnyRow]) -> StoreResult<Vec<(MatchId, Epoch)>> {
    rows.iter()
        .map(|r| Ok((MatchId(r.try_get("match_id")?), Epoch(r.try_get("epoch")?))))
        .collect::<sqlx::Result<_>>()
        .map_err(Into::into)
}

fn owner_of(row: &sqlx::any::AnyRow) -> sqlx::Result<Owner> {
    // A truth value: a boolean on PostgreSQL, an integer on SQLite.
    let live = row
        .try_get::<bool, _>("live")
        .or_else(|_| row.try_get::<i64, _>("live").map(|n| n != 0))?;
    Ok(Owner {
        node: NodeId(row.try_get("node")?),
        epoch: Epoch(row.try_get("epoch")?),
        live,
    })
}

/// Fails with [`StoreError::Fenced`] unless the match is still owned at `epoch`: the first
/// statement of every transaction that writes a match. On PostgreSQL the owner's row stays
/// locked (shared) until the transaction ends, so a takeover waits for the write and then
/// sees it; SQLite has one writer at a time anyway.
pub(crate) async fn fence(
    conn: &mut AnyConnection,
    backend: Backend,
    id: MatchId,
    epoch: Epoch,
) -> StoreResult<()> {
    let sql = match backend {
        Backend::Postgres => "SELECT epoch FROM match_owners WHERE match_id = $1 FOR SHARE",
        Backend::Sqlite => "SELECT epoch FROM match_owners WHERE match_id = $1",
    };
    let row = sqlx::query(sql).bind(id.0).fetch_optional(conn).await?;
    let held = row.map(|r| r.try_get::<i64, _>("epoch")).transpose()?;
    match held == Some(epoch.0) {
        true => Ok(()),
        false => Err(StoreError::Fenced(id)),
    }
}
