//! Two-game matches (series) over real sockets, on both backends: a challenge to a two-game
//! match plays game 1, opens game 2 at once with the sides swapped and takes both players
//! there, and scores the pair: a sweep by the score, a win each by the shorter win; each game
//! rated on its own. A Swiss tournament of two-game matches runs to its end, every pairing
//! decided by its series and the standings counting match and game points. A server killed
//! between the two games brings game 2 back, and the series ends as it should.

mod common;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::time::Duration;

use common::process::ServerProcess;
use common::{BACKENDS, Client, fresh_database, start};
use protocol::{
    ChallengeSpec, ClientMessage, ClockSpec, GameOutcome, MatchEvent, MatchId, PlayerId, Series,
    SeriesId, SeriesTiebreak, ServerMessage, Session, TournamentDetails,
};
use serde_json::json;

const CLOCK: ClockSpec = ClockSpec {
    base_ms: 300_000,
    increment_ms: 3_000,
    per_move: false,
};

/// Game 1 and game 2 of a series as its two players play it: `first` had seat 0 in game 1.
struct Pair {
    first: Session,
    second: Session,
    a: Client,
    b: Client,
}

impl Pair {
    /// `first` challenges `second` to a rated two-game Brandubh match, taking seat 0; `second`
    /// accepts. Game 1, with both following it.
    async fn challenge(addr: SocketAddr) -> (Pair, MatchId) {
        let (first, second, mut a, mut b) = common::two_players(addr).await;
        let made = a
            .ok(|id| ClientMessage::Challenge {
                id,
                spec: ChallengeSpec {
                    player: second.player.id,
                    game: "tafl".into(),
                    variant: Some("brandubh".into()),
                    seat: Some(0),
                    clock: Some(CLOCK),
                    rated: true,
                    two_games: true,
                    takebacks: false,
                },
            })
            .await;
        let challenge_id = made.challenge_id.expect("a challenge id");
        let open = b
            .message_where(|m| matches!(m, ServerMessage::ChallengeOpen { .. }))
            .await;
        let ServerMessage::ChallengeOpen { challenge } = open else {
            unreachable!()
        };
        assert!(challenge.two_games);
        let accepted = b
            .ok(|id| ClientMessage::AnswerChallenge {
                id,
                challenge_id,
                accept: true,
            })
            .await;
        let m = accepted.match_id.unwrap();
        let pair = Pair {
            first,
            second,
            a,
            b,
        };
        (pair, m)
    }
}

/// Follows a match and returns its series as the snapshot names it.
async fn follow(c: &mut Client, m: MatchId) -> protocol::SeriesRef {
    c.ok(|id| common::watch(id, m, None)).await;
    match c
        .message_where(
            |msg| matches!(msg, ServerMessage::Snapshot { match_id, .. } if *match_id == m),
        )
        .await
    {
        ServerMessage::Snapshot { snapshot, .. } => snapshot.series.expect("a series game"),
        _ => unreachable!(),
    }
}

/// Plays `moves` in turn from seat 0, then the player of seat `resigning` resigns, or (`None`)
/// seat 0 offers a draw and seat 1 takes it. Every seat acts first, so the result stands (and
/// is rated).
async fn play_and_resign(
    seat0: &mut Client,
    seat1: &mut Client,
    m: MatchId,
    moves: &[&str],
    resigning: Option<u8>,
) -> MatchEvent {
    for (ply, action) in moves.iter().enumerate() {
        let (c, seat) = match ply % 2 {
            0 => (&mut *seat0, 0),
            _ => (&mut *seat1, 1),
        };
        c.ok(|id| common::act(id, m, seat, action)).await;
    }
    let c = match resigning {
        Some(0) => {
            seat0
                .ok(|id| ClientMessage::Resign {
                    id,
                    match_id: m,
                    seat: 0,
                })
                .await;
            seat0
        }
        Some(seat) => {
            seat1
                .ok(|id| ClientMessage::Resign {
                    id,
                    match_id: m,
                    seat,
                })
                .await;
            seat1
        }
        None => {
            seat0
                .ok(|id| ClientMessage::OfferDraw {
                    id,
                    match_id: m,
                    seat: 0,
                })
                .await;
            seat1
                .ok(|id| ClientMessage::AnswerDraw {
                    id,
                    match_id: m,
                    seat: 1,
                    accept: true,
                })
                .await;
            seat1
        }
    };
    c.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
        .await
        .1
}

