-- Several server nodes on one PostgreSQL (issue 20). SQLite serves one process (the server locks
-- the file), but keeps the same tables so that one set of queries serves both. Times are
-- milliseconds since the Unix epoch, as in 0001.

-- Every server process that ever started, and when it last said it was alive (once a second).
-- A node is live while its heartbeat is recent and it has not said it stopped.
CREATE TABLE nodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    stopped_ms BIGINT
);

-- The node whose room serves each match, and the fencing epoch: it grows with every change of
-- owner, and every write of the match names the epoch it was made under, so a write from an
-- owner that lost the match fails.
CREATE TABLE match_owners (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    node BIGINT NOT NULL,
    epoch BIGINT NOT NULL
);
CREATE INDEX match_owners_node ON match_owners (node);

-- The node that runs each of the cluster's single jobs (the queue, the tournament director,
-- the housekeeping), chosen by whoever claims it first while its holder is not live.
CREATE TABLE singletons (
    name TEXT PRIMARY KEY,
    node BIGINT NOT NULL,
    epoch BIGINT NOT NULL
);

-- Messages between nodes too long for a NOTIFY payload (8,000 bytes): the notification
-- carries the row's id. Deleted a minute after they were written.
CREATE TABLE cluster_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- Failed logins per username (lowercased), counted here rather than in a node's memory so that
-- a username's lock holds on every node.
CREATE TABLE login_failures (
    username TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    locked_until_ms BIGINT NOT NULL
);

-- The players with a socket open on each node (that said hello): who is online anywhere, for
-- challenges. Rows of a node that is not live are ignored, and removed by the housekeeping.
CREATE TABLE online_players (
    node BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    PRIMARY KEY (node, player_id)
);
