//! Tafl puzzles: positions where the side to move (the solver) has a forced win, or wins a man
//! by force, within one to five of its moves, with a solution the engine proves unique at every
//! step of the solver's (see `prover` for the proof, `harvest` for where positions come from).
//!
//! A [`Puzzle`] is plain data that serialises to one JSON object (one line of
//! `data/puzzles/puzzles.jsonl`; the format is in `docs/engine.md`, "Puzzles").

mod harvest;
mod prover;

pub use harvest::{Harvest, SelfPlay, game_puzzles, self_play_game};
pub use prover::{Goal, Limits, MAX_MOVES, Proof, Unsolved};
pub(super) use prover::{decoys, prove};

use super::opentafl::{parse_move, parse_position, print_move, print_position};
use super::{Reason, Rules, Shieldwall, Side, Square, Tafl, variants};

/// What a puzzle is about: how its line ends, and what happens on the way.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// The king reaches an escape square.
    Escape,
    /// The king is taken.
    KingCapture,
    /// The defenders win by an exit fort.
    ExitFort,
    /// The attackers shut every defender away from the edge.
    Encirclement,
    /// The opponent is left without a move.
    NoMoves,
    /// A move of the solver's takes a shieldwall (two or more men in a row on the edge).
    Shieldwall,
    /// The goal is a man won, not the game.
    Material,
}

impl Theme {
    /// The theme of a game won this way.
    fn of_ending(reason: Reason) -> Option<Theme> {
        match reason {
            Reason::KingEscaped => Some(Theme::Escape),
            Reason::KingCaptured => Some(Theme::KingCapture),
            Reason::ExitFort => Some(Theme::ExitFort),
            Reason::Encirclement => Some(Theme::Encirclement),
            Reason::NoMoves => Some(Theme::NoMoves),
            Reason::Repetition => None,
        }
    }
}

/// Where a puzzle's position was found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// A recorded game: the collection's file name, the game's line in it (from 1), and the
    /// plies played before the position.
    Game {
        collection: String,
        game: u32,
        ply: u32,
    },
    /// The AI playing itself ([`self_play_game`] with this seed), after `ply` plies.
    SelfPlay { seed: u64, ply: u32 },
}

/// A proven puzzle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Puzzle {
    /// `<variant>-<the position's hash in hex>`: stable, and unique within a set, which holds
    /// each position once.
    pub id: String,
    /// The preset's name (`variants::NAMES`).
    pub variant: String,
    /// The position in OpenTafl notation.
    pub position: String,
    /// The solver.
    pub to_move: Side,
    pub goal: Goal,
    /// The solver's moves in the solution.
    pub moves: u8,
    /// The solution in OpenTafl notation with captures: the solver's moves and the opponent's
    /// longest-resisting replies alternately, ending with the solver's last move.
    pub line: Vec<String>,
    pub themes: Vec<Theme>,
    /// 1 (easiest) to 5: the solver's moves, plus one for three or more decoys and one more for
    /// eight or more.
    pub difficulty: u8,
    /// Other first moves that look good (they capture, or threaten to win at once) and fail.
    pub decoys: u32,
    pub source: Source,
}

