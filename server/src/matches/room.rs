//! One match room: a tokio task that owns a live match. Every join, action, clock tick, draw
//! offer and disconnect for the match passes through its channel, so two simultaneous moves are
//! simply handled one after the other: there is no lock and no race.
//!
//! An action is validated by the engine, written to the store, and only then acknowledged and
//! broadcast. Each event gets the next sequence number and is rendered once per kind of viewer
//! (each seat, and spectators), so hidden information never reaches the wrong socket; the last
//! few rendered events are kept for clients that resume.

mod act;
mod agreement;
mod ai;
mod asks;
mod correspondence;
mod finish;
mod joining;
pub mod rematch;
mod restore;
mod seat;
mod takeback;
mod watch;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use protocol::{
    Ack, ErrorReason, MatchId, MatchResult, MatchSnapshot, PlayerId, SeatAct, SeatCommand,
    SeatState, Seq, SeriesRef, ServerMessage,
};
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

use super::clocks::Clocks;
use super::command::{Answer, Command, Mail, Reply};
use super::followers::Followers;
use super::glance::GlanceCell;
use super::hosted::Hosted;
use super::new_match::{NewMatch, NextGames};
use super::writer::ActionLog;
use crate::accounts::player::Player;
use crate::cluster::Cluster;
use crate::cluster::store::Epoch;
use crate::error::{ApiError, ApiResult};
use crate::lobby::seeks::SeekBoard;
use crate::metrics::LiveMatch;
use crate::series::InSeries;
use crate::sockets::{ConnId, Frame, Sockets, frame};
use crate::store::{Store, StoreError, StoreResult};
use agreement::{Agreement, Proposal};
use rematch::Rematch;
use seat::Seat;

/// What a room's task leaves when it ends.
pub struct Closed {
    /// The sockets that still followed the match: they follow it again wherever it goes on.
    pub followers: Vec<ConnId>,
    /// The match is over and this node still owned it: ownership is given up.
    pub release: bool,
}

/// How a room reaches the rest of the server.
#[derive(Clone)]
pub struct RoomContext {
    pub store: Store,
    /// Where accepted actions are written.
    pub actions: ActionLog,
    pub grace: Duration,
    pub resume_events: usize,
    /// Bounds how many AI searches run at once, across all rooms.
    pub ai_threads: Arc<Semaphore>,
    /// Longest the AI thinks about one move.
    pub ai_move: Duration,
    /// How long a room whose match nobody follows and no clock drives stays in memory; its match
    /// stays in the store, and the next command for it starts the room again from there.
    pub sleep_after: Duration,
    /// Rated games two players may start against each other in 24 hours; later ones are casual.
    pub rated_games_per_pair: u32,
    /// Where the second game of a series is sent to have its room started.
    pub next_games: NextGames,
    /// Every player's open sockets: a correspondence match tells a player on all of them that
    /// it is their move.
    pub sockets: Arc<Sockets>,
    /// The other nodes: where a match's room runs, and its followers elsewhere.
    pub cluster: Cluster,
    /// Told when a public match waiting for players (a seek) is posted, taken or called off.
    pub seeks: SeekBoard,
}

/// What a room does when its timer goes off.
#[derive(Clone, Copy)]
enum Alarm {
    /// The clock of a seat to act runs out.
    Flag,
    /// The game is over by its rules, and storing the result failed: try again.
    Outcome,
    /// Nobody has followed the match for [`RoomContext::sleep_after`]: the room leaves memory.
    Sleep,
    /// The number of spectators changed since followers were last told it.
    Watchers,
    /// A seat's player's vacation runs out.
    VacationOver,
    /// A player of a finished match with a rematch offer standing has been away for the grace
    /// period: the offer lapses.
    RematchLapse,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Waiting,
    Live,
    Over,
}

