//! Mr Driller, the board game (seed 003): being written.
