//! Every tafl rule, tested on small boards written as diagrams (top rank first; `A` attacker,
//! `D` defender, `K` king, `.` empty, `#` an empty special square). Each test takes a preset's
//! rules and replaces only the start layout, so the switches under test are the preset's own.

use engine::tafl::opentafl::{parse_move, parse_rules, print_rules};
use engine::tafl::{IllegalMove, Layout, MoveReport, Reason, Rules, Side, Tafl, variants};

fn rules_on(variant: &str, diagram: &str) -> Rules {
    let mut rules = variants::preset(variant).unwrap();
    rules.start = Layout::from_diagram(diagram).unwrap();
    rules
}

fn game_with(rules: Rules, turn: Side) -> Tafl {
    let start = rules.start.clone();
    Tafl::from_layout(rules, &start, turn).unwrap()
}

fn game(variant: &str, turn: Side, diagram: &str) -> Tafl {
    game_with(rules_on(variant, diagram), turn)
}

/// Rules of `variant` with one rules-string switch changed.
fn tweaked(variant: &str, diagram: &str, switch: &str) -> Rules {
    let text = format!("{} {switch}", print_rules(&rules_on(variant, diagram)));
    parse_rules(&text).unwrap()
}

fn play(game: &mut Tafl, text: &str) -> MoveReport {
    let mv = parse_move(text, game.dim()).unwrap().mv;
    game.play_move(mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn try_play(game: &mut Tafl, text: &str) -> Result<MoveReport, IllegalMove> {
    game.play_move(parse_move(text, game.dim()).unwrap().mv)
}

/// Plays a move and names the men it captured.
fn takes(game: &mut Tafl, text: &str) -> Vec<String> {
    let report = play(game, text);
    captured(game, &report)
}

fn captured(game: &Tafl, report: &MoveReport) -> Vec<String> {
    report
        .captured
        .iter()
        .map(|sq| sq.name(game.dim()))
        .collect()
}

fn winner(game: &Tafl) -> Option<(Option<Side>, Reason)> {
    game.verdict().map(|v| (v.winner, v.reason))
}

// --- Custodial capture ------------------------------------------------------------------------

const SANDWICH: &str = "
    # . . . . . #
    . A D . . A .
    . . . . . . .
    . . . K . . .
    . . . . . . .
    . . . . . . .
    # . . . . . #";

#[test]
fn the_mover_captures_a_man_between_two_enemies() {
    let mut g = game("copenhagen", Side::Attackers, SANDWICH);
    let r = play(&mut g, "f6-d6");
    assert_eq!(captured(&g, &r), ["c6"]);
    assert_eq!(g.piece_at(r.captured[0]), None);
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let mut g = game(
        "copenhagen",
        Side::Defenders,
        "
        # . . . . . #
        . A . A . . .
        . . D . . . .
        . . . K . . .
        . . . . . . .
        . . . . . A .
        # . . . . . #",
    );
    let r = play(&mut g, "c5-c6");
    assert!(r.captured.is_empty());
    // The attackers do not capture it afterwards by standing still: only a move captures.
    play(&mut g, "f2-f3");
    assert!(
        g.piece_at(parse_move("c6-c6", 7).unwrap().mv.from)
            .is_some()
    );
}

#[test]
fn one_move_can_capture_several_men() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . A . . . #
        . . D . . . .
        A D . . . . A
        . . . . . . .
        . . . K . . .
        . . . . . . .
        # . . . . . #",
    );
    let r = play(&mut g, "g5-c5");
    assert_eq!(captured(&g, &r), ["b5", "c6"]);
}

// --- The king in captures: armed and weaponless --------------------------------------------------

const KING_HAMMER: &str = "
    # . . . . . #
    . . . . . . .
    . D A . K . .
    . . . . . . .
    . . . . . . .
    . . . . . A .
    # . . . . . #";

