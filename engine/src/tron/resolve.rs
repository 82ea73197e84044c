//! A round's resolution: the cards turned over and enacted phase by phase, the light-cycles
//! driven together, and the end of the round (points, captures, reincarnation, new flags).

use super::board::{CellSet, Square};
use super::view::{Cause, Event};
use super::{Card, Cell, Dir, Line, MAX_ROUNDS, Pending, Phase, Pile, Special, Stage, Tron, Turn};
use crate::game::{Outcome, Seat, SeatSet};
use crate::rng::MatchRng;

/// One light-cycle moving in a phase.
struct Mover {
    seat: Seat,
    dir: Dir,
    /// Spaces still to go.
    left: u8,
}

/// What moving in a phase may do besides driving forward.
#[derive(Copy, Clone)]
struct DriveRules {
    /// Cut tail: entering a tail cuts it instead of crashing.
    cut: bool,
    /// Over-drive: a square another mover of the phase reached first makes the mover stop
    /// short instead of crashing.
    stop_short: bool,
}

/// What happens to a mover in one step.
#[derive(Copy, Clone)]
enum Fate {
    Enter(Cell),
    Cut {
        owner: Seat,
        at: Cell,
    },
    Stop,
    Die(Cause),
    /// Drives into the head of a light-cycle that is not moving now: both are destroyed.
    Ram {
        at: Cell,
        standing: Seat,
    },
}

impl Tron {
    /// Every seat has chosen: the cards are turned over together and enacted.
    pub(super) fn reveal(&mut self, rng: &mut MatchRng) {
        self.events.clear();
        for i in 0..self.players.len() {
            let card = match self.pending[i].take() {
                Some(Pending::Card(card)) => Some(card),
                _ => None,
            };
            self.played[i] = card;
            if let Some(Card::Special(special)) = card {
                self.players[i].hand.remove(special);
                self.used.push(special);
            }
        }
        self.run_phases(0, rng);
    }

    /// Enacts the phases from `Phase::ORDER[first]` on, stopping at the first that needs
    /// decisions; after the last phase the round ends.
    pub(super) fn run_phases(&mut self, first: usize, rng: &mut MatchRng) {
        for phase in Phase::ORDER.into_iter().skip(first) {
            let actors: SeatSet = self
                .seats()
                .filter(|&s| {
                    self.is_alive(s) && self.played[s.index()].map(Card::phase) == Some(phase)
                })
                .collect();
            if actors.is_empty() {
                continue;
            }
            let waiting = match phase {
                Phase::Regular if !self.over_drive => SeatSet::EMPTY,
                Phase::Special(Special::RetractTail) => {
                    actors.iter().filter(|&s| self.tail_len(s) > 1).collect()
                }
                Phase::Special(Special::OverDrive) => SeatSet::EMPTY,
                _ => actors,
            };
            if !waiting.is_empty() {
                self.stage = Stage::Enact { phase, waiting };
                return;
            }
            match phase {
                Phase::Regular => {
                    let movers = actors
                        .iter()
                        .filter_map(|seat| match self.played[seat.index()] {
                            Some(Card::Regular(turn)) => self.mover(seat, turn, 1),
                            _ => None,
                        })
                        .collect();
                    self.drive(movers, DriveRules::plain());
                }
                Phase::Special(Special::OverDrive) => {
                    // Each play switches the mode (the deck holds one Over-Drive card).
                    for seat in actors.iter() {
                        self.over_drive = !self.over_drive;
                        self.events.push(Event::OverDrive {
                            seat,
                            on: self.over_drive,
                        });
                    }
                }
                // A retract tail with a tail of one or none leaves nothing to retract.
                _ => {}
            }
        }
        self.end_round(rng);
    }

    fn mover(&self, seat: Seat, turn: Turn, left: u8) -> Option<Mover> {
        let cycle = self.cycle_of(seat)?;
        Some(Mover {
            seat,
            dir: cycle.facing.turned(turn),
            left,
        })
    }

    /// Every mover of `phase` has decided: they drive.
    pub(super) fn drive_phase(&mut self, phase: Phase, waiting: SeatSet) {
        let movers = waiting
            .iter()
            .filter_map(|seat| match self.pending[seat.index()].take() {
                Some(Pending::Go { turn, distance }) => self.mover(seat, turn, distance),
                _ => None,
            })
            .collect();
        let cut = phase == Phase::Special(Special::CutTail);
        let rules = DriveRules {
            cut,
            stop_short: self.over_drive && !cut,
        };
        self.drive(movers, rules);
    }