/// The actor of one live match: the state its parts in `room/` share.
pub struct Room {
    id: MatchId,
    /// The epoch this node owns the match at: every write names it.
    epoch: Epoch,
    /// A write was refused because another node owns the match now: the room stops.
    fenced: bool,
    spec: NewMatch,
    ctx: RoomContext,
    game: Box<dyn Hosted>,
    /// Every action in play, in order, as (seat, text): rebuilds the game if a write fails, or
    /// after a takeback.
    log: Vec<(u8, String)>,
    /// The number of entries in the stored log (actions and takebacks): the next entry's index.
    entries: u32,
    /// The event number and text of each action a client sent with a command id, by seat and
    /// id: the same command sent again (same seat, id and action) is answered with its original
    /// ack. An id used again for another action is a new command.
    commands: HashMap<CommandKey, Carried>,
    /// Each seat: its player, their presence, their turn.
    seats: Vec<Seat>,
    phase: Phase,
    result: Option<MatchResult>,
    /// The sockets following the match, and the events they were sent.
    followers: Followers,
    clocks: Option<Clocks>,
    /// The standing draw offer, if any.
    draw: Agreement,
    /// The takeback asked for, if any.
    takeback: Agreement,
    /// A tournament's game (see [`Room::unplayed`]).
    in_tournament: bool,
    /// After a result by the rules or by a fallen flag could not be stored: when to try again.
    /// The game stays over and the flag down, so without a pause the room would retry as fast
    /// as the database fails.
    retry_result: Option<Instant>,
    /// Counts the match among the live ones while it is being played here.
    live: Option<LiveMatch>,
    /// What the list of live matches shows of the match.
    glance: GlanceCell,
    /// The number of spectators followers were last told, and when.
    told_watchers: (u32, Option<Instant>),
    /// Once the match is over: the players' rematch. Game 1 of a series has game 2 for one.
    rematch: Rematch,
    /// The players who have offered a rematch: each offers once per finished match.
    rematch_offerers: Vec<PlayerId>,
    /// A game of a two-game match.
    series: Option<InSeries>,
    /// The last action, while it is being written: the room went on from it (see `act.rs`).
    pending: Option<act::Pending>,
}

/// A command id, with the seat it was sent for.
type CommandKey = (u8, String);

/// The event number and text of the action a command carried out.
type Carried = (u64, String);

/// How long a result that could not be stored waits before it is tried again.
const RESULT_RETRY: Duration = Duration::from_secs(1);

/// The shortest time between two `watchers` messages of a match: spectators coming and going
/// would otherwise cost every follower a message each.
const WATCHERS_EVERY: Duration = Duration::from_secs(1);

fn forbidden(what: &str) -> ApiError {
    ApiError::new(ErrorReason::Forbidden, what.to_string())
}

fn not_your_seat() -> ApiError {
    ApiError::new(ErrorReason::NotYourSeat, "you do not hold that seat")
}

fn conflict(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorReason::Conflict, what)
}

/// Why a rated match that is about to start is played casual, if it is (see
/// [`crate::policy::rated_pair_limit`]). A tournament's pairings are not the players' choice, so
/// its games keep their rating.
pub async fn unrated(
    ctx: &RoomContext,
    spec: &NewMatch,
    in_tournament: bool,
    players: &[PlayerId],
) -> ApiResult<Option<String>> {
    if !spec.rated || spec.hotseat || in_tournament {
        return Ok(None);
    }
    let (store, limit) = (&ctx.store, ctx.rated_games_per_pair);
    crate::policy::rated_pair_limit(store, limit, players, crate::clock::now_ms()).await
}

impl Room {
    /// A store result, noting a write refused because another node owns the match now: the
    /// room stops once the command that made it is answered.
    fn noted<T>(&mut self, result: StoreResult<T>) -> StoreResult<T> {
        self.fenced |= matches!(result, Err(StoreError::Fenced(_)));
        result
    }

    /// What the list of live matches shows of the match, as the room keeps it up to date.
    pub fn glance(&self) -> GlanceCell {
        self.glance.clone()
    }

