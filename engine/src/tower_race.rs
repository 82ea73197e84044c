//! The Tower of Hanoi race (seed 000), a dice race of nesting pyramids along spiral paths: the
//! rules are `docs/rules/tower-race.md`.
//!
//! Seat 0 starts and play goes in seat order. The engine rolls the die from the match RNG; a
//! challenged seat acts out of turn, alone in [`Game::to_act`]. Nothing is hidden: every viewer
//! gets the same [`TowerRaceView`].

mod action;
mod ai;
mod board;
mod view;

use std::fmt;
use std::ops::RangeInclusive;

pub use action::{Die, Expected, MAX_PYRAMIDS, Pyramid, Size, TowerRaceAction};
pub use board::{Board, Tile};
pub use view::{SeatView, TowerRaceView};

use serde::Serialize;

use action::{SEATS, SizeSet};
use board::{Layout, MAX_TILES};

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Explain, Game, MAX_SEATS, Outcome, Seat, SeatSet, Viewer, Why};
use crate::notation::NotationError;
use crate::rng::MatchRng;

/// Turns per seat after which a game nobody has won ends. Challenges can send pyramids home
/// again and again, so without a cap a game need not end. Random play finishes the median basic
/// game in about 50 rounds and the median advanced game in 140 to 220; fewer than 1% of random
/// advanced games reach the cap.
pub const MAX_ROUNDS: u32 = 500;

/// Bits of the pyramids bigger than a size in a tile's occupants (see [`Pyramid::bit`]).
const BIGGER: [u32; MAX_PYRAMIDS] = [0xFFFF_FF00, 0xFFFF_0000, 0xFF00_0000, 0];

/// Bits of one seat's pyramids in a tile's occupants.
const fn seat_bits(seat: Seat) -> u32 {
    0x0101_0101 << seat.index()
}

/// Which board and how many players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TowerRaceConfig {
    pub board: Board,
    pub seats: usize,
}

/// Why a configuration or a set-up position cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Seats {
        board: Board,
        seats: usize,
    },
    /// The setup lists pyramids for a different number of seats.
    SeatLists {
        expected: usize,
        found: usize,
    },
    /// The setup gives a seat a different number of pyramids.
    PyramidList {
        seat: Seat,
        expected: u8,
        found: usize,
    },
    /// A pyramid is placed on a tile the board does not have.
    OffBoard {
        pyramid: Pyramid,
        tile: Tile,
    },
    /// A pyramid is placed on the centre tile as a stack tile: the centre is the End-tile.
    OnEndTile {
        pyramid: Pyramid,
    },
    /// Two pyramids of one size share a tile that is not a safe zone.
    SameSize {
        tile: Tile,
        first: Pyramid,
        second: Pyramid,
    },
    /// A pyramid is in the End-tile before a smaller one of its owner.
    EndOrder {
        pyramid: Pyramid,
        missing: Size,
    },
    NoSuchSeat(Seat),
    /// A seat is set to have refused the last challenge on a board where nobody may refuse.
    NoRefusals(Seat),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Seats { board, seats } => {
                let (least, most) = board.seat_range();
                write!(
                    f,
                    "the {board} game is played by {least} to {most} players, not {seats}"
                )
            }
            SetupError::SeatLists { expected, found } => {
                write!(f, "expected pyramids for {expected} seats, found {found}")
            }
            SetupError::PyramidList {
                seat,
                expected,
                found,
            } => write!(f, "{seat} needs {expected} pyramids, found {found}"),
            SetupError::OffBoard { pyramid, tile } => {
                write!(f, "{pyramid} is placed on {tile}, which is off the board")
            }
            SetupError::OnEndTile { pyramid } => write!(
                f,
                "{pyramid} is placed on the centre as a tile; the centre is the End-tile"
            ),
            SetupError::SameSize {
                tile,
                first,
                second,
            } => write!(
                f,
                "{first} and {second} are the same size and both on {tile}"
            ),
            SetupError::EndOrder { pyramid, missing } => write!(
                f,
                "{pyramid} is in the End-tile but its pyramid {missing} is not"
            ),
            SetupError::NoSuchSeat(seat) => write!(f, "there is no {seat} in this game"),
            SetupError::NoRefusals(seat) => write!(
                f,
                "{seat} is set to have refused a challenge, but this board allows no refusals"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Where a pyramid is. Serialises as `"home"`, `"end"` or the tile's name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// In its owner's home stack beside the start tile, not yet on the board (or sent back).
    Home,
    Tile(Tile),
    /// In the End-tile, finished.
    End,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Home => f.write_str("home"),
            Place::Tile(tile) => write!(f, "{tile}"),
            Place::End => f.write_str("the End-tile"),
        }
    }
}

impl Serialize for Place {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Place::Home => serializer.serialize_str("home"),
            Place::Tile(tile) => tile.serialize(serializer),
            Place::End => serializer.serialize_str("end"),
        }
    }
}

/// Seats serialise as their numbers.
fn seat_number<S: serde::Serializer>(seat: &Seat, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(seat.index() as u64)
}

/// Why a challenge is posed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeKind {
    /// The challenger's pyramid would move onto the tile, whose top is the challenged pyramid of
    /// the same size (constraint 6).
    Landing,
    /// The challenger's pyramid on the tile is captured by the challenged one stacked over it
    /// (constraint 5).
    Release,
}

