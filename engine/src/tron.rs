//! Tron, the board game (seed 002): being written.
