//! The tafl family: Hnefatafl as the seed describes it, Copenhagen, Fetlar, Brandubh, Tablut,
//! Tawlbwrdd, 13x13 and Alea Evangelii, all from one data-driven ruleset ([`Rules`]).
//!
//! [`Tafl`] is the game as the rest of the project sees it; it picks the bitboard width from the
//! board size (`u128` up to 11x11, [`Wide`] above) and runs the same generic rules on either.

mod bitboard;
mod board;
mod capture;
pub mod corpus;
mod ending;
mod eval;
mod game;
pub mod insight;
mod layout;
mod movegen;
pub mod opentafl;
mod perft;
mod position;
mod rules;
pub mod search;
mod square;
pub mod variants;
mod zobrist;

use std::ops::RangeInclusive;
use std::sync::Arc;

pub use bitboard::{Bits, Wide};
pub use ending::{Reason, Verdict};
pub use layout::{DiagramError, Layout};
pub use movegen::IllegalMove;
pub use rules::{Escape, KingStrength, PieceSet, Repetition, Rules, RulesError, Shieldwall};
pub use square::{Coord, Dir, Move, Piece, Side, Square};

use crate::ai::{Analysis, Budget};
use crate::catalog::{Catalog, CatalogError, Insights, Route, Threatened, check_variant};
use crate::game::{Game, Outcome, PlayError, Seat, SeatSet, Viewer};
use crate::rng::MatchRng;
use board::Board;
use game::TaflGame;
use position::Position;

/// The game on the bitboard that fits the board. A large board's game is boxed: its position
/// is some four times a small one's, and a small game should not be the size of a large one.
#[derive(Clone, Debug)]
enum BySize {
    Small(TaflGame<u128>),
    Large(Box<TaflGame<Wide>>),
}

/// Where a game of either size stood (see [`Tafl::mark`]).
enum Mark {
    Small(game::Mark<u128>),
    Large(game::Mark<Wide>),
}

/// Runs `$body` with `$g` bound to the game of whichever size this is.
macro_rules! with_game {
    ($self:expr, $g:ident => $body:expr) => {
        match &$self.inner {
            BySize::Small($g) => $body,
            BySize::Large(large) => {
                let $g: &TaflGame<Wide> = large;
                $body
            }
        }
    };
}

pub mod puzzle;

/// A tafl game: rules, position, history and result.
#[derive(Clone, Debug)]
pub struct Tafl {
    inner: BySize,
    outcome: Option<Outcome>,
}

/// One played move as reported to callers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub mv: Move,
    /// Squares of the men captured, in square order (the king's capture is in `king_captured`).
    pub captured: Vec<Square>,
    pub king_captured: bool,
}

/// What anyone may see of a tafl game (it has no hidden information), in OpenTafl notation so
/// that it serialises to compact JSON for clients.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TaflView {
    /// The position in OpenTafl notation.
    pub position: String,
    pub to_move: Option<Side>,
    pub plies: usize,
    /// The last move with its captures (`e5-e8xe9`).
    pub last_move: Option<String>,
    pub king_captured: bool,
    pub verdict: Option<Verdict>,
}

fn report<B: Bits>(played: &game::Played<B>) -> MoveReport {
    MoveReport {
        mv: played.mv,
        captured: played.captures.men.squares().collect(),
        king_captured: played.captures.king,
    }
}

impl Tafl {
    /// A new game at the rules' start position.
    pub fn new(rules: Rules) -> Result<Tafl, RulesError> {
        let turn = if rules.attackers_first {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let start = rules.start.clone();
        Tafl::from_layout(rules, &start, turn)
    }

    /// A game from any position, with `turn` to move.
    /// The position must suit the rules ([`Rules::check_layout`]).
    pub fn from_layout(rules: Rules, layout: &Layout, turn: Side) -> Result<Tafl, RulesError> {
        rules.check_layout(layout)?;
        fn build<B: Bits>(
            rules: Rules,
            layout: &Layout,
            turn: Side,
        ) -> Result<TaflGame<B>, RulesError> {
            let board = Board::<B>::new(rules)?;
            let start = Position::from_layout(layout, turn);
            Ok(TaflGame::new(Arc::new(board), start))
        }
        let inner = if usize::from(rules.dim()).pow(2) <= u128::CAPACITY {
            BySize::Small(build(rules, layout, turn)?)
        } else {
            BySize::Large(Box::new(build(rules, layout, turn)?))
        };
        let mut tafl = Tafl {
            inner,
            outcome: None,
        };
        tafl.outcome = tafl.verdict().map(outcome_of);
        Ok(tafl)
    }

    /// A preset by name (see [`variants::NAMES`]).
    pub fn preset(name: &str) -> Option<Tafl> {
        variants::preset(name).map(|rules| Tafl::new(rules).expect("presets are valid"))
    }

    pub fn rules(&self) -> &Rules {
        with_game!(self, g => &g.board().rules)
    }

    pub fn dim(&self) -> u8 {
        self.rules().dim()
    }

    /// The side to move, or `None` once the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Side> {
        with_game!(self, g => g.to_move())
    }

