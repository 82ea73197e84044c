//! Rematches and challenges over real sockets, on both backends: a rematch accepted (sides
//! swapped, seats rotated for three, the same options), declined, and lapsed when a player
//! leaves; a challenge accepted, declined, withdrawn and expired, told on every socket of both
//! players and to a socket that says hello later, and kept over a server restart; challenge
//! settings and follows honoured; the rate limit; and bad input refused with nothing changed.

mod common;

use std::net::SocketAddr;

use common::{BACKENDS, Client, PATIENCE, fresh_database, start};
use protocol::{
    Ack, ChallengeEnd, ChallengeId, ChallengeSpec, ClientMessage, ClockSpec, CommandId, ErrorCode,
    MatchEvent, MatchId, PlayerId, ServerMessage, Session,
};
use serde_json::{Value, json};

const CLOCK: ClockSpec = ClockSpec {
    base_ms: 300_000,
    increment_ms: 3_000,
    per_move: false,
};

fn offer(id: CommandId, match_id: MatchId) -> ClientMessage {
    ClientMessage::OfferRematch { id, match_id }
}

fn answer(id: CommandId, match_id: MatchId, accept: bool) -> ClientMessage {
    ClientMessage::AnswerRematch {
        id,
        match_id,
        accept,
    }
}

/// A Brandubh challenge to `player`, the challenger in `seat`, rated, on a 5+3 clock.
fn challenge(id: CommandId, player: PlayerId, seat: u8) -> ClientMessage {
    ClientMessage::Challenge {
        id,
        spec: ChallengeSpec {
            player,
            game: "tafl".into(),
            variant: Some("brandubh".into()),
            seat: Some(seat),
            clock: Some(CLOCK),
            rated: true,
            two_games: false,
            takebacks: false,
        },
    }
}

fn answer_challenge(id: CommandId, challenge_id: ChallengeId, accept: bool) -> ClientMessage {
    ClientMessage::AnswerChallenge {
        id,
        challenge_id,
        accept,
    }
}

fn withdraw(id: CommandId, challenge_id: ChallengeId) -> ClientMessage {
    ClientMessage::WithdrawChallenge { id, challenge_id }
}

/// Waits for the finished event of a match.
async fn until_finished(c: &mut Client, m: MatchId) {
    c.event_where(m, |e| matches!(e, MatchEvent::Finished { .. }))
        .await;
}

/// `a` (seat 0) and `b` (seat 1) play a Brandubh match with these options, one move each, and
/// `a` resigns: a finished match both follow.
async fn finished_brandubh(a: &mut Client, b: &mut Client, options: Value) -> MatchId {
    let m = a
        .ok(|id| common::create(id, "tafl", "brandubh", options))
        .await
        .match_id
        .unwrap();
    b.ok(|id| common::join(id, m)).await;
    a.ok(|id| common::act(id, m, 0, "d1-c1")).await;
    b.ok(|id| common::act(id, m, 1, "d3-b3")).await;
    a.ok(|id| ClientMessage::Resign {
        id,
        match_id: m,
        seat: 0,
    })
    .await;
    until_finished(a, m).await;
    until_finished(b, m).await;
    m
}

/// The match's record, as anyone sees it.
async fn summary(addr: SocketAddr, m: MatchId) -> Value {
    common::get(addr, &format!("/api/matches/{}", m.0)).await["summary"].clone()
}

