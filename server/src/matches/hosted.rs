//! A game of any kind behind one object-safe interface, so a room can run whichever game its
//! match is: actions arrive and leave as text in the game's notation, views as JSON.

use engine::ai::{Budget, Level};
use engine::catalog::Insights;
use engine::game::{Explain, PlayError, Viewer, Why};
use engine::registry::{GAME_IDS, GameTask, Hostable, with_game};
use engine::{MatchRng, Seat};
use protocol::{
    AnalysisInsights, ErrorReason, EscapeRoute, GameInfo, RuleBroken, SeatAction, ThreatenedPiece,
    VariantInfo,
};
use serde_json::Value;

use crate::error::{ApiError, ApiResult};

pub trait Hosted: Send {
    fn seat_count(&self) -> usize;
    /// Seats that must act now; empty once the game is over.
    fn to_act(&self) -> Vec<u8>;
    /// Plays `action` (in the game's notation) for `seat`; returns the action as the game writes
    /// it. Nothing changes on error.
    fn play(&mut self, seat: u8, action: &str) -> ApiResult<String>;
    /// The action a text denotes, written as [`Hosted::play`] writes it, whatever the spelling
    /// (a capture suffix, case, spacing); `None` if the text is no action of this game. Reading
    /// needs only what never changes in a game (its board's size), so any position gives the
    /// same answer: a resent command is recognised by what it means.
    fn canonical(&self, action: &str) -> Option<String>;
    /// Places per seat and the reason, once the game has ended by its own rules.
    fn outcome(&self) -> Option<(Vec<u8>, String)>;
    /// The state as one seat (or, for `None`, a spectator) may see it.
    fn view(&self, viewer: Option<u8>) -> Value;
    /// The actions `seat` may play now, as the game writes them; empty when it need not act.
    fn legal(&self, seat: u8) -> Vec<String>;
    /// Whether actions are secret from other seats (simultaneous hidden choices).
    fn hides_actions(&self) -> bool;
    /// Whether every seat and spectator always gets the same view and sees every action.
    fn one_view(&self) -> bool;
    /// The public state as text.
    fn render(&self) -> String;
    /// A copy to think about off the room's task.
    /// The game so far as a record in a notation other software reads, where the game has
    /// one: the format's name and the text.
    fn record(&self) -> Option<(&'static str, String)>;
    fn boxed_clone(&self) -> Box<dyn Hosted>;
    /// The AI's action for `seat` at `level`, thinking until `stop` says so; `None` if the seat
    /// has nothing to do.
    fn ai_action(&self, seat: u8, level: Level, stop: &dyn Fn() -> bool) -> Option<String>;
    /// The AI's analysis for `seat` (`engine::ai::Ai::analyse`), searching at most `max_nodes`
    /// and until `stop` says so; `None` when the game goes on and `seat` need not act.
    fn analyse(&self, seat: u8, max_nodes: u64, stop: &dyn Fn() -> bool) -> Option<Analysed>;
    /// What the position shows at a glance, for games that say (tafl).
    fn insights(&self) -> Option<AnalysisInsights>;
}

/// An analysis with its line in the game's notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysed {
    pub score: f64,
    pub line: Vec<SeatAction>,
    pub nodes: u64,
}

/// The seed of every analysis's own chance: the same position and node bound give the same
/// answer, unless the clock stops the search first.
const ANALYSIS_SEED: u64 = 0;

struct Live<G> {
    game: G,
    rng: MatchRng,
}

/// The refusal of a typed action that this game does not take here, for the engine's reason
/// where the text is an action of the game (`None` where it is not).
fn illegal(text: &str, why: Option<Why>) -> ErrorReason {
    ErrorReason::IllegalMove {
        action: text.to_string(),
        why: Box::new(why.map(rule_broken).unwrap_or_default()),
    }
}

/// The engine's reason as the wire carries it.
fn rule_broken(why: Why) -> RuleBroken {
    RuleBroken {
        why: Some(why.code.to_string()),
        why_params: (why.params.into_iter())
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
    }
}

