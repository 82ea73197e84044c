//! Mr Driller, the board game (Alejandro Grilli J.), two drillers racing down a board of
//! coloured blocks and moving at the same time: the rules are `docs/rules/driller.md`.
//!
//! Row 1 is the top, so a row number is a depth; seat 0 starts on `d1`, seat 1 on `i1`. The board
//! keeps a colour per square: blocks of one colour that touch are one piece. Both seats are in
//! [`Game::to_act`] every round until they have chosen. The first choice is held, visible only in
//! its own seat's view; the call that brings the second resolves the round. The board, the
//! tokens, who has chosen and the last round's moves are public. The board and disputes are
//! drawn from the match RNG.

mod ai;
mod board;
mod setup;

use std::convert::Infallible;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use board::Events;
pub use board::{Board, COLUMNS, Colour, Dir, ROWS, Square, Token};

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Explain, Game, Outcome, Seat, SeatSet, Viewer, Why};
use crate::notation::{Cursor, NotationError};
use crate::rng::MatchRng;

/// The most steps in one move.
pub const MAX_STEPS: usize = 3;

/// Rounds after which the game ends by depth: twelve times the 8 rounds a driller needs to dig
/// straight down, three squares a round, and far beyond any random game seen in tests.
pub const MAX_ROUNDS: u32 = 100;

const fn square(column: u8, row: u8) -> Square {
    match Square::new(column, row) {
        Some(square) => square,
        None => panic!("the start squares are on the board"),
    }
}

/// The marked squares of the top row, fourth and ninth: seat 0 starts on `d1`, seat 1 on `i1`.
pub const START_SQUARES: [Square; 2] = [square(3, 0), square(8, 0)];

const fn seat(index: usize) -> Seat {
    match Seat::new(index) {
        Some(seat) => seat,
        None => panic!("both seats exist"),
    }
}

/// The two seats, in order.
const SEATS: [Seat; 2] = [seat(0), seat(1)];

/// One round's move of one driller: 1 to 3 steps, written as their letters (`DDL`).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// The steps, then `Up` in every unused slot, so that equal moves compare equal.
    steps: [Dir; MAX_STEPS],
    len: u8,
}

impl Move {
    /// The move taking `steps`, which must number 1 to 3.
    pub fn new(steps: &[Dir]) -> Result<Move, DrillerError> {
        if steps.is_empty() || steps.len() > MAX_STEPS {
            return Err(DrillerError::StepCount(steps.len()));
        }
        let mut all = [Dir::Up; MAX_STEPS];
        all[..steps.len()].copy_from_slice(steps);
        Ok(Move {
            steps: all,
            len: steps.len() as u8,
        })
    }

    pub fn steps(&self) -> &[Dir] {
        &self.steps[..usize::from(self.len)]
    }

    /// Reads the notation [`Display`](fmt::Display) writes: one letter per step, `U`, `D`, `L`
    /// or `R` (lower case accepted).
    pub fn parse(text: &str) -> Result<Move, DrillerError> {
        let mut cursor = Cursor::new(text);
        let mut steps = [Dir::Up; MAX_STEPS];
        let mut len = 0;
        while len < MAX_STEPS && (len == 0 || !cursor.at_end()) {
            steps[len] = cursor.take(Expected::Direction, Dir::from_letter)?;
            len += 1;
        }
        cursor.end(Expected::End)?;
        Move::new(&steps[..len])
    }

    /// Every move there is, shortest first, in the order of [`Dir::ALL`] step by step.
    fn every() -> impl Iterator<Item = Move> {
        (1..=MAX_STEPS).flat_map(|len| {
            (0..Dir::ALL.len().pow(len as u32)).map(move |code| {
                let mut steps = [Dir::Up; MAX_STEPS];
                for (place, step) in steps[..len].iter_mut().enumerate() {
                    let digit = code / Dir::ALL.len().pow((len - 1 - place) as u32);
                    *step = Dir::ALL[digit % Dir::ALL.len()];
                }
                Move {
                    steps,
                    len: len as u8,
                }
            })
        })
    }

