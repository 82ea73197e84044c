//! A generic Monte Carlo tree search over the game contract: information-set MCTS with
//! determinisation for hidden information, open loop for chance, decoupled bandits for
//! simultaneous choices and max^n rewards for any number of seats.
//!
//! # How a search runs
//!
//! Every iteration draws its own RNG from the AI's, then:
//!
//! 1. **Determinisation.** The real state is replaced by [`Game::determinize`] for the searching
//!    seat: a full state consistent with what that seat sees, with everything hidden from it
//!    (other hands, other seats' pending choices, the order of a deck) resampled. The search
//!    never looks at the real state beyond that, so it cannot use what its seat may not know.
//! 2. **Selection** down the tree. A node is a sequence of decisions (not a state), so one tree
//!    gathers the statistics of every determinisation and every chance outcome: the tree is
//!    *open loop*. Each node holds one bandit per seat that acts there. Where several seats act
//!    together (a simultaneous round: [`Game::to_act`] holds more than one seat), each of them
//!    picks from its own bandit without seeing the others' picks (decoupled UCT), and the
//!    picks are then applied in seat order. So nobody in the tree reacts to a choice that is
//!    hidden from them, in particular the opponents never react to the searching seat's own
//!    secret choice. A choice another seat has already committed before the search started is
//!    hidden state, which the determinisation resamples.
//! 3. **Chance** is sampled: every `apply` draws from the iteration's RNG, so dice, shuffles and
//!    disputes come out differently each iteration and the statistics average over them.
//! 4. **Expansion** of one node per iteration, then a **playout**: uniformly random legal
//!    actions to the end of the game, or up to [`Tuning::playout_depth`] actions, where the
//!    unfinished game is scored by [`Tuning::evaluate`] (by default a draw between every seat).
//! 5. **Backup** of one reward per seat (see [`rewards`]: 1 for first place, linearly down to 0
//!    for last, ties averaged). Each bandit arm adds the reward of the seat that chose it (max^n),
//!    so every seat in the tree plays for itself, whatever the number of seats.
//!
//! Selection is UCB1 with availability counts: the legal actions at a node differ from one
//! determinisation or dice roll to the next, so an arm's exploration term counts the visits in
//! which it was available, not every visit of the node. The answer is the searching seat's most
//! visited arm at the root.
//!
//! # Budget and levels
//!
//! One unit of the [`Budget`]'s `max_nodes` is one iteration (one node expanded, one playout),
//! and `stop` is checked before every iteration. Level 1 plays a random legal action, but takes
//! an immediate win when one exists (tried on a determinised copy, so it cheats no more than the
//! search); levels 2 to 4 search 100, 1 000 and 10 000 iterations unless the game's
//! [`Tuning::levels`] say otherwise; level 5 as
//! many as the budget allows. Before searching, levels 2 to 5 take an action that wins at once
//! in every one of a few samples ([`decisive`]), which a search of a few iterations might miss
//! among actions that all look good.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Analysis, Budget, Level};
use crate::game::{Game, Outcome, Seat};
use crate::rng::MatchRng;

/// How the search is adapted to one game.
pub struct Tuning<G: Game> {
    /// The exploration constant of UCB1 (rewards lie between 0 and 1).
    pub exploration: f64,
    /// The most actions a playout takes before the unfinished game is scored by `evaluate`.
    pub playout_depth: usize,
    /// Scores a game a playout left unfinished: one reward per seat, between 0 and 1, on the
    /// scale of [`rewards`]. `None` scores it as a draw between every seat.
    pub evaluate: Option<fn(&G) -> Vec<f64>>,
    /// The iterations levels 2, 3 and 4 search. Where chance decides most of a game, a few
    /// hundred iterations already play about as well as many thousands, so such a game spaces
    /// its levels lower for each one to be stronger than the one below.
    pub levels: [u64; 3],
}

