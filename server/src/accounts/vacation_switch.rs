//! The vacation switch over REST: a player reads their vacation, goes on one or comes back.
//! The rule and its storage are in [`super::vacation`], which the match rooms read too.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use protocol::{ErrorBody, ErrorReason, VacationState, VacationSwitch};

use super::auth::Authed;
use super::vacation::Allowance;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::matches::Command;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/me/vacation", get(vacation).put(set_vacation))
}

#[utoipa::path(
    get,
    path = "/api/me/vacation",
    tag = "players",
    summary = "Your vacation",
    description = "Whether the player of the session is on vacation and until when, and how \
        much vacation they have left in the last 365 days.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The vacation", body = VacationState),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
async fn vacation(
    State(state): State<AppState>,
    Authed(player): Authed,
) -> ApiResult<Json<VacationState>> {
    let rules = Allowance::of(state.config());
    let now = crate::clock::now_ms();
    let taken = state
        .store()
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    Ok(Json(rules.state(&taken, now)))
}

/// Goes on vacation or comes back: stored, then the rooms of the player's correspondence matches
/// are told, so that their clocks stop or run again at once (one running out needs nothing
/// stored: see `vacation.rs`).
#[utoipa::path(
    put,
    path = "/api/me/vacation",
    tag = "players",
    summary = "Go on vacation, or come back",
    description = "While the player is on vacation, the clocks of their correspondence matches \
        stand still and their opponents see it. A vacation lasts until the player comes back or \
        until their allowance (`--vacation-days` in any 365 days, 14 by default) is used up, \
        when their clocks run again; it lasts at least a day (`back_from_ms`). Setting what \
        already holds changes nothing. Accounts only: a guest, whose account is thrown away, \
        is refused with `forbidden`.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = VacationSwitch,
    responses(
        (status = 200, description = "The vacation now", body = VacationState),
        (status = 400, description = "`malformed` or `bad_request`: a bad body", body = ErrorBody),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
        (status = 403, description = "`forbidden`: a guest", body = ErrorBody),
        (status = 409, description = "`conflict`: no vacation left in the last 365 days, or coming back before the vacation has lasted a day", body = ErrorBody),
    ),
)]
async fn set_vacation(
    State(state): State<AppState>,
    Authed(player): Authed,
    Body(switch): Body<VacationSwitch>,
) -> ApiResult<Json<VacationState>> {
    crate::policy::accounts_only(&player, "take vacations")?;
    let rules = Allowance::of(state.config());
    let now = crate::clock::now_ms();
    let store = state.store();
    let taken = store
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    let until_ms = match (switch.on, taken.until(now)) {
        (true, Some(_)) | (false, None) => return Ok(Json(rules.state(&taken, now))),
        (true, None) => {
            let left = rules.left(&taken, now);
            if left == 0 {
                let days = state.config().vacation_days;
                return Err(ApiError::new(
                    ErrorReason::VacationUsedUp { days },
                    format!("no vacation left: a player has {days} days of it in any 365"),
                ));
            }
            store.start_vacation(player.id, now, now + left).await?;
            Some(now + left)
        }
        (false, Some(_)) => {
            rules.may_come_back(&taken, now)?;
            store.end_vacation(player.id, now).await?;
            None
        }
    };
    for id in store.per_move_matches_of(player.id).await? {
        let command = Command::Vacation {
            player: player.id,
            until_ms,
        };
        state.rooms().tell(id, command).await;
    }
    let taken = store
        .vacations_of(player.id, rules.year_before(now))
        .await?;
    Ok(Json(rules.state(&taken, now)))
}