    /// The squares this move enters from `from`, or why it cannot be taken from there.
    fn route(&self, from: Square) -> Result<Route, DrillerError> {
        let mut squares = [from; MAX_STEPS];
        let mut at = from;
        for (index, &dir) in self.steps().iter().enumerate() {
            let step = index + 1;
            at = at.step(dir).ok_or(DrillerError::OffBoard {
                step,
                from: at,
                dir,
            })?;
            if at == from || squares[..index].contains(&at) {
                return Err(DrillerError::Revisit { step, square: at });
            }
            squares[index] = at;
        }
        Ok(Route {
            squares,
            len: self.steps().len(),
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.steps()
            .iter()
            .try_for_each(|dir| write!(f, "{}", dir.letter()))
    }
}

/// Shows the notation, not the unused step slots.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A move serialises in its notation, `DDL`.
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Move {
    type Err = DrillerError;

    fn from_str(text: &str) -> Result<Move, DrillerError> {
        Move::parse(text)
    }
}

/// The squares a move enters, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Route {
    squares: [Square; MAX_STEPS],
    len: usize,
}

impl Route {
    fn end(&self) -> Square {
        self.squares[self.len - 1]
    }
}

/// A seat's move, held until the other seat has chosen, with the squares it enters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Choice {
    mv: Move,
    route: Route,
}

/// Two moves that ended on the same square, settled by the match RNG.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Dispute {
    pub square: Square,
    /// The seat that took the square; the other stopped one square short of it. Serialised
    /// as the seat's number.
    #[serde(serialize_with = "seat_number")]
    pub winner: Seat,
}

fn seat_number<S: serde::Serializer>(seat: &Seat, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(seat.index() as u64)
}

/// What the last round did, public once it has resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct RoundReport {
    /// Each seat's move as chosen.
    pub moves: [Move; 2],
    pub dispute: Option<Dispute>,
}

/// What the notation reader wanted to see next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    Direction,
    End,
}

impl From<NotationError<Expected>> for DrillerError {
    fn from(e: NotationError<Expected>) -> DrillerError {
        DrillerError::Notation(e)
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Direction => "a direction U, D, L or R",
            Expected::End => "the end of the move (at most 3 steps)",
        })
    }
}

/// Why a move cannot be read or played. Character positions and steps count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrillerError {
    /// The notation has the wrong character (or ends) at character `at`.
    Notation(NotationError<Expected>),
    /// A move was built with no step or more than three.
    StepCount(usize),
    /// Step `step` would go `dir` from `from`, off the board.
    OffBoard {
        step: usize,
        from: Square,
        dir: Dir,
    },
    /// Step `step` enters `square` a second time (or the square the move started from).
    Revisit {
        step: usize,
        square: Square,
    },
    GameOver,
    NoSuchSeat(Seat),
    /// The seat's move for this round is already held.
    AlreadyChosen(Seat),
}

impl fmt::Display for DrillerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillerError::Notation(e) => e.fmt(f),
            DrillerError::StepCount(steps) => {
                write!(f, "a move has 1 to {MAX_STEPS} steps, not {steps}")
            }
            DrillerError::OffBoard { step, from, dir } => {
                write!(f, "step {step} goes {dir} from {from}, off the board")
            }
            DrillerError::Revisit { step, square } => {
                write!(
                    f,
                    "step {step} enters {square}, which the move has already visited"
                )
            }
            DrillerError::GameOver => write!(f, "the game is over"),
            DrillerError::NoSuchSeat(seat) => write!(f, "there is no {seat} in this game"),
            DrillerError::AlreadyChosen(seat) => {
                write!(f, "{seat} has already chosen a move this round")
            }
        }
    }
}

impl std::error::Error for DrillerError {}

impl Explain for DrillerError {
    fn why(&self) -> Why {
        match self {
            DrillerError::Notation(e) => Why::new("notation").with("at", e.at),
            DrillerError::StepCount(steps) => Why::new("step_count")
                .with("steps", steps)
                .with("max", MAX_STEPS),
            DrillerError::OffBoard { step, from, dir } => Why::new("off_board")
                .with("step", step)
                .with("from", from)
                .with("dir", dir),
            DrillerError::Revisit { step, square } => Why::new("revisit")
                .with("step", step)
                .with("square", square),
            DrillerError::GameOver => Why::new("game_over"),
            DrillerError::NoSuchSeat(seat) => Why::new("no_such_seat").with("seat", seat),
            DrillerError::AlreadyChosen(seat) => Why::new("already_chosen").with("seat", seat),
        }
    }
}