impl<G: Game> Default for Tuning<G> {
    fn default() -> Self {
        Tuning {
            exploration: 0.7,
            playout_depth: 1000,
            evaluate: None,
            levels: [100, 1_000, 10_000],
        }
    }
}

impl<G: Game> Clone for Tuning<G> {
    fn clone(&self) -> Self {
        Tuning {
            exploration: self.exploration,
            playout_depth: self.playout_depth,
            evaluate: self.evaluate,
            levels: self.levels,
        }
    }
}

impl<G: Game> Tuning<G> {
    /// The iterations a level searches, `None` for level 5, which is bounded only by the
    /// budget. Level 1 does not search.
    pub fn iterations(&self, level: Level) -> Option<u64> {
        match level.get() {
            1 => Some(0),
            n @ 2..=4 => Some(self.levels[usize::from(n) - 2]),
            _ => None,
        }
    }
}

/// A game the AI plays with this search: [`super::Ai`] comes with it, searching with the game's
/// own [`Tuning`].
pub trait MctsGame: Game {
    /// How the search is adapted to this game; the default suits games whose random playouts
    /// end soon and say who is ahead.
    fn tuning() -> Tuning<Self> {
        Tuning::default()
    }
}

/// An action for `seat` at `level`, searched with `tuning`: what [`super::Ai::choose`] does for
/// every [`MctsGame`]. `None` when the seat need not act.
pub fn choose_with<G: Game>(
    game: &G,
    seat: Seat,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
    tuning: &Tuning<G>,
) -> Option<G::Action> {
    let legal = game.legal_actions(seat);
    if legal.len() <= 1 || level.get() <= 1 {
        return beginner(game, seat, rng);
    }
    if let Some(win) = decisive(game, seat, &legal, DECISIVE_SAMPLES, rng) {
        return Some(win);
    }
    let cap = tuning
        .iterations(level)
        .map_or(budget.max_nodes, |n| n.min(budget.max_nodes));
    let search = search(game, seat, cap, budget.stop, rng, tuning);
    search.action.or_else(|| beginner(game, seat, rng))
}

/// How many samples an action must win in, every one, to be taken without a search.
const DECISIVE_SAMPLES: usize = 8;

/// Level 1: an immediate win if one of `seat`'s actions brings one (tried once, on a
/// determinised copy with sampled chance), else a uniformly random legal action. `None` when
/// the seat need not act.
pub fn beginner<G: Game>(game: &G, seat: Seat, rng: &mut MatchRng) -> Option<G::Action> {
    let legal = game.legal_actions(seat);
    if legal.len() <= 1 {
        return legal.into_iter().next();
    }
    decisive(game, seat, &legal, 1, rng).or_else(|| rng.choose(&legal).cloned())
}

/// The first of `legal` that wins the game at once for `seat` in each of `samples` samples:
/// a determinisation for `seat` with its own chance, where the other seats acting together with
/// `seat` (a simultaneous step) complete the step with random legal actions. The samples
/// depend only on what `seat` sees.
pub fn decisive<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    samples: usize,
    rng: &mut MatchRng,
) -> Option<G::Action> {
    let together: Vec<Seat> = game.to_act().iter().filter(|&s| s != seat).collect();
    let trials: Vec<(G, MatchRng)> = (0..samples)
        .map(|_| {
            let mut chance = MatchRng::from_seed(rng.next_u64());
            (game.determinize(seat, &mut chance), chance)
        })
        .collect();
    let wins_in = |(sample, chance): &(G, MatchRng), action: &G::Action| {
        let mut next = sample.clone();
        let mut chance = chance.clone();
        if next.play(seat, action, &mut chance).is_err() {
            return false;
        }
        for &other in &together {
            if next.is_over() || !next.to_act().contains(other) {
                continue;
            }
            let actions = next.legal_actions(other);
            let Some(reply) = chance.choose(&actions).cloned() else {
                continue;
            };
            if next.play(other, &reply, &mut chance).is_err() {
                return false;
            }
        }
        wins(next.outcome(), seat)
    };
    legal
        .iter()
        .find(|action| trials.iter().all(|trial| wins_in(trial, action)))
        .cloned()
}

