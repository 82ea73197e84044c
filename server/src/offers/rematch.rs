//! Rematches over the socket (`offer_rematch`, `answer_rematch`). The finished match's room
//! keeps the offer and tells its followers (`matches/room/rematch.rs`); when the last player agrees,
//! the new match is opened here, as every offer's is, and the room is told how it went: it
//! sends `rematch_started` to the page, or undoes the last agreement if the match could not be
//! opened.

use protocol::{Ack, MatchId};

use crate::accounts::player::Player;
use crate::error::ApiResult;
use crate::matches::Command;
use crate::matches::registry::Rooms;
use crate::matches::{Deal, RematchAnswer};

/// A player's word on a finished match's rematch. Acked with the finished match, or, when this
/// was the last agreement, with the new match, the player's seats in it and, when it is
/// private, its invite code.
pub async fn answer(
    rooms: &Rooms,
    player: &Player,
    match_id: MatchId,
    answer: RematchAnswer,
) -> ApiResult<Ack> {
    let id = player.id;
    let deal: Option<Deal> = rooms
        .ask(match_id, Command::Rematch { player: id, answer })
        .await?;
    let Some(deal) = deal else {
        return Ok(Ack {
            match_id: Some(match_id),
            ..Ack::default()
        });
    };
    let seats = deal.seats_of(player);
    let invite = deal.spec.invite.clone();
    let opened = super::start(rooms, deal.spec, deal.seating).await;
    let told = Command::Rematched {
        opened: opened.as_ref().ok().copied(),
    };
    rooms.tell(match_id, told).await;
    Ok(Ack {
        match_id: Some(opened?),
        seats,
        invite,
        ..Ack::default()
    })
}
