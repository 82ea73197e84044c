-- The nodes by their last heartbeat (issue 29): the live ones are the recent few, found without
-- reading the row of every process that ever ran, and the rows of nodes long gone are found to
-- be deleted (the housekeeping forgets them once nothing refers to them).
CREATE INDEX nodes_seen ON nodes (seen_ms);
