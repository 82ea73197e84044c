//! Analysis (`Ai::analyse`) of every game, and tafl's insights: the score is a result between 0
//! and 1, the line is legal from the position and starts with the analysed seat, an analysis is
//! the same given the same rng, a position one move from a win scores it for the winner (either
//! side), and a lost one scores it lost. Tafl boards are diagrams as in `tafl_ai.rs`.

use engine::MatchRng;
use engine::ai::{Ai, Budget};
use engine::fox_geese::{FoxGeese, Point, Side as FoxSide};
use engine::game::{Game, Seat, SeatSet};
use engine::registry::{GAME_IDS, GameTask, Hostable, with_game};
use engine::tafl::opentafl::{parse_move, print_move};
use engine::tafl::{Layout, Move, Piece, Side, Tafl, variants};

fn seat(index: usize) -> Seat {
    Seat::new(index).unwrap()
}

/// Nodes (tafl) or iterations (the rest) an analysis here may take.
const NODES: u64 = 400;

/// Analyses positions along random games of every variant of a game, at its fewest and most
/// seats, for the first seat to act: checks the score's range and the line (legal, starting
/// with the seat), that a seat that need not act gets nothing, that the same rng gives the same
/// analysis, and that a finished game gets its result. Games without chance (`exact`) must
/// replay the whole line; where chance decides, a replay under other chance may stop earlier,
/// so only the seat's own first action is sure to be legal.
struct Analyses {
    exact: bool,
}

impl GameTask for Analyses {
    type Output = ();

    fn run<G: Hostable>(self) {
        for variant in G::variants() {
            let range = G::seat_counts(variant);
            for seats in [*range.start(), *range.end()] {
                let config = G::config(variant, seats).unwrap();
                let mut rng = MatchRng::from_seed(3);
                let mut chooser = MatchRng::from_seed(4);
                let mut game = G::new(&config, &mut rng).unwrap();
                for step in 0.. {
                    let Some(first) = game.to_act().iter().next() else {
                        break;
                    };
                    if step % 7 == 0 {
                        check(&game, first, &rng, self.exact, G::ID, variant);
                    }
                    if step == 60 {
                        break;
                    }
                    let actions = game.legal_actions(first);
                    let action = chooser.choose(&actions).unwrap().clone();
                    game.play(first, &action, &mut rng).unwrap();
                }
                if let Some(outcome) = game.outcome() {
                    let places = outcome.places().to_vec();
                    let done = game
                        .analyse(seat(0), &Budget::nodes(NODES), &mut MatchRng::from_seed(1))
                        .unwrap();
                    assert!(done.line.is_empty() && done.nodes == 0);
                    let best = places[0] == 0 && !outcome.is_draw();
                    assert_eq!(done.score == 1.0, best, "{} {variant}", G::ID);
                }
            }
        }
    }
}

fn check<G: Hostable>(game: &G, first: Seat, rng: &MatchRng, exact: bool, id: &str, variant: &str) {
    let what = format!("{id} {variant}, {} seats, {first}", game.seat_count());
    let analyse =
        |seat: Seat| game.analyse(seat, &Budget::nodes(NODES), &mut MatchRng::from_seed(9));
    let analysis = analyse(first).unwrap_or_else(|| panic!("{what}: no analysis"));
    assert!(
        (0.0..=1.0).contains(&analysis.score),
        "{what}: {}",
        analysis.score
    );
    // Tafl looks at every root move for a win on the spot before it counts against the cap.
    let cap = NODES + game.legal_actions(first).len() as u64;
    assert!(analysis.nodes <= cap, "{what}: {} nodes", analysis.nodes);
    assert_eq!(
        analysis.line.first().map(|(s, _)| *s),
        Some(first),
        "{what}"
    );
    assert_eq!(
        analyse(first),
        Some(analysis.clone()),
        "{what}: not repeatable"
    );
    let mut replayed = game.clone();
    let mut chance = rng.clone();
    let legal = analysis
        .line
        .iter()
        .take_while(|(s, action)| replayed.play(*s, action, &mut chance).is_ok())
        .count();
    let needed = if exact { analysis.line.len() } else { 1 };
    assert!(
        legal >= needed,
        "{what}: only {legal} of {:?} legal",
        analysis.line
    );
    if let Some(idle) = (0..game.seat_count())
        .map(seat)
        .find(|s| !game.to_act().contains(*s))
    {
        assert_eq!(analyse(idle), None, "{what}: {idle} need not act");
    }
}

