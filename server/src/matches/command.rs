//! What a room is asked to do: every command a live match's actor serves, from sockets, the
//! queue, tournaments, the housekeeping and the room's own AI. A command is data: the same
//! value goes into a room here and, serialised, to the node that owns the match; only where
//! its answer goes ([`Mail`]) and a watching socket's outbox stay on the node that sent it.

use protocol::{Ack, ErrorReason, MatchId, PlayerId, SeatCommand, Seq};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::room::rematch::{Deal, RematchAnswer};
use crate::accounts::player::Player;
use crate::chat::rules::ChatText;
use crate::error::{ApiError, ApiResult};
use crate::sockets::{ConnId, Outbox};

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "room", rename_all = "snake_case")]
pub enum Command {
    /// `invited`: the player came with the invite code, which a private match requires.
    /// Answers an [`Ack`].
    Join {
        player: Player,
        seat: Option<u8>,
        invited: bool,
    },
    /// `invite`: the code the watcher came with, which a private match requires of anyone
    /// not seated in it. `outbox`: where the socket's frames go; it never travels: the node
    /// that owns the match gives the socket a relay of its own. Answers an [`Ack`].
    Watch {
        conn: ConnId,
        player: Option<PlayerId>,
        invite: Option<String>,
        since: Option<Seq>,
        #[serde(skip)]
        outbox: Option<Outbox>,
    },
    /// `closed`: the socket closed (a reload, a dropped connection) rather than leaving the
    /// match's page, so it may be back within the grace period.
    Unwatch { conn: ConnId, closed: bool },
    /// A player's command for one of their seats: an action, a resignation, a draw offer...
    /// Answers an [`Ack`].
    Seat {
        player: PlayerId,
        command: SeatCommand,
    },
    /// A player offers a finished match's rematch, or answers the offer. Answers the new
    /// match to open when this was the last agreement the rematch waited for.
    Rematch {
        player: PlayerId,
        answer: RematchAnswer,
    },
    /// The rematch every player agreed on was opened (`Some`), or could not be (`None`: the
    /// last agreement is undone, and may be given again).
    Rematched { opened: Option<MatchId> },
    /// A chat message from a socket following the match: written in the channel of the
    /// author's role, and sent to the followers who read that channel. Answers an [`Ack`].
    Chat {
        conn: ConnId,
        author: Player,
        text: ChatText,
    },
    /// Ends a live match against those of `seats` whose human player never came to it (never
    /// followed it since the room started, never acted): they lose, reason `no_show` (a draw
    /// when every seat is absent). Answers the seats forfeited; none when everyone came. The
    /// tournament director sends it once a game's grace period is over.
    Forfeit { seats: Vec<u8> },
    /// A player went on vacation until `until_ms` (milliseconds since the Unix epoch), or came
    /// back (`None`): the per-move clocks of their seats stand still meanwhile.
    Vacation {
        player: PlayerId,
        until_ms: Option<i64>,
    },
    /// An admin banned `player`: a live match they play is lost by forfeit (reason `forfeit`,
    /// rated as any result), one still waiting for players is called off. Answers whether
    /// this ended the match.
    Banned { player: PlayerId },
    /// `player` left the server while seated in this match (their last socket closed, on every
    /// node): a match still waiting for players is called off (reason `aborted`), a seek whose
    /// poster is gone; not a correspondence one, whose players come and go. Answers whether this
    /// ended the match.
    Withdraw { player: PlayerId },
    /// Aborts an idle casual match (reason `idle`), unless an entry of its log (an action, a
    /// takeback) came in since the housekeeping counted `entries` of them. Answers whether it
    /// was aborted.
    Expire { entries: usize },
}

/// What a room answers a command with: one kind per command, named in [`Command`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "answer", rename_all = "snake_case")]
pub enum Answer {
    Ack(Ack),
    Deal(Option<Deal>),
    Seats(Vec<u8>),
    Ended(bool),
    /// The command needs no answer (a socket left, a vacation began).
    Done,
}

/// Where a command's answer goes: to whoever waits for it, if anyone does.
pub type Reply = Option<oneshot::Sender<ApiResult<Answer>>>;

/// What a room's channel carries.
pub enum Mail {
    /// A command, and where its answer goes.
    Command(Command, Reply),
    /// The move the AI found for an AI seat, with the number of log entries when it began
    /// (a move for an older position, takebacks included, is dropped and searched again). It
    /// never leaves its room.
    AiMove {
        seat: u8,
        ply: usize,
        action: Option<String>,
    },
}

/// An answer of another kind than its command's: a room and its caller disagree.
fn mismatched(answer: &Answer) -> ApiError {
    tracing::error!(
        ?answer,
        "a room answered a command with another kind of answer"
    );
    ApiError::new(
        ErrorReason::Internal,
        "the match room gave an unexpected answer",
    )
}

/// Each kind of answer, as the caller that waits for it reads it.
macro_rules! answers {
    ($($variant:ident => $type:ty),*) => {$(
        impl TryFrom<Answer> for $type {
            type Error = ApiError;
            fn try_from(answer: Answer) -> ApiResult<$type> {
                match answer {
                    Answer::$variant(value) => Ok(value),
                    other => Err(mismatched(&other)),
                }
            }
        }
    )*};
}

answers!(Ack => Ack, Deal => Option<Deal>, Seats => Vec<u8>, Ended => bool);
