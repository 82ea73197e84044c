-- Takebacks by agreement (issue 19). Whether a rated match allows them is chosen when it is
-- created (casual matches always do), so a challenge keeps the choice until it is accepted.
-- Flags are 0/1 INTEGERs, as in 0001.
ALTER TABLE matches ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;

-- The action log stays append-only: a takeback is an entry of its own (its `ply` the entry's
-- index, like a move's), whose `back_to` is the number of actions the match keeps, takebacks
-- before it folded in; NULL for a move. `clocks_ms`, a JSON array, is every seat's clock when
-- it was taken back, in a timed match (the clocks keep their time). Its `action` is empty.
ALTER TABLE match_actions ADD COLUMN back_to INTEGER;
ALTER TABLE match_actions ADD COLUMN clocks_ms TEXT;
