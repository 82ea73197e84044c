//! Takebacks by agreement: a seat asks, every other seat agrees (the AI and the asker's own
//! seats at once), and the actions are undone, durably first. How often a seat may ask is in
//! `asks.rs`; the standing request is an [`super::agreement::Agreement`].

use protocol::{Ack, MatchEvent, PlayerId};
use tokio::time::Instant;

use super::seat::note_acted;
use super::{Room, conflict, forbidden};
use crate::error::ApiResult;
use crate::matches::store::{Entry, StoredTakeback};

impl Room {
    /// Whether this match's players may take actions back by agreement.
    pub(super) fn may_take_back(&self) -> ApiResult<()> {
        if !self.spec.allows_takebacks() {
            return Err(forbidden("this rated match was created without takebacks"));
        }
        // Taking back a secret choice once the others have seen what came of it would let its
        // player choose again knowing more than they did.
        if self.game.hides_actions() {
            return Err(forbidden(
                "this game hides actions: they cannot be taken back",
            ));
        }
        Ok(())
    }

    /// The number of actions kept when `seat` takes back its last action (and every one after
    /// it); none if it has not acted.
    pub(super) fn back_to(&self, seat: u8) -> Option<u32> {
        let last = self.log.iter().rposition(|&(s, _)| s == seat)?;
        Some(last as u32)
    }

    /// A seat asks to take its last action back: carried out at once when no other player
    /// must agree.
    pub(super) async fn ask_takeback(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        self.may_take_back()?;
        if self.takeback.proposer().is_some() {
            return Err(conflict("a takeback is already asked for"));
        }
        if self.back_to(seat).is_none() {
            return Err(conflict("that seat has no action to take back"));
        }
        self.seats[usize::from(seat)]
            .asks
            .may_ask(&self.log, |s| self.holds(player, s))
            .map_err(conflict)?;
        // The asker's other seats (a hot-seat match) agree with it, and the AI agrees at once.
        let mut agreed = vec![seat];
        for other in 0..self.seats.len() as u8 {
            if other != seat && (self.holds(player, other) || self.ai_level(other).is_some()) {
                agreed.push(other);
            }
        }
        if agreed.len() == self.seats.len() {
            self.take_back(seat).await?;
            return Ok(self.ack_seq());
        }
        self.takeback.propose(agreed);
        self.followers
            .broadcast(|_| MatchEvent::TakebackOffered { seat });
        Ok(self.ack_seq())
    }

    /// Every seat agreed: `seat`'s last action and every one after it are undone, durably first.
    /// The log gets an entry of its own; the game is replayed from the start without them, and
    /// the clocks keep the time they have.
    pub(super) async fn take_back(&mut self, seat: u8) -> ApiResult<()> {
        let back_to = self
            .back_to(seat)
            .ok_or_else(|| conflict("that seat has no action to take back"))?;
        let now = Instant::now();
        if let Some(c) = self.clocks.as_mut().filter(|c| c.spec.per_move) {
            // A per-move clock is full at the start of every turn, and a takeback starts one.
            for s in 0..self.seats.len() {
                c.set_remaining(s, c.spec.base_ms, now);
            }
        }
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
        let at_ms = crate::clock::now_ms();
        let entry = Entry::Takeback(StoredTakeback {
            ply: self.entries,
            seq: self.followers.seq() + 1,
            seat,
            back_to,
            clocks_ms: clocks_ms.clone(),
            at_ms,
        });
        let durable = self.ctx.actions.append(self.id, self.epoch, &entry).await;
        self.noted(durable)?;
        self.entries += 1;
        self.takeback.lapse();
        for s in &mut self.seats {
            s.asks.game_changed();
        }
        self.log.truncate(back_to as usize);
        self.rebuild_game();
        note_acted(&mut self.seats, &self.log);
        let to_act = self.game.to_act();
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&to_act, now);
        }
        for &s in &to_act {
            self.seats[usize::from(s)].turn_from_ms = at_ms;
        }
        let first_move_ms = self.clocks.as_ref().and_then(|c| c.first_moves(now));
        tracing::info!(seat, back_to, "actions taken back");
        let game = &self.game;
        let public = game.view(None);
        self.followers.broadcast(|viewer| MatchEvent::TakenBack {
            seat,
            ply: back_to,
            view: viewer.map_or_else(|| public.clone(), |seat| game.view(Some(seat))),
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
            first_move_ms: first_move_ms.clone(),
        });
        self.glance.update(|g| g.view = public);
        // The asker knows it is their move again; anyone else to act is told.
        self.tell_turn(self.seats[usize::from(seat)].player.as_ref().map(|p| p.id));
        Ok(())
    }
}