    /// Serves commands until the match is over and nobody follows it any more, or until it has
    /// gone unfollowed long enough to sleep. `close_if_quiet` closes the channel if no command
    /// waits in it, atomically with respect to the senders (see `Rooms`): a command is either
    /// queued before or finds the room gone and starts it again from the store.
    pub async fn run(
        mut self,
        mut commands: mpsc::Receiver<Mail>,
        me: mpsc::WeakSender<Mail>,
        close_if_quiet: impl Fn(&mut mpsc::Receiver<Mail>) -> bool,
    ) -> Closed {
        // A crash between storing a game's final action and storing its result leaves a live
        // match whose game is over: the result is recorded now, once.
        Box::pin(self.finish_by_rules()).await;
        // A crash between seating the last player and marking the match live leaves a full
        // match waiting: it starts now (a failed write leaves it waiting for the next start).
        if self.phase == Phase::Waiting
            && self.full()
            && let Err(e) = Box::pin(self.start()).await
        {
            tracing::warn!(error = %e, "could not start a full match");
        }
        Box::pin(self.follow_vacations()).await;
        loop {
            let (away_since, watchers) = (self.away_since(), self.followers.watchers());
            let to_act = self.to_act();
            let deadline = self.clocks.as_ref().and_then(Clocks::next_flag);
            let on_vacation = self.on_vacation();
            self.glance.update(|g| {
                g.away_since = away_since;
                g.watchers = watchers;
                g.to_act = to_act;
                g.deadline = deadline;
                g.on_vacation = on_vacation;
            });
            self.wake_ai(&me);
            let alarm = self.alarm();
            let timer = async {
                match alarm {
                    Some((at, _)) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let mut asleep = false;
            tokio::select! {
                command = commands.recv() => match command {
                    // Boxed, as what an alarm does: handling one takes a large future, which
                    // only lives meanwhile; inline, every waiting room's task would hold it.
                    Some(command) => Box::pin(self.handle(command)).await,
                    None => return self.closed(),
                },
                () = timer => match alarm {
                    // The last action's write is settled first, as before any command.
                    _ if self.pending.is_some() => {
                        Box::pin(self.settle()).await;
                    }
                    Some((_, Alarm::Flag)) => Box::pin(self.flag_fell()).await,
                    Some((_, Alarm::Outcome)) => Box::pin(self.finish_by_rules()).await,
                    // A command that came in meanwhile keeps the room awake to serve it.
                    Some((_, Alarm::Sleep)) => asleep = close_if_quiet(&mut commands),
                    Some((_, Alarm::Watchers)) => self.tell_watchers(),
                    Some((_, Alarm::VacationOver)) => self.vacations_over(),
                    Some((_, Alarm::RematchLapse)) => self.lapse_rematch_of_the_away(),
                    None => {}
                },
            }
            if asleep {
                tracing::debug!("nobody follows the match: its room sleeps");
                return self.closed();
            }
            if self.fenced {
                tracing::warn!("another node owns the match now: its room stops here");
                return self.closed();
            }
            if self.phase == Phase::Over && self.followers.is_empty() {
                // Commands already queued (a sender may have found the room just before it
                // closed) are still answered; later senders find it closed and start a new one.
                commands.close();
                while let Some(command) = commands.recv().await {
                    Box::pin(self.handle(command)).await;
                }
                return self.closed();
            }
        }
    }

    /// How the room ended: who still follows it, and whether its match is over and still this
    /// node's, so that ownership is given up and no row of it stays behind.
    fn closed(&self) -> Closed {
        Closed {
            followers: self.followers.conns(),
            release: self.phase == Phase::Over && !self.fenced,
        }
    }

    /// When the room next acts by itself, if nothing happens first: a running clock's flag
    /// falls, a match nobody follows, with no clock running and no AI thinking, sleeps, or
    /// followers are told a new number of spectators. Any command puts the sleep off again.
    fn alarm(&self) -> Option<(Instant, Alarm)> {
        let (told, told_at) = self.told_watchers;
        let watchers = (!self.followers.is_empty() && self.followers.watchers() != told)
            .then(|| told_at.map_or_else(Instant::now, |at| at + WATCHERS_EVERY))
            .map(|at| (at, Alarm::Watchers));
        let vacation_over = (self.seats.iter())
            .filter_map(|s| s.vacation_until)
            .min()
            .map(|until| (crate::clock::instant_at(until), Alarm::VacationOver));
        [
            self.game_alarm(),
            watchers,
            vacation_over,
            self.rematch_alarm(),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|(at, _)| *at)
    }

    /// The alarm of the game itself: a flag, a result to store again, or sleep.
    fn game_alarm(&self) -> Option<(Instant, Alarm)> {
        let flag = self
            .clocks
            .as_ref()
            .filter(|_| self.phase == Phase::Live)
            .and_then(Clocks::next_flag)
            .map(|at| self.retry_result.map_or(at, |retry| retry.max(at)));
        let unrecorded = self
            .retry_result
            .filter(|_| self.phase == Phase::Live && self.game.outcome().is_some());
        let may_sleep = self.phase != Phase::Over
            && self.followers.is_empty()
            && !self.seats.iter().any(|s| s.thinking);
        match (unrecorded, flag) {
            (Some(at), _) => Some((at, Alarm::Outcome)),
            (None, Some(at)) => Some((at, Alarm::Flag)),
            (None, None) if may_sleep => {
                Some((Instant::now() + self.ctx.sleep_after, Alarm::Sleep))
            }
            (None, None) => None,
        }
    }

    /// Handles one piece of mail, once the last action's write is settled: whatever comes
    /// next acts on what is stored, and is sent after that action's event.
    async fn handle(&mut self, mail: Mail) {
        self.settle().await;
        match mail {
            Mail::AiMove { seat, ply, action } => self.ai_move(seat, ply, action).await,
            Mail::Command(command, mut reply) => {
                let answer = self.serve(command, &mut reply).await;
                if let Some(reply) = reply {
                    let _ = reply.send(answer);
                }
            }
        }
    }

    /// Carries out a command, and says how it went (see [`Command`] for each). An action
    /// takes `reply` and answers it once it is durable.
    async fn serve(&mut self, command: Command, reply: &mut Reply) -> ApiResult<Answer> {
        match command {
            Command::Join {
                player,
                seat,
                invited,
            } => self.join(player, seat, invited).await.map(Answer::Ack),
            Command::Watch {
                conn,
                player,
                invite,
                since,
                outbox,
            } => {
                let outbox = outbox.ok_or_else(|| {
                    ApiError::new(ErrorReason::Internal, "a watch came without its socket")
                })?;
                self.watch(conn, player, invite, since, outbox)
                    .map(Answer::Ack)
            }
            Command::Unwatch { conn, closed } => {
                self.unwatch(conn, closed);
                Ok(Answer::Done)
            }
            Command::Rematch { player, answer } => self.rematch(player, answer).map(Answer::Deal),
            Command::Rematched { opened } => {
                self.rematched(opened);
                Ok(Answer::Done)
            }
            Command::Seat { player, command } => self
                .seat_command(player, command, reply)
                .await
                .map(Answer::Ack),
            Command::Chat { conn, author, text } => {
                self.chat(conn, author, text).await.map(Answer::Ack)
            }
            Command::Forfeit { seats } => self.forfeit(&seats).await.map(Answer::Seats),
            Command::Vacation { player, until_ms } => {
                self.vacation(player, until_ms);
                Ok(Answer::Done)
            }
            Command::Banned { player } => self.banned(player).await.map(Answer::Ended),
            Command::Withdraw { player } => {
                // A correspondence seek waits for its taker however long its poster is away.
                let correspondence = self.spec.clock.is_some_and(|c| c.per_move);
                let seek = self.phase == Phase::Waiting && !self.seats_of(player).is_empty();
                let seek = seek && !correspondence;
                let withdrawn = match seek {
                    true => self.call_off(None, "aborted").await?,
                    false => false,
                };
                Ok(Answer::Ended(withdrawn))
            }
            Command::Expire { entries } => {
                let idle = self.phase != Phase::Over && self.entries as usize == entries;
                let expired = match idle {
                    true => self.call_off(None, "idle").await?,
                    false => false,
                };
                Ok(Answer::Ended(expired))
            }
        }
    }

    /// A player's command for one of their seats.
    async fn seat_command(
        &mut self,
        player: PlayerId,
        command: SeatCommand,
        reply: &mut Reply,
    ) -> ApiResult<Ack> {
        let seat = command.seat;
        match command.act {
            SeatAct::Legal => self.legal(player, seat),
            SeatAct::Act { action } => {
                (self.act(player, seat, &action, Some(command.id.0), reply)).await
            }
            SeatAct::Resign => self.resign(player, seat).await,
            SeatAct::OfferDraw => self.offer_draw(player, seat),
            SeatAct::AnswerDraw { accept } => {
                self.answer(Proposal::Draw, player, seat, accept).await
            }
            SeatAct::AskTakeback => self.ask_takeback(player, seat).await,
            SeatAct::AnswerTakeback { accept } => {
                self.answer(Proposal::Takeback, player, seat, accept).await
            }
            SeatAct::Abort => self.abort(player, seat).await,
            SeatAct::ClaimWin => self.claim_win(player, seat).await,
        }
    }

    fn holds(&self, player: PlayerId, seat: u8) -> bool {
        self.seats
            .get(usize::from(seat))
            .and_then(|s| s.player.as_ref())
            .is_some_and(|p| p.id == player)
    }

    /// The players seated, in seat order.
    fn players(&self) -> impl Iterator<Item = &Player> {
        self.seats.iter().filter_map(|s| s.player.as_ref())
    }

    /// Whether every seat is taken.
    fn full(&self) -> bool {
        self.seats.iter().all(|s| s.player.is_some())
    }

    /// The seats a player holds here.
    fn seats_of(&self, player: PlayerId) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&s| self.holds(player, s))
            .collect()
    }