/// Why a position cannot be set up from a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The picture has more rows than the board.
    TooManyRows(usize),
    /// Row `row` (1-based) has `width` squares instead of 12.
    RowWidth {
        row: usize,
        width: usize,
    },
    /// `found` on `square` is not `.`, a colour letter or a seat digit.
    UnknownMark {
        square: Square,
        found: char,
    },
    TokenTwice(Seat),
    TokenMissing(Seat),
    /// The block or token on `square` has nothing under it.
    Unsupported(Square),
    /// A token already on the bottom row would have won.
    TokenOnBottom(Seat),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManyRows(rows) => {
                write!(f, "the picture has {rows} rows; the board has {ROWS}")
            }
            SetupError::RowWidth { row, width } => {
                write!(f, "row {row} has {width} squares, not {COLUMNS}")
            }
            SetupError::UnknownMark { square, found } => write!(
                f,
                "'{found}' on {square} is not '.', a colour R, G, Y, B or a seat 0, 1"
            ),
            SetupError::TokenTwice(seat) => write!(f, "the token of {seat} is drawn twice"),
            SetupError::TokenMissing(seat) => write!(f, "the token of {seat} is missing"),
            SetupError::Unsupported(square) => {
                write!(f, "{square} has nothing under it and would fall")
            }
            SetupError::TokenOnBottom(seat) => {
                write!(f, "the token of {seat} is on the bottom row already")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// The game's options. The standard game has none; the type exists so that Mr Driller fits the
/// [`Game`] contract like every other game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DrillerConfig;

/// What one viewer may see: everything but the other seat's held move. Squares and moves
/// serialise in their notation, the board as its rows of letters.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DrillerView {
    pub board: Board,
    /// Seat 0's token, then seat 1's.
    pub tokens: [Token; 2],
    /// Rounds resolved so far.
    pub rounds: u32,
    /// Which seats have chosen their move for this round.
    pub chosen: [bool; 2],
    /// The viewing seat's own held move; always `None` for a spectator.
    pub own_move: Option<Move>,
    pub last_round: Option<RoundReport>,
    pub outcome: Option<Outcome>,
}

impl DrillerView {
    /// The board as text; see [`Driller::diagram`].
    pub fn diagram(&self) -> String {
        diagram(&self.board, &self.tokens)
    }
}

/// The board with column letters and row numbers, row 1 first: `R`, `G`, `Y`, `B` a block,
/// `0` and `1` the tokens of seats 0 and 1 (a crushed token is not drawn), `.` an empty square.
fn diagram(board: &Board, tokens: &[Token; 2]) -> String {
    let mut out = String::from("  ");
    for column in 0..COLUMNS {
        out.push(' ');
        out.push(char::from(b'a' + column));
    }
    out.push('\n');
    for row in 0..ROWS {
        out.push_str(&format!("{:>2}", row + 1));
        for column in 0..COLUMNS {
            let Some(square) = Square::new(column, row) else {
                continue;
            };
            let token = (0..2).find(|&i| tokens[i].square() == square && !tokens[i].is_crushed());
            out.push(' ');
            out.push(match (token, board.at(square)) {
                (Some(index), _) => char::from(b'0' + index as u8),
                (None, Some(colour)) => colour.letter(),
                (None, None) => '.',
            });
        }
        out.push('\n');
    }
    out
}

/// A game of Mr Driller: board, tokens, held moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Driller {
    board: Board,
    tokens: [Token; 2],
    pending: [Option<Choice>; 2],
    rounds: u32,
    last_round: Option<RoundReport>,
    outcome: Option<Outcome>,
}

impl Driller {
    /// A new game on a random board drawn from `rng`.
    pub fn new(_config: &DrillerConfig, rng: &mut MatchRng) -> Driller {
        let mut board = setup::random_board(rng);
        let mut tokens = START_SQUARES.map(Token::at);
        // A token over an empty square drops onto the block below; every block rests already.
        // A token could only reach the bottom down a column empty all the way, which a packed
        // board never has in practice, but if it did it would have won.
        let mut events = Events::default();
        board.settle(&mut tokens, &mut events, 1);
        let mut game = Driller::at_rest(board, tokens);
        game.outcome = game.judge(&events);
        game
    }

    fn at_rest(board: Board, tokens: [Token; 2]) -> Driller {
        Driller {
            board,
            tokens,
            pending: [None; 2],
            rounds: 0,
            last_round: None,
            outcome: None,
        }
    }