    #[inline]
    pub fn verdict(&self) -> Option<Verdict> {
        with_game!(self, g => g.verdict())
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        with_game!(self, g => g.legal_moves())
    }

    /// Checks and plays one move.
    pub fn play_move(&mut self, mv: Move) -> Result<MoveReport, IllegalMove> {
        self.advance(mv)?;
        Ok(with_game!(self, g => report(g.record().last().expect("a move was just played"))))
    }

    /// Checks and plays one move, reporting nothing (a report lists the captures).
    fn advance(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let ended = match &mut self.inner {
            BySize::Small(g) => g.play(mv)?,
            BySize::Large(g) => g.play(mv)?,
        };
        // A move is played only while the game is on, so there is no outcome to replace.
        if ended {
            self.outcome = self.verdict().map(outcome_of);
        }
        Ok(())
    }

    /// Where the game stands now, which must be on: see [`Tafl::return_to`].
    #[inline]
    fn mark(&self) -> Mark {
        match &self.inner {
            BySize::Small(g) => Mark::Small(g.mark()),
            BySize::Large(g) => Mark::Large(g.mark()),
        }
    }

    /// Takes back every move played since `mark` was taken.
    #[inline]
    fn return_to(&mut self, mark: Mark) {
        match (&mut self.inner, mark) {
            (BySize::Small(g), Mark::Small(mark)) => g.return_to(mark),
            (BySize::Large(g), Mark::Large(mark)) => g.return_to(mark),
            _ => unreachable!("a mark is of the game's own board size"),
        }
        self.outcome = None;
    }

    /// The current position.
    pub fn layout(&self) -> Layout {
        with_game!(self, g => g.position().layout(self.dim()))
    }

    /// The position the game started from, with the side that moved first.
    pub fn start(&self) -> (Layout, Side) {
        with_game!(self, g => (g.start().layout(self.dim()), g.start().turn()))
    }

    /// The side whose turn it is in the current position (also after the game has ended).
    pub fn turn(&self) -> Side {
        with_game!(self, g => g.position().turn())
    }

    /// How many moves have been played.
    pub fn plies(&self) -> usize {
        with_game!(self, g => g.record().len())
    }

    /// Every move played so far.
    pub fn moves(&self) -> Vec<MoveReport> {
        with_game!(self, g => g.record().iter().map(report).collect())
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        with_game!(self, g => g.position().piece_at(sq))
    }

    /// The incremental Zobrist hash of the current position.
    pub fn hash(&self) -> u64 {
        with_game!(self, g => g.position().hash())
    }

    /// The hash recomputed from scratch; always equal to [`Tafl::hash`].
    pub fn recomputed_hash(&self) -> u64 {
        with_game!(self, g => g.position().recomputed_hash())
    }

    /// Counts move sequences of `depth` plies from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.verdict().is_some() {
            return u64::from(depth == 0);
        }
        with_game!(self, g => g.position().perft(g.board(), depth))
    }

    /// Whether the throne or a corner has special rules, so diagrams can mark it.
    pub fn is_special(&self, sq: Square) -> bool {
        with_game!(self, g => g.board().is_special(sq))
    }

    /// The current position as a diagram.
    pub fn diagram(&self) -> String {
        self.layout().diagram(|sq| self.is_special(sq))
    }

    /// Searches the current position with the AI's alpha-beta search (see [`search`]): the
    /// best move with its score, depth, node count and expected line.
    pub fn search_info(
        &self,
        params: &search::SearchParams,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> search::SearchReport {
        with_game!(self, g => search::search(g, params, budget, rng))
    }

    /// Proves the puzzle of the current position, taken without its history (see [`puzzle`]).
    pub fn prove(
        &self,
        goal: puzzle::Goal,
        limits: &puzzle::Limits,
    ) -> Result<puzzle::Proof, puzzle::Unsolved> {
        with_game!(self, g => puzzle::prove(g.board(), g.position(), goal, limits))
    }

    /// How many moves other than `solution` look good and are not (see [`puzzle::Puzzle`]).
    fn decoys(&self, solution: Move) -> usize {
        with_game!(self, g => puzzle::decoys(g.board(), g.position(), solution))
    }

    /// The king's escapes and routes and the pieces under threat in the current position (see
    /// [`insight`]).
    pub fn insights(&self) -> insight::TaflInsights {
        with_game!(self, g => insight::insights(g.position(), g.board()))
    }
}