/// Whether `outcome` puts `seat` first, and not everybody.
fn wins(outcome: Option<&Outcome>, seat: Seat) -> bool {
    outcome.is_some_and(|outcome| outcome.place(seat) == Some(0) && !outcome.is_draw())
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Search<A> {
    /// The searching seat's most visited action at the root; `None` when no iteration ran or
    /// the seat need not act.
    pub action: Option<A>,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree, the root included.
    pub nodes: usize,
    /// The searching seat's actions at the root: each with its visits and mean reward, in the
    /// order they were first seen.
    pub root: Vec<(A, u32, f64)>,
}

/// Runs up to `max_iterations` iterations for `seat` (fewer if `stop` returns true, which is
/// checked before every one) and reports the statistics at the root.
pub fn search<G: Game>(
    game: &G,
    seat: Seat,
    max_iterations: u64,
    stop: &dyn Fn() -> bool,
    rng: &mut MatchRng,
    tuning: &Tuning<G>,
) -> Search<G::Action> {
    let (tree, iterations) = grow(game, seat, max_iterations, stop, rng, tuning);
    let arms = tree.arms(0, seat);
    Search {
        action: best_arm(arms).map(|i| arms[i].action.clone()),
        iterations,
        nodes: tree.nodes.len(),
        root: arms
            .iter()
            .map(|arm| (arm.action.clone(), arm.visits, arm.mean()))
            .collect(),
    }
}

/// The tree of up to `max_iterations` iterations for `seat`, and how many ran.
fn grow<'t, G: Game>(
    game: &G,
    seat: Seat,
    max_iterations: u64,
    stop: &dyn Fn() -> bool,
    rng: &mut MatchRng,
    tuning: &'t Tuning<G>,
) -> (Tree<'t, G>, u64) {
    let mut tree = Tree::new(game.seat_count(), tuning);
    let mut done = 0;
    if game.to_act().contains(seat) {
        while done < max_iterations && !stop() {
            let mut sim = MatchRng::from_seed(rng.next_u64());
            let state = game.determinize(seat, &mut sim);
            tree.iterate(state, &mut sim);
            done += 1;
        }
    }
    (tree, done)
}

/// The index of the most visited of `arms` (the better mean among equals), if any was visited.
fn best_arm<A>(arms: &[Arm<A>]) -> Option<usize> {
    (0..arms.len())
        .filter(|&i| arms[i].visits > 0)
        .max_by(|&a, &b| {
            let (a, b) = (&arms[a], &arms[b]);
            a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean()))
        })
}

/// The most steps of play an analysis's line follows down the tree: deeper nodes have too few
/// visits to say much.
const LINE_STEPS: usize = 12;

/// An analysis with this search, what [`super::Ai::analyse`] does for every [`MctsGame`].
///
/// The score is the mean reward of `seat`'s most visited action at the root (the action the
/// search would play), a reward being a result on the scale of [`rewards`], or the `evaluate`
/// of an unfinished playout. The line follows the most visited arm of every seat from the root
/// down the tree, step by step, and keeps the start of it that replays legally from the real
/// position (the tree is open loop: chance or a determinisation may have made a later action
/// impossible there). An action that wins at once in every sample ([`decisive`]) is the whole
/// line, with a score of 1, without searching.
pub fn analyse_with<G: Game>(
    game: &G,
    seat: Seat,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
    tuning: &Tuning<G>,
) -> Option<Analysis<G::Action>> {
    if game.is_over() {
        return super::concluded(game, seat);
    }
    if !game.to_act().contains(seat) {
        return None;
    }
    let legal = game.legal_actions(seat);
    if let Some(win) = decisive(game, seat, &legal, DECISIVE_SAMPLES, rng) {
        return Some(Analysis {
            score: 1.0,
            line: vec![(seat, win)],
            nodes: 0,
        });
    }
    let (tree, iterations) = grow(game, seat, budget.max_nodes, budget.stop, rng, tuning);
    let arms = tree.arms(0, seat);
    let score = best_arm(arms).map_or(0.5, |i| arms[i].mean());
    let mut state = game.clone();
    let mut chance = MatchRng::from_seed(rng.next_u64());
    let line = tree
        .line()
        .into_iter()
        .take_while(|(seat, action)| state.play(*seat, action, &mut chance).is_ok())
        .collect();
    Some(Analysis {
        score,
        line,
        nodes: iterations,
    })
}