/// Why a stored puzzle does not check out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError(pub String);

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// Proves the puzzle of the game's current position (taken without its history) for
    /// `goal`, or says why there is none.
    pub fn find(
        game: &Tafl,
        variant: &str,
        goal: Goal,
        limits: &Limits,
        source: Source,
    ) -> Result<Puzzle, Unsolved> {
        let (layout, turn) = (game.layout(), game.turn());
        let fresh = Tafl::from_layout(game.rules().clone(), &layout, turn)
            .expect("a position reached in a game suits its rules");
        if fresh.verdict().is_some() {
            return Err(Unsolved::NoSolution);
        }
        let proof = fresh.prove(goal, limits)?;
        let decoys = fresh.decoys(proof.line[0]);
        let mut after = fresh.clone();
        let mut line = Vec::with_capacity(proof.line.len());
        let mut themes = Vec::new();
        let dim = fresh.dim();
        for (ply, &mv) in proof.line.iter().enumerate() {
            let report = after.play_move(mv).expect("the prover's moves are legal");
            if ply % 2 == 0 && is_shieldwall(game.rules(), &report.captured, dim) {
                themes.push(Theme::Shieldwall);
            }
            line.push(print_move(mv, &report.captured, dim));
        }
        match goal {
            Goal::Win => {
                let verdict = after.verdict().expect("a winning line ends the game");
                themes.extend(Theme::of_ending(verdict.reason));
            }
            Goal::Material => themes.push(Theme::Material),
        }
        themes.sort();
        themes.dedup();
        let difficulty = (proof.moves + u8::from(decoys >= 3) + u8::from(decoys >= 8)).min(5);
        Ok(Puzzle {
            id: format!("{variant}-{:016x}", fresh.hash()),
            variant: variant.to_string(),
            position: print_position(&layout),
            to_move: turn,
            goal,
            moves: proof.moves,
            line,
            themes,
            difficulty,
            decoys: decoys as u32,
            source,
        })
    }

    /// The puzzle's game at its position, with the solver to move.
    pub fn game(&self) -> Result<Tafl, PuzzleError> {
        let rules = variants::preset(&self.variant)
            .ok_or_else(|| PuzzleError(format!("{}: no variant {}", self.id, self.variant)))?;
        let layout = parse_position(&self.position)
            .map_err(|e| PuzzleError(format!("{}: the position, {e}", self.id)))?;
        Tafl::from_layout(rules, &layout, self.to_move)
            .map_err(|e| PuzzleError(format!("{}: {e}", self.id)))
    }

    /// Proves the puzzle again from its position: the same goal, solution, themes and
    /// difficulty must come out (the same search within `max_nodes`).
    pub fn check(&self, max_nodes: u64) -> Result<(), PuzzleError> {
        let game = self.game()?;
        let limits = Limits {
            max_moves: self.moves,
            max_nodes,
        };
        let again = Puzzle::find(
            &game,
            &self.variant,
            self.goal,
            &limits,
            self.source.clone(),
        )
        .map_err(|e| PuzzleError(format!("{}: not proven again: {e:?}", self.id)))?;
        if &again != self {
            return Err(PuzzleError(format!(
                "{}: proven again as {again:?}, stored as {self:?}",
                self.id
            )));
        }
        // The stored line must also read back as moves of this board.
        for text in &self.line {
            parse_move(text, game.dim())
                .map_err(|e| PuzzleError(format!("{}: move {text} {e}", self.id)))?;
        }
        Ok(())
    }
}

