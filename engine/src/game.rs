//! The game contract: the one interface every seed game implements.
//!
//! A match is event-sourced. Its durable record is the game configuration, the RNG seed and the
//! ordered log of `(seat, action)` pairs; [`replay`] turns that record back into the exact state.
//! The contract covers every shape of turn in the seed games:
//!
//! * **Who acts now** is a [`SeatSet`], not a single seat. Tafl has one seat in it; a Tron or
//!   Mr Driller round has every living seat, and the round resolves inside [`Game::apply`] once the
//!   last of them has acted (earlier submissions are held as hidden state).
//! * **Multi-step turns** keep the same seat in [`Game::to_act`] until the turn is complete (a
//!   Hanoi split places one disc per action).
//! * **Out-of-turn answers** are just a different seat in [`Game::to_act`] (a tower-race challenge
//!   is answered by the challenged player).
//! * **Hidden information** lives in the state and is filtered by [`Game::view`] per [`Viewer`].
//! * **Chance** comes only from the [`MatchRng`] passed in by the match, never from the game.

use std::error::Error;
use std::fmt;

use crate::rng::MatchRng;

/// The most seats any game may have (the tower race, advanced, takes 8).
pub const MAX_SEATS: usize = 8;

/// A seat at the table, numbered from 0 in the order the game defines (tafl: 0 is the attackers,
/// 1 the defenders, whichever moves first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(u8);

impl Seat {
    /// The seat with this index, if it is below [`MAX_SEATS`].
    pub const fn new(index: usize) -> Option<Seat> {
        if index < MAX_SEATS {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A set of seats, such as the seats that must act now.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// The first `count` seats.
    pub fn first(count: usize) -> SeatSet {
        assert!(count <= MAX_SEATS);
        SeatSet(((1u16 << count) - 1) as u8)
    }

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The seats in order, found by their bits rather than by trying every seat.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        let mut left = self.0;
        std::iter::from_fn(move || {
            let index = left.trailing_zeros();
            left &= left.wrapping_sub(1);
            (index < u8::BITS).then_some(Seat(index as u8))
        })
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

/// Who is looking at the game: a seated player sees their own private information, a spectator
/// sees only what is public.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// How a finished game ranks its seats.
///
/// `places[i]` is the place of seat `i`, 0 being the best; seats sharing a place are tied, so a
/// two-player draw is `[0, 0]`. `reason` is a stable machine-readable code (`king_captured`,
/// `repetition`, ...) that clients may show or translate.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Outcome {
    places: Vec<u8>,
    reason: &'static str,
}

impl Outcome {
    /// Builds an outcome from explicit places, one per seat.
    pub fn from_places(places: Vec<u8>, reason: &'static str) -> Outcome {
        assert!(!places.is_empty() && places.len() <= MAX_SEATS);
        Outcome { places, reason }
    }

    /// `winner` takes first place, every other seat shares second.
    pub fn win(winner: Seat, seats: usize, reason: &'static str) -> Outcome {
        let places = (0..seats).map(|i| u8::from(i != winner.index())).collect();
        Outcome::from_places(places, reason)
    }

    /// Every seat shares first place.
    pub fn draw(seats: usize, reason: &'static str) -> Outcome {
        Outcome::from_places(vec![0; seats], reason)
    }

    pub fn places(&self) -> &[u8] {
        &self.places
    }

    pub fn place(&self, seat: Seat) -> Option<u8> {
        self.places.get(seat.index()).copied()
    }

    pub fn reason(&self) -> &'static str {
        self.reason
    }

    /// The seats in first place.
    pub fn winners(&self) -> SeatSet {
        (0..self.places.len())
            .filter(|&i| self.places[i] == 0)
            .filter_map(Seat::new)
            .collect()
    }

    /// True when every seat shares first place.
    pub fn is_draw(&self) -> bool {
        self.places.iter().all(|&p| p == 0)
    }
}

/// Why an action was refused. The game state is unchanged whenever this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError<E> {
    /// The game is already over.
    GameOver,
    /// The seat does not exist in this game.
    NoSuchSeat(Seat),
    /// The seat exists but is not among those who must act now.
    NotYourTurn(Seat),
    /// The action breaks the rules of the game.
    Illegal(E),
}

