use super::{Phase, Room};
use crate::accounts::player::{Player, ai_level};
use crate::accounts::vacation::Vacations;
use crate::sockets::{Fanout, frame};
use protocol::{MatchEvent, PlayerId, ServerMessage};
use tokio::time::Instant;

impl Room {
    /// Whether the match is played on a per-move clock (correspondence).
    pub(super) fn per_move(&self) -> bool {
        self.clocks.as_ref().is_some_and(|c| c.spec.per_move)
    }

    /// The seats whose player is on vacation.
    pub(super) fn on_vacation(&self) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&s| self.seats[usize::from(s)].vacation_until.is_some())
            .collect()
    }

    /// Brings a live per-move clock up to date with what happened while the room was not
    /// running (the server was down, or the room asleep, or the match starts now), from the
    /// store: a seat to act has had the time since its turn began, less the time its player
    /// was on vacation meanwhile, and a player on vacation now has their clock paused.
    pub(super) async fn follow_vacations(&mut self) {
        if !self.per_move() || self.phase != Phase::Live {
            return;
        }
        let to_act = self.game.to_act();
        let (now, now_ms) = (Instant::now(), crate::clock::now_ms());
        for seat in 0..self.seats.len() {
            let from = self.seats[seat].turn_from_ms;
            let vacations = match self.seats[seat].human() {
                Some(player) => self
                    .ctx
                    .store
                    .vacations_of(player.id, from)
                    .await
                    .unwrap_or_else(|e| {
                        tracing::warn!(seat, error = %e, "could not read a player's vacations");
                        Vacations::default()
                    }),
                None => Vacations::default(),
            };
            if let Some(c) = self.clocks.as_mut()
                && to_act.contains(&(seat as u8))
            {
                let taken = (now_ms - from - vacations.within(from, now_ms)).max(0) as u64;
                c.set_remaining(seat, c.spec.base_ms.saturating_sub(taken), now);
            }
            self.set_vacation(seat as u8, vacations.until(now_ms));
        }
    }

    /// Marks a seat's player on vacation until `until_ms`, or back (`None`): the seat's clock
    /// pauses or runs again, and the followers are told.
    pub(super) fn set_vacation(&mut self, seat: u8, until_ms: Option<i64>) {
        let s = usize::from(seat);
        if self.seats[s].vacation_until == until_ms {
            return;
        }
        let Some(c) = self.clocks.as_mut() else {
            return;
        };
        let now = Instant::now();
        c.pause(s, until_ms.map(crate::clock::instant_at), now);
        self.seats[s].vacation_until = until_ms;
        let clocks_ms = c.snapshot(now);
        self.followers.broadcast(|_| match until_ms {
            Some(until_ms) => MatchEvent::Vacation {
                seat,
                until_ms,
                clocks_ms: clocks_ms.clone(),
            },
            None => MatchEvent::VacationOver {
                seat,
                clocks_ms: clocks_ms.clone(),
            },
        });
    }

    /// See [`Command::Vacation`].
    pub(super) fn vacation(&mut self, player: PlayerId, until_ms: Option<i64>) {
        if !self.per_move() || self.phase != Phase::Live {
            return;
        }
        for seat in self.seats_of(player) {
            self.set_vacation(seat, until_ms);
        }
    }

    /// Vacations whose allowance has run out end: their seats' clocks run again.
    pub(super) fn vacations_over(&mut self) {
        let now_ms = crate::clock::now_ms();
        for seat in 0..self.seats.len() {
            if self.seats[seat]
                .vacation_until
                .is_some_and(|until| until <= now_ms)
            {
                self.set_vacation(seat as u8, None);
            }
        }
    }

    /// Whether players are told on every socket when it is their move: in a live
    /// correspondence match (per-move clocks) that is not played at one screen.
    pub(super) fn tells_turns(&self) -> bool {
        self.clocks.as_ref().is_some_and(|c| c.spec.per_move)
            && self.phase == Phase::Live
            && !self.spec.hotseat
    }

    /// Tells each player who must act now in a correspondence match that it is their move, on
    /// every socket they have open, wherever they are; not the player who just acted (whose
    /// seat acts again), nor the AI, nor a hot-seat match's one player.
    pub(super) fn tell_turn(&self, mover: Option<PlayerId>) {
        let Some(c) = self.clocks.as_ref().filter(|_| self.tells_turns()) else {
            return;
        };
        let mut told = Vec::new();
        for seat in self.game.to_act() {
            let Some(player) = self.seats[usize::from(seat)].player.as_ref() else {
                continue;
            };
            if Some(player.id) == mover || ai_level(&player.name).is_some() {
                continue;
            }
            let Some(deadline) = c.flag_at(usize::from(seat)) else {
                continue;
            };
            if told.contains(&player.id) {
                continue;
            }
            told.push(player.id);
            let message = ServerMessage::YourMove {
                match_id: self.id,
                game: self.spec.game.clone(),
                variant: self.spec.variant.clone(),
                opponents: self
                    .players()
                    .filter(|p| p.id != player.id)
                    .map(Player::public)
                    .collect(),
                deadline_ms: crate::clock::wall_ms(deadline),
            };
            let to = Fanout::Player { player: player.id };
            self.ctx.sockets.send(to, &frame(&message));
        }
    }
}