/// One reward per seat of a finished game: 1 for first place, linearly down to 0 for last, and
/// seats sharing a place share the average of the places they cover. A two-seat win is
/// `[1, 0]`, a draw `[0.5, 0.5]`; three seats with one winner `[1, 0.25, 0.25]`. A seat's
/// reward is also the share of the other seats it beats, a tie counting half.
pub fn rewards(outcome: &Outcome) -> Vec<f64> {
    let places = outcome.places();
    let others = places.len().saturating_sub(1).max(1) as f64;
    places
        .iter()
        .map(|&mine| {
            let beaten = places.iter().filter(|&&p| p > mine).count() as f64;
            let tied = places.iter().filter(|&&p| p == mine).count() as f64 - 1.0;
            (beaten + tied / 2.0) / others
        })
        .collect()
}

/// Rewards for an unfinished game from a score per seat (higher is better): the soft form of
/// [`rewards`], each seat's share of the other seats it is expected to beat, where a lead of
/// `scale` over another seat counts as beating it with probability 0.73 (a logistic curve).
pub fn soft_rewards(scores: &[f64], scale: f64) -> Vec<f64> {
    let others = scores.len().saturating_sub(1).max(1) as f64;
    scores
        .iter()
        .enumerate()
        .map(|(i, &mine)| {
            let beaten: f64 = scores
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &theirs)| 1.0 / (1.0 + (-(mine - theirs) / scale).exp()))
                .sum();
            beaten / others
        })
        .collect()
}

/// One action's statistics in a bandit.
#[derive(Clone, Debug)]
struct Arm<A> {
    action: A,
    /// Times chosen.
    visits: u32,
    /// Rewards of the choosing seat, summed.
    reward: f64,
    /// Times the action was legal when its bandit chose.
    available: u32,
}

impl<A> Arm<A> {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

/// The choices of one seat at one node.
#[derive(Clone, Debug)]
struct Bandit<A> {
    seat: Seat,
    arms: Vec<Arm<A>>,
}

/// A sequence of decisions from the root. Its bandits are made on its second visit (the first
/// one ends the iteration's descent).
struct Node<A> {
    bandits: Vec<Bandit<A>>,
}

/// A node's child, keyed by the arm each seat chose there: 16 bits per seat, at the seat's
/// index. (Arms past 65 535 would share keys; the statistics would mix, nothing worse.)
type ChildKey = (u32, u128);

/// A fast hasher for [`ChildKey`]s, which need no protection from crafted keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

/// One seat's pick at a node during an iteration.
struct Pick {
    bandit: usize,
    arm: usize,
}

struct Tree<'t, G: Game> {
    nodes: Vec<Node<G::Action>>,
    children: HashMap<ChildKey, u32, BuildHasherDefault<KeyHasher>>,
    seats: usize,
    tuning: &'t Tuning<G>,
}

impl<'t, G: Game> Tree<'t, G> {
    fn new(seats: usize, tuning: &'t Tuning<G>) -> Self {
        Tree {
            nodes: vec![Node {
                bandits: Vec::new(),
            }],
            children: HashMap::default(),
            seats,
            tuning,
        }
    }

    /// `seat`'s arms at `node`: none if it has no bandit there.
    fn arms(&self, node: usize, seat: Seat) -> &[Arm<G::Action>] {
        self.nodes[node]
            .bandits
            .iter()
            .find(|bandit| bandit.seat == seat)
            .map_or(&[][..], |bandit| &bandit.arms[..])
    }

