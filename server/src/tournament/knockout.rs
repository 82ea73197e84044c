//! Knockout: a seeded single-elimination bracket.
//!
//! Entrants are seeded by rating (then id). The bracket has the next power of two of places,
//! filled in the standard order (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight): in every round the
//! seeds' sums are equal, and seeds 1 and 2 are in different halves so they can meet only in the
//! final (1 and 4, 2 and 3, only in the semi-finals, and so on). The places left empty belong to
//! the weakest seeds, so the byes go to the top seeds.
//!
//! Each pairing is a [`Tie`]: one game, the higher seed in seat 0. A draw calls for a decider
//! with the seats swapped; if the decider is drawn too, the higher seed goes through. When every
//! tie of a round is decided the next round is drawn from its winners in bracket order.
//!
//! The [`Bracket`] is the whole state: keep it (as JSON if need be), ask it for
//! [`Bracket::pending_games`], and give it each result with [`Bracket::record`].

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Entrant, EntrantId, GameResult, Outcome, Pairing, by_rating};

/// Two entrants playing for one place in the next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tie {
    /// The higher seed: seat 0 in the game, seat 1 in a decider.
    pub higher: EntrantId,
    pub lower: EntrantId,
    /// The game's outcome for seat 0 (the higher seed), once played.
    pub game: Option<Outcome>,
    /// The decider's outcome for seat 0 (the lower seed), once played.
    pub decider: Option<Outcome>,
}

/// Where a tie stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieState {
    /// The game is to be played.
    Game(Pairing),
    /// The game was drawn: this decider, seats swapped, is to be played.
    DeciderNeeded(Pairing),
    /// Through to the next round.
    Won(EntrantId),
}

impl Tie {
    fn new(higher: EntrantId, lower: EntrantId) -> Tie {
        Tie {
            higher,
            lower,
            game: None,
            decider: None,
        }
    }

    /// The game: the higher seed in seat 0.
    pub fn game_pairing(&self) -> Pairing {
        Pairing::new(self.higher, self.lower)
    }

    /// The decider after a drawn game: the lower seed in seat 0.
    pub fn decider_pairing(&self) -> Pairing {
        self.game_pairing().reversed()
    }

    pub fn state(&self) -> TieState {
        let winner = |pairing: Pairing, outcome| GameResult::new(pairing, outcome).winner();
        match (self.game, self.decider) {
            (None, _) => TieState::Game(self.game_pairing()),
            (Some(Outcome::Draw), None) => TieState::DeciderNeeded(self.decider_pairing()),
            (Some(Outcome::Draw), Some(decider)) => TieState::Won(
                // A drawn decider: the higher seed goes through.
                winner(self.decider_pairing(), decider).unwrap_or(self.higher),
            ),
            (Some(game), _) => TieState::Won(
                winner(self.game_pairing(), game).expect("a game that is not a draw has a winner"),
            ),
        }
    }

    /// The game this tie is waiting for, if any.
    pub fn pending(&self) -> Option<Pairing> {
        match self.state() {
            TieState::Game(pairing) | TieState::DeciderNeeded(pairing) => Some(pairing),
            TieState::Won(_) => None,
        }
    }

    pub fn winner(&self) -> Option<EntrantId> {
        match self.state() {
            TieState::Won(winner) => Some(winner),
            _ => None,
        }
    }
}

/// One place in a round: a tie, or an entrant through without playing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contest {
    Bye(EntrantId),
    Tie(Tie),
}

impl Contest {
    pub fn winner(&self) -> Option<EntrantId> {
        match self {
            Contest::Bye(entrant) => Some(*entrant),
            Contest::Tie(tie) => tie.winner(),
        }
    }
}

/// One round of the bracket, its contests in bracket order: the winners of contests 2k and
/// 2k + 1 meet in the next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRound {
    /// 1-based.
    pub number: u32,
    pub contests: Vec<Contest>,
}

impl KnockoutRound {
    pub fn ties(&self) -> impl Iterator<Item = &Tie> {
        self.contests.iter().filter_map(|c| match c {
            Contest::Tie(tie) => Some(tie),
            Contest::Bye(_) => None,
        })
    }