impl<E: fmt::Display> fmt::Display for PlayError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is over"),
            PlayError::NoSuchSeat(seat) => write!(f, "there is no {seat} in this game"),
            PlayError::NotYourTurn(seat) => write!(f, "it is not {seat}'s turn"),
            PlayError::Illegal(e) => write!(f, "illegal action: {e}"),
        }
    }
}

impl<E: Error + 'static> Error for PlayError<E> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            PlayError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

/// Why an action breaks the rules, as a client can word it in its reader's language: a stable
/// snake_case `code` (`blocked`, `too_far`) and the parameters its text names, each written as
/// the game writes it (a square `e4`, a number `3`). The English sentence stays the error's
/// `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub code: &'static str,
    pub params: Vec<(&'static str, String)>,
}

impl Why {
    pub fn new(code: &'static str) -> Why {
        Why {
            code,
            params: Vec::new(),
        }
    }

    /// The same reason with one more parameter.
    pub fn with(mut self, name: &'static str, value: impl fmt::Display) -> Why {
        self.params.push((name, value.to_string()));
        self
    }
}

/// An illegal-action error that says its reason as data ([`Why`]), besides its English words.
/// A code means one thing with the same parameters in every game that uses it (`game_over`,
/// `no_piece` with its `square`): a client words it once, whatever the game.
pub trait Explain {
    fn why(&self) -> Why;
}

/// The contract every game implements.
///
/// Implementations are pure: no I/O, no clock, no randomness except the [`MatchRng`] passed in.
pub trait Game: Clone + Sized {
    /// Everything chosen before the game starts: variant, rules, number of players.
    type Config: Clone + fmt::Debug;
    /// One action by one seat (a move, a card choice, a disc placement, an answer).
    type Action: Clone + fmt::Debug + PartialEq;
    /// What one viewer may see of the state.
    type View: Clone + fmt::Debug;
    /// Why an action breaks the rules.
    type Illegal: Error + Clone + PartialEq + Explain;
    /// Why a configuration cannot start a game.
    type ConfigError: Error;

    /// Sets up a new game. Random setup (a shuffled deck, a random board) draws from `rng`.
    fn new(config: &Self::Config, rng: &mut MatchRng) -> Result<Self, Self::ConfigError>;

    /// How many seats this game has.
    fn seat_count(&self) -> usize;

    /// The seats that must act before the game can go on; empty exactly when the game is over.
    fn to_act(&self) -> SeatSet;

