//! The REST routes of matches: the live and the open ones, a match's record (also as a file to
//! download), and its replay (its
//! positions one by one, rebuilt on the server from its stored configuration, seed and log with
//! the authoritative engine, so that a client can step through any game without knowing its
//! rules). A private match is shown only to its players and to holders of its code.

use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use protocol::{
    ErrorBody, ErrorReason, GameRecord, LiveMatch, MatchId, MatchRecord, MatchReplay, MatchSummary,
    OngoingMatch, PlayerId, RecordedAction, ReplayAction, Seq,
};

use super::hosted::{self, Hosted};
use super::store::{Status, StoredMatch};
use crate::accounts::auth::{self, Authed};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Id, Page};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/{id}/matches", get(player_matches))
        .route("/api/matches/live", get(live_matches))
        .route("/api/matches/open", get(open_matches))
        .route("/api/matches/{id}", get(match_record))
        .route("/api/matches/{id}/replay", get(replay))
        .route("/api/matches/{id}/record", get(record_file))
        .route("/api/me/games", get(my_games))
        .route("/api/me/waiting", get(my_turns))
}

/// The spectators' view after every action. Only public views: a finished hidden-information
/// match shows its actions, as its record does, but never a seat's private hand.
#[utoipa::path(
    get,
    path = "/api/matches/{id}/replay",
    tag = "matches",
    summary = "A match position by position",
    description = "The public view before the first action and after each one, rebuilt by the \
        server, so that a client can step through any game without knowing its rules.",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code"),
    ),
    responses(
        (status = 200, description = "The replay", body = MatchReplay),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
    ),
)]
async fn replay(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<MatchReplay>> {
    let m = viewer.load(&state, MatchId(id)).await?;
    let over = m.status.is_over();
    let mut game = fresh_game(&m)?;
    let secret = !over && game.hides_actions();
    let played = m.actions();
    let mut views = Vec::with_capacity(played.len() + 1);
    views.push(game.view(None));
    let mut actions = Vec::with_capacity(played.len());
    for (ply, a) in played.into_iter().enumerate() {
        // A stored action was legal when it was played; failing now means the engine changed
        // under the stored log, which the client cannot fix.
        game.play(a.seat, &a.action).map_err(|e| {
            ApiError::new(
                ErrorReason::Internal,
                format!("match {id} no longer replays at ply {ply}: {e}"),
            )
        })?;
        views.push(game.view(None));
        actions.push(ReplayAction {
            seat: a.seat,
            action: (!secret).then(|| a.action.clone()),
        });
    }
    Ok(Json(MatchReplay {
        match_id: m.id,
        game: m.spec.game,
        variant: m.spec.variant,
        seats: m.spec.seats,
        actions,
        views,
    }))
}

/// Who asks for a match over REST: the player of the request's session, if it has a live one,
/// and the invite code it carries (`?invite=`), if any. A private match, live or finished, is
/// shown only to its players and to holders of its code; to everyone else it does not exist.
pub struct Viewer {
    player: Option<PlayerId>,
    invite: Option<String>,
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> ApiResult<Viewer> {
        let player = match auth::request_token(parts) {
            Some(token) => state.authenticate(&token).await.ok().map(|p| p.id),
            None => None,
        };
        let invite = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("invite="))
                .map(str::to_string)
        });
        Ok(Viewer { player, invite })
    }
}

impl Viewer {
    /// A player (or a visitor, `None`) asking with the invite code they gave, where a request's
    /// body names the match.
    pub fn new(player: Option<PlayerId>, invite: Option<String>) -> Viewer {
        Viewer { player, invite }
    }

    fn may_see(&self, m: &StoredMatch) -> bool {
        let seated = |p: PlayerId| m.players.iter().flatten().any(|x| x.id == p);
        !m.spec.private
            || self.player.is_some_and(seated)
            || (self.invite.is_some() && self.invite == m.spec.invite)
    }

    /// The player of the request's session, if it has a live one.
    pub fn player(&self) -> Option<PlayerId> {
        self.player
    }

    /// A match with its log, if this viewer may see it: `not_found` otherwise, exactly as for
    /// a match that does not exist.
    pub async fn load(&self, state: &AppState, id: MatchId) -> ApiResult<StoredMatch> {
        self.shown(id, state.store().load_match(id).await?)
    }

