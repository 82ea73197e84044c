-- Tournaments: round robin (single or double), Swiss and knockout, for two-seat games.
-- Times are milliseconds since the Unix epoch (BIGINT) and flags are 0/1 INTEGERs, as in 0001.

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    creator_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    -- round_robin, swiss or knockout
    format TEXT NOT NULL,
    -- Swiss: the rounds chosen; round robin and knockout: the rounds of the schedule, set at
    -- the start (0 before).
    rounds INTEGER NOT NULL,
    -- A double round robin: every pair meets twice, seats swapped.
    double_round INTEGER NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    rated INTEGER NOT NULL,
    -- When registration closes and the tournament starts; NULL: started by its creator.
    starts_ms BIGINT,
    -- registering, running, finished or cancelled
    status TEXT NOT NULL,
    -- The round being played (0 before the start).
    current_round INTEGER NOT NULL DEFAULT 0,
    -- JSON of the format's state: the round robin's schedule, the knockout's bracket.
    state TEXT,
    -- Why a tournament was cancelled.
    reason TEXT,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT
);

CREATE INDEX tournaments_status ON tournaments (status);

CREATE TABLE tournament_entrants (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    -- The entrant's number in its tournament: 0, 1, 2... in order of registration.
    entrant INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    -- The rating the tournament seeds by, fixed at the start.
    rating REAL,
    joined_ms BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, player_id)
);

CREATE INDEX tournament_entrants_player ON tournament_entrants (player_id);

CREATE TABLE tournament_games (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    -- Games first (the top board is 0), then byes; a knockout's deciders come after.
    board INTEGER NOT NULL,
    -- The match, once opened; NULL for a bye.
    match_id BIGINT REFERENCES matches (id),
    seat0_entrant INTEGER NOT NULL,
    -- NULL: a bye for seat0_entrant.
    seat1_entrant INTEGER,
    -- A knockout decider after a drawn game.
    decider INTEGER NOT NULL DEFAULT 0,
    -- Seat 0's result once known: win, draw or loss; bye for a bye.
    result TEXT,
    -- The match's reason (king_captured, resigned, no_show...).
    reason TEXT,
    created_ms BIGINT NOT NULL,
    -- The unique key that keeps a round from being created twice.
    PRIMARY KEY (tournament_id, round, board)
);

CREATE INDEX tournament_games_match ON tournament_games (match_id);
