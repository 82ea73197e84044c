//! Chat over real sockets, on both backends: a match's players and spectators talk apart until
//! the game is over; the lobby reaches everyone who watches it and only accounts write in it;
//! mutes filter what reaches the muter; bad, long and hurried messages are refused and change
//! nothing; messages are stored and read back; a report reaches the admins, and a ban silences
//! its author.

mod common;

use std::net::SocketAddr;

use common::{
    BACKENDS, Client, copenhagen_match, fresh_database, guest, http, new_player, start,
    two_players, watch,
};
use protocol::{ChatChannel, ChatMessage, ClientMessage, CommandId, ErrorCode, MatchId};
use protocol::{ServerMessage, Session};
use reqwest::Method;
use serde_json::{Value, json};

fn chat(id: CommandId, match_id: Option<MatchId>, text: &str) -> ClientMessage {
    ClientMessage::Chat {
        id,
        match_id,
        text: text.to_string(),
    }
}

/// Writes a message and expects it to be carried out.
async fn say(c: &mut Client, match_id: Option<MatchId>, text: &str) {
    c.ok(|id| chat(id, match_id, text)).await;
}

/// The chat messages a socket gets up to the one saying `marker`: the texts before it, in
/// order, and the marker's message itself.
async fn chats_until(c: &mut Client, marker: &str) -> (Vec<String>, ChatMessage) {
    let mut before = Vec::new();
    loop {
        let ServerMessage::Chat { message } = c
            .message_where(|m| matches!(m, ServerMessage::Chat { .. }))
            .await
        else {
            unreachable!("only chat messages are taken");
        };
        if message.text == marker {
            return (before, message);
        }
        before.push(message.text);
    }
}

