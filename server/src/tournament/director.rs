//! The tournament director: an actor, started with the server, that runs every tournament from
//! the database. Once a second (and whenever asked) it
//!
//! 1. starts the tournaments whose start time has come (cancelling those with fewer than two
//!    entrants);
//! 2. for each running tournament, records the results of its finished matches, asks the
//!    [`plan`] what comes next (a new round, a knockout decider, the end) and stores it, opens a
//!    match for every stored game without one (`Rooms::open`, the players already seated) and
//!    tells both players over their sockets (`tournament_round`);
//! 3. forfeits the players who have not come to their game within the no-show grace period
//!    (`Command::Forfeit`: a seat whose human player never followed the match nor acted in it);
//! 4. pushes the standings (`tournament_standings`) to the entrants and the sockets watching
//!    the tournament whenever they change.
//!
//! Everything it knows is read back from the database on every pass, and every write is either
//! idempotent or guarded by a unique key, so a restart in the middle of a round simply carries
//! on: the rooms of unfinished matches are restored by the registry, and the next pass picks up
//! where the last one stopped.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use protocol::{
    Ack, ClockSpec, ErrorCode, ErrorReason, MatchId, PlayerId, ServerMessage, Standing,
    TournamentFormat, TournamentId,
};
use tokio::sync::{mpsc, oneshot};

use super::plan::{self, Next, Slot};
use super::store::{
    Started, StoredEntrant, StoredGame, StoredTournament, TournamentStatus, outcome_name,
};
use super::{Entrant, Outcome};
use crate::accounts::player::{Player, ai_level};
use crate::cluster::wire::{Call, Wire};
use crate::cluster::{Cluster, Singleton};
use crate::error::{ApiError, ApiResult};
use crate::matches::Command;
use crate::matches::NewMatch;
use crate::matches::registry::Rooms;
use crate::shutdown::Shutdown;
use crate::sockets::{ConnId, Fanout, Outbox, Sockets, frame};
use crate::store::Store;

enum Request {
    /// The creator starts the tournament now.
    Start {
        id: TournamentId,
        reply: oneshot::Sender<ApiResult<()>>,
    },
    /// Something changed (a tournament was created or entered): look again now.
    Poke,
}

/// What the director needs of the server: the tournaments' storage, where matches open, the
/// sockets it tells, the other nodes, the stop signal and the operator's settings.
pub struct TournamentContext {
    pub store: Store,
    pub rooms: Arc<Rooms>,
    pub sockets: Arc<Sockets>,
    pub cluster: Cluster,
    pub shutdown: Shutdown,
    /// How often the director looks at the running tournaments.
    pub poll: Duration,
    /// How long a player has to come to a tournament game.
    pub grace_ms: i64,
}

/// The handle the REST API and the sockets use.
/// In a cluster, one node's director runs the tournaments: the others send it what they are
/// asked.
#[derive(Clone)]
pub struct Tournaments {
    tx: mpsc::Sender<Request>,
    store: Store,
    sockets: Arc<Sockets>,
    cluster: Cluster,
}

impl Tournaments {
    /// Starts the director. It stops with the server, once the pass it is on is done.
    pub fn start(context: TournamentContext) -> Tournaments {
        let (tx, rx) = mpsc::channel(64);
        let tournaments = Tournaments {
            tx,
            store: context.store.clone(),
            sockets: context.sockets.clone(),
            cluster: context.cluster.clone(),
        };
        let shutdown = context.shutdown.clone();
        let director = Director {
            started_ms: crate::clock::now_ms(),
            checked: HashSet::new(),
            context,
        };
        shutdown.spawn_job(director.run(rx));
        tournaments
    }

    /// A socket follows a tournament: it gets the standings now and after every change.
    pub async fn watch(&self, id: TournamentId, conn: ConnId, outbox: &Outbox) -> ApiResult<()> {
        let store = &self.store;
        let t = store.tournament(id).await?.ok_or_else(|| {
            ApiError::new(
                ErrorReason::TournamentNotFound { id: id.0 },
                format!("there is no tournament {}", id.0),
            )
        })?;
        self.sockets.watch_tournament(id, conn, outbox.clone());
        let entrants = store.tournament_entrants(id).await?;
        let games = store.tournament_games(id).await?;
        let _ = outbox.try_send(frame(&standings_message(&t, &entrants, &games)));
        Ok(())
    }

