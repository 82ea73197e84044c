//! The open data page in a real headless Chromium: reached from the leaderboards, it shows the
//! club's licence and each month's files, which download. Screenshots at 1400 x 900 and on a
//! phone go to `target/screenshots/open-data-*.png`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Driver, Screen, WIDE, by_testid};
use common::{rated_match, sqlite_server};

#[tokio::test]
async fn the_open_data_page_lists_the_months_files_and_they_download() {
    let addr = sqlite_server().await;
    let (_, _, mut a, mut b, m) = rated_match(addr, 300_000, 3_000).await;
    common::play_short_game(&mut a, &mut b, m).await;
    let month = server::open_data::month::Month::of_ms(server::clock::now_ms()).to_string();

    let driver = Driver::start().await;
    for (screen, size) in [(WIDE, "wide"), (Screen::Phone, "phone")] {
        let b = driver.browser(screen).await;
        b.open(addr, "#/leaderboard/tafl/copenhagen").await;
        b.click("open-data-link").await;
        b.find(&by_testid(&format!("open-data-{month}"))).await;
        let licence = b.text("open-data-licence").await;
        assert!(licence.contains("CC0-1.0"), "{licence}");
        let row = b.text(&format!("open-data-{month}")).await;
        assert!(
            row.contains("games.csv") && row.contains("records.txt"),
            "{row}"
        );
        // The table's link gives the month's table: a header and a row per seat.
        let table = b
            .resolve(&format!(
                "fetch(document.querySelector('[data-testid=open-data-{month}] a[href$=\"games.csv\"]').href).then((r) => r.text())"
            ))
            .await;
        let lines = table.as_str().unwrap().lines().count();
        assert_eq!(lines, 3, "{table}");
        b.screenshot(&format!("open-data-{size}")).await;
        b.assert_no_console_errors().await;
        b.client.close().await.unwrap();
    }
}
