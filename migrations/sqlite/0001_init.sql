-- Accounts, sessions, matches with their action logs, and Elo ratings.
-- Times are milliseconds since the Unix epoch (BIGINT) and flags are 0/1 INTEGERs, so both
-- backends read and write the same values through sqlx's Any driver.

CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    -- Lowercased name: usernames are unique case-insensitively.
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest INTEGER NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 of the bearer token, hex: a leaked table does not leak usable tokens.
    token_hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seats INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    private INTEGER NOT NULL,
    invite TEXT UNIQUE,
    hotseat INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    -- waiting, live, finished or aborted
    status TEXT NOT NULL,
    -- JSON array of places, one per seat
    result_places TEXT,
    result_reason TEXT,
    -- The last event sequence number handed out, so numbering continues after a restart.
    last_seq BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT
);

CREATE INDEX matches_status ON matches (status);

CREATE TABLE match_seats (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX match_seats_player ON match_seats (player_id);

CREATE TABLE match_actions (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    seq BIGINT NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    -- The acting seat's clock after the action (increment added), when the match has a clock.
    clock_ms BIGINT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, ply)
);

CREATE TABLE ratings (
    player_id BIGINT NOT NULL REFERENCES players (id),
    pool TEXT NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, pool)
);

CREATE INDEX ratings_pool ON ratings (pool, rating DESC);

CREATE TABLE rating_changes (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    pool TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX rating_changes_player ON rating_changes (player_id, at_ms);
