//! A real headless Chromium for browser tests (Debian's `chromium` and `chromium-driver`), driven
//! over WebDriver by fantoccini: a chromedriver of the test's own, browser windows with their
//! own profiles, and the waits and clicks the tests are written in; and a relay to cut the
//! browser off the server. Screenshots go to `target/screenshots/`. The browser's console is
//! kept, so that a test can assert that a page logged no error (`console_errors`).
//!
//! Include it with `#[path = "common/browser.rs"] mod browser;` (it does not need `common`).
#![allow(dead_code)] // Each test binary uses its own part of this module.

use std::net::{SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fantoccini::actions::{
    ActionSequence, InputSource, KeyAction, KeyActions, MOUSE_BUTTON_LEFT, MouseActions,
    PointerAction, TouchActions,
};
use fantoccini::wd::WebDriverCompatibleCommand;
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
        self.browser_speaking(screen, "en-US").await
    }

    /// The same, for a reader of `language` (a BCP 47 tag, first in `navigator.languages`).
    pub async fn browser_speaking(&self, screen: Screen, language: &str) -> Browser {
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
                "--disable-sync", "--no-first-run", size, format!("--lang={language}"),
            ],
            "prefs": {"intl.accept_languages": language},
        });
        if screen == Screen::Phone {
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}});
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        caps.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
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

/// The wide screen the client is looked at on (1400 x 900), beside the phone.
pub const WIDE: Screen = Screen::Window {
    width: 1400,
    height: 900,
};

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

/// A TCP relay between the browser and the server that the test can cut, to drop the page's
/// connection as a network failure would, and then restore.
pub struct Relay {
    pub addr: SocketAddr,
    open: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    pub async fn start(target: SocketAddr) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let relay = Relay {
            addr: listener.local_addr().unwrap(),
            open: Arc::new(AtomicBool::new(true)),
            links: Arc::new(Mutex::new(Vec::new())),
        };
        let (open, links) = (relay.open.clone(), relay.links.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                // While cut, a new connection is closed at once, as by an unreachable server.
                if !open.load(Ordering::SeqCst) {
                    continue;
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                links.lock().unwrap().push(link.abort_handle());
            }
        });
        relay
    }

    /// Drops every open connection and refuses new ones.
    pub fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    pub fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

pub struct Browser {
    pub client: Client,
}

/// What drags across the page.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pointer {
    Mouse,
    Finger,
}

/// ChromeDriver's own command for the browser's console log (not in W3C WebDriver): the entries
/// since the last time it was asked.
#[derive(Debug)]
struct ConsoleLog;

impl WebDriverCompatibleCommand for ConsoleLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

/// ChromeDriver's own command to run a Chrome DevTools Protocol command in the page (not in W3C
/// WebDriver): what a test cannot do through WebDriver, such as emulating the system's colour
/// scheme.
#[derive(Debug)]
struct DevTools {
    command: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.command, "params": self.params}).to_string()),
        )
    }
}

