//! Hanoi by Cameron Browne (2013), for two or three players: the rules are `docs/rules/hanoi.md`.
//!
//! Seats are colours in turn order: White 0, Blue 1, Red 2. Each disc placement is one action,
//! [`HanoiAction::Move`]: the first names the stack that is split and the line of its top disc,
//! each later one the line of the next disc, and the mover stays alone in [`Game::to_act`] until
//! the turn ends. A player with no move passes with [`HanoiAction::Pass`], so the log records
//! every turn. Nothing is hidden and nothing is left to chance: every viewer sees the same
//! [`HanoiView`] and the match RNG is never drawn from.

mod ai;
mod board;
mod notation;

use std::convert::Infallible;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Explain, Game, Outcome, Seat, SeatSet, Viewer, Why};
use crate::notation::NotationError;
use crate::rng::MatchRng;

pub use board::{CELL_COUNT, Cell, Colour, Dir, Disc, Size, Stack, StackingError};
pub use notation::Expected;

/// Turns (splits and passes) per player after which a game that has not ended is drawn: 200
/// turns in all with two players, 300 with three. The rules allow endless play, since stacks
/// can be split and rebuilt for ever; random games end in a fraction of this (see
/// `docs/rules/hanoi.md`).
pub const TURNS_PER_PLAYER: u32 = 100;

/// How many discs of each size each player has.
const DISCS_PER_SIZE: usize = 3;

/// How many players sit at the table; the three-player game adds passing and the 2:2:1 rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Players {
    Two,
    Three,
}

impl Players {
    pub const fn count(self) -> usize {
        match self {
            Players::Two => 2,
            Players::Three => 3,
        }
    }

    pub fn from_count(count: usize) -> Option<Players> {
        match count {
            2 => Some(Players::Two),
            3 => Some(Players::Three),
            _ => None,
        }
    }

    /// The colours in play, in turn order.
    pub fn colours(self) -> &'static [Colour] {
        &Colour::ALL[..self.count()]
    }

    /// Turns (all players' together) after which a game that has not ended is drawn.
    pub const fn turn_limit(self) -> u32 {
        TURNS_PER_PLAYER * self.count() as u32
    }

    /// Who plays after `colour`.
    pub fn next(self, colour: Colour) -> Colour {
        self.colours()[(colour as usize + 1) % self.count()]
    }

    /// Where each colour's three full towers stand at the start.
    fn start(self) -> &'static [(Cell, Colour)] {
        match self {
            Players::Two => &START_TWO,
            Players::Three => &START_THREE,
        }
    }
}

/// A cell named at compile time; the `panic!` can only fire while compiling.
const fn cell(row: u8, diag: u8) -> Cell {
    match Cell::new(row, diag) {
        Some(cell) => cell,
        None => panic!("a start cell is off the board"),
    }
}

/// Two players: the six corners, alternately White's and Blue's.
const START_TWO: [(Cell, Colour); 6] = [
    (cell(0, 0), Colour::White), // a1
    (cell(0, 2), Colour::Blue),  // a3
    (cell(2, 4), Colour::White), // c5
    (cell(4, 4), Colour::Blue),  // e5
    (cell(4, 2), Colour::White), // e3
    (cell(2, 0), Colour::Blue),  // c1
];

/// Three players: the corners in turn White, Blue, Red, so that opposite corners share a
/// colour, and every other edge middle. A third of a turn round the centre maps White's towers
/// onto Red's, Red's onto Blue's and Blue's onto White's.
const START_THREE: [(Cell, Colour); 9] = [
    (cell(0, 0), Colour::White), // a1
    (cell(0, 2), Colour::Blue),  // a3
    (cell(2, 4), Colour::Red),   // c5
    (cell(4, 4), Colour::White), // e5
    (cell(4, 2), Colour::Blue),  // e3
    (cell(2, 0), Colour::Red),   // c1
    (cell(0, 1), Colour::White), // a2, between a1 and a3
    (cell(3, 4), Colour::Red),   // d5, between c5 and e5
    (cell(3, 1), Colour::Blue),  // d2, between e3 and c1
];