#[test]
fn an_armed_king_captures_as_hammer_and_anvil() {
    let mut g = game("hnefatafl", Side::Defenders, KING_HAMMER);
    let r = play(&mut g, "e5-d5");
    assert_eq!(captured(&g, &r), ["c5"]);

    let mut g = game(
        "copenhagen",
        Side::Defenders,
        "
        # . . . . . #
        . . K A . . D
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . A .
        # . . . . . #",
    );
    let r = play(&mut g, "g6-e6");
    assert_eq!(captured(&g, &r), ["d6"]);
}

#[test]
fn a_weaponless_king_takes_no_part_in_captures() {
    let mut g = game("hnefatafl-weaponless", Side::Defenders, KING_HAMMER);
    assert!(play(&mut g, "e5-d5").captured.is_empty());

    let mut g = game(
        "hnefatafl-weaponless",
        Side::Defenders,
        "
        . . . . . . .
        . . K A . . D
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . A .
        . . . . . . .",
    );
    assert!(play(&mut g, "g6-e6").captured.is_empty());
}

// --- Hostile squares -------------------------------------------------------------------------

#[test]
fn corners_are_hostile_to_both_sides_in_copenhagen() {
    let diagram = "
        # A . . . D #
        . . . . . . .
        . . . . . . .
        . . . K . . .
        . . . . . . .
        . . . . . . .
        # D . . . A #";
    let mut g = game("copenhagen", Side::Defenders, diagram);
    assert_eq!(takes(&mut g, "f7-c7"), ["b7"]);
    let mut g = game("copenhagen", Side::Attackers, diagram);
    assert_eq!(takes(&mut g, "f1-c1"), ["b1"]);
    // Without hostile corners (Tablut) nothing is taken.
    let mut g = game("tablut", Side::Attackers, diagram);
    assert!(play(&mut g, "f1-c1").captured.is_empty());
}

const BESIDE_THRONE: &str = "
    # . . . . . #
    . . . . . . A
    . . . D . . .
    . . . # . . .
    . . . . . . .
    . . . . . . .
    K . . . . . #";

#[test]
fn the_empty_throne_is_hostile_in_copenhagen_but_not_in_the_seed_rules() {
    let mut g = game("copenhagen", Side::Attackers, BESIDE_THRONE);
    assert_eq!(takes(&mut g, "g6-d6"), ["d5"]);
    let mut g = game("hnefatafl", Side::Attackers, BESIDE_THRONE);
    assert!(play(&mut g, "g6-d6").captured.is_empty());
}

#[test]
fn the_occupied_throne_is_hostile_to_attackers_only() {
    let defender_beside_king = "
        # . . . . . #
        . . . . . . A
        . . . D . . .
        . . . K . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #";
    let mut g = game("copenhagen", Side::Attackers, defender_beside_king);
    assert!(play(&mut g, "g6-d6").captured.is_empty());
    let attacker_beside_king = "
        # . . . . . #
        . . . . . . D
        . . . A . . .
        . . . K . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #";
    let mut g = game("copenhagen", Side::Defenders, attacker_beside_king);
    assert_eq!(takes(&mut g, "g6-d6"), ["d5"]);
    // Even with a weaponless king the throne he sits on is hostile to attackers (`cenh:t`).
    let rules = tweaked("copenhagen", attacker_beside_king, "ka:n");
    let mut g = game_with(rules, Side::Defenders);
    assert_eq!(takes(&mut g, "g6-d6"), ["d5"]);
}

#[test]
fn linnaean_capture_takes_a_defender_against_the_besieged_throne() {
    let diagram = "
        . . . . . . .
        . . . . . . .
        . . . A . . .
        . . A K A . .
        . . . D . . .
        . . . . . . A
        . . . . . . .";
    let mut g = game("tablut", Side::Attackers, diagram);
    assert_eq!(takes(&mut g, "g2-d2"), ["d3"]);
    let rules = tweaked("tablut", diagram, "linc:n");
    let mut g = game_with(rules, Side::Attackers);
    assert!(play(&mut g, "g2-d2").captured.is_empty());
}

