use super::Room;
use super::seat::turns_begin;
use crate::error::{ApiError, ApiResult};
use crate::matches::hosted::host;
use crate::matches::store::{Entry, StoredAction};
use protocol::{Ack, ErrorCode, MatchEvent, PlayerId, Seq};
use tokio::time::Instant;

impl Room {
    /// Only for a seat the player holds: in a hidden-information game the legal actions can tell
    /// what the seat's private view holds.
    pub(super) fn legal(&self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        Ok(Ack {
            actions: Some(self.game.legal(seat)),
            ..self.ack_seq()
        })
    }

    pub(super) async fn act(
        &mut self,
        player: PlayerId,
        seat: u8,
        action: &str,
        command: Option<String>,
    ) -> ApiResult<Ack> {
        // A command already carried out (its ack was lost on the way: a dropped connection, a
        // restart) is answered as it was then, whatever happened since. It is recognised by the
        // action it denotes, not by its spelling: `b5-b4xb3` was stored as `b5-b4`.
        if let Some(command) = &command
            && self.holds(player, seat)
            && let Some((seq, done)) = self.commands.get(&(seat, command.clone()))
            && self.game.canonical(action).as_deref() == Some(done.as_str())
        {
            let seq = *seq;
            return Ok(Ack {
                match_id: Some(self.id),
                seq: Some(Seq(seq)),
                ..Ack::default()
            });
        }
        self.seat_in_play(player, seat)?;
        let now = Instant::now();
        if let Some(c) = &self.clocks
            && c.flagged(usize::from(seat), now)
        {
            self.flag_fell().await;
            return Err(ApiError::new(ErrorCode::GameOver, "your time ran out"));
        }
        let before = self.game.to_act();
        let text = self.game.play(seat, action)?;
        let clock_ms = self
            .clocks
            .as_ref()
            .map(|c| c.after_action(usize::from(seat), now));
        let stored = StoredAction {
            ply: self.entries,
            seq: self.followers.seq() + 1,
            seat,
            action: text.clone(),
            clock_ms,
            at_ms: crate::clock::now_ms(),
            command_id: command.clone(),
        };
        let (seq, at_ms) = (stored.seq, stored.at_ms);
        let entry = Entry::Action(stored);
        // Timed here, where durability is waited for: group commit included.
        let durable = self.ctx.actions.append(self.id, self.epoch, &entry);
        let durable = crate::metrics::db("append_action", durable).await;
        if let Err(e) = self.noted(durable) {
            // Not durable, so it did not happen: rebuild the game without it.
            self.rebuild_game();
            return Err(e.into());
        }
        crate::metrics::action_accepted();
        if let Some(command) = command {
            self.commands.insert((seat, command), (seq, text.clone()));
        }
        self.entries += 1;
        // Any action makes a takeback asked for lapse: it would undo more than was asked.
        self.takeback.lapse();
        self.log.push((seat, text.clone()));
        self.seats[usize::from(seat)].acted = true;
        let to_act = self.game.to_act();
        if let (Some(c), Some(left)) = (self.clocks.as_mut(), clock_ms) {
            c.acted(usize::from(seat), left, &to_act, now);
        }
        turns_begin(&mut self.seats, &before, seat, &to_act, at_ms);
        if self.draw.proposer().is_some_and(|offerer| offerer != seat) {
            self.draw.lapse();
        }
        let hides = self.game.hides_actions();
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
        let first_move_ms = self.clocks.as_ref().and_then(|c| c.first_moves(now));
        // Rendered once per class of viewer: the view each seat gets is computed there; the
        // spectators' one also goes to the list of live matches.
        let game = &self.game;
        let public = game.view(None);
        self.followers.broadcast(|viewer| MatchEvent::Acted {
            seat,
            action: (!hides || viewer == Some(seat)).then(|| text.clone()),
            view: viewer.map_or_else(|| public.clone(), |seat| game.view(Some(seat))),
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
            first_move_ms: first_move_ms.clone(),
        });
        self.glance.update(|g| g.view = public);
        self.tell_turn(Some(player));
        let ack = self.ack_seq();
        // The move is durable, so it is acknowledged even if its result is not stored yet.
        self.finish_by_rules().await;
        Ok(ack)
    }

    pub(super) fn rebuild_game(&mut self) {
        let rebuilt = host(
            &self.spec.game,
            &self.spec.variant,
            usize::from(self.spec.seats),
            self.spec.seed,
        )
        .and_then(|mut g| {
            for (seat, text) in &self.log {
                g.play(*seat, text)?;
            }
            Ok(g)
        });
        match rebuilt {
            Ok(g) => self.game = g,
            Err(e) => {
                tracing::error!(match_id = self.id.0, error = %e, "could not rebuild a game from its own log")
            }
        }
    }
}