/// Waits for the message taking a follower of game 1 to game 2.
async fn game_2(c: &mut Client, game_1: MatchId) -> MatchId {
    match c
        .message_where(|m| matches!(m, ServerMessage::RematchStarted { .. }))
        .await
    {
        ServerMessage::RematchStarted {
            match_id, rematch, ..
        } => {
            assert_eq!(match_id, game_1);
            rematch
        }
        _ => unreachable!(),
    }
}

async fn series_finished(c: &mut Client, game_2: MatchId) -> Series {
    match c
        .message_where(|m| matches!(m, ServerMessage::SeriesFinished { .. }))
        .await
    {
        ServerMessage::SeriesFinished { match_id, series } => {
            assert_eq!(match_id, game_2);
            series
        }
        _ => unreachable!(),
    }
}

async fn series(addr: SocketAddr, id: SeriesId) -> Series {
    serde_json::from_value(common::get(addr, &format!("/api/series/{}", id.0)).await).unwrap()
}

fn rated(event: &MatchEvent) -> bool {
    matches!(event, MatchEvent::Finished { result } if result.ratings.len() == 2)
}

/// Plays a series: game 1 with `moves_1` and then seat `resigns_1` resigning (a draw agreed
/// when `None`), then game 2 (sides swapped) likewise. Returns the series as game 2's followers
/// are told it.
async fn play_series(
    addr: SocketAddr,
    moves_1: &[&str],
    resigns_1: Option<u8>,
    moves_2: &[&str],
    resigns_2: Option<u8>,
) -> (Pair, Series, [MatchId; 2]) {
    let (mut p, m1) = Pair::challenge(addr).await;
    let first = follow(&mut p.a, m1).await;
    assert_eq!(first.game, 1);
    assert_eq!(follow(&mut p.b, m1).await, first);
    let finished = play_and_resign(&mut p.a, &mut p.b, m1, moves_1, resigns_1).await;
    assert!(rated(&finished), "game 1 is rated on its own: {finished:?}");
    let m2 = game_2(&mut p.a, m1).await;
    assert_eq!(game_2(&mut p.b, m1).await, m2);
    // Game 2 is live already, the sides swapped, the same game and clock.
    let summary = common::get(addr, &format!("/api/matches/{}", m2.0)).await["summary"].clone();
    assert_eq!(summary["status"], "live");
    assert_eq!(summary["variant"], "brandubh");
    assert_eq!(summary["clock"], json!(CLOCK));
    assert_eq!(summary["rated"], true);
    let seated: Vec<i64> = summary["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(seated, [p.second.player.id.0, p.first.player.id.0]);
    let second = follow(&mut p.b, m2).await;
    assert_eq!(
        second,
        protocol::SeriesRef {
            series_id: first.series_id,
            game: 2
        }
    );
    follow(&mut p.a, m2).await;
    let during = series(addr, first.series_id).await;
    assert_eq!(during.status, "live");
    assert_eq!(during.games.len(), 2);
    let finished = play_and_resign(&mut p.b, &mut p.a, m2, moves_2, resigns_2).await;
    assert!(rated(&finished), "game 2 is rated on its own: {finished:?}");
    let told = series_finished(&mut p.a, m2).await;
    assert_eq!(series_finished(&mut p.b, m2).await, told);
    assert_eq!(told, series(addr, first.series_id).await);
    (p, told, [m1, m2])
}

const SHORT: [&str; 2] = ["d1-c1", "d3-b3"];
const LONGER: [&str; 4] = ["d1-c1", "d3-b3", "c1-c2", "b3-b2"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_game_match_is_scored_as_one() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        // A sweep: the second player resigns game 1 (seat 1) and game 2 (seat 0).
        let (p, s, [m1, m2]) = play_series(addr, &SHORT, Some(1), &SHORT, Some(0)).await;
        let ids: Vec<PlayerId> = s.players.iter().map(|p| p.id).collect();
        assert_eq!(ids, [p.first.player.id, p.second.player.id], "{backend:?}");
        assert_eq!(s.status, "finished");
        assert_eq!(s.score, [2.0, 0.0], "{backend:?}");
        assert_eq!((s.winner, s.tiebreak), (Some(0), None));
        let games: Vec<(u8, MatchId, u32)> = s
            .games
            .iter()
            .map(|g| (g.game, g.match_id, g.plies))
            .collect();
        assert_eq!(games, [(1, m1, 2), (2, m2, 2)]);
        assert_eq!(s.games[0].points, Some(vec![1.0, 0.0]));
        assert_eq!(s.games[1].points, Some(vec![1.0, 0.0]));

        // A win and a draw: one and a half to a half, the score decides.
        let (_, s, _) = play_series(addr, &SHORT, Some(0), &SHORT, None).await;
        assert_eq!(s.score, [0.5, 1.5], "{backend:?}");
        assert_eq!((s.winner, s.tiebreak), (Some(1), None));
        assert_eq!(s.games[1].points, Some(vec![0.5, 0.5]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tie_of_points_goes_to_the_shorter_win() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        // The first player wins game 1 in 2 plies, the second wins game 2 in 4.
        let (p, s, _) = play_series(addr, &SHORT, Some(1), &LONGER, Some(1)).await;
        assert_eq!(s.score, [1.0, 1.0], "{backend:?}");
        assert_eq!(s.tiebreak, Some(SeriesTiebreak::ShorterWin));
        assert_eq!(s.winner, Some(0));
        assert_eq!(s.players[0].id, p.first.player.id);
        let plies: Vec<u32> = s.games.iter().map(|g| g.plies).collect();
        assert_eq!(plies, [2, 4]);
        assert_eq!(s.games[1].points, Some(vec![0.0, 1.0]));

        // The other way round: the second player's win is the shorter one.
        let (_, s, _) = play_series(addr, &LONGER, Some(1), &SHORT, Some(1)).await;
        assert_eq!(
            (s.winner, s.tiebreak),
            (Some(1), Some(SeriesTiebreak::ShorterWin))
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loser_of_game_1_cannot_void_the_series_from_game_2() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (mut p, m1) = Pair::challenge(addr).await;
        follow(&mut p.a, m1).await;
        follow(&mut p.b, m1).await;
        // The second player loses game 1, then sits in seat 0 of game 2.
        play_and_resign(&mut p.a, &mut p.b, m1, &SHORT, Some(1)).await;
        let m2 = game_2(&mut p.b, m1).await;
        follow(&mut p.b, m2).await;
        let why =
            p.b.refused(protocol::ErrorCode::Conflict, |id| ClientMessage::Abort {
                id,
                match_id: m2,
                seat: 0,
            })
            .await;
        assert!(why.contains("two-game"), "{backend:?}: {why}");
        let summary = common::get(addr, &format!("/api/matches/{}", m2.0)).await["summary"].clone();
        assert_eq!(summary["status"], "live", "{backend:?}: nothing changed");
        // Resigning before the first move is a result: game 2 is lost, and the series with it.
        p.b.ok(|id| ClientMessage::Resign {
            id,
            match_id: m2,
            seat: 0,
        })
        .await;
        let told = series_finished(&mut p.b, m2).await;
        assert_eq!(told.status, "finished", "{backend:?}");
        assert_eq!(told.score, [2.0, 0.0], "{backend:?}");
        assert_eq!((told.winner, told.tiebreak), (Some(0), None), "{backend:?}");
        assert_eq!(told.players[0].id, p.first.player.id);
        assert_eq!(told.games[1].points, Some(vec![1.0, 0.0]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_draws_are_level_on_points_and_go_to_the_time_used() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, s, _) = play_series(addr, &SHORT, None, &SHORT, None).await;
        assert_eq!(s.score, [1.0, 1.0], "{backend:?}");
        assert_eq!(s.games[0].points, Some(vec![0.5, 0.5]));
        assert_eq!(s.games[1].points, Some(vec![0.5, 0.5]));
        // No win to compare: the time used decides, or nothing does.
        match (s.winner, s.tiebreak) {
            (Some(_), Some(SeriesTiebreak::LessTime)) | (None, None) => {}
            other => panic!("{backend:?}: two draws decided by {other:?}"),
        }
    }
}

/// Short AI moves and a fast director.
const FLAGS: &[&str] = &["--ai-move-ms", "20", "--tournament-poll-ms", "100"];

/// A tournament's POST as `who`, which must succeed: the tournament then.
async fn post_tournament(
    addr: SocketAddr,
    who: &Session,
    path: String,
    body: serde_json::Value,
) -> TournamentDetails {
    let response = common::http()
        .post(format!("http://{addr}{path}"))
        .bearer_auth(&who.token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "POST {path}");
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_two_game_matches_runs_to_the_end() {
    let runs = BACKENDS.map(|backend| async move {
        let addr = start(&fresh_database(backend).await, FLAGS).await;
        let organiser = common::new_player(addr).await;
        let post =
            |path: String, body: serde_json::Value| post_tournament(addr, &organiser, path, body);
        let created = post(
            "/api/tournaments".into(),
            json!({"name": "Pairs", "game": "tafl", "variant": "brandubh", "format": "swiss",
                   "rounds": 2, "two_games": true, "time_control": "bullet"}),
        )
        .await;
        assert!(created.summary.two_games);
        let id = created.summary.id;
        for level in 1..=4 {
            post(
                format!("/api/tournaments/{}/entrants", id.0),
                json!({"ai_level": level}),
            )
            .await;
        }
        post(format!("/api/tournaments/{}/start", id.0), json!({})).await;
        let path = format!("/api/tournaments/{}", id.0);
        let d = tokio::time::timeout(Duration::from_secs(240), async {
            loop {
                let d: TournamentDetails =
                    serde_json::from_value(common::get(addr, &path).await).unwrap();
                if d.summary.status == "finished" {
                    return d;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
        .await
        .expect("the tournament finished in time");
        (backend, addr, d)
    });
    for (backend, addr, d) in futures_util::future::join_all(runs).await {
        assert_eq!(d.rounds.len(), 2, "{backend:?}");
        let mut met = HashSet::new();
        let mut match_points = [0.0; 4];
        let mut game_points = [0.0; 4];
        for round in &d.rounds {
            assert_eq!(round.games.len(), 2);
            for g in &round.games {
                let [x, y] = g.seats;
                assert!(
                    met.insert((x.min(y), x.max(y))),
                    "a Swiss pairs no one twice"
                );
                let s = series(addr, g.series_id.expect("a series")).await;
                assert_eq!(s.status, "finished", "{backend:?}: {s:?}");
                assert_eq!(s.games.len(), 2);
                assert_eq!(s.games[0].match_id, g.match_id.unwrap());
                // The pairing's result is the series'.
                let outcome = match s.winner {
                    Some(0) => GameOutcome::Win,
                    Some(_) => GameOutcome::Loss,
                    None => GameOutcome::Draw,
                };
                assert_eq!(g.outcome, Some(outcome), "{backend:?}: {s:?}");
                let reason = match s.tiebreak {
                    Some(SeriesTiebreak::ShorterWin) => "shorter_win",
                    Some(SeriesTiebreak::LessTime) => "less_time",
                    None if s.winner.is_some() => "score",
                    None => "tied",
                };
                assert_eq!(g.reason.as_deref(), Some(reason));
                let won = match outcome {
                    GameOutcome::Win => [1.0, 0.0],
                    GameOutcome::Loss => [0.0, 1.0],
                    _ => [0.5, 0.5],
                };
                for (seat, entrant) in [x, y].into_iter().enumerate() {
                    match_points[entrant as usize] += won[seat];
                    game_points[entrant as usize] += s.score[seat];
                }
            }
        }
        assert_eq!(d.standings.len(), 4);
        for row in &d.standings {
            let e = row.entrant as usize;
            assert_eq!(row.points, match_points[e], "{backend:?}: {row:?}");
            assert_eq!(
                row.game_points,
                Some(game_points[e]),
                "{backend:?}: {row:?}"
            );
            assert_eq!(row.games, 2);
        }
        let total: f64 = game_points.iter().sum();
        assert_eq!(total, 8.0, "eight games, a point each");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_goes_on_after_a_server_restart_between_its_games() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = ServerProcess::start(&url).await;
        let (mut p, m1) = Pair::challenge(server.addr).await;
        let first = follow(&mut p.a, m1).await;
        follow(&mut p.b, m1).await;
        play_and_resign(&mut p.a, &mut p.b, m1, &LONGER, Some(1)).await;
        let m2 = game_2(&mut p.a, m1).await;
        // Killed at once: game 2 was stored with game 1's result, and comes back with the server.
        server.kill();
        let server = ServerProcess::start(&url).await;
        let mut a = Client::connect(server.addr, &p.first.token).await;
        let mut b = Client::connect(server.addr, &p.second.token).await;
        let second = follow(&mut b, m2).await;
        assert_eq!(
            (second.series_id, second.game),
            (first.series_id, 2),
            "{backend:?}"
        );
        follow(&mut a, m2).await;
        play_and_resign(&mut b, &mut a, m2, &SHORT, Some(1)).await;
        let s = series_finished(&mut b, m2).await;
        assert_eq!(s.score, [1.0, 1.0], "{backend:?}");
        // The second player's win (game 2, 2 plies) was the shorter.
        assert_eq!(
            (s.winner, s.tiebreak),
            (Some(1), Some(SeriesTiebreak::ShorterWin))
        );
        let ids: Vec<MatchId> = s.games.iter().map(|g| g.match_id).collect();
        assert_eq!(ids, [m1, m2]);
        server.kill();
    }
}

/// A tournament's game 2 is announced like its round's game 1 (`tournament_round`), to every
/// socket of its players: one that does not follow game 1 learns where to play it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_announces_a_series_second_game_to_its_players() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, FLAGS).await;
        let player = common::new_player(addr).await;
        let post =
            |path: String, body: serde_json::Value| post_tournament(addr, &player, path, body);
        let created = post(
            "/api/tournaments".into(),
            json!({"name": "Pair", "game": "tafl", "variant": "brandubh",
                   "format": "round_robin", "two_games": true, "time_control": "blitz"}),
        )
        .await;
        let id = created.summary.id.0;
        post(format!("/api/tournaments/{id}/register"), json!({})).await;
        post(
            format!("/api/tournaments/{id}/entrants"),
            json!({"ai_level": 1}),
        )
        .await;
        let mut c = Client::connect(addr, &player.token).await;
        post(format!("/api/tournaments/{id}/start"), json!({})).await;
        let round = |m: &ServerMessage| matches!(m, ServerMessage::TournamentRound { .. });
        let ServerMessage::TournamentRound {
            match_id: game_1,
            seats,
            ..
        } = c.message_where(round).await
        else {
            unreachable!()
        };
        let seat = seats[0];
        c.ok(|id| ClientMessage::Resign {
            id,
            match_id: game_1,
            seat,
        })
        .await;
        let ServerMessage::TournamentRound {
            tournament_id,
            round: number,
            match_id: game_2,
            seats,
        } = c.message_where(round).await
        else {
            unreachable!()
        };
        assert_eq!((tournament_id.0, number), (id, 1), "{backend:?}");
        assert_ne!(game_2, game_1, "{backend:?}");
        assert_eq!(seats, vec![1 - seat], "{backend:?}: the sides are swapped");
    }
}