fn seat_of(seat: u8) -> ApiResult<Seat> {
    Seat::new(usize::from(seat)).ok_or_else(|| {
        ApiError::new(
            ErrorReason::NoSuchSeat { seat },
            format!("there is no seat {seat}"),
        )
    })
}

impl<G: Hostable> Hosted for Live<G> {
    fn seat_count(&self) -> usize {
        self.game.seat_count()
    }

    fn to_act(&self) -> Vec<u8> {
        self.game.to_act().iter().map(|s| s.index() as u8).collect()
    }

    fn play(&mut self, seat: u8, text: &str) -> ApiResult<String> {
        let seat = seat_of(seat)?;
        let action = self
            .game
            .parse_action(text)
            .map_err(|e| ApiError::new(illegal(text, None), e.to_string()))?;
        self.game.play(seat, &action, &mut self.rng).map_err(|e| {
            let reason = match &e {
                PlayError::GameOver => ErrorReason::MatchOver,
                PlayError::NotYourTurn(_) => ErrorReason::NotYourTurn,
                PlayError::NoSuchSeat(s) => ErrorReason::NoSuchSeat {
                    seat: s.index() as u8,
                },
                PlayError::Illegal(e) => illegal(text, Some(e.why())),
            };
            ApiError::new(reason, e.to_string())
        })?;
        Ok(self.game.action_text(&action))
    }

    fn canonical(&self, text: &str) -> Option<String> {
        let action = self.game.parse_action(text).ok()?;
        Some(self.game.action_text(&action))
    }

    fn outcome(&self) -> Option<(Vec<u8>, String)> {
        self.game
            .outcome()
            .map(|o| (o.places().to_vec(), o.reason().to_string()))
    }

    fn view(&self, viewer: Option<u8>) -> Value {
        let viewer = match viewer.and_then(|s| Seat::new(usize::from(s))) {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        };
        serde_json::to_value(self.game.view(viewer)).unwrap_or(Value::Null)
    }

    fn legal(&self, seat: u8) -> Vec<String> {
        let Some(seat) = Seat::new(usize::from(seat)) else {
            return Vec::new();
        };
        (self.game.legal_actions(seat).iter())
            .map(|a| self.game.action_text(a))
            .collect()
    }

    fn hides_actions(&self) -> bool {
        self.game.hides_actions()
    }

    fn one_view(&self) -> bool {
        self.game.same_view_for_all() && !self.game.hides_actions()
    }

    fn render(&self) -> String {
        self.game.render()
    }

    fn record(&self) -> Option<(&'static str, String)> {
        self.game.record()
    }

    fn boxed_clone(&self) -> Box<dyn Hosted> {
        Box::new(Live {
            game: self.game.clone(),
            rng: self.rng.clone(),
        })
    }

    fn ai_action(&self, seat: u8, level: Level, stop: &dyn Fn() -> bool) -> Option<String> {
        let seat = Seat::new(usize::from(seat))?;
        let budget = Budget {
            max_nodes: u64::MAX,
            stop,
        };
        // The AI's own chance: never the match's, which must stay as the log replays it.
        let mut rng = MatchRng::from_seed(rand::random());
        let action = self.game.choose(seat, level, &budget, &mut rng)?;
        Some(self.game.action_text(&action))
    }

    fn analyse(&self, seat: u8, max_nodes: u64, stop: &dyn Fn() -> bool) -> Option<Analysed> {
        let seat = Seat::new(usize::from(seat))?;
        let budget = Budget { max_nodes, stop };
        let mut rng = MatchRng::from_seed(ANALYSIS_SEED);
        let analysis = self.game.analyse(seat, &budget, &mut rng)?;
        // Written as the game writes each action where it is played, which the match's own
        // chance decides: the line stops where that chance makes an action impossible.
        let mut game = self.game.clone();
        let mut chance = self.rng.clone();
        let mut line = Vec::with_capacity(analysis.line.len());
        for (seat, action) in &analysis.line {
            let text = game.action_text(action);
            if game.play(*seat, action, &mut chance).is_err() {
                break;
            }
            line.push(SeatAction {
                seat: seat.index() as u8,
                action: text,
            });
        }
        Some(Analysed {
            score: analysis.score,
            line,
            nodes: analysis.nodes,
        })
    }