/// A challenge between two pyramids over one tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Challenge {
    pub kind: ChallengeKind,
    pub challenger: Pyramid,
    pub challenged: Pyramid,
    pub tile: Tile,
}

impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Challenge {
            challenger,
            challenged,
            tile,
            ..
        } = self;
        match self.kind {
            ChallengeKind::Landing => write!(f, "{challenger} challenges {challenged} for {tile}"),
            ChallengeKind::Release => write!(
                f,
                "{challenger}, captured on {tile}, challenges {challenged}"
            ),
        }
    }
}

/// How a challenge was answered.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Refused,
    /// Both rolled, challenger's roll first, until the rolls differed (so only the last pair
    /// differs); the higher roll won and the loser's pyramid went home.
    Played {
        rolls: Vec<(Die, Die)>,
        #[serde(serialize_with = "seat_number")]
        winner: Seat,
    },
}

/// The last challenge and how it ended, for clients to show the rolls.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ChallengeReport {
    pub challenge: Challenge,
    pub answer: Answer,
}

/// A turn's roll and whose turn it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TurnRoll {
    #[serde(serialize_with = "seat_number")]
    pub seat: Seat,
    pub roll: Die,
}

/// Who must act now, and what they must do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// `seat` has rolled `roll` and must move a pyramid by exactly that many tiles, or pass when
    /// none can.
    Move {
        #[serde(serialize_with = "seat_number")]
        seat: Seat,
        roll: Die,
    },
    /// `seat` has moved and may challenge an opponent's pyramid that captures one of its own, or
    /// wait.
    Challenge {
        #[serde(serialize_with = "seat_number")]
        seat: Seat,
    },
    /// The challenged seat must answer.
    Answer(Challenge),
    Over,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Move { seat, roll } => {
                write!(
                    f,
                    "{seat} has rolled {roll} and must move a pyramid or pass"
                )
            }
            Stage::Challenge { seat } => write!(f, "{seat} may challenge a captor or wait"),
            Stage::Answer(challenge) => {
                write!(f, "{} must answer: {challenge}", challenge.challenged.seat)
            }
            Stage::Over => f.write_str("the game is over"),
        }
    }
}

/// Why an action cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TowerRaceError {
    /// The notation has the wrong character (or ends) at character `at`, counting from 1.
    Notation(NotationError<Expected>),
    /// A tile name that is not on a board with `side` tiles per side.
    NoSuchTile {
        name: String,
        side: u8,
    },
    GameOver,
    /// `seat` is not the one that must act now.
    NotToAct {
        seat: Seat,
        stage: Stage,
    },
    /// The action is not one of the kind the current stage asks for.
    WrongTime {
        action: TowerRaceAction,
        stage: Stage,
    },
    NoSuchPyramid {
        size: Size,
        pyramids: u8,
    },
    Finished(Pyramid),
    /// A pyramid in the home stack is covered by a bigger one that must enter first.
    StillCovered {
        pyramid: Pyramid,
        by: Size,
    },
    Captured {
        pyramid: Pyramid,
        tile: Tile,
        by: Pyramid,
    },
    /// The roll is more than the tiles left to the End-tile.
    Overshoot {
        pyramid: Pyramid,
        roll: Die,
        needed: u8,
    },
    /// A smaller pyramid of the owner must enter the End-tile first.
    EndOrder {
        pyramid: Pyramid,
        first: Size,
    },
    /// The tile the roll leads to has a bigger pyramid on top.
    Blocked {
        pyramid: Pyramid,
        tile: Tile,
        by: Pyramid,
    },
    /// This landing challenge was refused already this turn.
    AlreadyRefused {
        pyramid: Pyramid,
        tile: Tile,
        by: Pyramid,
    },
    /// A pass while this pyramid can move.
    MustMove {
        pyramid: Pyramid,
        roll: Die,
    },
    /// No opponent's pyramid of size `theirs` is stacked over the challenger's pyramid `mine`.
    NoCaptor {
        mine: Pyramid,
        theirs: Size,
    },
    NoRefusals,
    /// The seat refused the last challenge posed to it.
    RefusedLast(Seat),
}

impl fmt::Display for TowerRaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TowerRaceError::Notation(e) => e.fmt(f),
            TowerRaceError::NoSuchTile { name, side } => {
                write!(f, "'{name}' is not a tile of the {side}x{side} board")
            }
            TowerRaceError::GameOver => f.write_str("the game is over"),
            TowerRaceError::NotToAct { seat, stage } => {
                write!(f, "{seat} may not act now: {stage}")
            }
            TowerRaceError::WrongTime { action, stage } => {
                write!(f, "'{action}' is not possible now: {stage}")
            }
            TowerRaceError::NoSuchPyramid { size, pyramids } => write!(
                f,
                "there is no pyramid {size}: players have pyramids 1 to {pyramids}"
            ),
            TowerRaceError::Finished(pyramid) => {
                write!(f, "{pyramid} is already in the End-tile")
            }
            TowerRaceError::StillCovered { pyramid, by } => write!(
                f,
                "{pyramid} is still covered by pyramid {by} in the home stack, which enters first"
            ),
            TowerRaceError::Captured { pyramid, tile, by } => {
                write!(f, "{pyramid} is captured on {tile} by {by}")
            }
            TowerRaceError::Overshoot {
                pyramid,
                roll,
                needed,
            } => write!(
                f,
                "{pyramid} is {needed} tiles from the End-tile and must enter it exactly, not with a {roll}"
            ),
            TowerRaceError::EndOrder { pyramid, first } => write!(
                f,
                "{pyramid} cannot enter the End-tile before its pyramid {first}"
            ),
            TowerRaceError::Blocked { pyramid, tile, by } => {
                write!(f, "{pyramid} cannot move onto {tile}: {by} there is bigger")
            }
            TowerRaceError::AlreadyRefused { pyramid, tile, by } => write!(
                f,
                "{} has already refused the challenge of {pyramid} for {tile} this turn",
                by.seat
            ),
            TowerRaceError::MustMove { pyramid, roll } => {
                write!(f, "no pass while {pyramid} can move {roll}")
            }
            TowerRaceError::NoCaptor { mine, theirs } => {
                write!(f, "no opponent's pyramid {theirs} is stacked over {mine}")
            }
            TowerRaceError::NoRefusals => {
                f.write_str("a challenge cannot be refused in the basic game")
            }
            TowerRaceError::RefusedLast(seat) => write!(
                f,
                "{seat} refused the last challenge and may not refuse two in a row"
            ),
        }
    }
}