/// The tafl AI: levels 1 to 5 as described in [`search`].
impl crate::ai::Ai for Tafl {
    fn choose(
        &self,
        seat: Seat,
        level: crate::ai::Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Move> {
        if self.to_move().map(seat_of) != Some(seat) {
            return None;
        }
        with_game!(self, g => search::choose(g, level, budget, rng))
    }

    /// A full-strength search within the budget alone; its score read by
    /// [`search::expected_score`].
    fn analyse(
        &self,
        seat: Seat,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Option<Analysis<Move>> {
        if self.is_over() {
            return crate::ai::concluded(self, seat);
        }
        if self.to_move().map(seat_of) != Some(seat) {
            return None;
        }
        let params = search::SearchParams::new(search::MAX_DEPTH, budget.max_nodes);
        let report = self.search_info(&params, budget, rng);
        // Sides alternate, so the line's seats do too.
        let seats = [seat, Seat::new(1 - seat.index()).expect("two seats")];
        Some(Analysis {
            score: search::expected_score(report.score),
            line: (report.pv.into_iter().enumerate())
                .map(|(ply, mv)| (seats[ply % 2], mv))
                .collect(),
            nodes: report.nodes,
        })
    }
}

fn outcome_of(verdict: Verdict) -> Outcome {
    let reason = verdict.reason.code();
    match verdict.winner {
        Some(side) => Outcome::win(Seat::new(side.seat_index()).expect("two seats"), 2, reason),
        None => Outcome::draw(2, reason),
    }
}

/// The seat that plays `side`.
#[inline]
pub fn seat_of(side: Side) -> Seat {
    Seat::new(side.seat_index()).expect("two seats")
}

impl Game for Tafl {
    type Config = Rules;
    type Action = Move;
    type View = TaflView;
    type Illegal = IllegalMove;
    type ConfigError = RulesError;

    fn new(config: &Rules, _rng: &mut MatchRng) -> Result<Tafl, RulesError> {
        Tafl::new(config.clone())
    }

    #[inline]
    fn seat_count(&self) -> usize {
        2
    }

    #[inline]
    fn to_act(&self) -> SeatSet {
        self.to_move()
            .map_or(SeatSet::EMPTY, |side| SeatSet::single(seat_of(side)))
    }

    fn acting_actions(&self, _seat: Seat) -> Vec<Move> {
        self.legal_moves()
    }

    fn random_action(&self, _seat: Seat, rng: &mut MatchRng) -> Option<Move> {
        with_game!(self, g => g.random_move(rng))
    }

    #[inline]
    fn apply(
        &mut self,
        _seat: Seat,
        action: &Move,
        _rng: &mut MatchRng,
    ) -> Result<(), IllegalMove> {
        self.advance(*action)
    }

    /// Plays in place and takes the move back: a copy would copy the whole record.
    fn explore<R>(
        &mut self,
        seat: Seat,
        action: &Move,
        rng: &mut MatchRng,
        visit: impl FnOnce(&mut Tafl, &mut MatchRng) -> R,
    ) -> Result<R, PlayError<IllegalMove>> {
        // What `play` checks, each once: the game is on, so it has a side to move.
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if seat != seat_of(self.turn()) {
            return Err(if seat.index() < self.seat_count() {
                PlayError::NotYourTurn(seat)
            } else {
                PlayError::NoSuchSeat(seat)
            });
        }
        let mark = self.mark();
        self.advance(*action).map_err(PlayError::Illegal)?;
        let result = visit(self, rng);
        // `visit` may have played on: take back everything since.
        self.return_to(mark);
        Ok(result)
    }

    #[inline]
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn view(&self, _viewer: Viewer) -> TaflView {
        let last = with_game!(self, g => g.record().last().map(report));
        TaflView {
            position: opentafl::print_position(&self.layout()),
            to_move: self.to_move(),
            plies: self.plies(),
            last_move: last
                .as_ref()
                .map(|m| opentafl::print_move(m.mv, &m.captured, self.dim())),
            king_captured: last.is_some_and(|m| m.king_captured),
            verdict: self.verdict(),
        }
    }
}

impl Catalog for Tafl {
    const ID: &'static str = "tafl";
    const NAME: &'static str = "Tafl";

    fn variants() -> &'static [&'static str] {
        &variants::NAMES
    }

    fn seat_counts(_variant: &str) -> RangeInclusive<usize> {
        2..=2
    }

    fn seat_name(seat: Seat) -> Option<&'static str> {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .find(|side| side.seat_index() == seat.index())
            .map(Side::name)
    }