    fn insights(&self) -> Option<AnalysisInsights> {
        let Insights {
            escapes,
            threatened,
        } = self.game.insights()?;
        Some(AnalysisInsights {
            escapes: escapes
                .into_iter()
                .map(|route| EscapeRoute {
                    seat: route.seat.index() as u8,
                    actions: route.actions,
                })
                .collect(),
            threatened: threatened
                .into_iter()
                .map(|piece| ThreatenedPiece {
                    square: piece.square,
                    seat: piece.seat.index() as u8,
                    by: piece.by,
                })
                .collect(),
        })
    }
}

struct Host<'a> {
    variant: &'a str,
    seats: usize,
    seed: u64,
    /// A position in the game's notation and the seat to move, instead of the start.
    position: Option<(&'a str, u8)>,
}

impl GameTask for Host<'_> {
    type Output = ApiResult<Box<dyn Hosted>>;

    fn run<G: Hostable>(self) -> Self::Output {
        let bad = |e: &dyn std::fmt::Display| ApiError::new(ErrorReason::BadRequest, e.to_string());
        let config = G::config(self.variant, self.seats).map_err(|e| bad(&e))?;
        let mut rng = MatchRng::from_seed(self.seed);
        let game = match self.position {
            None => G::new(&config, &mut rng).map_err(|e| bad(&e))?,
            Some((text, to_move)) => {
                let seat = seat_of(to_move)?;
                G::from_position(&config, text, seat).map_err(|e| bad(&e))?
            }
        };
        Ok(Box::new(Live { game, rng }))
    }
}

fn hosted(game: &str, task: Host<'_>) -> ApiResult<Box<dyn Hosted>> {
    with_game(game, task).unwrap_or_else(|| {
        Err(ApiError::new(
            ErrorReason::UnknownGame {
                game: game.to_string(),
            },
            format!("there is no game '{game}'"),
        ))
    })
}

/// A new game of `game`/`variant` for `seats` seats, its chance drawn from `seed`.
pub fn host(game: &str, variant: &str, seats: usize, seed: u64) -> ApiResult<Box<dyn Hosted>> {
    let task = Host {
        variant,
        seats,
        seed,
        position: None,
    };
    hosted(game, task)
}

/// A game of `game`/`variant` for `seats` seats at a position written in the game's notation
/// (tafl: OpenTafl's), with `to_move` to move, its chance drawn from `seed`.
pub fn host_position(
    game: &str,
    variant: &str,
    seats: usize,
    seed: u64,
    (text, to_move): (&str, u8),
) -> ApiResult<Box<dyn Hosted>> {
    let task = Host {
        variant,
        seats,
        seed,
        position: Some((text, to_move)),
    };
    hosted(game, task)
}

/// A variant's rules in the game's interchange notation (tafl: OpenTafl's rules string).
pub fn rules_text(game: &str, variant: &str) -> Option<String> {
    struct Rules<'a>(&'a str);
    impl GameTask for Rules<'_> {
        type Output = Option<String>;
        fn run<G: Hostable>(self) -> Option<String> {
            let seats = *G::seat_counts(self.0).start();
            G::rules_text(&G::config(self.0, seats).ok()?)
        }
    }
    with_game(game, Rules(variant)).flatten()
}

/// Every game the engine has, with its variants and seat names: the catalog clients build
/// their pickers from.
pub fn catalog() -> Vec<GameInfo> {
    struct Info;
    impl GameTask for Info {
        type Output = GameInfo;
        fn run<G: Hostable>(self) -> GameInfo {
            let variants: Vec<VariantInfo> = G::variants()
                .iter()
                .map(|&name| {
                    let seats = G::seat_counts(name);
                    VariantInfo {
                        name: name.to_string(),
                        min_seats: *seats.start() as u8,
                        max_seats: *seats.end() as u8,
                        rules: G::config(name, *seats.start())
                            .ok()
                            .and_then(|c| G::rules_text(&c)),
                    }
                })
                .collect();
            let most = variants.iter().map(|v| v.max_seats).max().unwrap_or(0);
            GameInfo {
                id: G::ID.to_string(),
                name: G::NAME.to_string(),
                seat_names: (0..usize::from(most))
                    .map(|s| match Seat::new(s).and_then(G::seat_name) {
                        Some(name) => name.to_string(),
                        None => format!("seat {}", s + 1),
                    })
                    .collect(),
                variants,
            }
        }
    }
    GAME_IDS
        .iter()
        .filter_map(|id| with_game(id, Info))
        .collect()
}