    /// Moves the light-cycles together, one space per step, until each has gone its distance,
    /// stopped or been destroyed. Every fate of a step is judged on the board as it was before
    /// the step, so nobody moves first.
    fn drive(&mut self, mut movers: Vec<Mover>, rules: DriveRules) {
        // The squares the movers have stood on during this phase: their start and every square
        // entered. Whoever reached such a square first was closer to it.
        let mut path = CellSet::default();
        for mover in &movers {
            if let Some(cycle) = self.cycle_of(mover.seat) {
                path.insert(self.board.index(cycle.head));
            }
        }
        loop {
            movers.retain(|m| m.left > 0 && self.is_alive(m.seat));
            if movers.is_empty() {
                return;
            }
            let mut fates: Vec<Fate> = movers
                .iter()
                .map(|m| self.fate(m, &movers, &path, rules))
                .collect();
            // Two heads entering one square at once are equally close: both are destroyed.
            let entering: Vec<Option<Cell>> = fates
                .iter()
                .map(|fate| match fate {
                    Fate::Enter(to) => Some(*to),
                    _ => None,
                })
                .collect();
            for (i, fate) in fates.iter_mut().enumerate() {
                if let Fate::Enter(at) = *fate
                    && entering
                        .iter()
                        .enumerate()
                        .any(|(j, other)| j != i && *other == Some(at))
                {
                    *fate = Fate::Die(Cause::HeadOn { at });
                }
            }
            for (mover, fate) in movers.iter_mut().zip(fates) {
                self.settle(mover, fate, &mut path);
            }
        }
    }

    /// What one step does to `mover`, judged on the board before the step.
    fn fate(&self, mover: &Mover, movers: &[Mover], path: &CellSet, rules: DriveRules) -> Fate {
        let Some(from) = self.cycle_of(mover.seat).map(|c| c.head) else {
            return Fate::Stop;
        };
        let Some(to) = self.board.step(from, mover.dir) else {
            return Fate::Die(Cause::OffGrid { at: from });
        };
        if let Some(line) = Line::between(from, to)
            && self.crushers.contains(&Some(line))
        {
            return Fate::Die(Cause::Crusher { line });
        }
        // Two heads swapping squares meet on the line between them, equally close.
        let head_of = |seat: Seat| self.cycle_of(seat).map(|c| c.head);
        let swap = movers.iter().any(|other| {
            other.seat != mover.seat
                && head_of(other.seat) == Some(to)
                && self.board.step(to, other.dir) == Some(from)
        });
        if swap {
            return Fate::Die(Cause::HeadOn { at: to });
        }
        if rules.stop_short && path.contains(self.board.index(to)) {
            return Fate::Stop;
        }
        let moving = |seat: Seat| movers.iter().any(|m| m.seat == seat);
        match self.square(to) {
            Square::Empty => Fate::Enter(to),
            Square::Head(owner) if self.is_alive(owner) && !moving(owner) => Fate::Ram {
                at: to,
                standing: owner,
            },
            // A wreck counts as tail, and so does the square a moving head is leaving.
            Square::Head(owner) | Square::Tail(owner) if rules.cut => Fate::Cut { owner, at: to },
            Square::Head(owner) | Square::Tail(owner) => Fate::Die(Cause::Tail { owner, at: to }),
        }
    }

    fn settle(&mut self, mover: &mut Mover, fate: Fate, path: &mut CellSet) {
        match fate {
            Fate::Enter(to) => {
                self.advance(mover.seat, to, mover.dir);
                path.insert(self.board.index(to));
                mover.left -= 1;
            }
            Fate::Cut { owner, at } => {
                self.cut(mover.seat, owner, at);
                self.advance(mover.seat, at, mover.dir);
                path.insert(self.board.index(at));
                mover.left -= 1;
            }
            Fate::Stop => {
                mover.left = 0;
                if let Some(cycle) = self.cycle_of(mover.seat) {
                    let at = cycle.head;
                    self.events.push(Event::Stopped {
                        seat: mover.seat,
                        at,
                    });
                }
            }
            Fate::Die(cause) => self.destroy(mover.seat, cause),
            Fate::Ram { at, standing } => {
                self.destroy(mover.seat, Cause::HeadOn { at });
                // Two movers may ram the same light-cycle; it is destroyed once.
                if self.is_alive(standing) {
                    self.destroy(standing, Cause::HeadOn { at });
                }
            }
        }
    }

