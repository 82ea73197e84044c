//! Tron, the board game (seed 002), light-cycles racing for flags and choosing their cards in
//! secret each round: the rules are `docs/rules/tron.md`.
//!
//! A round's cards are chosen by every living seat at once and resolve inside the call that
//! brings the last of them; decisions a card needs when it is enacted ([`TronAction::Go`],
//! [`TronAction::Keep`], [`TronAction::Crusher`]) are further actions. [`Game::view`] shows a
//! seat its own special cards and its own pending choice; everyone else sees only how many cards
//! it holds and whether it has chosen. Draws and shuffles come from the match RNG.

mod ai;
mod board;
mod builder;
mod cards;
mod error;
mod notation;
mod resolve;
mod view;

use std::collections::VecDeque;
use std::ops::RangeInclusive;

pub use board::{Cell, Dir, Line, MAX_SIZE, Turn};
pub use builder::{MIN_SIZE, TronBuilder};
pub use cards::{Card, Hand, Phase, Special};
pub use error::{LineUser, SetupError, TronError};
pub use notation::{Expected, NotationError, TronAction};
pub use view::{Cause, CycleView, Event, FlagView, SeatView, StageView, TronView};

use board::{Board, Square};
use cards::{Pile, full_deck};

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Game, Outcome, Seat, SeatSet, Viewer};
use crate::rng::MatchRng;

/// Points to win, before any rise for a tie.
pub const TARGET: i32 = 15;

/// The round cap: after this many rounds the game ends ranked by score.
pub const MAX_ROUNDS: u32 = 200;

/// Crusher pieces: one per crusher card.
pub const CRUSHERS: usize = 3;

/// How many players the game takes.
pub const SEATS: RangeInclusive<usize> = 3..=8;

/// The board size for `seats` players: 12 for 3, 2 more per extra player.
pub const fn board_size(seats: usize) -> u8 {
    (12 + 2 * seats.saturating_sub(3)) as u8
}

/// The game's options: only the number of players, which also sets the board size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TronConfig {
    pub seats: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Player {
    score: i32,
    hand: Hand,
    /// `None` while off the board, waiting to be reincarnated.
    cycle: Option<Cycle>,
}

/// A light-cycle on the board. A destroyed one stays, as a wreck, until the end of the round.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cycle {
    head: Cell,
    /// Oldest square first; the last one is beside the head. May be empty after a cut.
    tail: VecDeque<Cell>,
    /// The way the last move went (from the tail to the head when it was placed).
    facing: Dir,
    alive: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Flag {
    /// `None` while the flag waits to be placed.
    at: Option<Cell>,
    /// Who placed the flag last, and so may not capture it while it is the last flag they
    /// placed; while the flag waits, who will place it. `None` for the flags placed at setup.
    owner: Option<Seat>,
    /// The first player to enter the flag's square this round.
    reached: Option<Seat>,
}

/// What the game waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Setup: this seat places its head.
    PlaceHead(Seat),
    /// Setup or reincarnation: this seat places its tail beside `head`.
    PlaceTail {
        seat: Seat,
        head: Cell,
    },
    /// Every seat on the board chooses its card.
    Choose,
    /// The cards of `phase` are enacted once every seat of `waiting` has decided.
    Enact {
        phase: Phase,
        waiting: SeatSet,
    },
    Over,
}

/// A hidden choice, held until every seat of its step has chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Pending {
    Card(Card),
    Go { turn: Turn, distance: u8 },
}

impl Pending {
    fn action(self) -> TronAction {
        match self {
            Pending::Card(card) => TronAction::Play(card),
            Pending::Go { turn, distance } => TronAction::Go { turn, distance },
        }
    }
}

/// A game of Tron.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tron {
    board: Board,
    players: Vec<Player>,
    grid: Vec<Square>,
    flags: Vec<Flag>,
    /// The line of each crusher, `None` while it is off the board.
    crushers: [Option<Line>; CRUSHERS],
    /// The special deck, top card last. Its order is hidden from everyone.
    deck: Vec<Special>,
    /// Special cards played this round; they go back into the deck at the end of the round.
    used: Vec<Special>,
    over_drive: bool,
    /// The round being played, from 1; 0 during setup.
    round: u32,
    /// Points needed to win: 15, raised by one for each tie at the target.
    target: i32,
    /// Setup order, by the Row cards drawn.
    order: Vec<Seat>,
    stage: Stage,
    /// The cards turned over this round (kept until the next cards are turned over).
    played: Vec<Option<Card>>,
    /// Each seat's hidden choice in the current step.
    pending: Vec<Option<Pending>>,
    /// Points for kills and deaths so far this round, awarded at its end.
    round_points: Vec<i32>,
    /// What happened since the cards were last turned over.
    events: Vec<Event>,
    outcome: Option<Outcome>,
}

