//! What tools and the server need to know about a game beyond its rules: a stable name, its named
//! variants and seat counts, and a text form for its actions, so that an action log can be
//! written, read back and replayed by anyone; where a game has them, a notation for positions
//! and the insights an analysis board shows.

use std::fmt;
use std::ops::RangeInclusive;

use crate::game::{Game, Seat, Viewer};

/// A variant, seat count or action text that a game cannot use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogError(pub String);

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CatalogError {}

/// What a position shows at a glance, beyond the AI's evaluation, in the game's notation: for a
/// client to mark on the board. Games define their own (tafl: `tafl::insight`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insights {
    /// Ways to win the game with nothing else moving: each one or more actions by one seat,
    /// the last of which wins (tafl: the king's escapes, one move, and routes, two).
    pub escapes: Vec<Route>,
    /// Pieces another seat could capture with its next action, were it its turn.
    pub threatened: Vec<Threatened>,
}

/// Actions of one seat that end in a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub seat: Seat,
    pub actions: Vec<String>,
}

/// A piece one action from capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threatened {
    /// Where it stands.
    pub square: String,
    /// Whose it is.
    pub seat: Seat,
    /// The actions that capture it.
    pub by: Vec<String>,
}

pub trait Catalog: Game + Send + 'static {
    /// Stable identifier, used on the wire and by the tools: `tafl`, `fox-geese`, ...
    const ID: &'static str;

    /// The game's name, for people: `Fox and Geese`.
    const NAME: &'static str;

    /// A seat's name, for people, where the game names its sides (tafl's attackers and
    /// defenders); `None` where seats are only numbered.
    fn seat_name(_seat: Seat) -> Option<&'static str> {
        None
    }

    /// The game so far as a record in a notation other software reads, where the game has one
    /// (tafl: an OpenTafl game record): the format's name and the text.
    fn record(&self) -> Option<(&'static str, String)> {
        None
    }

    /// A variant's rules in a notation other software reads, where the game has one (tafl:
    /// OpenTafl's rules string): clients draw a board's special squares from it.
    fn rules_text(_config: &Self::Config) -> Option<String> {
        None
    }

    /// A game of `config` at a position written in the game's position notation, with `to_move`
    /// to move, where the game has such a notation (tafl: an OpenTafl position); the error says
    /// what is wrong with the text, or that the game has none.
    fn from_position(
        config: &Self::Config,
        text: &str,
        to_move: Seat,
    ) -> Result<Self, CatalogError> {
        let _ = (config, text, to_move);
        Err(CatalogError(format!(
            "{} has no position notation: give the actions from the start instead",
            Self::ID
        )))
    }

    /// What the position shows at a glance, where the game says ([`Insights`]).
    fn insights(&self) -> Option<Insights> {
        None
    }

    /// Variant names; the first is the default.
    fn variants() -> &'static [&'static str];

    /// How many seats a variant may have.
    fn seat_counts(variant: &str) -> RangeInclusive<usize>;

    /// The configuration of `variant` for `seats` seats.
    fn config(variant: &str, seats: usize) -> Result<Self::Config, CatalogError>;

    /// Reads an action in this game's notation, with what reading needs to know of the game
    /// (a board size); the error says what is wrong with the text.
    fn read_action(&self, text: &str) -> Result<Self::Action, impl fmt::Display>;

    /// Reads an action written by [`Catalog::action_text`]: [`Catalog::read_action`], with the
    /// text quoted in the error.
    fn parse_action(&self, text: &str) -> Result<Self::Action, CatalogError> {
        self.read_action(text)
            .map_err(|e| CatalogError(format!("'{text}': {e}")))
    }

    /// An action in this game's notation.
    fn action_text(&self, action: &Self::Action) -> String;

    /// Whether an action may be secret from the other seats until the game reveals its effect
    /// (a simultaneous, hidden choice). Tools and the server then show an action only to the
    /// seat that took it.
    fn hides_actions(&self) -> bool {
        false
    }

    /// Whether every viewer, each seat and a spectator, always gets the same view: a game
    /// without hidden information says so, and the server then renders one view for all. The
    /// default is the safe answer for a game with secrets.
    fn same_view_for_all(&self) -> bool {
        false
    }

    /// The public state as text for a terminal; games override this with a board diagram.
    fn render(&self) -> String {
        format!("{:#?}", self.view(Viewer::Spectator))
    }
}

/// Checks a variant name and seat count against a game's catalog.
pub fn check_variant<G: Catalog>(variant: &str, seats: usize) -> Result<(), CatalogError> {
    if !G::variants().contains(&variant) {
        return Err(CatalogError(format!(
            "{} has no variant '{variant}' (variants: {})",
            G::ID,
            G::variants().join(", ")
        )));
    }
    let range = G::seat_counts(variant);
    if !range.contains(&seats) {
        return Err(CatalogError(format!(
            "{} {variant} is played by {} to {} players, not {seats}",
            G::ID,
            range.start(),
            range.end()
        )));
    }
    Ok(())
}
