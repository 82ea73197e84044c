//! New matches: created by a player, against the AI, joined, or opened with their players seated
//! by the queue, tournaments and rematches.

use protocol::{Ack, CreateMatch, ErrorReason, MatchId, PlayerId};

use super::Rooms;
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::command::Command;
use crate::matches::new_match::{NewMatch, Opening};
use crate::matches::room::{Room, unrated};

impl Rooms {
    /// Creates the match a player asks for and seats them (in every seat for hot-seat play).
    /// `most_open`: how many matches waiting for opponents a player may have.
    pub async fn create(
        &self,
        asked: &CreateMatch,
        creator: &Player,
        most_open: u32,
    ) -> ApiResult<Ack> {
        let spec = NewMatch::created(asked, crate::clock::now_ms())?;
        crate::policy::may_play(creator, spec.rated)?;
        if !spec.hotseat {
            crate::policy::may_open_match(&self.ctx.store, most_open, creator).await?;
        }
        let seat = spec.seat(asked.seat.unwrap_or(0))?;
        let seats: Vec<u8> = if spec.hotseat {
            (0..spec.seats).collect()
        } else {
            vec![seat]
        };
        let invite = spec.invite.clone();
        let seek = !spec.private && !spec.hotseat && seats.len() < usize::from(spec.seats);
        let seating = seats.iter().map(|&s| (s, creator.clone())).collect();
        let id = self.open(spec, seating).await?;
        if seek {
            self.ctx.seeks.changed();
        }
        Ok(Ack {
            match_id: Some(id),
            seats,
            invite,
            ..Ack::default()
        })
    }

    /// Starts a match against the AI: the player takes `seat` (0 when `None`) and the AI
    /// player `ai` every other seat.
    pub async fn play_ai(
        &self,
        spec: NewMatch,
        player: &Player,
        seat: Option<u8>,
        ai: &Player,
    ) -> ApiResult<Ack> {
        crate::policy::may_play(player, spec.rated)?;
        let seat = spec.seat(seat.unwrap_or(0))?;
        let seating = (0..spec.seats)
            .map(|s| (s, if s == seat { player } else { ai }.clone()))
            .collect();
        let id = self.open(spec, seating).await?;
        Ok(Ack {
            match_id: Some(id),
            seats: vec![seat],
            ..Ack::default()
        })
    }

    /// Seats a player in an open match, named by its id or (a private one) by its invite code:
    /// the seat asked for, or any free one.
    pub async fn join(
        &self,
        player: &Player,
        match_id: Option<MatchId>,
        invite: Option<String>,
        seat: Option<u8>,
    ) -> ApiResult<Ack> {
        let (match_id, invited) = match (match_id, invite) {
            (named, Some(code)) => {
                let found = self
                    .ctx
                    .store
                    .match_by_invite(&code)
                    .await?
                    .ok_or_else(|| {
                        ApiError::new(
                            ErrorReason::JoinCodeUnknown,
                            "no match has that invite code",
                        )
                    })?;
                if named.is_some_and(|m| m != found) {
                    return Err(ApiError::new(
                        ErrorReason::BadRequest,
                        "the match_id and the invite code name different matches",
                    ));
                }
                (found, true)
            }
            (Some(m), None) => (m, false),
            (None, None) => {
                return Err(ApiError::new(
                    ErrorReason::BadRequest,
                    "give a match_id or an invite code",
                ));
            }
        };
        let player = player.clone();
        self.ask(
            match_id,
            Command::Join {
                player,
                seat,
                invited,
            },
        )
        .await
    }

    /// Opens a match with these players already in their seats: stored with them in one
    /// transaction, its room started from what was stored, not read back. What creating, the
    /// AI, matchmaking and tournaments all come down to.
    pub async fn open(&self, spec: NewMatch, seating: Vec<(u8, Player)>) -> ApiResult<MatchId> {
        let mut opening = self.opening(spec, seating, false).await?;
        let id = self.ctx.store.create_match(&mut opening).await?;
        self.start_opened(id, opening).await
    }

    /// A new match with its first players, as it will be stored: played casual if the players
    /// have had their day's rated games against each other.
    pub async fn opening(
        &self,
        mut spec: NewMatch,
        seating: Vec<(u8, Player)>,
        in_tournament: bool,
    ) -> ApiResult<Opening> {
        self.refuse_if_stopped()?;
        let full = seating.len() == usize::from(spec.seats);
        let unrated = match full {
            true => {
                let players: Vec<PlayerId> = seating.iter().map(|(_, p)| p.id).collect();
                unrated(&self.ctx, &spec, in_tournament, &players).await?
            }
            false => None,
        };
        spec.rated &= unrated.is_none();
        Ok(Opening {
            spec,
            seating,
            unrated,
            in_tournament,
            series: None,
        })
    }

    /// Starts the room of a match just stored from its opening: for a caller that stores it
    /// together with something else (the tournament director links it to its game).
    pub async fn start_opened(&self, id: MatchId, opening: Opening) -> ApiResult<MatchId> {
        // Another node may have been asked for the match first and started it from the store.
        if let Some(epoch) = self.ctx.cluster.claim_new(id).await? {
            let room = Room::open(id, opening, self.ctx.clone(), epoch)?;
            self.start(id, room, epoch)?;
        }
        Ok(id)
    }
}
