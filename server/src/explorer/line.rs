//! A tafl game's positions and moves as the explorer counts them: each move with the hash of
//! the position it was played from, written in the engine's own notation so that a move
//! recorded elsewhere (the masters' `g3-e3xe2`) and the server's `g3-e3` are one move. Pure:
//! the engine does the replaying.

use engine::catalog::{Catalog, CatalogError};
use engine::game::Seat;
use engine::tafl::Tafl;
use engine::tafl::variants;

use super::PLIES;

/// One counted move: where it was played from, and what it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub position: u64,
    pub action: String,
}

/// Why a line could not be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The explorer counts the preset variants only: a custom rules string is one game's own.
    NotExplored(String),
    /// The position given could not be set up.
    BadPosition(String),
    /// The `ply`th action (from 1) could not be read or played.
    Illegal { ply: usize, why: String },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotExplored(variant) => {
                write!(f, "the explorer has no games of variant '{variant}'")
            }
            LineError::BadPosition(why) => write!(f, "{why}"),
            LineError::Illegal { ply, why } => write!(f, "move {ply}: {why}"),
        }
    }
}

/// A preset variant's start.
pub fn start(variant: &str) -> Result<Tafl, LineError> {
    Tafl::preset(variant)
        .filter(|_| variants::preset(variant).is_some())
        .ok_or_else(|| LineError::NotExplored(variant.to_string()))
}

/// A position of a preset variant written in OpenTafl notation, with `to_move` (seat 0 the
/// attackers) to move.
pub fn setup(variant: &str, position: &str, to_move: u8) -> Result<Tafl, LineError> {
    let rules = start(variant)?.rules().clone();
    let seat = Seat::new(usize::from(to_move))
        .ok_or_else(|| LineError::BadPosition(format!("there is no seat {to_move}")))?;
    Tafl::from_position(&rules, position, seat)
        .map_err(|CatalogError(why)| LineError::BadPosition(why))
}

/// Plays one action given as text, returning it in the engine's notation.
pub fn play(game: &mut Tafl, ply: usize, text: &str) -> Result<String, LineError> {
    let illegal = |why: String| LineError::Illegal { ply, why };
    let mv = game
        .parse_action(text)
        .map_err(|CatalogError(why)| illegal(why))?;
    game.play_move(mv).map_err(|e| illegal(e.to_string()))?;
    Ok(game.action_text(&mv))
}

/// The counted steps of a game of `variant` played by `actions`: at most [`PLIES`], ending
/// early where the game ends or an action cannot be played (a record of another server may
/// play on past an end its rules did not apply).
pub fn steps<'a>(
    variant: &str,
    actions: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Step>, LineError> {
    let mut game = start(variant)?;
    let mut steps = Vec::new();
    for (index, text) in actions.into_iter().take(PLIES).enumerate() {
        if game.to_move().is_none() {
            break;
        }
        let position = game.hash();
        match play(&mut game, index + 1, text) {
            Ok(action) => steps.push(Step { position, action }),
            Err(_) => break,
        }
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_counted_in_the_engines_notation_from_the_position_before() {
        let start_hash = start("copenhagen").unwrap().hash();
        let steps = steps("copenhagen", ["d1-d3", "e5-e2", "g1-g3"]).unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].position, start_hash);
        assert_ne!(steps[1].position, start_hash);
        let mut game = start("copenhagen").unwrap();
        play(&mut game, 1, "d1-d3").unwrap();
        assert_eq!(steps[1].position, game.hash());
    }

    #[test]
    fn a_transposition_is_one_position() {
        let mut one = start("copenhagen").unwrap();
        let mut two = start("copenhagen").unwrap();
        for (ply, text) in ["d1-d3", "e5-e2", "h1-h3"].into_iter().enumerate() {
            play(&mut one, ply + 1, text).unwrap();
        }
        for (ply, text) in ["h1-h3", "e5-e2", "d1-d3"].into_iter().enumerate() {
            play(&mut two, ply + 1, text).unwrap();
        }
        assert_eq!(one.hash(), two.hash());
    }

    #[test]
    fn a_line_stops_at_an_illegal_move_and_after_the_plies_counted() {
        assert_eq!(
            steps("copenhagen", ["d1-d3", "a1-a2", "g1-g3"])
                .unwrap()
                .len(),
            1
        );
        let shuffle = ["d1-d3", "e5-e2", "d3-d1", "e2-e5"];
        let long: Vec<&str> = shuffle.iter().cycle().take(100).copied().collect();
        assert!(steps("copenhagen", long).unwrap().len() <= PLIES);
    }

    #[test]
    fn custom_rules_are_not_explored() {
        assert!(matches!(
            start("dim:7 atkf:y"),
            Err(LineError::NotExplored(_))
        ));
        assert!(matches!(start("nonsense"), Err(LineError::NotExplored(_))));
    }

    #[test]
    fn a_position_set_up_has_the_hash_of_the_same_position_played_to() {
        let mut game = start("brandubh").unwrap();
        let text = game.legal_moves()[0];
        let text = game.action_text(&text);
        play(&mut game, 1, &text).unwrap();
        let view = engine::tafl::opentafl::print_position(&game.layout());
        let set = setup("brandubh", &view, 1).unwrap();
        assert_eq!(set.hash(), game.hash());
        assert!(setup("brandubh", "/nonsense/", 0).is_err());
        assert!(setup("brandubh", &view, 5).is_err());
    }
}
