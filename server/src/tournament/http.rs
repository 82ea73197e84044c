//! The tournaments' REST API: anyone logged in creates a tournament and registers for one until
//! it starts; its creator enters AI levels and starts it (unless it has a start time); anyone
//! lists tournaments and reads one with its entrants, rounds and standings.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::ai::Level;
use protocol::{
    AddEntrant, ClockSpec, CreateTournament, ErrorBody, ErrorReason, GameOutcome, PlayerId,
    TimeControl, TournamentDetails, TournamentEntrant, TournamentFormat, TournamentGame,
    TournamentId, TournamentRound, TournamentSummary,
};

use super::director::{seeds, slots, standings};
use super::plan;
use super::store::{NewTournament, StoredGame, StoredTournament, TournamentStatus};
use super::{EntrantId, Outcome};
use crate::accounts::auth::Authed;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Id};
use crate::matches::hosted::settle;
use crate::state::AppState;

/// The most rounds a Swiss tournament may have.
pub const MAX_SWISS_ROUNDS: u32 = 30;

/// The longest tournament name, in characters.
const MAX_NAME: usize = 80;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/register", post(register))
        .route("/api/tournaments/{id}/entrants", post(add_entrant))
        .route("/api/tournaments/{id}/start", post(start))
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorReason::BadRequest, message)
}

/// The variant of a tournament's game (the game's first when none is named). Tournaments pair
/// two players a game: a game that cannot be played by two is refused with a clear reason.
fn two_seat_variant(game: &str, variant: Option<&str>) -> ApiResult<String> {
    match settle(game, variant, Some(2), false) {
        Ok(settled) => Ok(settled.variant),
        Err(e) => match settle(game, variant, None, false) {
            Ok(settled) => Err(bad_request(format!(
                "tournaments are for two-player games, and {game} {} is not played by two",
                settled.variant
            ))),
            Err(_) => Err(e),
        },
    }
}

#[utoipa::path(
    post,
    path = "/api/tournaments",
    tag = "tournaments",
    summary = "Create a tournament",
    description = "A new tournament of a two-player game, open for registration; the creator \
        enters AI levels and starts it, unless it has a start time.",
    security(("bearer" = []), ("cookie" = [])),
    request_body = CreateTournament,
    responses(
        (status = 200, description = "The new tournament", body = TournamentDetails),
        (status = 400, description = "`malformed` or `bad_request`: a bad body, name, game or number of rounds", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: a guest asked for a rated tournament", body = ErrorBody),
        (status = 404, description = "`not_found`: no such game or variant", body = ErrorBody),
        (status = 429, description = "`rate_limited`: the player created the most tournaments allowed in 24 hours", body = ErrorBody),
    ),
)]
async fn create(
    State(state): State<AppState>,
    Authed(creator): Authed,
    Body(spec): Body<CreateTournament>,
) -> ApiResult<Json<TournamentDetails>> {
    let name = spec.name.trim().to_string();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(bad_request(format!(
            "a tournament's name has 1 to {MAX_NAME} characters"
        )));
    }
    let variant = two_seat_variant(&spec.game, spec.variant.as_deref())?;
    crate::policy::may_play(&creator, spec.rated)?;
    let most = state.config().tournaments_per_day;
    crate::policy::may_create_tournament(state.store(), most, &creator, crate::clock::now_ms())
        .await?;
    let rounds = match (spec.format, spec.rounds) {
        (TournamentFormat::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
        (TournamentFormat::Swiss, _) => {
            return Err(bad_request(format!(
                "a Swiss tournament needs its number of rounds, 1 to {MAX_SWISS_ROUNDS}"
            )));
        }
        (_, Some(_)) => {
            return Err(bad_request(
                "rounds are chosen for Swiss tournaments only: the other formats have as many as \
                 their field needs",
            ));
        }
        (_, None) => 0,
    };
    // A round ends when its last game does, so every game is played on a clock: an untimed game
    // whose player stopped moving would hold the whole tournament up for ever, while a clock
    // flags them (server-side, and across restarts). Days a move would hold a round up for weeks.
    let control = spec.time_control.unwrap_or(super::DEFAULT_TIME_CONTROL);
    if control == TimeControl::Correspondence {
        return Err(bad_request(
            "tournament games need a clock that ends each round in time, and correspondence \
             takes days a move: choose bullet, blitz, rapid or classical",
        ));
    }
    let clock = control.clock();
    let new = NewTournament {
        name,
        creator: creator.id,
        game: spec.game,
        variant,
        format: spec.format,
        rounds,
        clock: Some((clock.base_ms, clock.increment_ms)),
        rated: spec.rated,
        two_games: spec.two_games,
        starts_ms: spec.starts_ms,
        created_ms: crate::clock::now_ms(),
    };
    let id = state.store().create_tournament(&new).await?;
    if new.starts_ms.is_some() {
        state.tournaments().poke();
    }
    Ok(Json(details(&state, id).await?))
}