    /// The same without the log.
    pub async fn header(&self, state: &AppState, id: MatchId) -> ApiResult<StoredMatch> {
        self.shown(id, state.store().match_header(id).await?)
    }

    fn shown(&self, id: MatchId, found: Option<StoredMatch>) -> ApiResult<StoredMatch> {
        found.filter(|m| self.may_see(m)).ok_or_else(|| {
            ApiError::new(
                ErrorReason::MatchNotFound { id: id.0 },
                format!("there is no match {}", id.0),
            )
        })
    }
}

#[utoipa::path(
    get,
    path = "/api/matches/live",
    tag = "matches",
    summary = "Matches being played, to watch",
    description = "Public matches being played (every seat taken; not hot-seat) that someone \
        plays: a human player in it follows it, or left it less than the disconnect grace ago \
        (a match the AI plays on every seat always counts). With a session, the asking player's \
        own live matches are listed too, to go back to. Newest first, one page at a time, to \
        watch over the WebSocket. Each comes with its number of spectators and its position \
        (the spectators' view), to show its board in the list.",
    params(Page),
    responses(
        (status = 200, description = "One page of matches", body = Vec<LiveMatch>),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
    ),
)]
async fn live_matches(
    State(state): State<AppState>,
    viewer: Viewer,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Vec<LiveMatch>>> {
    // Watchers and position are what each room keeps for the list, here or on its node: no
    // room is asked.
    let ids: Vec<MatchId> = state
        .store()
        .listed_matches(Status::Live, viewer.player)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let glimpses = state.rooms().glimpses(&ids, false).await?;
    // A match its players have left (a game against the AI, most often) would otherwise stay
    // listed until the housekeeping calls it off.
    let shown = |id, seated| seated || glimpses.get(&id).is_some_and(|g| g.attended);
    let Json(matches) = listed(&state, Status::Live, viewer.player, page, shown).await?;
    let live = matches
        .into_iter()
        .map(|summary| {
            let glimpse = glimpses.get(&summary.id);
            LiveMatch {
                watchers: glimpse.map_or(0, |g| g.watchers),
                view: glimpse.map(|g| g.view.clone()),
                summary,
            }
        })
        .collect();
    Ok(Json(live))
}

#[utoipa::path(
    get,
    path = "/api/matches/open",
    tag = "matches",
    summary = "Open challenges, to join",
    description = "Public matches waiting for players, newest first, one page at a time, to \
        join over the WebSocket.",
    params(Page),
    responses(
        (status = 200, description = "One page of matches", body = Vec<MatchSummary>),
        (status = 400, description = "`bad_request`: a page that is not a number", body = ErrorBody),
    ),
)]
async fn open_matches(
    State(state): State<AppState>,
    page: Result<Query<Page>, QueryRejection>,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    listed(&state, Status::Waiting, None, page, |_, _| true).await
}

/// One page, as the query asks, of the public matches with this status that `shown` keeps
/// (told each match and whether `viewer` sits in it).
async fn listed(
    state: &AppState,
    status: Status,
    viewer: Option<PlayerId>,
    page: Result<Query<Page>, QueryRejection>,
    shown: impl Fn(MatchId, bool) -> bool,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    let (page, per_page) = Page::read(page)?;
    let listed = state.store().listed_matches(status, viewer).await?;
    let ids = listed
        .into_iter()
        .filter(|&(id, seated)| shown(id, seated))
        .skip((page - 1) as usize * per_page as usize)
        .take(per_page as usize);
    let mut matches = Vec::new();
    for (id, _) in ids {
        // A match gone since (a guest's, removed by the housekeeping) is left out.
        if let Some(m) = state.store().match_header(id).await? {
            matches.push(m.summary());
        }
    }
    Ok(Json(matches))
}

