//! Where puzzles come from: the positions of a game, recorded or played by the AI against
//! itself, each asked for a puzzle in turn.

use super::{Goal, Limits, Puzzle, Source};
use crate::ai::{Ai, Budget, Level};
use crate::rng::MatchRng;
use crate::tafl::search::{MATE, SearchParams};
use crate::tafl::{Move, Rules, Tafl, seat_of};

/// How hard each position is looked at.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Harvest {
    /// The search for a forced win.
    pub win: Limits,
    /// The AI search's node budget when it looks for a win before the prover is asked.
    pub scout_nodes: u64,
    /// The search for a man won by force (tried when there is no win); `None` skips it.
    pub material: Option<Limits>,
}

/// The puzzles in one game: every position from the start on, the win asked first, then a man
/// won (only lines of two moves or more: taking a man left hanging is no puzzle). A position
/// inside the solution of a puzzle already found is skipped, so one combination gives one
/// puzzle (its longest form). `source` names the position `ply` plies in.
pub fn game_puzzles(
    variant: &str,
    rules: &Rules,
    moves: &[Move],
    harvest: &Harvest,
    source: impl Fn(u32) -> Source,
) -> Vec<Puzzle> {
    let mut game = Tafl::new(rules.clone()).expect("presets are valid");
    let mut found = Vec::new();
    let mut skip_until = 0;
    for (ply, &mv) in moves.iter().enumerate() {
        if game.verdict().is_some() {
            break;
        }
        if ply >= skip_until {
            let puzzle = position_puzzle(&game, variant, harvest, source(ply as u32));
            if let Some(puzzle) = puzzle {
                skip_until = ply + puzzle.line.len();
                found.push(puzzle);
            }
        }
        if game.play_move(mv).is_err() {
            break;
        }
    }
    found
}

/// The puzzle at the game's current position: a win, or else a man won in two moves or more.
fn position_puzzle(
    game: &Tafl,
    variant: &str,
    harvest: &Harvest,
    source: Source,
) -> Option<Puzzle> {
    if sees_a_win(game, harvest) {
        let found = Puzzle::find(game, variant, Goal::Win, &harvest.win, source.clone());
        if let Ok(puzzle) = found {
            return Some(puzzle);
        }
    }
    let limits = harvest.material?;
    Puzzle::find(game, variant, Goal::Material, &limits, source)
        .ok()
        .filter(|puzzle| puzzle.moves >= 2)
}

/// Whether the AI's search, within `harvest.scout_nodes`, finds a win for the side to move within
/// the solver's moves allowed: only then is the prover asked, whose "no" costs far more. The
/// search may miss a win (its reductions), which only leaves a puzzle unfound.
fn sees_a_win(game: &Tafl, harvest: &Harvest) -> bool {
    let plies = 2 * u32::from(harvest.win.max_moves) - 1;
    let params = SearchParams::new(plies, harvest.scout_nodes);
    let fresh = Tafl::from_layout(game.rules().clone(), &game.layout(), game.turn())
        .expect("a position reached in a game suits its rules");
    let report = fresh.search_info(
        &params,
        &Budget::nodes(harvest.scout_nodes),
        &mut MatchRng::from_seed(0),
    );
    report.score >= MATE - plies as i32
}

/// How the AI plays itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Random moves at the start, so that no two seeds play the same game: up to this many
    /// (the number drawn too).
    pub random_plies: u64,
    /// The most plies a game may last.
    pub max_plies: usize,
}

/// One game of the AI against itself from the rules' start, everything drawn from `seed`:
/// a few random opening moves, then each side at a level of 2 or 3 drawn for the game.
pub fn self_play_game(rules: &Rules, seed: u64, play: &SelfPlay) -> Vec<Move> {
    let mut rng = MatchRng::from_seed(seed);
    let mut game = Tafl::new(rules.clone()).expect("presets are valid");
    let random = rng.below(play.random_plies + 1) as usize;
    let levels = [2, 2].map(|low| Level::new(low + rng.below(2) as u8).expect("2 or 3"));
    let budget = Budget::nodes(u64::MAX);
    let mut moves = Vec::new();
    while moves.len() < play.max_plies {
        let Some(side) = game.to_move() else { break };
        let seat = seat_of(side);
        let mv = if moves.len() < random {
            crate::game::Game::random_action(&game, seat, &mut rng)
        } else {
            game.choose(seat, levels[side.seat_index()], &budget, &mut rng)
        };
        let Some(mv) = mv else { break };
        game.play_move(mv).expect("the AI plays legal moves");
        moves.push(mv);
    }
    moves
}
