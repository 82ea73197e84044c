// The app shell: the session (a token kept in localStorage), the login screen, the shared socket,
// the bar's notification centre (notices.js), the notifications of challenges over every page
// (challenges.js) and the hash router that renders one page module at a time into
// <main id="root">. Without a
// session the user is a visitor: the socket is a visitor's (it watches, it does not play), and
// the header offers to log in or play as a guest, which replaces the socket and keeps the page.
import { Rest, ServerError, Socket } from "./api.js";
import { navMenu } from "./bar.js";
import { showChallenges } from "./challenges.js";
import { el, errorLine } from "./dom.js";
import { loadCatalog } from "./catalog.js";
import { loadLanguage, t, translateStatic } from "./i18n.js";
import { settingsMenu } from "./settings.js";
import { noticeCentre } from "./notices.js";
import { vacationSetting } from "./vacation.js";

const TOKEN_KEY = "tafl.token";

// Routes: the first path segment after `#/` names the page module; the rest are its parameters.
// Every page shows to visitors (pages offer play to players only), except one that `plays` at
// once (joining a match by its code): it shows the login screen until there is a session.
const routes = {
  "": { page: "lobby", params: [] },
  match: { page: "match", params: ["id"] },
  leaderboard: { page: "leaderboard", params: ["game", "variant"] },
  player: { page: "player", params: ["id"] },
  replay: { page: "replay", params: ["id"] },
  tournaments: { page: "tournaments", params: [] },
  tournament: { page: "tournaments", params: ["id"] },
  join: { page: "lobby", params: ["invite"], plays: true },
  rules: { page: "rules", params: ["game"] },
  games: { page: "games", params: [] },
  analysis: { page: "analysis", params: ["source", "a", "b"] },
  learn: { page: "learn", params: ["game"] },
  "open-data": { page: "open-data", params: [] },
};

