//! What a tournament does next, worked out from what is stored: its format, its entrants with
//! their seeding ratings, the state kept at the start and every game and bye so far. Pure, so
//! the director can ask again after a restart and get the same answer.
//!
//! - Round robin: the Berger schedule drawn at the start (kept as JSON), one round after the
//!   other.
//! - Swiss: each round paired from the rounds played, once the last game of a round is over.
//! - Knockout: the bracket, rebuilt by replaying every result into [`Bracket`]; a drawn game gets
//!   its decider at once, and the next round is drawn when every tie of a round is decided.

use super::knockout::{Bracket, Contest};
use super::standings::{self, StandingRow};
use super::{Entrant, EntrantId, GameResult, Outcome, Pairing, PlayedRound, Round, by_rating};
use super::{round_robin, swiss};

/// How a tournament pairs its entrants.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin { double: bool },
    Swiss { rounds: u32 },
    Knockout,
}

/// One stored game or bye.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub round: u32,
    pub board: u32,
    pub seat0: EntrantId,
    /// `None`: a bye for `seat0`.
    pub seat1: Option<EntrantId>,
    pub decider: bool,
    /// Seat 0's result once the game is over; always `None` for a bye.
    pub outcome: Option<Outcome>,
}

impl Slot {
    pub fn pairing(&self) -> Option<Pairing> {
        self.seat1.map(|seat1| Pairing::new(self.seat0, seat1))
    }

    /// A game waiting for its result.
    pub fn pending(&self) -> bool {
        self.seat1.is_some() && self.outcome.is_none()
    }
}

/// A game or bye to add to a round.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NewSlot {
    pub board: u32,
    pub seat0: EntrantId,
    pub seat1: Option<EntrantId>,
    pub decider: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Games are being played.
    Wait,
    /// Add these games and byes to round `round` (a new round, or a knockout's deciders).
    Play { round: u32, slots: Vec<NewSlot> },
    /// Every round is over.
    Finish,
}

/// The entrants strongest first: the seeding order.
pub fn seeded(entrants: &[Entrant]) -> Vec<Entrant> {
    let mut seeds = entrants.to_vec();
    seeds.sort_by(by_rating);
    seeds
}

/// What is decided at the start: the number of rounds and the state to keep (the round robin's
/// schedule, the knockout's bracket), as JSON.
pub fn at_start(format: Format, entrants: &[Entrant]) -> Result<(u32, Option<String>), String> {
    match format {
        Format::RoundRobin { double } => {
            let schedule = round_robin::schedule(&seeded(entrants), double);
            let json = serde_json::to_string(&schedule).map_err(|e| e.to_string())?;
            Ok((schedule.len() as u32, Some(json)))
        }
        Format::Swiss { rounds } => Ok((rounds, None)),
        Format::Knockout => {
            let bracket = Bracket::new(entrants).map_err(|e| e.to_string())?;
            let json = serde_json::to_string(&bracket).map_err(|e| e.to_string())?;
            Ok((bracket.total_rounds(), Some(json)))
        }
    }
}

/// Every round with its finished games and its byes, in order (unfinished games left out).
pub fn played_rounds(slots: &[Slot]) -> Vec<PlayedRound> {
    let mut rounds: Vec<PlayedRound> = Vec::new();
    let mut sorted = slots.to_vec();
    sorted.sort_by_key(|s| (s.round, s.board));
    for slot in sorted {
        if rounds.last().is_none_or(|r| r.number != slot.round) {
            rounds.push(PlayedRound {
                number: slot.round,
                ..PlayedRound::default()
            });
        }
        let round = rounds.last_mut().expect("just pushed");
        match (slot.pairing(), slot.outcome) {
            (None, _) => round.byes.push(slot.seat0),
            (Some(pairing), Some(outcome)) => round.games.push(GameResult::new(pairing, outcome)),
            (Some(_), None) => {}
        }
    }
    rounds
}

