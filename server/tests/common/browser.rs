//! A real headless Chromium for browser tests (Debian's `chromium` and `chromium-driver`), driven
//! over WebDriver by fantoccini: a chromedriver of the test's own, browser windows with their
//! own profiles, and the waits and clicks the tests are written in. Screenshots go to
//! `target/screenshots/`.
//!
//! Include it with `#[path = "common/browser.rs"] mod browser;` (it does not need `common`).
#![allow(dead_code)] // Each test binary uses its own part of this module.

use std::net::{SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a test waits for the page to show something before it fails.
pub const PATIENCE: Duration = Duration::from_secs(15);

/// A chromedriver on a free loopback port, in its own process group so that it and every
/// browser it started are killed when the test ends, even when it fails.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub async fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot run {CHROMEDRIVER} ({e}): install chromium and chromium-driver")
            });
        let driver = Driver { child, port };
        let deadline = Instant::now() + PATIENCE;
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// A new browser with a profile of its own (its own localStorage) and a screen. WebGL runs
    /// on SwiftShader, the software renderer, since there is no GPU.
    pub async fn browser(&self, screen: Screen) -> Browser {
        let size = match screen {
            Screen::Window { width, height } => format!("--window-size={width},{height}"),
            Screen::Phone => "--window-size=500,900".to_string(),
        };
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu",
                "--enable-unsafe-swiftshader",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", size,
            ],
        });
        if screen == Screen::Phone {
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}});
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("chromedriver starts a headless Chromium");
        Browser { client }
    }
}

/// The screen a browser shows pages on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    /// A desktop window of this size.
    Window { width: u32, height: u32 },
    /// A phone's 390 x 844 screen, emulated: a window cannot be that narrow.
    Phone,
}

/// The desktop window most tests use.
pub const DESKTOP: Screen = Screen::Window {
    width: 1100,
    height: 900,
};

impl Drop for Driver {
    fn drop(&mut self) {
        // The driver leads its process group, the browsers included.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

pub struct Browser {
    pub client: Client,
}

pub fn by_testid(id: &str) -> String {
    format!("[data-testid=\"{id}\"]")
}

impl Browser {
    pub async fn open(&self, addr: SocketAddr, hash: &str) {
        self.client
            .goto(&format!("http://{addr}/{hash}"))
            .await
            .unwrap();
    }

    /// Waits for an element to be in the page.
    pub async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element '{css}' in time: {e}"))
    }

    pub async fn click(&self, testid: &str) {
        self.click_css(&by_testid(testid)).await;
    }

    pub async fn click_css(&self, css: &str) {
        self.act_on(css, |element| async move { element.click().await })
            .await;
    }

    /// Does something to an element. Pages re-render when the server pushes something, so an
    /// element found a moment ago may be gone by the time it is used; then it is found anew and
    /// the action tried again.
    async fn act_on<F, Fut, T>(&self, css: &str, mut act: F) -> T
    where
        F: FnMut(fantoccini::elements::Element) -> Fut,
        Fut: std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
    {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match act(self.find(css).await).await {
                Ok(value) => return value,
                Err(fantoccini::error::CmdError::Standard(e))
                    if e.error == fantoccini::error::ErrorStatus::StaleElementReference
                        && Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("cannot act on '{css}': {e}"),
            }
        }
    }

    /// A left click at a point of the viewport, in CSS pixels: for a canvas, which has no
    /// elements inside to click.
    pub async fn click_at(&self, x: f64, y: f64) {
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x: x.round(),
                y: y.round(),
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.unwrap();
    }

    pub async fn select(&self, testid: &str, value: &str) {
        self.act_on(&by_testid(testid), |element| async move {
            element.select_by_value(value).await
        })
        .await;
    }

    pub async fn fill(&self, testid: &str, text: &str) {
        self.act_on(&by_testid(testid), |input| async move {
            input.clear().await?;
            input.send_keys(text).await
        })
        .await;
    }

    pub async fn text(&self, testid: &str) -> String {
        self.act_on(
            &by_testid(testid),
            |element| async move { element.text().await },
        )
        .await
    }