impl std::error::Error for TowerRaceError {}

impl Explain for TowerRaceError {
    fn why(&self) -> Why {
        match self {
            TowerRaceError::Notation(e) => Why::new("notation").with("at", e.at),
            TowerRaceError::NoSuchTile { name, side } => Why::new("no_such_tile")
                .with("name", name)
                .with("side", side),
            TowerRaceError::GameOver => Why::new("game_over"),
            TowerRaceError::NotToAct { seat, stage } => Why::new("not_to_act")
                .with("seat", seat)
                .with("stage", stage),
            TowerRaceError::WrongTime { action, stage } => Why::new("wrong_time")
                .with("action", action)
                .with("stage", stage),
            TowerRaceError::NoSuchPyramid { size, pyramids } => Why::new("no_such_pyramid")
                .with("size", size)
                .with("pyramids", pyramids),
            TowerRaceError::Finished(pyramid) => Why::new("finished").with("pyramid", pyramid),
            TowerRaceError::StillCovered { pyramid, by } => Why::new("still_covered")
                .with("pyramid", pyramid)
                .with("by", by),
            TowerRaceError::Captured { pyramid, tile, by } => Why::new("captured")
                .with("pyramid", pyramid)
                .with("tile", tile)
                .with("by", by),
            TowerRaceError::Overshoot {
                pyramid,
                roll,
                needed,
            } => Why::new("overshoot")
                .with("pyramid", pyramid)
                .with("roll", roll)
                .with("needed", needed),
            TowerRaceError::EndOrder { pyramid, first } => Why::new("end_order")
                .with("pyramid", pyramid)
                .with("first", first),
            TowerRaceError::Blocked { pyramid, tile, by } => Why::new("bigger_on_tile")
                .with("pyramid", pyramid)
                .with("tile", tile)
                .with("by", by),
            TowerRaceError::AlreadyRefused { pyramid, tile, by } => Why::new("already_refused")
                .with("pyramid", pyramid)
                .with("tile", tile)
                .with("by", by),
            TowerRaceError::MustMove { pyramid, roll } => Why::new("pyramid_can_move")
                .with("pyramid", pyramid)
                .with("roll", roll),
            TowerRaceError::NoCaptor { mine, theirs } => Why::new("no_captor")
                .with("mine", mine)
                .with("theirs", theirs),
            TowerRaceError::NoRefusals => Why::new("no_refusals"),
            TowerRaceError::RefusedLast(seat) => Why::new("refused_last").with("seat", seat),
        }
    }
}

/// A position to start from, for tests and analysis: where every pyramid is, who is to move with
/// which roll, and the refusal penalties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// `places[seat][size - 1]`.
    pub places: Vec<Vec<Place>>,
    pub to_move: Seat,
    pub roll: Die,
    /// The seats that will lose their next turn for refusing a challenge.
    pub loses_next_turn: SeatSet,
    /// The seats that refused the last challenge posed to them.
    pub refused_last: SeatSet,
}

impl Setup {
    /// Every pyramid at home, seat 0 to move with `roll`, no penalties.
    pub fn new(config: &TowerRaceConfig, roll: Die) -> Setup {
        Setup {
            places: vec![vec![Place::Home; usize::from(config.board.pyramids())]; config.seats],
            to_move: SEATS[0],
            roll,
            loses_next_turn: SeatSet::EMPTY,
            refused_last: SeatSet::EMPTY,
        }
    }
}

/// The internal form of [`Stage`], with what a challenge must remember to resume the turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// `refused` holds the sizes whose landing challenge was refused this turn.
    Moving {
        seat: Seat,
        roll: Die,
        refused: SizeSet,
    },
    Challenging {
        seat: Seat,
    },
    Answering {
        challenge: Challenge,
        resume: Resume,
    },
    Over,
}

/// How the challenger's turn goes on once a challenge is answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Resume {
    /// A landing challenge, made as the move: accepted, the turn goes on as after a move; refused,
    /// the challenger moves again with the same roll, the refused sizes barred.
    Move { roll: Die, refused: SizeSet },
    /// A release challenge, made at the end of the turn: answered, the turn ends.
    EndTurn,
}

