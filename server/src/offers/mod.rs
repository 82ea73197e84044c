//! Offers of a match to named players, and what they need: a rematch from a finished match
//! ([`rematch`]), a challenge to a named player ([`challenges`]), and the challenges' storage
//! ([`store`]). Whom a player follows and takes challenges from is their account's
//! (`accounts/follows.rs`, `accounts/settings.rs`).
//!
//! An offer accepted becomes a match through [`start`], the way every other door opens one
//! (`Rooms::open`): guests play casual, two accounts' rated games a day are limited, and the
//! game, variant and clock are checked as for any match. Who may challenge whom is decided here
//! ([`may_challenge`]), without I/O.

pub mod challenges;
pub mod rematch;
pub mod store;

use protocol::{ChallengePolicy, ErrorReason, MatchId};

use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::NewMatch;
use crate::matches::registry::Rooms;

/// Opens the match an offer's players agreed on, each in their seat.
pub async fn start(
    rooms: &Rooms,
    spec: NewMatch,
    seating: Vec<(u8, Player)>,
) -> ApiResult<MatchId> {
    for (_, player) in &seating {
        crate::policy::may_play(player, spec.rated)?;
    }
    rooms.open(spec, seating).await
}

/// Whether `to`, taking challenges as `policy` says and following `from` or not, may be
/// challenged by `from`: the refusal says why not.
pub fn may_challenge(
    from: &Player,
    to: &Player,
    policy: ChallengePolicy,
    follows_challenger: bool,
) -> ApiResult<()> {
    if from.id == to.id {
        return Err(ApiError::new(
            ErrorReason::ChallengeSelf,
            "you cannot challenge yourself",
        ));
    }
    if crate::accounts::player::ai_level(&to.name).is_some() {
        return Err(ApiError::new(
            ErrorReason::ChallengeAi,
            "the AI takes no challenges: play it from the lobby",
        ));
    }
    let name = to.name.clone();
    let (reason, refusal) = match policy {
        ChallengePolicy::Everyone => return Ok(()),
        ChallengePolicy::Followed if follows_challenger => return Ok(()),
        ChallengePolicy::Followed => (
            ErrorReason::ChallengesFromFollowedOnly { name },
            "takes challenges only from the accounts they follow",
        ),
        ChallengePolicy::Nobody => (
            ErrorReason::ChallengesFromNobody { name },
            "takes no challenges",
        ),
    };
    Err(ApiError::new(reason, format!("{} {refusal}", to.name)))
}

#[cfg(test)]
mod tests {
    use protocol::{ErrorCode, PlayerId};

    use super::*;

    fn player(id: i64, name: &str) -> Player {
        Player {
            id: PlayerId(id),
            name: name.to_string(),
            password_hash: None,
            guest: false,
        }
    }

    #[test]
    fn a_challenge_goes_where_the_challenged_player_allows() {
        let (alice, bjorn) = (player(1, "alice"), player(2, "bjorn"));
        let code = |policy, follows| {
            may_challenge(&alice, &bjorn, policy, follows)
                .err()
                .map(|e| e.code)
        };
        assert_eq!(code(ChallengePolicy::Everyone, false), None);
        assert_eq!(code(ChallengePolicy::Followed, true), None);
        assert_eq!(
            code(ChallengePolicy::Followed, false),
            Some(ErrorCode::Forbidden)
        );
        assert_eq!(
            code(ChallengePolicy::Nobody, true),
            Some(ErrorCode::Forbidden)
        );
        let yourself = may_challenge(&alice, &alice, ChallengePolicy::Everyone, true);
        assert_eq!(yourself.unwrap_err().code, ErrorCode::BadRequest);
        let ai = player(3, "ai-level-2");
        let the_ai = may_challenge(&alice, &ai, ChallengePolicy::Everyone, false);
        assert_eq!(the_ai.unwrap_err().code, ErrorCode::BadRequest);
    }
}