// --- Restricted squares -------------------------------------------------------------------------

const OVER_THE_THRONE: &str = "
    # . . . . . #
    . . . A . . .
    . . . . . . .
    . . . # . . .
    . . . . . . .
    . . . . . . .
    K . . . . . #";

#[test]
fn men_may_pass_the_empty_throne_in_copenhagen_but_never_stop_on_it() {
    let mut g = game("copenhagen", Side::Attackers, OVER_THE_THRONE);
    assert!(matches!(
        try_play(&mut g, "d6-d4"),
        Err(IllegalMove::CannotStop { .. })
    ));
    play(&mut g, "d6-d2");
}

#[test]
fn in_the_seed_rules_only_the_king_may_pass_the_king_square() {
    let mut g = game("hnefatafl", Side::Attackers, OVER_THE_THRONE);
    let err = try_play(&mut g, "d6-d2").unwrap_err();
    assert_eq!(err.to_string(), "an attacker may not pass over d4");
    assert!(
        g.legal_moves()
            .iter()
            .all(|m| m.to.name(7) != "d2" && m.to.name(7) != "d4")
    );
}

#[test]
fn only_the_king_may_enter_a_corner() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # A . . . . #
        . . . . . . .
        . . . . . . .
        . . . K . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #",
    );
    assert!(matches!(
        try_play(&mut g, "b7-a7"),
        Err(IllegalMove::CannotStop { .. })
    ));
}

#[test]
fn illegal_moves_say_why_and_change_nothing() {
    let mut g = Tafl::preset("copenhagen").unwrap();
    let before = (g.layout(), g.hash());
    let cases = [
        (
            "f6-f7",
            "the piece on f6 does not belong to the attackers, who are to move",
        ),
        ("c3-c4", "there is no piece on c3"),
        ("a4-c6", "a4 to c6 is not along a rank or a file"),
        ("d1-d11", "the way is blocked by the piece on d6"),
        ("a4-a1", "an attacker may not stop on a1"),
    ];
    for (text, reason) in cases {
        assert_eq!(
            try_play(&mut g, text).unwrap_err().to_string(),
            reason,
            "{text}"
        );
    }
    assert_eq!((g.layout(), g.hash()), before);
    assert!(g.moves().is_empty());
}

// --- Capturing the king ------------------------------------------------------------------------

#[test]
fn a_strong_king_falls_to_four_attackers() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        . . A # . . .
        . A K A . . .
        . . . . A . .
        # . . . . . #",
    );
    let r = play(&mut g, "e2-c2");
    assert!(r.king_captured);
    assert_eq!(
        winner(&g),
        Some((Some(Side::Attackers), Reason::KingCaptured))
    );
    assert!(g.to_move().is_none());
}

#[test]
fn a_strong_king_beside_the_throne_falls_to_three_attackers() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . A
        . . A K A . .
        . . . # . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #",
    );
    assert!(play(&mut g, "g6-d6").king_captured);
}

#[test]
fn three_attackers_do_not_take_a_strong_king_away_from_the_throne() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        . . . # . . .
        . A K A . . .
        . . . . A . .
        # . . . . . #",
    );
    assert!(!play(&mut g, "e2-c2").king_captured);
    assert!(g.verdict().is_none());
}

#[test]
fn the_copenhagen_king_is_never_captured_on_the_edge() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        D . . # . . .
        . . . . . . .
        . . . . . A .
        # . A K A . #",
    );
    assert!(!play(&mut g, "f2-d2").king_captured);
    assert!(g.verdict().is_none());
}

#[test]
fn a_weak_king_is_sandwiched_like_a_man() {
    let mut g = game(
        "tawlbwrdd",
        Side::Attackers,
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . A K . . A .
        . . . . . . .
        . . . . . . .",
    );
    assert!(play(&mut g, "f3-d3").king_captured);
}

