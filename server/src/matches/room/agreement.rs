//! What the players of a live match agree on during the game: a draw, or a takeback. One seat
//! proposes, every other seat answers; a decline ends the proposal, the last acceptance carries
//! it out, and an action by the proposal's other side makes it lapse (see `act.rs`).

use protocol::{Ack, MatchEvent, PlayerId};

use super::{Room, conflict};
use crate::error::ApiResult;

/// What the players may agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Proposal {
    Draw,
    Takeback,
}

impl Proposal {
    /// What is said when a seat answers a proposal that is not standing.
    fn none_standing(self) -> &'static str {
        match self {
            Proposal::Draw => "there is no draw offer to answer",
            Proposal::Takeback => "there is no takeback to answer",
        }
    }
}

/// A proposal's standing: the seats that have agreed to it, the proposer first; none while
/// nothing is proposed.
#[derive(Debug, Default)]
pub(super) struct Agreement {
    agreed: Vec<u8>,
}

impl Agreement {
    /// The seat whose proposal stands, if one does.
    pub(super) fn proposer(&self) -> Option<u8> {
        self.agreed.first().copied()
    }

    /// A proposal by its first seat, which the other seats in `agreed` agree with at once.
    pub(super) fn propose(&mut self, agreed: Vec<u8>) {
        self.agreed = agreed;
    }

    /// The proposal lapses, declined or made moot.
    pub(super) fn lapse(&mut self) {
        self.agreed.clear();
    }

    /// `seat` accepts the standing proposal: whether every one of `seats` seats has now.
    fn accept(&mut self, seat: u8, seats: usize) -> bool {
        self.agreed.push(seat);
        self.agreed.len() == seats
    }

    /// Takes back the last acceptance: what it completed could not be carried out.
    fn undo(&mut self) {
        self.agreed.pop();
    }

    /// Why `seat` may not answer now, if it may not.
    fn refuse_answer(&self, seat: u8, proposal: Proposal) -> ApiResult<()> {
        if self.agreed.is_empty() {
            return Err(conflict(proposal.none_standing()));
        }
        if self.agreed.contains(&seat) {
            return Err(conflict("that seat has already agreed"));
        }
        Ok(())
    }
}

impl Room {
    fn agreement(&mut self, proposal: Proposal) -> &mut Agreement {
        match proposal {
            Proposal::Draw => &mut self.draw,
            Proposal::Takeback => &mut self.takeback,
        }
    }

    pub(super) fn offer_draw(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if self.draw.proposer().is_some() {
            return Err(conflict("a draw offer is already standing"));
        }
        self.draw.propose(vec![seat]);
        self.followers
            .broadcast(|_| MatchEvent::DrawOffered { seat });
        Ok(self.ack_seq())
    }

    /// A seat's answer to the standing proposal: a decline ends it; the last acceptance carries
    /// it out, and is undone if that fails.
    pub(super) async fn answer(
        &mut self,
        proposal: Proposal,
        player: PlayerId,
        seat: u8,
        accept: bool,
    ) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        let seats = self.seats.len();
        let agreement = self.agreement(proposal);
        agreement.refuse_answer(seat, proposal)?;
        let proposer = agreement.proposer().unwrap_or(seat);
        if !accept {
            agreement.lapse();
            let declined = match proposal {
                Proposal::Draw => MatchEvent::DrawDeclined { seat },
                Proposal::Takeback => {
                    let actions = self.log.len();
                    self.seats[usize::from(proposer)].asks.declined(actions);
                    MatchEvent::TakebackDeclined { seat }
                }
            };
            self.followers.broadcast(|_| declined.clone());
            return Ok(self.ack_seq());
        }
        if agreement.accept(seat, seats) {
            let done = match proposal {
                Proposal::Draw => self.end(vec![0; seats], "draw_agreed", seat).await,
                Proposal::Takeback => self.take_back(proposer).await,
            };
            if let Err(e) = done {
                self.agreement(proposal).undo();
                return Err(e);
            }
        }
        Ok(self.ack_seq())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proposal_is_carried_out_when_every_seat_has_accepted() {
        let mut agreement = Agreement::default();
        assert_eq!(agreement.proposer(), None);
        assert!(agreement.refuse_answer(1, Proposal::Draw).is_err());
        agreement.propose(vec![0]);
        assert_eq!(agreement.proposer(), Some(0));
        assert!(
            agreement.refuse_answer(0, Proposal::Draw).is_err(),
            "the proposer"
        );
        assert!(agreement.refuse_answer(1, Proposal::Draw).is_ok());
        assert!(!agreement.accept(1, 3));
        assert!(
            agreement.refuse_answer(1, Proposal::Draw).is_err(),
            "agreed already"
        );
        assert!(agreement.accept(2, 3));
        agreement.undo();
        assert!(agreement.refuse_answer(2, Proposal::Draw).is_ok(), "undone");
        agreement.lapse();
        let why = agreement.refuse_answer(2, Proposal::Takeback).unwrap_err();
        assert_eq!(why.message, "there is no takeback to answer");
    }
}
