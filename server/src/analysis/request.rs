//! Checking an analysis request before anything is loaded or searched: which of the three
//! starting places it names, with only the fields that place takes, and sizes that bound the
//! work of building its position. Pure: no store, no engine.

use protocol::{AnalysisRequest, ErrorReason, MatchId, SeatAction};

use crate::error::{ApiError, ApiResult};

/// The most actions a request may play from its starting place.
pub const MAX_ACTIONS: usize = 1000;

/// The longest action or position text, in characters.
pub const MAX_TEXT: usize = 2000;

/// Where the analysed position starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A finished match, after `ply` of its actions (all of them when `None`).
    Match {
        id: MatchId,
        ply: Option<u32>,
        invite: Option<String>,
    },
    /// A game of a variant: its start, or a position in its notation with the seat to move.
    Game {
        game: String,
        variant: Option<String>,
        seats: Option<u8>,
        seed: u64,
        position: Option<(String, u8)>,
    },
}

/// A request that names one starting place properly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub start: Start,
    pub actions: Vec<SeatAction>,
    pub seat: Option<u8>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorReason::BadRequest, message)
}

/// The names of the fields of `fields` that are given.
fn given(fields: &[(&'static str, bool)]) -> Vec<&'static str> {
    fields
        .iter()
        .filter(|(_, present)| *present)
        .map(|(name, _)| *name)
        .collect()
}

pub fn check(request: AnalysisRequest) -> ApiResult<Checked> {
    if request.actions.len() > MAX_ACTIONS {
        return Err(bad(format!(
            "at most {MAX_ACTIONS} actions may be played before an analysis"
        )));
    }
    let long = |text: &str| text.chars().count() > MAX_TEXT;
    if request.actions.iter().any(|a| long(&a.action))
        || request.position.as_deref().is_some_and(long)
    {
        return Err(bad(format!(
            "an action or a position has at most {MAX_TEXT} characters"
        )));
    }
    let start = match request.match_id {
        Some(id) => {
            let stray = given(&[
                ("game", request.game.is_some()),
                ("variant", request.variant.is_some()),
                ("seats", request.seats.is_some()),
                ("seed", request.seed.is_some()),
                ("position", request.position.is_some()),
                ("to_move", request.to_move.is_some()),
            ]);
            if !stray.is_empty() {
                return Err(bad(format!(
                    "a match names its own game and position: leave out {}",
                    stray.join(", ")
                )));
            }
            Start::Match {
                id,
                ply: request.ply,
                invite: request.invite,
            }
        }
        None => {
            let stray = given(&[
                ("ply", request.ply.is_some()),
                ("invite", request.invite.is_some()),
            ]);
            if !stray.is_empty() {
                return Err(bad(format!(
                    "{} belong to a match: give its match_id",
                    stray.join(", ")
                )));
            }
            let game = request.game.ok_or_else(|| {
                bad("name the game, or the finished match whose position to analyse (match_id)")
            })?;
            let position = match (request.position, request.to_move) {
                (Some(text), Some(seat)) => Some((text, seat)),
                (None, None) => None,
                _ => {
                    return Err(bad(
                        "a position needs the seat to move (to_move), and only a position has one",
                    ));
                }
            };
            Start::Game {
                game,
                variant: request.variant,
                seats: request.seats,
                seed: request.seed.unwrap_or(0),
                position,
            }
        }
    };
    Ok(Checked {
        start,
        actions: request.actions,
        seat: request.seat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> AnalysisRequest {
        serde_json::from_value(json).unwrap()
    }

    fn refused(json: serde_json::Value) -> String {
        check(request(json)).unwrap_err().message
    }

    #[test]
    fn each_starting_place_takes_its_own_fields() {
        let checked = check(request(serde_json::json!({"match_id": 7, "ply": 3}))).unwrap();
        assert_eq!(
            checked.start,
            Start::Match {
                id: MatchId(7),
                ply: Some(3),
                invite: None
            }
        );
        let checked = check(request(serde_json::json!({
            "game": "tafl", "position": "/7/", "to_move": 1,
            "actions": [{"seat": 1, "action": "d4-d5"}], "seat": 0
        })))
        .unwrap();
        assert_eq!(
            checked.start,
            Start::Game {
                game: "tafl".into(),
                variant: None,
                seats: None,
                seed: 0,
                position: Some(("/7/".into(), 1))
            }
        );
        assert_eq!((checked.actions.len(), checked.seat), (1, Some(0)));
        let message = refused(serde_json::json!({"match_id": 7, "game": "tafl", "seed": 1}));
        assert!(message.contains("leave out game, seed"), "{message}");
        assert!(refused(serde_json::json!({"game": "tafl", "ply": 2})).contains("ply"));
        assert!(refused(serde_json::json!({"variant": "brandubh"})).contains("name the game"));
        assert!(
            refused(serde_json::json!({"game": "tafl", "position": "/7/"})).contains("to_move")
        );
        assert!(refused(serde_json::json!({"game": "tafl", "to_move": 0})).contains("to_move"));
    }

    #[test]
    fn sizes_are_bounded() {
        let actions: Vec<_> = (0..=MAX_ACTIONS)
            .map(|_| serde_json::json!({"seat": 0, "action": "a1-a2"}))
            .collect();
        assert!(
            refused(serde_json::json!({"game": "tafl", "actions": actions})).contains("actions")
        );
        let long = "/".repeat(MAX_TEXT + 1);
        let message = refused(serde_json::json!({"game": "tafl", "position": long, "to_move": 0}));
        assert!(message.contains("characters"), "{message}");
    }
}
