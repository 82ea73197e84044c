//! The registry of games: every game the engine hosts, by its id, and the way tools and the
//! server run code for one of them without matching on every game themselves. It sits above the
//! game contract (`catalog.rs`) and the games, which know nothing of it.

use crate::ai::Ai;
use crate::catalog::Catalog;
use crate::driller::Driller;
use crate::fox_geese::FoxGeese;
use crate::game::Game;
use crate::hanoi::Hanoi;
use crate::tafl::Tafl;
use crate::tower_race::TowerRace;
use crate::tron::Tron;

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

/// Lists the games once: their ids in [`GAME_IDS`], and [`with_game`]'s dispatch on them.
macro_rules! games {
    ($($game:ty),+ $(,)?) => {
        /// The id of every game the engine hosts.
        pub const GAME_IDS: [&str; [$(<$game as Catalog>::ID),+].len()] =
            [$(<$game as Catalog>::ID),+];

        /// Runs `task` with the game whose id is `id`; `None` for an unknown id.
        pub fn with_game<T: GameTask>(id: &str, task: T) -> Option<T::Output> {
            $(
                if id == <$game as Catalog>::ID {
                    return Some(task.run::<$game>());
                }
            )+
            None
        }
    };
}

games!(Tafl, FoxGeese, Hanoi, TowerRace, Tron, Driller);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Viewer;
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