/// Where a move takes a pyramid.
enum MoveTo {
    /// To this progress (see [`TowerRace::progress`]), onto an empty, smaller or safe tile, or
    /// into the End-tile.
    Free(u8),
    /// Onto this same-size opponent's pyramid, by challenging it.
    Contest(Pyramid),
}

/// A game of the Tower of Hanoi race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TowerRace {
    layout: &'static Layout,
    seats: usize,
    /// Each seat's start tile, as an index into the layout's start tiles.
    start: [u8; MAX_SEATS],
    /// `progress[seat][size - 1]`: how far along its path a pyramid is. 0 is the home stack, `k`
    /// the `k`-th tile of the path (1 the start tile), `layout.tiles` the End-tile.
    progress: [[u8; MAX_PYRAMIDS]; MAX_SEATS],
    /// Each tile's pyramids, one [`Pyramid::bit`] each. On a tile that is not safe the sizes
    /// differ, so the bits in size order are the stack from the bottom.
    occupants: [u32; MAX_TILES],
    /// Seats that refused a challenge since their last turn.
    loses_next_turn: SeatSet,
    refused_last: SeatSet,
    phase: Phase,
    last_roll: Option<TurnRoll>,
    last_challenge: Option<ChallengeReport>,
    /// Turns finished, played or lost.
    turns: u32,
    outcome: Option<Outcome>,
}

impl TowerRace {
    /// A game from an explicit position. It is judged at once, so a seat with every pyramid in
    /// the End-tile has already won.
    pub fn from_setup(config: &TowerRaceConfig, setup: &Setup) -> Result<TowerRace, SetupError> {
        let mut game = TowerRace::empty(config)?;
        let layout = game.layout;
        if setup.places.len() != config.seats {
            return Err(SetupError::SeatLists {
                expected: config.seats,
                found: setup.places.len(),
            });
        }
        for (seat, places) in SEATS.iter().zip(&setup.places) {
            if places.len() != usize::from(layout.pyramids) {
                return Err(SetupError::PyramidList {
                    seat: *seat,
                    expected: layout.pyramids,
                    found: places.len(),
                });
            }
            for (size, place) in Size::up_to(layout.pyramids).zip(places) {
                let pyramid = Pyramid { seat: *seat, size };
                let progress = game.progress_at(pyramid, *place)?;
                game.put(pyramid, progress);
            }
        }
        for tile in 0..layout.tiles {
            let stack = game.occupants[usize::from(tile)];
            if layout.is_safe(tile) {
                continue;
            }
            for size in 0..MAX_PYRAMIDS as u32 {
                let same = (stack >> (size * 8)) & 0xFF;
                if same.count_ones() > 1 {
                    return Err(SetupError::SameSize {
                        tile: layout.tile(tile),
                        first: Pyramid::from_bit(size * 8 + same.trailing_zeros()),
                        second: Pyramid::from_bit(size * 8 + 31 - same.leading_zeros()),
                    });
                }
            }
        }
        for seat in game.seat_list() {
            let mut missing = None;
            for size in Size::up_to(layout.pyramids) {
                let pyramid = Pyramid { seat, size };
                match (game.progress(pyramid) == layout.tiles, missing) {
                    (true, Some(missing)) => {
                        return Err(SetupError::EndOrder { pyramid, missing });
                    }
                    (false, None) => missing = Some(size),
                    _ => {}
                }
            }
        }
        if setup.to_move.index() >= config.seats {
            return Err(SetupError::NoSuchSeat(setup.to_move));
        }
        for seat in setup
            .refused_last
            .iter()
            .chain(setup.loses_next_turn.iter())
        {
            if seat.index() >= config.seats {
                return Err(SetupError::NoSuchSeat(seat));
            }
            if !config.board.refusals_allowed() {
                return Err(SetupError::NoRefusals(seat));
            }
        }
        game.refused_last = setup.refused_last;
        game.loses_next_turn = setup.loses_next_turn;
        game.phase = Phase::Moving {
            seat: setup.to_move,
            roll: setup.roll,
            refused: SizeSet::default(),
        };
        game.last_roll = Some(TurnRoll {
            seat: setup.to_move,
            roll: setup.roll,
        });
        if let Some(winner) = game.seat_list().find(|&seat| game.all_in(seat)) {
            game.win(winner);
        }
        Ok(game)
    }

    /// A game with every pyramid at home and nobody to move yet.
    fn empty(config: &TowerRaceConfig) -> Result<TowerRace, SetupError> {
        let (least, most) = config.board.seat_range();
        if !(least..=most).contains(&config.seats) {
            return Err(SetupError::Seats {
                board: config.board,
                seats: config.seats,
            });
        }
        let layout = config.board.layout();
        let mut start = [0; MAX_SEATS];
        for (slot, chosen) in start.iter_mut().zip(layout.starts_for(config.seats)) {
            *slot = chosen;
        }
        Ok(TowerRace {
            layout,
            seats: config.seats,
            start,
            progress: [[0; MAX_PYRAMIDS]; MAX_SEATS],
            occupants: [0; MAX_TILES],
            loses_next_turn: SeatSet::EMPTY,
            refused_last: SeatSet::EMPTY,
            phase: Phase::Over,
            last_roll: None,
            last_challenge: None,
            turns: 0,
            outcome: None,
        })
    }

    pub fn board(&self) -> Board {
        self.layout.board
    }

    /// The seats of this game, in order of play.
    pub fn seat_list(&self) -> impl Iterator<Item = Seat> + use<> {
        SEATS.into_iter().take(self.seats)
    }

