//! Commands carried out once. An ack can be lost (the connection drops, the server restarts)
//! after its command took effect; a client that sends the command again, with the same id, must
//! get the original ack rather than a second effect (a second chat line, a second match) or a
//! refusal (`game_over` for a resignation that did happen). An `act` is recognised by its match's
//! log, which stores each action with its command's id; every other command that changes
//! something has its ack kept here for a day, with what the command meant apart from its id.

use protocol::{Ack, ClientMessage, CommandId, PlayerId};
use sqlx::Row;

use crate::store::{Store, StoreResult};

/// How long an ack is kept for a resend.
pub const KEPT_MS: i64 = 24 * 3600 * 1000;

/// What a command means apart from its id, for the commands whose acks are kept; `None` for
/// those that need no keeping: a resent `act` is recognised by the match's log, a command that
/// only reads (or follows) does the same again, and the queue belongs to a socket (a resend on
/// a new socket must join it again).
pub fn meaning(message: &ClientMessage) -> Option<String> {
    match message {
        ClientMessage::Hello { .. }
        | ClientMessage::Ping { .. }
        | ClientMessage::Act { .. }
        | ClientMessage::Watch { .. }
        | ClientMessage::Unwatch { .. }
        | ClientMessage::Legal { .. }
        | ClientMessage::WatchTournament { .. }
        | ClientMessage::WatchLobby { .. }
        | ClientMessage::UnwatchLobby { .. }
        | ClientMessage::QueueJoin { .. }
        | ClientMessage::QueueLeave { .. } => None,
        _ => {
            let mut value = serde_json::to_value(message).ok()?;
            value.as_object_mut()?.remove("id");
            Some(value.to_string())
        }
    }
}

impl Store {
    /// The ack kept for a player's command, if its meaning is `meaning`.
    pub async fn kept_ack(
        &self,
        player: PlayerId,
        id: &CommandId,
        meaning: &str,
    ) -> StoreResult<Option<Ack>> {
        let row = sqlx::query(
            "SELECT meaning, ack FROM command_acks WHERE player_id = $1 AND command_id = $2",
        )
        .bind(player.0)
        .bind(&id.0)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        if row.try_get::<String, _>("meaning")? != meaning {
            return Ok(None);
        }
        let ack: String = row.try_get("ack")?;
        Ok(serde_json::from_str(&ack).ok())
    }

    /// Keeps the ack of a command carried out; an id used again replaces what it had.
    pub async fn keep_ack(
        &self,
        player: PlayerId,
        id: &CommandId,
        meaning: &str,
        ack: &Ack,
        now_ms: i64,
    ) -> StoreResult<()> {
        let ack = serde_json::to_string(ack).expect("an ack serialises");
        sqlx::query(
            "INSERT INTO command_acks (player_id, command_id, meaning, ack, created_ms)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (player_id, command_id) DO UPDATE
             SET meaning = excluded.meaning, ack = excluded.ack, created_ms = excluded.created_ms",
        )
        .bind(player.0)
        .bind(&id.0)
        .bind(meaning)
        .bind(ack)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets the acks kept before `before_ms`.
    pub async fn forget_acks(&self, before_ms: i64) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM command_acks WHERE created_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::MatchId;

    #[test]
    fn a_command_means_what_it_says_apart_from_its_id() {
        let resign = |id: &str, seat| ClientMessage::Resign {
            id: CommandId(id.into()),
            match_id: MatchId(7),
            seat,
        };
        assert_eq!(meaning(&resign("a", 0)), meaning(&resign("b", 0)));
        assert_ne!(meaning(&resign("a", 0)), meaning(&resign("a", 1)));
        assert!(!meaning(&resign("a", 0)).unwrap().contains("\"a\""));
        let act = ClientMessage::Act {
            id: CommandId("a".into()),
            match_id: MatchId(7),
            seat: 0,
            action: "d1-d3".into(),
        };
        assert_eq!(meaning(&act), None, "the match's log keeps actions");
    }
}
