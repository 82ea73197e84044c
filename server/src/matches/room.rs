//! One match room: a tokio task that owns a live match. Every join, action, clock tick, draw
//! offer and disconnect for the match passes through its channel, so two simultaneous moves are
//! simply handled one after the other: there is no lock and no race.
//!
//! An action is validated by the engine, written to the store, and only then acknowledged and
//! broadcast. Each event gets the next sequence number and is rendered once per kind of viewer
//! (each seat, and spectators), so hidden information never reaches the wrong socket; the last
//! few rendered events are kept for clients that resume.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use protocol::{
    Ack, ErrorCode, MatchEvent, MatchId, MatchResult, MatchSnapshot, PlayerId, SeatAct,
    SeatCommand, SeatState, Seq, SeriesRef, ServerMessage,
};
use serde_json::Value;
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

use super::clocks::Clocks;
use super::command::Command;
use super::followers::Followers;
use super::hosted::{Hosted, host};
use super::new_match::{NewMatch, NextGames, Opening};
use super::rematch::{Deal, Rematch, RematchAnswer, rotated};
use super::store::{Entry, Finish, Status, StoredAction, StoredMatch, StoredTakeback, fold};
use super::takeback::Asks;
use super::writer::ActionLog;
use crate::accounts::player::{Player, ai_level};
use crate::accounts::vacation::Vacations;
use crate::chat::rules::{self, ChatText, Role};
use crate::cluster::Cluster;
use crate::cluster::store::Epoch;
use crate::error::{ApiError, ApiResult};
use crate::metrics::LiveMatch;
use crate::series::InSeries;
use crate::sockets::{ConnId, Fanout, Frame, Outbox, Sockets, frame};
use crate::store::{Store, StoreError, StoreResult};
use engine::ai::Level;

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
}

/// What the lists of matches show of a room's match (see [`super::Rooms::glimpses`]), kept up
/// to date by the room, so that listing a page of matches never waits on their rooms.
#[derive(Clone, Default)]
pub struct Glance {
    /// Since when every human player has been away: `None` while one of them follows the match,
    /// and when no human plays in it.
    pub away_since: Option<Instant>,
    /// Spectator sockets following the match.
    pub watchers: u32,
    /// The spectators' view of the game, as of its last action.
    pub view: Value,
    /// The seats that must act now; none unless the match is live.
    pub to_act: Vec<u8>,
    /// When the first running clock runs out.
    pub deadline: Option<Instant>,
    /// The seats whose player is on vacation.
    pub on_vacation: Vec<u8>,
}

/// What the lists of matches show of one, from its room's [`Glance`]: as it travels between
/// nodes, its times on the wall clock.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Glimpse {
    /// Someone plays it: a human player follows it or left it less than the disconnect grace
    /// ago (a match the AI plays on every seat always is).
    pub attended: bool,
    pub watchers: u32,
    pub view: Value,
    pub to_act: Vec<u8>,
    /// When the first running clock runs out, in milliseconds since the Unix epoch.
    pub deadline_ms: Option<i64>,
    pub on_vacation: Vec<u8>,
}

/// Where a room keeps its [`Glance`] for the registry to read.
#[derive(Clone, Default)]
pub struct GlanceCell(Arc<Mutex<Glance>>);