    /// Every pyramid of a seat, smallest first.
    fn pyramids_of(&self, seat: Seat) -> impl Iterator<Item = Pyramid> + use<> {
        Size::up_to(self.layout.pyramids).map(move |size| Pyramid { seat, size })
    }

    /// `seat`'s path, start tile first, the End-tile (the centre) last.
    pub fn path(&self, seat: Seat) -> Vec<Tile> {
        (1..=self.layout.tiles)
            .map(|progress| self.layout.tile(self.path_index(seat, progress)))
            .collect()
    }

    /// `seat`'s start tile.
    pub fn start_tile(&self, seat: Seat) -> Tile {
        self.layout.tile(self.path_index(seat, 1))
    }

    /// The tiles that are safe zones.
    pub fn safe_tiles(&self) -> Vec<Tile> {
        (0..self.layout.tiles)
            .filter(|&tile| self.layout.is_safe(tile))
            .map(|tile| self.layout.tile(tile))
            .collect()
    }

    /// The End-tile, the centre of the board.
    pub fn end_tile(&self) -> Tile {
        self.layout.tile(self.layout.center())
    }

    pub fn place(&self, pyramid: Pyramid) -> Place {
        match self.tile_of(pyramid) {
            Some(tile) => Place::Tile(self.layout.tile(tile)),
            None if self.progress(pyramid) == 0 => Place::Home,
            None => Place::End,
        }
    }

    /// The pyramids on a tile, from the bottom of the stack up (on a safe zone, smallest first).
    pub fn stack(&self, tile: Tile) -> Vec<Pyramid> {
        if tile.file() >= self.layout.side || tile.rank() >= self.layout.side {
            return Vec::new();
        }
        pyramids_in(self.occupants[usize::from(tile.index(self.layout.side))]).collect()
    }

    /// Who must act now, and what they must do.
    pub fn stage(&self) -> Stage {
        match self.phase {
            Phase::Moving { seat, roll, .. } => Stage::Move { seat, roll },
            Phase::Challenging { seat } => Stage::Challenge { seat },
            Phase::Answering { challenge, .. } => Stage::Answer(challenge),
            Phase::Over => Stage::Over,
        }
    }

    /// The most recent turn roll and whose it was.
    pub fn last_roll(&self) -> Option<TurnRoll> {
        self.last_roll
    }

    pub fn last_challenge(&self) -> Option<&ChallengeReport> {
        self.last_challenge.as_ref()
    }

    /// Turns finished so far, played or lost; the game ends at [`TowerRace::turn_limit`].
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn turn_limit(&self) -> u32 {
        MAX_ROUNDS * self.seats as u32
    }

    /// Whether `seat` will lose its next turn for refusing a challenge.
    pub fn loses_next_turn(&self, seat: Seat) -> bool {
        self.loses_next_turn.contains(seat)
    }

    /// Whether `seat` could refuse a challenge posed now.
    pub fn may_refuse(&self, seat: Seat) -> bool {
        self.layout.board.refusals_allowed() && !self.refused_last.contains(seat)
    }

    fn progress(&self, pyramid: Pyramid) -> u8 {
        self.progress[pyramid.seat.index()][pyramid.size.index()]
    }

    /// The tile index counted `progress` (1 to `tiles`) along `seat`'s path.
    fn path_index(&self, seat: Seat, progress: u8) -> u8 {
        self.layout.path_tile(self.start[seat.index()], progress)
    }

    /// The tile index a pyramid stands on, if it is on the board.
    fn tile_of(&self, pyramid: Pyramid) -> Option<u8> {
        let progress = self.progress(pyramid);
        (1..self.layout.tiles)
            .contains(&progress)
            .then(|| self.path_index(pyramid.seat, progress))
    }

    /// The progress that puts `pyramid` at `place`.
    fn progress_at(&self, pyramid: Pyramid, place: Place) -> Result<u8, SetupError> {
        let tile = match place {
            Place::Home => return Ok(0),
            Place::End => return Ok(self.layout.tiles),
            Place::Tile(tile) => tile,
        };
        if tile.file() >= self.layout.side || tile.rank() >= self.layout.side {
            return Err(SetupError::OffBoard { pyramid, tile });
        }
        let index = tile.index(self.layout.side);
        if index == self.layout.center() {
            return Err(SetupError::OnEndTile { pyramid });
        }
        // Every path covers every tile, so the tile is found.
        Ok((1..self.layout.tiles)
            .find(|&progress| self.path_index(pyramid.seat, progress) == index)
            .unwrap_or(0))
    }

    /// Moves a pyramid to a new progress, keeping the tiles' occupants in step.
    fn put(&mut self, pyramid: Pyramid, progress: u8) {
        if let Some(tile) = self.tile_of(pyramid) {
            self.occupants[usize::from(tile)] &= !pyramid.bit();
        }
        self.progress[pyramid.seat.index()][pyramid.size.index()] = progress;
        if let Some(tile) = self.tile_of(pyramid) {
            self.occupants[usize::from(tile)] |= pyramid.bit();
        }
    }

    /// The tile of a captured pyramid and the bits of the pyramids stacked over it; `None` when
    /// nothing is (off the board, on a safe zone, or on top of its stack).
    fn above(&self, pyramid: Pyramid) -> Option<(u8, u32)> {
        let tile = self.tile_of(pyramid).filter(|&t| !self.layout.is_safe(t))?;
        let bits = self.occupants[usize::from(tile)] & BIGGER[pyramid.size.index()];
        (bits != 0).then_some((tile, bits))
    }

