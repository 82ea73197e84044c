//! A match's clocks, one per seat. A seat's clock runs while it is among the seats to act. On a
//! Fischer clock each action adds the increment to its mover's clock; on a per-move clock
//! (correspondence) it fills it again. A seat whose player is on vacation is paused: its clock
//! does not run before the vacation ends, even while it must act.
//!
//! A Fischer clock starts with its seat's first action, as lichess's do: the first action takes
//! no time off it (nor adds the increment), so that nobody loses time between the pairing and
//! the first look at the board. That action must still come within [`first_move_window`]: a
//! seat that lets it pass has its flag fall like a clock's, and the room ends the match as for
//! any flag (called off while some seat has not acted, except in a tournament or a series' game
//! 2, where the seat loses on time). A per-move clock is the deadline of every action, the
//! first too, so it runs from the turn's start as ever.

use std::time::Duration;

use protocol::ClockSpec;
use tokio::time::Instant;

/// The longest a seat has for its first action on a Fischer clock.
const FIRST_MOVE: Duration = Duration::from_secs(30);

/// How long a seat has for its first action on a Fischer clock: `FIRST_MOVE`, or the whole
/// clock if that is shorter (no first move gets more time than the clock would give).
pub fn first_move_window(spec: &ClockSpec) -> u64 {
    spec.base_ms.min(FIRST_MOVE.as_millis() as u64)
}

#[derive(Clone)]
pub struct Clocks {
    pub spec: ClockSpec,
    remaining_ms: Vec<u64>,
    running_since: Vec<Option<Instant>>,
    paused_until: Vec<Option<Instant>>,
    /// Whether each seat's clock has started: it has made its first action, or the clock is a
    /// per-move one.
    started: Vec<bool>,
    /// Before a seat's clock starts, the time left for its first action, counted like a clock
    /// while it is to act.
    first_move_ms: Vec<u64>,
}

impl Clocks {
    /// Every seat's clock full and stopped, a Fischer clock not started.
    pub fn new(spec: ClockSpec, seats: usize) -> Clocks {
        Clocks {
            spec,
            remaining_ms: vec![spec.base_ms; seats],
            running_since: vec![None; seats],
            paused_until: vec![None; seats],
            started: vec![spec.per_move; seats],
            first_move_ms: vec![first_move_window(&spec); seats],
        }
    }

    /// Sets a seat's time left as of `now` (a match restored from its log; a takeback).
    pub fn set_remaining(&mut self, seat: usize, ms: u64, now: Instant) {
        self.bank(seat, now);
        self.remaining_ms[seat] = ms;
    }

    /// Charges a running seat the time it has counted until `now`, to its clock or, before its
    /// first action, to the time left for that; it counts on from `now`.
    fn bank(&mut self, seat: usize, now: Instant) {
        if self.running_since[seat].is_none() {
            return;
        }
        match self.started[seat] {
            true => self.remaining_ms[seat] = self.remaining_now(seat, now),
            false => {
                self.first_move_ms[seat] = self.counted_down(seat, self.first_move_ms[seat], now)
            }
        }
        self.running_since[seat] = Some(now);
    }

    /// When a running seat's clock started counting: not before its pause ends.
    fn counting_from(&self, seat: usize) -> Option<Instant> {
        let since = self.running_since[seat]?;
        Some(self.paused_until[seat].map_or(since, |until| until.max(since)))
    }

    /// `ms` less the time a running seat has counted until `now`.
    fn counted_down(&self, seat: usize, ms: u64, now: Instant) -> u64 {
        let used = self
            .counting_from(seat)
            .and_then(|from| now.checked_duration_since(from))
            .map_or(0, |d| d.as_millis() as u64);
        ms.saturating_sub(used)
    }

    /// The time on a seat's clock: standing still until the clock starts.
    pub fn remaining_now(&self, seat: usize, now: Instant) -> u64 {
        match self.started[seat] {
            true => self.counted_down(seat, self.remaining_ms[seat], now),
            false => self.remaining_ms[seat],
        }
    }

    /// Until a seat's clock starts, the time it has left for its first action; `None` once it
    /// has started.
    pub fn first_move_now(&self, seat: usize, now: Instant) -> Option<u64> {
        (!self.started[seat]).then(|| self.counted_down(seat, self.first_move_ms[seat], now))
    }

    /// What a seat counts down while it runs: its clock, or before that its first action's time.
    fn budget_now(&self, seat: usize, now: Instant) -> u64 {
        self.first_move_now(seat, now)
            .unwrap_or_else(|| self.remaining_now(seat, now))
    }

    /// Starts the clocks of the seats to act and stops the others.
    pub fn follow(&mut self, to_act: &[u8], now: Instant) {
        for seat in 0..self.remaining_ms.len() {
            let acting = to_act.contains(&(seat as u8));
            match (acting, self.running_since[seat]) {
                (true, None) => self.running_since[seat] = Some(now),
                (false, Some(_)) => {
                    self.bank(seat, now);
                    self.running_since[seat] = None;
                }
                _ => {}
            }
        }
    }

