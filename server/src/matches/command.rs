//! What a room is asked to do: every command a live match's actor serves, from sockets, the
//! queue, tournaments, the housekeeping and the room's own AI.

use protocol::{Ack, MatchId, PlayerId, SeatCommand, Seq};
use tokio::sync::oneshot;

use super::rematch::{Deal, RematchAnswer};
use crate::accounts::player::Player;
use crate::chat::rules::ChatText;
use crate::error::ApiResult;
use crate::sockets::{ConnId, Outbox};

pub enum Command {
    /// The move the AI found for an AI seat, with the number of log entries when it began
    /// (a move for an older position, takebacks included, is dropped and searched again).
    AiMove {
        seat: u8,
        ply: usize,
        action: Option<String>,
    },
    /// `invited`: the player came with the invite code, which a private match requires.
    Join {
        player: Player,
        seat: Option<u8>,
        invited: bool,
        reply: oneshot::Sender<ApiResult<Ack>>,
    },
    /// `invite`: the code the watcher came with, which a private match requires of anyone
    /// not seated in it.
    Watch {
        conn: ConnId,
        player: Option<PlayerId>,
        invite: Option<String>,
        since: Option<Seq>,
        outbox: Outbox,
        reply: oneshot::Sender<ApiResult<Ack>>,
    },
    /// `closed`: the socket closed (a reload, a dropped connection) rather than leaving the
    /// match's page, so it may be back within the grace period.
    Unwatch { conn: ConnId, closed: bool },
    /// A player's command for one of their seats: an action, a resignation, a draw offer...
    Seat {
        player: PlayerId,
        command: SeatCommand,
        reply: oneshot::Sender<ApiResult<Ack>>,
    },
    /// A player offers a finished match's rematch, or answers the offer. Answers the new
    /// match to open when this was the last agreement the rematch waited for.
    Rematch {
        player: PlayerId,
        answer: RematchAnswer,
        reply: oneshot::Sender<ApiResult<Option<Deal>>>,
    },
    /// The rematch every player agreed on was opened (`Some`), or could not be (`None`: the
    /// last agreement is undone, and may be given again).
    Rematched { opened: Option<MatchId> },
    /// A chat message from a socket following the match: written in the channel of the
    /// author's role, and sent to the followers who read that channel.
    Chat {
        conn: ConnId,
        author: Player,
        text: ChatText,
        reply: oneshot::Sender<ApiResult<Ack>>,
    },
    /// Ends a live match against those of `seats` whose human player never came to it (never
    /// followed it since the room started, never acted): they lose, reason `no_show` (a draw
    /// when every seat is absent). Answers the seats forfeited; none when everyone came. The
    /// tournament director sends it once a game's grace period is over.
    Forfeit {
        seats: Vec<u8>,
        reply: oneshot::Sender<ApiResult<Vec<u8>>>,
    },
    /// A player went on vacation until `until_ms` (milliseconds since the Unix epoch), or came
    /// back (`None`): the per-move clocks of their seats stand still meanwhile.
    Vacation {
        player: PlayerId,
        until_ms: Option<i64>,
    },
    /// An admin banned `player`: a live match they play is lost by forfeit (reason `forfeit`,
    /// rated as any result), one still waiting for players is called off. Answers whether
    /// this ended the match.
    Banned {
        player: PlayerId,
        reply: oneshot::Sender<ApiResult<bool>>,
    },
    /// Aborts an idle casual match (reason `idle`), unless an entry of its log (an action, a
    /// takeback) came in since the housekeeping counted `entries` of them. Answers whether it
    /// was aborted.
    Expire {
        entries: usize,
        reply: oneshot::Sender<ApiResult<bool>>,
    },
}
