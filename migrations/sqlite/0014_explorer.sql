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
    PRIMARY KEY (variant, position, speed, band, action)
-- Stored in the key's order: a position's rows are read from a few neighbouring pages.
) WITHOUT ROWID;

-- Finished games not yet counted: written in the transaction that records the result, so a game
-- is counted exactly once even if the process is killed between the two.
CREATE TABLE explorer_pending (
    match_id BIGINT PRIMARY KEY
);