async fn tournament(state: &AppState, id: TournamentId) -> ApiResult<StoredTournament> {
    state.store().tournament(id).await?.ok_or_else(|| {
        ApiError::new(
            ErrorReason::TournamentNotFound { id: id.0 },
            format!("there is no tournament {}", id.0),
        )
    })
}

/// Refuses to anyone but the tournament's creator what only the creator does (`does`, as
/// "starts it").
async fn creator_only(
    state: &AppState,
    id: TournamentId,
    player: PlayerId,
    does: &str,
) -> ApiResult<()> {
    if tournament(state, id).await?.creator.id != player {
        return Err(ApiError::new(
            ErrorReason::TournamentCreatorOnly,
            format!("only the tournament's creator {does}"),
        ));
    }
    Ok(())
}

/// The logged-in player enters the tournament.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/register",
    tag = "tournaments",
    summary = "Enter a tournament",
    description = "The logged-in player enters the tournament while it is registering.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The tournament's number")),
    responses(
        (status = 200, description = "The tournament", body = TournamentDetails),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: a guest cannot enter a rated tournament", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        (status = 409, description = "`conflict`: already entered, or registration is closed", body = ErrorBody),
    ),
)]
async fn register(
    State(state): State<AppState>,
    Authed(player): Authed,
    Id(id): Id,
) -> ApiResult<Json<TournamentDetails>> {
    let id = TournamentId(id);
    crate::policy::may_play(&player, tournament(&state, id).await?.rated)?;
    state
        .store()
        .add_entrant(id, player.id, crate::clock::now_ms())
        .await?;
    Ok(Json(details(&state, id).await?))
}

/// The creator enters an AI level.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/entrants",
    tag = "tournaments",
    summary = "Enter an AI level",
    description = "The tournament's creator enters the AI player of a level, 1 to 5.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The tournament's number")),
    request_body = AddEntrant,
    responses(
        (status = 200, description = "The tournament", body = TournamentDetails),
        (status = 400, description = "`malformed` or `bad_request`: a bad body or level", body = ErrorBody),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not the tournament's creator", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        (status = 409, description = "`conflict`: already entered, or registration is closed", body = ErrorBody),
    ),
)]
async fn add_entrant(
    State(state): State<AppState>,
    Authed(player): Authed,
    Id(id): Id,
    Body(body): Body<AddEntrant>,
) -> ApiResult<Json<TournamentDetails>> {
    let id = TournamentId(id);
    creator_only(&state, id, player.id, "enters AI players").await?;
    let level = Level::new(body.ai_level).ok_or_else(|| bad_request("AI levels go from 1 to 5"))?;
    let ai = state.ai_players()[usize::from(level.get() - 1)].clone();
    state
        .store()
        .add_entrant(id, ai.id, crate::clock::now_ms())
        .await?;
    Ok(Json(details(&state, id).await?))
}

/// The creator closes registration and starts the first round.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/start",
    tag = "tournaments",
    summary = "Start a tournament",
    description = "The tournament's creator closes registration and starts the first round.",
    security(("bearer" = []), ("cookie" = [])),
    params(("id" = i64, Path, description = "The tournament's number")),
    responses(
        (status = 200, description = "The tournament", body = TournamentDetails),
        (status = 401, description = "`unauthorized`: not logged in", body = ErrorBody),
        (status = 403, description = "`forbidden`: not the tournament's creator", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        (status = 409, description = "`conflict`: already started, or too few entrants", body = ErrorBody),
    ),
)]
async fn start(
    State(state): State<AppState>,
    Authed(player): Authed,
    Id(id): Id,
) -> ApiResult<Json<TournamentDetails>> {
    let id = TournamentId(id);
    creator_only(&state, id, player.id, "starts it").await?;
    state.tournaments().begin(id).await?;
    Ok(Json(details(&state, id).await?))
}

