-- Commands answered once (issue 27): the ack of each command a player's socket carried out,
-- other than `act` (a match's log keeps the command of each action) and the commands that only
-- read, kept a day so that a command resent after a lost ack, on any socket and after a
-- restart, gets its original ack instead of being carried out again. `meaning` is the command
-- without its id, so that an id reused for another command is not taken for a resend. Times
-- are milliseconds since the Unix epoch, as in 0001.
CREATE TABLE command_acks (
    player_id BIGINT NOT NULL,
    command_id TEXT NOT NULL,
    meaning TEXT NOT NULL,
    ack TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, command_id)
);
CREATE INDEX command_acks_created ON command_acks (created_ms);
