//! What tools and the server need to know about a game beyond its rules: a stable name, its named
//! variants and seat counts, and a text form for its actions, so that an action log can be
//! written, read back and replayed by anyone.

use std::fmt;
use std::ops::RangeInclusive;

use crate::ai::Ai;
use crate::driller::Driller;
use crate::fox_geese::FoxGeese;
use crate::game::{Game, Seat, Viewer};
use crate::hanoi::Hanoi;
use crate::tafl::Tafl;
use crate::tower_race::TowerRace;
use crate::tron::Tron;

/// A variant, seat count or action text that a game cannot use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogError(pub String);

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CatalogError {}

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

    /// A variant's rules in a notation other software reads, where the game has one (tafl:
    /// OpenTafl's rules string): clients draw a board's special squares from it.
    fn rules_text(_config: &Self::Config) -> Option<String> {
        None
    }

    /// Variant names; the first is the default.
    fn variants() -> &'static [&'static str];

    /// How many seats a variant may have.
    fn seat_counts(variant: &str) -> RangeInclusive<usize>;

    /// The configuration of `variant` for `seats` seats.
    fn config(variant: &str, seats: usize) -> Result<Self::Config, CatalogError>;

    /// Reads an action written by [`Catalog::action_text`] in this game's notation.
    fn parse_action(&self, text: &str) -> Result<Self::Action, CatalogError>;

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

/// A game the tools and the server can host: it names itself, the AI can play it, and its view
/// serialises so clients can be sent it as JSON. Every registered game is one.
pub trait Hostable: Catalog + Ai + Game<View: serde::Serialize> {}

impl<G: Catalog + Ai + Game<View: serde::Serialize>> Hostable for G {}

/// Something to do with one game, whichever it is: tools and the server dispatch on a game id
/// through [`with_game`] instead of matching on every game themselves.
pub trait GameTask {
    type Output;
    fn run<G: Hostable>(self) -> Self::Output;
}

/// The id of every game the engine hosts.
pub const GAME_IDS: [&str; 6] = [
    Tafl::ID,
    FoxGeese::ID,
    Hanoi::ID,
    TowerRace::ID,
    Tron::ID,
    Driller::ID,
];

/// Runs `task` with the game whose id is `id`; `None` for an unknown id.
pub fn with_game<T: GameTask>(id: &str, task: T) -> Option<T::Output> {
    match id {
        Tafl::ID => Some(task.run::<Tafl>()),
        FoxGeese::ID => Some(task.run::<FoxGeese>()),
        Hanoi::ID => Some(task.run::<Hanoi>()),
        TowerRace::ID => Some(task.run::<TowerRace>()),
        Tron::ID => Some(task.run::<Tron>()),
        Driller::ID => Some(task.run::<Driller>()),
        _ => None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::MatchRng;

    /// Every legal action of a game, written and read back, is the same action.
    fn actions_round_trip<G: Catalog>(variant: &str, seats: usize) {
        let config = G::config(variant, seats).unwrap();
        let game = G::new(&config, &mut MatchRng::from_seed(1)).unwrap();
        let seat = game.to_act().iter().next().unwrap();
        let actions = game.legal_actions(seat);
        assert!(!actions.is_empty());
        for action in actions {
            let text = game.action_text(&action);
            assert_eq!(game.parse_action(&text).unwrap(), action, "{text}");
        }
    }

    /// Runs the round trip for every variant and seat count of a game.
    struct RoundTrip;

    impl GameTask for RoundTrip {
        type Output = ();
        fn run<G: Hostable>(self) {
            for variant in G::variants() {
                for seats in G::seat_counts(variant) {
                    actions_round_trip::<G>(variant, seats);
                }
            }
        }
    }

    /// Plays random games of every variant and seat count of a game that claims one view for
    /// every viewer, and checks each viewer's view against the spectator's after every action.
    struct SameViews;

    impl GameTask for SameViews {
        type Output = ();
        fn run<G: Hostable>(self) {
            let mut rng = MatchRng::from_seed(7);
            for variant in G::variants() {
                for seats in G::seat_counts(variant) {
                    let config = G::config(variant, seats).unwrap();
                    let mut game = G::new(&config, &mut rng).unwrap();
                    if !game.same_view_for_all() {
                        return;
                    }
                    for _ in 0..300 {
                        let public = serde_json::to_value(game.view(Viewer::Spectator)).unwrap();
                        for seat in (0..game.seat_count()).filter_map(crate::game::Seat::new) {
                            let own = serde_json::to_value(game.view(Viewer::Seat(seat))).unwrap();
                            assert_eq!(own, public, "{} {variant}: {seat:?}'s view", G::ID);
                        }
                        let Some(seat) = game.to_act().iter().next() else {
                            break;
                        };
                        let legal = game.legal_actions(seat);
                        let action = rng.choose(&legal).unwrap().clone();
                        game.play(seat, &action, &mut rng).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn games_with_one_view_show_every_viewer_the_same() {
        for id in GAME_IDS {
            with_game(id, SameViews).unwrap();
        }
    }

    #[test]
    fn every_games_actions_round_trip() {
        for id in GAME_IDS {
            with_game(id, RoundTrip).unwrap();
        }
    }

    #[test]
    fn unknown_variants_and_seat_counts_are_refused() {
        let e = Tafl::config("chess", 2).unwrap_err();
        assert!(e.0.contains("copenhagen"), "{e}");
        let e = Tafl::config("copenhagen", 3).unwrap_err();
        assert_eq!(e.0, "tafl copenhagen is played by 2 to 2 players, not 3");
        assert!(FoxGeese::config("hala-tafl", 2).is_ok());
    }
}