    fn rules_text(rules: &Rules) -> Option<String> {
        Some(opentafl::print_rules(rules))
    }

    fn record(&self) -> Option<(&'static str, String)> {
        Some(("opentafl", opentafl::export_record(self)))
    }

    /// A preset by name, or a custom variant: any OpenTafl rules string the engine accepts
    /// (`dim:9 esc:e ... start:/...`), as the tafl world tries new set-ups all the time.
    fn config(variant: &str, seats: usize) -> Result<Rules, CatalogError> {
        if variants::preset(variant).is_none() && variant.contains(':') {
            if seats != 2 {
                return Err(CatalogError(format!(
                    "tafl is played by 2 players, not {seats}"
                )));
            }
            return opentafl::parse_rules(variant)
                .map_err(|e| CatalogError(format!("custom rules: {e}")));
        }
        check_variant::<Tafl>(variant, seats)?;
        variants::preset(variant).ok_or_else(|| CatalogError(format!("no preset {variant}")))
    }

    /// An OpenTafl position (`/3ttttt3/.../`), checked against the rules as a start would be.
    fn from_position(rules: &Rules, text: &str, to_move: Seat) -> Result<Tafl, CatalogError> {
        let side = [Side::Attackers, Side::Defenders]
            .into_iter()
            .find(|side| side.seat_index() == to_move.index())
            .ok_or_else(|| {
                CatalogError(format!(
                    "tafl has seats 0 (attackers) and 1 (defenders), not {}",
                    to_move.index()
                ))
            })?;
        let layout = opentafl::parse_position(text)
            .map_err(|e| CatalogError(format!("the position, {e}")))?;
        Tafl::from_layout(rules.clone(), &layout, side).map_err(|e| CatalogError(e.to_string()))
    }

    fn insights(&self) -> Option<Insights> {
        let found = Tafl::insights(self);
        let dim = self.dim();
        let text = |mv: &Move| opentafl::print_move(*mv, &[], dim);
        let defenders = seat_of(Side::Defenders);
        let escapes = found.escapes.iter().map(std::slice::from_ref);
        let routes = found.routes.iter().map(|route| &route[..]);
        Some(Insights {
            escapes: escapes
                .chain(routes)
                .map(|moves| Route {
                    seat: defenders,
                    actions: moves.iter().map(text).collect(),
                })
                .collect(),
            threatened: found
                .threatened
                .iter()
                .map(|threat| Threatened {
                    square: threat.square.name(dim),
                    seat: seat_of(threat.piece.side()),
                    by: threat.by.iter().map(text).collect(),
                })
                .collect(),
        })
    }

    fn read_action(&self, text: &str) -> Result<Move, impl std::fmt::Display> {
        opentafl::parse_move(text, self.dim()).map(|written| written.mv)
    }

    /// OpenTafl's errors begin "at column N", so the text is quoted without a colon.
    fn parse_action(&self, text: &str) -> Result<Move, CatalogError> {
        self.read_action(text)
            .map_err(|e| CatalogError(format!("'{text}' {e}")))
    }

    /// Nothing is hidden: the view ignores its viewer.
    fn same_view_for_all(&self) -> bool {
        true
    }

    fn action_text(&self, mv: &Move) -> String {
        opentafl::print_move(*mv, &[], self.dim())
    }

    fn render(&self) -> String {
        self.diagram()
    }
}
