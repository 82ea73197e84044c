//! A finished match's rematch, as its room keeps it: who has agreed to play again, and what the
//! new match is once everyone has. The room holds it because the room knows who is still on the
//! match's page: an offer lapses when a player leaves. The AI agrees to anything. Opening the new match is the offers
//! wing's (`crate::offers::rematch`), which tells the room how it went.

use protocol::{MatchId, PlayerId, ServerMessage};
use tokio::time::Instant;

use super::{Alarm, Phase, Room, conflict, forbidden};
use crate::accounts::player::{Player, ai_level};
use crate::error::ApiResult;
use crate::matches::new_match::NewMatch;
use crate::sockets::{Frame, frame};

/// What a player says about a rematch.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RematchAnswer {
    /// Offer it, or agree to the offer standing.
    Offer,
    /// Agree to the offer standing (there must be one).
    Accept,
    /// Decline the offer standing, or take one's own back.
    Decline,
}

/// Where a finished match's rematch stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    None,
    /// Offered: the seats whose players agreed, the offerer's first.
    Offered(Vec<u8>),
    /// Every seat agreed and the new match is being opened: the seats that had agreed before
    /// the last answer, to go back to if it cannot be, and the new match's invite code when it
    /// is private, for its players.
    Opening {
        before: Vec<u8>,
        invite: Option<String>,
    },
    /// Played: the new match.
    Started(MatchId),
}

/// The new match every player agreed on: the same match again, seated.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Deal {
    pub spec: NewMatch,
    pub seating: Vec<(u8, Player)>,
}

impl Deal {
    /// The seats `player` holds in the new match.
    pub fn seats_of(&self, player: &Player) -> Vec<u8> {
        self.seating
            .iter()
            .filter(|(_, p)| p.id == player.id)
            .map(|(seat, _)| *seat)
            .collect()
    }
}

/// The players of a match seated for its rematch: seat `i`'s player takes seat `i + 1` (the
/// last seat's, seat 0), so that two players swap sides and more take turns round the table.
pub fn rotated<T: Clone>(seats: &[T]) -> Vec<(u8, T)> {
    let n = seats.len();
    (0..n)
        .map(|new| (new as u8, seats[(new + n - 1) % n].clone()))
        .collect()
}

impl Room {
    /// A player's word on the rematch (see [`Command::Rematch`]): every other player must be on
    /// the match's page to be asked; the AI agrees to anything.
    pub(super) fn rematch(
        &mut self,
        player: PlayerId,
        answer: RematchAnswer,
    ) -> ApiResult<Option<Deal>> {
        let mine = self.seats_of(player);
        if mine.is_empty() {
            return Err(forbidden("only the players of a match may play it again"));
        }
        if self.phase != Phase::Over {
            return Err(conflict("the match is not over"));
        }
        if !self.full() {
            return Err(conflict("the match never had every seat taken"));
        }
        if self.in_tournament {
            // The tournament pairs its players, and the standings count its games only.
            return Err(conflict(
                "a tournament's game has no rematch: the tournament pairs the next games",
            ));
        }
        let agreed = match &self.rematch {
            Rematch::Started(id) => {
                return Err(conflict(format!("the rematch is match {}", id.0)));
            }
            Rematch::Opening { .. } => return Err(conflict("the rematch is being opened")),
            Rematch::Offered(agreed) => agreed.clone(),
            Rematch::None => Vec::new(),
        };
        if agreed.is_empty() && answer != RematchAnswer::Offer {
            return Err(conflict("there is no rematch offer to answer"));
        }
        if answer == RematchAnswer::Decline {
            self.rematch = Rematch::None;
            let seat = mine[0];
            self.followers.tell(&frame(&ServerMessage::RematchDeclined {
                match_id: self.id,
                seat,
            }));
            return Ok(None);
        }
        if mine.iter().all(|s| agreed.contains(s)) {
            return Err(conflict("you have agreed to the rematch already"));
        }
        let away = self.players().find(|p| {
            p.id != player && ai_level(&p.name).is_none() && !self.followers.include(p.id)
        });
        if let Some(away) = away {
            return Err(conflict(format!("{} has left the match", away.name)));
        }
        // Offering and declining could otherwise go round and round, each time a message to
        // every follower.
        let offering = agreed.is_empty();
        if offering && self.rematch_offerers.contains(&player) {
            return Err(conflict(
                "you have offered a rematch of this match already: a player offers once",
            ));
        }
        let ai_seats = (0..self.seats.len() as u8).filter(|&s| self.ai_level(s).is_some());
        let mut now_agreed = agreed.clone();
        for seat in mine.into_iter().chain(ai_seats) {
            if !now_agreed.contains(&seat) {
                now_agreed.push(seat);
            }
        }
        if now_agreed.len() < self.seats.len() {
            if offering {
                self.rematch_offerers.push(player);
            }
            self.followers.tell(&self.rematch_offered(&now_agreed));
            self.rematch = Rematch::Offered(now_agreed);
            return Ok(None);
        }
        let spec = self.spec.again(crate::clock::now_ms());
        self.rematch = Rematch::Opening {
            before: agreed,
            invite: spec.invite.clone(),
        };
        let players: Vec<Player> = self.players().cloned().collect();
        Ok(Some(Deal {
            spec,
            seating: rotated(&players),
        }))
    }

