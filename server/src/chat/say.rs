//! What a socket's chat commands do: a message is checked (its text, then the author's pace),
//! then written in a match's channel, through the match's room, which knows who reads it, or in
//! the lobby, whose followers get it at once.

use protocol::{Ack, ChatChannel, ErrorReason, MatchId, ServerMessage};

use super::rules::{self, ChatText};
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::Command;
use crate::sockets::{ConnId, Fanout, frame};
use crate::state::AppState;

/// The refusal of a message from a visitor's socket: visitors read, never write.
pub fn visitors_read() -> ApiError {
    ApiError::new(ErrorReason::NotLoggedIn, "log in to chat")
}

/// Writes a message from socket `conn`: in the match `match_id` (which the socket follows), or
/// in the lobby. Every message counts against the author's pace, whichever the channel.
pub async fn say(
    state: &AppState,
    author: &Player,
    conn: ConnId,
    match_id: Option<MatchId>,
    text: &str,
) -> ApiResult<()> {
    let text = ChatText::new(text)?;
    if match_id.is_none() {
        rules::may_write(author.guest, ChatChannel::Lobby)?;
    }
    state.limits().chat_message(author.id)?;
    let Some(match_id) = match_id else {
        return in_lobby(state, author, &text).await;
    };
    state
        .rooms()
        .ask::<Ack>(
            match_id,
            Command::Chat {
                conn,
                author: author.clone(),
                text,
            },
        )
        .await
        .map(|_| ())
}

/// Stores a lobby message and sends it to the lobby's followers but those who muted its author.
/// Two messages written at once may reach a socket in either order: clients order by id.
async fn in_lobby(state: &AppState, author: &Player, text: &ChatText) -> ApiResult<()> {
    let now = crate::clock::now_ms();
    let written = state
        .store()
        .add_chat(None, ChatChannel::Lobby, author, text, now)
        .await?;
    let chat = frame(&ServerMessage::Chat {
        message: written.message.clone(),
    });
    state.sockets().send(
        Fanout::Lobby {
            except: written.muters,
        },
        &chat,
    );
    Ok(())
}
