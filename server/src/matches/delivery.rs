//! What a room sends once an action is durable, handed to the group-commit writer with the
//! action: the writer sends it right after the commit, so that a move reaches its mover and its
//! followers without waking the room again (the room goes on at once, and looks at how the
//! write went only when something next happens to the match).

use protocol::Ack;

use super::command::{Answer, Reply};
use crate::error::ApiError;
use crate::sockets::{ConnId, Frame, Outbox};
use crate::store::StoreError;

/// The frames of one numbered event, each for one follower, and the mover's answer.
pub struct Delivery {
    pub frames: Vec<(ConnId, Outbox, Frame)>,
    /// Where the mover waits for its ack, if anyone does (an AI's move has nobody waiting).
    pub reply: Reply,
    pub ack: Ack,
}

/// The followers whose outbox was full or closed: the room stops sending them anything.
pub type Unreached = Vec<ConnId>;

impl Delivery {
    /// The entry is durable: every follower gets its frame, then the mover its ack, so that the
    /// mover's socket writes the ack and the event together.
    pub fn send(self) -> Unreached {
        let unreached = (self.frames.into_iter())
            .filter_map(|(conn, outbox, frame)| outbox.try_send(frame).is_err().then_some(conn))
            .collect();
        crate::metrics::action_accepted();
        if let Some(reply) = self.reply {
            let _ = reply.send(Ok(Answer::Ack(self.ack)));
        }
        unreached
    }

    /// The entry could not be made durable: nothing is sent but the mover's refusal.
    pub fn refuse(self, error: &StoreError) {
        if let Some(reply) = self.reply {
            let _ = reply.send(Err(ApiError::from(error)));
        }
    }
}