impl GlanceCell {
    pub fn read<T>(&self, read: impl FnOnce(&Glance) -> T) -> T {
        read(&self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn update(&self, update: impl FnOnce(&mut Glance)) {
        update(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }
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
    commands: HashMap<(u8, String), (u64, String)>,
    seats: Vec<Option<Player>>,
    phase: Phase,
    result: Option<MatchResult>,
    /// The sockets following the match, and the events they were sent.
    followers: Followers,
    disconnected_since: Vec<Option<Instant>>,
    /// When each seat's turn began (wall clock), kept for a per-move clock: a room that starts
    /// counts the time taken since then (the server may have been down, or the room asleep).
    turn_from_ms: Vec<i64>,
    /// Until when each seat's player is on vacation (wall clock), in a match on a per-move clock.
    vacation_until: Vec<Option<i64>>,
    /// Seats whose player followers were told is away (by a `disconnected` event, or a snapshot
    /// showing the seat not connected): only their return is announced with `reconnected`.
    announced_away: Vec<bool>,
    clocks: Option<Clocks>,
    /// Seats that have accepted the standing draw offer (the offerer first).
    draw: Vec<u8>,
    /// Seats that have agreed to the takeback asked for (the asker first).
    takeback: Vec<u8>,
    /// Each seat's declined takeback requests, which limit its asking.
    takeback_asks: Vec<Asks>,
    acted: Vec<bool>,
    /// A tournament's game (see [`Room::unplayed`]).
    in_tournament: bool,
    /// Seats whose player has followed the match since the room started.
    showed: Vec<bool>,
    /// Seats whose AI is searching for a move right now.
    thinking: Vec<bool>,
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
}

/// After `mover`'s action at `at_ms`, the turn of each seat that must act now begins then if it
/// was not acting before, or is the mover acting again.
fn turns_begin(turn_from_ms: &mut [i64], before: &[u8], mover: u8, to_act: &[u8], at_ms: i64) {
    for &seat in to_act {
        if seat == mover || !before.contains(&seat) {
            turn_from_ms[usize::from(seat)] = at_ms;
        }
    }
}

/// Which seats have made an action among `log`'s.
fn acted_in(log: &[(u8, String)], seats: usize) -> Vec<bool> {
    let mut acted = vec![false; seats];
    for &(seat, _) in log {
        acted[usize::from(seat)] = true;
    }
    acted
}

/// How long a result that could not be stored waits before it is tried again.
const RESULT_RETRY: Duration = Duration::from_secs(1);

/// The shortest time between two `watchers` messages of a match: spectators coming and going
/// would otherwise cost every follower a message each.
const WATCHERS_EVERY: Duration = Duration::from_secs(1);

fn forbidden(what: &str) -> ApiError {
    ApiError::new(ErrorCode::Forbidden, what.to_string())
}

fn conflict(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::Conflict, what)
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
                        c.set_remaining(usize::from(a.seat), ms, now);
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
        let mut turn_from_ms = vec![stored.started_ms.unwrap_or(spec.created_ms); n];
        for a in &kept {
            let before = per_move.then(|| game.to_act());
            game.play(a.seat, &a.action)?;
            if let Some(before) = before {
                turns_begin(&mut turn_from_ms, &before, a.seat, &game.to_act(), a.at_ms);
            }
        }
        if let Some(Entry::Takeback(t)) = stored.log.last() {
            for seat in game.to_act() {
                turn_from_ms[usize::from(seat)] = t.at_ms;
            }
        }
        let log: Vec<(u8, String)> = kept.iter().map(|a| (a.seat, a.action.clone())).collect();
        let acted = acted_in(&log, n);
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
            // Everyone is away until their socket follows the match again; the AI never is.
            disconnected_since: stored
                .players
                .iter()
                .map(|p| {
                    p.as_ref()
                        .filter(|p| ai_level(&p.name).is_none())
                        .map(|_| now)
                })
                .collect(),
            announced_away: vec![false; n],
            turn_from_ms,
            vacation_until: vec![None; n],
            seats: stored.players,
            phase,
            result,
            followers: Followers::new(stored.id, n, one_view, stored.last_seq, resume_events),
            clocks,
            draw: Vec::new(),
            takeback: Vec::new(),
            takeback_asks: vec![Asks::default(); n],
            acted,
            in_tournament: stored.in_tournament,
            showed: vec![false; n],
            thinking: vec![false; n],
            retry_result: None,
            live,
            glance,
            told_watchers: (0, None),
            rematch: Rematch::None,
            rematch_offerers: Vec::new(),
            series: stored.series,
        })
    }

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

    /// Serves commands until the match is over and nobody follows it any more, or until it has
    /// gone unfollowed long enough to sleep. `close_if_quiet` closes the channel if no command
    /// waits in it, atomically with respect to the senders (see `Rooms`): a command is either
    /// queued before or finds the room gone and starts it again from the store.
    pub async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        me: mpsc::WeakSender<Command>,
        close_if_quiet: impl Fn(&mut mpsc::Receiver<Command>) -> bool,
    ) -> Vec<ConnId> {
        // A crash between storing a game's final action and storing its result leaves a live
        // match whose game is over: the result is recorded now, once.
        self.finish_by_rules().await;
        // A crash between seating the last player and marking the match live leaves a full
        // match waiting: it starts now (a failed write leaves it waiting for the next start).
        if self.phase == Phase::Waiting
            && self.seats.iter().all(Option::is_some)
            && let Err(e) = self.start().await
        {
            tracing::warn!(error = %e, "could not start a full match");
        }
        self.follow_vacations().await;
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
                    Some(command) => self.handle(command).await,
                    None => return self.followers.conns(),
                },
                () = timer => match alarm {
                    Some((_, Alarm::Flag)) => self.flag_fell().await,
                    Some((_, Alarm::Outcome)) => self.finish_by_rules().await,
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
                return Vec::new();
            }
            if self.fenced {
                tracing::warn!("another node owns the match now: its room stops here");
                return self.followers.conns();
            }
            if self.phase == Phase::Over && self.followers.is_empty() {
                // Commands already queued (a sender may have found the room just before it
                // closed) are still answered; later senders find it closed and start a new one.
                commands.close();
                while let Some(command) = commands.recv().await {
                    self.handle(command).await;
                }
                return Vec::new();
            }
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
        let vacation_over = self
            .vacation_until
            .iter()
            .flatten()
            .min()
            .map(|&until| (crate::clock::instant_at(until), Alarm::VacationOver));
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
            && !self.thinking.contains(&true);
        match (unrecorded, flag) {
            (Some(at), _) => Some((at, Alarm::Outcome)),
            (None, Some(at)) => Some((at, Alarm::Flag)),
            (None, None) if may_sleep => {
                Some((Instant::now() + self.ctx.sleep_after, Alarm::Sleep))
            }
            (None, None) => None,
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::AiMove { seat, ply, action } => self.ai_move(seat, ply, action).await,
            Command::Join {
                player,
                seat,
                invited,
                reply,
            } => {
                let _ = reply.send(self.join(player, seat, invited).await);
            }
            Command::Watch {
                conn,
                player,
                invite,
                since,
                outbox,
                reply,
            } => {
                let _ = reply.send(self.watch(conn, player, invite, since, outbox));
            }
            Command::Unwatch { conn, closed } => self.unwatch(conn, closed),
            Command::Rematch {
                player,
                answer,
                reply,
            } => {
                let _ = reply.send(self.rematch(player, answer));
            }
            Command::Rematched { opened } => self.rematched(opened),
            Command::Seat {
                player,
                command,
                reply,
            } => {
                let _ = reply.send(self.seat_command(player, command).await);
            }
            Command::Chat {
                conn,
                author,
                text,
                reply,
            } => {
                let _ = reply.send(self.chat(conn, author, text).await);
            }
            Command::Forfeit { seats, reply } => {
                let _ = reply.send(self.forfeit(&seats).await);
            }
            Command::Vacation { player, until_ms } => self.vacation(player, until_ms),
            Command::Banned { player, reply } => {
                let _ = reply.send(self.banned(player).await);
            }
            Command::Expire { entries, reply } => {
                let idle = self.phase != Phase::Over && self.entries as usize == entries;
                let expired = match idle {
                    true => self.call_off(None, "idle").await,
                    false => Ok(false),
                };
                let _ = reply.send(expired);
            }
        }
    }

    /// A player's command for one of their seats.
    async fn seat_command(&mut self, player: PlayerId, command: SeatCommand) -> ApiResult<Ack> {
        let seat = command.seat;
        match command.act {
            SeatAct::Legal => self.legal(player, seat),
            SeatAct::Act { action } => self.act(player, seat, &action, Some(command.id.0)).await,
            SeatAct::Resign => self.resign(player, seat).await,
            SeatAct::OfferDraw => self.offer_draw(player, seat),
            SeatAct::AnswerDraw { accept } => self.answer_draw(player, seat, accept).await,
            SeatAct::AskTakeback => self.ask_takeback(player, seat).await,
            SeatAct::AnswerTakeback { accept } => self.answer_takeback(player, seat, accept).await,
            SeatAct::Abort => self.abort(player, seat).await,
            SeatAct::ClaimWin => self.claim_win(player, seat).await,
        }
    }

    fn holds(&self, player: PlayerId, seat: u8) -> bool {
        self.seats
            .get(usize::from(seat))
            .and_then(Option::as_ref)
            .is_some_and(|p| p.id == player)
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
                ErrorCode::BadRequest,
                format!("there is no seat {seat}"),
            ));
        }
        if !self.holds(player, seat) {
            return Err(forbidden("you do not hold that seat"));
        }
        match self.phase {
            // Its rules ended the game, but the result is not stored yet (`retry_result`): a
            // resignation or a draw must not take that result's place.
            Phase::Live if self.retry_result.is_some() && self.game.outcome().is_some() => {
                Err(ApiError::new(
                    ErrorCode::GameOver,
                    "the game is over; its result is being stored",
                ))
            }
            Phase::Live => Ok(()),
            Phase::Waiting => Err(ApiError::new(
                ErrorCode::BadRequest,
                "the match has not started",
            )),
            Phase::Over => Err(ApiError::new(ErrorCode::GameOver, "the match is over")),
        }
    }

    /// Only for a seat the player holds: in a hidden-information game the legal actions can tell
    /// what the seat's private view holds.
    fn legal(&self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        Ok(Ack {
            actions: Some(self.game.legal(seat)),
            ..self.ack_seq()
        })
    }

    fn ack_seq(&self) -> Ack {
        Ack {
            match_id: Some(self.id),
            seq: Some(Seq(self.followers.seq())),
            ..Ack::default()
        }
    }

    async fn join(&mut self, player: Player, wanted: Option<u8>, invited: bool) -> ApiResult<Ack> {
        if self.spec.private && !invited {
            // Its existence is not revealed to anyone without the code.
            return Err(self.not_found());
        }
        if self.spec.rated && player.guest {
            return Err(crate::policy::guests_play_casual());
        }
        if self.phase != Phase::Waiting {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "the match is not open for players",
            ));
        }
        if self.seats.iter().flatten().any(|p| p.id == player.id) {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "you already sit in this match",
            ));
        }
        let seat = match wanted {
            Some(s) if usize::from(s) >= self.seats.len() => {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("there is no seat {s}"),
                ));
            }
            Some(s) if self.seats[usize::from(s)].is_some() => {
                return Err(ApiError::new(
                    ErrorCode::Conflict,
                    format!("seat {s} is taken"),
                ));
            }
            Some(s) => s,
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .map(|s| s as u8)
                .ok_or_else(|| ApiError::new(ErrorCode::Conflict, "the match is full"))?,
        };
        self.take_seat(seat, player).await?;
        Ok(Ack {
            match_id: Some(self.id),
            seats: vec![seat],
            ..Ack::default()
        })
    }

    /// Seats a player who joins, persisting first; starts the match when the last seat is
    /// taken.
    async fn take_seat(&mut self, seat: u8, player: Player) -> ApiResult<()> {
        let seq = self.followers.seq() + 1;
        let stored = self
            .ctx
            .store
            .take_seat(self.id, self.epoch, seat, player.id, seq);
        self.noted(stored.await)?;
        self.seated(seat, player);
        if self.seats.iter().all(Option::is_some) {
            self.start().await?;
            self.follow_vacations().await;
        }
        Ok(())
    }

    /// A player sits down, and the match's followers are told.
    fn seated(&mut self, seat: u8, player: Player) {
        let public = player.public();
        self.seats[usize::from(seat)] = Some(player);
        // Away until a socket of theirs follows the match (at once, for a create or a join);
        // the AI is always there.
        self.disconnected_since[usize::from(seat)] =
            self.ai_level(seat).is_none().then(Instant::now);
        self.followers.broadcast(|_| MatchEvent::SeatTaken {
            seat,
            player: public.clone(),
        });
    }

    /// Marks a match whose seats are all taken live, persisting first (played casual if its
    /// players have had their day's rated games against each other).
    async fn start(&mut self) -> ApiResult<()> {
        let players: Vec<PlayerId> = self.seats.iter().flatten().map(|p| p.id).collect();
        let unrated = unrated(&self.ctx, &self.spec, self.in_tournament, &players).await?;
        if unrated.is_some() {
            let stored = self.ctx.store.set_casual(self.id, self.epoch).await;
            self.noted(stored)?;
        }
        let events = 1 + u64::from(unrated.is_some());
        let seq = self.followers.seq() + events;
        let stored = self
            .ctx
            .store
            .set_live(self.id, self.epoch, seq, crate::clock::now_ms());
        self.noted(stored.await)?;
        self.begin(unrated);
        Ok(())
    }

    /// The match starts: its clocks run, and its followers are told (first, if it is played
    /// casual, why).
    fn begin(&mut self, unrated: Option<String>) {
        if let Some(reason) = unrated {
            self.spec.rated = false;
            tracing::info!(%reason, "rated match played casual");
            self.followers.broadcast(|_| MatchEvent::Unrated {
                reason: reason.clone(),
            });
        }
        self.set_phase(Phase::Live);
        let to_act = self.game.to_act();
        self.turn_from_ms.fill(crate::clock::now_ms());
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&to_act, Instant::now());
        }
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(Instant::now()));
        self.followers.broadcast(|_| MatchEvent::Started {
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
        });
        self.tell_turn(None);
    }

    /// A private match's existence is told only to its players and to holders of its code.
    fn not_found(&self) -> ApiError {
        ApiError::new(
            ErrorCode::NotFound,
            format!("there is no match {}", self.id.0),
        )
    }

    fn watch(
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
                    if self.seats[seat].is_some() && self.disconnected_since[seat].is_some() {
                        self.announced_away[seat] = true;
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
    async fn chat(&mut self, conn: ConnId, author: Player, text: ChatText) -> ApiResult<Ack> {
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

    fn watchers_frame(&self) -> Frame {
        frame(&ServerMessage::Watchers {
            match_id: self.id,
            watchers: self.followers.watchers(),
        })
    }

    /// Tells every follower how many spectators follow the match now.
    fn tell_watchers(&mut self) {
        self.told_watchers = (self.followers.watchers(), Some(Instant::now()));
        self.followers.tell(&self.watchers_frame());
    }

    fn unwatch(&mut self, conn: ConnId, closed: bool) {
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
    fn away_since(&self) -> Option<Instant> {
        let mut latest = None;
        for seat in 0..self.seats.len() {
            if self.seats[seat].is_none() || self.ai_level(seat as u8).is_some() {
                continue;
            }
            let since = self.disconnected_since[seat]?;
            latest = latest.max(Some(since));
        }
        latest
    }

    /// Notes which seats have lost or regained every socket (counting `arriving`, a player
    /// whose socket is about to follow), and tells everyone.
    fn refresh_presence(&mut self, arriving: Option<PlayerId>) {
        let now = Instant::now();
        for seat in 0..self.seats.len() {
            let Some(player) = self.seats[seat].as_ref().map(|p| p.id) else {
                continue;
            };
            let connected = arriving == Some(player)
                || self.ai_level(seat as u8).is_some()
                || self.followers.include(player);
            self.showed[seat] |= connected;
            match (connected, self.disconnected_since[seat]) {
                (true, Some(_)) => {
                    self.disconnected_since[seat] = None;
                    // Nobody was told a seat taken a moment ago was away: no `reconnected`.
                    if std::mem::take(&mut self.announced_away[seat]) && self.phase == Phase::Live {
                        self.followers
                            .broadcast(|_| MatchEvent::Reconnected { seat: seat as u8 });
                    }
                }
                (false, None) => {
                    self.disconnected_since[seat] = Some(now);
                    if self.phase == Phase::Live {
                        self.announced_away[seat] = true;
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

    /// Whether the match is played on a per-move clock (correspondence).
    fn per_move(&self) -> bool {
        self.clocks.as_ref().is_some_and(|c| c.spec.per_move)
    }

    /// The seats that must act now: none unless the match is live.
    fn to_act(&self) -> Vec<u8> {
        match self.phase {
            Phase::Live => self.game.to_act(),
            Phase::Waiting | Phase::Over => Vec::new(),
        }
    }

    /// The seats whose player is on vacation.
    fn on_vacation(&self) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&s| self.vacation_until[usize::from(s)].is_some())
            .collect()
    }

    /// Brings a live per-move clock up to date with what happened while the room was not
    /// running (the server was down, or the room asleep, or the match starts now), from the
    /// store: a seat to act has had the time since its turn began, less the time its player
    /// was on vacation meanwhile, and a player on vacation now has their clock paused.
    async fn follow_vacations(&mut self) {
        if !self.per_move() || self.phase != Phase::Live {
            return;
        }
        let to_act = self.game.to_act();
        let (now, now_ms) = (Instant::now(), crate::clock::now_ms());
        for seat in 0..self.seats.len() {
            let from = self.turn_from_ms[seat];
            let human = self.seats[seat]
                .as_ref()
                .filter(|p| ai_level(&p.name).is_none());
            let vacations = match human {
                Some(player) => self
                    .ctx
                    .store
                    .vacations_of(player.id, from)
                    .await
                    .unwrap_or_else(|e| {
                        tracing::warn!(seat, error = %e, "could not read a player's vacations");
                        Vacations::default()
                    }),
                None => Vacations::default(),
            };
            if let Some(c) = self.clocks.as_mut()
                && to_act.contains(&(seat as u8))
            {
                let taken = (now_ms - from - vacations.within(from, now_ms)).max(0) as u64;
                c.set_remaining(seat, c.spec.base_ms.saturating_sub(taken), now);
            }
            self.set_vacation(seat as u8, vacations.until(now_ms));
        }
    }

    /// Marks a seat's player on vacation until `until_ms`, or back (`None`): the seat's clock
    /// pauses or runs again, and the followers are told.
    fn set_vacation(&mut self, seat: u8, until_ms: Option<i64>) {
        let s = usize::from(seat);
        if self.vacation_until[s] == until_ms {
            return;
        }
        let Some(c) = self.clocks.as_mut() else {
            return;
        };
        let now = Instant::now();
        c.pause(s, until_ms.map(crate::clock::instant_at), now);
        self.vacation_until[s] = until_ms;
        let clocks_ms = c.snapshot(now);
        self.followers.broadcast(|_| match until_ms {
            Some(until_ms) => MatchEvent::Vacation {
                seat,
                until_ms,
                clocks_ms: clocks_ms.clone(),
            },
            None => MatchEvent::VacationOver {
                seat,
                clocks_ms: clocks_ms.clone(),
            },
        });
    }

    /// See [`Command::Vacation`].
    fn vacation(&mut self, player: PlayerId, until_ms: Option<i64>) {
        if !self.per_move() || self.phase != Phase::Live {
            return;
        }
        for seat in self.seats_of(player) {
            self.set_vacation(seat, until_ms);
        }
    }

    /// See [`Command::Banned`]. The forfeit stands even before every seat has acted: "no
    /// rating without a game" keeps players from farming ratings by ending matches at once,
    /// and a ban is no player's doing.
    async fn banned(&mut self, player: PlayerId) -> ApiResult<bool> {
        let seats = self.seats_of(player);
        if seats.is_empty() {
            return Ok(false);
        }
        match self.phase {
            Phase::Over => Ok(false),
            Phase::Waiting => self.call_off(None, "aborted").await,
            Phase::Live => {
                let places = (0..self.seats.len() as u8)
                    .map(|s| u8::from(seats.contains(&s)))
                    .collect();
                self.finish(places, "forfeit").await.map(|()| true)
            }
        }
    }

    /// Vacations whose allowance has run out end: their seats' clocks run again.
    fn vacations_over(&mut self) {
        let now_ms = crate::clock::now_ms();
        for seat in 0..self.seats.len() {
            if self.vacation_until[seat].is_some_and(|until| until <= now_ms) {
                self.set_vacation(seat as u8, None);
            }
        }
    }

    /// Tells each player who must act now in a correspondence match that it is their move, on
    /// every socket they have open, wherever they are; not the player who just acted (whose
    /// seat acts again), nor the AI, nor a hot-seat match's one player.
    fn tell_turn(&self, mover: Option<PlayerId>) {
        let Some(c) = self.clocks.as_ref().filter(|c| c.spec.per_move) else {
            return;
        };
        if self.phase != Phase::Live || self.spec.hotseat {
            return;
        }
        let mut told = Vec::new();
        for seat in self.game.to_act() {
            let Some(player) = self.seats[usize::from(seat)].as_ref() else {
                continue;
            };
            if Some(player.id) == mover || ai_level(&player.name).is_some() {
                continue;
            }
            let Some(deadline) = c.flag_at(usize::from(seat)) else {
                continue;
            };
            if told.contains(&player.id) {
                continue;
            }
            told.push(player.id);
            let message = ServerMessage::YourMove {
                match_id: self.id,
                game: self.spec.game.clone(),
                variant: self.spec.variant.clone(),
                opponents: self
                    .seats
                    .iter()
                    .flatten()
                    .filter(|p| p.id != player.id)
                    .map(Player::public)
                    .collect(),
                deadline_ms: crate::clock::wall_ms(deadline),
            };
            let to = Fanout::Player { player: player.id };
            self.ctx.sockets.send(to, &frame(&message));
        }
    }

    async fn act(
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
        self.takeback.clear();
        self.log.push((seat, text.clone()));
        self.acted[usize::from(seat)] = true;
        let to_act = self.game.to_act();
        if let (Some(c), Some(left)) = (self.clocks.as_mut(), clock_ms) {
            c.acted(usize::from(seat), left, &to_act, now);
        }
        turns_begin(&mut self.turn_from_ms, &before, seat, &to_act, at_ms);
        if !self.draw.is_empty() && self.draw[0] != seat {
            self.draw.clear();
        }
        let hides = self.game.hides_actions();
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
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
        });
        self.glance.update(|g| g.view = public);
        self.tell_turn(Some(player));
        let ack = self.ack_seq();
        // The move is durable, so it is acknowledged even if its result is not stored yet.
        self.finish_by_rules().await;
        Ok(ack)
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
            self.vacation_until.fill(None);
        }
    }

    /// The AI level playing a seat, if an AI account holds it.
    fn ai_level(&self, seat: u8) -> Option<Level> {
        self.seats
            .get(usize::from(seat))?
            .as_ref()
            .and_then(|p| ai_level(&p.name))
    }

    /// Starts a search for every AI seat that must act and is not already thinking. Searches
    /// run on the blocking pool, at most `ai_threads` at once, so they never stall a room.
    fn wake_ai(&mut self, me: &mpsc::WeakSender<Command>) {
        if self.phase != Phase::Live {
            return;
        }
        for seat in self.game.to_act() {
            let Some(level) = self.ai_level(seat) else {
                continue;
            };
            if std::mem::replace(&mut self.thinking[usize::from(seat)], true) {
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
                    let _ = room.send(Command::AiMove { seat, ply, action }).await;
                }
            });
        }
    }

    async fn ai_move(&mut self, seat: u8, ply: usize, action: Option<String>) {
        self.thinking[usize::from(seat)] = false;
        let (Some(action), Some(player)) =
            (action, self.seats[usize::from(seat)].as_ref().map(|p| p.id))
        else {
            return;
        };
        if ply != self.entries as usize {
            return;
        }
        if let Err(e) = self.act(player, seat, &action, None).await {
            tracing::warn!(match_id = self.id.0, seat, %action, error = %e, "the AI's move was refused");
        }
    }

    fn rebuild_game(&mut self) {
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

    /// Places when `loser` leaves the game: last for them, shared first for everyone else.
    fn places_with_loser(&self, loser: u8) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .map(|s| u8::from(s == loser))
            .collect()
    }

    async fn resign(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        self.end(self.places_with_loser(seat), "resigned", seat)
            .await?;
        Ok(self.ack_seq())
    }

    /// Whether some seat has not made its first action yet. Until every seat has, nothing was
    /// played to rate, so a match that ends other than by its rules is called off instead
    /// (as lichess does): a resignation before the first move would otherwise farm ratings. A
    /// tournament's game keeps its result, since the tournament needs one and its pairings are
    /// not the players' choice.
    /// Game 2 of a series keeps its result too: game 1 is decided, and calling game 2 off
    /// would void the series for its loser.
    fn unplayed(&self) -> bool {
        !self.in_tournament && !self.second_game() && self.acted.contains(&false)
    }

    /// Whether this is the second game of a two-game match.
    fn second_game(&self) -> bool {
        self.series.is_some_and(|s| s.game == 2)
    }

    /// Ends the match other than by its rules (a resignation, a flag, a claim, an agreed draw),
    /// at `by`'s doing: with this result once every seat has acted, else called off.
    async fn end(&mut self, places: Vec<u8>, reason: &str, by: u8) -> ApiResult<()> {
        if self.unplayed() {
            self.call_off(Some(by), "aborted").await.map(|_| ())
        } else {
            self.finish(places, reason).await
        }
    }

    /// Records the result of a live game that its rules have ended: after its final action,
    /// when a room starts (a crash may have come between the two), and again after a failure.
    async fn finish_by_rules(&mut self) {
        if self.phase != Phase::Live {
            return;
        }
        if let Some((places, reason)) = self.game.outcome() {
            let stored = self.finish(places, &reason).await;
            self.retry_result = stored.err().map(|_| Instant::now() + RESULT_RETRY);
        }
    }

    async fn flag_fell(&mut self) {
        let Some(c) = &self.clocks else { return };
        let now = Instant::now();
        let flagged: Vec<u8> = (0..self.seats.len())
            .filter(|&s| c.flagged(s, now))
            .map(|s| s as u8)
            .collect();
        if flagged.is_empty() || self.phase != Phase::Live {
            return;
        }
        let places = (0..self.seats.len() as u8)
            .map(|s| u8::from(flagged.contains(&s)))
            .collect();
        let stored = self.end(places, "timeout", flagged[0]).await;
        self.retry_result = stored.err().map(|_| Instant::now() + RESULT_RETRY);
    }

    fn offer_draw(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if !self.draw.is_empty() {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "a draw offer is already standing",
            ));
        }
        self.draw = vec![seat];
        self.followers
            .broadcast(|_| MatchEvent::DrawOffered { seat });
        Ok(self.ack_seq())
    }

    async fn answer_draw(&mut self, player: PlayerId, seat: u8, accept: bool) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if self.draw.is_empty() {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "there is no draw offer to answer",
            ));
        }
        if self.draw.contains(&seat) {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "that seat has already agreed",
            ));
        }
        if !accept {
            self.draw.clear();
            self.followers
                .broadcast(|_| MatchEvent::DrawDeclined { seat });
            return Ok(self.ack_seq());
        }
        self.draw.push(seat);
        if self.draw.len() == self.seats.len()
            && let Err(e) = self
                .end(vec![0; self.seats.len()], "draw_agreed", seat)
                .await
        {
            self.draw.pop();
            return Err(e);
        }
        Ok(self.ack_seq())
    }

    // --- Takebacks by agreement ------------------------------------------------------------

    /// Whether this match's players may take actions back by agreement.
    fn may_take_back(&self) -> ApiResult<()> {
        if !self.spec.allows_takebacks() {
            return Err(forbidden("this rated match was created without takebacks"));
        }
        // Taking back a secret choice once the others have seen what came of it would let its
        // player choose again knowing more than they did.
        if self.game.hides_actions() {
            return Err(forbidden(
                "this game hides actions: they cannot be taken back",
            ));
        }
        Ok(())
    }

    /// The number of actions kept when `seat` takes back its last action (and every one after
    /// it); none if it has not acted.
    fn back_to(&self, seat: u8) -> Option<u32> {
        let last = self.log.iter().rposition(|&(s, _)| s == seat)?;
        Some(last as u32)
    }

    async fn ask_takeback(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        self.may_take_back()?;
        if !self.takeback.is_empty() {
            return Err(conflict("a takeback is already asked for"));
        }
        if self.back_to(seat).is_none() {
            return Err(conflict("that seat has no action to take back"));
        }
        self.takeback_asks[usize::from(seat)]
            .may_ask(&self.log, |s| self.holds(player, s))
            .map_err(conflict)?;
        // The asker's other seats (a hot-seat match) agree with it, and the AI agrees at once.
        let mut agreed = vec![seat];
        for other in 0..self.seats.len() as u8 {
            if other != seat && (self.holds(player, other) || self.ai_level(other).is_some()) {
                agreed.push(other);
            }
        }
        if agreed.len() == self.seats.len() {
            self.take_back(seat).await?;
            return Ok(self.ack_seq());
        }
        self.takeback = agreed;
        self.followers
            .broadcast(|_| MatchEvent::TakebackOffered { seat });
        Ok(self.ack_seq())
    }

    async fn answer_takeback(
        &mut self,
        player: PlayerId,
        seat: u8,
        accept: bool,
    ) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if self.takeback.is_empty() {
            return Err(conflict("there is no takeback to answer"));
        }
        if self.takeback.contains(&seat) {
            return Err(conflict("that seat has already agreed"));
        }
        if !accept {
            let asker = self.takeback[0];
            self.takeback_asks[usize::from(asker)].declined(self.log.len());
            self.takeback.clear();
            self.followers
                .broadcast(|_| MatchEvent::TakebackDeclined { seat });
            return Ok(self.ack_seq());
        }
        self.takeback.push(seat);
        if self.takeback.len() == self.seats.len()
            && let Err(e) = self.take_back(self.takeback[0]).await
        {
            self.takeback.pop();
            return Err(e);
        }
        Ok(self.ack_seq())
    }

    /// Every seat agreed: `seat`'s last action and every one after it are undone, durably first.
    /// The log gets an entry of its own; the game is replayed from the start without them, and
    /// the clocks keep the time they have.
    async fn take_back(&mut self, seat: u8) -> ApiResult<()> {
        let back_to = self
            .back_to(seat)
            .ok_or_else(|| conflict("that seat has no action to take back"))?;
        let now = Instant::now();
        if let Some(c) = self.clocks.as_mut().filter(|c| c.spec.per_move) {
            // A per-move clock is full at the start of every turn, and a takeback starts one.
            for s in 0..self.seats.len() {
                c.set_remaining(s, c.spec.base_ms, now);
            }
        }
        let clocks_ms = self.clocks.as_ref().map(|c| c.snapshot(now));
        let at_ms = crate::clock::now_ms();
        let entry = Entry::Takeback(StoredTakeback {
            ply: self.entries,
            seq: self.followers.seq() + 1,
            seat,
            back_to,
            clocks_ms: clocks_ms.clone(),
            at_ms,
        });
        let durable = self.ctx.actions.append(self.id, self.epoch, &entry);
        let durable = crate::metrics::db("append_action", durable).await;
        self.noted(durable)?;
        self.entries += 1;
        self.takeback.clear();
        self.takeback_asks.iter_mut().for_each(Asks::game_changed);
        self.log.truncate(back_to as usize);
        self.rebuild_game();
        self.acted = acted_in(&self.log, self.seats.len());
        let to_act = self.game.to_act();
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&to_act, now);
        }
        for &s in &to_act {
            self.turn_from_ms[usize::from(s)] = at_ms;
        }
        tracing::info!(seat, back_to, "actions taken back");
        let game = &self.game;
        let public = game.view(None);
        self.followers.broadcast(|viewer| MatchEvent::TakenBack {
            seat,
            ply: back_to,
            view: viewer.map_or_else(|| public.clone(), |seat| game.view(Some(seat))),
            to_act: to_act.clone(),
            clocks_ms: clocks_ms.clone(),
        });
        self.glance.update(|g| g.view = public);
        // The asker knows it is their move again; anyone else to act is told.
        self.tell_turn(self.seats[usize::from(seat)].as_ref().map(|p| p.id));
        Ok(())
    }

    async fn abort(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        if !self.holds(player, seat) {
            return Err(forbidden("you do not hold that seat"));
        }
        if self.phase == Phase::Over {
            return Err(ApiError::new(ErrorCode::GameOver, "the match is over"));
        }
        if self.acted.iter().all(|&a| a) {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "every seat has moved: resign instead",
            ));
        }
        if self.second_game() {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "the second game of a two-game match cannot be aborted: game 1 is decided; \
                 resign instead",
            ));
        }
        self.call_off(Some(seat), "aborted").await?;
        Ok(self.ack_seq())
    }

    /// Calls the match off, unrated, every seat in the same place, for `reason` (`aborted`,
    /// `idle`); `by`, the seat whose doing it was, is announced with an `aborted` event. False
    /// if the match was already over.
    async fn call_off(&mut self, by: Option<u8>, reason: &str) -> ApiResult<bool> {
        if self.phase == Phase::Over {
            return Ok(false);
        }
        let places = vec![0; self.seats.len()];
        let events = 1 + u64::from(by.is_some());
        let stored = self
            .ctx
            .store
            .abort_match(
                self.id,
                self.epoch,
                Finish {
                    places: &places,
                    reason,
                    series: self.series,
                    next: None,
                },
                self.followers.seq() + events,
                crate::clock::now_ms(),
            )
            .await;
        if !self.noted(stored)? {
            return Ok(false);
        }
        self.set_phase(Phase::Over);
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&[], Instant::now());
        }
        let result = MatchResult {
            places,
            reason: reason.into(),
            ratings: Vec::new(),
        };
        tracing::info!(reason, "match called off");
        self.result = Some(result.clone());
        if let Some(seat) = by {
            self.followers.broadcast(|_| MatchEvent::Aborted { seat });
        }
        self.followers.broadcast(|_| MatchEvent::Finished {
            result: result.clone(),
        });
        Ok(true)
    }

    /// See [`Command::Forfeit`].
    async fn forfeit(&mut self, seats: &[u8]) -> ApiResult<Vec<u8>> {
        if self.phase != Phase::Live {
            return Ok(Vec::new());
        }
        let absent: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|s| seats.contains(s) && self.ai_level(*s).is_none())
            .filter(|&s| !self.showed[usize::from(s)] && !self.acted[usize::from(s)])
            .collect();
        if absent.is_empty() {
            return Ok(absent);
        }
        let everyone = absent.len() == self.seats.len();
        let places = (0..self.seats.len() as u8)
            .map(|s| u8::from(!everyone && absent.contains(&s)))
            .collect();
        self.finish(places, "no_show").await?;
        Ok(absent)
    }

    async fn claim_win(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if self.per_move() {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                "players of a correspondence match come and go: its clock ends the match of a \
                 player who does not move in time",
            ));
        }
        let now = Instant::now();
        let gone: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| !self.holds(player, s))
            .filter(|&s| {
                self.disconnected_since[usize::from(s)]
                    .is_some_and(|t| now.duration_since(t) >= self.ctx.grace)
            })
            .collect();
        let opponents = (0..self.seats.len() as u8)
            .filter(|&s| !self.holds(player, s))
            .count();
        if opponents == 0 || gone.len() < opponents {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                format!(
                    "a win can be claimed after every opponent has been away {} s",
                    self.ctx.grace.as_secs()
                ),
            ));
        }
        let places = (0..self.seats.len() as u8)
            .map(|s| u8::from(gone.contains(&s)))
            .collect();
        self.end(places, "abandoned", seat).await?;
        Ok(self.ack_seq())
    }

    // --- The rematch of a finished match ---------------------------------------------------

    /// A player's word on the rematch (see [`Command::Rematch`]): every other player must be on
    /// the match's page to be asked; the AI agrees to anything.
    fn rematch(&mut self, player: PlayerId, answer: RematchAnswer) -> ApiResult<Option<Deal>> {
        let mine = self.seats_of(player);
        if mine.is_empty() {
            return Err(forbidden("only the players of a match may play it again"));
        }
        if self.phase != Phase::Over {
            return Err(conflict("the match is not over"));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(conflict("the match never had every seat taken"));
        }
        let agreed = match &self.rematch {
            Rematch::Started(id) => {
                return Err(conflict(format!("the rematch is match {}", id.0)));
            }
            Rematch::Opening { .. } => return Err(conflict("the rematch is being opened")),
            Rematch::Offered(agreed) => agreed.clone(),
            Rematch::None => Vec::new(),
        };
        if agreed.is_empty() && answer != RematchAnswer::Offer {
            return Err(conflict("there is no rematch offer to answer"));
        }
        if answer == RematchAnswer::Decline {
            self.rematch = Rematch::None;
            let seat = mine[0];
            self.followers.tell(&frame(&ServerMessage::RematchDeclined {
                match_id: self.id,
                seat,
            }));
            return Ok(None);
        }
        if mine.iter().all(|s| agreed.contains(s)) {
            return Err(conflict("you have agreed to the rematch already"));
        }
        let away = self.seats.iter().flatten().find(|p| {
            p.id != player && ai_level(&p.name).is_none() && !self.followers.include(p.id)
        });
        if let Some(away) = away {
            return Err(conflict(format!("{} has left the match", away.name)));
        }
        // Offering and declining could otherwise go round and round, each time a message to
        // every follower.
        let offering = agreed.is_empty();
        if offering && self.rematch_offerers.contains(&player) {
            return Err(conflict(
                "you have offered a rematch of this match already: a player offers once",
            ));
        }
        let ai_seats = (0..self.seats.len() as u8).filter(|&s| self.ai_level(s).is_some());
        let mut now_agreed = agreed.clone();
        for seat in mine.into_iter().chain(ai_seats) {
            if !now_agreed.contains(&seat) {
                now_agreed.push(seat);
            }
        }
        if now_agreed.len() < self.seats.len() {
            if offering {
                self.rematch_offerers.push(player);
            }
            self.followers.tell(&self.rematch_offered(&now_agreed));
            self.rematch = Rematch::Offered(now_agreed);
            return Ok(None);
        }
        let spec = self.spec.again(crate::clock::now_ms());
        self.rematch = Rematch::Opening {
            before: agreed,
            invite: spec.invite.clone(),
        };
        let players: Vec<Player> = self.seats.iter().flatten().cloned().collect();
        Ok(Some(Deal {
            spec,
            seating: rotated(&players),
        }))
    }

    /// See [`Command::Rematched`].
    fn rematched(&mut self, opened: Option<MatchId>) {
        let Rematch::Opening { before, invite } = &self.rematch else {
            return;
        };
        let (before, invite) = (before.clone(), invite.clone());
        self.rematch = match opened {
            Some(rematch) => {
                self.tell_rematch_started(rematch, invite);
                Rematch::Started(rematch)
            }
            None if before.is_empty() => Rematch::None,
            None => Rematch::Offered(before),
        };
    }

    /// Tells the followers that the rematch (or game 2) is `rematch`; the players of a private
    /// one get its invite code too, to pass on to whom they like.
    fn tell_rematch_started(&self, rematch: MatchId, invite: Option<String>) {
        let told = |invite| {
            frame(&ServerMessage::RematchStarted {
                match_id: self.id,
                rematch,
                invite,
            })
        };
        if invite.is_some() {
            self.followers.tell_some(&told(None), |seated, _| !seated);
            self.followers.tell_some(&told(invite), |seated, _| seated);
        } else {
            self.followers.tell(&told(None));
        }
    }

    fn rematch_offered(&self, agreed: &[u8]) -> Frame {
        frame(&ServerMessage::RematchOffered {
            match_id: self.id,
            agreed: agreed.to_vec(),
        })
    }

    /// A player left the finished match: the rematch offer standing lapses.
    fn lapse_rematch(&mut self, player: PlayerId) {
        let seat = self.seats_of(player).first().copied();
        if let (Rematch::Offered(_), Some(seat)) = (&self.rematch, seat) {
            self.rematch = Rematch::None;
            self.followers.tell(&frame(&ServerMessage::RematchLapsed {
                match_id: self.id,
                seat,
            }));
        }
    }

    /// While a rematch is offered: when the first player to have gone away will have been away
    /// for the grace period.
    fn rematch_alarm(&self) -> Option<(Instant, Alarm)> {
        if !matches!(self.rematch, Rematch::Offered(_)) {
            return None;
        }
        let since = self.disconnected_since.iter().flatten().min()?;
        Some((*since + self.ctx.grace, Alarm::RematchLapse))
    }

    fn lapse_rematch_of_the_away(&mut self) {
        let now = Instant::now();
        let gone = (0..self.seats.len()).find(|&s| {
            self.disconnected_since[s].is_some_and(|t| now.duration_since(t) >= self.ctx.grace)
        });
        if let Some(player) = gone.and_then(|s| self.seats[s].as_ref()).map(|p| p.id) {
            self.lapse_rematch(player);
        }
    }

    /// Records the result (with rating changes, exactly once) and tells everyone. A result that
    /// could not be stored did not happen: the match goes on, and the error says why. Game 1 of
    /// a series stores game 2 with its result and takes the players there, as a rematch
    /// would; game 2 tells them how the series came out.
    async fn finish(&mut self, places: Vec<u8>, reason: &str) -> ApiResult<()> {
        if self.phase == Phase::Over {
            return Ok(());
        }
        let now_ms = crate::clock::now_ms();
        let mut next = self.next_game(now_ms);
        let stored = self.ctx.store.finish_match(
            self.id,
            self.epoch,
            Finish {
                places: &places,
                reason,
                series: self.series,
                next: next.as_mut(),
            },
            self.followers.seq() + 1,
            now_ms,
        );
        let stored = crate::metrics::db("finish_match", stored).await;
        let finished = match self.noted(stored) {
            Ok(finished) => finished,
            Err(e) => {
                tracing::error!(match_id = self.id.0, error = %e, "could not record a result");
                return Err(e.into());
            }
        };
        self.set_phase(Phase::Over);
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&[], Instant::now());
        }
        let (ratings, next_game) =
            finished.map_or((Vec::new(), None), |f| (f.ratings, f.next_game));
        let result = MatchResult {
            places,
            reason: reason.to_string(),
            ratings,
        };
        tracing::info!(reason, places = ?result.places, "match finished");
        self.result = Some(result.clone());
        self.followers.broadcast(|_| MatchEvent::Finished {
            result: result.clone(),
        });
        if let (Some(game_2), Some(opening)) = (next_game, next) {
            self.series_goes_on(game_2, opening);
        } else if let Some(series) = self.series.filter(|s| s.game == 2) {
            self.tell_series(series).await;
        }
        Ok(())
    }

    /// Game 2 of this match's series, if this is game 1: the same match again with the sides
    /// swapped (the rematch's way), in the same series.
    fn next_game(&self, now_ms: i64) -> Option<Opening> {
        let series = self.series.filter(|s| s.game == 1)?;
        let players: Vec<Player> = self.seats.iter().flatten().cloned().collect();
        Some(Opening {
            spec: self.spec.again(now_ms),
            seating: rotated(&players),
            // Game 1's rated flag, decided when it started, holds for both.
            unrated: None,
            in_tournament: self.in_tournament,
            series: Some(InSeries {
                id: series.id,
                game: 2,
            }),
        })
    }

    /// Game 2 is stored: its room is started, and the players are taken there as to a
    /// rematch.
    fn series_goes_on(&mut self, game_2: MatchId, opening: Opening) {
        tracing::info!(game_2 = game_2.0, "series goes on");
        // A send fails only when the server is stopping; game 2 is restored at the next start.
        let _ = self.ctx.next_games.send((game_2, opening));
        self.rematch = Rematch::Started(game_2);
        self.tell_rematch_started(game_2, None);
    }

    /// Tells game 2's followers how the series came out.
    async fn tell_series(&mut self, series: InSeries) {
        match self.ctx.store.series(series.id).await {
            Ok(Some(series)) => self.followers.tell(&frame(&ServerMessage::SeriesFinished {
                match_id: self.id,
                series,
            })),
            Ok(None) => {}
            // The series is stored; its page (`GET /api/series/{id}`) shows it.
            Err(e) => tracing::warn!(error = %e, "could not read a finished series"),
        }
    }

    /// Numbers an event, renders it for every kind of viewer, keeps it for resumes and sends it
    /// to every follower. A follower whose outbox is full is dropped: it resumes later.
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
                    player: self.seats[s].as_ref().map(Player::public),
                    connected: self.seats[s].is_some() && self.disconnected_since[s].is_none(),
                    clock_ms: self.clocks.as_ref().map(|c| c.remaining_now(s, now)),
                    vacation_until_ms: self.vacation_until[s],
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
            draw_offer: self.draw.first().copied(),
            takebacks: self.may_take_back().is_ok(),
            takeback_offer: self.takeback.first().copied(),
            result: self.result.clone(),
            series: self.series.map(|s| SeriesRef {
                series_id: s.id,
                game: s.game,
            }),
        };
        frame(&ServerMessage::Snapshot {
            match_id: self.id,
            seq: Seq(self.followers.seq()),
            snapshot,
        })
    }
}