    fn all_in(&self, seat: Seat) -> bool {
        self.pyramids_of(seat)
            .all(|pyramid| self.progress(pyramid) == self.layout.tiles)
    }

    /// Whether players have a pyramid of this size in this game.
    fn check_size(&self, size: Size) -> Result<(), TowerRaceError> {
        if size.get() > self.layout.pyramids {
            return Err(TowerRaceError::NoSuchPyramid {
                size,
                pyramids: self.layout.pyramids,
            });
        }
        Ok(())
    }

    /// Where `pyramid` may move with `roll`, or why it may not (constraints 2 to 11).
    fn check_move(
        &self,
        pyramid: Pyramid,
        roll: Die,
        refused: SizeSet,
    ) -> Result<MoveTo, TowerRaceError> {
        let layout = self.layout;
        self.check_size(pyramid.size)?;
        let from = self.progress(pyramid);
        if from == layout.tiles {
            return Err(TowerRaceError::Finished(pyramid));
        }
        if from == 0 {
            // The home stack is nested: the biggest pyramid at home covers the others.
            let biggest_home = self
                .pyramids_of(pyramid.seat)
                .filter(|&p| self.progress(p) == 0)
                .last();
            if let Some(cover) = biggest_home.filter(|cover| cover.size > pyramid.size) {
                return Err(TowerRaceError::StillCovered {
                    pyramid,
                    by: cover.size,
                });
            }
        }
        if let Some((tile, above)) = self.above(pyramid) {
            return Err(TowerRaceError::Captured {
                pyramid,
                tile: layout.tile(tile),
                // The lowest of the pyramids above, the one directly over it.
                by: Pyramid::from_bit(above.trailing_zeros()),
            });
        }
        let to = from + roll.get();
        if to > layout.tiles {
            return Err(TowerRaceError::Overshoot {
                pyramid,
                roll,
                needed: layout.tiles - from,
            });
        }
        if to == layout.tiles {
            let first = self
                .pyramids_of(pyramid.seat)
                .take_while(|p| p.size < pyramid.size)
                .find(|&p| self.progress(p) != layout.tiles);
            return match first {
                Some(first) => Err(TowerRaceError::EndOrder {
                    pyramid,
                    first: first.size,
                }),
                None => Ok(MoveTo::Free(to)),
            };
        }
        let tile = self.path_index(pyramid.seat, to);
        let occupants = self.occupants[usize::from(tile)];
        if layout.is_safe(tile) || occupants == 0 {
            return Ok(MoveTo::Free(to));
        }
        let top = Pyramid::from_bit(31 - occupants.leading_zeros());
        let tile = layout.tile(tile);
        match top.size.cmp(&pyramid.size) {
            std::cmp::Ordering::Less => Ok(MoveTo::Free(to)),
            std::cmp::Ordering::Greater => Err(TowerRaceError::Blocked {
                pyramid,
                tile,
                by: top,
            }),
            std::cmp::Ordering::Equal if refused.contains(pyramid.size) => {
                Err(TowerRaceError::AlreadyRefused {
                    pyramid,
                    tile,
                    by: top,
                })
            }
            std::cmp::Ordering::Equal => Ok(MoveTo::Contest(top)),
        }
    }

