//! The chat's rules, pure: what a message may say, who writes in which channel and who reads it.
//! No I/O, no clock: the room, the lobby and the REST routes ask these.

use protocol::{ChatChannel, ErrorReason};

use crate::error::ApiError;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;

/// Why a message is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatError {
    Empty,
    TooLong {
        chars: usize,
    },
    /// A control character, or a line or paragraph separator (U+2028, U+2029).
    ControlCharacter,
    /// A bidirectional embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069),
    /// which turns the rest of the line around as it is shown, the author's name included.
    DirectionControl,
    /// Guests write only in the players' channel of their own matches: throwaway accounts do
    /// not talk in public.
    GuestInPublic(ChatChannel),
}

/// A message's text: trimmed, 1 to [`MAX_CHARS`] characters, without control characters (line
/// breaks, tabs, terminal escapes) nor line and paragraph separators, which would let one
/// message pass for several, and without the characters that change the text's direction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatText(String);

impl ChatText {
    pub fn new(raw: &str) -> Result<ChatText, ChatError> {
        let text = raw.trim();
        let chars = text.chars().count();
        if chars == 0 {
            Err(ChatError::Empty)
        } else if chars > MAX_CHARS {
            Err(ChatError::TooLong { chars })
        } else if text.chars().any(breaks_line) {
            Err(ChatError::ControlCharacter)
        } else if text.chars().any(turns_text) {
            Err(ChatError::DirectionControl)
        } else {
            Ok(ChatText(text.to_string()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A control character, or Unicode's line and paragraph separators.
fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The bidirectional embeddings, overrides and isolates; the marks (U+200E, U+200F), which
/// right-to-left writing needs and which turn nothing around, are let through.
fn turns_text(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// How someone takes part in a match: seated in it, or following it without a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Player,
    Spectator,
}

impl Role {
    pub fn of(seated: bool) -> Role {
        if seated {
            Role::Player
        } else {
            Role::Spectator
        }
    }

    /// The channel of a match this role writes in.
    pub fn channel(self) -> ChatChannel {
        match self {
            Role::Player => ChatChannel::Players,
            Role::Spectator => ChatChannel::Spectators,
        }
    }
}

/// Whether someone in `role` reads a channel: each role its own while the game is on (players
/// never see what spectators say of their game, as on lichess and hivegame), both once it is
/// over; the lobby everyone.
pub fn may_read(role: Role, channel: ChatChannel, over: bool) -> bool {
    match channel {
        ChatChannel::Lobby => true,
        _ if over => true,
        ChatChannel::Players => role == Role::Player,
        ChatChannel::Spectators => role == Role::Spectator,
    }
}

/// The channels of a match someone in `role` reads.
pub fn readable(role: Role, over: bool) -> Vec<ChatChannel> {
    [ChatChannel::Players, ChatChannel::Spectators]
        .into_iter()
        .filter(|&c| may_read(role, c, over))
        .collect()
}

/// Whether an author (a guest or not) may write in a channel.
pub fn may_write(guest: bool, channel: ChatChannel) -> Result<(), ChatError> {
    match channel {
        ChatChannel::Players => Ok(()),
        ChatChannel::Spectators | ChatChannel::Lobby if guest => {
            Err(ChatError::GuestInPublic(channel))
        }
        ChatChannel::Spectators | ChatChannel::Lobby => Ok(()),
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> ApiError {
        match e {
            ChatError::Empty => ApiError::new(ErrorReason::ChatEmpty, "a chat message needs text"),
            ChatError::TooLong { chars } => ApiError::new(
                ErrorReason::ChatTooLong {
                    max: MAX_CHARS as u32,
                    chars: chars as u32,
                },
                format!("a chat message has at most {MAX_CHARS} characters, not {chars}"),
            ),
            ChatError::ControlCharacter => ApiError::new(
                ErrorReason::ChatOneLine,
                "a chat message is one line, without control characters or line separators",
            ),
            ChatError::DirectionControl => ApiError::new(
                ErrorReason::ChatDirection,
                "a chat message may not change the text's direction \
                 (U+202A to U+202E, U+2066 to U+2069)",
            ),
            ChatError::GuestInPublic(channel) => ApiError::new(
                ErrorReason::GuestsChatInOwnGames,
                format!(
                    "guests read the {} chat but write only to the players of their own \
                     matches: register an account to write here",
                    channel.as_str()
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_trimmed_bounded_and_one_line() {
        assert_eq!(ChatText::new("  good luck ").unwrap().as_str(), "good luck");
        assert_eq!(ChatText::new(" \t "), Err(ChatError::Empty));
        let longest = "é".repeat(MAX_CHARS);
        assert_eq!(ChatText::new(&longest).unwrap().as_str(), longest);
        assert_eq!(
            ChatText::new(&format!("{longest}x")),
            Err(ChatError::TooLong {
                chars: MAX_CHARS + 1
            })
        );
        for bad in [
            "two\nlines",
            "a\ttab",
            "bell\u{7}",
            "esc\u{1b}[2J",
            "line\u{2028}separator",
            "paragraph\u{2029}separator",
            "next\u{85}line",
        ] {
            assert_eq!(
                ChatText::new(bad),
                Err(ChatError::ControlCharacter),
                "{bad:?}"
            );
        }
        for turned in ["\u{202A}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2069}"] {
            assert_eq!(
                ChatText::new(&format!("a{turned}b")),
                Err(ChatError::DirectionControl),
                "{turned:?}"
            );
        }
        assert!(ChatText::new("שלום \u{200F}gg").is_ok());
        assert!(ChatText::new("<b>kept as text</b> & 🙂").is_ok());
    }

    #[test]
    fn players_and_spectators_read_their_own_channel_until_the_game_is_over() {
        use ChatChannel::*;
        assert!(may_read(Role::Player, Players, false));
        assert!(!may_read(Role::Player, Spectators, false));
        assert!(may_read(Role::Spectator, Spectators, false));
        assert!(!may_read(Role::Spectator, Players, false));
        for role in [Role::Player, Role::Spectator] {
            assert_eq!(readable(role, true), vec![Players, Spectators]);
            assert_eq!(readable(role, false), vec![role.channel()]);
            assert!(may_read(role, Lobby, false));
        }
    }

    #[test]
    fn guests_write_only_to_their_own_matches_players() {
        use ChatChannel::*;
        assert_eq!(may_write(true, Players), Ok(()));
        assert_eq!(may_write(true, Lobby), Err(ChatError::GuestInPublic(Lobby)));
        assert_eq!(
            may_write(true, Spectators),
            Err(ChatError::GuestInPublic(Spectators))
        );
        for channel in [Players, Spectators, Lobby] {
            assert_eq!(may_write(false, channel), Ok(()));
        }
    }
}