/// The game's options: only how many play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HanoiConfig {
    pub players: Players,
}

/// One action: a disc placement or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HanoiAction {
    /// The top disc of the stack on `from` moves along the line in `dir`. Written `c3-ne`.
    Move { from: Cell, dir: Dir },
    /// Allowed, and required, only to a player of a three-player game who has no move.
    /// Written `pass`.
    Pass,
}

impl HanoiAction {
    /// Reads the form that [`Display`](fmt::Display) writes.
    pub fn parse(text: &str) -> Result<HanoiAction, HanoiError> {
        notation::parse_action(text)
    }
}

/// An action serialises in its notation, `c3-ne` or `pass`.
impl serde::Serialize for HanoiAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for HanoiAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HanoiAction::Move { from, dir } => write!(f, "{from}-{dir}"),
            HanoiAction::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for HanoiAction {
    type Err = HanoiError;

    fn from_str(text: &str) -> Result<HanoiAction, HanoiError> {
        HanoiAction::parse(text)
    }
}

/// What one disc placement did.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Placement {
    /// Who moved it (not necessarily its owner).
    pub mover: Colour,
    pub disc: Disc,
    pub from: Cell,
    pub dir: Dir,
    pub to: Cell,
    /// The N+1 disc it landed on, now pinned; `None` when it landed on an empty cell.
    pub pinned: Option<Disc>,
}

/// Why an action or a piece of notation is refused. Character positions count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HanoiError {
    /// The notation has the wrong character (or ends) at character `at`.
    Notation(NotationError<Expected>),
    /// The cell name starting at character `at` is not on the hexagon (such as `a5`).
    OffBoard {
        at: usize,
        row: char,
        diag: char,
    },
    /// The disc starting at character `at` of a stack may not stand where it is written.
    Stacking {
        at: usize,
        error: StackingError,
    },
    /// No action is legal once the game has ended.
    GameOver,
    NoStack(Cell),
    NotYourStack {
        cell: Cell,
        owner: Colour,
    },
    /// A split is under way on `splitting`, and its next disc must move before anything else.
    SplitUnfinished {
        splitting: Cell,
        from: Cell,
    },
    /// `from` is on the edge facing `dir`: there is no line that way.
    OffEdge {
        from: Cell,
        dir: Dir,
    },
    /// The line from `from` in `dir` has neither an empty cell nor an exposed disc one size
    /// larger than `disc`.
    NoLanding {
        disc: Disc,
        from: Cell,
        dir: Dir,
    },
    /// Only a player with no move may pass.
    MustMove(Colour),
}

impl fmt::Display for HanoiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HanoiError::Notation(e) => e.fmt(f),
            HanoiError::OffBoard { at, row, diag } => {
                write!(f, "character {at}: {row}{diag} is not a cell of the board")
            }
            HanoiError::Stacking { at, error } => write!(f, "character {at}: {error}"),
            HanoiError::GameOver => write!(f, "the game is over"),
            HanoiError::NoStack(cell) => write!(f, "there is no stack on {cell}"),
            HanoiError::NotYourStack { cell, owner } => {
                write!(
                    f,
                    "the stack on {cell} is {owner}'s: its top disc is {owner}"
                )
            }
            HanoiError::SplitUnfinished { splitting, from } => write!(
                f,
                "the split of {splitting} is not finished: its next disc moves, not one from {from}"
            ),
            HanoiError::OffEdge { from, dir } => {
                write!(f, "{from} is on the edge: there is no line {dir} from it")
            }
            HanoiError::NoLanding { disc, from, dir } => {
                write!(
                    f,
                    "{disc} on {from} cannot move {dir}: that line has no empty cell"
                )?;
                match disc.size.next_larger() {
                    Some(larger) => write!(f, " and no exposed {larger}-disc"),
                    None => Ok(()),
                }
            }
            HanoiError::MustMove(colour) => {
                write!(f, "{colour} has a move, so may not pass")
            }
        }
    }
}

impl std::error::Error for HanoiError {}

