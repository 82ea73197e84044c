//! A match's Fischer clocks, one per seat. A seat's clock runs while it is among the seats to
//! act; each action adds the increment to its mover's clock.

use std::time::Duration;

use protocol::ClockSpec;
use tokio::time::Instant;

pub struct Clocks {
    pub spec: ClockSpec,
    remaining_ms: Vec<u64>,
    running_since: Vec<Option<Instant>>,
}

impl Clocks {
    /// Every seat's clock full and stopped.
    pub fn new(spec: ClockSpec, seats: usize) -> Clocks {
        Clocks {
            spec,
            remaining_ms: vec![spec.base_ms; seats],
            running_since: vec![None; seats],
        }
    }

    /// Sets a stopped seat's time left (a match restored from its log).
    pub fn set_remaining(&mut self, seat: usize, ms: u64) {
        self.remaining_ms[seat] = ms;
    }

    pub fn remaining_now(&self, seat: usize, now: Instant) -> u64 {
        let used = self.running_since[seat].map_or(0, |t| now.duration_since(t).as_millis() as u64);
        self.remaining_ms[seat].saturating_sub(used)
    }

    /// Starts the clocks of the seats to act and stops the others.
    pub fn follow(&mut self, to_act: &[u8], now: Instant) {
        for seat in 0..self.remaining_ms.len() {
            let acting = to_act.contains(&(seat as u8));
            match (acting, self.running_since[seat]) {
                (true, None) => self.running_since[seat] = Some(now),
                (false, Some(_)) => {
                    self.remaining_ms[seat] = self.remaining_now(seat, now);
                    self.running_since[seat] = None;
                }
                _ => {}
            }
        }
    }

    /// Whether a seat's clock is running and has run out.
    pub fn flagged(&self, seat: usize, now: Instant) -> bool {
        self.running_since[seat].is_some() && self.remaining_now(seat, now) == 0
    }

    /// The time a seat acting now has left, its increment added.
    pub fn after_action(&self, seat: usize, now: Instant) -> u64 {
        self.remaining_now(seat, now) + self.spec.increment_ms
    }

    /// A seat has acted with `left_ms` on its clock: its clock stops there, and the clocks of
    /// the seats to act now run.
    pub fn acted(&mut self, seat: usize, left_ms: u64, to_act: &[u8], now: Instant) {
        self.remaining_ms[seat] = left_ms;
        self.running_since[seat] = None;
        self.follow(to_act, now);
    }

    /// When the first running clock runs out.
    pub fn next_flag(&self) -> Option<Instant> {
        (0..self.remaining_ms.len())
            .filter_map(|s| {
                self.running_since[s].map(|t| t + Duration::from_millis(self.remaining_ms[s]))
            })
            .min()
    }

    pub fn snapshot(&self, now: Instant) -> Vec<u64> {
        (0..self.remaining_ms.len())
            .map(|s| self.remaining_now(s, now))
            .collect()
    }
}