    /// Checks that `player` holds `seat` in a match being played.
    fn seat_in_play(&self, player: PlayerId, seat: u8) -> ApiResult<()> {
        if usize::from(seat) >= self.seats.len() {
            return Err(ApiError::new(
                ErrorReason::NoSuchSeat { seat },
                format!("there is no seat {seat}"),
            ));
        }
        if !self.holds(player, seat) {
            return Err(not_your_seat());
        }
        match self.phase {
            // Its rules ended the game, but the result is not stored yet (`retry_result`): a
            // resignation or a draw must not take that result's place.
            Phase::Live if self.retry_result.is_some() && self.game.outcome().is_some() => {
                Err(ApiError::new(
                    ErrorReason::MatchOver,
                    "the game is over; its result is being stored",
                ))
            }
            Phase::Live => Ok(()),
            Phase::Waiting => Err(ApiError::new(
                ErrorReason::MatchNotStarted,
                "the match has not started",
            )),
            Phase::Over => Err(ApiError::new(ErrorReason::MatchOver, "the match is over")),
        }
    }

    fn ack_seq(&self) -> Ack {
        Ack {
            match_id: Some(self.id),
            seq: Some(Seq(self.followers.seq())),
            ..Ack::default()
        }
    }

    /// A private match's existence is told only to its players and to holders of its code.
    fn not_found(&self) -> ApiError {
        ApiError::new(
            ErrorReason::MatchNotFound { id: self.id.0 },
            format!("there is no match {}", self.id.0),
        )
    }

