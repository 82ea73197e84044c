-- The opening explorer (issue 31): for each position of a tafl variant, the moves played from it
-- in the server's finished games, counted by result, per time control and rating band. A row is
-- one move from one position in one (speed, band); a position's rows are found by the primary
-- key's prefix, so an answer reads only that position's rows, however many games are stored.
CREATE TABLE explorer_moves (
    variant TEXT NOT NULL,
    -- The engine's Zobrist hash of the position (pieces and side to move), as a signed 64 bits.
    position BIGINT NOT NULL,
    -- 0 bullet, 1 blitz, 2 rapid, 3 classical, 4 correspondence (and games without a clock).
    speed INTEGER NOT NULL,
    -- The lower bound of the players' average rating's band (0, 1000, 1200, ... 2500).
    band INTEGER NOT NULL,
    action TEXT NOT NULL,
    attackers INTEGER NOT NULL,
    defenders INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    -- The sum over these games of the players' average rating, for the move's average.
    rating_sum BIGINT NOT NULL,
    -- The counts ride in the key's index, so that a position's rows are read from the index
    -- alone (an index-only scan), not from a heap page each: the start position of a
    -- variant has thousands of rows, updated game after game wherever there was room.
    PRIMARY KEY (variant, position, speed, band, action)
        INCLUDE (attackers, defenders, draws, rating_sum)
)
-- An index-only scan reads the heap for pages changed since the last vacuum: vacuumed after
-- every 2% of the rows changed, not the default 20%.
WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);

-- Finished games not yet counted: written in the transaction that records the result, so a game
-- is counted exactly once even if the process is killed between the two.
CREATE TABLE explorer_pending (
    match_id BIGINT PRIMARY KEY
);
