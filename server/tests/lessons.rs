//! The lessons of the "Learn to play" pages (`web/lessons/<game>.json`), checked against the
//! engine itself: every step's position is one the game accepts, with the learner to act; every
//! move a step names is legal there and does what the step's text says (the captures, the win);
//! and every step's text is in every catalog. A rules change that breaks a lesson fails here.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;
use server::matches::hosted::{self, Hosted};

fn web() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web")
}

/// A lesson as the client reads it (web/pages/learn.js, web/lessons/player.js).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Lesson {
    game: String,
    variant: String,
    #[serde(default)]
    seats: Option<u8>,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    id: String,
    /// The position in the game's notation (tafl); else the variant's start.
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    to_move: Option<u8>,
    #[serde(default)]
    seed: Option<u64>,
    /// Actions played before the learner's turn, as `[seat, action]`.
    #[serde(default)]
    setup: Vec<(u8, String)>,
    /// The learner's seat.
    seat: u8,
    /// The squares the client outlines: nothing the engine plays.
    #[serde(default, rename = "marks")]
    _marks: Vec<String>,
    /// The right moves (every other is wrong, and "any" lists none), or
    #[serde(default)]
    right: Option<Moves>,
    /// the wrong ones (every other is right).
    #[serde(default)]
    wrong: Option<Vec<String>>,
    /// The other seats' actions after the learner's (games whose seats choose together).
    #[serde(default)]
    replies: Vec<(u8, String)>,
    /// What each listed move does.
    expect: Expect,
}

/// A step's right moves: some, or any legal move (a step that shows what a move does).
#[derive(Deserialize)]
#[serde(untagged)]
enum Moves {
    Listed(Vec<String>),
    Any(AnyMove),
}

#[derive(Deserialize)]
enum AnyMove {
    #[serde(rename = "any")]
    Any,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// Actions that no seat to act may play after the move (a capture it prevents).
    #[serde(default)]
    lacks: Vec<String>,
    /// The squares the move captures (tafl: the last move's `x` list).
    #[serde(default)]
    captures: Option<Vec<String>>,
    /// The places per seat the move ends the game with.
    #[serde(default)]
    places: Option<Vec<u8>>,
    /// Values at JSON pointers of the view after the move and its replies (null: nothing).
    #[serde(default)]
    view: BTreeMap<String, Value>,
    /// The same, where any of several values will do (a square among the deepest).
    #[serde(default)]
    view_one_of: BTreeMap<String, Vec<Value>>,
}

