use super::{Phase, Room, unrated};
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::store::Start;
use protocol::{Ack, ErrorReason, MatchEvent, PlayerId};
use tokio::time::Instant;

impl Room {
    pub(super) async fn join(
        &mut self,
        player: Player,
        wanted: Option<u8>,
        invited: bool,
    ) -> ApiResult<Ack> {
        if self.spec.private && !invited {
            // Its existence is not revealed to anyone without the code.
            return Err(self.not_found());
        }
        if self.spec.rated && player.guest {
            return Err(crate::policy::guests_play_casual());
        }
        if self.phase != Phase::Waiting {
            return Err(ApiError::new(
                ErrorReason::MatchNotOpen,
                "the match is not open for players",
            ));
        }
        if self.players().any(|p| p.id == player.id) {
            return Err(ApiError::new(
                ErrorReason::AlreadySeated,
                "you already sit in this match",
            ));
        }
        let seat = match wanted {
            Some(s) if usize::from(s) >= self.seats.len() => {
                return Err(ApiError::new(
                    ErrorReason::NoSuchSeat { seat: s },
                    format!("there is no seat {s}"),
                ));
            }
            Some(s) if self.seats[usize::from(s)].player.is_some() => {
                return Err(ApiError::new(
                    ErrorReason::SeatTaken { seat: s },
                    format!("seat {s} is taken"),
                ));
            }
            Some(s) => s,
            None => self
                .seats
                .iter()
                .position(|s| s.player.is_none())
                .map(|s| s as u8)
                .ok_or_else(|| ApiError::new(ErrorReason::MatchFull, "the match is full"))?,
        };
        self.take_seat(seat, player).await?;
        Ok(Ack {
            match_id: Some(self.id),
            seats: vec![seat],
            ..Ack::default()
        })
    }

    /// Seats a player who joins, persisting first; starts the match when the last seat is
    /// taken (stored in the same transaction as the seat).
    pub(super) async fn take_seat(&mut self, seat: u8, player: Player) -> ApiResult<()> {
        let seq = self.followers.seq() + 1;
        let fills = (self.seats.iter().enumerate())
            .all(|(i, s)| i == usize::from(seat) || s.player.is_some());
        let start = match fills {
            true => {
                let mut players: Vec<PlayerId> = self.players().map(|p| p.id).collect();
                players.push(player.id);
                Some(self.starting(&players, seq).await?)
            }
            false => None,
        };
        let stored = self.ctx.store.take_seat(
            self.id,
            self.epoch,
            seat,
            player.id,
            seq,
            start.as_ref().map(|(start, _)| start),
        );
        self.noted(stored.await)?;
        self.seated(seat, player);
        if !self.spec.private {
            self.ctx.seeks.changed();
        }
        if let Some((_, unrated)) = start {
            self.begin(unrated);
            self.follow_vacations().await;
        }
        Ok(())
    }

    /// A player sits down, and the match's followers are told.
    pub(super) fn seated(&mut self, seat: u8, player: Player) {
        let public = player.public();
        self.seats[usize::from(seat)].player = Some(player);
        // Away until a socket of theirs follows the match (at once, for a create or a join);
        // the AI is always there.
        self.seats[usize::from(seat)].away_since = self.ai_level(seat).is_none().then(Instant::now);
        self.followers.broadcast(|_| MatchEvent::SeatTaken {
            seat,
            player: public.clone(),
        });
    }

    /// Marks a match whose seats are all taken live, persisting first: for a match stored full
    /// but not started (a crash came in between).
    pub(super) async fn start(&mut self) -> ApiResult<()> {
        let players: Vec<PlayerId> = self.players().map(|p| p.id).collect();
        let (start, unrated) = self.starting(&players, self.followers.seq()).await?;
        let stored = self.ctx.store.set_live(self.id, self.epoch, &start);
        self.noted(stored.await)?;
        self.begin(unrated);
        Ok(())
    }

    /// How a match with these players starts after event `seq`: played casual if they have had
    /// their day's rated games against each other (and why). (`&mut`: a room is `Send`, not
    /// `Sync`, and this waits on the store.)
    async fn starting(
        &mut self,
        players: &[PlayerId],
        seq: u64,
    ) -> ApiResult<(Start, Option<String>)> {
        let unrated = unrated(&self.ctx, &self.spec, self.in_tournament, players).await?;
        let start = Start {
            // Told as one event, or two when it is played casual.
            seq: seq + 1 + u64::from(unrated.is_some()),
            at_ms: crate::clock::now_ms(),
            casual: unrated.is_some(),
        };
        Ok((start, unrated))
    }

    /// The match starts: its clocks run (a Fischer clock's first action's time, see
    /// `clocks.rs`), and its followers are told (first, if it is played
    /// casual, why).
    pub(super) fn begin(&mut self, unrated: Option<String>) {
        if let Some(reason) = unrated {
            self.spec.rated = false;
            tracing::info!(%reason, "rated match played casual");
            self.followers.broadcast(|_| MatchEvent::Unrated {
                reason: reason.clone(),
            });
        }
        self.set_phase(Phase::Live);
        let to_act = self.game.to_act();
        let now_ms = crate::clock::now_ms();
        for seat in &mut self.seats {
            seat.turn_from_ms = now_ms;
        }
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&to_act, Instant::now());
        }
        let now = Instant::now();
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
        let first_move_ms = self.clocks.as_ref().and_then(|c| c.first_moves(now));
        self.followers.broadcast(|_| MatchEvent::Started {
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
            first_move_ms: first_move_ms.clone(),
        });
        self.tell_turn(None);
    }
}
