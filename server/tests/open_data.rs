//! Open data: every finished rated game, by month, as records and a table, streamed page by page
//! in the order the games ended; casual games are not in them; the licence is the operator's;
//! `server open-data export` writes the same bytes; bad months and files are refused. Both
//! backends.

mod common;

use std::net::SocketAddr;

use common::{
    BACKENDS, copenhagen_match, fresh_database, get, get_text, http, rated_match, start, two_guests,
};
use protocol::{MatchId, OpenData};
use serde_json::json;
use server::open_data::month::Month;

/// A finished rated blitz game: its id and its players' names, seat 0 first.
async fn rated_game(addr: SocketAddr) -> (MatchId, [String; 2]) {
    let (alice, bjorn, mut a, mut b, m) = rated_match(addr, 300_000, 3_000).await;
    common::play_short_game(&mut a, &mut b, m).await;
    (m, [alice.player.name, bjorn.player.name])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_months_rated_games_download_as_records_and_a_table() {
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let addr = start(&url, &[]).await;
        let (first, names) = rated_game(addr).await;
        let (second, _) = rated_game(addr).await;
        // A casual game is no open data.
        let (_, _, mut c, mut d) = two_guests(addr).await;
        let casual = copenhagen_match(&mut c, &mut d, json!({})).await;
        common::play_short_game(&mut c, &mut d, casual).await;

        let listing: OpenData = serde_json::from_value(get(addr, "/api/open-data").await).unwrap();
        assert_eq!(listing.licence, "CC0-1.0");
        let month = Month::of_ms(server::clock::now_ms()).to_string();
        assert_eq!(listing.months.len(), 1, "{listing:?}");
        let files = &listing.months[0];
        assert_eq!((files.month.as_str(), files.games), (month.as_str(), 2));

        // The records: both rated games in the order they ended, with their players and moves.
        let records = get_text(addr, &files.records).await;
        let (at_first, at_second) = (
            records.find(&format!("[match:{}]", first.0)).unwrap(),
            records.find(&format!("[match:{}]", second.0)).unwrap(),
        );
        assert!(at_first < at_second);
        assert!(!records.contains(&format!("[match:{}]", casual.0)));
        assert!(
            records.contains(&format!(
                "[seat0:{}]\n[seat1:{}]\n[format:opentafl]\n",
                names[0], names[1]
            )),
            "{records}"
        );
        let (line, _) = common::short_copenhagen_game();
        assert!(records.contains(line[0].split('x').next().unwrap()));

        // The table: a header, then a row per seat of each game.
        let table = get_text(addr, &files.table).await;
        let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows[0][0], "match_id");
        assert_eq!(rows.len(), 5, "{table}");
        let row = &rows[1];
        assert_eq!(
            (row[0], row[2], row[3], row[4], row[5], row[6]),
            (
                first.0.to_string().as_str(),
                "tafl",
                "copenhagen",
                "300+3",
                "0",
                names[0].as_str()
            )
        );
        assert_eq!(row[7], "1500.0");
        assert_ne!(row[8], row[7], "a rated game changes the rating");
        assert!(row[1].starts_with(&month));

        // The operator's export writes the same bytes.
        let dir = std::env::temp_dir().join(format!("open-data-{}", rand::random::<u32>()));
        let args = [
            "--database-url",
            &url,
            "open-data",
            "export",
            "--month",
            &month,
            "--dir",
            dir.to_str().unwrap(),
        ]
        .map(str::to_string);
        let exported = tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_server"))
                .args(args)
                .output()
        })
        .await
        .unwrap()
        .unwrap();
        assert!(
            exported.status.success(),
            "{}",
            String::from_utf8_lossy(&exported.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("tafl-{month}-records.txt"))).unwrap(),
            records
        );
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("tafl-{month}-games.csv"))).unwrap(),
            table
        );
        std::fs::remove_dir_all(&dir).unwrap();

        // Pages follow each other without a gap or a repeat, a game at a time.
        let store = server::store::Store::connect(&url).await.unwrap();
        let month = Month::parse(&month).unwrap();
        let page = store.open_data_page(month, None, 1).await.unwrap();
        assert_eq!(page.iter().map(|g| g.id).collect::<Vec<_>>(), [first.0]);
        let after = server::open_data::store::After {
            finished_ms: page[0].finished_ms,
            id: page[0].id,
        };
        let page = store.open_data_page(month, Some(after), 1).await.unwrap();
        assert_eq!(page.iter().map(|g| g.id).collect::<Vec<_>>(), [second.0]);
        let after = server::open_data::store::After {
            finished_ms: page[0].finished_ms,
            id: page[0].id,
        };
        assert!(
            store
                .open_data_page(month, Some(after), 1)
                .await
                .unwrap()
                .is_empty()
        );
        store.close().await;

        // As a browser asks: compressed, the same file.
        let gzipped = http()
            .get(format!("http://{addr}{}", files.table))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(gzipped.headers()["content-encoding"], "gzip");
        let mut unzipped = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&gzipped.bytes().await.unwrap()[..]),
            &mut unzipped,
        )
        .unwrap();
        assert_eq!(unzipped, table);

        // A month without games: the table's header alone; bad months and files refused.
        assert_eq!(
            get_text(addr, "/api/open-data/2020-01/games.csv").await,
            table.lines().next().unwrap().to_string() + "\n"
        );
        assert_eq!(
            get_text(addr, "/api/open-data/2020-01/records.txt").await,
            ""
        );
        let (status, code, _) = common::get_refused(addr, "/api/open-data/2026-13/games.csv").await;
        assert_eq!((status, code.as_str()), (400, "bad_request"));
        let (status, code, _) = common::get_refused(addr, "/api/open-data/2026-11/games.xls").await;
        assert_eq!((status, code.as_str()), (404, "not_found"));
    }
}

#[tokio::test]
async fn the_licence_is_the_operators() {
    let addr = start(
        &fresh_database(BACKENDS[0]).await,
        &["--open-data-licence", "CC-BY-4.0"],
    )
    .await;
    let listing: OpenData = serde_json::from_value(get(addr, "/api/open-data").await).unwrap();
    assert_eq!(listing.licence, "CC-BY-4.0");
    assert!(listing.months.is_empty());
}
