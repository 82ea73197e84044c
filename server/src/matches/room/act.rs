use super::agreement::Agreement;
use super::seat::turns_begin;
use super::{Carried, CommandKey, Room};
use crate::error::{ApiError, ApiResult};
use crate::matches::clocks::Clocks;
use crate::matches::command::Reply;
use crate::matches::delivery::Delivery;
use crate::matches::hosted::host;
use crate::matches::store::{Entry, StoredAction};
use crate::matches::writer::Written;
use crate::store::StoreError;
use protocol::{Ack, ErrorReason, MatchEvent, PlayerId, Seq};
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

    /// Plays an action and goes on at once: the action is handed to the group-commit writer
    /// with its ack and its event's frames, which the writer sends once it is durable. The
    /// room looks at how the write went only when something next happens to the match (see
    /// [`Room::settle`]); until then, it is ahead of the store by this one action.
    pub(super) async fn act(
        &mut self,
        player: PlayerId,
        seat: u8,
        action: &str,
        command: Option<String>,
        reply: &mut Reply,
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
            return Err(ApiError::new(ErrorReason::TimeRanOut, "your time ran out"));
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
        let at_ms = stored.at_ms;
        let entry = Entry::Action(stored);
        let undo = Undo {
            seat,
            command: command.map(|id| {
                let key = (seat, id);
                let was = self
                    .commands
                    .insert(key.clone(), (entry.seq(), text.clone()));
                (key, was)
            }),
            // Any action makes a takeback asked for lapse: it would undo more than was asked.
            takeback: std::mem::take(&mut self.takeback),
            draw: (self.draw.proposer().is_some_and(|offerer| offerer != seat))
                .then(|| std::mem::take(&mut self.draw)),
            acted: std::mem::replace(&mut self.seats[usize::from(seat)].acted, true),
            turns_from_ms: self.seats.iter().map(|s| s.turn_from_ms).collect(),
            clocks: self.clocks.clone(),
        };
        self.entries += 1;
        self.log.push((seat, text.clone()));
        let to_act = self.game.to_act();
        if let (Some(c), Some(left)) = (self.clocks.as_mut(), clock_ms) {
            c.acted(usize::from(seat), left, &to_act, now);
        }
        turns_begin(&mut self.seats, &before, seat, &to_act, at_ms);
        let hides = self.game.hides_actions();
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
        let first_move_ms = self.clocks.as_ref().and_then(|c| c.first_moves(now));
        // Rendered once per class of viewer: the view each seat gets is computed there; the
        // spectators' one also goes to the list of live matches.
        let game = &self.game;
        let public = game.view(None);
        let frames = self.followers.number(|viewer| MatchEvent::Acted {
            seat,
            action: (!hides || viewer == Some(seat)).then(|| text.clone()),
            view: viewer.map_or_else(|| public.clone(), |seat| game.view(Some(seat))),
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
            first_move_ms: first_move_ms.clone(),
        });
        self.glance.update(|g| g.view = public);
        let ack = self.ack_seq();
        let then = Delivery {
            frames,
            reply: reply.take(),
            ack: ack.clone(),
        };
        let written = self
            .ctx
            .actions
            .append_then(self.id, self.epoch, &entry, then);
        self.pending = Some(Pending { written, undo });
        // A correspondence player is told on all their sockets that it is their move, once it
        // is: after the write.
        if self.tells_turns() && self.settle().await {
            self.tell_turn(Some(player));
        }
        // The ack is the writer's to send; the result, if the action ended the game, is
        // stored once the action is (`finish_by_rules` settles first).
        self.finish_by_rules().await;
        Ok(ack)
    }

    /// Waits for the action the room went on from, if one is still being written. If it
    /// could not be stored, it did not happen: the room is put back as it was before it (its
    /// mover was refused by the writer, and nobody was sent its event). Says whether the room
    /// is now where the store is with nothing undone.
    pub(super) async fn settle(&mut self) -> bool {
        let Some(Pending { written, undo }) = self.pending.take() else {
            return true;
        };
        match written.outcome().await {
            Ok(unreached) => {
                self.followers.drop_unreached(&unreached);
                true
            }
            Err(e) => {
                tracing::warn!(error = %e, "an action could not be stored, so it is undone");
                self.fenced |= matches!(e, StoreError::Fenced(_));
                self.undo(undo);
                false
            }
        }
    }

    fn undo(&mut self, undo: Undo) {
        self.entries -= 1;
        self.log.pop();
        self.rebuild_game();
        match undo.command {
            Some((key, Some(was))) => {
                self.commands.insert(key, was);
            }
            Some((key, None)) => {
                self.commands.remove(&key);
            }
            None => {}
        }
        self.takeback = undo.takeback;
        if let Some(draw) = undo.draw {
            self.draw = draw;
        }
        self.seats[usize::from(undo.seat)].acted = undo.acted;
        for (s, from_ms) in self.seats.iter_mut().zip(undo.turns_from_ms) {
            s.turn_from_ms = from_ms;
        }
        self.clocks = undo.clocks;
        self.followers.unnumber();
        let public = self.game.view(None);
        self.glance.update(|g| g.view = public);
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

/// An action the room went on from while it is being written, and what it changed in the room.
pub(super) struct Pending {
    written: Written,
    undo: Undo,
}

/// What an action changed in its room besides the game, its log and its event's number: if
/// the action cannot be stored, it did not happen, and this puts the room back as it was.
struct Undo {
    seat: u8,
    /// The command id's entry the action replaced (an id used again for another action is a
    /// new command), if it came with one.
    command: Option<(CommandKey, Option<Carried>)>,
    takeback: Agreement,
    /// The draw offer the action made lapse, if it did.
    draw: Option<Agreement>,
    acted: bool,
    turns_from_ms: Vec<i64>,
    clocks: Option<Clocks>,
}
