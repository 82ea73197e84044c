//! The game contract carries every shape of play the seed games need, shown on a toy game that
//! uses them all at once: three seats commit hidden numbers simultaneously (as Tron and
//! Mr Driller rounds do), a die from the match RNG settles the round (as the tower race's dice),
//! the round's loser must answer out of turn (as a tower-race challenge), and the winner then
//! takes a two-step turn (as a Hanoi split). The toy lives here, not in the engine: it exists to
//! test the contract.

use engine::MatchRng;
use engine::game::{Explain, Game, Outcome, PlayError, Seat, SeatSet, Viewer, Why, replay};
use engine::playout::random_playout;

#[derive(Clone, Debug, PartialEq)]
enum Action {
    /// A hidden commitment, 1 to 3.
    Commit(u8),
    /// The round's loser accepts (or refuses) the penalty, out of turn.
    Answer { accept: bool },
    /// The winner's two-step turn: first step, then second.
    Step(u8),
}

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Committing,
    Answering { loser: Seat, winner: Seat },
    Stepping { winner: Seat, steps_left: u8 },
}

#[derive(Clone, Debug)]
struct Toy {
    seats: usize,
    pending: Vec<Option<u8>>,
    scores: Vec<u32>,
    phase: Phase,
    rounds: u32,
    outcome: Option<Outcome>,
}

/// What a viewer sees: scores, and of the pending commitments only their own and who has
/// committed.
#[derive(Clone, Debug, PartialEq)]
struct ToyView {
    scores: Vec<u32>,
    own_commitment: Option<u8>,
    committed: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq)]