    /// Closes registration and starts the first round now, on the node whose director runs.
    pub async fn begin(&self, id: TournamentId) -> ApiResult<()> {
        match self.cluster.holder(Singleton::Director) {
            Some(node) if node != self.cluster.node() => {
                let answer = self
                    .cluster
                    .call(node, Call::StartTournament { id })
                    .await?;
                serde_json::from_value(answer).map_err(|_| {
                    ApiError::new(
                        ErrorReason::Internal,
                        "the director's answer could not be read",
                    )
                })
            }
            _ => self.begin_here(id).await,
        }
    }

    /// [`Tournaments::begin`] on this node.
    pub async fn begin_here(&self, id: TournamentId) -> ApiResult<()> {
        let stopped = || ApiError::new(ErrorReason::Internal, "the tournament director stopped");
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Request::Start { id, reply })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Asks the director, wherever it runs, to look at the tournaments now rather than at its
    /// next pass.
    pub fn poke(&self) {
        let from = self.cluster.node();
        self.cluster.send(None, &Wire::Poke { from });
        self.poke_here();
    }

    /// Asks this node's director to look now (it does if it runs).
    pub fn poke_here(&self) {
        let _ = self.tx.try_send(Request::Poke);
    }
}

struct Director {
    context: TournamentContext,
    /// When this director started: after a restart, players get the grace period again.
    started_ms: i64,
    /// Matches whose players have all been checked for a no-show.
    checked: HashSet<MatchId>,
}