    /// The challenges `seat` may pose at the end of its turn: each of its captured pyramids
    /// against each opponent's pyramid stacked over it.
    fn release_challenges(&self, seat: Seat) -> impl Iterator<Item = Challenge> + '_ {
        self.pyramids_of(seat).flat_map(move |mine| {
            let (tile, above) = self.above(mine).unwrap_or_default();
            pyramids_in(above & !seat_bits(seat)).map(move |theirs| Challenge {
                kind: ChallengeKind::Release,
                challenger: mine,
                challenged: theirs,
                tile: self.layout.tile(tile),
            })
        })
    }

    /// The legal actions of the seat that must act.
    fn actions(&self) -> Vec<TowerRaceAction> {
        match self.phase {
            Phase::Moving {
                seat,
                roll,
                refused,
            } => {
                let moves: Vec<TowerRaceAction> = self
                    .pyramids_of(seat)
                    .filter(|&p| self.check_move(p, roll, refused).is_ok())
                    .map(|p| TowerRaceAction::Move(p.size))
                    .collect();
                if moves.is_empty() {
                    vec![TowerRaceAction::Pass]
                } else {
                    moves
                }
            }
            Phase::Challenging { seat } => self
                .release_challenges(seat)
                .map(|challenge| TowerRaceAction::Challenge {
                    mine: challenge.challenger.size,
                    theirs: challenge.challenged.size,
                })
                .chain([TowerRaceAction::Wait])
                .collect(),
            Phase::Answering { challenge, .. } => {
                if self.may_refuse(challenge.challenged.seat) {
                    vec![TowerRaceAction::Accept, TowerRaceAction::Refuse]
                } else {
                    vec![TowerRaceAction::Accept]
                }
            }
            Phase::Over => Vec::new(),
        }
    }

    /// The seat that must act, if the game is not over.
    fn actor(&self) -> Option<Seat> {
        match self.phase {
            Phase::Moving { seat, .. } | Phase::Challenging { seat } => Some(seat),
            Phase::Answering { challenge, .. } => Some(challenge.challenged.seat),
            Phase::Over => None,
        }
    }

    /// Checks and plays one action by `seat`. Nothing changes (not even the RNG) on error.
    pub fn play_action(
        &mut self,
        seat: Seat,
        action: TowerRaceAction,
        rng: &mut MatchRng,
    ) -> Result<(), TowerRaceError> {
        let stage = self.stage();
        match self.actor() {
            None => return Err(TowerRaceError::GameOver),
            Some(actor) if actor != seat => return Err(TowerRaceError::NotToAct { seat, stage }),
            Some(_) => {}
        }
        match (self.phase, action) {
            (Phase::Moving { roll, refused, .. }, TowerRaceAction::Move(size)) => {
                let pyramid = Pyramid { seat, size };
                match self.check_move(pyramid, roll, refused)? {
                    MoveTo::Free(to) => {
                        self.put(pyramid, to);
                        if self.all_in(seat) {
                            self.win(seat);
                        } else {
                            self.after_move(seat, rng);
                        }
                    }
                    MoveTo::Contest(challenged) => {
                        let tile = self.path_index(seat, self.progress(pyramid) + roll.get());
                        self.phase = Phase::Answering {
                            challenge: Challenge {
                                kind: ChallengeKind::Landing,
                                challenger: pyramid,
                                challenged,
                                tile: self.layout.tile(tile),
                            },
                            resume: Resume::Move { roll, refused },
                        };
                    }
                }
            }
            (Phase::Moving { roll, refused, .. }, TowerRaceAction::Pass) => {
                if let Some(pyramid) = self
                    .pyramids_of(seat)
                    .find(|&p| self.check_move(p, roll, refused).is_ok())
                {
                    return Err(TowerRaceError::MustMove { pyramid, roll });
                }
                if self.frozen() {
                    self.finish_ranked("stalemate");
                } else {
                    self.after_move(seat, rng);
                }
            }
            (Phase::Challenging { .. }, TowerRaceAction::Challenge { mine, theirs }) => {
                self.check_size(mine)?;
                self.check_size(theirs)?;
                let mine = Pyramid { seat, size: mine };
                let challenge = self
                    .release_challenges(seat)
                    .find(|c| c.challenger == mine && c.challenged.size == theirs)
                    .ok_or(TowerRaceError::NoCaptor { mine, theirs })?;
                self.phase = Phase::Answering {
                    challenge,
                    resume: Resume::EndTurn,
                };
            }
            (Phase::Challenging { .. }, TowerRaceAction::Wait) => self.end_turn(seat, rng),
            (Phase::Answering { challenge, resume }, TowerRaceAction::Accept) => {
                self.play_challenge(challenge, resume, rng);
            }
            (Phase::Answering { challenge, resume }, TowerRaceAction::Refuse) => {
                if !self.layout.board.refusals_allowed() {
                    return Err(TowerRaceError::NoRefusals);
                }
                if self.refused_last.contains(seat) {
                    return Err(TowerRaceError::RefusedLast(seat));
                }
                self.refused_last.insert(seat);
                self.loses_next_turn.insert(seat);
                self.last_challenge = Some(ChallengeReport {
                    challenge,
                    answer: Answer::Refused,
                });
                let challenger = challenge.challenger;
                match resume {
                    // The tile stays taken, so the challenger moves something else if it can.
                    Resume::Move { roll, refused } => {
                        self.phase = Phase::Moving {
                            seat: challenger.seat,
                            roll,
                            refused: refused.with(challenger.size),
                        };
                    }
                    Resume::EndTurn => self.end_turn(challenger.seat, rng),
                }
            }
            _ => return Err(TowerRaceError::WrongTime { action, stage }),
        }
        Ok(())
    }

    /// Both seats roll until the rolls differ; the lower roll's pyramid goes home. A challenger
    /// who wins a landing then moves onto the tile.
    fn play_challenge(&mut self, challenge: Challenge, resume: Resume, rng: &mut MatchRng) {
        let Challenge {
            challenger,
            challenged,
            ..
        } = challenge;
        self.refused_last.remove(challenged.seat);
        let mut rolls = Vec::new();
        let challenger_won = loop {
            let pair = (Die::roll(rng), Die::roll(rng));
            rolls.push(pair);
            if pair.0 != pair.1 {
                break pair.0 > pair.1;
            }
        };
        let (winner, loser) = if challenger_won {
            (challenger, challenged)
        } else {
            (challenged, challenger)
        };
        self.put(loser, 0);
        // A landing challenger has not moved yet, so its roll still leads onto the tile.
        if let (true, Resume::Move { roll, .. }) = (challenger_won, resume) {
            self.put(challenger, self.progress(challenger) + roll.get());
        }
        self.last_challenge = Some(ChallengeReport {
            challenge,
            answer: Answer::Played {
                rolls,
                winner: winner.seat,
            },
        });
        match resume {
            Resume::Move { .. } => self.after_move(challenger.seat, rng),
            Resume::EndTurn => self.end_turn(challenger.seat, rng),
        }
    }

    /// After `seat`'s move (or pass): a chance to challenge a captor, if it has one.
    fn after_move(&mut self, seat: Seat, rng: &mut MatchRng) {
        if self.release_challenges(seat).next().is_some() {
            self.phase = Phase::Challenging { seat };
        } else {
            self.end_turn(seat, rng);
        }
    }

    /// Ends `seat`'s turn and starts the next seat's that is not lost to a refusal, rolling its
    /// die; or ends the game at the turn limit.
    fn end_turn(&mut self, seat: Seat, rng: &mut MatchRng) {
        let mut seat = seat;
        loop {
            self.turns += 1;
            if self.turns >= self.turn_limit() {
                self.finish_ranked("turn_limit");
                return;
            }
            seat = SEATS[(seat.index() + 1) % self.seats];
            if self.loses_next_turn.contains(seat) {
                self.loses_next_turn.remove(seat);
                continue;
            }
            let roll = Die::roll(rng);
            self.last_roll = Some(TurnRoll { seat, roll });
            self.phase = Phase::Moving {
                seat,
                roll,
                refused: SizeSet::default(),
            };
            return;
        }
    }

    /// Whether nothing on the board can ever change: no seat can move any pyramid with any
    /// roll, and no seat can challenge a captor. Only moves and challenges change the board, so
    /// from here every turn would be a forced pass.
    fn frozen(&self) -> bool {
        let no_refusals = SizeSet::default();
        self.seat_list().all(|seat| {
            self.release_challenges(seat).next().is_none()
                && self.pyramids_of(seat).all(|pyramid| {
                    (1..=6)
                        .filter_map(Die::new)
                        .all(|roll| self.check_move(pyramid, roll, no_refusals).is_err())
                })
        })
    }

    fn win(&mut self, seat: Seat) {
        self.phase = Phase::Over;
        self.outcome = Some(Outcome::win(seat, self.seats, "reached_end"));
    }

    /// Ends a game nobody has won (at the turn limit, or frozen): more pyramids in the End-tile
    /// rank first, then more tiles travelled in all; a seat's place is the number of seats
    /// strictly ahead of it.
    fn finish_ranked(&mut self, reason: &'static str) {
        let key = |seat: Seat| {
            let finished = self
                .pyramids_of(seat)
                .filter(|&p| self.progress(p) == self.layout.tiles)
                .count();
            let travelled: u32 = self
                .pyramids_of(seat)
                .map(|p| u32::from(self.progress(p)))
                .sum();
            (finished, travelled)
        };
        let keys: Vec<_> = self.seat_list().map(key).collect();
        let places = keys
            .iter()
            .map(|mine| keys.iter().filter(|other| *other > mine).count() as u8)
            .collect();
        self.phase = Phase::Over;
        self.outcome = Some(Outcome::from_places(places, reason));
    }
}

