-- Correspondence play (issue 19): per-move clocks (days a move), when a match started (a per-move
-- clock restored after a restart counts from the start of its turn, which for the first move is
-- the match's start), and players' vacations, which stop their per-move clocks.
-- Numbered 0006: the chat and the offers of the same issue add 0004 and 0005.

-- 1: the clock's base time is the time for each move, full again after every action.
ALTER TABLE matches ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0;
-- A challenge's clock, likewise.
ALTER TABLE challenges ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0;
-- When every seat was taken and the match went live; NULL before, and for matches older than this.
ALTER TABLE matches ADD COLUMN started_ms BIGINT;

CREATE TABLE vacations (
    player_id BIGINT NOT NULL REFERENCES players (id),
    from_ms BIGINT NOT NULL,
    -- Set when the vacation starts, to when the player's allowance would run out; moved earlier
    -- when the player comes back sooner.
    until_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, from_ms)
);
