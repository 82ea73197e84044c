-- Chat (issue 19): every match has a players' and a spectators' channel, and there is one lobby
-- channel; messages are stored with their match (NULL: the lobby) and shown in replays. A player
-- mutes others for themselves; anyone logged in reports a message, and admins read the reports.
-- Times are milliseconds since the Unix epoch (BIGINT), as in 0001.

CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The match; NULL for the lobby.
    match_id BIGINT REFERENCES matches (id),
    -- players, spectators or lobby
    channel TEXT NOT NULL,
    author_id BIGINT NOT NULL REFERENCES players (id),
    -- Trimmed, at most 500 characters, no control characters.
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

CREATE INDEX chat_messages_match ON chat_messages (match_id, id);
CREATE INDEX chat_messages_channel ON chat_messages (channel, id);

-- Whom each player has muted: their messages are not delivered to the muter, nor in the
-- histories the muter reads.
CREATE TABLE chat_mutes (
    muter_id BIGINT NOT NULL REFERENCES players (id),
    muted_id BIGINT NOT NULL REFERENCES players (id),
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (muter_id, muted_id)
);

CREATE INDEX chat_mutes_muted ON chat_mutes (muted_id);

CREATE TABLE chat_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id BIGINT NOT NULL REFERENCES chat_messages (id),
    reporter_id BIGINT NOT NULL REFERENCES players (id),
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    -- When an admin closed it; NULL: open.
    closed_ms BIGINT,
    -- One report of a message per reporter.
    UNIQUE (message_id, reporter_id)
);

CREATE INDEX chat_reports_open ON chat_reports (closed_ms, id);