/// The pyramids whose bits are set, in bit order (by size, then seat).
fn pyramids_in(bits: u32) -> impl Iterator<Item = Pyramid> {
    (0..32)
        .filter(move |i| bits & (1 << i) != 0)
        .map(Pyramid::from_bit)
}

impl Game for TowerRace {
    type Config = TowerRaceConfig;
    type Action = TowerRaceAction;
    type View = TowerRaceView;
    type Illegal = TowerRaceError;
    type ConfigError = SetupError;

    /// Every pyramid at home; seat 0 (the youngest player) rolls first.
    fn new(config: &TowerRaceConfig, rng: &mut MatchRng) -> Result<TowerRace, SetupError> {
        let mut game = TowerRace::empty(config)?;
        let roll = Die::roll(rng);
        game.phase = Phase::Moving {
            seat: SEATS[0],
            roll,
            refused: SizeSet::default(),
        };
        game.last_roll = Some(TurnRoll {
            seat: SEATS[0],
            roll,
        });
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        self.seats
    }

    fn to_act(&self) -> SeatSet {
        self.actor().map_or(SeatSet::EMPTY, SeatSet::single)
    }

    fn acting_actions(&self, _seat: Seat) -> Vec<TowerRaceAction> {
        self.actions()
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &TowerRaceAction,
        rng: &mut MatchRng,
    ) -> Result<(), TowerRaceError> {
        self.play_action(seat, *action, rng)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, _viewer: Viewer) -> TowerRaceView {
        TowerRaceView::of(self)
    }
}

impl Catalog for TowerRace {
    const ID: &'static str = "tower-race";
    const NAME: &'static str = "Tower race";

    fn variants() -> &'static [&'static str] {
        &["basic", "advanced"]
    }

    fn seat_counts(variant: &str) -> RangeInclusive<usize> {
        let (least, most) = variant_board(variant).seat_range();
        least..=most
    }

    fn config(variant: &str, seats: usize) -> Result<TowerRaceConfig, CatalogError> {
        check_variant::<TowerRace>(variant, seats)?;
        Ok(TowerRaceConfig {
            board: variant_board(variant),
            seats,
        })
    }

    fn read_action(&self, text: &str) -> Result<TowerRaceAction, impl fmt::Display> {
        TowerRaceAction::parse(text, self.layout.pyramids)
    }

    /// Nothing is hidden: the view ignores its viewer.
    fn same_view_for_all(&self) -> bool {
        true
    }

    fn action_text(&self, action: &TowerRaceAction) -> String {
        action.to_string()
    }

    fn render(&self) -> String {
        self.diagram()
    }
}

/// The board a variant name stands for; any name but `advanced` is the basic game (names are
/// checked by [`check_variant`] before a configuration is built).
fn variant_board(variant: &str) -> Board {
    if variant == "advanced" {
        Board::Advanced
    } else {
        Board::Basic
    }
}