fn ids(summary: &Value) -> Vec<i64> {
    summary["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

/// Sends a ping and returns every message that came before its pong: what the socket was sent
/// up to now.
async fn drain(c: &mut Client) -> Vec<ServerMessage> {
    c.send(&ClientMessage::Ping { nonce: 77 }).await;
    let mut got = std::mem::take(&mut c.pending);
    loop {
        match c.next().await {
            ServerMessage::Pong { nonce: 77 } => return got,
            other => got.push(other),
        }
    }
}

async fn put_settings(addr: SocketAddr, who: &Session, challenges: &str) {
    let response = common::http()
        .put(format!("http://{addr}/api/settings"))
        .bearer_auth(&who.token)
        .json(&json!({"challenges": challenges}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"challenges": challenges})
    );
}

/// Follows (`true`) or stops following a player; the HTTP status.
async fn set_follow(addr: SocketAddr, who: &Session, whom: PlayerId, on: bool) -> u16 {
    let url = format!("http://{addr}/api/players/{}/follow", whom.0);
    let request = match on {
        true => common::http().post(url),
        false => common::http().delete(url),
    };
    request
        .bearer_auth(&who.token)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn challenge_id(ack: &Ack) -> ChallengeId {
    ack.challenge_id.expect("a challenge is acked with its id")
}

async fn open_challenge(c: &mut Client) -> protocol::Challenge {
    match c
        .message_where(|m| matches!(m, ServerMessage::ChallengeOpen { .. }))
        .await
    {
        ServerMessage::ChallengeOpen { challenge } => challenge,
        _ => unreachable!(),
    }
}

async fn challenge_ended(c: &mut Client) -> (ChallengeId, ChallengeEnd, Option<MatchId>) {
    match c
        .message_where(|m| matches!(m, ServerMessage::ChallengeEnded { .. }))
        .await
    {
        ServerMessage::ChallengeEnded {
            challenge_id,
            reason,
            match_id,
        } => (challenge_id, reason, match_id),
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_accepted_swaps_the_sides_and_keeps_the_options() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = common::two_players(addr).await;
        let options = json!({"rated": true, "clock": CLOCK});
        let m = finished_brandubh(&mut a, &mut b, options).await;
        let before = summary(addr, m).await;

        // An offer before the end, by a spectator and by a visitor is refused.
        let spectator = common::new_player(addr).await;
        let mut s = Client::connect(addr, &spectator.token).await;
        s.ok(|id| common::watch(id, m, None)).await;
        s.refused(ErrorCode::Forbidden, |id| offer(id, m)).await;
        let mut v = Client::visit(addr).await;
        v.refused(ErrorCode::Unauthorized, |id| offer(id, m)).await;
        b.refused(ErrorCode::Conflict, |id| answer(id, m, true))
            .await;

        let offered = a.ok(|id| offer(id, m)).await;
        assert_eq!(offered.match_id, Some(m));
        for c in [&mut a, &mut b, &mut s] {
            let told = c
                .message_where(|m| matches!(m, ServerMessage::RematchOffered { .. }))
                .await;
            assert_eq!(
                told,
                ServerMessage::RematchOffered {
                    match_id: m,
                    agreed: vec![0]
                },
                "{backend:?}"
            );
        }
        a.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        // A socket that comes to the page meanwhile learns of the offer.
        let mut b2 = Client::connect(addr, &bjorn.token).await;
        b2.ok(|id| common::watch(id, m, None)).await;
        b2.message_where(|m| matches!(m, ServerMessage::RematchOffered { .. }))
            .await;

        let accepted = b.ok(|id| answer(id, m, true)).await;
        let rematch = accepted.match_id.unwrap();
        assert_ne!(rematch, m);
        assert_eq!(accepted.seats, vec![0], "bjorn moves to seat 0");
        for c in [&mut a, &mut b, &mut s] {
            let started = c
                .message_where(|m| matches!(m, ServerMessage::RematchStarted { .. }))
                .await;
            assert_eq!(
                started,
                ServerMessage::RematchStarted {
                    match_id: m,
                    rematch,
                    invite: None,
                }
            );
        }
        let after = summary(addr, rematch).await;
        assert_eq!(ids(&before), [alice.player.id.0, bjorn.player.id.0]);
        assert_eq!(ids(&after), [bjorn.player.id.0, alice.player.id.0]);
        for field in ["game", "variant", "rated", "clock"] {
            assert_eq!(after[field], before[field], "{field}");
        }
        assert_eq!(after["status"], "live", "every player is seated: it starts");
        // One rematch per match.
        a.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        // Both play it: bjorn has the attackers now.
        b.ok(|id| common::watch(id, rematch, None)).await;
        b.ok(|id| common::act(id, rematch, 0, "d1-c1")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_of_three_moves_everyone_on_one_seat_and_the_ai_agrees_at_once() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let players = [
            common::new_player(addr).await,
            common::new_player(addr).await,
            common::new_player(addr).await,
        ];
        let mut c = Vec::new();
        for p in &players {
            c.push(Client::connect(addr, &p.token).await);
        }
        let m = c[0]
            .ok(|id| common::create(id, "hanoi", "standard", json!({"seats": 3})))
            .await
            .match_id
            .unwrap();
        c[1].ok(|id| common::join(id, m)).await;
        c[2].ok(|id| common::join(id, m)).await;
        c[2].ok(|id| ClientMessage::Abort {
            id,
            match_id: m,
            seat: 2,
        })
        .await;
        until_finished(&mut c[0], m).await;

        c[1].ok(|id| offer(id, m)).await;
        let told = c[0]
            .message_where(|m| matches!(m, ServerMessage::RematchOffered { .. }))
            .await;
        assert!(matches!(told, ServerMessage::RematchOffered { agreed, .. } if agreed == [1]));
        c[2].ok(|id| answer(id, m, true)).await;
        let told = c[0]
            .message_where(
                |m| matches!(m, ServerMessage::RematchOffered { agreed, .. } if agreed.len() == 2),
            )
            .await;
        assert!(matches!(told, ServerMessage::RematchOffered { agreed, .. } if agreed == [1, 2]));
        let done = c[0].ok(|id| offer(id, m)).await;
        assert_eq!(done.seats, vec![1], "seat 0 moves to seat 1");
        let after = summary(addr, done.match_id.unwrap()).await;
        let expected: Vec<i64> = [2, 0, 1].map(|i| players[i].player.id.0).to_vec();
        assert_eq!(ids(&after), expected, "{backend:?}");
        assert_eq!(after["variant"], "standard");

        // Against the AI, the player's offer is the rematch: the sides swapped at once.
        let solo = &mut c[0];
        let ai_match = solo
            .ok(|id| common::play_ai(id, "brandubh", 1, 0))
            .await
            .match_id
            .unwrap();
        solo.ok(|id| ClientMessage::Abort {
            id,
            match_id: ai_match,
            seat: 0,
        })
        .await;
        until_finished(solo, ai_match).await;
        let again = solo.ok(|id| offer(id, ai_match)).await;
        assert_eq!(again.seats, vec![1]);
        let after = summary(addr, again.match_id.unwrap()).await;
        assert_eq!(after["players"][0]["name"], "ai-level-1");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_declined_or_left_behind_is_gone() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--disconnect-grace-secs", "1"],
        )
        .await;
        let (_, bjorn, mut a, mut b) = common::two_players(addr).await;
        let m = finished_brandubh(&mut a, &mut b, json!({})).await;

        // Declined.
        a.ok(|id| offer(id, m)).await;
        b.ok(|id| answer(id, m, false)).await;
        for c in [&mut a, &mut b] {
            let told = c
                .message_where(|m| matches!(m, ServerMessage::RematchDeclined { .. }))
                .await;
            assert_eq!(
                told,
                ServerMessage::RematchDeclined {
                    match_id: m,
                    seat: 1
                }
            );
        }
        b.refused(ErrorCode::Conflict, |id| answer(id, m, true))
            .await;

        // Taken back by its offerer.
        b.ok(|id| offer(id, m)).await;
        b.ok(|id| answer(id, m, false)).await;
        let told = a
            .message_where(|m| matches!(m, ServerMessage::RematchDeclined { seat: 1, .. }))
            .await;
        assert!(matches!(told, ServerMessage::RematchDeclined { .. }));

        // Lapsed: bjorn leaves the page.
        let m = finished_brandubh(&mut a, &mut b, json!({})).await;
        a.ok(|id| offer(id, m)).await;
        b.ok(|id| ClientMessage::Unwatch { id, match_id: m }).await;
        let told = a
            .message_where(|m| matches!(m, ServerMessage::RematchLapsed { .. }))
            .await;
        assert_eq!(
            told,
            ServerMessage::RematchLapsed {
                match_id: m,
                seat: 1
            }
        );
        let why = a.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        assert!(why.contains("has left"), "{why}");

        // Lapsed: bjorn's socket closes and he is not back within the grace period.
        b.ok(|id| common::watch(id, m, None)).await;
        b.ok(|id| offer(id, m)).await;
        b.close().await;
        let lapsed = tokio::time::timeout(
            PATIENCE,
            a.message_where(|m| matches!(m, ServerMessage::RematchLapsed { .. })),
        )
        .await
        .expect("the offer lapses after the grace period");
        assert!(matches!(
            lapsed,
            ServerMessage::RematchLapsed { seat: 1, .. }
        ));

        // A reload within the grace period keeps it.
        let mut b = Client::connect(addr, &bjorn.token).await;
        let m = finished_brandubh(&mut a, &mut b, json!({})).await;
        a.ok(|id| offer(id, m)).await;
        b.close().await;
        let mut b = Client::connect(addr, &bjorn.token).await;
        b.ok(|id| common::watch(id, m, None)).await;
        b.message_where(|m| matches!(m, ServerMessage::RematchOffered { .. }))
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let accepted = b.ok(|id| answer(id, m, true)).await;
        assert_eq!(accepted.seats, vec![0], "{backend:?}");
    }
}

/// A player offers a rematch once per finished match, whatever came of the offer (declined,
/// taken back, or lapsed when its offerer left the page and came back): offering and declining
/// cannot go round and round, each time a message to every follower.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_player_offers_a_rematch_once() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = common::two_players(addr).await;
        let m = finished_brandubh(&mut a, &mut b, json!({})).await;

        a.ok(|id| offer(id, m)).await;
        b.ok(|id| answer(id, m, false)).await;
        let why = a.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        assert!(why.contains("once"), "{backend:?}: {why}");
        // Bjorn's own offer is his to make, and taking it back spends it.
        b.ok(|id| offer(id, m)).await;
        b.ok(|id| answer(id, m, false)).await;
        b.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        // The refusals told nobody anything: two offers and two declines reached the page.
        let told = drain(&mut a).await;
        let offers = told
            .iter()
            .filter(|m| matches!(m, ServerMessage::RematchOffered { .. }))
            .count();
        let declines = told
            .iter()
            .filter(|m| matches!(m, ServerMessage::RematchDeclined { .. }))
            .count();
        assert_eq!((offers, declines), (2, 2), "{backend:?}: {told:?}");

        // Leaving the page and coming back does not renew an offer.
        let m = finished_brandubh(&mut a, &mut b, json!({})).await;
        a.ok(|id| offer(id, m)).await;
        a.ok(|id| ClientMessage::Unwatch { id, match_id: m }).await;
        b.message_where(|m| matches!(m, ServerMessage::RematchLapsed { seat: 0, .. }))
            .await;
        a.ok(|id| common::watch(id, m, None)).await;
        let why = a.refused(ErrorCode::Conflict, |id| offer(id, m)).await;
        assert!(why.contains("once"), "{backend:?}: {why}");
        // Bjorn's offer, accepted, is the rematch.
        b.ok(|id| offer(id, m)).await;
        let accepted = a.ok(|id| answer(id, m, true)).await;
        assert_ne!(accepted.match_id, Some(m), "{backend:?}");
    }
}

