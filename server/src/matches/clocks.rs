//! A match's clocks, one per seat. A seat's clock runs while it is among the seats to act. On a
//! Fischer clock each action adds the increment to its mover's clock; on a per-move clock
//! (correspondence) it fills it again. A seat whose player is on vacation is paused: its clock
//! does not run before the vacation ends, even while it must act.

use std::time::Duration;

use protocol::ClockSpec;
use tokio::time::Instant;

#[derive(Clone)]
pub struct Clocks {
    pub spec: ClockSpec,
    remaining_ms: Vec<u64>,
    running_since: Vec<Option<Instant>>,
    paused_until: Vec<Option<Instant>>,
}

impl Clocks {
    /// Every seat's clock full and stopped.
    pub fn new(spec: ClockSpec, seats: usize) -> Clocks {
        Clocks {
            spec,
            remaining_ms: vec![spec.base_ms; seats],
            running_since: vec![None; seats],
            paused_until: vec![None; seats],
        }
    }

    /// Sets a seat's time left as of `now` (a match restored from its log).
    pub fn set_remaining(&mut self, seat: usize, ms: u64, now: Instant) {
        self.remaining_ms[seat] = ms;
        if self.running_since[seat].is_some() {
            self.running_since[seat] = Some(now);
        }
    }

    /// When a running seat's clock started counting: not before its pause ends.
    fn counting_from(&self, seat: usize) -> Option<Instant> {
        let since = self.running_since[seat]?;
        Some(self.paused_until[seat].map_or(since, |until| until.max(since)))
    }

    pub fn remaining_now(&self, seat: usize, now: Instant) -> u64 {
        let used = self
            .counting_from(seat)
            .and_then(|from| now.checked_duration_since(from))
            .map_or(0, |d| d.as_millis() as u64);
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

    /// Pauses a seat's clock until `until` (its player went on vacation), or lets it run again
    /// (`None`: the player is back).
    pub fn pause(&mut self, seat: usize, until: Option<Instant>, now: Instant) {
        let left = self.remaining_now(seat, now);
        self.set_remaining(seat, left, now);
        self.paused_until[seat] = until;
    }

    /// Whether a seat's clock is running and has run out.
    pub fn flagged(&self, seat: usize, now: Instant) -> bool {
        self.running_since[seat].is_some() && self.remaining_now(seat, now) == 0
    }

    /// The time a seat acting now has left after its action: its increment added on a Fischer
    /// clock, full again on a per-move clock.
    pub fn after_action(&self, seat: usize, now: Instant) -> u64 {
        match self.spec.per_move {
            true => self.spec.base_ms,
            false => self.remaining_now(seat, now) + self.spec.increment_ms,
        }
    }

    /// A seat has acted with `left_ms` on its clock: its clock stops there, and the clocks of
    /// the seats to act now run.
    pub fn acted(&mut self, seat: usize, left_ms: u64, to_act: &[u8], now: Instant) {
        self.remaining_ms[seat] = left_ms;
        self.running_since[seat] = None;
        self.follow(to_act, now);
    }

    /// When a seat's clock runs out, if it runs.
    pub fn flag_at(&self, seat: usize) -> Option<Instant> {
        self.counting_from(seat)
            .map(|from| from + Duration::from_millis(self.remaining_ms[seat]))
    }

    /// When the first running clock runs out.
    pub fn next_flag(&self) -> Option<Instant> {
        (0..self.remaining_ms.len())
            .filter_map(|s| self.flag_at(s))
            .min()
    }

    pub fn snapshot(&self, now: Instant) -> Vec<u64> {
        (0..self.remaining_ms.len())
            .map(|s| self.remaining_now(s, now))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PER_MOVE: ClockSpec = ClockSpec {
        base_ms: 1000,
        increment_ms: 0,
        per_move: true,
    };

    #[test]
    fn a_per_move_clock_is_full_again_after_each_action() {
        let now = Instant::now();
        let mut clocks = Clocks::new(PER_MOVE, 2);
        clocks.follow(&[0], now);
        let later = now + Duration::from_millis(700);
        assert_eq!(clocks.remaining_now(0, later), 300);
        let left = clocks.after_action(0, later);
        assert_eq!(left, 1000);
        clocks.acted(0, left, &[1], later);
        assert_eq!(clocks.flag_at(1), Some(later + Duration::from_millis(1000)));
        assert_eq!(clocks.flag_at(0), None);
    }

    #[test]
    fn a_paused_clock_stands_still_until_the_pause_ends() {
        let now = Instant::now();
        let mut clocks = Clocks::new(PER_MOVE, 2);
        clocks.follow(&[0], now);
        let paused = now + Duration::from_millis(200);
        let back = paused + Duration::from_millis(5000);
        clocks.pause(0, Some(back), paused);
        assert_eq!(clocks.remaining_now(0, back), 800);
        assert!(!clocks.flagged(0, back + Duration::from_millis(799)));
        assert!(clocks.flagged(0, back + Duration::from_millis(800)));
        assert_eq!(clocks.flag_at(0), Some(back + Duration::from_millis(800)));
        // Back early: the clock runs from then.
        let early = paused + Duration::from_millis(1000);
        clocks.pause(0, None, early);
        assert_eq!(clocks.flag_at(0), Some(early + Duration::from_millis(800)));
    }
}
