use super::{Phase, Room};
use crate::matches::command::Mail;
use engine::ai::Level;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

impl Room {
    /// The AI level playing a seat, if an AI account holds it.
    pub(super) fn ai_level(&self, seat: u8) -> Option<Level> {
        self.seats.get(usize::from(seat))?.ai_level()
    }

    /// Starts a search for every AI seat that must act and is not already thinking. Searches
    /// run on the blocking pool, at most `ai_threads` at once, so they never stall a room.
    pub(super) fn wake_ai(&mut self, me: &mpsc::WeakSender<Mail>) {
        if self.phase != Phase::Live {
            return;
        }
        for seat in self.game.to_act() {
            let Some(level) = self.ai_level(seat) else {
                continue;
            };
            if std::mem::replace(&mut self.seats[usize::from(seat)].thinking, true) {
                continue;
            }
            let game = self.game.boxed_clone();
            let ply = self.entries as usize;
            let me = me.clone();
            let permits = self.ctx.ai_threads.clone();
            // On a clock, never spend more than a thirtieth of what is left.
            let think = self.clocks.as_ref().map_or(self.ctx.ai_move, |c| {
                let left = c.remaining_now(usize::from(seat), Instant::now());
                self.ctx.ai_move.min(Duration::from_millis(left / 30))
            });
            tokio::spawn(async move {
                let Ok(_permit) = permits.acquire_owned().await else {
                    return;
                };
                let deadline = std::time::Instant::now() + think;
                let search = move || {
                    let started = std::time::Instant::now();
                    let action =
                        game.ai_action(seat, level, &|| std::time::Instant::now() >= deadline);
                    crate::metrics::ai_searched(started.elapsed());
                    action
                };
                let action = tokio::task::spawn_blocking(search).await.ok().flatten();
                if let Some(room) = me.upgrade() {
                    let _ = room.send(Mail::AiMove { seat, ply, action }).await;
                }
            });
        }
    }

    pub(super) async fn ai_move(&mut self, seat: u8, ply: usize, action: Option<String>) {
        self.seats[usize::from(seat)].thinking = false;
        let (Some(action), Some(player)) = (
            action,
            self.seats[usize::from(seat)].player.as_ref().map(|p| p.id),
        ) else {
            return;
        };
        if ply != self.entries as usize {
            return;
        }
        if let Err(e) = self.act(player, seat, &action, None, &mut None).await {
            tracing::warn!(match_id = self.id.0, seat, %action, error = %e, "the AI's move was refused");
        }
    }
}