impl Tron {
    /// A game with nobody on the board, everything in the box.
    fn empty(seats: usize, size: u8) -> Tron {
        let board = Board::new(size);
        let player = Player {
            score: 0,
            hand: Hand::default(),
            cycle: None,
        };
        let flag = Flag {
            at: None,
            owner: None,
            reached: None,
        };
        Tron {
            board,
            players: vec![player; seats],
            grid: vec![Square::Empty; board.cell_count()],
            flags: vec![flag; seats],
            crushers: [None; CRUSHERS],
            deck: full_deck(),
            used: Vec::new(),
            over_drive: false,
            round: 0,
            target: TARGET,
            order: Vec::new(),
            stage: Stage::Over,
            played: vec![None; seats],
            pending: vec![None; seats],
            round_points: vec![0; seats],
            events: Vec::new(),
            outcome: None,
        }
    }

    /// A builder for a game from an explicit position, for tests and analysis.
    pub fn builder(seats: usize) -> TronBuilder {
        TronBuilder::new(seats)
    }

    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The round being played, from 1; 0 during setup.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Points needed to win now.
    pub fn target(&self) -> i32 {
        self.target
    }

    pub fn over_drive(&self) -> bool {
        self.over_drive
    }

    pub fn score(&self, seat: Seat) -> Option<i32> {
        self.players.get(seat.index()).map(|p| p.score)
    }

    /// The seat's special cards (private: [`Game::view`] shows them only to the seat).
    pub fn hand(&self, seat: Seat) -> Option<Hand> {
        self.players.get(seat.index()).map(|p| p.hand)
    }

    /// The seat's light-cycle, if it is on the board.
    pub fn cycle(&self, seat: Seat) -> Option<CycleView> {
        let cycle = self.players.get(seat.index())?.cycle.as_ref()?;
        Some(CycleView::of(cycle))
    }

    /// The flags on the board, in flag order.
    pub fn flags(&self) -> Vec<FlagView> {
        self.flags.iter().filter_map(FlagView::of).collect()
    }

    /// The lines that hold a crusher.
    pub fn crushers(&self) -> Vec<Line> {
        self.crushers.iter().flatten().copied().collect()
    }

    /// What happened since the cards were last turned over.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// How many cards the special deck holds now.
    pub fn deck_len(&self) -> usize {
        self.deck.len()
    }

    /// The same game with `seat`'s special cards replaced by `hand`, the cards exchanged with
    /// the deck: what every other seat sees must not change. For tests and analysis tools.
    /// Refused when the deck lacks a card, or when `hand` drops a special card the seat has
    /// chosen this round.
    pub fn with_hand(&self, seat: Seat, hand: Hand) -> Result<Tron, SetupError> {
        let mut game = self.clone();
        let Some(player) = game.players.get_mut(seat.index()) else {
            return Err(SetupError::NoSuchSeat(seat));
        };
        let mut pool = Hand::of(&game.deck);
        for card in player.hand.cards() {
            pool.add(card);
        }
        if let Some(Pending::Card(Card::Special(card))) = game.pending[seat.index()]
            && hand.count(card) == 0
        {
            return Err(SetupError::ChosenCard(card));
        }
        for card in Special::ALL {
            if hand.count(card) > pool.count(card) {
                return Err(SetupError::TooManyCards(card));
            }
        }
        for card in hand.cards() {
            pool.remove(card);
        }
        player.hand = hand;
        // The deck's order is hidden, so any order of the remaining cards will do.
        game.deck = pool.cards().collect();
        Ok(game)
    }