/// A match with its record. The seed, which would let anyone predict the match's chance, is
/// published only once the match is over; so are hidden actions.
#[utoipa::path(
    get,
    path = "/api/matches/{id}",
    tag = "matches",
    summary = "A match with its full record",
    description = "The match, its actions (hidden ones only once it is over), its seed once it \
        is over, its result with the rating changes, and the game as a record in a notation other \
        software reads where the game has one (tafl: OpenTafl).",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code: a private match is shown only to its players (by their session) and to holders of its code"),
    ),
    responses(
        (status = 200, description = "The match", body = MatchRecord),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
    ),
)]
async fn match_record(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<MatchRecord>> {
    let m = viewer.load(&state, MatchId(id)).await?;
    let over = m.status.is_over();
    let mut summary = m.summary();
    if let Some(result) = summary.result.as_mut() {
        result.ratings = state.store().rating_changes(m.id).await?;
    }
    // A game that hides actions keeps them secret until the match is over.
    let mut game = fresh_game(&m)?;
    let secret = !over && game.hides_actions();
    let actions = m
        .actions()
        .into_iter()
        .map(|a| RecordedAction {
            seq: Seq(a.seq),
            seat: a.seat,
            action: (!secret).then(|| a.action.clone()),
            at_ms: a.at_ms,
        })
        .collect();
    // A game that keeps actions secret keeps its record too, until the match is over.
    let record = (!secret).then(|| game_record(&mut *game, &m)).flatten();
    Ok(Json(MatchRecord {
        summary,
        seed: over.then_some(m.spec.seed),
        actions,
        opentafl: record
            .as_ref()
            .and_then(GameRecord::opentafl)
            .map(str::to_string),
        record,
    }))
}

/// A match's game at its start, with the match's own chance.
fn fresh_game(m: &StoredMatch) -> ApiResult<Box<dyn Hosted>> {
    let seats = usize::from(m.spec.seats);
    hosted::host(&m.spec.game, &m.spec.variant, seats, m.spec.seed)
}

/// The game's record in its interchange notation (tafl: OpenTafl), rebuilt by playing the log on
/// the match's fresh game; none for a game without one, or a log the engine no longer replays.
fn game_record(game: &mut dyn Hosted, m: &StoredMatch) -> Option<GameRecord> {
    for a in m.actions() {
        game.play(a.seat, &a.action).ok()?;
    }
    let (format, text) = game.record()?;
    Some(GameRecord {
        format: format.to_string(),
        text,
    })
}

/// A finished match's record as a file to download: the game's record in its interchange notation
/// where it has one (tafl: OpenTafl), else its actions, one a line after the name of the seat that
/// took it.
#[utoipa::path(
    get,
    path = "/api/matches/{id}/record",
    tag = "matches",
    summary = "A finished match's record, as a file to download",
    description = "Plain text with `Content-Disposition: attachment`: the game's record in its \
        interchange notation where it has one (tafl: an OpenTafl game record, named \
        `match-<id>.opentafl.txt`), else the actions in order, one a line as `<seat name>: \
        <action>` (`match-<id>.actions.txt`). Only once the match is over.",
    params(
        ("id" = i64, Path, description = "The match's number"),
        ("invite" = Option<String>, Query, description = "A private match's invite code: a private match is shown only to its players (by their session) and to holders of its code"),
    ),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain"),
        (status = 404, description = "`not_found`: no such match, or a private one this request may not see", body = ErrorBody),
        (status = 409, description = "`conflict`: the match is not over yet", body = ErrorBody),
    ),
)]
async fn record_file(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Response> {
    let m = viewer.load(&state, MatchId(id)).await?;
    if !m.status.is_over() {
        return Err(ApiError::new(
            ErrorReason::RecordNotReady,
            format!("match {id} is not over: its record can be downloaded once it ends"),
        ));
    }
    let (format, text) = record_of(&m)?;
    let name = format!("match-{id}.{format}.txt");
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// A match's record: the name of its format (`opentafl`; `actions` for a game without an
/// interchange notation, whose record is its actions, one a line) and its text.
pub fn record_of(m: &StoredMatch) -> ApiResult<(String, String)> {
    Ok(match game_record(&mut *fresh_game(m)?, m) {
        Some(record) => (record.format, record.text),
        None => ("actions".to_string(), action_lines(m)),
    })
}

/// A match's actions, one a line: `<seat name>: <action>`.
fn action_lines(m: &StoredMatch) -> String {
    let seat_names = hosted::catalog()
        .into_iter()
        .find(|g| g.id == m.spec.game)
        .map(|g| g.seat_names)
        .unwrap_or_default();
    let mut text = String::new();
    for a in m.actions() {
        let seat = usize::from(a.seat);
        match seat_names.get(seat) {
            Some(name) => text.push_str(name),
            None => text.push_str(&format!("seat {}", seat + 1)),
        }
        text.push_str(&format!(": {}\n", a.action));
    }
    text
}

#[utoipa::path(
    get,
    path = "/api/players/{id}/matches",
    tag = "players",
    summary = "A player's matches",
    description = "The player's latest 100 matches, newest first; not those called off before \
        every seat was taken (a withdrawn seek), which were never games.",
    params(("id" = i64, Path, description = "The player's number")),
    responses(
        (status = 200, description = "The matches", body = Vec<MatchSummary>),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
    ),
)]
async fn player_matches(
    State(state): State<AppState>,
    viewer: Viewer,
    Id(id): Id,
) -> ApiResult<Json<Vec<MatchSummary>>> {
    if state.store().player(PlayerId(id)).await?.is_none() {
        return Err(ApiError::new(
            ErrorReason::PlayerNotFound { id },
            format!("there is no player {id}"),
        ));
    }
    let matches = state.store().matches_of(PlayerId(id), 100).await?;
    Ok(Json(
        matches
            .iter()
            .filter(|m| viewer.may_see(m))
            .map(StoredMatch::summary)
            .collect(),
    ))
}

