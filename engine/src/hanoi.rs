//! Hanoi by Cameron Browne (seed 001): being written.