/// Where a pointer gesture starts or ends: the centre of an element, by CSS selector.
fn centre_of(css: &str) -> String {
    format!(
        "const r = document.querySelector({}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];",
        json!(css)
    )
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

    /// The centre of an element in the viewport, in CSS pixels.
    pub async fn centre(&self, css: &str) -> (f64, f64) {
        let at = self.run(&centre_of(css)).await;
        (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
    }

    /// Drags a pointer with `button` held from the centre of one element to another's, in a few
    /// steps as a hand would: `drag(Pointer::Mouse, ..., MOUSE_BUTTON_RIGHT)` draws a lichess
    /// arrow (a right click where `from` is `to`).
    pub async fn drag(&self, pointer: Pointer, from: &str, to: &str, button: u64) {
        let (a, b) = (self.centre(from).await, self.centre(to).await);
        let at = |t: f64| PointerAction::MoveTo {
            duration: Some(Duration::from_millis(30)),
            x: (a.0 + (b.0 - a.0) * t).round(),
            y: (a.1 + (b.1 - a.1) * t).round(),
        };
        let mut steps = vec![at(0.0), PointerAction::Down { button }];
        steps.extend((1..=4).map(|step| at(f64::from(step) / 4.0)));
        steps.push(PointerAction::Up { button });
        let sequence: ActionSequence = match pointer {
            Pointer::Mouse => steps
                .into_iter()
                .fold(MouseActions::new("mouse".into()), InputSource::then)
                .into(),
            Pointer::Finger => steps
                .into_iter()
                .fold(TouchActions::new("finger".into()), InputSource::then)
                .into(),
        };
        self.client.perform_actions(sequence).await.unwrap();
    }

    /// Presses keys (characters, or WebDriver's codes such as `\u{e007}` for Enter) one after
    /// another, on whatever has the focus.
    pub async fn keys(&self, keys: &[char]) {
        let mut typing = KeyActions::new("keyboard".into());
        for &value in keys {
            typing = typing
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.client.perform_actions(typing).await.unwrap();
    }

    /// The errors the page logged to the console (and uncaught exceptions) since the last call.
    pub async fn console_errors(&self) -> Vec<String> {
        (self.console_log().await.into_iter())
            .filter(|(level, _)| level == "SEVERE")
            .map(|(_, message)| message)
            .collect()
    }

    /// Everything the page logged to the console since the last look at its log, as (level,
    /// message): `SEVERE` for errors, `WARNING`, `INFO`...
    pub async fn console_log(&self) -> Vec<(String, String)> {
        let log = self.client.issue_cmd(ConsoleLog).await.unwrap();
        log.as_array()
            .into_iter()
            .flatten()
            .map(|entry| {
                let text = |field: &str| entry[field].as_str().unwrap_or_default().to_string();
                (text("level"), text("message"))
            })
            .collect()
    }

    /// Fails the test if the page logged an error.
    pub async fn assert_no_console_errors(&self) {
        let errors = self.console_errors().await;
        assert!(errors.is_empty(), "the page logged errors: {errors:#?}");
    }

    /// Makes the page see the system's colour scheme as `scheme` ("light" or "dark"), as the
    /// `prefers-color-scheme` media feature reports it.
    pub async fn emulate_colour_scheme(&self, scheme: &str) {
        let features = json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]});
        self.client
            .issue_cmd(DevTools {
                command: "Emulation.setEmulatedMedia",
                params: features,
            })
            .await
            .unwrap();
    }

    /// Starts counting the sounds the page plays: `HTMLAudioElement.prototype.play` is stubbed
    /// to count its calls by the sound's name (`window.played`), playing nothing.
    pub async fn count_sounds(&self) {
        self.run(
            "window.played = [];
             HTMLAudioElement.prototype.play = function () {
               window.played.push(this.dataset.sound || this.src);
               return Promise.resolve();
             };",
        )
        .await;
    }

    /// The sounds played since `count_sounds`, by name.
    pub async fn sounds(&self) -> Vec<String> {
        serde_json::from_value(self.run("return window.played || [];").await).unwrap()
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

    /// Runs an expression whose value is a promise, and returns what it resolves to (a rejection
    /// fails the test).
    pub async fn resolve(&self, promise: &str) -> Value {
        let script = format!(
            "const done = arguments[arguments.length - 1];
             Promise.resolve().then(() => {promise}).then((v) => done({{ok: v}}), (e) => done({{error: String(e)}}));"
        );
        let answer = self.client.execute_async(&script, vec![]).await.unwrap();
        match answer.get("ok") {
            Some(value) => value.clone(),
            None => panic!("{promise} failed: {answer}"),
        }
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

    /// Signs in with a session made outside the browser, kept where the client keeps one (the
    /// token in localStorage, for REST, and the `session` cookie, for the socket), and opens
    /// `hash`.
    pub async fn sign_in(&self, addr: SocketAddr, token: &str, hash: &str) {
        self.open(addr, "").await;
        self.run(&format!(
            "localStorage.setItem('tafl.token', {token}); document.cookie = `session=${{{token}}}; Path=/; SameSite=Lax`;",
            token = json!(token)
        ))
        .await;
        self.open(addr, hash).await;
        self.client.refresh().await.unwrap();
    }

    /// Registers through the login screen (from the visitor's lobby) and waits for the lobby.
    pub async fn register(&self, addr: SocketAddr, name: &str) {
        self.open(addr, "").await;
        self.click("header-login").await;
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

    /// Enters as a guest from the visitor's lobby and waits for the lobby's forms.
    pub async fn guest(&self, addr: SocketAddr) {
        self.open(addr, "").await;
        self.click("header-guest").await;
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