/// The standings after every result and bye so far.
pub fn standings(entrants: &[Entrant], slots: &[Slot]) -> Vec<StandingRow> {
    standings::table(entrants, &played_rounds(slots))
}

/// The knockout bracket with every recorded result replayed into it, in round and board order.
pub fn bracket(entrants: &[Entrant], slots: &[Slot]) -> Result<Bracket, String> {
    let mut bracket = Bracket::new(entrants).map_err(|e| e.to_string())?;
    let mut played: Vec<&Slot> = slots.iter().filter(|s| s.outcome.is_some()).collect();
    played.sort_by_key(|s| (s.round, s.board));
    for slot in played {
        let (Some(pairing), Some(outcome)) = (slot.pairing(), slot.outcome) else {
            continue;
        };
        bracket
            .record(GameResult::new(pairing, outcome))
            .map_err(|e| format!("round {} board {}: {e}", slot.round, slot.board))?;
    }
    Ok(bracket)
}

/// The winner once the tournament is over: the knockout's, or the one entrant alone at the top
/// of the standings.
pub fn winner(format: Format, entrants: &[Entrant], slots: &[Slot]) -> Option<EntrantId> {
    match format {
        Format::Knockout => bracket(entrants, slots).ok()?.winner(),
        _ => {
            let table = standings(entrants, slots);
            match table.as_slice() {
                [first, second, ..] if second.rank == first.rank => None,
                [first, ..] => Some(first.entrant),
                [] => None,
            }
        }
    }
}

/// The slots of a whole new round: its games in board order, then its byes.
fn round_slots(round: &Round) -> Vec<NewSlot> {
    let games = round.games.iter().map(|g| (g.seat0, Some(g.seat1)));
    let byes = round.byes.iter().map(|&b| (b, None));
    games
        .chain(byes)
        .enumerate()
        .map(|(board, (seat0, seat1))| NewSlot {
            board: board as u32,
            seat0,
            seat1,
            decider: false,
        })
        .collect()
}