#[test]
fn a_brandubh_king_is_weak_away_from_the_throne_and_strong_beside_it() {
    let mut g = game(
        "brandubh",
        Side::Attackers,
        "
        # . . . . . #
        A K . . A . .
        . . . . . . .
        . . . # . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #",
    );
    assert!(play(&mut g, "e6-c6").king_captured);

    let beside = "
        # . . . . . #
        . . . . . . .
        . . A K . . .
        . . . # . . .
        . . . . . . .
        . . . . A . .
        # . . . . . #";
    let mut g = game("brandubh", Side::Attackers, beside);
    assert!(!play(&mut g, "e2-e5").king_captured);
    // With d6 held too, the throne is the fourth side.
    let mut g = game(
        "brandubh",
        Side::Attackers,
        &beside.replace(
            ". . . . . . .\n        . . A K",
            ". . . A . . .\n        . . A K",
        ),
    );
    assert!(play(&mut g, "e2-e5").king_captured);
}

#[test]
fn our_throne_or_two_attackers_king_is_not_taken_against_a_hostile_square() {
    let diagram = "
        # K . . . A #
        . . . . . . .
        . . . . . . .
        . . . # . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #";
    let mut weak = game_with(tweaked("copenhagen", diagram, "ks:w"), Side::Attackers);
    assert!(play(&mut weak, "f7-c7").king_captured);
    let mut ours = game_with(tweaked("copenhagen", diagram, "ks:a"), Side::Attackers);
    assert!(!play(&mut ours, "f7-c7").king_captured);
}

/// OpenTafl's `ks:m` (middleweight): the king is taken when every square next to him on the
/// board is hostile: three attackers take him against the edge, two in the open never do.
#[test]
fn an_opentafl_middleweight_king_is_confined_not_sandwiched() {
    let on_edge = "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        . . . # . . .
        . . . . . A .
        . . . . A . .
        # . . A K . #";
    let mut g = game_with(tweaked("copenhagen", on_edge, "ks:m"), Side::Attackers);
    assert!(play(&mut g, "f3-f1").king_captured);
    let mut strong = game("copenhagen", Side::Attackers, on_edge);
    assert!(!play(&mut strong, "f3-f1").king_captured);

    let in_the_open = "
        # . . . . . #
        . . . . . . A
        . K . . . . .
        . A . # . . .
        . . . . . . .
        . . . . . . .
        # . . . . . #";
    let mut g = game_with(tweaked("copenhagen", in_the_open, "ks:m"), Side::Attackers);
    assert!(!play(&mut g, "g6-b6").king_captured);
    let mut g = game_with(tweaked("copenhagen", in_the_open, "ks:a"), Side::Attackers);
    assert!(play(&mut g, "g6-b6").king_captured);
}

// --- Shieldwall --------------------------------------------------------------------------------

const WALL: &str = "
    # . . . . . #
    . . . . . . .
    . . . . . . .
    . . . K A . .
    . . . . . . .
    . . A A . . .
    # A D D . . #";

#[test]
fn a_shieldwall_is_captured_by_the_bracketing_move() {
    let mut g = game("copenhagen", Side::Attackers, WALL);
    assert_eq!(takes(&mut g, "e4-e1"), ["c1", "d1"]);
}

#[test]
fn fetlar_has_no_shieldwall() {
    let mut g = game("fetlar", Side::Attackers, WALL);
    assert!(play(&mut g, "e4-e1").captured.is_empty());
}

#[test]
fn closing_the_front_row_of_a_bracketed_wall_captures_nothing() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        . . . K . . .
        . . . A . . .
        . . A . . . .
        # A D D A . #",
    );
    assert!(play(&mut g, "d3-d2").captured.is_empty());
}

const CORNER_WALL: &str = "
    # . . . . . #
    . . . . . . .
    . . . . . . .
    . . . K . . .
    . . . . . . .
    . A A . . . .
    # D D . . A #";

