//! The analysis service over real HTTP and sockets on 127.0.0.1, on both backends: a finished
//! match's position (private ones only for those who may see them), a typed line of actions
//! and a typed tafl position are analysed with a legal line and a score in range; tafl's
//! insights name the king's escape and the threatened pieces; bad input is refused with 400
//! and costs nothing; the rate limit answers 429 with `Retry-After`; and analyses at their
//! bound keep to it while a live match's moves are acked before any of them ends.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{BACKENDS, Client, act, create, fresh_database, guest, http, start};
use engine::game::Seat;
use engine::tafl::opentafl::{parse_move, print_position};
use engine::tafl::{Layout, Tafl};
use engine::{Catalog, MatchRng};
use protocol::{
    AnalysisPosition, AnalysisReply, ErrorBody, ErrorCode, MatchEvent, MatchId, Session,
};
use serde_json::{Value, json};

/// A short bound, so that the tests stay quick.
const BOUND_MS: u64 = 300;

/// What a reply may take beyond its bound: answering, and the search's last stretch between
/// two looks at the clock, on a machine that may be busy with other work.
const SLACK_MS: u64 = 1000;

/// The tests here measure time: one at a time, so that they do not slow each other down.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn analyse(addr: SocketAddr, token: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = http()
        .post(format!("http://{addr}/api/analysis"))
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// An analysis that must succeed: its reply, checked against the bounds.
async fn analysed(addr: SocketAddr, session: &Session, body: Value) -> AnalysisReply {
    let response = analyse(addr, Some(&session.token), &body).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{body}: {text}");
    let reply: AnalysisReply = serde_json::from_str(&text).unwrap();
    assert!(
        (0.0..=1.0).contains(&reply.score),
        "{body}: {}",
        reply.score
    );
    assert!(
        reply.elapsed_ms <= reply.bound_ms + SLACK_MS,
        "{body}: {} ms for a bound of {}",
        reply.elapsed_ms,
        reply.bound_ms
    );
    assert!(
        reply.nodes <= reply.node_bound + 10_000,
        "{body}: {} nodes",
        reply.nodes
    );
    reply
}

/// A refusal: its status and error code, and its message.
async fn refused(response: reqwest::Response, status: u16, code: ErrorCode, what: &str) -> String {
    assert_eq!(response.status().as_u16(), status, "{what}");
    let body: ErrorBody = response.json().await.unwrap();
    assert_eq!(body.code, code, "{what}: {}", body.message);
    body.message
}

/// Plays `line` on `game` from the actions before it, and says how much of it was legal.
fn legal_part<G: Catalog>(
    game: &mut G,
    rng: &mut MatchRng,
    line: &[protocol::SeatAction],
) -> usize {
    line.iter()
        .take_while(|a| {
            let Ok(action) = game.parse_action(&a.action) else {
                return false;
            };
            let seat = Seat::new(usize::from(a.seat)).unwrap();
            game.play(seat, &action, rng).is_ok()
        })
        .count()
}

fn copenhagen() -> Tafl {
    Tafl::preset("copenhagen").unwrap()
}