/// Whether a move's captures are a shieldwall: two or more men side by side on one edge.
fn is_shieldwall(rules: &Rules, captured: &[Square], dim: u8) -> bool {
    if rules.shieldwall == Shieldwall::None || captured.len() < 2 {
        return false;
    }
    let edge = dim - 1;
    let files: Vec<u8> = captured.iter().map(|sq| sq.file(dim)).collect();
    let ranks: Vec<u8> = captured.iter().map(|sq| sq.rank(dim)).collect();
    // Captured squares come in square order, so a row's are consecutive.
    let in_a_row = |along: &[u8], across: &[u8]| {
        across
            .iter()
            .all(|&c| c == across[0] && (c == 0 || c == edge))
            && along.windows(2).all(|w| w[1] == w[0] + 1)
    };
    in_a_row(&files, &ranks) || in_a_row(&ranks, &files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::MatchRng;
    use crate::tafl::{Layout, Move, seat_of};

    const PLENTY: Limits = Limits {
        max_moves: 3,
        max_nodes: 10_000_000,
    };

    fn brandubh(diagram: &str, turn: Side) -> Tafl {
        let rules = variants::preset("brandubh").expect("a preset");
        let layout = Layout::from_diagram(diagram).expect("a diagram");
        Tafl::from_layout(rules, &layout, turn).expect("a legal position")
    }

    fn text(game: &Tafl, line: &[Move]) -> Vec<String> {
        line.iter()
            .map(|&mv| print_move(mv, &[], game.dim()))
            .collect()
    }

    #[test]
    fn a_single_way_out_is_a_one_move_escape() {
        let game = brandubh(
            "
            # . . . . . #
            . . . . . . .
            . . . A . . .
            . . . . . . .
            . . . . . . .
            . . . . . . A
            # . . K . A #",
            Side::Defenders,
        );
        let proof = game.prove(Goal::Win, &PLENTY).expect("a puzzle");
        assert_eq!(
            (proof.moves, text(&game, &proof.line)),
            (1, vec!["d1-a1".to_string()])
        );
    }

    #[test]
    fn two_ways_out_are_no_puzzle() {
        let game = brandubh(
            "
            # . . . . . #
            . . . . . . .
            . . . A . . .
            . . . . . . .
            . . . . . . .
            . . . . . . A
            # . . K . . #",
            Side::Defenders,
        );
        assert_eq!(game.prove(Goal::Win, &PLENTY), Err(Unsolved::NotUnique));
    }

    #[test]
    fn the_king_taken_in_one() {
        let game = brandubh(
            "
            # . . . . . #
            . . . . . . .
            . . A . . . .
            . . . . . . .
            . . . . . . .
            A K . . . . .
            # . . D . . #",
            Side::Attackers,
        );
        let puzzle =
            Puzzle::find(&game, "brandubh", Goal::Win, &PLENTY, source()).expect("a puzzle");
        assert_eq!(puzzle.line, ["c5-c2"]);
        assert_eq!(puzzle.themes, [Theme::KingCapture]);
    }

    #[test]
    fn a_man_won_that_cannot_be_won_back() {
        let game = brandubh(
            "
            # . . . . . #
            . . . . . . .
            . . . . . . .
            . . . K . . A
            . . . . D . .
            . . . . A . .
            # . . . . . #",
            Side::Attackers,
        );
        assert_eq!(game.prove(Goal::Win, &PLENTY), Err(Unsolved::NoSolution));
        let puzzle =
            Puzzle::find(&game, "brandubh", Goal::Material, &PLENTY, source()).expect("a puzzle");
        assert_eq!(
            (puzzle.moves, &puzzle.line[..]),
            (1, &["g4-e4xe3".to_string()][..])
        );
        assert_eq!(puzzle.themes, [Theme::Material]);
    }

    #[test]
    fn the_start_has_no_puzzle() {
        let game = Tafl::preset("brandubh").expect("a preset");
        let limits = Limits {
            max_moves: 2,
            ..PLENTY
        };
        assert_eq!(game.prove(Goal::Win, &limits), Err(Unsolved::NoSolution));
    }

    #[test]
    fn a_spent_budget_proves_nothing() {
        let game = Tafl::preset("brandubh").expect("a preset");
        let limits = Limits {
            max_moves: 3,
            max_nodes: 50,
        };
        assert_eq!(game.prove(Goal::Win, &limits), Err(Unsolved::OutOfBudget));
    }

    fn source() -> Source {
        Source::SelfPlay { seed: 0, ply: 0 }
    }

    /// The side to move's moves that win within `n` moves, found by trying every line.
    fn winners_by_brute_force(game: &Tafl, n: u8) -> Vec<Move> {
        let me = game.turn();
        let wins = |game: &Tafl, mv: Move| -> bool {
            let mut child = game.clone();
            child.play_move(mv).expect("a legal move");
            match child.verdict() {
                Some(verdict) => verdict.winner == Some(me),
                None => {
                    n > 1
                        && child.legal_moves().into_iter().all(|reply| {
                            let mut next = child.clone();
                            next.play_move(reply).expect("a legal move");
                            next.verdict().is_none()
                                && !winners_by_brute_force(&next, n - 1).is_empty()
                        })
                }
            }
        };
        game.legal_moves()
            .into_iter()
            .filter(|&mv| wins(game, mv))
            .collect()
    }

    /// The prover agrees with trying every line, on the last positions of random games (where
    /// wins are near): the same shortest win, the same first move, and no puzzle where two
    /// first moves win as soon.
    #[test]
    fn the_prover_agrees_with_brute_force() {
        let rules = variants::preset("brandubh").expect("a preset");
        let limits = Limits {
            max_moves: 2,
            max_nodes: 10_000_000,
        };
        let (mut puzzles, mut checked) = (0, 0);
        for seed in 0..12 {
            let mut rng = MatchRng::from_seed(seed);
            let mut game = Tafl::new(rules.clone()).expect("a preset");
            let mut positions = Vec::new();
            while game.verdict().is_none() {
                positions.push((game.layout(), game.turn()));
                let mv = crate::game::Game::random_action(&game, seat_of(game.turn()), &mut rng)
                    .expect("a move");
                game.play_move(mv).expect("a legal move");
            }
            for (layout, turn) in positions.iter().rev().take(5) {
                let fresh = Tafl::from_layout(rules.clone(), layout, *turn).expect("legal");
                let shortest = (1..=2)
                    .map(|n| (n, winners_by_brute_force(&fresh, n)))
                    .find(|(_, winners)| !winners.is_empty());
                let proved = fresh.prove(Goal::Win, &limits);
                checked += 1;
                match shortest {
                    None => assert_eq!(proved, Err(Unsolved::NoSolution)),
                    Some((_, winners)) if winners.len() > 1 => {
                        assert_eq!(proved, Err(Unsolved::NotUnique))
                    }
                    Some((n, winners)) => match proved {
                        Ok(proof) => {
                            puzzles += 1;
                            assert_eq!((proof.moves, proof.line[0]), (n, winners[0]));
                        }
                        // Unique first, but a later step of the solver's has two ways.
                        Err(e) => assert_eq!((n, e), (2, Unsolved::NotUnique)),
                    },
                }
            }
        }
        assert_eq!(checked, 60);
        assert!(puzzles >= 5, "only {puzzles} puzzles among the positions");
    }

    #[test]
    fn a_stored_puzzle_checks_and_a_changed_one_does_not() {
        let game = brandubh(
            "
            # . . . . . #
            . . . . . . .
            . . . A . . .
            . . . . . . .
            . . . . . . .
            . . . . . . A
            # . . K . A #",
            Side::Defenders,
        );
        let puzzle =
            Puzzle::find(&game, "brandubh", Goal::Win, &PLENTY, source()).expect("a puzzle");
        let json = serde_json::to_string(&puzzle).expect("serialises");
        let read: Puzzle = serde_json::from_str(&json).expect("reads back");
        assert_eq!(read, puzzle);
        read.check(1_000_000).expect("proven again");
        let changed = Puzzle {
            line: vec!["d1-b1".into()],
            ..puzzle.clone()
        };
        assert!(changed.check(1_000_000).is_err());
        let harder = Puzzle {
            difficulty: 4,
            ..puzzle
        };
        assert!(harder.check(1_000_000).is_err());
    }

    #[test]
    fn a_shieldwall_is_men_side_by_side_on_an_edge() {
        let rules = variants::preset("copenhagen").expect("a preset");
        let sq = |name: &str| crate::tafl::opentafl::parse_square(name, 11).expect("a square");
        assert!(is_shieldwall(&rules, &[sq("c1"), sq("d1"), sq("e1")], 11));
        assert!(is_shieldwall(&rules, &[sq("k4"), sq("k5")], 11));
        // Taken on both sides of the square moved to: two captures, no wall.
        assert!(!is_shieldwall(&rules, &[sq("c1"), sq("e1")], 11));
        assert!(!is_shieldwall(&rules, &[sq("c2"), sq("d2")], 11));
        let brandubh = variants::preset("brandubh").expect("a preset");
        assert!(!is_shieldwall(&brandubh, &[sq("c1"), sq("d1")], 7));
    }

    #[test]
    fn self_play_is_the_same_for_the_same_seed() {
        let rules = variants::preset("brandubh").expect("a preset");
        let play = SelfPlay {
            random_plies: 6,
            max_plies: 200,
        };
        let game = self_play_game(&rules, 5, &play);
        assert_eq!(self_play_game(&rules, 5, &play), game);
        assert_ne!(self_play_game(&rules, 6, &play), game);
    }
}