const app = {
  api: new Rest(() => localStorage.getItem(TOKEN_KEY)),
  socket: null,
  // The player, once the session's socket is welcomed; null for a visitor.
  me: null,
  // A session's socket is opening: who the user is is not known until it is welcomed.
  starting: false,
  // Invite codes of the private matches created here, by match id, for the match page to show.
  invites: new Map(),
  // The seeks posted here (match ids): when one is taken, its match starts and the player is
  // taken to it from whatever page they are on, as when the queue pairs them.
  seeks: new Set(),
  navigate(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  // What a visitor is offered wherever the page would let a player play: the login screen over
  // the page, or a guest's session at once; either way the page stays.
  login: () => {
    clearPage();
    loginScreen();
  },
  playAsGuest: () => enter("/api/guest").catch((e) => {
    clearPage();
    loginScreen(e);
  }),
  // What a page shows a visitor in place of what plays: why, and the two ways in.
  playPrompt(text = t("visitor.prompt")) {
    const login = el("button", { "data-testid": "prompt-login" }, t("login.login"));
    const guest = el("button", { class: "secondary", "data-testid": "prompt-guest" }, t("login.guest"));
    login.onclick = app.login;
    guest.onclick = app.playAsGuest;
    return el("div", { class: "prompt", "data-testid": "play-prompt" }, el("p", {}, text), el("div", { class: "row" }, login, guest));
  },
};

const notices = noticeCentre(app);
const root = document.getElementById("root");
const status = document.getElementById("status");
let cleanup = null;
let rendering = 0;

// Ends the page shown (its timers and subscriptions) and empties <main>.
function clearPage() {
  rendering += 1;
  if (cleanup) cleanup();
  cleanup = null;
  root.replaceChildren();
}

function showStatus(text) {
  status.textContent = text ?? "";
  status.hidden = !text;
}

// The route of the page's hash, and its parameters.
function current() {
  const [name = "", ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const entry = routes[name] ?? routes[""];
  return { entry, params: Object.fromEntries(entry.params.map((p, i) => [p, decodeURIComponent(rest[i] ?? "")])) };
}

async function route() {
  const { entry, params } = current();
  // A session starting routes once welcomed.
  if (app.starting) return;
  clearPage();
  if (entry.plays && !app.me) {
    loginScreen();
    return;
  }
  const ticket = rendering;
  try {
    // Pages read the catalog (a failure shows on the pages that need it).
    await loadCatalog().catch(() => {});
    const module = await import(`./pages/${entry.page}.js`);
    if (ticket !== rendering) return;
    const page = el("div", { class: `page page-${entry.page}` });
    root.replaceChildren(page);
    const done = await module.default(page, params, app);
    if (ticket !== rendering) {
      if (typeof done === "function") done();
      return;
    }
    cleanup = typeof done === "function" ? done : null;
  } catch (e) {
    if (ticket === rendering) root.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

// The header: the player's name and a way out, or a visitor's two ways in.
function showMe() {
  const me = document.getElementById("me");
  if (app.starting) {
    me.replaceChildren();
    return;
  }
  if (!app.me) {
    const login = el("button", { class: "link", "data-testid": "header-login" }, t("login.login"));
    const guest = el("button", { class: "link", "data-testid": "header-guest" }, t("login.guest"));
    login.onclick = app.login;
    guest.onclick = app.playAsGuest;
    me.replaceChildren(login, " ", guest);
    return;
  }
  const logout = el("button", { class: "link", "data-testid": "logout" }, t("login.logout"));
  logout.onclick = endSession;
  me.replaceChildren(
    el("a", { href: `#/player/${app.me.id}`, "data-testid": "me" }, app.me.name),
    " ",
    logout,
  );
}

// Logs out (the server also clears the session cookie, which the browser would otherwise send
// with the visitor's socket) and goes on as a visitor, on the same page.
async function endSession() {
  await app.api.post("/api/logout").catch(() => {});
  localStorage.removeItem(TOKEN_KEY);
  showStatus(null);
  startSession();
}

// Opens the socket: the session's, for the stored token, or a visitor's, without one. A visitor's
// page shows at once; a session's once the server has welcomed it, naming the player. The socket
// is the session's by its cookie, which the server set with the token.
async function startSession() {
  const token = localStorage.getItem(TOKEN_KEY);
  app.socket?.close();
  const socket = new Socket();
  app.socket = socket;
  app.me = null;
  app.starting = token !== null;
  notices.follow(socket);
  showMe();
  if (!token) route();
  socket.on("down", () => showStatus(t("connection.lost")));
  socket.on("shutdown", () => showStatus(t("connection.restarting")));
  socket.on("open", () => showStatus(null));
  showChallenges(app, socket);
  // A match made by the queue, or a tournament game starting, is where the player goes next;
  // but a match page is not taken from the player for a tournament game (it may be showing the
  // result of the last one): it offers the next game instead.
  socket.on("matched", (msg) => app.navigate(`#/match/${msg.match_id}`));
  socket.on("event", (msg) => {
    if (msg.event.kind === "started" && app.seeks.delete(msg.match_id)) app.navigate(`#/match/${msg.match_id}`);
  });
  socket.on("tournament_round", (msg) => {
    if (!location.hash.startsWith("#/match/")) app.navigate(`#/match/${msg.match_id}`);
  });
  socket.on("retry", async ({ everWelcomed, attempt }) => {
    // A session's socket refused from the start while the server answers is a token the
    // server no longer knows (logged out elsewhere, expired, or a fresh database): go on as a
    // visitor, who may log in again.
    if (everWelcomed || attempt < 2) return;
    const healthy = await fetch("/api/health").then((r) => r.ok, () => false);
    if (app.socket !== socket || socket.ready) return;
    if (healthy && token) endSession();
    else showStatus(t("connection.unreachable"));
  });
  if (!token) return;
  const me = await socket.welcomed;
  await loadCatalog();
  if (app.socket !== socket) return;
  // A token kept without its cookie (the browser's cookies cleared) opened a visitor's socket:
  // the session ends, and the user may log in again.
  if (!me) {
    endSession();
    return;
  }
  app.me = me;
  app.starting = false;
  notices.follow(socket);
  showMe();
  route();
}

const errorText = (e) => (e instanceof ServerError ? e.message : t("error.no-answer", { message: e.message }));

// Starts a session (logging in, registering, or a new guest) and goes on with it on the same page.
async function enter(path, body) {
  const session = await app.api.post(path, body);
  localStorage.setItem(TOKEN_KEY, session.token);
  await startSession();
}

// The login screen, with the error of a failed attempt to get in, if any.
function loginScreen(error) {
  const username = el("input", { name: "username", autocomplete: "username", "data-testid": "login-username", required: "" });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", "data-testid": "login-password", required: "" });
  const message = errorLine("login-error");
  if (error) message.show(new Error(errorText(error)));
  const back = el("button", { type: "button", class: "link", "data-testid": "login-back" }, t("login.back"));
  const login = el("button", { type: "submit", "data-testid": "login-submit" }, t("login.login"));
  const register = el("button", { type: "button", "data-testid": "register-submit" }, t("login.register"));
  const guest = el("button", { type: "button", class: "secondary", "data-testid": "guest-submit" }, t("login.guest"));
  const form = el("form", { class: "card login" },
    el("h1", {}, t("app.name")),
    el("p", {}, t("login.welcome")),
    el("label", {}, t("login.username"), username),
    el("label", {}, t("login.password"), password),
    el("div", { class: "row" }, login, register),
    el("div", { class: "row" }, guest),
    message.node,
    el("p", {}, el("a", { href: "#/rules/tafl", "data-testid": "login-rules" }, t("login.rules"))),
    // Back to the page it was shown over, when a visitor may see that page.
    current().entry.plays ? null : el("p", {}, back),
  );
  back.onclick = route;
  const tryEnter = (path, body) => message.run(() => enter(path, body).catch((e) => {
    throw new Error(errorText(e));
  }));
  form.onsubmit = (e) => {
    e.preventDefault();
    tryEnter("/api/login", { username: username.value, password: password.value });
  };
  register.onclick = () => {
    if (form.reportValidity()) tryEnter("/api/register", { username: username.value, password: password.value });
  };
  guest.onclick = () => tryEnter("/api/guest");
  root.replaceChildren(form);
}

window.addEventListener("hashchange", route);
await loadLanguage();
translateStatic();
// A new language picked in the settings menu redraws the header and the page. The menu holds a
// player's vacation switch too. On a narrow screen the page links fold behind a button at the
// bar's end.
const nav = navMenu(document.getElementById("nav"));
document.getElementById("me").before(notices.node);
document.querySelector("header.bar").append(nav.node);
document.getElementById("me").after(settingsMenu(() => {
  translateStatic();
  nav.draw();
  notices.draw();
  showMe();
  route();
}, () => vacationSetting(app)));
startSession();

// The service worker keeps the client's files and shows an offline page when the server cannot
// be reached (see sw.js). Without it (an old browser, a page not on https or localhost) the
// client works the same, only online.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch((e) => console.warn(`no service worker: ${e.message}`));
}