    /// A game in progress from a picture of the lowest rows of the board, one line per row
    /// (the missing rows above are empty): `.` an empty square, `R`, `G`, `Y`, `B` a block,
    /// `0` and `1` the tokens of seats 0 and 1. Blank lines and the spaces around a line are
    /// ignored. Nothing may float, and no token may already be on the bottom row.
    pub fn from_picture(picture: &str) -> Result<Driller, SetupError> {
        let lines: Vec<&str> = picture
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        let top = usize::from(ROWS)
            .checked_sub(lines.len())
            .ok_or(SetupError::TooManyRows(lines.len()))?;
        let mut board = Board::default();
        let mut tokens = [None; 2];
        for (row, line) in (top..).zip(&lines) {
            let width = line.chars().count();
            if width != usize::from(COLUMNS) {
                return Err(SetupError::RowWidth {
                    row: row + 1,
                    width,
                });
            }
            for (column, mark) in (0..COLUMNS).zip(line.chars()) {
                // `row` is below ROWS, since `top` left room for every line.
                let Some(square) = Square::new(column, row as u8) else {
                    continue;
                };
                match (mark, Colour::from_letter(mark)) {
                    ('.', _) => {}
                    (_, Some(colour)) => board.put(square, colour),
                    ('0' | '1', None) => {
                        let index = usize::from(mark == '1');
                        if tokens[index].replace(Token::at(square)).is_some() {
                            return Err(SetupError::TokenTwice(SEATS[index]));
                        }
                    }
                    (found, None) => return Err(SetupError::UnknownMark { square, found }),
                }
            }
        }
        let [Some(first), Some(second)] = tokens else {
            let missing = tokens.iter().position(Option::is_none).unwrap_or(0);
            return Err(SetupError::TokenMissing(SEATS[missing]));
        };
        let tokens = [first, second];
        if let Some(index) = tokens.iter().position(|t| t.square().is_bottom()) {
            return Err(SetupError::TokenOnBottom(SEATS[index]));
        }
        if let Some(square) = board.first_unsupported(&tokens) {
            return Err(SetupError::Unsupported(square));
        }
        Ok(Driller::at_rest(board, tokens))
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Seat 0's token, then seat 1's.
    pub fn tokens(&self) -> [Token; 2] {
        self.tokens
    }

    /// Rounds resolved so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    pub fn last_round(&self) -> Option<&RoundReport> {
        self.last_round.as_ref()
    }

    /// The first square (in reading order) whose block or token has nothing under it; always
    /// `None` between rounds, since every round ends with the board at rest.
    pub fn unsupported(&self) -> Option<Square> {
        self.board.first_unsupported(&self.tokens)
    }

    /// Every move `seat` may choose, `seat` being one that must act now (the contract's
    /// `legal_actions` checks that).
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let from = self.tokens[seat.index()].square();
        Move::every().filter(|mv| mv.route(from).is_ok()).collect()
    }

    /// Holds `seat`'s move for this round, and resolves the round once both are held.
    pub fn choose(
        &mut self,
        seat: Seat,
        mv: &Move,
        rng: &mut MatchRng,
    ) -> Result<(), DrillerError> {
        if self.outcome.is_some() {
            return Err(DrillerError::GameOver);
        }
        let index = seat.index();
        let Some(held) = self.pending.get(index) else {
            return Err(DrillerError::NoSuchSeat(seat));
        };
        if held.is_some() {
            return Err(DrillerError::AlreadyChosen(seat));
        }
        let route = mv.route(self.tokens[index].square())?;
        self.pending[index] = Some(Choice { mv: *mv, route });
        if let [Some(first), Some(second)] = self.pending {
            self.pending = [None; 2];
            self.resolve([first, second], rng);
        }
        Ok(())
    }

    /// Plays out a round: the dispute, the moves step by step with their drilling, then
    /// gravity; then judges the end.
    fn resolve(&mut self, choices: [Choice; 2], rng: &mut MatchRng) {
        let mut lengths = choices.map(|choice| choice.route.len);
        let ends = choices.map(|choice| choice.route.end());
        let dispute = (ends[0] == ends[1]).then(|| {
            let winner = rng.below(2) as usize;
            // The loser stops one square short of the square it wanted.
            lengths[1 - winner] -= 1;
            Dispute {
                square: ends[0],
                winner: SEATS[winner],
            }
        });
        let mut events = Events::default();
        for step in 0..MAX_STEPS {
            for (index, choice) in choices.iter().enumerate() {
                if step < lengths[index] {
                    let square = choice.route.squares[step];
                    self.board.drill(square);
                    self.tokens[index].move_to(square);
                    if square.is_bottom() {
                        events.reach(index, step as u32 + 1);
                    }
                }
            }
        }
        self.board
            .settle(&mut self.tokens, &mut events, MAX_STEPS as u32 + 1);
        self.rounds += 1;
        self.last_round = Some(RoundReport {
            moves: choices.map(|choice| choice.mv),
            dispute,
        });
        self.outcome = self.judge(&events);
    }

    /// The end of the game after a round with these events, if it has come.
    fn judge(&self, events: &Events) -> Option<Outcome> {
        let all = events.reached.iter().chain(&events.crushed);
        if let Some(first) = all.flatten().min().copied() {
            let reached = events.reached.map(|moment| moment == Some(first));
            let crushed = events.crushed.map(|moment| moment == Some(first));
            return Some(if reached.contains(&true) {
                ranked(reached, "reached_bottom", "reached_bottom_together")
            } else {
                ranked(crushed.map(|c| !c), "crushed", "crushed_together")
            });
        }
        (self.rounds >= MAX_ROUNDS).then(|| {
            let depth = self.tokens.map(|token| token.square().row());
            let deepest = [depth[0] >= depth[1], depth[1] >= depth[0]];
            ranked(deepest, "round_limit", "round_limit")
        })
    }

    /// The board as text, row 1 first: `R`, `G`, `Y`, `B` a block, `0` and `1` the tokens of
    /// seats 0 and 1, `.` an empty square.
    pub fn diagram(&self) -> String {
        diagram(&self.board, &self.tokens)
    }
}