/// Seat 0's result from a match's places.
fn outcome_of(places: &[u8]) -> Outcome {
    match places {
        [a, b] if a < b => Outcome::Win,
        [a, b] if a > b => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// The pairing logic's view of the entrants.
pub(crate) fn seeds(entrants: &[StoredEntrant]) -> Vec<Entrant> {
    entrants.iter().map(StoredEntrant::seed).collect()
}

pub(crate) fn slots(games: &[StoredGame]) -> Vec<Slot> {
    games.iter().map(StoredGame::slot).collect()
}

/// The standings table with each entrant's player; in a tournament of two-game matches, with
/// each entrant's game points too.
pub(crate) fn standings(
    t: &StoredTournament,
    entrants: &[StoredEntrant],
    games: &[StoredGame],
) -> Vec<Standing> {
    let game_points = |entrant: u32| {
        let halves: u32 = games
            .iter()
            .map(|g| match (g.seat1, g.game_points) {
                // A bye scores as a match won, both games.
                (None, _) if g.seat0 == entrant => 2,
                (Some(_), Some([a, _])) if g.seat0 == entrant => a,
                (Some(seat1), Some([_, b])) if seat1 == entrant => b,
                _ => 0,
            })
            .sum();
        f64::from(halves) / 2.0
    };
    plan::standings(&seeds(entrants), &slots(games))
        .into_iter()
        .filter_map(|row| {
            let entrant = entrants.iter().find(|e| e.entrant == row.entrant.0)?;
            Some(Standing {
                rank: row.rank,
                entrant: row.entrant.0,
                player: entrant.player.public(),
                points: row.points,
                buchholz: row.buchholz,
                sonneborn_berger: row.sonneborn_berger,
                games: row.games,
                game_points: t.two_games.then(|| game_points(row.entrant.0)),
            })
        })
        .collect()
}

fn standings_message(
    t: &StoredTournament,
    entrants: &[StoredEntrant],
    games: &[StoredGame],
) -> ServerMessage {
    ServerMessage::TournamentStandings {
        tournament_id: t.id,
        round: t.current_round,
        finished: t.status == TournamentStatus::Finished,
        standings: standings(t, entrants, games),
    }
}

impl Director {
    async fn run(mut self, mut requests: mpsc::Receiver<Request>) {
        // The first pass waits one period, so that the registry has restored the unfinished
        // matches before the director asks any of their rooms anything.
        let first = tokio::time::Instant::now() + self.context.poll;
        let mut passes = tokio::time::interval_at(first, self.context.poll);
        passes.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let stopping = self.context.shutdown.stopped();
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                // A creator's start asked for meanwhile is refused: the director stopped.
                () = &mut stopping => return,
                request = requests.recv() => match request {
                    Some(Request::Start { id, reply }) => {
                        let started = self.start(id, false).await;
                        let _ = reply.send(started);
                    }
                    Some(Request::Poke) => {
                        // Several pokes in a row need one pass.
                        while let Ok(Request::Poke) = requests.try_recv() {}
                        self.pass().await;
                    }
                    None => return,
                },
                _ = passes.tick() => self.pass().await,
            }
        }
    }

    /// One look at every tournament that may need something, if this node's director is the
    /// one that runs.
    async fn pass(&mut self) {
        if !self.context.cluster.leads(Singleton::Director) {
            return;
        }
        let store = self.context.store.clone();
        match store.tournaments_due(crate::clock::now_ms()).await {
            Ok(due) => {
                for id in due {
                    if let Err(e) = self.start(id, true).await {
                        tracing::warn!(tournament = id.0, error = %e, "could not start a tournament");
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "could not list the tournaments to start"),
        }
        match store.running_tournaments().await {
            Ok(running) => {
                for id in running {
                    if let Err(e) = self.advance(id).await {
                        tracing::error!(tournament = id.0, error = %e, "could not run a tournament");
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "could not list the running tournaments"),
        }
    }

    /// Starts a tournament: on its creator's word, or because its time came (`scheduled`: then
    /// too small a field cancels it).
    async fn start(&mut self, id: TournamentId, scheduled: bool) -> ApiResult<()> {
        let store = self.context.store.clone();
        let t = store.tournament(id).await?.ok_or_else(|| {
            ApiError::new(
                ErrorReason::TournamentNotFound { id: id.0 },
                format!("there is no tournament {}", id.0),
            )
        })?;
        match store
            .start_tournament(&t, scheduled, crate::clock::now_ms())
            .await?
        {
            Started::Started => {
                tracing::info!(tournament = id.0, "tournament started");
                // It has started whatever happens next; a failed first round is tried again at
                // the next pass.
                if let Err(e) = self.advance(id).await {
                    tracing::error!(tournament = id.0, error = %e, "could not run a tournament");
                }
                Ok(())
            }
            Started::Cancelled => {
                tracing::info!(tournament = id.0, "tournament cancelled: too few entrants");
                Ok(())
            }
            Started::TooFew(n) => Err(ApiError::new(
                ErrorReason::TournamentTooFew { count: n },
                format!("a tournament needs at least two entrants to start; it has {n}"),
            )),
            Started::NotRegistering => Err(ApiError::new(
                ErrorReason::TournamentNotRegistering,
                format!("the tournament is {}", t.status.as_str()),
            )),
        }
    }

    /// Moves a running tournament on as far as its results allow.
    async fn advance(&mut self, id: TournamentId) -> ApiResult<()> {
        let store = self.context.store.clone();
        let Some(t) = store.tournament(id).await? else {
            return Ok(());
        };
        if t.status != TournamentStatus::Running {
            return Ok(());
        }
        let entrants = store.tournament_entrants(id).await?;
        let seeds = seeds(&entrants);
        let mut games = store.tournament_games(id).await?;
        let mut changed = false;

        // Results of the matches that ended since the last pass.
        for g in games.iter_mut() {
            if g.result.is_some() || g.seat1.is_none() {
                continue;
            }
            let over = matches!(g.match_status.as_deref(), Some("finished" | "aborted"));
            let Some((places, reason)) = g.match_result.clone().filter(|_| over) else {
                continue;
            };
            let outcome = outcome_of(&places);
            store
                .set_tournament_result(id, g.round, g.board, outcome, &reason)
                .await?;
            g.result = Some(outcome_name(outcome).to_string());
            g.reason = Some(reason);
            changed = true;
        }

        // What comes next.
        let now = crate::clock::now_ms();
        let format = t.plan_format();
        match plan::next(
            format,
            &seeds,
            t.state.as_deref(),
            t.current_round,
            &slots(&games),
        ) {
            Ok(Next::Wait) => {}
            Ok(Next::Play { round, slots: new }) => {
                store.add_tournament_games(id, round, &new, now).await?;
                games = store.tournament_games(id).await?;
                changed = true;
                tracing::info!(
                    tournament = id.0,
                    round,
                    games = new.len(),
                    "tournament games"
                );
            }
            Ok(Next::Finish) => {
                let finished = store.finish_tournament(id, now).await?;
                changed |= finished;
                if finished {
                    tracing::info!(tournament = id.0, "tournament finished");
                }
            }
            Err(e) => {
                return Err(ApiError::new(
                    ErrorReason::Internal,
                    format!("tournament {} cannot go on: {e}", id.0),
                ));
            }
        }
        if changed && t.format == TournamentFormat::Knockout {
            let bracket = plan::bracket(&seeds, &slots(&games))
                .map_err(|e| ApiError::new(ErrorReason::Internal, e))?;
            let json = serde_json::to_string(&bracket).expect("a bracket serialises");
            store.set_tournament_state(id, &json).await?;
        }

        // A match for every game without one: the new games, or those a crash interrupted.
        for g in games.iter_mut().filter(|g| g.seat1.is_some()) {
            if g.match_id.is_none() {
                let Some(match_id) = self.open_game(&t, &entrants, g).await? else {
                    continue;
                };
                g.match_id = Some(match_id);
                g.match_status = Some("live".into());
                g.match_created_ms = Some(crate::clock::now_ms());
            } else if g.result.is_none() && g.match_status.as_deref() == Some("waiting") {
                self.seat_again(&t, &entrants, g).await?;
            }
        }

        self.forfeit_no_shows(&entrants, &games).await;

        if changed {
            // Read back what was written, so that what is pushed is what REST serves.
            let t = store.tournament(id).await?.unwrap_or(t);
            let games = store.tournament_games(id).await?;
            let players: Vec<PlayerId> = entrants.iter().map(|e| e.player.id).collect();
            let message = standings_message(&t, &entrants, &games);
            self.context.sockets.send(
                Fanout::Tournament {
                    tournament: id,
                    players,
                },
                &frame(&message),
            );
        }
        Ok(())
    }

    /// The two players of a game.
    fn players(entrants: &[StoredEntrant], g: &StoredGame) -> ApiResult<[Player; 2]> {
        let player_of = |entrant: u32| {
            entrants
                .iter()
                .find(|e| e.entrant == entrant)
                .map(|e| e.player.clone())
                .ok_or_else(|| {
                    ApiError::new(ErrorReason::Internal, format!("no entrant {entrant}"))
                })
        };
        let seat1 = g.seat1.expect("only games get matches");
        Ok([player_of(g.seat0)?, player_of(seat1)?])
    }

    /// Opens the match of a stored game with both players seated and tells them. The match is
    /// stored and linked to the game in one transaction: a crash before the link would leave a
    /// match nobody plays, and a second one opened after the restart. `None` if the game
    /// already had a match.
    async fn open_game(
        &self,
        t: &StoredTournament,
        entrants: &[StoredEntrant],
        g: &StoredGame,
    ) -> ApiResult<Option<MatchId>> {
        let players = Self::players(entrants, g)?;
        // A tournament stored before every tournament needed a clock still gets one, so that a
        // player who stops moving cannot hold its round up for ever.
        let clock = t
            .clock
            .map(|(base_ms, increment_ms)| ClockSpec {
                base_ms,
                increment_ms,
                per_move: false,
            })
            .unwrap_or_else(|| super::DEFAULT_TIME_CONTROL.clock());
        let now = crate::clock::now_ms();
        let spec = NewMatch::new(
            &t.game,
            Some(&t.variant),
            Some(2),
            t.rated,
            Some(clock),
            now,
        )?
        .in_two_games(t.two_games)?;
        let seating = vec![(0, players[0].clone()), (1, players[1].clone())];
        let rooms = &self.context.rooms;
        let mut opening = rooms.opening(spec, seating, true).await?;
        let Some(match_id) = self
            .context
            .store
            .create_tournament_match(t.id, g.round, g.board, &mut opening)
            .await?
        else {
            return Ok(None);
        };
        rooms.start_opened(match_id, opening).await?;
        self.announce(t, g, match_id, &players);
        Ok(Some(match_id))
    }

    /// Seats the players of a game whose match was stored but not (fully) seated when the
    /// server stopped, and tells them again. A seat already held is left as it is.
    async fn seat_again(
        &self,
        t: &StoredTournament,
        entrants: &[StoredEntrant],
        g: &StoredGame,
    ) -> ApiResult<()> {
        let match_id = g.match_id.expect("a game with a match");
        let players = Self::players(entrants, g)?;
        for (seat, player) in players.iter().enumerate() {
            let joined = self
                .context
                .rooms
                .ask::<Ack>(
                    match_id,
                    Command::Join {
                        player: player.clone(),
                        seat: Some(seat as u8),
                        // Tournament games are public; this is only in case that ever changes.
                        invited: true,
                    },
                )
                .await;
            match joined {
                Ok(_) => tracing::info!(match_id = match_id.0, seat, "tournament seat taken again"),
                // Already in their seat (or the match under way after all).
                Err(e) if e.code == ErrorCode::Conflict => {}
                Err(e) => return Err(e),
            }
        }
        self.announce(t, g, match_id, &players);
        Ok(())
    }

    /// Tells both players of a game where to play it.
    fn announce(
        &self,
        t: &StoredTournament,
        g: &StoredGame,
        match_id: MatchId,
        players: &[Player; 2],
    ) {
        let seating = players.iter().enumerate().map(|(s, p)| (s as u8, p.id));
        announce_game(&self.context.sockets, t.id, g.round, match_id, seating);
    }

    /// Forfeits the human players who have not come to their game within the grace period
    /// (counted from the match's creation, or from this director's start after a restart).
    async fn forfeit_no_shows(&mut self, entrants: &[StoredEntrant], games: &[StoredGame]) {
        let now = crate::clock::now_ms();
        for g in games {
            let (Some(match_id), Some(seat1)) = (g.match_id, g.seat1) else {
                continue;
            };
            let playing = matches!(g.match_status.as_deref(), Some("live" | "waiting"));
            if g.result.is_some() || !playing || self.checked.contains(&match_id) {
                continue;
            }
            let since = g
                .match_created_ms
                .unwrap_or(g.created_ms)
                .max(self.started_ms);
            if now < since + self.context.grace_ms {
                continue;
            }
            let humans: Vec<u8> = [g.seat0, seat1]
                .iter()
                .enumerate()
                .filter(|(_, entrant)| {
                    entrants
                        .iter()
                        .find(|e| e.entrant == **entrant)
                        .is_some_and(|e| ai_level(&e.player.name).is_none())
                })
                .map(|(seat, _)| seat as u8)
                .collect();
            if !humans.is_empty() {
                let asked = self
                    .context
                    .rooms
                    .ask::<Vec<u8>>(match_id, Command::Forfeit { seats: humans })
                    .await;
                match asked {
                    Ok(seats) if !seats.is_empty() => {
                        tracing::info!(match_id = match_id.0, ?seats, "no-show forfeited");
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(match_id = match_id.0, error = %e, "could not check for no-shows");
                        continue;
                    }
                }
            }
            self.checked.insert(match_id);
        }
    }
}

/// Tells each player of a round's game (a series' game 2 too) where to play it, on every socket
/// they have open: `tournament_round`.
pub fn announce_game(
    sockets: &Sockets,
    tournament_id: TournamentId,
    round: u32,
    match_id: MatchId,
    seating: impl IntoIterator<Item = (u8, PlayerId)>,
) {
    for (seat, player) in seating {
        let message = ServerMessage::TournamentRound {
            tournament_id,
            round,
            match_id,
            seats: vec![seat],
        };
        sockets.send(Fanout::Player { player }, &frame(&message));
    }
}
