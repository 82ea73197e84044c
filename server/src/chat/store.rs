//! The storage of the chat: messages (with their match, or none for the lobby), and reports
//! (who muted whom is in `accounts/mutes.rs`). The same queries serve both backends.

use protocol::ErrorReason;
use protocol::{ChatChannel, ChatId, ChatMessage, ChatReport, MatchId, PlayerId, ReportId};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::rules::ChatText;
use crate::accounts::player::Player;
use crate::store::{Store, StoreResult, player_ref, unique};

/// A message just stored, and the players who muted its author: it is not sent to them.
pub struct Written {
    pub message: ChatMessage,
    pub muters: Vec<PlayerId>,
}

impl Written {
    /// Whether a reader (a player, or a visitor: `None`) is sent the message.
    pub fn reaches(&self, reader: Option<PlayerId>) -> bool {
        !reader.is_some_and(|p| self.muters.contains(&p))
    }
}

/// The columns a message is read from: the message `c`, its author `a`.
const MESSAGE: &str = "c.id, c.match_id, c.channel, c.text, c.at_ms,
                       a.id AS a_id, a.name AS a_name, a.guest AS a_guest";

fn channel(name: &str) -> ChatChannel {
    match name {
        "players" => ChatChannel::Players,
        "spectators" => ChatChannel::Spectators,
        _ => ChatChannel::Lobby,
    }
}

fn message_from(row: &AnyRow) -> sqlx::Result<ChatMessage> {
    Ok(ChatMessage {
        id: ChatId(row.try_get("id")?),
        match_id: row.try_get::<Option<i64>, _>("match_id")?.map(MatchId),
        channel: channel(&row.try_get::<String, _>("channel")?),
        author: player_ref(row, "a_")?,
        text: row.try_get("text")?,
        at_ms: row.try_get("at_ms")?,
    })
}

impl Store {
    /// Stores a message in a match's channel (`match_id`) or the lobby's (none).
    pub async fn add_chat(
        &self,
        match_id: Option<MatchId>,
        channel: ChatChannel,
        author: &Player,
        text: &ChatText,
        now_ms: i64,
    ) -> StoreResult<Written> {
        let row = sqlx::query(
            "INSERT INTO chat_messages (match_id, channel, author_id, text, at_ms)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(match_id.map(|m| m.0))
        .bind(channel.as_str())
        .bind(author.id.0)
        .bind(text.as_str())
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        let muters = sqlx::query("SELECT muter_id FROM chat_mutes WHERE muted_id = $1")
            .bind(author.id.0)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get("muter_id").map(PlayerId))
            .collect::<sqlx::Result<_>>()?;
        Ok(Written {
            message: ChatMessage {
                id: ChatId(row.try_get("id")?),
                match_id,
                channel,
                author: author.public(),
                text: text.as_str().to_string(),
                at_ms: now_ms,
            },
            muters,
        })
    }

    /// The latest `limit` messages of these channels of a match (or, `match_id` none, of the
    /// lobby), oldest first; without those of the authors `reader` muted.
    pub async fn chat_history(
        &self,
        match_id: Option<MatchId>,
        channels: &[ChatChannel],
        reader: Option<PlayerId>,
        limit: u32,
    ) -> StoreResult<Vec<ChatMessage>> {
        if channels.is_empty() {
            return Ok(Vec::new());
        }
        // The channel names are the protocol's own, never the client's text.
        let names: Vec<String> = channels
            .iter()
            .map(|c| format!("'{}'", c.as_str()))
            .collect();
        let place = match match_id {
            Some(_) => "c.match_id = $3",
            None => "c.match_id IS NULL",
        };
        let mut rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MESSAGE} FROM chat_messages c JOIN players a ON a.id = c.author_id
             WHERE {place} AND c.channel IN ({})
               AND NOT EXISTS (SELECT 1 FROM chat_mutes m
                               WHERE m.muter_id = $1 AND m.muted_id = c.author_id)
             ORDER BY c.id DESC LIMIT $2",
            names.join(", ")
        )))
        .bind(reader.map(|p| p.0))
        .bind(i64::from(limit));
        if let Some(m) = match_id {
            rows = rows.bind(m.0);
        }
        let mut messages = rows
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(message_from)
            .collect::<sqlx::Result<Vec<_>>>()?;
        messages.reverse();
        Ok(messages)
    }

    pub async fn chat_message(&self, id: ChatId) -> StoreResult<Option<ChatMessage>> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MESSAGE} FROM chat_messages c JOIN players a ON a.id = c.author_id
             WHERE c.id = $1"
        )))
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(message_from).transpose()?)
    }

    /// Files a report; a reporter reports a message once (`Conflict` after).
    pub async fn report_chat(
        &self,
        message: ChatId,
        reporter: PlayerId,
        reason: &str,
        now_ms: i64,
    ) -> StoreResult<ReportId> {
        let row = sqlx::query(
            "INSERT INTO chat_reports (message_id, reporter_id, reason, at_ms)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(message.0)
        .bind(reporter.0)
        .bind(reason)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await
        .map_err(unique(ErrorReason::Conflict, || {
            "you have already reported this message".to_string()
        }))?;
        Ok(ReportId(row.try_get("id")?))
    }

    /// The reports no admin has closed, newest first.
    pub async fn open_reports(&self, limit: u32) -> StoreResult<Vec<ChatReport>> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MESSAGE}, r.id AS r_id, r.reason AS r_reason, r.at_ms AS r_at_ms,
                    p.id AS p_id, p.name AS p_name, p.guest AS p_guest
             FROM chat_reports r
             JOIN chat_messages c ON c.id = r.message_id
             JOIN players a ON a.id = c.author_id
             JOIN players p ON p.id = r.reporter_id
             WHERE r.closed_ms IS NULL ORDER BY r.id DESC LIMIT $1"
        )))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatReport {
                    id: ReportId(r.try_get("r_id")?),
                    message: message_from(r)?,
                    reporter: player_ref(r, "p_")?,
                    reason: r.try_get("r_reason")?,
                    at_ms: r.try_get("r_at_ms")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Closes an open report; false if there is no such open report.
    pub async fn close_report(&self, id: ReportId, now_ms: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE chat_reports SET closed_ms = $1 WHERE id = $2 AND closed_ms IS NULL",
        )
        .bind(now_ms)
        .bind(id.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