/// Seat `i` first where `first[i]`, the other second; a draw (`tie`) when both or neither are.
fn ranked(first: [bool; 2], reason: &'static str, tie: &'static str) -> Outcome {
    if first[0] == first[1] {
        Outcome::draw(2, tie)
    } else {
        Outcome::from_places(first.map(|f| u8::from(!f)).to_vec(), reason)
    }
}

impl Game for Driller {
    type Config = DrillerConfig;
    type Action = Move;
    type View = DrillerView;
    type Illegal = DrillerError;
    type ConfigError = Infallible;

    fn new(config: &DrillerConfig, rng: &mut MatchRng) -> Result<Driller, Infallible> {
        Ok(Driller::new(config, rng))
    }

    fn seat_count(&self) -> usize {
        SEATS.len()
    }

    fn to_act(&self) -> SeatSet {
        if self.outcome.is_some() {
            return SeatSet::EMPTY;
        }
        SEATS
            .into_iter()
            .filter(|seat| self.pending[seat.index()].is_none())
            .collect()
    }

    fn acting_actions(&self, seat: Seat) -> Vec<Move> {
        self.legal_moves(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Move, rng: &mut MatchRng) -> Result<(), DrillerError> {
        self.choose(seat, action, rng)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, viewer: Viewer) -> DrillerView {
        let own_move = match viewer {
            Viewer::Seat(seat) => self
                .pending
                .get(seat.index())
                .copied()
                .flatten()
                .map(|choice| choice.mv),
            Viewer::Spectator => None,
        };
        DrillerView {
            board: self.board,
            tokens: self.tokens,
            rounds: self.rounds,
            chosen: self.pending.map(|held| held.is_some()),
            own_move,
            last_round: self.last_round,
            outcome: self.outcome.clone(),
        }
    }

    /// Replaces the other seat's held move, if it has chosen, by a uniformly random move from
    /// its square: the viewer sees only that it has chosen.
    fn determinize(&self, viewer: Seat, rng: &mut MatchRng) -> Driller {
        let mut game = self.clone();
        for seat in SEATS {
            let index = seat.index();
            if seat == viewer || game.pending[index].is_none() {
                continue;
            }
            let from = game.tokens[index].square();
            let choices: Vec<Choice> = Move::every()
                .filter_map(|mv| {
                    Some(Choice {
                        mv,
                        route: mv.route(from).ok()?,
                    })
                })
                .collect();
            if let Some(choice) = rng.choose(&choices) {
                game.pending[index] = Some(*choice);
            }
        }
        game
    }
}

impl Catalog for Driller {
    const ID: &'static str = "driller";
    const NAME: &'static str = "Mr Driller";

    fn variants() -> &'static [&'static str] {
        &["standard"]
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        2..=2
    }

    fn config(variant: &str, seats: usize) -> Result<DrillerConfig, CatalogError> {
        check_variant::<Driller>(variant, seats)?;
        Ok(DrillerConfig)
    }

    fn read_action(&self, text: &str) -> Result<Move, impl fmt::Display> {
        Move::parse(text)
    }

    fn action_text(&self, action: &Move) -> String {
        action.to_string()
    }

    /// Moves are chosen in secret and revealed when the round resolves.
    fn hides_actions(&self) -> bool {
        true
    }

    fn render(&self) -> String {
        self.diagram()
    }
}
