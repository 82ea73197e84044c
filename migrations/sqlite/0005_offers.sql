-- Challenges to a named player, whom a player takes them from, and whom a player follows
-- (issue 19). Times are milliseconds since the Unix epoch (BIGINT) and flags are 0/1 INTEGERs,
-- as in 0001. Rematch offers are not stored: they live in the finished match's room, and lapse
-- when a player leaves it.

-- Whom a player takes challenges from: everyone, followed (the accounts they follow) or nobody.
ALTER TABLE players ADD COLUMN challenges TEXT NOT NULL DEFAULT 'everyone';

CREATE TABLE follows (
    follower_id BIGINT NOT NULL REFERENCES players (id),
    followed_id BIGINT NOT NULL REFERENCES players (id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followed_id)
);

-- Challenges waiting for an answer. A row goes when its challenge ends (accepted, declined,
-- withdrawn or expired), so that one stands per challenger and challenged at most; stored, so
-- that a challenge outlives a server restart until it expires.
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    challenger_id BIGINT NOT NULL REFERENCES players (id),
    challenged_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    -- The challenger's seat; the challenged player takes the other.
    seat INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    UNIQUE (challenger_id, challenged_id)
);

CREATE INDEX challenges_challenged ON challenges (challenged_id);
CREATE INDEX challenges_expires ON challenges (expires_ms);
