//! The look of the client in a real headless Chromium: the dark theme, which follows the system's
//! colour scheme unless the player picks one in the settings menu, and is kept in the browser;
//! text that stands out from its background in both themes; the board themes; and every game's
//! board in full view, without scrolling, in a 1366x768 window and on a 390x844 phone.
//! Screenshots of the lobby and of a match of every game at 1400x900, 1366x768 and on a phone, in
//! the dark theme and in each board theme, go to `target/screenshots/look-<screen>-<page>-<look>`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use browser::{Browser, DESKTOP, Driver, Screen, by_testid};
use common::sqlite_server;
use serde_json::{Value, json};

/// The screens the layout is made for, and their names in the screenshots' names. A window's
/// size is the browser's whole window, of which the page has a little less.
const SCREENS: [(Screen, &str); 3] = [
    (
        Screen::Window {
            width: 1400,
            height: 900,
        },
        "1400x900",
    ),
    (
        Screen::Window {
            width: 1366,
            height: 768,
        },
        "1366x768",
    ),
    (Screen::Phone, "390x844"),
];

/// A hot-seat match of every game, each with its biggest board: its variant and seat count.
const GAMES: [(&str, &str, u32); 6] = [
    ("tafl", "copenhagen", 2),
    ("fox-geese", "hala-tafl", 2),
    ("hanoi", "standard", 3),
    ("tower-race", "advanced", 8),
    ("tron", "standard", 8),
    ("driller", "standard", 2),
];

/// The looks screenshots are taken in: a colour theme and a board theme.
const LOOKS: [(&str, &str); 4] = [
    ("dark", "wood"),
    ("light", "wood"),
    ("light", "slate"),
    ("light", "contrast"),
];

/// Starts a hot-seat match from the lobby and waits for its board.
async fn hotseat(b: &Browser, game: &str, variant: &str, seats: u32) {
    b.find(&by_testid("hotseat-create")).await;
    b.select("hotseat-game", game).await;
    b.select("hotseat-variant", variant).await;
    // The number of players is asked only of a game that has a choice of it.
    if b.run(
        "return !document.querySelector('[data-testid=hotseat-seats]').closest('label').hidden;",
    )
    .await
        == json!(true)
    {
        b.fill("hotseat-seats", &seats.to_string()).await;
    }
    b.click("hotseat-create").await;
    b.find("[data-testid=board] .board > :is(svg, canvas)")
        .await;
}

/// Picks a setting of the settings menu in the bar, through the menu, and waits for the page to
/// take it (`data-<attribute>` of the document).
async fn pick(b: &Browser, setting: &str, value: &str, attribute: &str, shown: &str) {
    if b.run("return !document.querySelector('details.menu').open;")
        .await
        == json!(true)
    {
        b.click("settings").await;
    }
    b.select(&format!("pref-{setting}"), value).await;
    b.until(
        &format!("{attribute} {shown}"),
        &format!("return document.documentElement.dataset.{attribute} === {shown:?};"),
    )
    .await;
}

/// Sets a look without the menu, for the screenshots: the menu's own drop-downs, changed.
async fn set_look(b: &Browser, theme: &str, board: &str) {
    b.run(&format!(
        "for (const [name, value] of [['theme', {theme:?}], ['board', {board:?}]]) {{
           const select = document.querySelector(`[data-testid=pref-${{name}}]`);
           select.value = value;
           select.dispatchEvent(new Event('change'));
         }}"
    ))
    .await;
    b.until(
        "the look",
        &format!(
            "const d = document.documentElement.dataset;
             return d.theme === {theme:?} && d.board === {board:?};"
        ),
    )
    .await;
}

