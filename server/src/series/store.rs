//! The storage of series: the series row, its games' records as the players see them, and its
//! decision, written in the transaction that finishes (or calls off) one of its games.

use protocol::{MatchId, Series, SeriesGame, SeriesId};
use sqlx::{AnyConnection, Row};

use super::{Decision, Played, decide, score};
use crate::accounts::player::Player;
use crate::store::{Store, StoreResult, player_from};

/// A series as stored: its players (game 1's seat order), its games and its status.
struct StoredSeries {
    players: Vec<Player>,
    games: Vec<(u8, MatchId, String, Played)>,
    status: String,
}

/// Makes a new series; its first game is inserted next, in the same transaction.
pub(crate) async fn insert_series(conn: &mut AnyConnection, now_ms: i64) -> StoreResult<SeriesId> {
    let row =
        sqlx::query("INSERT INTO series (status, created_ms) VALUES ('live', $1) RETURNING id")
            .bind(now_ms)
            .fetch_one(&mut *conn)
            .await?;
    Ok(SeriesId(row.try_get("id")?))
}

/// Decides a series whose second game has just been recorded as finished.
pub(crate) async fn decide_series(
    conn: &mut AnyConnection,
    id: SeriesId,
    now_ms: i64,
) -> StoreResult<()> {
    let stored = load(conn, id).await?;
    let [(_, _, _, one), (_, _, _, two)] = &stored.games[..] else {
        return Ok(());
    };
    let decision = decide(&[one.clone(), two.clone()]);
    let json = |v: &[u32]| serde_json::to_string(v).expect("numbers serialise");
    sqlx::query(
        "UPDATE series SET status = 'finished', result_places = $1, result_reason = $2,
                points = $3, finished_ms = $4
         WHERE id = $5 AND status = 'live'",
    )
    .bind(json(&decision.places().map(u32::from)))
    .bind(decision.reason())
    .bind(json(&decision.halves))
    .bind(now_ms)
    .bind(id.0)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Calls a series off with its game: nobody wins it, as nobody wins a called-off game.
pub(crate) async fn abort_series(
    conn: &mut AnyConnection,
    id: SeriesId,
    now_ms: i64,
) -> StoreResult<()> {
    sqlx::query(
        "UPDATE series SET status = 'aborted', result_places = '[0,0]',
                result_reason = 'aborted', finished_ms = $1
         WHERE id = $2 AND status = 'live'",
    )
    .bind(now_ms)
    .bind(id.0)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A series' players and games, each game from the players' side.
async fn load(conn: &mut AnyConnection, id: SeriesId) -> StoreResult<StoredSeries> {
    let status: String = sqlx::query("SELECT status FROM series WHERE id = $1")
        .bind(id.0)
        .fetch_one(&mut *conn)
        .await?
        .try_get("status")?;
    let matches = sqlx::query(
        "SELECT id, series_game, status, result_places, created_ms FROM matches
         WHERE series_id = $1 ORDER BY series_game",
    )
    .bind(id.0)
    .fetch_all(&mut *conn)
    .await?;
    let mut players = Vec::new();
    let mut games = Vec::new();
    for m in matches {
        let match_id = MatchId(m.try_get("id")?);
        let game = m.try_get::<i64, _>("series_game")? as u8;
        if game == 1 {
            let seats = sqlx::query(
                "SELECT p.id, p.name, p.password_hash, p.guest
                 FROM match_seats s JOIN players p ON p.id = s.player_id
                 WHERE s.match_id = $1 ORDER BY s.seat",
            )
            .bind(match_id.0)
            .fetch_all(&mut *conn)
            .await?;
            for seat in &seats {
                players.push(player_from(seat, "")?);
            }
        }
        // Player `p` sits in seat `p` of game 1 and in the other seat of game 2.
        let player_of = |seat: usize| if game == 1 { seat } else { 1 - seat };
        let places: Option<String> = m.try_get("result_places")?;
        let status: String = m.try_get("status")?;
        let places = places
            .filter(|_| status == "finished")
            .and_then(|p| serde_json::from_str::<Vec<u8>>(&p).ok())
            .and_then(|p| <[u8; 2]>::try_from(p).ok())
            .map(|p| [p[player_of(0)], p[player_of(1)]]);
        let actions =
            sqlx::query("SELECT seat, at_ms FROM match_actions WHERE match_id = $1 ORDER BY ply")
                .bind(match_id.0)
                .fetch_all(&mut *conn)
                .await?;
        let mut used_ms = [0u64; 2];
        let mut since: i64 = m.try_get("created_ms")?;
        for a in &actions {
            let at: i64 = a.try_get("at_ms")?;
            let seat = a.try_get::<i64, _>("seat")? as usize;
            used_ms[player_of(seat.min(1))] += at.saturating_sub(since).max(0) as u64;
            since = at;
        }
        let played = Played {
            places,
            plies: actions.len() as u32,
            used_ms,
        };
        games.push((game, match_id, status, played));
    }
    Ok(StoredSeries {
        players,
        games,
        status,
    })
}

impl Store {
    /// A series as `GET /api/series/{id}` serves it; `None` if there is none.
    pub async fn series(&self, id: SeriesId) -> StoreResult<Option<Series>> {
        let mut conn = self.pool.acquire().await?;
        let exists = sqlx::query("SELECT 1 AS one FROM series WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&mut *conn)
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        let stored = load(&mut conn, id).await?;
        let played: Vec<Played> = stored.games.iter().map(|g| g.3.clone()).collect();
        let decision: Option<Decision> = match (&played[..], stored.status.as_str()) {
            ([one, two], "finished") => Some(decide(&[one.clone(), two.clone()])),
            _ => None,
        };
        let halves = |h: [u32; 2]| h.iter().map(|&h| f64::from(h) / 2.0).collect();
        Ok(Some(Series {
            id,
            players: stored.players.iter().map(Player::public).collect(),
            status: stored.status,
            games: stored
                .games
                .into_iter()
                .map(|(game, match_id, status, p)| SeriesGame {
                    game,
                    match_id,
                    status,
                    points: p.halves().map(halves),
                    plies: p.plies,
                    used_ms: p.used_ms.to_vec(),
                })
                .collect(),
            score: halves(score(&played)),
            winner: decision.and_then(|d| d.winner).map(|w| w as u8),
            tiebreak: decision.and_then(|d| d.tiebreak),
        }))
    }
}