#[test]
fn a_corner_closes_a_strong_shieldwall_but_not_a_weak_one() {
    let mut g = game("copenhagen", Side::Attackers, CORNER_WALL);
    assert_eq!(takes(&mut g, "f1-d1"), ["b1", "c1"]);
    let mut g = game_with(tweaked("copenhagen", CORNER_WALL, "sw:w"), Side::Attackers);
    assert!(play(&mut g, "f1-d1").captured.is_empty());
}

#[test]
fn the_king_stands_in_a_shieldwall_but_is_never_taken_by_it() {
    let mut g = game(
        "copenhagen",
        Side::Attackers,
        "
        # . . . . . #
        . . . . . . .
        . . . . . . .
        . . . # A . .
        . . . . . . .
        . . A A . . .
        # A D K . . #",
    );
    let r = play(&mut g, "e4-e1");
    assert_eq!(captured(&g, &r), ["c1"]);
    assert!(!r.king_captured);
    assert!(g.verdict().is_none());
}

// --- Exit fort -----------------------------------------------------------------------------------

const FORT: &str = "
    # . . . . . #
    . . . . . . .
    A . . . . . .
    . . . # . . .
    . . D . . . D
    . . D . D . .
    # . D K D . #";

#[test]
fn an_exit_fort_wins_for_the_defenders() {
    let mut g = game("copenhagen", Side::Defenders, FORT);
    play(&mut g, "g3-d3");
    assert_eq!(winner(&g), Some((Some(Side::Defenders), Reason::ExitFort)));
}

#[test]
fn a_fort_with_a_capturable_wall_is_no_exit_fort() {
    // Without c3, the defender landing on d3 could be taken between c3 and e3.
    let broken = FORT.replace(". . D . . . D", ". . . . . . D");
    let mut g = game("copenhagen", Side::Defenders, &broken);
    play(&mut g, "g3-d3");
    assert_eq!(g.verdict(), None);
}

#[test]
fn a_fort_the_king_cannot_move_in_is_no_exit_fort() {
    let shut = FORT.replace(". . D . D . .", ". . D D D . .");
    let mut g = game("copenhagen", Side::Defenders, &shut);
    play(&mut g, "g3-d3");
    assert_eq!(g.verdict(), None);
}

#[test]
fn fetlar_has_no_exit_fort() {
    let mut g = game("fetlar", Side::Defenders, FORT);
    play(&mut g, "g3-d3");
    assert_eq!(g.verdict(), None);
}

// --- Encirclement ------------------------------------------------------------------------------

const RING: &str = "
    # . . . . . #
    . . . A . . .
    . . A D A . .
    . A D K D A .
    . . A D A . .
    . . . . . . A
    # . . . . . #";

#[test]
fn enclosing_every_defender_wins_for_the_attackers() {
    let mut g = game("copenhagen", Side::Attackers, RING);
    play(&mut g, "g2-d2");
    assert_eq!(
        winner(&g),
        Some((Some(Side::Attackers), Reason::Encirclement))
    );
}

#[test]
fn one_defender_outside_the_ring_prevents_encirclement() {
    let open = RING.replace("# . . . . . #\n    . . . A", "# . . . . D #\n    . . . A");
    let mut g = game("copenhagen", Side::Attackers, &open);
    play(&mut g, "g2-d2");
    assert_eq!(g.verdict(), None);
    // Brandubh has no encirclement rule: the enclosed defenders simply have no move.
    let mut g = game("brandubh", Side::Attackers, RING);
    play(&mut g, "g2-d2");
    assert_eq!(winner(&g), Some((Some(Side::Attackers), Reason::NoMoves)));
}

// --- Escape ------------------------------------------------------------------------------------

const RUN: &str = "
    # . . . . . #
    . . . . . . .
    . . . . . . .
    . . . # . . .
    . . . . . A .
    . . . . . . .
    # . . K . . #";

