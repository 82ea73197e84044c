use super::rematch::Rematch;
use super::{Phase, Room, forbidden};
use crate::accounts::player::Player;
use crate::chat::rules::{self, ChatText, Role};
use crate::error::ApiResult;
use crate::sockets::{ConnId, Frame, Outbox, frame};
use protocol::{Ack, MatchEvent, PlayerId, Seq, ServerMessage};
use tokio::time::Instant;

impl Room {
    pub(super) fn watch(
        &mut self,
        conn: ConnId,
        player: Option<PlayerId>,
        invite: Option<String>,
        since: Option<Seq>,
        outbox: Outbox,
    ) -> ApiResult<Ack> {
        let seated = player.is_some_and(|p| !self.seats_of(p).is_empty());
        if self.spec.private && !seated && (invite.is_none() || invite != self.spec.invite) {
            return Err(self.not_found());
        }
        // The watcher is present from now on: its return, if others were told it was away, is
        // announced before the snapshot or replay is taken, so that these include it.
        self.refresh_presence(player);
        let yours = player.map(|p| self.seats_of(p)).unwrap_or_default();
        let viewer = yours.first().copied();
        let missed = since.and_then(|Seq(since)| self.followers.missed(since, viewer));
        let frames = match missed {
            Some(frames) => frames,
            None => {
                // A snapshot showing a seat not connected tells as much as `disconnected`.
                for seat in 0..self.seats.len() {
                    if self.seats[seat].player.is_some() && self.seats[seat].away_since.is_some() {
                        self.seats[seat].announced_away = true;
                    }
                }
                vec![self.snapshot_frame(viewer, &yours)]
            }
        };
        self.followers
            .add(conn, player, viewer, outbox.clone(), frames);
        // The newcomer learns the number at once; the others with the next telling.
        let _ = outbox.try_send(self.watchers_frame());
        if let Rematch::Offered(agreed) = &self.rematch {
            let _ = outbox.try_send(self.rematch_offered(agreed));
        }
        Ok(Ack {
            match_id: Some(self.id),
            seats: yours,
            seq: Some(Seq(self.followers.seq())),
            ..Ack::default()
        })
    }

    /// A chat message, in the channel of the author's role here. Through the room, so that a
    /// channel's readers are the followers of the moment (whether the game is over included),
    /// and every follower gets the match's messages in the order they were stored.
    pub(super) async fn chat(
        &mut self,
        conn: ConnId,
        author: Player,
        text: ChatText,
    ) -> ApiResult<Ack> {
        let role = Role::of(!self.seats_of(author.id).is_empty());
        if !self.followers.follows(conn) {
            return Err(if self.spec.private && role == Role::Spectator {
                self.not_found()
            } else {
                forbidden("follow the match (watch it) to chat in it")
            });
        }
        let channel = role.channel();
        rules::may_write(author.guest, channel)?;
        let written = self
            .ctx
            .store
            .add_chat(
                Some(self.id),
                channel,
                &author,
                &text,
                crate::clock::now_ms(),
            )
            .await?;
        let over = self.phase == Phase::Over;
        let chat = frame(&ServerMessage::Chat {
            message: written.message.clone(),
        });
        self.followers.tell_some(&chat, |seated, player| {
            rules::may_read(Role::of(seated), channel, over) && written.reaches(player)
        });
        Ok(Ack {
            match_id: Some(self.id),
            ..Ack::default()
        })
    }

    pub(super) fn watchers_frame(&self) -> Frame {
        frame(&ServerMessage::Watchers {
            match_id: self.id,
            watchers: self.followers.watchers(),
        })
    }

    /// Tells every follower how many spectators follow the match now.
    pub(super) fn tell_watchers(&mut self) {
        self.told_watchers = (self.followers.watchers(), Some(Instant::now()));
        self.followers.tell(&self.watchers_frame());
    }

    pub(super) fn unwatch(&mut self, conn: ConnId, closed: bool) {
        let player = self.followers.remove(conn);
        self.refresh_presence(None);
        // Leaving the page of a finished match takes a rematch offer away at once; a socket
        // that closed may be a reload, and has the grace period to come back (`rematch_alarm`).
        if let Some(player) = player
            && !closed
            && !self.followers.include(player)
        {
            self.lapse_rematch(player);
        }
    }

    /// Since when every human player has been away: `None` while one of them follows the
    /// match, and when no human plays in it.
    pub(super) fn away_since(&self) -> Option<Instant> {
        let mut latest = None;
        for seat in 0..self.seats.len() {
            if self.seats[seat].player.is_none() || self.ai_level(seat as u8).is_some() {
                continue;
            }
            let since = self.seats[seat].away_since?;
            latest = latest.max(Some(since));
        }
        latest
    }

    /// Notes which seats have lost or regained every socket (counting `arriving`, a player
    /// whose socket is about to follow), and tells everyone.
    pub(super) fn refresh_presence(&mut self, arriving: Option<PlayerId>) {
        let now = Instant::now();
        for seat in 0..self.seats.len() {
            let Some(player) = self.seats[seat].player.as_ref().map(|p| p.id) else {
                continue;
            };
            let connected = arriving == Some(player)
                || self.ai_level(seat as u8).is_some()
                || self.followers.include(player);
            self.seats[seat].showed |= connected;
            match (connected, self.seats[seat].away_since) {
                (true, Some(_)) => {
                    self.seats[seat].away_since = None;
                    // Nobody was told a seat taken a moment ago was away: no `reconnected`.
                    if std::mem::take(&mut self.seats[seat].announced_away)
                        && self.phase == Phase::Live
                    {
                        self.followers
                            .broadcast(|_| MatchEvent::Reconnected { seat: seat as u8 });
                    }
                }
                (false, None) => {
                    self.seats[seat].away_since = Some(now);
                    if self.phase == Phase::Live {
                        self.seats[seat].announced_away = true;
                        let claim_after_ms = self.ctx.grace.as_millis() as u64;
                        self.followers.broadcast(|_| MatchEvent::Disconnected {
                            seat: seat as u8,
                            claim_after_ms,
                        });
                    }
                }
                _ => {}
            }
        }
    }
}