#[test]
fn every_game_analyses_with_a_legal_line_and_a_score_in_range() {
    for id in GAME_IDS {
        let exact = ["tafl", "fox-geese", "hanoi"].contains(&id);
        with_game(id, Analyses { exact }).unwrap();
    }
}

fn tafl(variant: &str, turn: Side, diagram: &str) -> Tafl {
    let mut rules = variants::preset(variant).unwrap();
    rules.start = Layout::from_diagram(diagram).unwrap();
    let start = rules.start.clone();
    Tafl::from_layout(rules, &start, turn).unwrap()
}

fn mv(game: &Tafl, text: &str) -> Move {
    parse_move(text, game.dim()).unwrap().mv
}

fn names(game: &Tafl, moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&m| print_move(m, &[], game.dim()))
        .collect()
}

/// Brandubh: the king on a5 sees the corner a7; the a-file below him is shut by his own man.
const ESCAPE: &str = "
    # . . . . . #
    . . . . . . .
    K . . . . . .
    . . . . . A .
    D . . A . . .
    . . . . . . .
    # . . . . A #";

/// Brandubh: the king on c6, away from the throne, is weak; g6-d6 sandwiches him against b6.
const CAPTURE: &str = "
    # . . . . . #
    . A K . . . A
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . D . . . . .
    # . . . . . #";

/// Brandubh, the attackers to move: the king on a4 has open lines to both corners of the
/// a-file, and one move blocks only one of them.
const FORK: &str = "
    # . . . . . #
    . . . . . A .
    . . . . . . .
    K . . . A . .
    . . . . . . .
    . A . . . . .
    # . . . . . #";

#[test]
fn a_move_that_wins_at_once_scores_for_its_side_and_leads_the_line() {
    for (diagram, turn, winning) in [
        (ESCAPE, Side::Defenders, "a5-a7"),
        (CAPTURE, Side::Attackers, "g6-d6"),
    ] {
        let game = tafl("brandubh", turn, diagram);
        let me = engine::tafl::seat_of(turn);
        let analysis = game
            .analyse(me, &Budget::nodes(50_000), &mut MatchRng::from_seed(0))
            .unwrap();
        assert!(analysis.score >= 0.9, "{turn:?}: {}", analysis.score);
        assert_eq!(analysis.line, vec![(me, mv(&game, winning))]);
        let other = engine::tafl::seat_of(turn.opponent());
        assert_eq!(
            game.analyse(other, &Budget::nodes(10), &mut MatchRng::from_seed(0)),
            None
        );
    }
    // The same holds for the generic search, for either side of a hunt: the fox takes the
    // fourth goose of four, and the geese close the trap on the fox.
    let fox = FoxGeese::from_points(p("d5"), &points("d4 a3 g3 c1"), FoxSide::Fox).unwrap();
    let geese = FoxGeese::from_points(p("c7"), &points("e7 c6 c5 d6"), FoxSide::Geese).unwrap();
    for (game, me) in [(&fox, seat(1)), (&geese, seat(0))] {
        let analysis = game
            .analyse(me, &Budget::nodes(2_000), &mut MatchRng::from_seed(0))
            .unwrap();
        assert!(analysis.score >= 0.9, "{me}: {}", analysis.score);
        let (first, action) = &analysis.line[0];
        let mut after = game.clone();
        after
            .play(*first, action, &mut MatchRng::from_seed(0))
            .unwrap();
        assert_eq!(
            after.outcome().map(|o| o.winners()),
            Some(SeatSet::single(me))
        );
    }
}