/// The rematch of a private match is private too, with a code of its own: its players are
/// given it (in the last agreement's ack and in `rematch_started`), to pass on to whom they
/// like; a spectator who had the first match's code is told of the rematch without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_matchs_rematch_gives_its_players_its_invite_code() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, _, mut a, mut b) = common::two_players(addr).await;
        let private = json!({"visibility": "private"});
        let created = a
            .ok(|id| common::create(id, "tafl", "brandubh", private))
            .await;
        let (m, code) = (created.match_id.unwrap(), created.invite.unwrap());
        b.ok(|id| common::join_with_invite(id, &code)).await;
        let mut s = Client::connect(addr, &common::new_player(addr).await.token).await;
        let watch_with = |match_id, invite: &str| {
            let invite = Some(invite.to_string());
            move |id| ClientMessage::Watch {
                id,
                match_id,
                since: None,
                invite,
            }
        };
        s.ok(watch_with(m, &code)).await;
        a.ok(|id| common::act(id, m, 0, "d1-c1")).await;
        b.ok(|id| common::act(id, m, 1, "d3-b3")).await;
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 0,
        })
        .await;
        until_finished(&mut b, m).await;

        a.ok(|id| offer(id, m)).await;
        let accepted = b.ok(|id| answer(id, m, true)).await;
        let rematch = accepted.match_id.unwrap();
        let invite = accepted.invite.expect("the rematch's code in the ack");
        assert_ne!(invite, code, "{backend:?}");
        for c in [&mut a, &mut b] {
            let started = c
                .message_where(|m| matches!(m, ServerMessage::RematchStarted { .. }))
                .await;
            assert_eq!(
                started,
                ServerMessage::RematchStarted {
                    match_id: m,
                    rematch,
                    invite: Some(invite.clone()),
                },
                "{backend:?}"
            );
        }
        let started = s
            .message_where(|m| matches!(m, ServerMessage::RematchStarted { .. }))
            .await;
        assert_eq!(
            started,
            ServerMessage::RematchStarted {
                match_id: m,
                rematch,
                invite: None,
            }
        );
        // The code is the rematch's: without it the spectator finds nothing, with it the match.
        s.refused(ErrorCode::NotFound, |id| common::watch(id, rematch, None))
            .await;
        s.refused(ErrorCode::NotFound, watch_with(rematch, &code))
            .await;
        s.ok(watch_with(rematch, &invite)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_told_everywhere_and_accepted_opens_the_match() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, mut b) = common::two_players(addr).await;
        let mut b2 = Client::connect(addr, &bjorn.token).await;
        let made = a.ok(|id| challenge(id, bjorn.player.id, 1)).await;
        let c = challenge_id(&made);
        for socket in [&mut a, &mut b, &mut b2] {
            let open = open_challenge(socket).await;
            assert_eq!(open.id, c);
            assert_eq!(open.from, alice.player);
            assert_eq!(open.to, bjorn.player);
            assert_eq!(
                (open.game.as_str(), open.variant.as_str()),
                ("tafl", "brandubh")
            );
            assert_eq!((open.seat, open.rated, open.clock), (1, true, Some(CLOCK)));
        }
        // A socket that says hello later is told of it too.
        let mut b3 = Client::connect(addr, &bjorn.token).await;
        assert_eq!(open_challenge(&mut b3).await.id, c);
        // Only bjorn answers; alice may only withdraw.
        a.refused(ErrorCode::Forbidden, |id| answer_challenge(id, c, true))
            .await;
        b.refused(ErrorCode::Forbidden, |id| withdraw(id, c)).await;

        let accepted = b.ok(|id| answer_challenge(id, c, true)).await;
        let m = accepted.match_id.unwrap();
        assert_eq!(accepted.seats, vec![0]);
        for socket in [&mut a, &mut b, &mut b2, &mut b3] {
            assert_eq!(
                challenge_ended(socket).await,
                (c, ChallengeEnd::Accepted, Some(m)),
                "{backend:?}"
            );
        }
        let match_summary = summary(addr, m).await;
        assert_eq!(ids(&match_summary), [bjorn.player.id.0, alice.player.id.0]);
        assert_eq!(match_summary["rated"], true);
        assert_eq!(match_summary["status"], "live");
        assert_eq!(match_summary["clock"], json!(CLOCK));
        b.refused(ErrorCode::NotFound, |id| answer_challenge(id, c, true))
            .await;
        b.ok(|id| common::watch(id, m, None)).await;
        b.ok(|id| common::act(id, m, 0, "d1-c1")).await;
        // Nothing stands any more: a new socket is told of nothing.
        let mut b4 = Client::connect(addr, &bjorn.token).await;
        let told = drain(&mut b4).await;
        assert!(
            !told
                .iter()
                .any(|m| matches!(m, ServerMessage::ChallengeOpen { .. })),
            "{told:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_challenge_is_stored_and_played_days_a_move() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (_, bjorn, mut a, mut b) = common::two_players(addr).await;
        let days = ClockSpec {
            base_ms: 3 * protocol::DAY_MS,
            increment_ms: 0,
            per_move: true,
        };
        let c = challenge_id(
            &a.ok(|id| match challenge(id, bjorn.player.id, 1) {
                ClientMessage::Challenge { id, mut spec } => {
                    spec.clock = Some(days);
                    ClientMessage::Challenge { id, spec }
                }
                other => other,
            })
            .await,
        );
        assert_eq!(
            open_challenge(&mut b).await.clock,
            Some(days),
            "{backend:?}"
        );
        let accepted = b.ok(|id| answer_challenge(id, c, true)).await;
        let m = accepted.match_id.unwrap();
        assert_eq!(summary(addr, m).await["clock"], json!(days), "{backend:?}");
        // bjorn moves first, and is told so wherever he is.
        let told = drain(&mut b).await;
        assert!(
            told.iter()
                .any(|t| matches!(t, ServerMessage::YourMove { match_id, .. } if *match_id == m)),
            "{backend:?}: {told:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_declined_withdrawn_or_unanswered_ends_for_both() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--challenge-secs", "1"]).await;
        let (_, bjorn, mut a, mut b) = common::two_players(addr).await;
        let ended = async |a: &mut Client, b: &mut Client, c: ChallengeId, reason: ChallengeEnd| {
            for socket in [a, b] {
                assert_eq!(
                    challenge_ended(socket).await,
                    (c, reason, None),
                    "{backend:?}"
                );
            }
        };

        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 0)).await);
        b.ok(|id| answer_challenge(id, c, false)).await;
        ended(&mut a, &mut b, c, ChallengeEnd::Declined).await;

        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 0)).await);
        a.ok(|id| withdraw(id, c)).await;
        ended(&mut a, &mut b, c, ChallengeEnd::Withdrawn).await;

        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 0)).await);
        ended(&mut a, &mut b, c, ChallengeEnd::Expired).await;
        b.refused(ErrorCode::NotFound, |id| answer_challenge(id, c, true))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_go_only_where_the_player_takes_them() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let (alice, bjorn, mut a, _b) = common::two_players(addr).await;
        let profile = async |p: PlayerId| common::get(addr, &format!("/api/players/{}", p.0)).await;
        assert_eq!(profile(bjorn.player.id).await["challenges"], "everyone");

        put_settings(addr, &bjorn, "nobody").await;
        assert_eq!(profile(bjorn.player.id).await["challenges"], "nobody");
        let why = a
            .refused(ErrorCode::Forbidden, |id| challenge(id, bjorn.player.id, 0))
            .await;
        assert!(why.contains("takes no challenges"), "{why}");

        put_settings(addr, &bjorn, "followed").await;
        a.refused(ErrorCode::Forbidden, |id| challenge(id, bjorn.player.id, 0))
            .await;
        assert_eq!(set_follow(addr, &bjorn, alice.player.id, true).await, 204);
        assert_eq!(set_follow(addr, &bjorn, alice.player.id, true).await, 204);
        let follows =
            common::get(addr, &format!("/api/players/{}/follows", bjorn.player.id.0)).await;
        assert_eq!(follows, json!([alice.player]));
        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 0)).await);
        a.ok(|id| withdraw(id, c)).await;

        assert_eq!(set_follow(addr, &bjorn, alice.player.id, false).await, 204);
        let follows =
            common::get(addr, &format!("/api/players/{}/follows", bjorn.player.id.0)).await;
        assert_eq!(follows, json!([]));
        a.refused(ErrorCode::Forbidden, |id| challenge(id, bjorn.player.id, 0))
            .await;

        // Following: yourself, nobody, or without a session.
        assert_eq!(set_follow(addr, &bjorn, bjorn.player.id, true).await, 400);
        assert_eq!(set_follow(addr, &bjorn, PlayerId(999_999), true).await, 404);
        let anonymous = common::http()
            .post(format!(
                "http://{addr}/api/players/{}/follow",
                alice.player.id.0
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(anonymous.status(), 401, "{backend:?}");
        let settings = common::http()
            .put(format!("http://{addr}/api/settings"))
            .bearer_auth(&bjorn.token)
            .json(&json!({"challenges": "friends"}))
            .send()
            .await
            .unwrap();
        assert_eq!(settings.status(), 400);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_rate_limited_and_bad_ones_change_nothing() {
    for backend in BACKENDS {
        let addr = start(
            &fresh_database(backend).await,
            &["--challenges-per-minute", "1", "--challenge-burst", "2"],
        )
        .await;
        let (alice, bjorn, mut a, mut b) = common::two_players(addr).await;
        let to = bjorn.player.id;
        let with = |change: fn(&mut ChallengeSpec)| {
            move |id| {
                let mut spec = ChallengeSpec {
                    player: to,
                    game: "tafl".into(),
                    variant: Some("brandubh".into()),
                    seat: None,
                    clock: None,
                    rated: false,
                    two_games: false,
                    takebacks: false,
                };
                change(&mut spec);
                ClientMessage::Challenge { id, spec }
            }
        };
        a.refused(ErrorCode::BadRequest, with(|s| s.game = "chess".into()))
            .await;
        a.refused(
            ErrorCode::BadRequest,
            with(|s| s.variant = Some("brandub".into())),
        )
        .await;
        a.refused(ErrorCode::BadRequest, with(|s| s.game = "tron".into()))
            .await;
        a.refused(ErrorCode::BadRequest, with(|s| s.seat = Some(2)))
            .await;
        a.refused(
            ErrorCode::BadRequest,
            with(|s| {
                s.clock = Some(ClockSpec {
                    base_ms: 0,
                    increment_ms: 0,
                    per_move: false,
                })
            }),
        )
        .await;
        a.refused(ErrorCode::NotFound, with(|s| s.player = PlayerId(999_999)))
            .await;
        let me = alice.player.id;
        a.refused(ErrorCode::BadRequest, |id| challenge(id, me, 0))
            .await;
        let ai_match = a.ok(|id| common::play_ai(id, "brandubh", 2, 0)).await;
        let ai = summary(addr, ai_match.match_id.unwrap()).await["players"][1]["id"].clone();
        let ai = PlayerId(ai.as_i64().unwrap());
        a.refused(ErrorCode::BadRequest, |id| challenge(id, ai, 0))
            .await;
        let mut v = Client::visit(addr).await;
        v.refused(ErrorCode::Unauthorized, with(|_| {})).await;
        // A guest plays casual only, either side.
        let guest = common::guest(addr).await;
        let mut g = Client::connect(addr, &guest.token).await;
        g.refused(ErrorCode::Forbidden, |id| challenge(id, to, 0))
            .await;
        let guest_id = guest.player.id;
        a.refused(ErrorCode::Forbidden, |id| challenge(id, guest_id, 0))
            .await;
        // Someone who is not online.
        let away = common::new_player(addr).await.player.id;
        a.refused(ErrorCode::Conflict, |id| challenge(id, away, 0))
            .await;
        // None of it reached bjorn.
        let told = drain(&mut b).await;
        assert!(
            !told
                .iter()
                .any(|m| matches!(m, ServerMessage::ChallengeOpen { .. })),
            "{told:?}"
        );

        // Two challenges at once, then one a minute.
        let c = challenge_id(&a.ok(with(|_| {})).await);
        a.ok(|id| withdraw(id, c)).await;
        b.refused(ErrorCode::NotFound, |id| answer_challenge(id, c, true))
            .await;
        let c = challenge_id(&a.ok(with(|_| {})).await);
        a.ok(|id| withdraw(id, c)).await;
        let why = a.refused(ErrorCode::RateLimited, with(|_| {})).await;
        assert!(why.contains("challenged too often"), "{backend:?}: {why}");

        // One challenge stands per pair; an acceptance while the challenger is away is
        // refused, and the challenge stands.
        let c = challenge_id(&b.ok(|id| challenge(id, me, 0)).await);
        b.refused(ErrorCode::Conflict, |id| challenge(id, me, 0))
            .await;
        b.close().await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let why = a
            .refused(ErrorCode::Conflict, |id| answer_challenge(id, c, true))
            .await;
        assert!(why.contains("not online"), "{why}");
        let mut b = Client::connect(addr, &bjorn.token).await;
        assert_eq!(open_challenge(&mut b).await.id, c);
        a.ok(|id| answer_challenge(id, c, true)).await;
        assert_eq!(challenge_ended(&mut b).await.1, ChallengeEnd::Accepted);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_outlives_a_server_restart() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let server = common::process::ServerProcess::start(&url).await;
        let (alice, bjorn, mut a, b) = common::two_players(server.addr).await;
        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 1)).await);
        server.kill();
        drop((a, b));

        // Both are told of it again when they come back, and it is played.
        let server = common::process::ServerProcess::start(&url).await;
        let mut a = Client::connect(server.addr, &alice.token).await;
        let mut b = Client::connect(server.addr, &bjorn.token).await;
        assert_eq!(open_challenge(&mut a).await.id, c, "{backend:?}");
        assert_eq!(open_challenge(&mut b).await.id, c, "{backend:?}");
        let accepted = b.ok(|id| answer_challenge(id, c, true)).await;
        assert_eq!(accepted.seats, vec![0]);
        let (_, reason, m) = challenge_ended(&mut a).await;
        assert_eq!((reason, m), (ChallengeEnd::Accepted, accepted.match_id));
    }
}

/// A challenge that expired while the server was down is not told again to a socket that says
/// hello after the restart, and cannot be answered: it ended when its time was up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_that_expired_while_the_server_was_down_stays_ended() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let flags = ["--log", "warn", "--challenge-secs", "1"];
        let server = common::process::ServerProcess::start_with(&url, &flags).await;
        let (alice, bjorn, mut a, b) = common::two_players(server.addr).await;
        let c = challenge_id(&a.ok(|id| challenge(id, bjorn.player.id, 1)).await);
        server.kill();
        drop((a, b));
        tokio::time::sleep(std::time::Duration::from_millis(1200)).await;

        let server = common::process::ServerProcess::start_with(&url, &flags).await;
        let mut a = Client::connect(server.addr, &alice.token).await;
        let mut b = Client::connect(server.addr, &bjorn.token).await;
        for socket in [&mut a, &mut b] {
            let told = drain(socket).await;
            assert!(
                !told.iter().any(
                    |m| matches!(m, ServerMessage::ChallengeOpen { challenge } if challenge.id == c)
                ),
                "{backend:?}: {told:?}"
            );
        }
        b.refused(ErrorCode::NotFound, |id| answer_challenge(id, c, true))
            .await;
    }
}
