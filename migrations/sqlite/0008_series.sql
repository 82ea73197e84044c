-- Two-game matches (issue 19): a series is two games between the same two players with the
-- sides swapped. Its games are matches like any other, each rated on its own; the series row
-- holds what is decided once both are over. Times are milliseconds since the Unix epoch and
-- flags 0/1 INTEGERs, as in 0001.

CREATE TABLE series (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- live, finished or aborted (a game of it was called off).
    status TEXT NOT NULL,
    -- JSON of the places of the two players, the first being game 1's seat 0 (0 best, equal
    -- for a drawn series), and what decided it: score, shorter_win, less_time or tied; aborted.
    result_places TEXT,
    result_reason TEXT,
    -- JSON of each player's game points in halves, in the same order.
    points TEXT,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT
);

-- A series' game: which series, and whether it is game 1 or 2.
ALTER TABLE matches ADD COLUMN series_id BIGINT REFERENCES series (id);
ALTER TABLE matches ADD COLUMN series_game INTEGER;
CREATE INDEX matches_series ON matches (series_id);

-- The two-game option where a match is offered or planned.
ALTER TABLE challenges ADD COLUMN two_games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN two_games INTEGER NOT NULL DEFAULT 0;