fn lessons() -> Vec<Lesson> {
    let mut found: Vec<Lesson> = std::fs::read_dir(web().join("lessons"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect();
    found.sort_by(|a, b| a.game.cmp(&b.game));
    found
}

/// The step's position, before the learner's move.
fn start(lesson: &Lesson, step: &Step) -> Result<Box<dyn Hosted>, String> {
    let seats = usize::from(lesson.seats.unwrap_or(2));
    let seed = step.seed.unwrap_or(0);
    let mut game = match &step.position {
        Some(text) => hosted::host_position(
            &lesson.game,
            &lesson.variant,
            seats,
            seed,
            (text, step.to_move.unwrap_or(step.seat)),
        ),
        None => hosted::host(&lesson.game, &lesson.variant, seats, seed),
    }
    .map_err(|e| format!("the position: {e:?}"))?;
    for (seat, action) in &step.setup {
        game.play(*seat, action)
            .map_err(|e| format!("setup {seat} {action}: {e:?}\n{}", game.render()))?;
    }
    Ok(game)
}

/// The captures written in the last move of a tafl view (`e3-e7xd7` or `g5-g1xd1/e1/f1`).
fn captures(view: &Value) -> Vec<String> {
    let last = view["last_move"].as_str().unwrap_or_default();
    match last.split_once('x') {
        Some((_, taken)) => taken.split('/').map(str::to_string).collect(),
        None => Vec::new(),
    }
}

#[test]
fn every_game_has_a_lesson() {
    let games: Vec<String> = lessons().into_iter().map(|l| l.game).collect();
    let mut every: Vec<String> = engine::registry::GAME_IDS
        .iter()
        .map(|g| g.to_string())
        .collect();
    every.sort();
    assert_eq!(games, every);
}

/// Whether the game after a move (and its replies) shows what the step expects; the error says
/// what it shows instead.
fn meets(expect: &Expect, after: &dyn Hosted) -> Result<(), String> {
    let view = after.view(None);
    if let Some(expected) = &expect.captures
        && &captures(&view) != expected
    {
        return Err(format!("captures {:?}, not {expected:?}", captures(&view)));
    }
    let places = after.outcome().map(|o| o.0);
    if places != expect.places {
        return Err(format!("places {places:?}, not {:?}", expect.places));
    }
    for seat in after.to_act() {
        let open = after.legal(seat);
        if let Some(action) = expect.lacks.iter().find(|a| open.contains(a)) {
            return Err(format!("{action} is open"));
        }
    }
    for (pointer, value) in &expect.view {
        // A null expects nothing there.
        let found = view.pointer(pointer).unwrap_or(&Value::Null);
        if found != value {
            return Err(format!("{pointer} is {found}, not {value}"));
        }
    }
    for (pointer, values) in &expect.view_one_of {
        let found = view.pointer(pointer).unwrap_or(&Value::Null);
        if !values.contains(found) {
            return Err(format!("{pointer} is {found}, none of {values:?}"));
        }
    }
    Ok(())
}

/// Whether an expectation says more than "nothing happens", so that a move outside the step's
/// list must not meet it.
fn telling(expect: &Expect) -> bool {
    expect.places.is_some()
        || expect.captures.as_ref().is_some_and(|c| !c.is_empty())
        || !expect.lacks.is_empty()
        || !expect.view.is_empty()
        || !expect.view_one_of.is_empty()
}

/// What is wrong with a step: its position, its moves or what they do. The moves it lists must
/// do what it expects, and, where that is telling, no other move may.
fn check(lesson: &Lesson, step: &Step) -> Result<(), String> {
    let game = start(lesson, step)?;
    if !game.to_act().contains(&step.seat) {
        return Err(format!(
            "seat {} is not to act but {:?}\n{}",
            step.seat,
            game.to_act(),
            game.render()
        ));
    }
    let legal = game.legal(step.seat);
    let listed = match (&step.right, &step.wrong) {
        (Some(Moves::Listed(right)), None) => right,
        (Some(Moves::Any(AnyMove::Any)), None) => &legal,
        (None, Some(wrong)) if legal.iter().any(|a| !wrong.contains(a)) => wrong,
        (None, Some(_)) => return Err("no right move is left".into()),
        _ => return Err("a step lists either its right moves or its wrong ones".into()),
    };
    if listed.is_empty() {
        return Err("no move listed".into());
    }
    if let Some(action) = listed.iter().find(|a| !legal.contains(a)) {
        return Err(format!(
            "{action} is not legal; the legal moves are {legal:?}\n{}",
            game.render()
        ));
    }
    for action in &legal {
        let mut after = game.boxed_clone();
        after
            .play(step.seat, action)
            .map_err(|e| format!("{e:?}"))?;
        for (seat, reply) in &step.replies {
            after
                .play(*seat, reply)
                .map_err(|e| format!("reply {seat} {reply} after {action}: {e:?}"))?;
        }
        let found = meets(&step.expect, after.as_ref());
        let shown = || format!("after {action}:\n{}\n{}", after.render(), after.view(None));
        match (listed.contains(action), found) {
            (true, Err(e)) => return Err(format!("{e}, {}", shown())),
            (false, Ok(())) if telling(&step.expect) => {
                return Err(format!(
                    "{action}, not listed, does what the step expects, {}",
                    shown()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn every_step_is_a_legal_position_and_its_moves_do_what_the_step_says() {
    let mut wrong = Vec::new();
    for lesson in lessons() {
        for step in &lesson.steps {
            if let Err(e) = check(&lesson, step) {
                wrong.push(format!("{} {}: {e}", lesson.game, step.id));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

fn catalog(path: PathBuf) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every step's goal, its answer to a right move and to a wrong one (where there can be one), and
/// each lesson's introduction, in every interface language (`web/i18n/*.json`).
#[test]
fn every_step_has_its_texts_in_every_language() {
    let mut keys = Vec::new();
    for lesson in lessons() {
        keys.push(format!("learn.{}.intro", lesson.game));
        for step in &lesson.steps {
            // A step where any move is right has no answer to a wrong one.
            let any = matches!(step.right, Some(Moves::Any(_)));
            let parts = if any {
                &["goal", "right"][..]
            } else {
                &["goal", "right", "wrong"]
            };
            for part in parts {
                keys.push(format!("learn.{}.{}.{part}", lesson.game, step.id));
            }
        }
    }
    let catalogs: Vec<PathBuf> = std::fs::read_dir(web().join("i18n"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert!(
        catalogs.len() >= 8,
        "the interface's languages: {catalogs:?}"
    );
    for path in catalogs {
        let texts = catalog(path.clone());
        for key in &keys {
            assert!(
                texts
                    .get(key)
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.is_empty()),
                "{} lacks {key}",
                path.display()
            );
        }
    }
}