/// The longest variant a match may name: a custom tafl variant is a whole rules string.
const MAX_VARIANT: usize = 2000;

/// A game's variant and seat count as a match plays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub variant: String,
    pub seats: u8,
    /// One of the game's named variants. A game may also accept variants it does not name
    /// (tafl: any OpenTafl rules string): those are played casual, with no leaderboard and no
    /// queue.
    pub named: bool,
}

/// The variant and seat count asked for, checked by the engine's catalog without building a
/// game: the game's first variant when none is named, the variant's fewest seats when no count
/// is. A custom variant is played casual only.
pub fn settle(
    game: &str,
    variant: Option<&str>,
    seats: Option<u8>,
    rated: bool,
) -> ApiResult<Settled> {
    struct Settle<'a>(Option<&'a str>, Option<u8>, bool);
    impl GameTask for Settle<'_> {
        type Output = ApiResult<Settled>;
        fn run<G: Hostable>(self) -> ApiResult<Settled> {
            let variant = self.0.unwrap_or(G::variants()[0]);
            if variant.chars().count() > MAX_VARIANT {
                return Err(ApiError::new(
                    ErrorReason::VariantTooLong {
                        max: MAX_VARIANT as u32,
                    },
                    format!("a variant has at most {MAX_VARIANT} characters"),
                ));
            }
            let named = G::variants().contains(&variant);
            if self.2 && !named {
                return Err(ApiError::new(
                    ErrorReason::CustomVariantRated,
                    "custom variants are played casual: set rated to false, or choose a named \
                     variant",
                ));
            }
            let seats = self.1.map_or(*G::seat_counts(variant).start(), usize::from);
            G::config(variant, seats)
                .map_err(|e| ApiError::new(ErrorReason::BadRequest, e.to_string()))?;
            Ok(Settled {
                variant: variant.to_string(),
                seats: seats as u8,
                named,
            })
        }
    }
    with_game(game, Settle(variant, seats, rated)).unwrap_or_else(|| {
        Err(ApiError::new(
            ErrorReason::UnknownGame {
                game: game.to_string(),
            },
            format!("there is no game '{game}'"),
        ))
    })
}

#[cfg(test)]
mod tests {
    use protocol::ErrorCode;

    use super::*;

    #[test]
    fn a_tafl_game_is_played_through_text() {
        let mut g = host("tafl", "copenhagen", 2, 1).unwrap();
        assert_eq!(g.to_act(), vec![0]);
        assert_eq!(g.play(0, "d1-d3").unwrap(), "d1-d3");
        let err = g.play(0, "d3-d4").unwrap_err();
        assert_eq!(err.code, ErrorCode::NotYourTurn);
        let err = g.play(1, "zz").unwrap_err();
        assert_eq!(err.code, ErrorCode::IllegalAction);
        assert_eq!(
            err.reason,
            illegal("zz", None),
            "the text is the reason's parameter; it is no move, so the engine says no more"
        );
        let err = g.play(1, "f4-f1").unwrap_err();
        assert_eq!(err.code, ErrorCode::IllegalAction, "{err}");
        let ErrorReason::IllegalMove { why, .. } = &err.reason else {
            panic!("{err:?}")
        };
        assert_eq!(why.why.as_deref(), Some("blocked"), "{err}");
        assert_eq!(why.why_params["square"], "f2", "{err}");
        assert_eq!(g.view(None)["plies"], 1);
        assert!(host("chess", "x", 2, 0).is_err());
        assert!(host("tafl", "copenhagen", 3, 0).is_err());
    }
}