    pub fn byes(&self) -> impl Iterator<Item = EntrantId> + '_ {
        self.contests.iter().filter_map(|c| match c {
            Contest::Bye(entrant) => Some(*entrant),
            Contest::Tie(_) => None,
        })
    }

    pub fn is_decided(&self) -> bool {
        self.contests.iter().all(|c| c.winner().is_some())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnockoutError {
    /// A knockout needs at least two entrants.
    TooFewEntrants,
    DuplicateEntrant(EntrantId),
    /// No tie of the current round is waiting for this game (with these seats).
    NotPending(Pairing),
    /// The tournament has its winner.
    Finished,
}

impl std::fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KnockoutError::TooFewEntrants => write!(f, "a knockout needs at least two entrants"),
            KnockoutError::DuplicateEntrant(e) => write!(f, "entrant {e} is in the draw twice"),
            KnockoutError::NotPending(p) => {
                write!(
                    f,
                    "no game {} v {} is waiting for a result",
                    p.seat0, p.seat1
                )
            }
            KnockoutError::Finished => write!(f, "the knockout is over"),
        }
    }
}

impl std::error::Error for KnockoutError {}

/// The state of a knockout tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bracket {
    /// In seed order: seed 1 first.
    seeds: Vec<Entrant>,
    /// Every round drawn so far; the last is being played unless the bracket is finished.
    rounds: Vec<KnockoutRound>,
}

/// The seeds (1-based) in bracket order for a bracket of `size` places, a power of two: seeds
/// s and size + 1 - s are neighbours, and each half is the same pattern, recursively.
pub fn bracket_order(size: usize) -> Vec<usize> {
    assert!(
        size.is_power_of_two(),
        "a bracket has a power of two of places"
    );
    let mut order = vec![1];
    while order.len() < size {
        let places = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, places + 1 - s]).collect();
    }
    order
}

impl Bracket {
    /// Seeds `entrants` by rating and draws the first round.
    pub fn new(entrants: &[Entrant]) -> Result<Bracket, KnockoutError> {
        if entrants.len() < 2 {
            return Err(KnockoutError::TooFewEntrants);
        }
        let mut seeds = entrants.to_vec();
        seeds.sort_by(by_rating);
        let mut ids: Vec<EntrantId> = seeds.iter().map(|e| e.id).collect();
        ids.sort();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(KnockoutError::DuplicateEntrant(w[0]));
        }

