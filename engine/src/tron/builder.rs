//! A game from an explicit position, at the start of a round: for tests and analysis.

use std::collections::VecDeque;

use super::board::Square;
use super::cards::Special;
use super::{
    Cell, Cycle, Dir, Flag, Hand, Line, MAX_ROUNDS, MAX_SIZE, SEATS, SetupError, Stage, Tron,
    board_size,
};
use crate::game::Seat;

/// The smallest board a position may use: big enough that a player with no light-cycle always
/// finds a square (with a free square beside it) to be reincarnated on.
pub const MIN_SIZE: u8 = 8;

/// Describes a position; [`TronBuilder::build`] checks it and starts the game there, with every
/// seat on the board to choose its card. Seats given no light-cycle are off the board and are
/// reincarnated at the end of the first round. The special deck holds the cards no hand holds,
/// in [`Special::ALL`] order with the last on top, until a round's used cards shuffle it.
#[derive(Clone, Debug)]
pub struct TronBuilder {
    seats: usize,
    size: u8,
    /// Each light-cycle's squares, oldest tail square first, head last.
    cycles: Vec<(Seat, Vec<Cell>)>,
    flags: Vec<(Cell, Option<Seat>)>,
    crushers: Vec<Line>,
    hands: Vec<(Seat, Vec<Special>)>,
    scores: Vec<(Seat, i32)>,
    over_drive: bool,
    round: u32,
}

impl TronBuilder {
    /// An empty position for `seats` players on their usual board, round 1.
    pub fn new(seats: usize) -> TronBuilder {
        TronBuilder {
            seats,
            size: board_size(seats),
            cycles: Vec::new(),
            flags: Vec::new(),
            crushers: Vec::new(),
            hands: Vec::new(),
            scores: Vec::new(),
            over_drive: false,
            round: 1,
        }
    }

    /// Another board size, from [`MIN_SIZE`] to [`MAX_SIZE`].
    pub fn size(mut self, size: u8) -> TronBuilder {
        self.size = size;
        self
    }

    /// `seat`'s light-cycle on `body`: the tail from its oldest square, then the head. It faces
    /// from the last tail square to the head.
    pub fn cycle(mut self, seat: Seat, body: &[Cell]) -> TronBuilder {
        self.cycles.push((seat, body.to_vec()));
        self
    }

    /// A flag on `at`; `barred` is the player who placed it last, who may not capture it.
    pub fn flag(mut self, at: Cell, barred: Option<Seat>) -> TronBuilder {
        self.flags.push((at, barred));
        self
    }

    pub fn crusher(mut self, line: Line) -> TronBuilder {
        self.crushers.push(line);
        self
    }

    /// `seat`'s special cards.
    pub fn hand(mut self, seat: Seat, cards: &[Special]) -> TronBuilder {
        self.hands.push((seat, cards.to_vec()));
        self
    }

    pub fn score(mut self, seat: Seat, score: i32) -> TronBuilder {
        self.scores.push((seat, score));
        self
    }

    pub fn over_drive(mut self, on: bool) -> TronBuilder {
        self.over_drive = on;
        self
    }

    /// The round to start in, from 1 to [`MAX_ROUNDS`].
    pub fn round(mut self, round: u32) -> TronBuilder {
        self.round = round;
        self
    }

    pub fn build(self) -> Result<Tron, SetupError> {
        if !SEATS.contains(&self.seats) {
            return Err(SetupError::Seats(self.seats));
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(SetupError::Size(self.size));
        }
        if !(1..=MAX_ROUNDS).contains(&self.round) {
            return Err(SetupError::Round(self.round));
        }
        let mut game = Tron::empty(self.seats, self.size);
        let known = |seat: Seat| {
            if seat.index() < self.seats {
                Ok(seat.index())
            } else {
                Err(SetupError::NoSuchSeat(seat))
            }
        };
        for (seat, body) in &self.cycles {
            let index = known(*seat)?;
            if game.players[index].cycle.is_some() {
                return Err(SetupError::CycleTwice(*seat));
            }
            game.players[index].cycle = Some(cycle_on(&mut game, *seat, body)?);
        }
        if self.cycles.is_empty() {
            return Err(SetupError::NoCycle);
        }
        if self.flags.len() > self.seats {
            return Err(SetupError::TooManyFlags(self.flags.len()));
        }
        game.flags.clear();
        for &(at, owner) in &self.flags {
            if !game.board.contains(at) {
                return Err(SetupError::OffBoard(at));
            }
            if !game.is_free(at) {
                return Err(SetupError::Taken(at));
            }
            if let Some(owner) = owner {
                known(owner)?;
            }
            game.flags.push(Flag {
                at: Some(at),
                owner,
                reached: None,
            });
        }
        if self.crushers.len() > game.crushers.len() {
            return Err(SetupError::TooManyCrushers(self.crushers.len()));
        }
        for (slot, &line) in self.crushers.iter().enumerate() {
            if !game.board.contains_line(line) {
                return Err(SetupError::LineOffBoard(line));
            }
            if game.line_users()[game.board.line_index(line)].is_some() {
                return Err(SetupError::LineTaken(line));
            }
            game.crushers[slot] = Some(line);
        }
        let mut deck = Hand::of(&game.deck);
        for (seat, cards) in &self.hands {
            let index = known(*seat)?;
            for &card in cards {
                if !deck.remove(card) {
                    return Err(SetupError::TooManyCards(card));
                }
                game.players[index].hand.add(card);
            }
        }
        game.deck = deck.cards().collect();
        for &(seat, score) in &self.scores {
            game.players[known(seat)?].score = score;
        }
        game.over_drive = self.over_drive;
        game.round = self.round;
        game.order = game.seats().collect();
        game.stage = Stage::Choose;
        Ok(game)
    }
}

/// Puts a light-cycle on `body` (tail oldest first, head last) into the game's grid.
fn cycle_on(game: &mut Tron, seat: Seat, body: &[Cell]) -> Result<Cycle, SetupError> {
    let (&head, tail) = body.split_last().ok_or(SetupError::ShortBody(seat))?;
    let &neck = tail.last().ok_or(SetupError::ShortBody(seat))?;
    for &cell in body {
        if !game.board.contains(cell) {
            return Err(SetupError::OffBoard(cell));
        }
        if game.square(cell) != Square::Empty {
            return Err(SetupError::Taken(cell));
        }
        game.grid[game.board.index(cell)] = Square::Tail(seat);
    }
    for pair in body.windows(2) {
        if Line::between(pair[0], pair[1]).is_none() {
            return Err(SetupError::NotBeside(pair[0], pair[1]));
        }
    }
    game.grid[game.board.index(head)] = Square::Head(seat);
    let facing = Dir::ALL
        .into_iter()
        .find(|&dir| game.board.step(neck, dir) == Some(head))
        .ok_or(SetupError::NotBeside(neck, head))?;
    Ok(Cycle {
        head,
        tail: VecDeque::from(tail.to_vec()),
        facing,
        alive: true,
    })
}