/// A private hot-seat Copenhagen match that `host` plays to its end with the shortest recorded
/// game, and its invite code.
async fn finished_private_match(
    addr: SocketAddr,
    host: &Session,
) -> (MatchId, String, Vec<String>) {
    let mut h = Client::connect(addr, &host.token).await;
    let created = h
        .ok(|id| {
            create(
                id,
                "tafl",
                "copenhagen",
                json!({"hotseat": true, "visibility": "private"}),
            )
        })
        .await;
    let m = created.match_id.unwrap();
    let (line, _) = common::short_copenhagen_game();
    let moves: Vec<String> = line
        .iter()
        .map(|mv| mv.split('x').next().unwrap().to_string())
        .collect();
    for (i, mv) in moves.iter().enumerate() {
        h.ok(|id| act(id, m, (i % 2) as u8, mv)).await;
    }
    h.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
    (m, created.invite.unwrap(), moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_of_matches_lines_and_games_are_analysed_with_legal_lines() {
    let _alone = ONE_AT_A_TIME.lock().await;
    for backend in BACKENDS {
        let bound = BOUND_MS.to_string();
        let addr = start(&fresh_database(backend).await, &["--analysis-ms", &bound]).await;
        let (host, other) = (guest(addr).await, guest(addr).await);
        let (m, invite, moves) = finished_private_match(addr, &host).await;

        // A position of the finished match: the line is legal from it.
        let reply = analysed(addr, &host, json!({"match_id": m.0, "ply": 6})).await;
        assert_eq!(
            (reply.game.as_str(), reply.variant.as_str()),
            ("tafl", "copenhagen")
        );
        assert_eq!((reply.seat, reply.to_act.clone()), (0, vec![0]));
        assert!(
            !reply.line.is_empty() && reply.line[0].seat == 0,
            "{backend:?}: {:?}",
            reply.line
        );
        assert!(reply.nodes > 0 && reply.insights.is_some());
        let mut game = copenhagen();
        for mv in &moves[..6] {
            game.play_move(parse_move(mv, 11).unwrap().mv).unwrap();
        }
        let mut rng = MatchRng::from_seed(0);
        assert_eq!(
            legal_part(&mut game, &mut rng, &reply.line),
            reply.line.len()
        );
        // Its end: the game is over, and the score is its result for seat 0.
        let (_, winner) = common::short_copenhagen_game();
        let end = analysed(addr, &host, json!({"match_id": m.0})).await;
        assert!(end.to_act.is_empty() && end.line.is_empty());
        assert_eq!(end.score, if winner == 0 { 1.0 } else { 0.0 });
        // Private: another player sees nothing without the code, and the match with it.
        let hidden = analyse(addr, Some(&other.token), &json!({"match_id": m.0})).await;
        refused(hidden, 404, ErrorCode::NotFound, "a private match").await;
        analysed(
            addr,
            &other,
            json!({"match_id": m.0, "ply": 3, "invite": invite}),
        )
        .await;

        // A typed line from a variant's start, and every game's start.
        let typed = json!({"game": "tafl", "variant": "brandubh",
            "actions": [{"seat": 0, "action": "d6-f6"}, {"seat": 1, "action": "d5-e5"}]});
        let reply = analysed(addr, &host, typed).await;
        let mut game = Tafl::preset("brandubh").unwrap();
        for mv in ["d6-f6", "d5-e5"] {
            game.play_move(parse_move(mv, 7).unwrap().mv).unwrap();
        }
        assert_eq!(
            legal_part(&mut game, &mut rng, &reply.line),
            reply.line.len()
        );
        let games: Vec<Value> = common::get(addr, "/api/games")
            .await
            .as_array()
            .unwrap()
            .clone();
        for g in games {
            let id = g["id"].as_str().unwrap();
            let reply = analysed(addr, &host, json!({"game": id})).await;
            assert!(!reply.line.is_empty(), "{id}: no line");
            assert!(
                reply.to_act.contains(&reply.line[0].seat),
                "{id}: {:?}",
                reply.line
            );
        }
    }
}

/// Brandubh, the attackers to move: the king on a4 has open lines to the corners a7 and a1,
/// and one move shuts only one (and a route by g4 to g7); the defender on d2 stands between the attacker on c2 and e2,
/// which the attacker on e5 can reach; the attacker on f3 between the defender on g3 and e3,
/// which the defender on e1 can reach.
const FORK: &str = "
    # . . . . . #
    . . . . . . .
    . . . . A . .
    K . . . . . .
    . . . . . A D
    . . A D . . .
    # . . . D . #";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tafl_insights_name_the_escapes_and_the_threatened_pieces() {
    let _alone = ONE_AT_A_TIME.lock().await;
    for backend in BACKENDS {
        let bound = BOUND_MS.to_string();
        let addr = start(&fresh_database(backend).await, &["--analysis-ms", &bound]).await;
        let player = guest(addr).await;
        let position = print_position(&Layout::from_diagram(FORK).unwrap());
        let body =
            json!({"game": "tafl", "variant": "brandubh", "position": position, "to_move": 0});
        let reply = analysed(addr, &player, body).await;
        let insights = reply.insights.unwrap();
        let escapes: Vec<Vec<String>> =
            insights.escapes.iter().map(|r| r.actions.clone()).collect();
        // Both corners of the a-file, and g7 by the open fourth rank.
        let expected: Vec<Vec<String>> = [&["a4-a7"][..], &["a4-a1"], &["a4-g4", "g4-g7"]]
            .iter()
            .map(|route| route.iter().map(|a| a.to_string()).collect())
            .collect();
        assert_eq!(escapes, expected);
        assert!(insights.escapes.iter().all(|r| r.seat == 1));
        let threatened: Vec<(&str, u8, Vec<String>)> = insights
            .threatened
            .iter()
            .map(|t| (t.square.as_str(), t.seat, t.by.clone()))
            .collect();
        assert_eq!(
            threatened,
            vec![
                ("d2", 1, vec!["e5-e2".to_string()]),
                ("f3", 0, vec!["e1-e3".to_string()])
            ]
        );
        // Two escapes, one move to shut them: the attackers have lost, and the line says how.
        assert!(reply.score <= 0.1, "{backend:?}: {}", reply.score);
        let last = reply.line.last().unwrap();
        assert_eq!(last.seat, 1);
        assert!(
            ["a4-a7", "a4-a1"].contains(&last.action.as_str()),
            "{:?}",
            reply.line
        );
    }
}

/// The king's ways out are listed only while he can still move out: not once he stands on the
/// corner (the game won), nor when he cannot move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_ways_out_for_a_king_already_out_or_shut_in() {
    let addr = start(&fresh_database(common::Backend::Sqlite).await, &[]).await;
    let player = guest(addr).await;
    let escapes = |body: Value| {
        let token = player.token.clone();
        async move {
            let response = http()
                .post(format!("http://{addr}/api/analysis/position"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = response.status();
            let text = response.text().await.unwrap();
            assert_eq!(status, 200, "{text}");
            let reply: AnalysisPosition = serde_json::from_str(&text).unwrap();
            let insights = reply.insights.expect("tafl's insights");
            let escapes: Vec<Vec<String>> =
                insights.escapes.into_iter().map(|r| r.actions).collect();
            (reply.to_act, escapes)
        }
    };
    // The king on a2, the a-file open: out at once to a1, or to a7.
    let open = json!({"game": "tafl", "variant": "brandubh", "position": "/7/K6/7/7/6t/7/7/", "to_move": 1});
    let (to_act, ways) = escapes(open.clone()).await;
    assert_eq!(to_act, [1]);
    assert!(ways.contains(&vec!["a2-a1".to_string()]), "{ways:?}");
    // Out on a1: the game is won, and he has no way out to show.
    let mut out = open;
    out["actions"] = json!([{"seat": 1, "action": "a2-a1"}]);
    let (to_act, ways) = escapes(out).await;
    assert!(to_act.is_empty(), "the game is over");
    assert!(ways.is_empty(), "a king on the corner: {ways:?}");
    // Shut in by his own men: no move, no way out.
    let shut = json!({"game": "tafl", "variant": "brandubh", "position": "/1t5/7/3T3/2TKT2/3T3/7/7/", "to_move": 1});
    let (_, ways) = escapes(shut).await;
    assert!(ways.is_empty(), "a king who cannot move: {ways:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_costs_nothing() {
    let _alone = ONE_AT_A_TIME.lock().await;
    for backend in BACKENDS {
        // Two analyses a player may have; bad requests must not spend them.
        let addr = start(
            &fresh_database(backend).await,
            &[
                "--analysis-ms",
                "200",
                "--analyses-per-minute",
                "1",
                "--analysis-burst",
                "2",
            ],
        )
        .await;
        let player = guest(addr).await;
        let live = {
            let (a, b) = (guest(addr).await, guest(addr).await);
            let (mut a, mut b) = (
                Client::connect(addr, &a.token).await,
                Client::connect(addr, &b.token).await,
            );
            common::copenhagen_match(&mut a, &mut b, json!({})).await
        };
        // Brandubh: the attackers (seat 0) move first.
        let brandubh = |fields: Value| {
            let mut body = json!({"game": "tafl", "variant": "brandubh"});
            body.as_object_mut()
                .unwrap()
                .extend(fields.as_object().unwrap().clone());
            body
        };
        let two_moves = json!([{"seat": 0, "action": "d6-f6"}, {"seat": 0, "action": "f6-f5"}]);
        let bad = [
            (json!({"game": "chess"}), "there is no game 'chess'"),
            (json!({"game": "tafl", "variant": "copenhagn"}), "copenhagn"),
            (json!({"game": "tafl", "seats": 3}), "not 3"),
            (
                brandubh(json!({"actions": two_moves})),
                "action 2 (seat 0: f6-f5)",
            ),
            (
                brandubh(json!({"actions": [{"seat": 0, "action": "zz"}]})),
                "action 1",
            ),
            (
                brandubh(json!({"actions": [{"seat": 9, "action": "d6-f6"}]})),
                "no seat 9",
            ),
            (
                brandubh(json!({"position": "/3t3/xyz/", "to_move": 0})),
                "position",
            ),
            (
                brandubh(json!({"position": "/7/7/7/7/7/7/7/", "to_move": 0})),
                "0 kings",
            ),
            (brandubh(json!({"position": "/11/", "to_move": 5})), "not 5"),
            (
                json!({"game": "hanoi", "position": "x", "to_move": 0}),
                "no position notation",
            ),
            (brandubh(json!({"seat": 1})), "seat 1 need not act"),
            (brandubh(json!({"seat": 7})), "no seat 7"),
            (json!({"match_id": 1, "game": "tafl"}), "leave out game"),
            (json!({"game": "tafl", "ply": 3}), "ply"),
            (json!({"variant": "brandubh"}), "name the game"),
            (json!({"game": "tafl", "depth": 3}), "unknown field"),
        ];
        for (body, expected) in bad {
            let response = analyse(addr, Some(&player.token), &body).await;
            let message = refused(response, 400, ErrorCode::BadRequest, &body.to_string()).await;
            assert!(message.contains(expected), "{body}: {message}");
        }
        let playing = analyse(addr, Some(&player.token), &json!({"match_id": live.0})).await;
        let message = refused(playing, 409, ErrorCode::Conflict, "a live match").await;
        assert!(message.contains("being played"), "{message}");
        let not_json = http()
            .post(format!("http://{addr}/api/analysis"))
            .bearer_auth(&player.token)
            .header("content-type", "application/json")
            .body("{nope")
            .send()
            .await
            .unwrap();
        refused(not_json, 400, ErrorCode::Malformed, "not JSON").await;
        let nobody = analyse(addr, None, &json!({"game": "tafl"})).await;
        refused(nobody, 401, ErrorCode::Unauthorized, "no session").await;
        let missing = analyse(addr, Some(&player.token), &json!({"match_id": 999999})).await;
        refused(missing, 404, ErrorCode::NotFound, "no such match").await;
        // Nothing was spent: both analyses of the burst are still there.
        for _ in 0..2 {
            analysed(addr, &player, json!({"game": "fox-geese"})).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_are_rate_limited_per_player() {
    let _alone = ONE_AT_A_TIME.lock().await;
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &[
                "--analysis-ms",
                "100",
                "--analyses-per-minute",
                "1",
                "--analysis-burst",
                "2",
            ],
        )
        .await;
        let (player, other) = (guest(addr).await, guest(addr).await);
        let body = json!({"game": "tafl", "variant": "brandubh"});
        for _ in 0..2 {
            analysed(addr, &player, body.clone()).await;
        }
        let response = analyse(addr, Some(&player.token), &body).await;
        let retry: u64 = common::header(&response, "retry-after").parse().unwrap();
        assert!(
            (1..=60).contains(&retry),
            "{backend:?}: Retry-After {retry}"
        );
        refused(response, 429, ErrorCode::RateLimited, "the third analysis").await;
        // Per player: another one is not held up.
        analysed(addr, &other, body).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_keep_their_bound_and_a_live_match_never_waits_behind_them() {
    let _alone = ONE_AT_A_TIME.lock().await;
    const BOUND: u64 = 1500;
    const MOVES: usize = 8;
    for backend in BACKENDS {
        // Three AI threads: two for analyses, one always left to live games.
        let bound = BOUND.to_string();
        let addr = start(
            &fresh_database(backend).await,
            &[
                "--ai-threads",
                "3",
                "--analysis-ms",
                &bound,
                "--analysis-nodes",
                "1000000000",
            ],
        )
        .await;
        // The live match is set up first, then the analyses start, then its moves are played.
        let (a, b) = (guest(addr).await, guest(addr).await);
        let (mut a, mut b) = (
            Client::connect(addr, &a.token).await,
            Client::connect(addr, &b.token).await,
        );
        let m = common::copenhagen_match(&mut a, &mut b, json!({})).await;
        let analysts = [guest(addr).await, guest(addr).await];
        let searches: Vec<_> = analysts
            .into_iter()
            .map(|player| {
                tokio::spawn(async move {
                    analysed(
                        addr,
                        &player,
                        json!({"game": "tafl", "variant": "copenhagen"}),
                    )
                    .await
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (line, _) = common::short_copenhagen_game();
        let mut slowest = Duration::ZERO;
        for (i, mv) in line.iter().take(MOVES).enumerate() {
            let (player, seat) = if i % 2 == 0 { (&mut a, 0) } else { (&mut b, 1) };
            let sent = Instant::now();
            player
                .ok(|id| act(id, m, seat, mv.split('x').next().unwrap()))
                .await;
            slowest = slowest.max(sent.elapsed());
        }
        let busy = searches.iter().filter(|s| !s.is_finished()).count();
        assert_eq!(
            busy, 2,
            "{backend:?}: an analysis ended before the live moves were acked"
        );
        for search in searches {
            let reply = search.await.unwrap();
            // The clock, not the node bound, ended it: it ran at its bound and kept to it.
            assert!(
                reply.nodes < reply.node_bound && reply.elapsed_ms >= BOUND - 100,
                "{backend:?}: {reply:?}"
            );
            println!(
                "{backend:?}: an analysis of {} nodes in {} ms",
                reply.nodes, reply.elapsed_ms
            );
        }
        println!("{backend:?}: the slowest of {MOVES} live moves was acked in {slowest:?}");
    }
}

/// An analysis board's position between evaluations: the view, the seats to act, the legal
/// actions of the seat asked for (exactly the engine's), and tafl's insights, without a search;
/// asked for far more often than analyses are allowed, it is never refused, and bad input is
/// refused as for an analysis.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_comes_without_a_search_and_costs_no_analyses() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--analyses-per-minute", "1", "--analysis-burst", "1"],
        )
        .await;
        let player = guest(addr).await;
        let position = |body: Value| {
            http()
                .post(format!("http://{addr}/api/analysis/position"))
                .bearer_auth(&player.token)
                .json(&body)
                .send()
        };
        let body = json!({
            "game": "tafl", "variant": "brandubh",
            "position": "/4T2/2tT3/5tT/K6/4t2/7/7/", "to_move": 0,
        });
        for _ in 0..5 {
            let response = position(body.clone()).await.unwrap();
            assert_eq!(response.status(), 200, "{backend:?}");
            let reply: AnalysisPosition = response.json().await.unwrap();
            assert_eq!(reply.to_act, [0]);
            let mut legal = reply.legal.clone();
            legal.sort();
            assert!(legal.contains(&"e5-e2".to_string()), "{legal:?}");
            assert!(
                !legal.iter().any(|a| a.starts_with("a4")),
                "the king is not the attackers'"
            );
            assert_eq!(reply.view["position"], json!("/4T2/2tT3/5tT/K6/4t2/7/7/"));
            let insights = reply.insights.expect("tafl's insights");
            assert!(insights.threatened.iter().any(|t| t.square == "d2"));
        }
        // Played on: the other side's legal actions.
        let reply: AnalysisPosition = position(json!({
            "game": "tafl", "variant": "brandubh",
            "position": "/4T2/2tT3/5tT/K6/4t2/7/7/", "to_move": 0,
            "actions": [{"seat": 0, "action": "e5-e2"}],
        }))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        assert_eq!((reply.to_act, reply.seat), (vec![1], 1));
        assert!(
            reply.legal.contains(&"a4-a7".to_string()),
            "{:?}",
            reply.legal
        );
        let response =
            position(json!({"game": "tafl", "actions": [{"seat": 1, "action": "a1-a2"}]}))
                .await
                .unwrap();
        refused(
            response,
            400,
            ErrorCode::BadRequest,
            "a defender's move first",
        )
        .await;
        // The one analysis allowed is still there.
        analysed(
            addr,
            &player,
            json!({"game": "tafl", "variant": "brandubh"}),
        )
        .await;
    }
}

/// More analyses at once than there are threads for them: each request either gets a thread
/// within its bound and is answered with a search of its whole bound, or is refused as busy
/// (`429 rate_limited` with `Retry-After`); never a search cut to a few hundred nodes because
/// the thread came at the end of the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_gets_no_thread_in_its_bound_is_refused_and_one_that_does_searches() {
    let _alone = ONE_AT_A_TIME.lock().await;
    const BOUND: u64 = 1000;
    const REQUESTS: usize = 6;
    // A search of its whole bound does about a million nodes here, and more than this on a
    // busy machine; one that got its thread at the end of its wait stops at its first look at
    // the clock, 256 nodes in.
    const REAL_SEARCH: u64 = 100_000;
    for backend in BACKENDS {
        // Two AI threads: one for analyses, one left to live games.
        let bound = BOUND.to_string();
        let addr = start(
            &fresh_database(backend).await,
            &[
                "--ai-threads",
                "2",
                "--analysis-ms",
                &bound,
                "--analysis-nodes",
                "1000000000",
            ],
        )
        .await;
        let mut players = Vec::new();
        for _ in 0..REQUESTS {
            players.push(guest(addr).await);
        }
        let requests: Vec<_> = players
            .into_iter()
            .map(|player| {
                tokio::spawn(async move {
                    let body = json!({"game": "tafl", "variant": "copenhagen"});
                    analyse(addr, Some(&player.token), &body).await
                })
            })
            .collect();
        let (mut answered, mut busy) = (0, 0);
        for request in requests {
            let response = request.await.unwrap();
            if response.status() == 429 {
                let retry: u64 = common::header(&response, "retry-after").parse().unwrap();
                assert!(
                    (1..=60).contains(&retry),
                    "{backend:?}: Retry-After {retry}"
                );
                refused(response, 429, ErrorCode::RateLimited, "a busy analysis").await;
                busy += 1;
                continue;
            }
            assert_eq!(response.status(), 200, "{backend:?}");
            let reply: AnalysisReply = response.json().await.unwrap();
            println!(
                "{backend:?}: an analysis of {} nodes in {} ms",
                reply.nodes, reply.elapsed_ms
            );
            assert!(
                reply.nodes >= REAL_SEARCH,
                "{backend:?}: an answer from a search cut short: {reply:?}"
            );
            answered += 1;
        }
        // One thread, one bound: the first request is answered, and at most one more can have
        // its thread within its bound.
        assert!(
            (1..=2).contains(&answered) && busy == REQUESTS - answered,
            "{backend:?}: {answered} answered, {busy} busy"
        );
    }
}

/// A position searches nothing, so a visitor gets one without a session (lessons play through
/// it), so many from one address: past the burst, `rate_limited` with `Retry-After`; a player's
/// session is not counted against the address, and a search still needs a session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_gets_positions_without_a_session_so_many_a_minute() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &[
                "--visitor-positions-per-minute",
                "1",
                "--visitor-position-burst",
                "3",
            ],
        )
        .await;
        let ask = |token: Option<String>| async move {
            let mut request = http()
                .post(format!("http://{addr}/api/analysis/position"))
                .json(&json!({"game": "tafl", "variant": "brandubh",
                    "actions": [{"seat": 0, "action": "d6-f6"}]}));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            request.send().await.unwrap()
        };
        for _ in 0..3 {
            let response = ask(None).await;
            assert_eq!(response.status(), 200, "{backend:?}");
            let reply: AnalysisPosition = response.json().await.unwrap();
            assert_eq!(reply.to_act, [1], "{backend:?}");
            assert!(!reply.legal.is_empty(), "{backend:?}");
        }
        let response = ask(None).await;
        let retry: u64 = common::header(&response, "retry-after").parse().unwrap();
        assert!(retry >= 1, "{backend:?}: Retry-After {retry}");
        let body: ErrorBody = response.json().await.unwrap();
        assert_eq!(body.code, ErrorCode::RateLimited, "{backend:?}");
        assert!(
            matches!(body.reason, protocol::ErrorReason::RateLimited { .. }),
            "{backend:?}: {:?}",
            body.reason
        );
        let player = guest(addr).await;
        let response = ask(Some(player.token.clone())).await;
        assert_eq!(
            response.status(),
            200,
            "{backend:?}: a player is not limited by address"
        );
        let search = analyse(addr, None, &json!({"game": "tafl"})).await;
        refused(
            search,
            401,
            ErrorCode::Unauthorized,
            "a search without a session",
        )
        .await;
    }
}
