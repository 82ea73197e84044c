//! Fox and Geese (Hala-tafl), a hunt game for two on the 33-point cross: the rules are
//! `docs/rules/fox-geese.md`.
//!
//! Seat 0 is the geese, seat 1 the fox. Geese are a bitboard, bit `rank * 7 + file` of the 7x7
//! grid (a1 = 0), so the lowest set bit is a goose on the lowest rank. Nothing is hidden: every
//! viewer sees the same [`FoxGeeseView`].

mod ai;
mod error;
mod notation;
mod point;
mod position;

use std::convert::Infallible;
use std::fmt;
use std::ops::RangeInclusive;

use crate::catalog::{Catalog, CatalogError, check_variant};
use crate::game::{Game, Outcome, Seat, SeatSet, Viewer};
use crate::rng::MatchRng;

pub use error::{FoxGeeseError, SetupError};
pub use notation::Expected;
pub use point::Point;
use point::SIZE;
use position::Position;

/// The fewest geese that can trap the fox (see `docs/rules/fox-geese.md`, "Ends").
const MIN_GEESE: u32 = 4;

/// The geese's start: files c-e of ranks 1 and 2, then all of rank 3 (bit `rank * 7 + file`).
const START_GEESE: u64 = 0b0011100 | 0b0011100 << 7 | 0b1111111 << 14;

/// The fox's start, `d5`. Evaluated at compile time, so the `panic!` can never run.
const FOX_START: Point = match Point::new(3, 4) {
    Some(point) => point,
    None => panic!("d5 is on the cross"),
};

const GEESE_SEAT: Seat = match Seat::new(0) {
    Some(seat) => seat,
    None => panic!("every game has a seat 0"),
};

const FOX_SEAT: Seat = match Seat::new(1) {
    Some(seat) => seat,
    None => panic!("every game has a seat 1"),
};

/// The two sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Geese,
    Fox,
}

impl Side {
    pub const fn opponent(self) -> Side {
        match self {
            Side::Geese => Side::Fox,
            Side::Fox => Side::Geese,
        }
    }

    /// The seat that plays this side: the geese sit at 0, the fox at 1.
    pub const fn seat(self) -> Seat {
        match self {
            Side::Geese => GEESE_SEAT,
            Side::Fox => FOX_SEAT,
        }
    }

    /// The side played from `seat`, if the game has that seat.
    pub fn of_seat(seat: Seat) -> Option<Side> {
        [Side::Geese, Side::Fox]
            .into_iter()
            .find(|side| side.seat() == seat)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Geese => "geese",
            Side::Fox => "fox",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One action: the piece on `from` goes to each landing point in turn. A goose has exactly one
/// landing; the fox has one for a step and one per jump of a chain. There is always at least one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FoxGeeseAction {
    from: Point,
    landings: Vec<Point>,
}

impl FoxGeeseAction {
    /// An action from `from` through `landings`, which may not be empty.
    pub fn new(from: Point, landings: Vec<Point>) -> Result<FoxGeeseAction, FoxGeeseError> {
        if landings.is_empty() {
            return Err(FoxGeeseError::NoLanding { from });
        }
        Ok(FoxGeeseAction { from, landings })
    }

    pub fn from(&self) -> Point {
        self.from
    }

    /// The points the piece lands on, in order; never empty.
    pub fn landings(&self) -> &[Point] {
        &self.landings
    }
}

impl fmt::Display for FoxGeeseAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        for landing in &self.landings {
            write!(f, "-{landing}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for FoxGeeseAction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The game's options. The standard game has none; the type exists so that Fox and Geese fits
/// the [`Game`] contract like every other game and can gain variants without a new interface.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FoxGeeseConfig;

/// What anyone may see of the game: it has no hidden information. Points and actions serialise
/// in their notation (`d5`, `d5-d3-f3`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FoxGeeseView {
    pub fox: Point,
    /// Every goose, in point order.
    pub geese: Vec<Point>,
    /// The side whose turn it is in the position, also after the game has ended.
    pub turn: Side,
    /// The side that must act now, or `None` once the game is over.
    pub to_move: Option<Side>,
    pub plies: usize,
    pub last_action: Option<FoxGeeseAction>,
    pub outcome: Option<Outcome>,
}

/// A game of Fox and Geese: position, history and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoxGeese {
    position: Position,
    /// Every position since the last irreversible action, the current one last: only these
    /// can occur again, so only these count towards a repetition.
    history: Vec<Position>,
    record: Vec<FoxGeeseAction>,
    outcome: Option<Outcome>,
}

impl FoxGeese {
    /// A new game at the start position, geese to move.
    pub fn new(_config: &FoxGeeseConfig) -> FoxGeese {
        FoxGeese::from_position(Position {
            geese: START_GEESE,
            fox: FOX_START,
            turn: Side::Geese,
        })
    }

    /// A game from any position, with `turn` to move. The position is judged at once, so it
    /// may already be over (a trapped fox, too few geese).
    pub fn from_points(fox: Point, geese: &[Point], turn: Side) -> Result<FoxGeese, SetupError> {
        let mut bits = 0;
        for &goose in geese {
            if goose == fox {
                return Err(SetupError::FoxOnGoose(goose));
            }
            if bits & goose.bit() != 0 {
                return Err(SetupError::GooseTwice(goose));
            }
            bits |= goose.bit();
        }
        Ok(FoxGeese::from_position(Position {
            geese: bits,
            fox,
            turn,
        }))
    }