    /// The light-cycle is destroyed; its wreck stays until the end of the round. Points: -1
    /// for a crash (+2 to the owner of another's tail), 0 for a head-on collision.
    fn destroy(&mut self, seat: Seat, cause: Cause) {
        if let Some(cycle) = self.players[seat.index()].cycle.as_mut() {
            cycle.alive = false;
        }
        match cause {
            Cause::HeadOn { .. } => {}
            Cause::Tail { owner, .. } => {
                self.round_points[seat.index()] -= 1;
                if owner != seat {
                    self.round_points[owner.index()] += 2;
                }
            }
            Cause::OffGrid { .. } | Cause::Crusher { .. } => self.round_points[seat.index()] -= 1,
        }
        self.events.push(Event::Died { seat, cause });
    }

    /// The head moves to `to`; the square it left becomes tail. Entering a flag's square
    /// reaches the flag, unless someone reached it earlier this round or it is the last flag
    /// this player placed.
    fn advance(&mut self, seat: Seat, to: Cell, dir: Dir) {
        let Some(cycle) = self.players[seat.index()].cycle.as_mut() else {
            return;
        };
        let from = cycle.head;
        cycle.tail.push_back(from);
        cycle.head = to;
        cycle.facing = dir;
        self.grid[self.board.index(from)] = Square::Tail(seat);
        self.grid[self.board.index(to)] = Square::Head(seat);
        if let Some(i) = self.flag_at(to) {
            let flag = &mut self.flags[i];
            if flag.owner != Some(seat) && flag.reached.is_none() {
                flag.reached = Some(seat);
            }
        }
    }

    /// Cut tail: `owner`'s tail is cut at `at`, and the part no longer attached to the
    /// light-cycle (from `at` to the tail's end) leaves the board. A wreck's head is attached
    /// to no light-cycle, so cutting it there removes the whole wreck.
    fn cut(&mut self, seat: Seat, owner: Seat, at: Cell) {
        let board = self.board;
        let player = &mut self.players[owner.index()];
        let Some(cycle) = player.cycle.as_mut() else {
            return;
        };
        let whole = cycle.head == at;
        let cut_off = if whole {
            cycle.tail.len()
        } else {
            cycle
                .tail
                .iter()
                .position(|&c| c == at)
                .map_or(0, |i| i + 1)
        };
        for cell in cycle.tail.drain(..cut_off) {
            self.grid[board.index(cell)] = Square::Empty;
        }
        if whole {
            player.cycle = None;
        }
        self.events.push(Event::Cut { seat, owner, at });
    }

    /// Retract tail: keeps the `length` tail squares nearest the head.
    pub(super) fn retract(&mut self, seat: Seat, length: u16) {
        let board = self.board;
        if let Some(cycle) = self.players[seat.index()].cycle.as_mut() {
            let excess = cycle.tail.len().saturating_sub(usize::from(length));
            for cell in cycle.tail.drain(..excess) {
                self.grid[board.index(cell)] = Square::Empty;
            }
        }
        self.events.push(Event::Retracted { seat, length });
    }

    /// Puts a crusher on `to`: the one off the board, or the one on `from`.
    pub(super) fn place_crusher(&mut self, seat: Seat, to: Line, from: Option<Line>) {
        if let Some(slot) = self.crushers.iter_mut().find(|slot| **slot == from) {
            *slot = Some(to);
        }
        self.events.push(Event::CrusherPlaced { seat, to, from });
    }

    /// The end of the round, steps 3 to 7 of the seed: used special cards back into the deck,
    /// wrecks off the board and points for kills and deaths, captures, then (unless the game
    /// is over) reincarnation and new flags.
    fn end_round(&mut self, rng: &mut MatchRng) {
        if !self.used.is_empty() {
            self.deck.append(&mut self.used);
            rng.shuffle(&mut self.deck);
        }
        let seats = self.seats();
        for ((seat, player), points) in seats.zip(&mut self.players).zip(&mut self.round_points) {
            if let Some(cycle) = player.cycle.take_if(|cycle| !cycle.alive) {
                for cell in cycle.tail.iter().chain([&cycle.head]) {
                    let square = &mut self.grid[self.board.index(*cell)];
                    // Clears only what the wreck still holds.
                    if matches!(square, Square::Head(s) | Square::Tail(s) if *s == seat) {
                        *square = Square::Empty;
                    }
                }
            }
            player.score += *points;
            *points = 0;
        }
        let mut captures = vec![0u8; self.players.len()];
        for flag in &mut self.flags {
            let (Some(seat), Some(at)) = (flag.reached.take(), flag.at) else {
                continue;
            };
            // Only a player who lived through the round captures.
            let player = &mut self.players[seat.index()];
            if player.cycle.is_some() {
                player.score += 3;
                captures[seat.index()] += 1;
                flag.at = None;
                flag.owner = Some(seat);
                self.events.push(Event::Captured { seat, at });
            }
        }
        self.deal(&captures);
        if let Some(outcome) = self.judge() {
            self.outcome = Some(outcome);
            self.stage = Stage::Over;
            return;
        }
        self.reincarnate_from(0, rng);
    }