impl Explain for HanoiError {
    fn why(&self) -> Why {
        match self {
            HanoiError::Notation(e) => Why::new("notation").with("at", e.at),
            HanoiError::OffBoard { at, row, diag } => Why::new("not_a_cell")
                .with("at", at)
                .with("square", format!("{row}{diag}")),
            HanoiError::Stacking { at, error } => {
                Why::new("stacking").with("at", at).with("error", error)
            }
            HanoiError::GameOver => Why::new("game_over"),
            HanoiError::NoStack(cell) => Why::new("no_stack").with("square", cell),
            HanoiError::NotYourStack { cell, owner } => Why::new("not_your_stack")
                .with("square", cell)
                .with("owner", owner),
            HanoiError::SplitUnfinished { splitting, from } => Why::new("split_unfinished")
                .with("splitting", splitting)
                .with("from", from),
            HanoiError::OffEdge { from, dir } => {
                Why::new("off_edge").with("from", from).with("dir", dir)
            }
            HanoiError::NoLanding { disc, from, dir } => Why::new("no_line_landing")
                .with("disc", disc)
                .with("from", from)
                .with("dir", dir),
            HanoiError::MustMove(colour) => Why::new("must_move").with("colour", colour),
        }
    }
}

/// Why a position cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    CellTwice(Cell),
    /// A disc or the mover has a colour nobody plays in this game.
    ColourNotInGame(Colour),
    /// More than three discs of one colour and size.
    TooManyDiscs {
        colour: Colour,
        size: Size,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::CellTwice(cell) => write!(f, "{cell} is given two stacks"),
            SetupError::ColourNotInGame(colour) => {
                write!(f, "nobody plays {colour} in this game")
            }
            SetupError::TooManyDiscs { colour, size } => write!(
                f,
                "{colour} has more than {DISCS_PER_SIZE} discs of size {size}"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// What anyone may see of the game: it has no hidden information. Cells, directions and
/// actions serialise in their notation (`c3`, `ne`), stacks as lists of discs, bottom first.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HanoiView {
    pub players: Players,
    /// Every stack on the board, in cell order.
    pub stacks: Vec<(Cell, Stack)>,
    /// Whose turn it is in the position, also after the game has ended.
    pub turn: Colour,
    /// The colour that must act now, or `None` once the game is over.
    pub to_move: Option<Colour>,
    /// The stack being split, while a split is under way.
    pub splitting: Option<Cell>,
    /// Turns completed so far (splits and passes).
    pub turns: u32,
    pub last_placement: Option<Placement>,
    pub outcome: Option<Outcome>,
}

/// A game of Hanoi: the board, whose turn it is, the split under way and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hanoi {
    players: Players,
    board: [Stack; CELL_COUNT],
    turn: Colour,
    /// The stack being split; `None` between turns.
    splitting: Option<Cell>,
    turns: u32,
    last_placement: Option<Placement>,
    outcome: Option<Outcome>,
}

impl Hanoi {
    /// A new game at the start position, White to move.
    pub fn new(config: &HanoiConfig) -> Hanoi {
        let mut board = [Stack::EMPTY; CELL_COUNT];
        for &(cell, colour) in config.players.start() {
            board[cell.index()] = Stack::tower(colour);
        }
        Hanoi::from_board(config.players, board, Colour::White)
    }

    /// A game from any position, `mover` to start a turn. Stacks need not hold every disc, so
    /// that small positions can be set up; none may hold more than the game has. The position
    /// is judged at once, so it may already be over.
    pub fn from_stacks(
        players: Players,
        mover: Colour,
        stacks: &[(Cell, Stack)],
    ) -> Result<Hanoi, SetupError> {
        let in_game = |colour: Colour| {
            if players.colours().contains(&colour) {
                Ok(())
            } else {
                Err(SetupError::ColourNotInGame(colour))
            }
        };
        in_game(mover)?;
        let mut board = [Stack::EMPTY; CELL_COUNT];
        let mut seen = [false; CELL_COUNT];
        for &(cell, stack) in stacks {
            if std::mem::replace(&mut seen[cell.index()], true) {
                return Err(SetupError::CellTwice(cell));
            }
            board[cell.index()] = stack;
        }
        for colour in Colour::ALL {
            for size in Size::largest_first() {
                let count = board
                    .iter()
                    .flat_map(Stack::discs)
                    .filter(|&&disc| disc == Disc { colour, size })
                    .count();
                if count > 0 {
                    in_game(colour)?;
                }
                if count > DISCS_PER_SIZE {
                    return Err(SetupError::TooManyDiscs { colour, size });
                }
            }
        }
        Ok(Hanoi::from_board(players, board, mover))
    }

