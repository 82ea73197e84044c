//! Tower of Hanoi, the board game (seed 000): being written.