    /// Each capture gives every other player a special card. The cards go round one at a time
    /// to everyone still owed one, and only while the deck has a card for each of them, so
    /// nobody gets more than the fair share (possibly nobody gets any).
    fn deal(&mut self, captures: &[u8]) {
        let total: u8 = captures.iter().sum();
        let mut owed: Vec<u8> = captures.iter().map(|&own| total - own).collect();
        let mut drawn = vec![0u8; owed.len()];
        loop {
            let due = owed.iter().filter(|&&n| n > 0).count();
            if due == 0 || self.deck.len() < due {
                break;
            }
            for (i, owed) in owed.iter_mut().enumerate().filter(|(_, n)| **n > 0) {
                if let Some(card) = self.deck.pop() {
                    self.players[i].hand.add(card);
                    *owed -= 1;
                    drawn[i] += 1;
                }
            }
        }
        for (seat, &cards) in self.seats().zip(&drawn) {
            if cards > 0 {
                self.events.push(Event::Drew { seat, cards });
            }
        }
    }

    /// The end of the game, if it has come: exactly one player at or over the target (which
    /// rises while several are), or the round cap.
    fn judge(&mut self) -> Option<Outcome> {
        loop {
            let reached = self
                .players
                .iter()
                .filter(|p| p.score >= self.target)
                .count();
            match reached {
                0 => break,
                1 => return Some(self.ranking("target_reached")),
                _ => self.target += 1,
            }
        }
        (self.round >= MAX_ROUNDS).then(|| self.ranking("round_limit"))
    }

    /// Places by score: a seat's place is the number of seats with more points.
    fn ranking(&self, reason: &'static str) -> Outcome {
        let places = self
            .players
            .iter()
            .map(|p| self.players.iter().filter(|q| q.score > p.score).count() as u8)
            .collect();
        Outcome::from_places(places, reason)
    }

    /// Step 6: every player off the board, from seat `first` on, gets a square by Row/Column
    /// draws and then places their tail (the game waits for that); a player for whom no
    /// square fits waits for the next round. Then step 7 and the next round.
    pub(super) fn reincarnate_from(&mut self, first: usize, rng: &mut MatchRng) {
        for seat in self.seats().skip(first) {
            if self.cycle_of(seat).is_some() {
                continue;
            }
            if let Some(head) = self.draw_square(rng, Tron::fits_cycle) {
                self.events.push(Event::Reincarnated { seat, at: head });
                self.stage = Stage::PlaceTail { seat, head };
                return;
            }
        }
        self.place_flags(rng);
        self.start_round();
    }

    /// Step 7 (and setup step 4): every flag off the board is placed by Row/Column draws on a
    /// free square; with none free it waits for the next round. The placer may not capture
    /// it, and may now capture the flag they placed before.
    pub(super) fn place_flags(&mut self, rng: &mut MatchRng) {
        for i in 0..self.flags.len() {
            if self.flags[i].at.is_some() {
                continue;
            }
            let Some(at) = self.draw_square(rng, Tron::is_free) else {
                continue;
            };
            let owner = self.flags[i].owner;
            for (j, flag) in self.flags.iter_mut().enumerate() {
                if j != i && flag.at.is_some() && owner.is_some() && flag.owner == owner {
                    flag.owner = None;
                }
            }
            self.flags[i].at = Some(at);
            self.events.push(Event::FlagPlaced { by: owner, at });
        }
    }

    pub(super) fn start_round(&mut self) {
        self.round += 1;
        self.stage = Stage::Choose;
    }

    /// Draws Row and Column cards in pairs from freshly shuffled piles until they name a
    /// square that `fits`; `None` when no square does.
    fn draw_square(&self, rng: &mut MatchRng, fits: fn(&Tron, Cell) -> bool) -> Option<Cell> {
        if !self.board.cells().any(|cell| fits(self, cell)) {
            return None;
        }
        let mut rows = Pile::new(self.size());
        let mut cols = Pile::new(self.size());
        loop {
            let row = rows.draw(rng);
            let col = cols.draw(rng);
            if let Some(cell) = Cell::new(col, row)
                && fits(self, cell)
            {
                return Some(cell);
            }
        }
    }
}

impl DriveRules {
    /// Normal movement: no cutting, no stopping short.
    const fn plain() -> DriveRules {
        DriveRules {
            cut: false,
            stop_short: false,
        }
    }
}