    fn from_board(players: Players, board: [Stack; CELL_COUNT], mover: Colour) -> Hanoi {
        let mut game = Hanoi {
            players,
            board,
            turn: mover,
            splitting: None,
            turns: 0,
            last_placement: None,
            outcome: None,
        };
        game.outcome = Cell::all()
            .find_map(|cell| game.tower_outcome(cell))
            .or_else(|| game.judge_turn_start());
        game
    }

    pub fn players(&self) -> Players {
        self.players
    }

    pub fn stack(&self, cell: Cell) -> Stack {
        self.board[cell.index()]
    }

    /// Whose turn it is in the position, also after the game has ended.
    pub fn turn(&self) -> Colour {
        self.turn
    }

    /// The colour that must act now, or `None` once the game is over.
    pub fn to_move(&self) -> Option<Colour> {
        self.outcome.is_none().then_some(self.turn)
    }

    /// The stack being split, while a split is under way.
    pub fn splitting(&self) -> Option<Cell> {
        self.splitting
    }

    /// Turns completed so far (splits and passes).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn last_placement(&self) -> Option<Placement> {
        self.last_placement
    }

    /// Where the top disc of `from` would land moving `dir`, if that line is open to it.
    pub fn landing(&self, from: Cell, dir: Dir) -> Option<Cell> {
        let disc = self.stack(from).top()?;
        self.landing_of(disc.size, from, dir)
    }

    /// Where a disc of `size` leaving `from` along `dir` lands: on the closest stack topped by
    /// a disc one size larger, else on the furthest empty cell, passing over every other stack.
    fn landing_of(&self, size: Size, from: Cell, dir: Dir) -> Option<Cell> {
        let target = size.next_larger();
        let mut furthest_empty = None;
        for &cell in from.ray(dir) {
            match self.board[cell.index()].top() {
                None => furthest_empty = Some(cell),
                Some(top) if Some(top.size) == target => return Some(cell),
                Some(_) => {}
            }
        }
        furthest_empty
    }

    /// The lines open to the top disc of `from`, with where it lands on each.
    fn lines(&self, from: Cell) -> impl Iterator<Item = (Dir, Cell)> + '_ {
        let size = self.stack(from).top().map(|disc| disc.size);
        Dir::ALL
            .into_iter()
            .filter_map(move |dir| Some((dir, self.landing_of(size?, from, dir)?)))
    }

    fn can_move(&self, from: Cell) -> bool {
        self.lines(from).next().is_some()
    }

    /// The stacks `colour` could start a split from: theirs, with a top disc that can move.
    fn sources(&self, colour: Colour) -> impl Iterator<Item = Cell> + '_ {
        Cell::all()
            .filter(move |&cell| self.stack(cell).owner() == Some(colour) && self.can_move(cell))
    }

    fn has_move(&self, colour: Colour) -> bool {
        self.sources(colour).next().is_some()
    }

    /// Every legal action of the colour to move; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<HanoiAction> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let moves_from = |from| {
            self.lines(from)
                .map(move |(dir, _)| HanoiAction::Move { from, dir })
        };
        let moves: Vec<HanoiAction> = match self.splitting {
            Some(from) => moves_from(from).collect(),
            None => self.sources(self.turn).flat_map(moves_from).collect(),
        };
        if moves.is_empty() {
            // Only a three-player game reaches a turn with no move: a two-player game ends.
            vec![HanoiAction::Pass]
        } else {
            moves
        }
    }

    /// Checks and plays one action for the colour to move, then judges whether the turn or the
    /// game has ended. On error nothing changes.
    pub fn play_action(&mut self, action: &HanoiAction) -> Result<(), HanoiError> {
        if self.outcome.is_some() {
            return Err(HanoiError::GameOver);
        }
        match *action {
            HanoiAction::Pass => {
                if self.splitting.is_some() || self.has_move(self.turn) {
                    return Err(HanoiError::MustMove(self.turn));
                }
                self.end_turn();
            }
            HanoiAction::Move { from, dir } => {
                let placement = self.check_move(from, dir)?;
                self.place(placement);
            }
        }
        Ok(())
    }

    /// The placement `from`-`dir` makes, or why it is illegal.
    fn check_move(&self, from: Cell, dir: Dir) -> Result<Placement, HanoiError> {
        match self.splitting {
            Some(splitting) if splitting != from => {
                return Err(HanoiError::SplitUnfinished { splitting, from });
            }
            Some(_) => {}
            None => match self.stack(from).owner() {
                None => return Err(HanoiError::NoStack(from)),
                Some(owner) if owner != self.turn => {
                    return Err(HanoiError::NotYourStack { cell: from, owner });
                }
                Some(_) => {}
            },
        }
        // A split under way always has a disc left: the turn ends when its stack is gone.
        let disc = self.stack(from).top().ok_or(HanoiError::NoStack(from))?;
        if from.ray(dir).is_empty() {
            return Err(HanoiError::OffEdge { from, dir });
        }
        let to = self
            .landing_of(disc.size, from, dir)
            .ok_or(HanoiError::NoLanding { disc, from, dir })?;
        Ok(Placement {
            mover: self.turn,
            disc,
            from,
            dir,
            to,
            pinned: self.stack(to).top(),
        })
    }

    /// Moves the disc, then ends the game, the turn, or neither.
    fn place(&mut self, placement: Placement) {
        self.board[placement.from.index()].pop();
        // The landing was found by `landing_of`, which only picks cells the disc fits on.
        let pushed = self.board[placement.to.index()].try_push(placement.disc);
        debug_assert!(pushed.is_ok(), "{placement:?}");
        self.last_placement = Some(placement);
        if let Some(outcome) = self.tower_outcome(placement.to) {
            self.outcome = Some(outcome);
            self.splitting = None;
        } else if self.can_move(placement.from) {
            self.splitting = Some(placement.from);
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.splitting = None;
        self.turns += 1;
        self.turn = self.players.next(self.turn);
        self.outcome = self.judge_turn_start();
    }

    /// The end of the game at the start of a turn, if it has come (the rules' "End").
    fn judge_turn_start(&self) -> Option<Outcome> {
        let seats = self.players.count();
        if self.turns >= self.players.turn_limit() {
            return Some(Outcome::draw(seats, "turn_limit"));
        }
        if self.has_move(self.turn) {
            return None;
        }
        match self.players {
            Players::Two => Some(Outcome::win(
                self.players.next(self.turn).seat(),
                seats,
                "no_moves",
            )),
            // The player must pass. Play never leaves every player without a move (see the
            // rules doc), and a set-up position that does is ended by the turn limit.
            Players::Three => None,
        }
    }

    /// The result if the stack on `cell` is a finished tower: five discs, more than one
    /// colour. Five discs split among at most three colours either give one colour three or
    /// more, the majority, or split 2:2:1, where the seed awards the game to the single disc.
    fn tower_outcome(&self, cell: Cell) -> Option<Outcome> {
        let stack = self.stack(cell);
        if stack.height() < Stack::TALLEST {
            return None;
        }
        let colours = self.players.colours();
        let counts = || colours.iter().map(|&colour| (colour, stack.count(colour)));
        if counts().filter(|&(_, n)| n > 0).count() < 2 {
            return None;
        }
        let seats = self.players.count();
        if let Some((winner, _)) = counts().find(|&(_, n)| 2 * n > stack.height()) {
            return Some(Outcome::win(winner.seat(), seats, "tower_majority"));
        }
        let (minority, _) = counts().find(|&(_, n)| n == 1)?;
        Some(Outcome::win(minority.seat(), seats, "tower_minority"))
    }

    /// The board as rows `e` (top) to `a`, each cell as its name and its stack bottom first
    /// (`c3:W5B4`, `c3:.` when empty), rows shifted half a cell as on the hexagon; then a line
    /// saying whose turn it is or how the game ended.
    pub fn diagram(&self) -> String {
        const WIDTH: usize = 14;
        let mut out = String::new();
        for row in (0..5u8).rev() {
            let mut line = " ".repeat(usize::from(row.abs_diff(2)) * WIDTH / 2);
            for cell in Cell::all().filter(|cell| cell.row() == row) {
                let stack = self.stack(cell);
                let text = if stack.is_empty() {
                    format!("{cell}:.")
                } else {
                    format!("{cell}:{stack}")
                };
                line.push_str(&format!("{text:<WIDTH$}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        match (&self.outcome, self.splitting) {
            (Some(outcome), _) if outcome.is_draw() => {
                out.push_str(&format!("game over ({}): a draw\n", outcome.reason()));
            }
            (Some(outcome), _) => {
                let winners: Vec<&str> = outcome
                    .winners()
                    .iter()
                    .filter_map(Colour::of_seat)
                    .map(Colour::name)
                    .collect();
                out.push_str(&format!(
                    "game over ({}): {} wins\n",
                    outcome.reason(),
                    winners.join(" and ")
                ));
            }
            (None, Some(cell)) => out.push_str(&format!("{} is splitting {cell}\n", self.turn)),
            (None, None) => out.push_str(&format!("{} to move\n", self.turn)),
        }
        out
    }
}

impl Game for Hanoi {
    type Config = HanoiConfig;
    type Action = HanoiAction;
    type View = HanoiView;
    type Illegal = HanoiError;
    type ConfigError = Infallible;

    fn new(config: &HanoiConfig, _rng: &mut MatchRng) -> Result<Hanoi, Infallible> {
        Ok(Hanoi::new(config))
    }

    fn seat_count(&self) -> usize {
        self.players.count()
    }

    fn to_act(&self) -> SeatSet {
        self.to_move()
            .map_or(SeatSet::EMPTY, |colour| SeatSet::single(colour.seat()))
    }

    fn acting_actions(&self, _seat: Seat) -> Vec<HanoiAction> {
        self.legal_moves()
    }

    // `play` has checked that `seat` is the one to move, and the stack's owner is checked
    // against the colour to move, so the seat itself is not needed here.
    fn apply(
        &mut self,
        _seat: Seat,
        action: &HanoiAction,
        _rng: &mut MatchRng,
    ) -> Result<(), HanoiError> {
        self.play_action(action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, _viewer: Viewer) -> HanoiView {
        HanoiView {
            players: self.players,
            stacks: Cell::all()
                .map(|cell| (cell, self.stack(cell)))
                .filter(|(_, stack)| !stack.is_empty())
                .collect(),
            turn: self.turn,
            to_move: self.to_move(),
            splitting: self.splitting,
            turns: self.turns,
            last_placement: self.last_placement,
            outcome: self.outcome.clone(),
        }
    }
}

impl Catalog for Hanoi {
    const ID: &'static str = "hanoi";
    const NAME: &'static str = "Hanoi";

    fn seat_name(seat: Seat) -> Option<&'static str> {
        Colour::of_seat(seat).map(Colour::name)
    }

    /// One variant: the seed's two- and three-player games differ only by the number of
    /// players, which the seat count already says.
    fn variants() -> &'static [&'static str] {
        &["standard"]
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        2..=3
    }

    fn config(variant: &str, seats: usize) -> Result<HanoiConfig, CatalogError> {
        check_variant::<Hanoi>(variant, seats)?;
        let players = Players::from_count(seats)
            .ok_or_else(|| CatalogError(format!("hanoi is played by 2 or 3, not {seats}")))?;
        Ok(HanoiConfig { players })
    }

    fn read_action(&self, text: &str) -> Result<HanoiAction, impl fmt::Display> {
        HanoiAction::parse(text)
    }

    /// Nothing is hidden: the view ignores its viewer.
    fn same_view_for_all(&self) -> bool {
        true
    }

    fn action_text(&self, action: &HanoiAction) -> String {
        action.to_string()
    }

    fn render(&self) -> String {
        self.diagram()
    }
}