    /// Runs a script and returns its value.
    pub async fn run(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    /// Waits until a script returns a truthy value, and returns that value.
    pub async fn until(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let value = self.run(script).await;
            if !(value.is_null() || value == json!(false) || value == json!("")) {
                return value;
            }
            assert!(Instant::now() < deadline, "waited too long for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn until_text(&self, testid: &str, wanted: &str) {
        let script = format!(
            "const e = document.querySelector('{}'); return e && e.getClientRects().length > 0 && e.textContent.includes({});",
            by_testid(testid),
            json!(wanted)
        );
        self.until(&format!("'{wanted}' in {testid}"), &script)
            .await;
    }

    /// Runs `script` (a function body) on a screenshot of the window as it is now drawn, and
    /// returns its value. In it, `pixel(x, y)` is the colour at a point of the viewport given
    /// in CSS pixels, as [r, g, b]: what the player sees there, whichever elements drew it.
    pub async fn on_screenshot(&self, script: &str) -> Value {
        let png = self.client.screenshot().await.unwrap();
        let wrapped = format!(
            "const [png, done] = arguments;
             createImageBitmap(new Blob([new Uint8Array(png)], {{ type: 'image/png' }})).then((image) => {{
               const canvas = new OffscreenCanvas(image.width, image.height);
               const context = canvas.getContext('2d');
               context.drawImage(image, 0, 0);
               const scale = image.width / innerWidth;
               const pixel = (x, y) => [...context.getImageData(Math.floor(x * scale), Math.floor(y * scale), 1, 1).data.slice(0, 3)];
               done((() => {{ {script} }})());
             }}, (e) => done('cannot read the screenshot: ' + e));"
        );
        self.client
            .execute_async(&wrapped, vec![json!(png)])
            .await
            .unwrap()
    }

    pub async fn screenshot(&self, name: &str) {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let png = self.client.screenshot().await.unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Registers through the login screen and waits for the lobby.
    pub async fn register(&self, addr: SocketAddr, name: &str) {
        self.open(addr, "").await;
        self.fill("login-username", name).await;
        self.fill("login-password", "correct horse battery").await;
        self.click("register-submit").await;
        self.until_text("me", name).await;
        self.find(&by_testid("private-create")).await;
    }

    /// Plays one move on the 2D tafl board by clicking, once the piece on `from` may move: the
    /// piece, then its destination `to`, once that is highlighted.
    pub async fn play_tafl(&self, from: &str, to: &str) {
        self.until(
            &format!("{from} to be movable"),
            &format!("return !!document.querySelector('[data-testid=\"sq-{from}\"].movable');"),
        )
        .await;
        self.click(&format!("sq-{from}")).await;
        self.until(
            &format!("{to} to light up"),
            &format!("return !!document.querySelector('[data-testid=\"sq-{to}\"].target');"),
        )
        .await;
        self.click(&format!("sq-{to}")).await;
    }

    /// Enters as a guest through the login screen and waits for the lobby.
    pub async fn guest(&self, addr: SocketAddr) {
        self.open(addr, "").await;
        self.click("guest-submit").await;
        self.find(&by_testid("hotseat-create")).await;
    }

    /// Starts a hot-seat match (the variant's fewest seats) from the lobby and waits for its
    /// page; returns the match id.
    pub async fn hotseat(&self, game: &str, variant: &str) -> u64 {
        self.find(&by_testid("hotseat-create")).await;
        self.select("hotseat-game", game).await;
        self.select("hotseat-variant", variant).await;
        self.click("hotseat-create").await;
        let id = self
            .until(
                "the match page",
                "const m = location.hash.match(/^#\\/match\\/(\\d+)/); return m && Number(m[1]);",
            )
            .await;
        id.as_u64().unwrap()
    }

    /// The number of actions in the match page's move list.
    pub async fn moves(&self) -> usize {
        self.run("return document.querySelectorAll('[data-testid=move-list] [data-testid^=move-]').length;")
            .await
            .as_u64()
            .unwrap() as usize
    }

    pub async fn until_moves(&self, n: usize) {
        self.until(
            &format!("{n} moves in the list"),
            &format!(
                "return document.querySelectorAll('[data-testid=move-list] [data-testid^=move-]').length >= {n};"
            ),
        )
        .await;
    }
}