#[utoipa::path(
    get,
    path = "/api/tournaments",
    tag = "tournaments",
    summary = "The latest tournaments",
    description = "Up to 100 tournaments, newest first.",
    responses((status = 200, description = "The tournaments", body = Vec<TournamentSummary>)),
)]
async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<TournamentSummary>>> {
    let tournaments = state.store().tournaments(100).await?;
    Ok(Json(tournaments.iter().map(summary).collect()))
}

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
    tag = "tournaments",
    summary = "A tournament",
    description = "A tournament with its entrants, rounds, standings and, once finished, its winner.",
    params(("id" = i64, Path, description = "The tournament's number")),
    responses(
        (status = 200, description = "The tournament", body = TournamentDetails),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
    ),
)]
async fn show(State(state): State<AppState>, Id(id): Id) -> ApiResult<Json<TournamentDetails>> {
    Ok(Json(details(&state, TournamentId(id)).await?))
}

fn summary(t: &StoredTournament) -> TournamentSummary {
    TournamentSummary {
        id: t.id,
        name: t.name.clone(),
        creator: t.creator.public(),
        game: t.game.clone(),
        variant: t.variant.clone(),
        format: t.format,
        rounds: (t.rounds > 0).then_some(t.rounds),
        clock: t.clock.map(|(base_ms, increment_ms)| ClockSpec {
            base_ms,
            increment_ms,
            per_move: false,
        }),
        rated: t.rated,
        two_games: t.two_games,
        starts_ms: t.starts_ms,
        status: t.status.as_str().to_string(),
        round: t.current_round,
        entrants: t.entrants,
        reason: t.reason.clone(),
        created_ms: t.created_ms,
    }
}

fn game_outcome(outcome: Outcome) -> GameOutcome {
    match outcome {
        Outcome::Win => GameOutcome::Win,
        Outcome::Draw => GameOutcome::Draw,
        Outcome::Loss => GameOutcome::Loss,
    }
}

/// The rounds as stored: games in board order, byes apart.
fn rounds(games: &[StoredGame]) -> Vec<TournamentRound> {
    let mut rounds: Vec<TournamentRound> = Vec::new();
    for g in games {
        if rounds.last().is_none_or(|r| r.round != g.round) {
            rounds.push(TournamentRound {
                round: g.round,
                games: Vec::new(),
                byes: Vec::new(),
            });
        }
        let round = rounds.last_mut().expect("just pushed");
        match g.seat1 {
            None => round.byes.push(g.seat0),
            Some(seat1) => round.games.push(TournamentGame {
                board: g.board,
                match_id: g.match_id,
                seats: [g.seat0, seat1],
                decider: g.decider,
                outcome: g.outcome().map(game_outcome),
                reason: g.reason.clone(),
                series_id: g.series,
            }),
        }
    }
    rounds
}

/// A tournament with its entrants, rounds and standings.
pub async fn details(state: &AppState, id: TournamentId) -> ApiResult<TournamentDetails> {
    let t = tournament(state, id).await?;
    let store = state.store();
    let entrants = store.tournament_entrants(id).await?;
    let games = store.tournament_games(id).await?;
    let winner = (t.status == TournamentStatus::Finished)
        .then(|| plan::winner(t.plan_format(), &seeds(&entrants), &slots(&games)))
        .flatten()
        .map(|EntrantId(e)| e);
    Ok(TournamentDetails {
        summary: summary(&t),
        entrants: entrants
            .iter()
            .map(|e| TournamentEntrant {
                entrant: e.entrant,
                player: e.player.public(),
                rating: e.rating,
            })
            .collect(),
        rounds: rounds(&games),
        standings: standings(&t, &entrants, &games),
        winner,
    })
}
