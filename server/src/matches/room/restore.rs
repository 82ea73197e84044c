//! How a room comes to be: rebuilt from the store (after a restart, or to wake a match that
//! slept), or opened for a match just stored with its first players.

use std::collections::HashMap;

use protocol::{MatchId, MatchResult};
use tokio::time::Instant;

use super::agreement::Agreement;
use super::rematch::Rematch;
use super::seat::{Seat, note_acted, turns_begin};
use super::{Phase, Room, RoomContext};
use crate::cluster::store::Epoch;
use crate::error::ApiResult;
use crate::matches::clocks::Clocks;
use crate::matches::followers::Followers;
use crate::matches::glance::GlanceCell;
use crate::matches::hosted::host;
use crate::matches::new_match::Opening;
use crate::matches::store::{Entry, Status, StoredMatch, fold};
use crate::metrics::LiveMatch;

impl Room {
    /// Rebuilds a room from the store: the game is replayed from its log, and Fischer clocks
    /// resume with the time each seat had after its last action (time the server was down is
    /// not charged). A per-move clock's move takes days, so its turn is a deadline on the wall
    /// clock: `Room::follow_vacations` charges the time since the turn began once the room
    /// runs.
    pub fn restore(stored: StoredMatch, ctx: RoomContext, epoch: Epoch) -> ApiResult<Room> {
        let spec = stored.spec;
        let mut game = host(
            &spec.game,
            &spec.variant,
            usize::from(spec.seats),
            spec.seed,
        )?;
        let n = usize::from(spec.seats);
        let mut clocks = spec.clock.map(|clock| Clocks::new(clock, n));
        // Clocks and commands as of the log's last entry, actions taken back included: a
        // takeback gives no time back, and a resent command is answered as it was.
        let mut commands = HashMap::new();
        let now = Instant::now();
        for entry in &stored.log {
            match entry {
                Entry::Action(a) => {
                    if let Some(command) = &a.command_id {
                        commands.insert((a.seat, command.clone()), (a.seq, a.action.clone()));
                    }
                    if let (Some(c), Some(ms)) = (clocks.as_mut(), a.clock_ms) {
                        // Nothing runs yet: the seat's clock is set, and has started.
                        c.acted(usize::from(a.seat), ms, &[], now);
                    }
                }
                Entry::Takeback(t) => {
                    if let (Some(c), Some(all)) = (clocks.as_mut(), &t.clocks_ms) {
                        for (seat, &ms) in all.iter().enumerate().take(n) {
                            c.set_remaining(seat, ms, now);
                        }
                    }
                }
            }
        }
        let kept = fold(&stored.log);
        // A per-move clock counts each seat's move from when its turn began: after the move
        // that gave it the turn, or after a takeback that did (the last entry's, if a takeback).
        let per_move = spec.clock.is_some_and(|c| c.per_move);
        let started_ms = stored.started_ms.unwrap_or(spec.created_ms);
        let mut seats: Vec<Seat> = (stored.players.into_iter())
            .map(|player| Seat::new(player, started_ms, now))
            .collect();
        for a in &kept {
            let before = per_move.then(|| game.to_act());
            game.play(a.seat, &a.action)?;
            if let Some(before) = before {
                turns_begin(&mut seats, &before, a.seat, &game.to_act(), a.at_ms);
            }
        }
        if let Some(Entry::Takeback(t)) = stored.log.last() {
            for seat in game.to_act() {
                seats[usize::from(seat)].turn_from_ms = t.at_ms;
            }
        }
        let log: Vec<(u8, String)> = kept.iter().map(|a| (a.seat, a.action.clone())).collect();
        note_acted(&mut seats, &log);
        let phase = match stored.status {
            Status::Waiting => Phase::Waiting,
            Status::Live => Phase::Live,
            Status::Finished | Status::Aborted => Phase::Over,
        };
        let result = stored.result.map(|(places, reason)| MatchResult {
            places,
            reason,
            ratings: Vec::new(),
        });
        let (one_view, resume_events) = (game.one_view(), ctx.resume_events);
        if let (Some(c), Phase::Live) = (clocks.as_mut(), phase) {
            c.follow(&game.to_act(), now);
        }
        // A match restored live counts as live again (the server that counted it is gone).
        let live = (phase == Phase::Live).then(|| LiveMatch::new(&spec.game));
        let glance = GlanceCell::default();
        glance.update(|g| g.view = game.view(None));
        Ok(Room {
            id: stored.id,
            epoch,
            fenced: false,
            spec,
            ctx,
            game,
            log,
            entries: stored.log.len() as u32,
            commands,
            seats,
            phase,
            result,
            followers: Followers::new(stored.id, n, one_view, stored.last_seq, resume_events),
            clocks,
            draw: Agreement::default(),
            takeback: Agreement::default(),
            in_tournament: stored.in_tournament,
            retry_result: None,
            live,
            glance,
            told_watchers: (0, None),
            rematch: Rematch::None,
            rematch_offerers: Vec::new(),
            series: stored.series,
            pending: None,
        })
    }

    /// The room of a match just stored with its first players: each seat's taking is
    /// announced, and a full match starts. Nothing is read back from the store.
    pub fn open(id: MatchId, opening: Opening, ctx: RoomContext, epoch: Epoch) -> ApiResult<Room> {
        let full = opening.full();
        let seats = usize::from(opening.spec.seats);
        let mut room = Room::restore(
            StoredMatch {
                id,
                spec: opening.spec,
                status: Status::Waiting,
                result: None,
                last_seq: 0,
                players: vec![None; seats],
                log: Vec::new(),
                in_tournament: opening.in_tournament,
                series: opening.series,
                started_ms: None,
            },
            ctx,
            epoch,
        )?;
        room.followers.opened_here();
        for (seat, player) in opening.seating {
            room.seated(seat, player);
        }
        if full {
            room.begin(opening.unrated);
        }
        Ok(room)
    }
}