    /// Every seat, in order.
    fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.players.len()).filter_map(Seat::new)
    }

    fn cycle_of(&self, seat: Seat) -> Option<&Cycle> {
        self.players[seat.index()].cycle.as_ref()
    }

    fn is_alive(&self, seat: Seat) -> bool {
        self.cycle_of(seat).is_some_and(|cycle| cycle.alive)
    }

    fn square(&self, cell: Cell) -> Square {
        self.grid[self.board.index(cell)]
    }

    fn flag_at(&self, cell: Cell) -> Option<usize> {
        self.flags.iter().position(|flag| flag.at == Some(cell))
    }

    /// No light-cycle, tail or flag is on the square.
    fn is_free(&self, cell: Cell) -> bool {
        self.square(cell) == Square::Empty && self.flag_at(cell).is_none()
    }

    fn crusher_between(&self, a: Cell, b: Cell) -> bool {
        Line::between(a, b).is_some_and(|line| self.crushers.contains(&Some(line)))
    }

    /// A light-cycle may be put with its head on `cell`: the square is free and has a free
    /// square beside it, not across a crusher, for the tail.
    fn fits_cycle(&self, cell: Cell) -> bool {
        self.is_free(cell)
            && self
                .board
                .neighbours(cell)
                .any(|next| self.is_free(next) && !self.crusher_between(cell, next))
    }

    fn check_head(&self, cell: Cell) -> Result<(), TronError> {
        if !self.board.contains(cell) {
            return Err(TronError::OffBoard {
                cell,
                size: self.size(),
            });
        }
        if !self.is_free(cell) {
            return Err(TronError::Occupied(cell));
        }
        if !self.fits_cycle(cell) {
            return Err(TronError::BoxedIn(cell));
        }
        Ok(())
    }

    fn check_tail(&self, head: Cell, tail: Cell) -> Result<(), TronError> {
        if !self.board.contains(tail) {
            return Err(TronError::OffBoard {
                cell: tail,
                size: self.size(),
            });
        }
        if Line::between(head, tail).is_none() {
            return Err(TronError::TailNotBeside { head, tail });
        }
        if !self.is_free(tail) {
            return Err(TronError::Occupied(tail));
        }
        if self.crusher_between(head, tail) {
            return Err(TronError::TailAcrossCrusher { head, tail });
        }
        Ok(())
    }

    /// Puts `seat`'s light-cycle on the board, facing from `tail` to `head`.
    fn place_cycle(&mut self, seat: Seat, head: Cell, tail: Cell) {
        let facing = Dir::ALL
            .into_iter()
            .find(|&dir| self.board.step(tail, dir) == Some(head))
            .unwrap_or(Dir::North);
        self.grid[self.board.index(head)] = Square::Head(seat);
        self.grid[self.board.index(tail)] = Square::Tail(seat);
        self.players[seat.index()].cycle = Some(Cycle {
            head,
            tail: VecDeque::from([tail]),
            facing,
            alive: true,
        });
    }

    /// Cut tail may be played: a tail is ahead, left or right of the head.
    fn can_cut(&self, seat: Seat) -> Result<(), TronError> {
        let Some(cycle) = self.cycle_of(seat) else {
            return Ok(());
        };
        let beside_tail = Turn::ALL.into_iter().any(|turn| {
            self.board
                .step(cycle.head, cycle.facing.turned(turn))
                .is_some_and(|cell| matches!(self.square(cell), Square::Tail(_)))
        });
        if beside_tail {
            Ok(())
        } else {
            Err(TronError::NoTailToCut(cycle.head))
        }
    }

    fn check_card(&self, seat: Seat, card: Card) -> Result<(), TronError> {
        let Card::Special(special) = card else {
            return Ok(());
        };
        if self.players[seat.index()].hand.count(special) == 0 {
            return Err(TronError::NotInHand(special));
        }
        if special == Special::CutTail {
            self.can_cut(seat)?;
        }
        Ok(())
    }

    /// How far a move of `phase` goes: 1, 2 or 3 spaces in normal mode; in over-drive the
    /// regular cards, dash and uber-dash go any distance along the board.
    fn distances(&self, phase: Phase) -> (u8, u8) {
        match phase {
            Phase::Regular | Phase::Special(Special::Dash | Special::UberDash)
                if self.over_drive =>
            {
                (1, self.size() - 1)
            }
            Phase::Special(Special::Dash) => (2, 2),
            Phase::Special(Special::UberDash) => (3, 3),
            _ => (1, 1),
        }
    }

    /// The turns a move of `phase` may take: a regular card's own, or any.
    fn turns(&self, seat: Seat, phase: Phase) -> &'static [Turn] {
        match (phase, self.played[seat.index()]) {
            (Phase::Regular, Some(Card::Regular(turn))) => match turn {
                Turn::Forward => &[Turn::Forward],
                Turn::Left => &[Turn::Left],
                Turn::Right => &[Turn::Right],
            },
            _ => &Turn::ALL,
        }
    }

    fn check_go(
        &self,
        seat: Seat,
        phase: Phase,
        turn: Turn,
        distance: u8,
    ) -> Result<(), TronError> {
        let turns = self.turns(seat, phase);
        if !turns.contains(&turn) {
            return Err(TronError::WrongTurn {
                card: turns[0],
                tried: turn,
            });
        }
        let (min, max) = self.distances(phase);
        if !(min..=max).contains(&distance) {
            return Err(TronError::Distance {
                phase,
                distance,
                min,
                max,
            });
        }
        Ok(())
    }

    fn tail_len(&self, seat: Seat) -> u16 {
        self.cycle_of(seat)
            .map_or(0, |cycle| cycle.tail.len() as u16)
    }

    fn check_keep(&self, seat: Seat, length: u16) -> Result<(), TronError> {
        let tail = self.tail_len(seat);
        if (1..=tail).contains(&length) {
            Ok(())
        } else {
            Err(TronError::Keep { length, tail })
        }
    }

    /// What uses each line (by [`Board::line_index`]): a crusher, or a tail whose string runs
    /// between two of its squares (the head and the square behind it included).
    fn line_users(&self) -> Vec<Option<LineUser>> {
        let mut users = vec![None; self.board.line_slots()];
        for (seat, player) in self.seats().zip(&self.players) {
            let Some(cycle) = &player.cycle else {
                continue;
            };
            let body = cycle.tail.iter().chain(std::iter::once(&cycle.head));
            for (&a, &b) in body.clone().zip(body.skip(1)) {
                if let Some(line) = Line::between(a, b) {
                    users[self.board.line_index(line)] = Some(LineUser::Tail(seat));
                }
            }
        }
        for line in self.crushers.iter().flatten() {
            users[self.board.line_index(*line)] = Some(LineUser::Crusher);
        }
        users
    }

    fn check_crusher(
        &self,
        to: Line,
        from: Option<Line>,
        users: &[Option<LineUser>],
    ) -> Result<(), TronError> {
        if !self.board.contains_line(to) {
            return Err(TronError::LineOffBoard {
                line: to,
                size: self.size(),
            });
        }
        if let Some(by) = users[self.board.line_index(to)] {
            return Err(TronError::LineTaken { line: to, by });
        }
        let in_reserve = self.crushers.contains(&None);
        match from {
            Some(_) if in_reserve => Err(TronError::ReserveFirst),
            None if !in_reserve => Err(TronError::MoveOne),
            Some(from) if !self.crushers.contains(&Some(from)) => Err(TronError::NoCrusherOn(from)),
            _ => Ok(()),
        }
    }

    /// The crusher player who places next: seat order, starting from a seat that moves on by
    /// one each round so that nobody always chooses last.
    fn crusher_turn(&self, waiting: SeatSet) -> Option<Seat> {
        let seats = self.players.len();
        (0..seats)
            .map(|k| (self.round as usize + seats - 1 + k) % seats)
            .filter_map(Seat::new)
            .find(|&seat| waiting.contains(seat))
    }

    /// What the game waits for, in words, for [`TronError::WrongStage`].
    fn awaiting(&self) -> &'static str {
        match self.stage {
            Stage::PlaceHead(_) => "a head placement",
            Stage::PlaceTail { .. } => "a tail placement",
            Stage::Choose => "a card",
            Stage::Enact { phase, .. } if phase.drives() => "a move ('go')",
            Stage::Enact {
                phase: Phase::Special(Special::RetractTail),
                ..
            } => "a tail length ('keep')",
            Stage::Enact { .. } => "a crusher placement",
            Stage::Over => "nothing: the game is over",
        }
    }

    fn legal(&self, seat: Seat) -> Vec<TronAction> {
        match self.stage {
            Stage::PlaceHead(_) => self
                .board
                .cells()
                .filter(|&cell| self.fits_cycle(cell))
                .map(TronAction::Head)
                .collect(),
            Stage::PlaceTail { head, .. } => self
                .board
                .neighbours(head)
                .filter(|&cell| self.check_tail(head, cell).is_ok())
                .map(TronAction::Tail)
                .collect(),
            Stage::Choose => Card::ALL
                .into_iter()
                .filter(|&card| self.check_card(seat, card).is_ok())
                .map(TronAction::Play)
                .collect(),
            Stage::Enact { phase, .. } if phase.drives() => {
                let (min, max) = self.distances(phase);
                self.turns(seat, phase)
                    .iter()
                    .flat_map(|&turn| {
                        (min..=max).map(move |distance| TronAction::Go { turn, distance })
                    })
                    .collect()
            }
            Stage::Enact {
                phase: Phase::Special(Special::RetractTail),
                ..
            } => (1..=self.tail_len(seat)).map(TronAction::Keep).collect(),
            Stage::Enact { .. } => {
                let users = self.line_users();
                let free = self
                    .board
                    .lines()
                    .filter(|&line| users[self.board.line_index(line)].is_none());
                if self.crushers.contains(&None) {
                    free.map(|to| TronAction::Crusher { to, from: None })
                        .collect()
                } else {
                    free.flat_map(|to| {
                        self.crushers
                            .iter()
                            .flatten()
                            .map(move |&from| TronAction::Crusher {
                                to,
                                from: Some(from),
                            })
                    })
                    .collect()
                }
            }
            Stage::Over => Vec::new(),
        }
    }

    /// After `seat` placed its setup light-cycle: the next player in the setup order places,
    /// or, after the last, the flags go on the board, the cards are dealt and round 1 begins.
    fn next_setup(&mut self, seat: Seat, rng: &mut MatchRng) {
        let next = self
            .order
            .iter()
            .position(|&s| s == seat)
            .and_then(|i| self.order.get(i + 1));
        if let Some(&next) = next {
            self.stage = Stage::PlaceHead(next);
            return;
        }
        self.place_flags(rng);
        for player in &mut self.players {
            if let Some(card) = self.deck.pop() {
                player.hand.add(card);
            }
        }
        self.start_round();
    }
}

