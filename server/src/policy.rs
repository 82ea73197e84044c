//! Fair-play policy that more than one door enforces: guests play casual games only and do not
//! do what only an account that lasts needs, a player may keep only so many matches open, and
//! may create only so many tournaments a day. Each refusal is a clear error naming the reason
//! and the limit.

use protocol::{ErrorReason, PlayerId};

use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::store::Store;

/// The refusal a guest gets for anything rated.
pub fn guests_play_casual() -> ApiError {
    ApiError::new(
        ErrorReason::GuestsPlayCasual,
        "guests play casual games only: register an account to play rated",
    )
}

/// Refuses a rated game to a guest.
pub fn may_play(player: &Player, rated: bool) -> ApiResult<()> {
    if rated && player.guest {
        return Err(guests_play_casual());
    }
    Ok(())
}

/// Refuses a guest what only an account that lasts makes sense for: following players (a list
/// kept for later) and vacations (a correspondence game runs for weeks, a guest is removed
/// after days unused). Muting is not among them: it protects the guest. `what` names the
/// refused thing, as in "follow players".
pub fn accounts_only(player: &Player, what: &str) -> ApiResult<()> {
    if player.guest {
        return Err(ApiError::new(
            ErrorReason::GuestsCannot,
            format!("guests cannot {what}: a guest account is thrown away; register to {what}"),
        ));
    }
    Ok(())
}

/// Refuses one more match waiting for opponents to a player who has `limit` already, so that
/// nobody can flood the list of open challenges.
pub async fn may_open_match(store: &Store, limit: u32, player: &Player) -> ApiResult<()> {
    if store.open_matches_of(player.id).await? >= limit {
        return Err(ApiError::new(
            ErrorReason::TooManyOpenMatches { limit },
            format!(
                "you have {limit} matches waiting for opponents, the most allowed: \
                 play or abort one first"
            ),
        ));
    }
    Ok(())
}

/// Refuses one more tournament to a player who has created `limit` in the 24 hours before
/// `now_ms`.
pub async fn may_create_tournament(
    store: &Store,
    limit: u32,
    player: &Player,
    now_ms: i64,
) -> ApiResult<()> {
    let since = now_ms - 24 * 3600 * 1000;
    let created = store.tournaments_created_since(player.id, since).await?;
    if created >= limit {
        return Err(ApiError::new(
            ErrorReason::TournamentsPerDay { limit },
            format!("you have created {limit} tournaments in the last 24 hours, the most allowed"),
        ));
    }
    Ok(())
}

/// Why a rated match between these players is played casual, if it is: two of them have
/// played `limit` rated games against each other in the 24 hours before `now_ms`, so that the
/// same two accounts cannot trade rating without limit.
pub async fn rated_pair_limit(
    store: &Store,
    limit: u32,
    players: &[PlayerId],
    now_ms: i64,
) -> ApiResult<Option<String>> {
    let since = now_ms - 24 * 3600 * 1000;
    for (i, &a) in players.iter().enumerate() {
        for &b in &players[i + 1..] {
            if a != b && store.rated_games_between(a, b, since).await? >= limit {
                return Ok(Some(format!(
                    "these players have played {limit} rated games against each other in the \
                     last 24 hours: this one is casual"
                )));
            }
        }
    }
    Ok(None)
}