    /// Pauses a seat's clock until `until` (its player went on vacation), or lets it run again
    /// (`None`: the player is back).
    pub fn pause(&mut self, seat: usize, until: Option<Instant>, now: Instant) {
        self.bank(seat, now);
        self.paused_until[seat] = until;
    }

    /// Whether a seat's clock (or its time for its first action) is running and has run out.
    pub fn flagged(&self, seat: usize, now: Instant) -> bool {
        self.running_since[seat].is_some() && self.budget_now(seat, now) == 0
    }

    /// The time a seat acting now has left after its action: its increment added on a Fischer
    /// clock (its whole clock still, if this is its first action), full again on a per-move
    /// clock.
    pub fn after_action(&self, seat: usize, now: Instant) -> u64 {
        match (self.spec.per_move, self.started[seat]) {
            (true, _) => self.spec.base_ms,
            (false, true) => self.remaining_now(seat, now) + self.spec.increment_ms,
            (false, false) => self.remaining_ms[seat],
        }
    }

    /// A seat has acted with `left_ms` on its clock: its clock stops there, started, and the
    /// clocks of the seats to act now run.
    pub fn acted(&mut self, seat: usize, left_ms: u64, to_act: &[u8], now: Instant) {
        self.remaining_ms[seat] = left_ms;
        self.running_since[seat] = None;
        self.started[seat] = true;
        self.follow(to_act, now);
    }

    /// When a seat's flag falls (its clock, or its time for its first action, runs out), if it
    /// runs.
    pub fn flag_at(&self, seat: usize) -> Option<Instant> {
        let budget = match self.started[seat] {
            true => self.remaining_ms[seat],
            false => self.first_move_ms[seat],
        };
        self.counting_from(seat)
            .map(|from| from + Duration::from_millis(budget))
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

    /// Each seat's time left for its first action (`None` for a seat whose clock has started),
    /// or `None` once every seat's clock has started.
    pub fn first_moves(&self, now: Instant) -> Option<Vec<Option<u64>>> {
        (!self.started.iter().all(|s| *s)).then(|| {
            (0..self.remaining_ms.len())
                .map(|s| self.first_move_now(s, now))
                .collect()
        })
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

    const FISCHER: ClockSpec = ClockSpec {
        base_ms: 60_000,
        increment_ms: 2_000,
        per_move: false,
    };

    #[test]
    fn a_fischer_clock_starts_with_its_seats_first_action() {
        let now = Instant::now();
        let mut clocks = Clocks::new(FISCHER, 2);
        clocks.follow(&[0], now);
        // Seat 0 thinks 10 s over its first move: its clock stands still, its time for the
        // first move runs.
        let first = now + Duration::from_secs(10);
        assert_eq!(clocks.remaining_now(0, first), 60_000);
        assert_eq!(clocks.first_move_now(0, first), Some(20_000));
        assert_eq!(
            clocks.first_moves(first),
            Some(vec![Some(20_000), Some(30_000)])
        );
        assert_eq!(clocks.flag_at(0), Some(now + FIRST_MOVE));
        // No time off, and no increment.
        let left = clocks.after_action(0, first);
        assert_eq!(left, 60_000);
        clocks.acted(0, left, &[1], first);
        assert_eq!(clocks.first_move_now(0, first), None);
        // Seat 1's first move: the same.
        let second = first + Duration::from_secs(5);
        assert_eq!(clocks.snapshot(second), vec![60_000, 60_000]);
        assert_eq!(clocks.first_moves(second), Some(vec![None, Some(25_000)]));
        clocks.acted(1, clocks.after_action(1, second), &[0], second);
        assert_eq!(clocks.first_moves(second), None);
        // From then on the clocks run, and gain the increment.
        let third = second + Duration::from_secs(4);
        assert_eq!(clocks.snapshot(third), vec![56_000, 60_000]);
        assert_eq!(clocks.after_action(0, third), 58_000);
        assert_eq!(clocks.flag_at(0), Some(second + Duration::from_secs(60)));
    }

    #[test]
    fn a_first_move_not_made_in_time_lets_the_flag_fall() {
        let now = Instant::now();
        let mut clocks = Clocks::new(FISCHER, 2);
        clocks.follow(&[0], now);
        assert!(!clocks.flagged(0, now + FIRST_MOVE - Duration::from_millis(1)));
        assert!(clocks.flagged(0, now + FIRST_MOVE));
        assert_eq!(clocks.next_flag(), Some(now + FIRST_MOVE));
        // Not while the seat waits: its time for its first move counts only while it is to act.
        assert!(!clocks.flagged(1, now + FIRST_MOVE * 2));
        // A clock shorter than the window gives its own length.
        let short = ClockSpec {
            base_ms: 3_000,
            ..FISCHER
        };
        let mut clocks = Clocks::new(short, 2);
        clocks.follow(&[0], now);
        assert_eq!(clocks.flag_at(0), Some(now + Duration::from_secs(3)));
        // A per-move clock is every move's deadline, the first's too.
        let mut clocks = Clocks::new(PER_MOVE, 2);
        clocks.follow(&[0], now);
        assert_eq!(clocks.first_moves(now), None);
        assert_eq!(
            clocks.remaining_now(0, now + Duration::from_millis(300)),
            700
        );
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