    fn from_position(position: Position) -> FoxGeese {
        let mut game = FoxGeese {
            position,
            history: vec![position],
            record: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    pub fn fox(&self) -> Point {
        self.position.fox
    }

    /// The 0-based rank of the lowest goose, `None` when no goose is left. Geese never step
    /// back, so the points below it stay empty for the rest of the game.
    pub fn lowest_goose_rank(&self) -> Option<u8> {
        self.position.lowest_goose_rank()
    }

    /// Every goose, in point order.
    pub fn geese(&self) -> Vec<Point> {
        self.position.geese().collect()
    }

    pub fn piece_at(&self, point: Point) -> Option<Side> {
        self.position.piece_at(point)
    }

    /// The side whose turn it is in the position, also after the game has ended.
    pub fn turn(&self) -> Side {
        self.position.turn
    }

    /// The side to move, or `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.outcome.is_none().then_some(self.position.turn)
    }

    /// Every action played so far.
    pub fn record(&self) -> &[FoxGeeseAction] {
        &self.record
    }

    /// Every legal action of the side to move; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<FoxGeeseAction> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_actions()
    }

    /// Checks and plays one action for the side to move, then judges whether it ended the game.
    pub fn play_action(&mut self, action: &FoxGeeseAction) -> Result<(), FoxGeeseError> {
        if self.outcome.is_some() {
            return Err(FoxGeeseError::GameOver);
        }
        let next = self.position.after(action)?;
        if next.irreversible() != self.position.irreversible() {
            self.history.clear();
        }
        self.position = next;
        self.history.push(next);
        self.record.push(action.clone());
        self.outcome = self.judge();
        Ok(())
    }

    /// The end of the game in the current position, if it has come (the rules' "Ends").
    fn judge(&self) -> Option<Outcome> {
        let pos = &self.position;
        let win = |side: Side, reason| Some(Outcome::win(side.seat(), 2, reason));
        if pos.goose_count() < MIN_GEESE {
            return win(Side::Fox, "geese_too_few");
        }
        if !pos.has_moves() {
            return match pos.turn {
                Side::Fox => win(Side::Geese, "fox_trapped"),
                Side::Geese => win(Side::Fox, "geese_stuck"),
            };
        }
        if pos.fox_behind_geese() {
            return win(Side::Fox, "fox_escaped");
        }
        if self.history.iter().filter(|&&seen| seen == *pos).count() >= 3 {
            return Some(Outcome::draw(2, "repetition"));
        }
        None
    }

    /// The board with rank numbers and file letters, top rank first: `G` a goose, `F` the fox,
    /// `.` an empty point, a space where the grid has no point.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let mut line = format!("{} ", rank + 1);
            for file in 0..SIZE {
                line.push(match Point::new(file, rank) {
                    None => ' ',
                    Some(point) => match self.piece_at(point) {
                        Some(Side::Geese) => 'G',
                        Some(Side::Fox) => 'F',
                        None => '.',
                    },
                });
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str("  a b c d e f g\n");
        out
    }
}

impl Game for FoxGeese {
    type Config = FoxGeeseConfig;
    type Action = FoxGeeseAction;
    type View = FoxGeeseView;
    type Illegal = FoxGeeseError;
    type ConfigError = Infallible;

    fn new(config: &FoxGeeseConfig, _rng: &mut MatchRng) -> Result<FoxGeese, Infallible> {
        Ok(FoxGeese::new(config))
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> SeatSet {
        self.to_move()
            .map_or(SeatSet::EMPTY, |side| SeatSet::single(side.seat()))
    }

    fn acting_actions(&self, _seat: Seat) -> Vec<FoxGeeseAction> {
        self.legal_moves()
    }

    // `play` has checked that `seat` is the side to move, and the action's piece is checked
    // against the side to move, so the seat itself is not needed here.
    fn apply(
        &mut self,
        _seat: Seat,
        action: &FoxGeeseAction,
        _rng: &mut MatchRng,
    ) -> Result<(), FoxGeeseError> {
        self.play_action(action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, _viewer: Viewer) -> FoxGeeseView {
        FoxGeeseView {
            fox: self.fox(),
            geese: self.geese(),
            turn: self.turn(),
            to_move: self.to_move(),
            plies: self.record.len(),
            last_action: self.record.last().cloned(),
            outcome: self.outcome.clone(),
        }
    }
}

impl Catalog for FoxGeese {
    const ID: &'static str = "fox-geese";
    const NAME: &'static str = "Fox and Geese";

    fn seat_name(seat: Seat) -> Option<&'static str> {
        Side::of_seat(seat).map(Side::name)
    }

    fn variants() -> &'static [&'static str] {
        &["hala-tafl"]
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        2..=2
    }

    fn config(variant: &str, seats: usize) -> Result<FoxGeeseConfig, CatalogError> {
        check_variant::<FoxGeese>(variant, seats)?;
        Ok(FoxGeeseConfig)
    }

    fn read_action(&self, text: &str) -> Result<FoxGeeseAction, impl fmt::Display> {
        FoxGeeseAction::parse(text)
    }

    /// Nothing is hidden: the view ignores its viewer.
    fn same_view_for_all(&self) -> bool {
        true
    }

    fn action_text(&self, action: &FoxGeeseAction) -> String {
        action.to_string()
    }

    fn render(&self) -> String {
        self.diagram()
    }
}