#[test]
fn the_copenhagen_king_escapes_to_a_corner_not_an_edge() {
    let mut g = game("copenhagen", Side::Defenders, RUN);
    play(&mut g, "d1-a1");
    assert_eq!(
        winner(&g),
        Some((Some(Side::Defenders), Reason::KingEscaped))
    );
    let mut g = game("copenhagen", Side::Defenders, RUN);
    play(&mut g, "d1-b1");
    assert_eq!(g.verdict(), None);
}

#[test]
fn the_seed_king_escapes_to_any_edge_square() {
    let mut g = game(
        "hnefatafl",
        Side::Defenders,
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . K . . A .
        . . . . . . .
        . . . . . . .",
    );
    let mut g2 = g.clone();
    play(&mut g, "c3-a3");
    assert_eq!(
        winner(&g),
        Some((Some(Side::Defenders), Reason::KingEscaped))
    );
    play(&mut g2, "c3-c1");
    assert_eq!(
        winner(&g2),
        Some((Some(Side::Defenders), Reason::KingEscaped))
    );
}

#[test]
fn alea_evangelii_corners_are_two_by_two_blocks() {
    let mut g = game(
        "alea-evangelii",
        Side::Defenders,
        "
        # # . . . # #
        # # . . . # #
        . . . . . . .
        . . . . . . A
        . K . . . . .
        # # . . . # #
        # # . . . # #",
    );
    play(&mut g, "b3-b2");
    assert_eq!(
        winner(&g),
        Some((Some(Side::Defenders), Reason::KingEscaped))
    );
}

#[test]
fn no_move_is_accepted_after_the_end() {
    let mut g = game("copenhagen", Side::Defenders, RUN);
    play(&mut g, "d1-a1");
    assert_eq!(try_play(&mut g, "f3-f4"), Err(IllegalMove::GameOver));
    assert!(g.legal_moves().is_empty());
}

// --- Repetition --------------------------------------------------------------------------------

const SHUFFLE: &str = "
    # . . . . . #
    . A . . . . .
    . . . . . . .
    . . . K . . .
    . . . . . D .
    . . . . . . .
    # . . . . . #";

/// Plays the four-move cycle b6-b5, f3-f2, b5-b6, f2-f3 (or its defender-first rotation) until
/// the game ends or `max` moves are played; returns the number of moves played.
fn shuffle(g: &mut Tafl, max: usize) -> usize {
    let (a, d) = (["b6-b5", "b5-b6"], ["f3-f2", "f2-f3"]);
    let mut played = 0;
    let (mut ai, mut di) = (0, 0);
    while played < max && g.verdict().is_none() {
        if g.to_move() == Some(Side::Attackers) {
            play(g, a[ai % 2]);
            ai += 1;
        } else {
            play(g, d[di % 2]);
            di += 1;
        }
        played += 1;
    }
    played
}

#[test]
fn copenhagen_defenders_lose_by_making_a_third_repetition() {
    let mut g = game("copenhagen", Side::Attackers, SHUFFLE);
    // The start position occurs again after moves 4 and 8; move 8 is a defender move.
    assert_eq!(shuffle(&mut g, 20), 8);
    assert_eq!(
        winner(&g),
        Some((Some(Side::Attackers), Reason::Repetition))
    );
}

#[test]
fn a_third_repetition_made_by_the_copenhagen_attackers_is_not_punished() {
    let mut g = game("copenhagen", Side::Defenders, SHUFFLE);
    // Move 8 (attackers) repeats the start a third time and play goes on; move 9 (defenders)
    // repeats the position after move 1 a third time.
    assert_eq!(shuffle(&mut g, 20), 9);
    assert_eq!(
        winner(&g),
        Some((Some(Side::Attackers), Reason::Repetition))
    );
}

