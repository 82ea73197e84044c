//! A bot's own copy of a match, to know whose turn it is and which moves are legal: any game of
//! the engine's catalog, driven through action text as the server is.
//!
//! The copy is exact for games without chance or hidden information (every tafl variant, Fox and
//! Geese). In games whose state depends on the match's secret seed, the copy may drift from the
//! server's; the server then refuses a move, and the bot gives the match up.

use engine::game::Game;
use engine::registry::{GameTask, with_game};
use engine::{Catalog, MatchRng, Seat};

use crate::Result;

pub trait LocalGame: Send {
    /// Seats that must act now; empty once the game is over.
    fn to_act(&self) -> Vec<u8>;
    /// A legal action for `seat`, chosen with `pick` (given the number of legal actions, it
    /// returns an index below it), in the game's notation.
    fn choose(&self, seat: u8, pick: &mut dyn FnMut(usize) -> usize) -> Option<String>;
    /// Plays an action given in the game's notation.
    fn play(&mut self, seat: u8, action: &str) -> Result<()>;
}

struct Copy<G> {
    game: G,
    rng: MatchRng,
}

impl<G: Catalog> LocalGame for Copy<G> {
    fn to_act(&self) -> Vec<u8> {
        self.game.to_act().iter().map(|s| s.index() as u8).collect()
    }

    fn choose(&self, seat: u8, pick: &mut dyn FnMut(usize) -> usize) -> Option<String> {
        let seat = Seat::new(usize::from(seat))?;
        let actions = self.game.legal_actions(seat);
        if actions.is_empty() {
            return None;
        }
        let i = pick(actions.len()).min(actions.len() - 1);
        Some(self.game.action_text(&actions[i]))
    }

    fn play(&mut self, seat: u8, text: &str) -> Result<()> {
        let seat = Seat::new(usize::from(seat)).ok_or("no such seat")?;
        let action = self.game.parse_action(text)?;
        self.game
            .play(seat, &action, &mut self.rng)
            .map_err(|e| format!("{text}: {e}"))?;
        Ok(())
    }
}

struct New<'a> {
    variant: Option<&'a str>,
    seed: u64,
}

impl GameTask for New<'_> {
    type Output = Result<Box<dyn LocalGame>>;

    fn run<G: Catalog + Game<View: serde::Serialize>>(self) -> Self::Output {
        let variant = self.variant.unwrap_or(G::variants()[0]);
        let seats = *G::seat_counts(variant).start();
        let config = G::config(variant, seats)?;
        let mut rng = MatchRng::from_seed(self.seed);
        let game = G::new(&config, &mut rng).map_err(|e| e.to_string())?;
        Ok(Box::new(Copy { game, rng }))
    }
}

/// A new game of `game` (its default variant when `variant` is `None`) with its fewest seats.
pub fn new_game(game: &str, variant: Option<&str>, seed: u64) -> Result<Box<dyn LocalGame>> {
    with_game(game, New { variant, seed })
        .unwrap_or_else(|| Err(format!("the engine has no game '{game}'").into()))
}

/// A small, fast random number generator (SplitMix64) for choosing moves.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_brandubh_games_are_played_to_the_end() {
        let mut rng = Rng::new(7);
        for _ in 0..5 {
            let mut game = new_game("tafl", Some("brandubh"), 0).unwrap();
            let mut plies = 0;
            while let Some(&seat) = game.to_act().first() {
                let action = game.choose(seat, &mut |n| rng.below(n)).unwrap();
                assert!(action.contains('-'), "{action}");
                game.play(seat, &action).unwrap();
                plies += 1;
                assert!(plies < 100_000);
            }
        }
    }

    #[test]
    fn unknown_games_and_variants_are_refused() {
        assert!(new_game("chess", None, 0).is_err());
        assert!(new_game("tafl", Some("nope"), 0).is_err());
        assert!(new_game("fox-geese", None, 0).is_ok());
    }
}