    /// Every action `seat` may take now; empty when the seat need not act.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action> {
        if self.to_act().contains(seat) {
            self.acting_actions(seat)
        } else {
            Vec::new()
        }
    }

    /// Every action `seat` may take, `seat` being one that must act now (in [`Game::to_act`]):
    /// what [`Game::legal_actions`] gives it, which checks that first.
    fn acting_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// One of [`Game::acting_actions`] drawn uniformly at random, exactly as
    /// `rng.choose(&self.acting_actions(seat))` draws it (`None`, drawing nothing, when there is
    /// none): what a random playout takes. A game that can count its actions and find the one
    /// drawn without listing them all overrides it.
    fn random_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<Self::Action> {
        rng.choose(&self.acting_actions(seat)).cloned()
    }

    /// Applies an action by a seat that is in [`Game::to_act`] of a game that is not over (both
    /// checked by [`Game::play`], which is what callers use). On error nothing changes.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        rng: &mut MatchRng,
    ) -> Result<(), Self::Illegal>;

    /// The result, once the engine has detected the end of the game.
    fn outcome(&self) -> Option<&Outcome>;

    /// The state as `viewer` may see it: a seat's own private information, nobody else's.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Checks that `seat` may act now, then applies the action.
    fn play(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        rng: &mut MatchRng,
    ) -> Result<(), PlayError<Self::Illegal>> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        if seat.index() >= self.seat_count() {
            return Err(PlayError::NoSuchSeat(seat));
        }
        if !self.to_act().contains(seat) {
            return Err(PlayError::NotYourTurn(seat));
        }
        self.apply(seat, action, rng).map_err(PlayError::Illegal)
    }

    /// Plays an action as [`Game::play`] does, lets `visit` look at the game after it (and play
    /// on from it), then puts the game back as it was: what a search, a perft or a "what if"
    /// pays per action it tries. The match RNG is not put back; a caller that needs it again
    /// keeps a copy.
    ///
    /// The default plays on a copy. A game that can take its actions back cheaply overrides it
    /// to play in place and spare the copy.
    fn explore<R>(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        rng: &mut MatchRng,
        visit: impl FnOnce(&mut Self, &mut MatchRng) -> R,
    ) -> Result<R, PlayError<Self::Illegal>> {
        let mut next = self.clone();
        next.play(seat, action, rng)?;
        Ok(visit(&mut next, rng))
    }

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// A full state consistent with everything `viewer` can see, with every hidden detail the
    /// viewer cannot see resampled from `rng`: the other seats' hands and pending hidden
    /// choices, unseen cards, the order of a deck. What the viewer sees stays exactly as it is
    /// (`g.determinize(v, rng).view(Viewer::Seat(v)) == g.view(Viewer::Seat(v))`), and so does
    /// every public detail such as who has chosen or how many cards each seat holds.
    ///
    /// The AI searches such samples instead of the real state, so it never sees what its seat
    /// may not. For that the result, and what is drawn from `rng`, must depend only on what
    /// `viewer` sees: two states that differ only in details hidden from `viewer` must give the
    /// same sample from the same `rng`. Games without hidden information keep the default, a
    /// plain copy.
    fn determinize(&self, viewer: Seat, rng: &mut MatchRng) -> Self {
        let _ = (viewer, rng);
        self.clone()
    }
}

/// Why a recorded match could not be replayed.
#[derive(Debug)]
pub enum ReplayError<G: Game> {
    Config(G::ConfigError),
    /// The action at this 0-based index of the log was refused.
    Action {
        index: usize,
        error: PlayError<G::Illegal>,
    },
}

impl<G: Game> fmt::Display for ReplayError<G>
where
    G::ConfigError: fmt::Display,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Config(e) => write!(f, "bad configuration: {e}"),
            ReplayError::Action { index, error } => write!(f, "action {}: {error}", index + 1),
        }
    }
}

/// Rebuilds a match from its durable record: configuration, seed and action log. Returns the
/// game and the RNG in the state the live match would have them.
pub fn replay<'a, G, I>(
    config: &G::Config,
    seed: u64,
    log: I,
) -> Result<(G, MatchRng), ReplayError<G>>
where
    G: Game,
    G::Action: 'a,
    I: IntoIterator<Item = (Seat, &'a G::Action)>,
{
    let mut rng = MatchRng::from_seed(seed);
    let mut game = G::new(config, &mut rng).map_err(ReplayError::Config)?;
    for (index, (seat, action)) in log.into_iter().enumerate() {
        game.play(seat, action, &mut rng)
            .map_err(|error| ReplayError::Action { index, error })?;
    }
    Ok((game, rng))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_set_basics() {
        let s0 = Seat::new(0).unwrap();
        let s3 = Seat::new(3).unwrap();
        let mut set = SeatSet::single(s0);
        set.insert(s3);
        assert_eq!(set.len(), 2);
        assert!(set.contains(s3));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![s0, s3]);
        set.remove(s0);
        assert_eq!(set, SeatSet::single(s3));
        assert_eq!(SeatSet::first(8).len(), 8);
        assert!(Seat::new(MAX_SEATS).is_none());
    }

    #[test]
    fn outcome_ranks_and_draws() {
        let win = Outcome::win(Seat::new(1).unwrap(), 2, "king_captured");
        assert_eq!(win.places(), &[1, 0]);
        assert_eq!(win.winners(), SeatSet::single(Seat::new(1).unwrap()));
        assert!(!win.is_draw());
        let draw = Outcome::draw(3, "repetition");
        assert!(draw.is_draw());
        assert_eq!(draw.winners().len(), 3);
    }
}