    /// See [`Command::Rematched`].
    pub(super) fn rematched(&mut self, opened: Option<MatchId>) {
        let Rematch::Opening { before, invite } = &self.rematch else {
            return;
        };
        let (before, invite) = (before.clone(), invite.clone());
        self.rematch = match opened {
            Some(rematch) => {
                self.tell_rematch_started(rematch, invite);
                Rematch::Started(rematch)
            }
            None if before.is_empty() => Rematch::None,
            None => Rematch::Offered(before),
        };
    }

    /// Tells the followers that the rematch (or game 2) is `rematch`; the players of a private
    /// one get its invite code too, to pass on to whom they like.
    pub(super) fn tell_rematch_started(&self, rematch: MatchId, invite: Option<String>) {
        let told = |invite| {
            frame(&ServerMessage::RematchStarted {
                match_id: self.id,
                rematch,
                invite,
            })
        };
        if invite.is_some() {
            self.followers.tell_some(&told(None), |seated, _| !seated);
            self.followers.tell_some(&told(invite), |seated, _| seated);
        } else {
            self.followers.tell(&told(None));
        }
    }

    pub(super) fn rematch_offered(&self, agreed: &[u8]) -> Frame {
        frame(&ServerMessage::RematchOffered {
            match_id: self.id,
            agreed: agreed.to_vec(),
        })
    }

    /// A player left the finished match: the rematch offer standing lapses.
    pub(super) fn lapse_rematch(&mut self, player: PlayerId) {
        let seat = self.seats_of(player).first().copied();
        if let (Rematch::Offered(_), Some(seat)) = (&self.rematch, seat) {
            self.rematch = Rematch::None;
            self.followers.tell(&frame(&ServerMessage::RematchLapsed {
                match_id: self.id,
                seat,
            }));
        }
    }

    /// While a rematch is offered: when the first player to have gone away will have been away
    /// for the grace period.
    pub(super) fn rematch_alarm(&self) -> Option<(Instant, Alarm)> {
        if !matches!(self.rematch, Rematch::Offered(_)) {
            return None;
        }
        let since = self.seats.iter().filter_map(|s| s.away_since).min()?;
        Some((since + self.ctx.grace, Alarm::RematchLapse))
    }

    pub(super) fn lapse_rematch_of_the_away(&mut self) {
        let now = Instant::now();
        let gone = (0..self.seats.len()).find(|&s| {
            self.seats[s]
                .away_since
                .is_some_and(|t| now.duration_since(t) >= self.ctx.grace)
        });
        if let Some(player) = gone
            .and_then(|s| self.seats[s].player.as_ref())
            .map(|p| p.id)
        {
            self.lapse_rematch(player);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_swap_and_more_move_on_one_seat() {
        assert_eq!(rotated(&["a", "b"]), [(0, "b"), (1, "a")]);
        assert_eq!(rotated(&["a", "b", "c"]), [(0, "c"), (1, "a"), (2, "b")]);
        assert_eq!(rotated(&["solo"]), [(0, "solo")]);
    }
}