impl Game for Tron {
    type Config = TronConfig;
    type Action = TronAction;
    type View = TronView;
    type Illegal = TronError;
    type ConfigError = SetupError;

    fn new(config: &TronConfig, rng: &mut MatchRng) -> Result<Tron, SetupError> {
        if !SEATS.contains(&config.seats) {
            return Err(SetupError::Seats(config.seats));
        }
        let size = board_size(config.seats);
        let mut game = Tron::empty(config.seats, size);
        // Setup step 1: each player draws a Row card; higher cards place first.
        let mut rows = Pile::new(size);
        let mut draws: Vec<(u8, Seat)> = game.seats().map(|s| (rows.draw(rng), s)).collect();
        draws.sort_by_key(|&(card, _)| std::cmp::Reverse(card));
        game.order = draws.into_iter().map(|(_, seat)| seat).collect();
        game.stage = Stage::PlaceHead(game.order[0]);
        rng.shuffle(&mut game.deck);
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        self.players.len()
    }

    fn to_act(&self) -> SeatSet {
        match self.stage {
            Stage::PlaceHead(seat) | Stage::PlaceTail { seat, .. } => SeatSet::single(seat),
            Stage::Choose => self
                .seats()
                .filter(|&s| self.cycle_of(s).is_some() && self.pending[s.index()].is_none())
                .collect(),
            Stage::Enact {
                phase: Phase::Special(Special::Crusher),
                waiting,
            } => self
                .crusher_turn(waiting)
                .map_or(SeatSet::EMPTY, SeatSet::single),
            Stage::Enact { waiting, .. } => waiting
                .iter()
                .filter(|s| self.pending[s.index()].is_none())
                .collect(),
            Stage::Over => SeatSet::EMPTY,
        }
    }