/// What to do next, given the stored state. `current_round` is the last round created (0
/// before the first).
pub fn next(
    format: Format,
    entrants: &[Entrant],
    state: Option<&str>,
    current_round: u32,
    slots: &[Slot],
) -> Result<Next, String> {
    match format {
        Format::RoundRobin { double } => {
            if slots.iter().any(Slot::pending) {
                return Ok(Next::Wait);
            }
            let schedule: Vec<Round> = match state {
                Some(json) => serde_json::from_str(json).map_err(|e| e.to_string())?,
                None => round_robin::schedule(&seeded(entrants), double),
            };
            match schedule.get(current_round as usize) {
                Some(round) => Ok(Next::Play {
                    round: current_round + 1,
                    slots: round_slots(round),
                }),
                None => Ok(Next::Finish),
            }
        }
        Format::Swiss { rounds } => {
            if slots.iter().any(Slot::pending) {
                return Ok(Next::Wait);
            }
            if current_round >= rounds {
                return Ok(Next::Finish);
            }
            let history = played_rounds(slots);
            let round = swiss::pair(entrants, &history, current_round + 1);
            Ok(Next::Play {
                round: current_round + 1,
                slots: round_slots(&round),
            })
        }
        Format::Knockout => {
            let bracket = bracket(entrants, slots)?;
            let Some(current) = bracket.current_round() else {
                return Ok(if slots.iter().any(Slot::pending) {
                    Next::Wait
                } else {
                    Next::Finish
                });
            };
            if current.number > current_round {
                let slots = current
                    .contests
                    .iter()
                    .map(|contest| match contest {
                        Contest::Tie(tie) => {
                            let game = tie.game_pairing();
                            (game.seat0, Some(game.seat1))
                        }
                        Contest::Bye(entrant) => (*entrant, None),
                    })
                    .enumerate()
                    .map(|(board, (seat0, seat1))| NewSlot {
                        board: board as u32,
                        seat0,
                        seat1,
                        decider: false,
                    })
                    .collect();
                return Ok(Next::Play {
                    round: current.number,
                    slots,
                });
            }
            // The round's games were all created with it: a pending game without a slot is a
            // decider.
            let in_round = || slots.iter().filter(|s| s.round == current.number);
            let mut board = in_round().map(|s| s.board + 1).max().unwrap_or(0);
            let mut deciders = Vec::new();
            for pairing in bracket.pending_games() {
                if in_round().any(|s| s.pending() && s.pairing() == Some(pairing)) {
                    continue;
                }
                deciders.push(NewSlot {
                    board,
                    seat0: pairing.seat0,
                    seat1: Some(pairing.seat1),
                    decider: true,
                });
                board += 1;
            }
            Ok(if deciders.is_empty() {
                Next::Wait
            } else {
                Next::Play {
                    round: current.number,
                    slots: deciders,
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    fn field(n: u32) -> Vec<Entrant> {
        // Entrant i is seed i + 1.
        (0..n).map(|i| Entrant::new(i, 2000.0 - i as f64)).collect()
    }

    /// Runs a tournament through `next`, deciding each game with `decide(slot, games so far)`;
    /// returns every slot and how many times the plan was asked.
    fn run(
        format: Format,
        entrants: &[Entrant],
        decide: &mut dyn FnMut(&Slot, usize) -> Outcome,
    ) -> Vec<Slot> {
        let (rounds, state) = at_start(format, entrants).unwrap();
        let mut slots: Vec<Slot> = Vec::new();
        let mut current = 0;
        let mut played = 0;
        for _ in 0..1000 {
            match next(format, entrants, state.as_deref(), current, &slots).unwrap() {
                Next::Play { round, slots: new } => {
                    assert!(round == current || round == current + 1);
                    current = round;
                    for s in new {
                        assert!(
                            !slots.iter().any(|o| o.round == round && o.board == s.board),
                            "board {} of round {round} twice",
                            s.board
                        );
                        slots.push(Slot {
                            round,
                            board: s.board,
                            seat0: s.seat0,
                            seat1: s.seat1,
                            decider: s.decider,
                            outcome: None,
                        });
                    }
                }
                Next::Wait => {
                    // One game at a time, the earliest first.
                    let i = slots
                        .iter()
                        .position(Slot::pending)
                        .expect("waiting for a game");
                    slots[i].outcome = Some(decide(&slots[i], played));
                    played += 1;
                }
                Next::Finish => {
                    assert_eq!(current, rounds);
                    return slots;
                }
            }
        }
        panic!("the tournament never finished");
    }

    fn pair_key(p: Pairing) -> (EntrantId, EntrantId) {
        (p.seat0.min(p.seat1), p.seat0.max(p.seat1))
    }

    #[test]
    fn round_robins_play_their_schedule_and_finish() {
        for (n, double) in [(6, false), (5, false), (6, true)] {
            let entrants = field(n);
            let slots = run(Format::RoundRobin { double }, &entrants, &mut |_, i| {
                [Outcome::Win, Outcome::Draw, Outcome::Loss][i % 3]
            });
            let mut met: HashMap<(EntrantId, EntrantId), u32> = HashMap::new();
            for s in &slots {
                if let Some(p) = s.pairing() {
                    *met.entry(pair_key(p)).or_default() += 1;
                }
            }
            let cycles = if double { 2 } else { 1 };
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            assert!(met.values().all(|&m| m == cycles));
            let rounds = slots.iter().map(|s| s.round).max().unwrap();
            assert_eq!(
                rounds,
                round_robin::rounds_per_cycle(n as usize) as u32 * cycles
            );
            // The standings count every game and bye.
            let table = standings(&entrants, &slots);
            let total: f64 = table.iter().map(|r| r.points).sum();
            let games = slots.iter().filter(|s| s.seat1.is_some()).count();
            let byes = slots.len() - games;
            assert_eq!(total, (games + byes) as f64);
        }
    }

    #[test]
    fn swiss_pairs_each_round_after_the_last_and_never_rematches() {
        let entrants = field(7);
        let slots = run(Format::Swiss { rounds: 4 }, &entrants, &mut |s, _| {
            // The lower entrant number wins.
            if s.seat0 < s.seat1.unwrap() {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        });
        let mut met = HashSet::new();
        let mut byes = HashSet::new();
        for round in 1..=4 {
            let mut seen = HashSet::new();
            for s in slots.iter().filter(|s| s.round == round) {
                assert!(seen.insert(s.seat0));
                match s.pairing() {
                    Some(p) => {
                        assert!(seen.insert(p.seat1));
                        assert!(met.insert(pair_key(p)), "rematch {p:?}");
                    }
                    None => assert!(byes.insert(s.seat0), "second bye for {}", s.seat0),
                }
            }
            assert_eq!(seen.len(), 7);
        }
        assert_eq!(slots.iter().map(|s| s.round).max(), Some(4));
        assert_eq!(
            winner(Format::Swiss { rounds: 4 }, &entrants, &slots),
            Some(EntrantId(0))
        );
    }

    #[test]
    fn knockout_plays_deciders_after_draws_and_draws_the_next_round() {
        let entrants = field(6);
        // Every first game is drawn; deciders are won by seat 0 (the lower seed).
        let slots = run(Format::Knockout, &entrants, &mut |s, _| {
            if s.decider {
                Outcome::Win
            } else {
                Outcome::Draw
            }
        });
        let e = EntrantId;
        let round1: Vec<_> = slots.iter().filter(|s| s.round == 1).collect();
        // Seeds 1 and 2 have byes; 4 v 5 and 3 v 6, then a decider each with seats swapped.
        let games: Vec<_> = round1.iter().filter_map(|s| s.pairing()).collect();
        assert_eq!(
            games,
            vec![
                Pairing::new(e(3), e(4)),
                Pairing::new(e(2), e(5)),
                Pairing::new(e(4), e(3)),
                Pairing::new(e(5), e(2)),
            ]
        );
        let byes: Vec<_> = round1
            .iter()
            .filter(|s| s.seat1.is_none())
            .map(|s| s.seat0)
            .collect();
        assert_eq!(byes, vec![e(0), e(1)]);
        assert!(round1.iter().filter(|s| s.decider).count() == 2);
        // Round 2: seed 1 v the winner of 4 v 5 (seed 5), seed 2 v seed 6.
        let round2: Vec<_> = slots
            .iter()
            .filter(|s| s.round == 2 && !s.decider)
            .filter_map(|s| s.pairing())
            .collect();
        assert_eq!(
            round2,
            vec![Pairing::new(e(0), e(4)), Pairing::new(e(1), e(5))]
        );
        // Deciders go to the lower seeds, so seeds 5 and 6 meet in the final, won by 6.
        assert_eq!(winner(Format::Knockout, &entrants, &slots), Some(e(5)));
        assert_eq!(slots.iter().map(|s| s.round).max(), Some(3));
    }

    #[test]
    fn asking_again_changes_nothing() {
        let entrants = field(6);
        for format in [
            Format::RoundRobin { double: false },
            Format::Swiss { rounds: 3 },
            Format::Knockout,
        ] {
            let (_, state) = at_start(format, &entrants).unwrap();
            let first = next(format, &entrants, state.as_deref(), 0, &[]).unwrap();
            let again = next(format, &entrants, state.as_deref(), 0, &[]).unwrap();
            assert_eq!(first, again);
            let Next::Play { round: 1, slots } = first else {
                panic!("{format:?} starts with round 1");
            };
            let created: Vec<Slot> = slots
                .iter()
                .map(|s| Slot {
                    round: 1,
                    board: s.board,
                    seat0: s.seat0,
                    seat1: s.seat1,
                    decider: s.decider,
                    outcome: None,
                })
                .collect();
            // Once created, the round is waited for, not created again.
            assert_eq!(
                next(format, &entrants, state.as_deref(), 1, &created).unwrap(),
                Next::Wait
            );
        }
    }
}
