-- Open data (issue 31): the finished rated games of a month, in the order they ended, found by a
-- range of this index whatever the history, and the months' first and last games by its ends.
CREATE INDEX matches_rated_finished ON matches (finished_ms, id)
    WHERE status = 'finished' AND rated = 1 AND hotseat = 0;