struct Wrong(&'static str);

impl std::fmt::Display for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Wrong {}

impl Explain for Wrong {
    fn why(&self) -> Why {
        Why::new("wrong")
    }
}

fn seat(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

impl Game for Toy {
    type Config = usize;
    type Action = Action;
    type View = ToyView;
    type Illegal = Wrong;
    type ConfigError = Wrong;

    fn new(seats: &usize, _rng: &mut MatchRng) -> Result<Toy, Wrong> {
        if !(2..=8).contains(seats) {
            return Err(Wrong("2 to 8 seats"));
        }
        Ok(Toy {
            seats: *seats,
            pending: vec![None; *seats],
            scores: vec![0; *seats],
            phase: Phase::Committing,
            rounds: 0,
            outcome: None,
        })
    }

    fn seat_count(&self) -> usize {
        self.seats
    }

    fn to_act(&self) -> SeatSet {
        if self.outcome.is_some() {
            return SeatSet::EMPTY;
        }
        match self.phase {
            Phase::Committing => (0..self.seats)
                .filter(|&i| self.pending[i].is_none())
                .map(seat)
                .collect(),
            Phase::Answering { loser, .. } => SeatSet::single(loser),
            Phase::Stepping { winner, .. } => SeatSet::single(winner),
        }
    }

    fn acting_actions(&self, _s: Seat) -> Vec<Action> {
        match self.phase {
            Phase::Committing => (1..=3).map(Action::Commit).collect(),
            Phase::Answering { .. } => {
                vec![
                    Action::Answer { accept: true },
                    Action::Answer { accept: false },
                ]
            }
            Phase::Stepping { .. } => (1..=2).map(Action::Step).collect(),
        }
    }

    fn apply(&mut self, s: Seat, action: &Action, rng: &mut MatchRng) -> Result<(), Wrong> {
        match (&self.phase, action) {
            (Phase::Committing, Action::Commit(n @ 1..=3)) => {
                self.pending[s.index()] = Some(*n);
                if self.pending.iter().all(Option::is_some) {
                    // The round resolves inside the call that completes it.
                    let roll = u32::from(rng.roll(6));
                    let total: u32 = self.pending.iter().map(|p| u32::from(p.unwrap())).sum();
                    let winner = seat(((total + roll) as usize) % self.seats);
                    let loser = seat((winner.index() + 1) % self.seats);
                    self.pending = vec![None; self.seats];
                    self.phase = Phase::Answering { loser, winner };
                }
                Ok(())
            }
            (Phase::Answering { winner, .. }, Action::Answer { accept }) => {
                let winner = *winner;
                self.scores[winner.index()] += if *accept { 2 } else { 1 };
                self.phase = Phase::Stepping {
                    winner,
                    steps_left: 2,
                };
                Ok(())
            }
            (Phase::Stepping { winner, steps_left }, Action::Step(n @ 1..=2)) => {
                let (winner, left) = (*winner, steps_left - 1);
                self.scores[winner.index()] += u32::from(*n);
                self.phase = if left == 0 {
                    self.rounds += 1;
                    Phase::Committing
                } else {
                    Phase::Stepping {
                        winner,
                        steps_left: left,
                    }
                };
                if self.scores.iter().any(|&p| p >= 10) || self.rounds == 20 {
                    let best = *self.scores.iter().max().unwrap();
                    let places = self.scores.iter().map(|&p| u8::from(p < best)).collect();
                    self.outcome = Some(Outcome::from_places(places, "points"));
                }
                Ok(())
            }
            _ => Err(Wrong("not an action of this phase")),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, viewer: Viewer) -> ToyView {
        ToyView {
            scores: self.scores.clone(),
            own_commitment: match viewer {
                Viewer::Seat(s) => self.pending[s.index()],
                Viewer::Spectator => None,
            },
            committed: self.pending.iter().map(Option::is_some).collect(),
        }
    }
}

#[test]
fn a_simultaneous_round_waits_for_every_seat_and_hides_commitments() {
    let mut rng = MatchRng::from_seed(1);
    let mut toy = Toy::new(&3, &mut rng).unwrap();
    assert_eq!(toy.to_act(), SeatSet::first(3));
    toy.play(seat(1), &Action::Commit(3), &mut rng).unwrap();
    assert_eq!(toy.to_act().len(), 2);
    assert_eq!(
        toy.play(seat(1), &Action::Commit(2), &mut rng),
        Err(PlayError::NotYourTurn(seat(1)))
    );
    assert_eq!(toy.view(Viewer::Seat(seat(1))).own_commitment, Some(3));
    assert_eq!(toy.view(Viewer::Seat(seat(0))).own_commitment, None);
    assert_eq!(toy.view(Viewer::Spectator).own_commitment, None);
    assert_eq!(
        toy.view(Viewer::Seat(seat(0))).committed,
        vec![false, true, false]
    );
    toy.play(seat(0), &Action::Commit(1), &mut rng).unwrap();
    toy.play(seat(2), &Action::Commit(1), &mut rng).unwrap();
    // Resolved: exactly one seat, the loser, must now answer out of turn.
    let Phase::Answering { loser, winner } = toy.phase.clone() else {
        panic!("{:?}", toy.phase)
    };
    assert_eq!(toy.to_act(), SeatSet::single(loser));
    let bystander = winner;
    assert_eq!(
        toy.play(bystander, &Action::Answer { accept: false }, &mut rng),
        Err(PlayError::NotYourTurn(bystander))
    );
    toy.play(loser, &Action::Answer { accept: true }, &mut rng)
        .unwrap();
    // The winner's turn takes two actions; they stay the seat to act in between.
    toy.play(winner, &Action::Step(1), &mut rng).unwrap();
    assert_eq!(toy.to_act(), SeatSet::single(winner));
    toy.play(winner, &Action::Step(2), &mut rng).unwrap();
    assert_eq!(toy.to_act(), SeatSet::first(3));
}

#[test]
fn an_illegal_action_is_a_typed_error_and_changes_nothing() {
    let mut rng = MatchRng::from_seed(2);
    let mut toy = Toy::new(&2, &mut rng).unwrap();
    let before = toy.view(Viewer::Spectator);
    let err = toy.play(seat(0), &Action::Step(1), &mut rng).unwrap_err();
    assert_eq!(
        err,
        PlayError::Illegal(Wrong("not an action of this phase"))
    );
    assert_eq!(
        toy.play(seat(5), &Action::Commit(1), &mut rng),
        Err(PlayError::NoSuchSeat(seat(5)))
    );
    assert_eq!(toy.view(Viewer::Spectator), before);
    assert_eq!(toy.to_act(), SeatSet::first(2));
}

#[test]
fn config_seed_and_log_replay_to_the_same_state_and_dice() {
    for seed in 0..50 {
        let mut rng = MatchRng::from_seed(seed);
        let mut live = Toy::new(&4, &mut rng).unwrap();
        let mut chooser = MatchRng::from_seed(seed + 1000);
        let playout = random_playout(&mut live, &mut rng, &mut chooser, 10_000);
        assert!(playout.finished);
        let log = playout.log.iter().map(|(s, a)| (*s, a));
        let (rebuilt, mut rebuilt_rng) = replay::<Toy, _>(&4, seed, log).unwrap();
        assert_eq!(rebuilt.scores, live.scores);
        assert_eq!(rebuilt.outcome(), live.outcome());
        // The RNG is in the same state too, so the live match and the rebuilt one roll alike.
        assert_eq!(rebuilt_rng.next_u64(), rng.next_u64());
        let places = live.outcome().unwrap().places();
        assert!(places.contains(&0) && places.len() == 4);
    }
}

#[test]
fn a_refused_log_entry_names_its_index() {
    let a = Action::Commit(1);
    let bad = Action::Step(1);
    let log = [(seat(0), &a), (seat(0), &bad)];
    let err = replay::<Toy, _>(&2, 0, log).unwrap_err();
    assert!(err.to_string().starts_with("action 2:"), "{err}");
}
