-- A finished match leaves no row in match_owners once its room closes (issue 29): the table
-- holds the matches being served, not every match ever hosted, so what reads it every beat
-- stays as cheap as the day the club opened. The epoch it was last owned at stays on the
-- match, so that whoever opens it again takes the next one and no epoch is held twice.
ALTER TABLE matches ADD COLUMN released_epoch BIGINT NOT NULL DEFAULT 0;
UPDATE matches SET released_epoch =
    (SELECT o.epoch FROM match_owners o WHERE o.match_id = matches.id)
WHERE status NOT IN ('waiting', 'live')
  AND id IN (SELECT match_id FROM match_owners);
DELETE FROM match_owners
WHERE match_id IN (SELECT id FROM matches WHERE status NOT IN ('waiting', 'live'));
-- An action is written only while its match's owner row is held (the group commit's fence),
-- and an owner row exists only for a stored match: the foreign key's probe and row lock on
-- `matches` for every move guarded nothing the fence does not.
ALTER TABLE match_actions DROP CONSTRAINT match_actions_match_id_fkey;