        let n = seeds.len();
        let order = bracket_order(n.next_power_of_two());
        let contests = order
            .chunks(2)
            .map(|pair| {
                let (high, low) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
                if low > n {
                    Contest::Bye(seeds[high - 1].id)
                } else {
                    Contest::Tie(Tie::new(seeds[high - 1].id, seeds[low - 1].id))
                }
            })
            .collect();
        let mut bracket = Bracket {
            seeds,
            rounds: vec![KnockoutRound {
                number: 1,
                contests,
            }],
        };
        bracket.advance();
        Ok(bracket)
    }

    /// The entrants in seed order.
    pub fn seeds(&self) -> &[Entrant] {
        &self.seeds
    }

    /// An entrant's seed, 1 for the top seed.
    pub fn seed_of(&self, entrant: EntrantId) -> Option<usize> {
        self.seeds
            .iter()
            .position(|e| e.id == entrant)
            .map(|i| i + 1)
    }

    /// How many rounds the whole bracket has.
    pub fn total_rounds(&self) -> u32 {
        self.seeds.len().next_power_of_two().trailing_zeros()
    }

    /// Every round drawn so far.
    pub fn rounds(&self) -> &[KnockoutRound] {
        &self.rounds
    }

    /// The round being played; `None` once the bracket is finished.
    pub fn current_round(&self) -> Option<&KnockoutRound> {
        self.rounds.last().filter(|r| !r.is_decided())
    }

    /// The games to play now: the current round's games and deciders without a result.
    pub fn pending_games(&self) -> Vec<Pairing> {
        self.current_round()
            .map(|round| round.ties().filter_map(Tie::pending).collect())
            .unwrap_or_default()
    }

    /// The tournament's winner, once the final is decided.
    pub fn winner(&self) -> Option<EntrantId> {
        let last = self.rounds.last()?;
        match last.contests.as_slice() {
            [only] => only.winner(),
            _ => None,
        }
    }

    pub fn is_finished(&self) -> bool {
        self.winner().is_some()
    }

    /// Records the result of a pending game or decider (its pairing must be exactly the pending
    /// one, seats included) and returns where its tie now stands. When that completes the
    /// round, the next round is drawn.
    pub fn record(&mut self, result: GameResult) -> Result<TieState, KnockoutError> {
        if self.is_finished() {
            return Err(KnockoutError::Finished);
        }
        let round = self
            .rounds
            .last_mut()
            .expect("a bracket always has a round");
        let tie = round
            .contests
            .iter_mut()
            .find_map(|c| match c {
                Contest::Tie(tie) if tie.pending() == Some(result.pairing) => Some(tie),
                _ => None,
            })
            .ok_or(KnockoutError::NotPending(result.pairing))?;
        if tie.game.is_none() {
            tie.game = Some(result.outcome);
        } else {
            tie.decider = Some(result.outcome);
        }
        let state = tie.state();
        self.advance();
        Ok(state)
    }

    /// Draws the next round while the last one is decided and has more than one winner.
    fn advance(&mut self) {
        let seed: HashMap<EntrantId, usize> = self
            .seeds
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect();
        loop {
            let last = self.rounds.last().expect("a bracket always has a round");
            if !last.is_decided() || last.contests.len() < 2 {
                return;
            }
            let winners: Vec<EntrantId> =
                last.contests.iter().filter_map(Contest::winner).collect();
            let contests = winners
                .chunks(2)
                .map(|pair| match pair {
                    [a, b] => {
                        let (higher, lower) = if seed[a] < seed[b] {
                            (*a, *b)
                        } else {
                            (*b, *a)
                        };
                        Contest::Tie(Tie::new(higher, lower))
                    }
                    [a] => Contest::Bye(*a),
                    _ => unreachable!("chunks of two"),
                })
                .collect();
            let number = last.number + 1;
            self.rounds.push(KnockoutRound { number, contests });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entrant i has rating 2000 - 10 i, so it is seed i + 1; the list comes weakest first, so
    /// the seeding has to sort it.
    fn field(n: u32) -> Vec<Entrant> {
        (0..n)
            .rev()
            .map(|i| Entrant::new(i, 2000.0 - 10.0 * i as f64))
            .collect()
    }

    fn seed_pairs(bracket: &Bracket, round: &KnockoutRound) -> Vec<(usize, usize)> {
        round
            .ties()
            .map(|t| {
                (
                    bracket.seed_of(t.higher).unwrap(),
                    bracket.seed_of(t.lower).unwrap(),
                )
            })
            .collect()
    }

    /// Plays every pending game with `decide(higher seed, lower seed)` giving the outcome for
    /// the higher seed's first game (seat 0); deciders are won by the higher seed.
    fn play_round(bracket: &mut Bracket, decide: &mut dyn FnMut(usize, usize) -> Outcome) {
        let number = bracket.current_round().unwrap().number;
        while bracket.current_round().is_some_and(|r| r.number == number) {
            let pairing = bracket.pending_games()[0];
            let (s0, s1) = (
                bracket.seed_of(pairing.seat0).unwrap(),
                bracket.seed_of(pairing.seat1).unwrap(),
            );
            let outcome = if s0 < s1 {
                decide(s0, s1)
            } else {
                Outcome::Loss
            };
            bracket.record(GameResult::new(pairing, outcome)).unwrap();
        }
    }

    #[test]
    fn standard_bracket_order() {
        assert_eq!(bracket_order(1), vec![1]);
        assert_eq!(bracket_order(2), vec![1, 2]);
        assert_eq!(bracket_order(4), vec![1, 4, 2, 3]);
        assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        let sixteen = bracket_order(16);
        assert_eq!(
            sixteen,
            vec![1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
        // Seeds 1 and 2 in different halves.
        assert!(sixteen[..8].contains(&1) && sixteen[8..].contains(&2));
    }

    #[test]
    fn eight_entrants_favourites_win() {
        let mut bracket = Bracket::new(&field(8)).unwrap();
        assert_eq!(bracket.total_rounds(), 3);
        let seeds: Vec<u32> = bracket.seeds().iter().map(|e| e.id.0).collect();
        assert_eq!(seeds, (0..8).collect::<Vec<_>>());
        let first = bracket.current_round().unwrap().clone();
        assert_eq!(first.byes().count(), 0);
        assert_eq!(
            seed_pairs(&bracket, &first),
            vec![(1, 8), (4, 5), (2, 7), (3, 6)]
        );
        // The higher seed sits in seat 0.
        assert_eq!(
            bracket.pending_games()[0],
            Pairing::new(EntrantId(0), EntrantId(7))
        );

        play_round(&mut bracket, &mut |_, _| Outcome::Win);
        let second = bracket.current_round().unwrap().clone();
        assert_eq!(second.number, 2);
        assert_eq!(seed_pairs(&bracket, &second), vec![(1, 4), (2, 3)]);
        play_round(&mut bracket, &mut |_, _| Outcome::Win);
        let last = bracket.current_round().unwrap().clone();
        assert_eq!(seed_pairs(&bracket, &last), vec![(1, 2)]);
        assert_eq!(bracket.winner(), None);
        play_round(&mut bracket, &mut |_, _| Outcome::Win);
        assert_eq!(bracket.winner(), Some(EntrantId(0)));
        assert!(bracket.is_finished());
        assert!(bracket.current_round().is_none());
        assert!(bracket.pending_games().is_empty());
        assert_eq!(bracket.rounds().len(), 3);
    }

    #[test]
    fn six_entrants_top_seeds_get_byes() {
        let mut bracket = Bracket::new(&field(6)).unwrap();
        assert_eq!(bracket.total_rounds(), 3);
        let first = bracket.current_round().unwrap().clone();
        assert_eq!(
            first.byes().collect::<Vec<_>>(),
            vec![EntrantId(0), EntrantId(1)]
        );
        assert_eq!(seed_pairs(&bracket, &first), vec![(4, 5), (3, 6)]);
        assert_eq!(bracket.pending_games().len(), 2);

        // The underdogs win round 1.
        play_round(&mut bracket, &mut |_, _| Outcome::Loss);
        let second = bracket.current_round().unwrap().clone();
        assert_eq!(seed_pairs(&bracket, &second), vec![(1, 5), (2, 6)]);
        play_round(&mut bracket, &mut |_, _| Outcome::Win);
        let last = bracket.current_round().unwrap().clone();
        assert_eq!(seed_pairs(&bracket, &last), vec![(1, 2)]);
        // Seed 2 wins the final from seat 1.
        play_round(&mut bracket, &mut |_, _| Outcome::Loss);
        assert_eq!(bracket.winner(), Some(EntrantId(1)));
    }

    #[test]
    fn top_two_seeds_meet_only_in_the_final() {
        for n in 2..=33u32 {
            let mut bracket = Bracket::new(&field(n)).unwrap();
            // Seeds 1 and 2 win everything; other games alternate between the seats.
            let mut flip = false;
            let mut decide = |high: usize, _low: usize| {
                flip = !flip;
                if high <= 2 || flip {
                    Outcome::Win
                } else {
                    Outcome::Loss
                }
            };
            while !bracket.is_finished() {
                let round = bracket.current_round().unwrap().clone();
                let meet = seed_pairs(&bracket, &round).contains(&(1, 2));
                assert_eq!(meet, round.number == bracket.total_rounds(), "n = {n}");
                play_round(&mut bracket, &mut decide);
            }
            assert_eq!(bracket.winner(), Some(EntrantId(0)), "n = {n}");
            assert_eq!(bracket.rounds().len() as u32, bracket.total_rounds());
            // Only the top seeds had byes, and only in round 1.
            let byes: Vec<usize> = bracket
                .rounds()
                .iter()
                .flat_map(|r| r.byes())
                .map(|e| bracket.seed_of(e).unwrap())
                .collect();
            let expected = n.next_power_of_two() - n;
            let size = n.next_power_of_two() as usize;
            assert_eq!(byes, bracket_byes(expected as usize, size), "n = {n}");
            assert_eq!(bracket.rounds()[0].byes().count(), expected as usize);
        }
    }

    /// The seeds with byes, in bracket order, when `count` of `size` places are empty: the top
    /// `count` seeds.
    fn bracket_byes(count: usize, size: usize) -> Vec<usize> {
        let order = bracket_order(size);
        let mut byes: Vec<usize> = (1..=count).collect();
        byes.sort_by_key(|s| order.iter().position(|x| x == s));
        byes
    }

    #[test]
    fn a_draw_needs_a_decider_with_seats_swapped() {
        let mut bracket = Bracket::new(&field(4)).unwrap();
        let game = Pairing::new(EntrantId(0), EntrantId(3));
        assert_eq!(
            bracket.pending_games(),
            vec![game, Pairing::new(EntrantId(1), EntrantId(2))]
        );
        let state = bracket
            .record(GameResult::new(game, Outcome::Draw))
            .unwrap();
        assert_eq!(state, TieState::DeciderNeeded(game.reversed()));
        assert_eq!(bracket.pending_games()[0], game.reversed());
        // The first game cannot be reported again, nor the decider with the old seats.
        assert_eq!(
            bracket.record(GameResult::new(game, Outcome::Win)),
            Err(KnockoutError::NotPending(game))
        );
        // Seed 4 wins the decider from seat 0.
        let state = bracket
            .record(GameResult::new(game.reversed(), Outcome::Win))
            .unwrap();
        assert_eq!(state, TieState::Won(EntrantId(3)));
        let other = Pairing::new(EntrantId(1), EntrantId(2));
        bracket
            .record(GameResult::new(other, Outcome::Loss))
            .unwrap();
        assert_eq!(
            bracket.pending_games(),
            vec![Pairing::new(EntrantId(2), EntrantId(3))]
        );
    }

    #[test]
    fn a_drawn_decider_sends_the_higher_seed_through() {
        let entrants = [Entrant::new(0, 1400.0), Entrant::new(1, 1600.0)];
        let mut bracket = Bracket::new(&entrants).unwrap();
        let game = Pairing::new(EntrantId(1), EntrantId(0));
        assert_eq!(bracket.pending_games(), vec![game]);
        bracket
            .record(GameResult::new(game, Outcome::Draw))
            .unwrap();
        assert!(!bracket.is_finished());
        let state = bracket
            .record(GameResult::new(game.reversed(), Outcome::Draw))
            .unwrap();
        assert_eq!(state, TieState::Won(EntrantId(1)));
        assert_eq!(bracket.winner(), Some(EntrantId(1)));
        assert_eq!(
            bracket.record(GameResult::new(game, Outcome::Win)),
            Err(KnockoutError::Finished)
        );
    }

    #[test]
    fn rejects_games_not_pending() {
        let mut bracket = Bracket::new(&field(8)).unwrap();
        let wrong_seats = Pairing::new(EntrantId(7), EntrantId(0));
        assert_eq!(
            bracket.record(GameResult::new(wrong_seats, Outcome::Win)),
            Err(KnockoutError::NotPending(wrong_seats))
        );
        let not_drawn = Pairing::new(EntrantId(0), EntrantId(1));
        assert!(
            bracket
                .record(GameResult::new(not_drawn, Outcome::Win))
                .is_err()
        );
        assert_eq!(bracket.pending_games().len(), 4);
    }

    #[test]
    fn rejects_bad_fields() {
        assert_eq!(Bracket::new(&[]), Err(KnockoutError::TooFewEntrants));
        assert_eq!(
            Bracket::new(&[Entrant::new(0, 1500.0)]),
            Err(KnockoutError::TooFewEntrants)
        );
        assert_eq!(
            Bracket::new(&[
                Entrant::new(0, 1500.0),
                Entrant::new(1, 1400.0),
                Entrant::new(0, 1300.0)
            ]),
            Err(KnockoutError::DuplicateEntrant(EntrantId(0)))
        );
    }

    #[test]
    fn bracket_round_trips_through_json_mid_tournament() {
        let mut bracket = Bracket::new(&field(6)).unwrap();
        let game = bracket.pending_games()[0];
        bracket
            .record(GameResult::new(game, Outcome::Draw))
            .unwrap();
        let json = serde_json::to_string(&bracket).unwrap();
        let mut back: Bracket = serde_json::from_str(&json).unwrap();
        assert_eq!(back, bracket);
        assert_eq!(back.pending_games(), bracket.pending_games());
        back.record(GameResult::new(game.reversed(), Outcome::Loss))
            .unwrap();
        assert_eq!(
            back.rounds()[0].ties().next().unwrap().winner(),
            Some(game.seat0)
        );
    }
}