    /// The seats that must act now: none unless the match is live.
    fn to_act(&self) -> Vec<u8> {
        match self.phase {
            Phase::Live => self.game.to_act(),
            Phase::Waiting | Phase::Over => Vec::new(),
        }
    }

    /// Moves the match to a phase, keeping the live-match metric in step.
    fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
        self.live = (phase == Phase::Live).then(|| LiveMatch::new(&self.spec.game));
        if phase == Phase::Live {
            tracing::info!(game = %self.spec.game, variant = %self.spec.variant, "match live");
        }
        if phase == Phase::Over {
            // Nothing is left for a vacation to pause.
            for seat in &mut self.seats {
                seat.vacation_until = None;
            }
        }
    }

    /// The whole match as `viewer` (a seat of the player's, or a spectator) may see it: what a
    /// follower gets when it cannot resume from the events it missed.
    fn snapshot_frame(&self, viewer: Option<u8>, yours: &[u8]) -> Frame {
        let now = Instant::now();
        let hides = self.game.hides_actions();
        let snapshot = MatchSnapshot {
            game: self.spec.game.clone(),
            variant: self.spec.variant.clone(),
            rated: self.spec.rated,
            clock: self.clocks.as_ref().map(|c| c.spec),
            seats: (0..self.seats.len())
                .map(|s| SeatState {
                    seat: s as u8,
                    player: self.seats[s].player.as_ref().map(Player::public),
                    connected: self.seats[s].player.is_some() && self.seats[s].away_since.is_none(),
                    clock_ms: self.clocks.as_ref().map(|c| c.remaining_now(s, now)),
                    first_move_ms: self.clocks.as_ref().and_then(|c| c.first_move_now(s, now)),
                    vacation_until_ms: self.seats[s].vacation_until,
                })
                .collect(),
            your_seats: yours.to_vec(),
            to_act: if self.phase == Phase::Live {
                self.game.to_act()
            } else {
                Vec::new()
            },
            view: self.game.view(viewer),
            actions: self
                .log
                .iter()
                .map(|(seat, text)| (!hides || viewer == Some(*seat)).then(|| text.clone()))
                .collect(),
            draw_offer: self.draw.proposer(),
            takebacks: self.may_take_back().is_ok(),
            takeback_offer: self.takeback.proposer(),
            result: self.result.clone(),
            series: self.series.map(|s| SeriesRef {
                series_id: s.id,
                game: s.game,
            }),
            tournament: self.in_tournament,
        };
        frame(&ServerMessage::Snapshot {
            match_id: self.id,
            seq: Seq(self.followers.seq()),
            snapshot,
        })
    }
}
