-- Which operating-system process each node is (issue 27): its machine (host name and the
-- kernel's boot id) and its process id, so that a node starting on the same machine can tell
-- that a node which still looks live is a crashed process of its own, and take its matches at
-- once. Rows of nodes started before this have none.
ALTER TABLE nodes ADD COLUMN host TEXT, ADD COLUMN boot_id TEXT, ADD COLUMN pid BIGINT;
