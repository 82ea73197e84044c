//! Takebacks by agreement: a seat asks, every other seat agrees (the AI and the asker's own
//! seats at once), and the actions are undone, durably first. And how often a seat may ask:
//! each request put to the other players is an event for every follower of the match and an
//! interruption for the opponent, so that asking and declining could go round and round at no
//! cost to the asker. A seat whose request was declined asks again only once another player
//! has acted since, and has at most [`MOST_DECLINED`] requests declined a game. Each seat keeps
//! its [`Asks`], in memory, as the room keeps the request standing (an
//! [`super::agreement::Agreement`]).

use protocol::{Ack, MatchEvent, PlayerId};
use tokio::time::Instant;

use super::seat::note_acted;
use super::{Room, conflict, forbidden};
use crate::error::ApiResult;
use crate::matches::store::{Entry, StoredTakeback};

/// The requests a seat may have declined in a game. Three leave room for a few slips a game,
/// and an opponent who has declined three times has answered for the game. Requests accepted
/// are not counted: each is what every player wanted.
pub const MOST_DECLINED: u8 = 3;

/// One seat's declined requests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asks {
    declined: u8,
    /// After a decline, until another player acts: the number of actions in play then.
    waiting_from: Option<usize>,
}

impl Asks {
    /// Whether the seat may ask now, given the actions in play (seat, action) and which seats
    /// are the asker's: the refusal says why not.
    pub fn may_ask(&self, log: &[(u8, String)], mine: impl Fn(u8) -> bool) -> Result<(), String> {
        if self.declined >= MOST_DECLINED {
            return Err(format!(
                "{MOST_DECLINED} of your takebacks were declined in this match: ask no more"
            ));
        }
        let Some(from) = self.waiting_from else {
            return Ok(());
        };
        // Fewer actions than then: a takeback since has changed the game, which is enough.
        let other_acted = log
            .get(from..)
            .is_none_or(|since| since.iter().any(|&(seat, _)| !mine(seat)));
        let why = "your takeback was declined: ask again once another player has moved";
        other_acted.then_some(()).ok_or_else(|| why.to_string())
    }

    /// The seat's request was declined with `actions` actions in play.
    pub fn declined(&mut self, actions: usize) {
        self.declined += 1;
        self.waiting_from = Some(actions);
    }

    /// A takeback was carried out: the game the decline was about is no longer the one played.
    pub fn game_changed(&mut self) {
        self.waiting_from = None;
    }
}

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
        let durable = self.ctx.actions.append(self.id, self.epoch, &entry);
        let durable = crate::metrics::db("append_action", durable).await;
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
        tracing::info!(seat, back_to, "actions taken back");
        let game = &self.game;
        let public = game.view(None);
        self.followers.broadcast(|viewer| MatchEvent::TakenBack {
            seat,
            ply: back_to,
            view: viewer.map_or_else(|| public.clone(), |seat| game.view(Some(seat))),
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
        });
        self.glance.update(|g| g.view = public);
        // The asker knows it is their move again; anyone else to act is told.
        self.tell_turn(self.seats[usize::from(seat)].player.as_ref().map(|p| p.id));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(seats: &[u8]) -> Vec<(u8, String)> {
        seats.iter().map(|&s| (s, format!("move by {s}"))).collect()
    }

    #[test]
    fn a_declined_seat_waits_for_another_seat_to_act() {
        let mine = |seat| seat == 0;
        let mut asks = Asks::default();
        assert_eq!(asks.may_ask(&log(&[0]), mine), Ok(()));
        asks.declined(1);
        assert!(asks.may_ask(&log(&[0]), mine).is_err());
        assert!(asks.may_ask(&log(&[0, 0]), mine).is_err(), "its own action");
        assert_eq!(asks.may_ask(&log(&[0, 1]), mine), Ok(()));
        assert_eq!(asks.may_ask(&log(&[]), mine), Ok(()), "a takeback since");
        asks.game_changed();
        assert_eq!(asks.may_ask(&log(&[0]), mine), Ok(()));
    }

    #[test]
    fn three_declines_end_the_asking() {
        let mut asks = Asks::default();
        for n in 1..=MOST_DECLINED {
            asks.declined(n as usize);
        }
        let why = asks.may_ask(&log(&[0, 1, 0, 1]), |s| s == 0).unwrap_err();
        assert!(why.contains("3 of your takebacks"), "{why}");
    }
}