#[test]
fn repetition_rules_of_other_presets_and_switches() {
    let mut g = game("fetlar", Side::Attackers, SHUFFLE);
    assert_eq!(shuffle(&mut g, 20), 8);
    assert_eq!(winner(&g), Some((None, Reason::Repetition)));

    // OpenTafl's `w`: the side that makes the third occurrence (here the defenders, on move 8)
    // loses, and the side that must answer it wins; `l` is the reverse.
    let mut g = game_with(tweaked("copenhagen", SHUFFLE, "tfr:w"), Side::Attackers);
    assert_eq!(shuffle(&mut g, 20), 8);
    assert_eq!(
        winner(&g),
        Some((Some(Side::Attackers), Reason::Repetition))
    );

    let mut g = game_with(tweaked("copenhagen", SHUFFLE, "tfr:l"), Side::Attackers);
    assert_eq!(shuffle(&mut g, 20), 8);
    assert_eq!(
        winner(&g),
        Some((Some(Side::Defenders), Reason::Repetition))
    );

    let mut g = game_with(tweaked("copenhagen", SHUFFLE, "tfr:i"), Side::Attackers);
    assert_eq!(shuffle(&mut g, 20), 20);
    assert_eq!(g.verdict(), None);
}

#[test]
fn a_capture_resets_the_repetition_count() {
    // After the capture the earlier positions can never recur, so repeating the new position
    // only twice more is not yet a third occurrence of anything.
    let mut g = game("fetlar", Side::Attackers, SHUFFLE);
    assert_eq!(shuffle(&mut g, 7), 7);
    assert_eq!(g.verdict(), None);
}

// --- No legal move ----------------------------------------------------------------------------

#[test]
fn a_side_with_no_legal_move_loses() {
    let mut g = game(
        "tawlbwrdd",
        Side::Defenders,
        "
        A . . . D . .
        D . . . . . .
        . . . . . . .
        . . . K . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
    );
    let r = play(&mut g, "e7-b7");
    assert!(r.captured.is_empty());
    assert_eq!(winner(&g), Some((Some(Side::Defenders), Reason::NoMoves)));
}

#[test]
fn the_seed_rules_let_the_kings_side_move_first() {
    let g = Tafl::preset("hnefatafl").unwrap();
    assert_eq!(g.to_move(), Some(Side::Defenders));
    assert_eq!(
        Tafl::preset("copenhagen").unwrap().to_move(),
        Some(Side::Attackers)
    );
}

#[test]
fn a_position_needs_exactly_one_king() {
    let rules = variants::preset("brandubh").unwrap();
    let no_king = Layout::from_diagram(&SANDWICH.replace('K', ".")).unwrap();
    let err = Tafl::from_layout(rules, &no_king, Side::Attackers).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the position has 0 kings; exactly one needed"
    );
}

#[test]
fn a_position_may_not_put_a_man_where_he_may_not_stop() {
    let on_corner = Layout::from_diagram(&SANDWICH.replacen('#', "A", 1)).unwrap();
    let rules = rules_on("copenhagen", SANDWICH);
    let err = Tafl::from_layout(rules, &on_corner, Side::Attackers).unwrap_err();
    assert!(
        err.to_string().contains("an attacker stands on a7"),
        "{err}"
    );
    // The seed's corners are ordinary squares.
    let seed = rules_on("hnefatafl", SANDWICH);
    Tafl::from_layout(seed, &on_corner, Side::Attackers).unwrap();
}

#[test]
fn the_view_serialises_in_opentafl_notation() {
    use engine::game::{Game, Viewer};
    let mut g = Tafl::preset("copenhagen").unwrap();
    play(&mut g, "d1-d3");
    let json = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(json["to_move"], "defenders");
    assert_eq!(json["plies"], 1);
    assert_eq!(json["last_move"], "d1-d3");
    assert!(
        json["position"]
            .as_str()
            .unwrap()
            .starts_with("/4tttt3/5t5/3t7/"),
        "{json}"
    );
    let mut g = game("copenhagen", Side::Defenders, RUN);
    play(&mut g, "d1-a1");
    let json = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(json["verdict"]["reason"], Reason::KingEscaped.code());
    assert_eq!(json["verdict"]["winner"], "defenders");
}
