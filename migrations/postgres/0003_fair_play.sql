-- Fair play and account policy (issue 15): admins and bans, when an account was last used (so
-- that idle guests can be removed), removed guests kept as anonymous seat holders, and the
-- command id each action was sent with (so that a client resending a command is answered with
-- the original ack instead of acting twice).

ALTER TABLE players ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
-- When the account was banned, and why; NULL: not banned.
ALTER TABLE players ADD COLUMN banned_ms BIGINT;
ALTER TABLE players ADD COLUMN ban_reason TEXT;
-- The last login, session or socket of the account; NULL: never since its creation.
ALTER TABLE players ADD COLUMN last_seen_ms BIGINT;
-- A guest removed after going unused: its name is gone, the row stays for its matches' seats.
ALTER TABLE players ADD COLUMN removed_ms BIGINT;

ALTER TABLE match_actions ADD COLUMN command_id TEXT;

CREATE INDEX players_guest_seen ON players (guest, last_seen_ms);