/// A colour's relative luminance and the contrast of two colours, as WCAG defines them, and the
/// colour behind an element (its own background, or the first one behind it), for page scripts.
const COLOURS: &str = "
    const rgba = (c) => c.match(/[\\d.]+/g).map(Number);
    const luminance = (c) => {
      const [r, g, b] = rgba(c).slice(0, 3).map((v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a, b) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const behind = (e) => {
      for (; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        const v = rgba(c);
        if (v.length < 4 || v[3] > 0) return c;
      }
      return 'rgb(255, 255, 255)';
    };";

/// The luminance of the page's background, of a card's (or the login form's) and of its text.
async fn luminances(b: &Browser) -> (f64, f64, f64) {
    let value = b
        .run(&format!(
            "{COLOURS}
             const card = document.querySelector('.card');
             return [luminance(behind(document.body)), luminance(behind(card)),
                     luminance(getComputedStyle(document.body).color)];"
        ))
        .await;
    let at = |i: usize| value[i].as_f64().unwrap();
    (at(0), at(1), at(2))
}

/// The texts of the page (outside the boards' drawings) whose contrast with their background is
/// under WCAG's 4.5:1 (3:1 for large text); disabled controls are exempt, as WCAG has them.
async fn low_contrast(b: &Browser) -> Vec<String> {
    let found = b
        .run(&format!(
            "{COLOURS}
             const own = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
             return [...document.querySelectorAll('body *')]
               .filter((e) => own(e) && !e.closest('svg, .sr-only, :disabled, [hidden]') && e.getClientRects().length)
               .flatMap((e) => {{
                 const style = getComputedStyle(e);
                 const size = parseFloat(style.fontSize);
                 const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
                 const ratio = contrast(style.color, behind(e));
                 return ratio < (large ? 3 : 4.5)
                   ? [`${{e.tagName.toLowerCase()}}.${{e.className}} '${{e.textContent.trim().slice(0, 30)}}': ${{ratio.toFixed(2)}} (${{style.color}} on ${{behind(e)}})`]
                   : [];
               }});"
        ))
        .await;
    serde_json::from_value(found).unwrap()
}

async fn assert_readable(b: &Browser, page: &str) {
    let low = low_contrast(b).await;
    assert!(low.is_empty(), "{page}: text of low contrast: {low:#?}");
}

/// The dark theme follows the system's colour scheme until the player picks one in the settings
/// menu (in the bar of every page); the pick is kept over a reload. Every text of the lobby (with
/// the menu open), of a match in play and finished, of the player's page, a leaderboard, the
/// tournaments, a rules page and a visitor's lobby stands out from its background in both themes. The menu's
/// language drop-down redraws the page and the menu in the language picked.
#[tokio::test]
async fn the_dark_theme_follows_the_system_or_the_settings_menu_and_is_kept() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    let theme = "return document.documentElement.dataset.theme;";
    assert_eq!(b.run(theme).await, json!("light"), "the system's: light");
    let (page, card, text) = luminances(&b).await;
    assert!(
        page > 0.7 && card > 0.7 && text < 0.1,
        "light: {page} {card} {text}"
    );

    b.emulate_colour_scheme("dark").await;
    b.until(
        "the dark theme, as the system's",
        "return document.documentElement.dataset.theme === 'dark';",
    )
    .await;
    let (page, card, text) = luminances(&b).await;
    assert!(
        page < 0.05 && card < 0.05 && text > 0.6,
        "dark: {page} {card} {text}"
    );
    b.emulate_colour_scheme("light").await;
    b.until(
        "the light theme again",
        "return document.documentElement.dataset.theme === 'light';",
    )
    .await;

    // Picked, the dark theme stays whatever the system says, and over a reload.
    pick(&b, "theme", "dark", "theme", "dark").await;
    b.emulate_colour_scheme("light").await;
    b.client.refresh().await.unwrap();
    b.find(&by_testid("hotseat-create")).await;
    assert_eq!(b.run(theme).await, json!("dark"), "kept over a reload");
    let picked = b
        .run("return document.querySelector('[data-testid=pref-theme]').value;")
        .await;
    assert_eq!(picked, json!("dark"), "the menu shows the pick");

    for shown in ["dark", "light"] {
        b.open(addr, "#/").await;
        pick(&b, "theme", shown, "theme", shown).await;
        b.screenshot(&format!("look-menu-{shown}")).await;
        assert_readable(&b, &format!("{shown} lobby, menu open")).await;
        b.click("hotseat-create").await;
        b.find(&by_testid("sq-d4")).await;
        assert_readable(&b, &format!("{shown} match")).await;
        b.click("resign").await;
        b.click("resign-confirm").await;
        b.find("[data-testid=result]:not([hidden])").await;
        assert_readable(&b, &format!("{shown} result")).await;
        b.click("me").await;
        b.find(&by_testid("player-matches")).await;
        assert_readable(&b, &format!("{shown} player")).await;
        for (page, hash) in [
            ("leaderboard", "#/leaderboard/tafl/copenhagen"),
            ("tournaments", "#/tournaments"),
            ("rules", "#/rules/tafl"),
        ] {
            b.open(addr, hash).await;
            b.find(".page h1").await;
            assert_readable(&b, &format!("{shown} {page}")).await;
        }
    }

    // The menu holds the language too: a new one redraws the bar, the page and the menu itself.
    b.click("settings").await;
    b.select("language", "sv").await;
    b.until(
        "the bar in Swedish",
        "return document.querySelector('[data-i18n=\"nav.tournaments\"]').textContent === 'Turneringar';",
    )
    .await;
    let label = b
        .run("return document.querySelector('[data-testid=pref-theme]').parentElement.firstChild.textContent;")
        .await;
    assert_eq!(label, json!("Tema"), "the menu in Swedish");
    b.select("language", "en").await;
    b.until(
        "the bar in English",
        "return document.querySelector('[data-i18n=\"nav.tournaments\"]').textContent === 'Tournaments';",
    )
    .await;

    // A visitor's lobby, with its way in in the bar, in both themes.
    b.click("logout").await;
    b.find(&by_testid("header-login")).await;
    for shown in ["dark", "light"] {
        pick(&b, "theme", shown, "theme", shown).await;
        assert_readable(&b, &format!("{shown} visitor's lobby")).await;
    }
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// The colours of the 2D tafl board's parts: a plain square, a corner, the frame, an attacker.
const TAFL_COLOURS: &str =
    "const fill = (css) => getComputedStyle(document.querySelector(css)).fill;
    return [fill('[data-testid=sq-b2]'), fill('[data-testid=sq-a1]'), fill('svg.tafl .frame'),
            fill('svg.tafl .piece-dark')];";

/// Each board theme of the settings menu draws the boards in colours of its own, the 2D and 3D
/// tafl boards and the others alike; the pick is kept over a reload.
#[tokio::test]
async fn board_themes_recolour_the_boards_and_are_kept() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    let b = driver.browser(DESKTOP).await;
    b.guest(addr).await;
    hotseat(&b, "tafl", "brandubh", 2).await;
    let mut seen: Vec<Value> = Vec::new();
    for board in ["wood", "slate", "contrast"] {
        pick(&b, "board", board, "board", board).await;
        let colours = b.run(TAFL_COLOURS).await;
        assert!(
            !seen.contains(&colours),
            "{board}: colours of its own: {colours}"
        );
        seen.push(colours);
    }
    b.client.refresh().await.unwrap();
    b.find(&by_testid("sq-d4")).await;
    assert_eq!(
        b.run(TAFL_COLOURS).await,
        seen[2],
        "the board theme is kept over a reload"
    );

    // The 3D board: the colour drawn at a plain square's centre changes with the theme.
    b.click("toggle-3d").await;
    b.find(&by_testid("board3d")).await;
    let holder = "document.querySelector('[data-testid=board3d]').parentElement";
    b.until(
        "the 3D board drawn",
        &format!("return {holder}.dataset.labels;"),
    )
    .await;
    let pixel = format!("const at = {holder}.project('b2'); return pixel(at.x, at.y);");
    let contrast = b.on_screenshot(&pixel).await;
    pick(&b, "board", "wood", "board", "wood").await;
    b.click("settings").await;
    let wood = b.on_screenshot(&pixel).await;
    assert_ne!(contrast, wood, "the 3D board's square in each theme");

    // Another board: Fox and Geese's sheet and lines.
    b.open(addr, "#/").await;
    hotseat(&b, "fox-geese", "hala-tafl", 2).await;
    let sheet =
        "return getComputedStyle(document.querySelector('[data-testid=board] .frame')).fill;";
    let wood = b.run(sheet).await;
    pick(&b, "board", "slate", "board", "slate").await;
    assert_ne!(b.run(sheet).await, wood, "Fox and Geese's sheet");
    b.assert_no_console_errors().await;
    b.client.close().await.unwrap();
}

/// Where the board's drawing is in the window, and whether the page was scrolled.
const BOARD_IN_VIEW: &str =
    "const r = document.querySelector('[data-testid=board] .board > :is(svg, canvas)').getBoundingClientRect();
     const page = document.documentElement;
     return { left: r.left, top: r.top, right: r.right, bottom: r.bottom,
              width: page.clientWidth, height: page.clientHeight, scrolled: scrollY,
              wider: page.scrollWidth > page.clientWidth };";

/// Whether the whole board is in view without scrolling, and takes a fair part of the window (at
/// least half its width or its height): not made to fit by being made small.
async fn assert_board_in_view(b: &Browser, what: &str) {
    let at = b.run(BOARD_IN_VIEW).await;
    let n = |key: &str| at[key].as_f64().unwrap();
    let inside = n("left") >= 0.0
        && n("top") >= 0.0
        && n("right") <= n("width") + 0.5
        && n("bottom") <= n("height") + 0.5;
    assert!(
        inside && n("scrolled") == 0.0 && at["wider"] == json!(false),
        "{what}: the board is not all in view: {at}"
    );
    let share = ((n("right") - n("left")) / n("width")).max((n("bottom") - n("top")) / n("height"));
    assert!(share >= 0.5, "{what}: the board is small: {at}");
}

/// Every game's board, the 3D tafl board too, is all in view without scrolling on each screen;
/// the lobby and each match page are screenshotted in every look.
#[tokio::test]
async fn every_board_is_in_full_view_on_a_laptop_and_a_phone_in_every_look() {
    let addr = sqlite_server().await;
    let driver = Driver::start().await;
    for (screen, size) in SCREENS {
        let b = driver.browser(screen).await;
        b.guest(addr).await;
        for (theme, board) in LOOKS {
            set_look(&b, theme, board).await;
            b.screenshot(&format!("look-{size}-lobby-{theme}-{board}"))
                .await;
        }
        for (game, variant, seats) in GAMES {
            b.open(addr, "#/").await;
            hotseat(&b, game, variant, seats).await;
            let mut pages = vec![game];
            if game == "tafl" {
                pages.push("tafl3d");
            }
            for page in pages {
                if page == "tafl3d" {
                    b.click("toggle-3d").await;
                    b.find(&by_testid("board3d")).await;
                }
                for (theme, board) in LOOKS {
                    set_look(&b, theme, board).await;
                    assert_board_in_view(&b, &format!("{page} at {size} in {theme} {board}")).await;
                    b.screenshot(&format!("look-{size}-{page}-{theme}-{board}"))
                        .await;
                }
            }
        }
        b.assert_no_console_errors().await;
        b.client.close().await.unwrap();
    }
}
