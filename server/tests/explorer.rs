//! The opening explorer over REST: games are counted once each, soon after they finish, by
//! position (a transposition is one position), with their results, time control and rating
//! band; the masters' games answer from the start; bad requests are refused with what is wrong;
//! a rebuild counts the same games again, not twice. Both backends.

mod common;

use std::time::{Duration, Instant};

use common::{BACKENDS, copenhagen_match, fresh_database, get, rated_match, start, two_guests};
use protocol::{ClientMessage, ExplorerPosition};
use serde_json::json;

async fn explore(addr: std::net::SocketAddr, query: &str) -> ExplorerPosition {
    serde_json::from_value(get(addr, &format!("/api/explorer/tafl/copenhagen?{query}")).await)
        .unwrap()
}

/// Waits until the explorer has counted `games` games through the start.
async fn counted(addr: std::net::SocketAddr, games: u64) -> ExplorerPosition {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let start = explore(addr, "").await;
        if start.total.games >= games {
            assert_eq!(start.total.games, games, "counted more games than finished");
            return start;
        }
        assert!(
            Instant::now() < deadline,
            "only {} games counted",
            start.total.games
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_are_counted_once_by_position_result_speed_and_band() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;

        // A rated blitz game played to its end on the board.
        let (_, winner) = common::short_copenhagen_game();
        let (_, _, mut a, mut b, rated) = rated_match(addr, 300_000, 3_000).await;
        let moves = common::play_short_game(&mut a, &mut b, rated).await;

        // A casual untimed game of two moves by the other order, resigned by the defenders.
        let (_, _, mut c, mut d) = two_guests(addr).await;
        let casual = copenhagen_match(&mut c, &mut d, json!({})).await;
        common::play_moves(&mut c, &mut d, casual, &moves[..2]).await;
        d.ok(|id| ClientMessage::Resign {
            id,
            match_id: casual,
            seat: 1,
        })
        .await;

        let start_position = counted(addr, 2).await;
        assert_eq!(start_position.counted_plies, 40);
        let first = &start_position.moves[0];
        assert_eq!(
            (first.action.as_str(), first.tally.games),
            (moves[0].as_str(), 2)
        );
        let attackers_won = u64::from(winner == 0) + 1;
        assert_eq!(first.tally.attackers, attackers_won, "{first:?}");
        assert_eq!(first.tally.defenders + first.tally.attackers, 2);
        // Both pairs are new players and guests: 1500 on average, the band from 1400.
        assert_eq!(first.tally.average_rating, Some(1500));

        // Filters: the rated game is blitz, the casual one untimed (correspondence).
        let blitz = explore(addr, "speeds=blitz").await;
        assert_eq!(blitz.total.games, 1);
        let both = explore(addr, "speeds=blitz,correspondence&bands=1400").await;
        assert_eq!(both.total.games, 2);
        assert_eq!(explore(addr, "speeds=rapid").await.total.games, 0);
        assert_eq!(explore(addr, "bands=1600,1800").await.total.games, 0);

        // After the first move, the second; after both, only the rated game went on.
        let after = explore(addr, &format!("moves={}", moves[0])).await;
        assert_eq!(after.moves[0].action, moves[1]);
        assert_eq!(after.total.games, 2);
        let deeper = explore(addr, &format!("moves={},{}", moves[0], moves[1])).await;
        assert_eq!(deeper.total.games, 1);
        assert_eq!(deeper.moves[0].action, moves[2]);

        // `server explorer rebuild` counts the same games again, not twice.
        let args = ["--database-url", &url, "explorer", "rebuild"].map(str::to_string);
        let rebuild = tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_server"))
                .args(args)
                .output()
        })
        .await
        .unwrap()
        .unwrap();
        let said = String::from_utf8_lossy(&rebuild.stdout);
        assert!(
            rebuild.status.success(),
            "{said} {}",
            String::from_utf8_lossy(&rebuild.stderr)
        );
        assert!(said.contains("counted 2 finished games"), "{said}");
        assert_eq!(explore(addr, "").await, start_position);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_masters_games_answer_and_bad_requests_are_refused() {
    let addr = start(&fresh_database(BACKENDS[0]).await, &[]).await;
    let masters = explore(addr, "source=masters").await;
    assert!(masters.total.games > 1_600, "{:?}", masters.total);
    assert_eq!(masters.total.average_rating, None);
    let sum: u64 = masters.moves.iter().map(|m| m.tally.games).sum();
    assert_eq!(sum, masters.total.games);
    assert!(
        masters
            .moves
            .windows(2)
            .all(|w| w[0].tally.games >= w[1].tally.games)
    );
    // The most played first move, played: the games through it are its games.
    let top = &masters.moves[0];
    let after = explore(addr, &format!("source=masters&moves={}", top.action)).await;
    assert_eq!(after.total.games, top.tally.games);
    // The server has no games yet.
    assert_eq!(explore(addr, "").await.total.games, 0);
    // A position in OpenTafl notation with its side to move is found like the same position
    // played to.
    let preview = get(addr, "/api/games/tafl/preview?variant=copenhagen").await;
    let layout = preview["view"]["position"].as_str().unwrap();
    let set = explore(
        addr,
        &format!("source=masters&position={}&to_move=0", urlencode(layout)),
    )
    .await;
    assert_eq!(set.position, masters.position);
    assert_eq!(set.total, masters.total);

    for (path, why) in [
        (
            "/api/explorer/fox_geese/classic",
            "the explorer counts tafl games",
        ),
        ("/api/explorer/tafl/nonsense", "no games of variant"),
        ("/api/explorer/tafl/copenhagen?moves=a1-a2", "move 1"),
        (
            "/api/explorer/tafl/copenhagen?speeds=fast",
            "no time control 'fast'",
        ),
        (
            "/api/explorer/tafl/copenhagen?bands=1500",
            "no rating band '1500'",
        ),
        (
            "/api/explorer/tafl/copenhagen?to_move=0",
            "a position needs to_move",
        ),
        (
            "/api/explorer/tafl/copenhagen?position=/x/&to_move=0",
            "position",
        ),
        ("/api/explorer/tafl/copenhagen?colour=white", "colour"),
    ] {
        let (status, code, message) = common::get_refused(addr, path).await;
        assert_eq!(
            (status, code.as_str()),
            (400, "bad_request"),
            "{path}: {message}"
        );
        assert!(message.contains(why), "{path}: {message}");
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