/// A request with a session token, or none: the status and the JSON body.
async fn call(
    method: Method,
    addr: SocketAddr,
    token: Option<&str>,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = http().request(method, format!("http://{addr}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A chat history as `token` (or a visitor) reads it: its channels and its texts, in order.
async fn history(addr: SocketAddr, token: Option<&str>, path: &str) -> (Value, Vec<String>) {
    let (status, body) = call(Method::GET, addr, token, path, None).await;
    assert_eq!(status, 200, "{path}: {body}");
    let texts = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    (body["channels"].clone(), texts)
}

fn match_chat(m: MatchId) -> String {
    format!("/api/matches/{}/chat", m.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_chat_apart_until_the_game_is_over() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--chat-burst", "20"]).await;
        let (alice, _, mut a, mut b) = two_players(addr).await;
        let m = copenhagen_match(&mut a, &mut b, json!({})).await;
        let spectator = new_player(addr).await;
        let mut s = Client::connect(addr, &spectator.token).await;
        let mut v = Client::visit(addr).await;
        let g_session = guest(addr).await;
        let mut g = Client::connect(addr, &g_session.token).await;
        for c in [&mut s, &mut v, &mut g] {
            c.ok(|id| watch(id, m, None)).await;
        }

        // A player's message reaches the players, the writer too.
        let ack = a.ok(|id| chat(id, Some(m), "  good luck  ")).await;
        assert_eq!(ack.match_id, Some(m));
        let (before, message) = chats_until(&mut b, "good luck").await;
        assert!(before.is_empty(), "{backend:?}: {before:?}");
        assert_eq!(message.channel, ChatChannel::Players);
        assert_eq!(message.match_id, Some(m));
        assert_eq!(message.author, alice.player);
        // A spectator's reaches the spectators, and not the players' message before it.
        say(&mut s, Some(m), "spectator says hi").await;
        for c in [&mut s, &mut v, &mut g] {
            let (before, message) = chats_until(c, "spectator says hi").await;
            assert!(
                before.is_empty(),
                "{backend:?}: a spectator read {before:?}"
            );
            assert_eq!(message.channel, ChatChannel::Spectators);
        }
        // Nor does the spectator's reach a player: the next players' message comes first.
        say(&mut a, Some(m), "second").await;
        assert_eq!(chats_until(&mut a, "second").await.0, ["good luck"]);
        assert!(chats_until(&mut b, "second").await.0.is_empty());

        // A guest spectator and a visitor read, and do not write; a socket that does not
        // follow the match does not write in it.
        let refused = g
            .refused(ErrorCode::Forbidden, |id| chat(id, Some(m), "hi"))
            .await;
        assert!(refused.contains("guests"), "{refused}");
        let refused = v
            .refused(ErrorCode::Unauthorized, |id| chat(id, Some(m), "hi"))
            .await;
        assert_eq!(refused, "log in to chat");
        let stranger = new_player(addr).await;
        let mut x = Client::connect(addr, &stranger.token).await;
        x.refused(ErrorCode::Forbidden, |id| chat(id, Some(m), "hi"))
            .await;

        // Stored, and read back by each as they may read it.
        let during = history(addr, Some(&alice.token), &match_chat(m)).await;
        assert_eq!(
            during,
            (
                json!(["players"]),
                vec!["good luck".into(), "second".into()]
            )
        );
        let watching = (json!(["spectators"]), vec!["spectator says hi".to_string()]);
        assert_eq!(history(addr, None, &match_chat(m)).await, watching);
        assert_eq!(
            history(addr, Some(&spectator.token), &match_chat(m)).await,
            watching
        );
        // A player cannot report what they may not read.
        let (_, spectators) = call(Method::GET, addr, None, &match_chat(m), None).await;
        let theirs = spectators["messages"][0]["id"].as_i64().unwrap();
        let report = format!("/api/chat/{theirs}/report");
        let reason = Some(json!({"reason": "rude"}));
        let (status, _) = call(
            Method::POST,
            addr,
            Some(&alice.token),
            &report,
            reason.clone(),
        )
        .await;
        assert_eq!(status, 404, "{backend:?}");

        // Once the game is over, both channels are open to everyone.
        a.ok(|id| ClientMessage::Resign {
            id,
            match_id: m,
            seat: 0,
        })
        .await;
        say(&mut s, Some(m), "gg from the stands").await;
        assert!(chats_until(&mut a, "gg from the stands").await.0.is_empty());
        say(&mut b, Some(m), "thanks").await;
        for c in [&mut s, &mut v] {
            assert_eq!(chats_until(c, "thanks").await.0, ["gg from the stands"]);
        }
        let all = [
            "good luck",
            "spectator says hi",
            "second",
            "gg from the stands",
            "thanks",
        ];
        for token in [None, Some(alice.token.as_str())] {
            let (channels, texts) = history(addr, token, &match_chat(m)).await;
            assert_eq!(channels, json!(["players", "spectators"]));
            assert_eq!(texts, all, "{backend:?}");
        }
        let (status, _) = call(Method::POST, addr, Some(&alice.token), &report, reason).await;
        assert_eq!(status, 204, "{backend:?}: readable now, so reportable");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_reaches_its_watchers_and_only_accounts_write_in_it() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &[]).await;
        let player = new_player(addr).await;
        let mut p = Client::connect(addr, &player.token).await;
        let g_session = guest(addr).await;
        let mut g = Client::connect(addr, &g_session.token).await;
        let mut v = Client::visit(addr).await;
        for c in [&mut p, &mut g, &mut v] {
            c.ok(|id| ClientMessage::WatchLobby { id }).await;
        }

        let ack = p.ok(|id| chat(id, None, "hello lobby")).await;
        assert_eq!(ack.match_id, None);
        for c in [&mut p, &mut g, &mut v] {
            let (before, message) = chats_until(c, "hello lobby").await;
            assert!(before.is_empty());
            assert_eq!(
                (message.channel, message.match_id),
                (ChatChannel::Lobby, None)
            );
        }
        let refused = g
            .refused(ErrorCode::Forbidden, |id| chat(id, None, "me too"))
            .await;
        assert!(refused.contains("guests read the lobby chat"), "{refused}");
        v.refused(ErrorCode::Unauthorized, |id| chat(id, None, "me too"))
            .await;

        // A socket that stops watching gets nothing more.
        v.ok(|id| ClientMessage::UnwatchLobby { id }).await;
        say(&mut p, None, "unheard by the visitor").await;
        chats_until(&mut g, "unheard by the visitor").await;
        v.ok(|id| ClientMessage::WatchLobby { id }).await;
        say(&mut p, None, "third").await;
        assert!(
            chats_until(&mut v, "third").await.0.is_empty(),
            "{backend:?}"
        );

        let expected = (
            json!(["lobby"]),
            vec![
                "hello lobby".into(),
                "unheard by the visitor".into(),
                "third".into(),
            ],
        );
        assert_eq!(history(addr, None, "/api/chat/lobby").await, expected);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_author_is_not_delivered_to_the_muter() {
    for backend in BACKENDS {
        let addr = start(&fresh_database(backend).await, &["--chat-burst", "20"]).await;
        let (muter, author, mut m, mut a) = two_players(addr).await;
        let other = new_player(addr).await;
        let mut o = Client::connect(addr, &other.token).await;
        for c in [&mut m, &mut a, &mut o] {
            c.ok(|id| ClientMessage::WatchLobby { id }).await;
        }
        let mute = format!("/api/mutes/{}", author.player.id.0);
        let (status, _) = call(Method::POST, addr, Some(&muter.token), &mute, None).await;
        assert_eq!(status, 204);
        let (status, mutes) = call(Method::GET, addr, Some(&muter.token), "/api/mutes", None).await;
        assert_eq!((status, mutes), (200, json!([author.player])));

        // In the lobby: the others read the muted author, the muter does not.
        say(&mut a, None, "spam").await;
        chats_until(&mut o, "spam").await;
        say(&mut o, None, "marker").await;
        assert!(
            chats_until(&mut m, "marker").await.0.is_empty(),
            "{backend:?}"
        );
        let muters = history(addr, Some(&muter.token), "/api/chat/lobby").await.1;
        assert_eq!(muters, ["marker"]);
        let others = history(addr, Some(&other.token), "/api/chat/lobby").await.1;
        assert_eq!(others, ["spam", "marker"]);

        // In a match the muter plays against the author, and until unmuted.
        let game = copenhagen_match(&mut m, &mut a, json!({})).await;
        say(&mut a, Some(game), "muted words").await;
        say(&mut m, Some(game), "marker two").await;
        assert!(chats_until(&mut m, "marker two").await.0.is_empty());
        assert_eq!(
            history(addr, Some(&muter.token), &match_chat(game)).await.1,
            ["marker two"]
        );
        let (status, _) = call(Method::DELETE, addr, Some(&muter.token), &mute, None).await;
        assert_eq!(status, 204);
        say(&mut a, Some(game), "heard again").await;
        assert!(chats_until(&mut m, "heard again").await.0.is_empty());

        // Nobody mutes themselves, nor a player who does not exist; a visitor has no mutes.
        let me = format!("/api/mutes/{}", muter.player.id.0);
        let (status, _) = call(Method::POST, addr, Some(&muter.token), &me, None).await;
        assert_eq!(status, 400);
        let (status, _) = call(
            Method::POST,
            addr,
            Some(&muter.token),
            "/api/mutes/999999",
            None,
        )
        .await;
        assert_eq!(status, 404);
        assert_eq!(
            call(Method::GET, addr, None, "/api/mutes", None).await.0,
            401
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_bad_and_hurried_messages_are_refused_and_change_nothing() {
    for backend in BACKENDS {
        let limits = ["--chat-burst", "3", "--chat-messages-per-minute", "1"];
        let addr = start(&fresh_database(backend).await, &limits).await;
        let player = new_player(addr).await;
        let mut p = Client::connect(addr, &player.token).await;

        let longest = "ø".repeat(500);
        for (text, says) in [
            (format!("{longest}!"), "at most 500 characters, not 501"),
            ("two\nlines".to_string(), "one line"),
            ("line\u{2028}separator".to_string(), "one line"),
            ("paragraph\u{2029}separator".to_string(), "one line"),
            ("\u{202E}reversed".to_string(), "direction"),
            ("\u{2067}isolated\u{2069}".to_string(), "direction"),
            ("   ".to_string(), "needs text"),
        ] {
            let refused = p
                .refused(ErrorCode::BadRequest, |id| chat(id, None, &text))
                .await;
            assert!(refused.contains(says), "{refused}");
        }
        // Refused texts cost nothing: the whole burst is left.
        say(&mut p, None, &format!("  {longest}\t")).await;
        say(&mut p, None, "<b>two</b> & 🙂").await;
        say(&mut p, None, "three").await;
        let refused = p
            .refused(ErrorCode::RateLimited, |id| chat(id, None, "four"))
            .await;
        assert!(refused.contains("too fast"), "{refused}");

        let stored = history(addr, None, "/api/chat/lobby").await.1;
        assert_eq!(
            stored,
            [longest.as_str(), "<b>two</b> & 🙂", "three"],
            "{backend:?}"
        );
    }
}

/// Makes `session`'s account an admin, as the operator's command does.
async fn admin(url: &str, session: &Session) {
    server::accounts::moderation::set_admin(url, &session.player.name, true)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_reaches_the_admins_and_a_ban_silences_the_author() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (troll, warden) = (new_player(addr).await, new_player(addr).await);
        admin(&url, &warden).await;
        let reporter = guest(addr).await;
        let mut t = Client::connect(addr, &troll.token).await;
        t.ok(|id| ClientMessage::WatchLobby { id }).await;
        say(&mut t, None, "you all stink").await;
        let (_, message) = chats_until(&mut t, "you all stink").await;

        // Anyone logged in, a guest too, reports a message once, with a reason.
        let report = format!("/api/chat/{}/report", message.id.0);
        let rude = Some(json!({"reason": " rude "}));
        let as_reporter = Some(reporter.token.as_str());
        let (status, _) = call(Method::POST, addr, as_reporter, &report, rude.clone()).await;
        assert_eq!(status, 204, "{backend:?}");
        let (status, body) = call(Method::POST, addr, as_reporter, &report, rude.clone()).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("conflict")));
        let empty = Some(json!({"reason": " "}));
        assert_eq!(
            call(Method::POST, addr, as_reporter, &report, empty)
                .await
                .0,
            400
        );
        let unknown = "/api/chat/999999/report";
        assert_eq!(
            call(Method::POST, addr, as_reporter, unknown, rude.clone())
                .await
                .0,
            404
        );
        assert_eq!(call(Method::POST, addr, None, &report, rude).await.0, 401);

        // Admins alone list the open reports.
        let list = "/api/admin/chat-reports";
        assert_eq!(
            call(Method::GET, addr, as_reporter, list, None).await.0,
            403
        );
        let (status, reports) = call(Method::GET, addr, Some(&warden.token), list, None).await;
        assert_eq!(status, 200);
        let open = reports.as_array().unwrap();
        assert_eq!(open.len(), 1, "{reports}");
        assert_eq!(open[0]["message"]["text"], "you all stink");
        assert_eq!(open[0]["message"]["author"]["id"], troll.player.id.0);
        assert_eq!(open[0]["reporter"]["id"], reporter.player.id.0);
        assert_eq!(open[0]["reason"], "rude");

        // The ban: the author's socket closes, and the account writes no more.
        let ban = format!("/api/admin/players/{}/ban", troll.player.id.0);
        let why = Some(json!({"reason": "abuse in the chat"}));
        let (status, _) = call(Method::POST, addr, Some(&warden.token), &ban, why).await;
        assert_eq!(status, 204);
        let (_, close) = t.until_closed().await;
        assert_eq!(close.map(|c| u16::from(c.code)), Some(1008), "{backend:?}");
        let (status, _) = call(Method::GET, addr, Some(&troll.token), "/api/mutes", None).await;
        assert_eq!(status, 401, "the banned session is gone");

        // Dealt with, the report is closed and leaves the list.
        let id = open[0]["id"].as_i64().unwrap();
        let close = format!("/api/admin/chat-reports/{id}/close");
        let (status, _) = call(Method::POST, addr, Some(&warden.token), &close, None).await;
        assert_eq!(status, 204);
        let (_, reports) = call(Method::GET, addr, Some(&warden.token), list, None).await;
        assert_eq!(reports, json!([]));
        let (status, _) = call(Method::POST, addr, Some(&warden.token), &close, None).await;
        assert_eq!(status, 404, "closed already");
    }
}