    /// The most visited line from the root: at each node every seat's most visited arm, in
    /// seat order (the order a step applies them), then the child those arms lead to; up to
    /// [`LINE_STEPS`] steps, and only as far as every seat acting at a node has a visited arm.
    fn line(&self) -> Vec<(Seat, G::Action)> {
        let mut line = Vec::new();
        let mut node = 0;
        for _ in 0..LINE_STEPS {
            let mut bandits: Vec<&Bandit<G::Action>> = self.nodes[node].bandits.iter().collect();
            bandits.sort_by_key(|bandit| bandit.seat);
            let mut key = 0u128;
            let mut step = Vec::with_capacity(bandits.len());
            for bandit in bandits {
                let Some(arm) = best_arm(&bandit.arms) else {
                    return line;
                };
                key |= ((arm & 0xFFFF) as u128) << (16 * bandit.seat.index());
                step.push((bandit.seat, bandit.arms[arm].action.clone()));
            }
            if step.is_empty() {
                break;
            }
            line.extend(step);
            match self.children.get(&(node as u32, key)) {
                Some(&child) => node = child as usize,
                None => break,
            }
        }
        line
    }

    /// One iteration from a determinised root state.
    fn iterate(&mut self, mut state: G, rng: &mut MatchRng) {
        let mut path: Vec<(usize, Vec<Pick>)> = Vec::new();
        let mut node = 0;
        let rewards = loop {
            if let Some(outcome) = state.outcome() {
                break rewards(outcome);
            }
            let to_act = state.to_act();
            if to_act.is_empty() {
                break vec![0.5; self.seats];
            }
            // Every seat of a simultaneous step picks from what it may do before any of the
            // picks is applied, each from its own bandit.
            let mut picks = Vec::with_capacity(to_act.len());
            let mut chosen = Vec::with_capacity(to_act.len());
            for seat in to_act.iter() {
                let legal = state.legal_actions(seat);
                if legal.is_empty() {
                    continue;
                }
                let bandit = self.bandit(node, seat);
                let arm = self.select(node, bandit, legal, rng);
                chosen.push((seat, arm));
                picks.push(Pick { bandit, arm });
            }
            let mut key = 0u128;
            let mut applied = Vec::with_capacity(picks.len());
            for (pick, (seat, arm)) in picks.into_iter().zip(chosen) {
                let action = &self.nodes[node].bandits[pick.bandit].arms[arm].action;
                if state.play(seat, action, rng).is_err() {
                    // Only a game whose seats' choices in one step depend on each other can
                    // refuse here; the rest of the step is left to the playout.
                    break;
                }
                key |= ((arm & 0xFFFF) as u128) << (16 * seat.index());
                applied.push(pick);
            }
            if applied.is_empty() {
                break self.playout(state, rng);
            }
            path.push((node, applied));
            match self.children.get(&(node as u32, key)) {
                Some(&child) => node = child as usize,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node {
                        bandits: Vec::new(),
                    });
                    self.children.insert((node as u32, key), child as u32);
                    break self.playout(state, rng);
                }
            }
        };
        for (node, picks) in path {
            for pick in picks {
                let bandit = &mut self.nodes[node].bandits[pick.bandit];
                let reward = rewards.get(bandit.seat.index()).copied().unwrap_or(0.5);
                let arm = &mut bandit.arms[pick.arm];
                arm.visits += 1;
                arm.reward += reward;
            }
        }
    }

    /// The index of `seat`'s bandit at `node`, made if it has none yet.
    fn bandit(&mut self, node: usize, seat: Seat) -> usize {
        let bandits = &mut self.nodes[node].bandits;
        match bandits.iter().position(|bandit| bandit.seat == seat) {
            Some(index) => index,
            None => {
                bandits.push(Bandit {
                    seat,
                    arms: Vec::new(),
                });
                bandits.len() - 1
            }
        }
    }

    /// Picks an arm among the `legal` actions (a random untried one first, then by UCB1 with
    /// availability) and returns its index, adding arms for actions not seen before.
    fn select(
        &mut self,
        node: usize,
        bandit: usize,
        legal: Vec<G::Action>,
        rng: &mut MatchRng,
    ) -> usize {
        let c = self.tuning.exploration;
        let arms = &mut self.nodes[node].bandits[bandit].arms;
        let mut untried = 0u64;
        let mut pick = None;
        let mut best = f64::NEG_INFINITY;
        for (i, action) in legal.into_iter().enumerate() {
            // The legal actions usually come in the same order as last time.
            let index = if arms.get(i).is_some_and(|arm| arm.action == action) {
                i
            } else if let Some(index) = arms.iter().position(|arm| arm.action == action) {
                index
            } else {
                arms.push(Arm {
                    action,
                    visits: 0,
                    reward: 0.0,
                    available: 0,
                });
                arms.len() - 1
            };
            let arm = &mut arms[index];
            arm.available += 1;
            if arm.visits == 0 {
                // Reservoir sampling: each untried arm is equally likely to be picked.
                untried += 1;
                if rng.below(untried) == 0 {
                    pick = Some(index);
                }
            } else if untried == 0 {
                let score =
                    arm.mean() + c * (f64::from(arm.available).ln() / f64::from(arm.visits)).sqrt();
                if score > best {
                    best = score;
                    pick = Some(index);
                }
            }
        }
        pick.unwrap_or(0)
    }

    /// Random legal actions to the end, or to the depth cap, and the rewards.
    fn playout(&self, mut state: G, rng: &mut MatchRng) -> Vec<f64> {
        for _ in 0..self.tuning.playout_depth {
            if let Some(outcome) = state.outcome() {
                return rewards(outcome);
            }
            let Some(seat) = state.to_act().iter().next() else {
                break;
            };
            let legal = state.legal_actions(seat);
            let Some(action) = rng.choose(&legal) else {
                break;
            };
            if state.play(seat, action, rng).is_err() {
                break;
            }
        }
        if let Some(outcome) = state.outcome() {
            return rewards(outcome);
        }
        match self.tuning.evaluate {
            Some(evaluate) => evaluate(&state),
            None => vec![0.5; self.seats],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: usize) -> Seat {
        Seat::new(i).unwrap()
    }

    #[test]
    fn rewards_run_linearly_from_first_to_last_with_ties_averaged() {
        assert_eq!(rewards(&Outcome::win(seat(1), 2, "x")), vec![0.0, 1.0]);
        assert_eq!(rewards(&Outcome::draw(2, "x")), vec![0.5, 0.5]);
        assert_eq!(
            rewards(&Outcome::win(seat(0), 3, "x")),
            vec![1.0, 0.25, 0.25]
        );
        let ranked = Outcome::from_places(vec![2, 0, 1, 1], "x");
        let r = rewards(&ranked);
        assert_eq!(r[1], 1.0);
        assert_eq!(r[0], 0.0);
        assert!((r[2] - 0.5).abs() < 1e-12 && (r[3] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn soft_rewards_favour_the_leader_and_sum_like_hard_ones() {
        let r = soft_rewards(&[10.0, 0.0], 3.0);
        assert!(r[0] > 0.9 && r[1] < 0.1);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
        let even = soft_rewards(&[1.0, 1.0, 1.0], 3.0);
        assert!(even.iter().all(|&x| (x - 0.5).abs() < 1e-12));
    }

    #[test]
    fn levels_grow_their_iterations() {
        let tuning = Tuning::<crate::hanoi::Hanoi>::default();
        let caps: Vec<_> = Level::ALL.iter().map(|&l| tuning.iterations(l)).collect();
        assert_eq!(
            caps,
            vec![Some(0), Some(100), Some(1_000), Some(10_000), None]
        );
    }
}