    fn acting_actions(&self, seat: Seat) -> Vec<TronAction> {
        self.legal(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &TronAction,
        rng: &mut MatchRng,
    ) -> Result<(), TronError> {
        if !self.to_act().contains(seat) {
            return Err(TronError::NotYourTurn(seat));
        }
        match (self.stage, *action) {
            (Stage::PlaceHead(_), TronAction::Head(head)) => {
                self.check_head(head)?;
                self.stage = Stage::PlaceTail { seat, head };
            }
            (Stage::PlaceTail { head, .. }, TronAction::Tail(tail)) => {
                self.check_tail(head, tail)?;
                self.place_cycle(seat, head, tail);
                if self.round == 0 {
                    self.next_setup(seat, rng);
                } else {
                    self.reincarnate_from(seat.index() + 1, rng);
                }
            }
            (Stage::Choose, TronAction::Play(card)) => {
                self.check_card(seat, card)?;
                self.pending[seat.index()] = Some(Pending::Card(card));
                if self.to_act().is_empty() {
                    self.reveal(rng);
                }
            }
            (Stage::Enact { phase, waiting }, TronAction::Go { turn, distance })
                if phase.drives() =>
            {
                self.check_go(seat, phase, turn, distance)?;
                self.pending[seat.index()] = Some(Pending::Go { turn, distance });
                if self.to_act().is_empty() {
                    self.drive_phase(phase, waiting);
                    self.run_phases(phase.index() + 1, rng);
                }
            }
            (
                Stage::Enact {
                    phase: phase @ Phase::Special(Special::RetractTail),
                    ..
                },
                TronAction::Keep(length),
            ) => {
                self.check_keep(seat, length)?;
                self.retract(seat, length);
                self.run_phases(phase.index() + 1, rng);
            }
            (
                Stage::Enact {
                    phase: phase @ Phase::Special(Special::Crusher),
                    mut waiting,
                },
                TronAction::Crusher { to, from },
            ) => {
                self.check_crusher(to, from, &self.line_users())?;
                self.place_crusher(seat, to, from);
                waiting.remove(seat);
                if waiting.is_empty() {
                    self.run_phases(phase.index() + 1, rng);
                } else {
                    self.stage = Stage::Enact { phase, waiting };
                }
            }
            (_, action) => {
                return Err(TronError::WrongStage {
                    awaiting: self.awaiting(),
                    got: action.kind(),
                });
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, viewer: Viewer) -> TronView {
        TronView::of(self, viewer)
    }

    /// Deals the special cards `viewer` has not seen (the deck and every other hand, gathered
    /// by count so the way they were held tells nothing) again at random, each other seat
    /// keeping its number of cards, and replaces every other seat's pending hidden choice by a
    /// uniformly random legal one. The board, the scores and the cards turned over are public
    /// and stay.
    fn determinize(&self, viewer: Seat, rng: &mut MatchRng) -> Tron {
        let mut game = self.clone();
        let others: Vec<Seat> = self.seats().filter(|&seat| seat != viewer).collect();
        let mut unseen = Hand::of(&self.deck);
        for seat in &others {
            for card in self.players[seat.index()].hand.cards() {
                unseen.add(card);
            }
        }
        let mut cards: Vec<Special> = unseen.cards().collect();
        rng.shuffle(&mut cards);
        for seat in &others {
            let count = self.players[seat.index()].hand.len();
            game.players[seat.index()].hand = Hand::of(&cards[cards.len() - count..]);
            cards.truncate(cards.len() - count);
        }
        game.deck = cards;
        for seat in others {
            if game.pending[seat.index()].is_none() {
                continue;
            }
            let choices = game.legal(seat);
            game.pending[seat.index()] = match rng.choose(&choices) {
                Some(&TronAction::Play(card)) => Some(Pending::Card(card)),
                Some(&TronAction::Go { turn, distance }) => Some(Pending::Go { turn, distance }),
                // A choice is only ever held for a card or a move; keep anything else.
                _ => game.pending[seat.index()],
            };
        }
        game
    }
}

impl Catalog for Tron {
    const ID: &'static str = "tron";
    const NAME: &'static str = "Tron";

    fn variants() -> &'static [&'static str] {
        &["standard"]
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        SEATS
    }

    fn config(variant: &str, seats: usize) -> Result<TronConfig, CatalogError> {
        check_variant::<Tron>(variant, seats)?;
        Ok(TronConfig { seats })
    }

    fn read_action(&self, text: &str) -> Result<TronAction, impl std::fmt::Display> {
        TronAction::parse(text, self.size())
    }

    fn action_text(&self, action: &TronAction) -> String {
        action.to_string()
    }

    fn hides_actions(&self) -> bool {
        true
    }

    fn render(&self) -> String {
        self.diagram()
    }
}