#[utoipa::path(
    get,
    path = "/api/me/games",
    tag = "players",
    summary = "Your ongoing matches",
    description = "Every match the player of the session sits in that is not over, waiting for \
        players or being played: whose turn it is, when the running clock runs out (a \
        correspondence move's deadline), who is on vacation, and the position. Those where it \
        is the player's move come first; correspondence matches before the others; then the \
        earliest deadline, then the newest.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The matches", body = Vec<OngoingMatch>),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
async fn my_games(
    State(state): State<AppState>,
    Authed(player): Authed,
) -> ApiResult<Json<Vec<OngoingMatch>>> {
    Ok(Json(ongoing(&state, player.id, false).await?))
}

#[utoipa::path(
    get,
    path = "/api/me/waiting",
    tag = "players",
    summary = "Your matches waiting for your move",
    description = "The player's live matches where one of their seats must act now, \
        correspondence ones first, by deadline (hot-seat matches left out: nobody waits for \
        them). What a notification centre lists; the socket's `your_move` message says when \
        a correspondence match joins it.",
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "The matches", body = Vec<OngoingMatch>),
        (status = 401, description = "`unauthorized`: no session, or not a live one", body = ErrorBody),
    ),
)]
async fn my_turns(
    State(state): State<AppState>,
    Authed(player): Authed,
) -> ApiResult<Json<Vec<OngoingMatch>>> {
    Ok(Json(ongoing(&state, player.id, true).await?))
}

/// A player's matches that are not over, or (`theirs_only`) those where it is their move, in
/// the order of [`my_games`]. What is happening in each is what its room keeps for the lists
/// (see [`super::Rooms::glimpses`]): no room is asked.
async fn ongoing(
    state: &AppState,
    player: PlayerId,
    theirs_only: bool,
) -> ApiResult<Vec<OngoingMatch>> {
    let mut listed = Vec::new();
    let matches = state.store().ongoing_matches_of(player).await?;
    let live: Vec<MatchId> = matches
        .iter()
        .filter(|m| m.status == Status::Live)
        .map(|m| m.id)
        .collect();
    let mut glimpses = state.rooms().glimpses(&live, true).await?;
    for m in matches {
        let glance = match m.status {
            Status::Live => glimpses.remove(&m.id).unwrap_or_default(),
            _ => Default::default(),
        };
        let your_seats: Vec<u8> = (0..m.spec.seats)
            .filter(|&s| {
                m.players[usize::from(s)]
                    .as_ref()
                    .is_some_and(|p| p.id == player)
            })
            .collect();
        let theirs = !m.spec.hotseat && glance.to_act.iter().any(|s| your_seats.contains(s));
        if theirs_only && !theirs {
            continue;
        }
        let per_move = m.spec.clock.is_some_and(|c| c.per_move);
        let entry = OngoingMatch {
            summary: m.summary(),
            your_seats,
            to_act: glance.to_act,
            deadline_ms: glance.deadline_ms,
            on_vacation: glance.on_vacation,
            view: (m.status == Status::Live).then_some(glance.view),
        };
        listed.push((theirs, per_move, entry));
    }
    listed.sort_by_key(|(theirs, per_move, m)| {
        (
            !theirs,
            !per_move,
            m.deadline_ms.unwrap_or(i64::MAX),
            std::cmp::Reverse(m.summary.id),
        )
    });
    Ok(listed.into_iter().map(|(_, _, m)| m).collect())
}
