use super::rematch::{Rematch, rotated};
use super::{Phase, RESULT_RETRY, Room, not_your_seat};
use crate::accounts::player::Player;
use crate::error::{ApiError, ApiResult};
use crate::matches::new_match::Opening;
use crate::matches::store::Finish;
use crate::series::InSeries;
use crate::sockets::frame;
use protocol::{Ack, ErrorReason, MatchEvent, MatchId, MatchResult, PlayerId, ServerMessage};
use tokio::time::Instant;

impl Room {
    /// Places when `loser` leaves the game: last for them, shared first for everyone else.
    pub(super) fn places_with_loser(&self, loser: u8) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .map(|s| u8::from(s == loser))
            .collect()
    }

    pub(super) async fn resign(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
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
    pub(super) fn unplayed(&self) -> bool {
        !self.in_tournament && !self.second_game() && self.seats.iter().any(|s| !s.acted)
    }

    /// Whether this is the second game of a two-game match.
    pub(super) fn second_game(&self) -> bool {
        self.series.is_some_and(|s| s.game == 2)
    }

    /// Ends the match other than by its rules (a resignation, a flag, a claim, an agreed draw),
    /// at `by`'s doing: with this result once every seat has acted, else called off.
    pub(super) async fn end(&mut self, places: Vec<u8>, reason: &str, by: u8) -> ApiResult<()> {
        if self.unplayed() {
            self.call_off(Some(by), "aborted").await.map(|_| ())
        } else {
            self.finish(places, reason).await
        }
    }

    /// Records the result of a live game that its rules have ended: after its final action,
    /// when a room starts (a crash may have come between the two), and again after a failure.
    pub(super) async fn finish_by_rules(&mut self) {
        // The action that ended the game is stored before its result is (and if it cannot
        // be, the game goes on).
        if self.phase != Phase::Live || self.game.outcome().is_none() || !self.settle().await {
            return;
        }
        if let Some((places, reason)) = self.game.outcome() {
            let stored = self.finish(places, &reason).await;
            self.retry_result = stored.err().map(|_| Instant::now() + RESULT_RETRY);
        }
    }

    pub(super) async fn flag_fell(&mut self) {
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

    pub(super) async fn abort(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        if !self.holds(player, seat) {
            return Err(not_your_seat());
        }
        if self.phase == Phase::Over {
            return Err(ApiError::new(ErrorReason::MatchOver, "the match is over"));
        }
        if self.seats.iter().all(|s| s.acted) {
            return Err(ApiError::new(
                ErrorReason::AbortAfterMoves,
                "every seat has moved: resign instead",
            ));
        }
        if self.second_game() {
            return Err(ApiError::new(
                ErrorReason::AbortSecondGame,
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
    pub(super) async fn call_off(&mut self, by: Option<u8>, reason: &str) -> ApiResult<bool> {
        if self.phase == Phase::Over {
            return Ok(false);
        }
        let seek = self.phase == Phase::Waiting && !self.spec.private;
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
        tracing::info!(reason, "match called off");
        if seek {
            self.ctx.seeks.changed();
        }
        if let Some(seat) = by {
            self.followers.broadcast(|_| MatchEvent::Aborted { seat });
        }
        self.conclude(MatchResult {
            places,
            reason: reason.into(),
            ratings: Vec::new(),
        });
        Ok(true)
    }

    /// See [`Command::Forfeit`].
    pub(super) async fn forfeit(&mut self, seats: &[u8]) -> ApiResult<Vec<u8>> {
        if self.phase != Phase::Live {
            return Ok(Vec::new());
        }
        let absent: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|s| seats.contains(s) && self.ai_level(*s).is_none())
            .filter(|&s| !self.seats[usize::from(s)].showed && !self.seats[usize::from(s)].acted)
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

    pub(super) async fn claim_win(&mut self, player: PlayerId, seat: u8) -> ApiResult<Ack> {
        self.seat_in_play(player, seat)?;
        if self.per_move() {
            return Err(ApiError::new(
                ErrorReason::ClaimCorrespondence,
                "players of a correspondence match come and go: its clock ends the match of a \
                 player who does not move in time",
            ));
        }
        let now = Instant::now();
        let gone: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| !self.holds(player, s))
            .filter(|&s| {
                self.seats[usize::from(s)]
                    .away_since
                    .is_some_and(|t| now.duration_since(t) >= self.ctx.grace)
            })
            .collect();
        let opponents = (0..self.seats.len() as u8)
            .filter(|&s| !self.holds(player, s))
            .count();
        if opponents == 0 || gone.len() < opponents {
            return Err(ApiError::new(
                ErrorReason::ClaimTooEarly {
                    seconds: self.ctx.grace.as_secs(),
                },
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

    /// Records the result (with rating changes, exactly once) and tells everyone. A result that
    /// could not be stored did not happen: the match goes on, and the error says why. Game 1 of
    /// a series stores game 2 with its result and takes the players there, as a rematch
    /// would; game 2 tells them how the series came out.
    pub(super) async fn finish(&mut self, places: Vec<u8>, reason: &str) -> ApiResult<()> {
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
        let (ratings, next_game) =
            finished.map_or((Vec::new(), None), |f| (f.ratings, f.next_game));
        tracing::info!(reason, ?places, "match finished");
        self.conclude(MatchResult {
            places,
            reason: reason.to_string(),
            ratings,
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
    pub(super) fn next_game(&self, now_ms: i64) -> Option<Opening> {
        let series = self.series.filter(|s| s.game == 1)?;
        let players: Vec<Player> = self.players().cloned().collect();
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
    pub(super) fn series_goes_on(&mut self, game_2: MatchId, opening: Opening) {
        tracing::info!(game_2 = game_2.0, "series goes on");
        // A send fails only when the server is stopping; game 2 is restored at the next start.
        let _ = self.ctx.next_games.send((game_2, opening));
        self.rematch = Rematch::Started(game_2);
        self.tell_rematch_started(game_2, None);
    }

    /// Tells game 2's followers how the series came out.
    pub(super) async fn tell_series(&mut self, series: InSeries) {
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

    /// See [`Command::Banned`]. The forfeit stands even before every seat has acted: "no
    /// rating without a game" keeps players from farming ratings by ending matches at once,
    /// and a ban is no player's doing.
    pub(super) async fn banned(&mut self, player: PlayerId) -> ApiResult<bool> {
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

    /// The match is over with `result`, stored: its clocks stop, and its followers are told.
    fn conclude(&mut self, result: MatchResult) {
        self.set_phase(Phase::Over);
        if let Some(c) = self.clocks.as_mut() {
            c.follow(&[], Instant::now());
        }
        self.result = Some(result.clone());
        self.followers.broadcast(|_| MatchEvent::Finished {
            result: result.clone(),
        });
    }
}