fn p(name: &str) -> Point {
    Point::parse(name).unwrap()
}

fn points(names: &str) -> Vec<Point> {
    names.split(' ').map(p).collect()
}

#[test]
fn a_lost_position_scores_low_and_its_line_ends_with_the_win() {
    let game = tafl("brandubh", Side::Attackers, FORK);
    let analysis = game
        .analyse(
            seat(0),
            &Budget::nodes(100_000),
            &mut MatchRng::from_seed(0),
        )
        .unwrap();
    assert!(analysis.score <= 0.1, "{}", analysis.score);
    assert_eq!(analysis.line.len(), 2, "{:?}", analysis.line);
    let mut after = game.clone();
    for (s, m) in &analysis.line {
        after.play(*s, m, &mut MatchRng::from_seed(0)).unwrap();
    }
    assert_eq!(
        after.verdict().and_then(|v| v.winner),
        Some(Side::Defenders)
    );
}

/// Brandubh, the attackers to move: the king on b4 is one move from the a-file's open lines to
/// two corners; the defender on d2 stands between the attacker on c2 and e2, which the attacker
/// on e5 can reach; the attacker on f3 stands between the defender on g3 and e3, which the
/// defender on e1 can reach; and the attacker on c2 between d2 and b2, which the king, armed in
/// Brandubh, can reach.
const INSIGHTS: &str = "
    # . . . . . #
    . . . . . . .
    . . . . A . .
    . K . . . . .
    . . . . . A D
    . . A D . . .
    # . . . D . #";

#[test]
fn tafl_insights_name_the_escapes_the_routes_and_the_threatened_pieces() {
    let game = tafl("brandubh", Side::Attackers, INSIGHTS);
    let found = game.insights();
    assert!(
        found.escapes.is_empty(),
        "{:?}",
        names(&game, &found.escapes)
    );
    let routes: Vec<Vec<String>> = found.routes.iter().map(|r| names(&game, r)).collect();
    for route in [["b4-a4", "a4-a7"], ["b4-a4", "a4-a1"], ["b4-b7", "b7-a7"]] {
        assert!(
            routes.contains(&route.map(String::from).to_vec()),
            "{routes:?}"
        );
    }
    let corners = ["a1", "a7", "g1", "g7"];
    assert!(
        routes
            .iter()
            .all(|r| corners.iter().any(|c| r[1].ends_with(c))),
        "{routes:?}"
    );
    let threatened: Vec<(String, Piece, Vec<String>)> = found
        .threatened
        .iter()
        .map(|t| (t.square.name(game.dim()), t.piece, names(&game, &t.by)))
        .collect();
    assert_eq!(
        threatened,
        vec![
            ("c2".to_string(), Piece::Attacker, vec!["b4-b2".to_string()]),
            ("d2".to_string(), Piece::Defender, vec!["e5-e2".to_string()]),
            ("f3".to_string(), Piece::Attacker, vec!["e1-e3".to_string()]),
        ]
    );
    // With the king on the a-file, two of the routes are escapes, and the only route left
    // runs along the open fourth rank to g7 (not to a7 or a1 again by a detour).
    let mut moved = game.clone();
    moved.play_move(mv(&game, "e5-e6")).unwrap();
    moved.play_move(mv(&game, "b4-a4")).unwrap();
    let found = moved.insights();
    let escapes = names(&moved, &found.escapes);
    assert_eq!(escapes.len(), 2, "{escapes:?}");
    assert!(escapes.contains(&"a4-a7".into()) && escapes.contains(&"a4-a1".into()));
    let routes: Vec<Vec<String>> = found.routes.iter().map(|r| names(&moved, r)).collect();
    assert_eq!(routes, vec![vec!["a4-g4".to_string(), "g4-g7".to_string()]]);
}
