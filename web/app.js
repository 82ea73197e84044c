// The app shell: the session (a token kept in localStorage), the login screen, the shared socket
// and the hash router that renders one page module at a time into <main id="root">.
import { Rest, ServerError, Socket } from "./api.js";
import { el } from "./dom.js";
import { loadCatalog } from "./catalog.js";
import { loadLanguage, t, translateStatic } from "./i18n.js";
import { settingsMenu } from "./settings.js";

const TOKEN_KEY = "tafl.token";

// Routes: the first path segment after `#/` names the page module; the rest are its parameters.
// A `public` page shows without a session (a visitor who has not logged in); the others show the
// login screen until there is one.
const routes = {
  "": { page: "lobby", params: [] },
  match: { page: "match", params: ["id"] },
  leaderboard: { page: "leaderboard", params: ["game", "variant"] },
  player: { page: "player", params: ["id"] },
  replay: { page: "replay", params: ["id"] },
  tournaments: { page: "tournaments", params: [] },
  tournament: { page: "tournaments", params: ["id"] },
  join: { page: "lobby", params: ["invite"] },
  rules: { page: "rules", params: ["game"], public: true },
};

const app = {
  api: new Rest(() => localStorage.getItem(TOKEN_KEY)),
  socket: null,
  me: null,
  // Invite codes of the private matches created here, by match id, for the match page to show.
  invites: new Map(),
  navigate(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
};

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

async function route() {
  const [name = "", ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const entry = routes[name] ?? routes[""];
  const params = Object.fromEntries(entry.params.map((p, i) => [p, decodeURIComponent(rest[i] ?? "")]));
  // Before the session is up: the login screen, unless one is starting (it routes once welcomed).
  if (!entry.public && !app.me) {
    if (!app.socket) {
      clearPage();
      loginScreen();
    }
    return;
  }
  clearPage();
  const ticket = rendering;
  try {
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

function showMe() {
  const me = document.getElementById("me");
  if (!app.me) {
    me.replaceChildren();
    return;
  }
  const logout = el("button", { class: "link", "data-testid": "logout" }, t("login.logout"));
  logout.onclick = async () => {
    await app.api.post("/api/logout").catch(() => {});
    endSession();
  };
  me.replaceChildren(
    el("a", { href: `#/player/${app.me.id}`, "data-testid": "me" }, app.me.name),
    " ",
    logout,
  );
}

function endSession() {
  localStorage.removeItem(TOKEN_KEY);
  app.socket?.close();
  app.socket = null;
  app.me = null;
  showMe();
  showStatus(null);
  route();
}

// Opens the socket for the stored token and renders the route once the server has welcomed us.
async function startSession() {
  const socket = new Socket(localStorage.getItem(TOKEN_KEY));
  app.socket = socket;
  socket.on("down", () => showStatus(t("connection.lost")));
  socket.on("shutdown", () => showStatus(t("connection.restarting")));
  socket.on("open", () => showStatus(null));
  // A match made by the queue, or a tournament game starting, is where the player goes next;
  // but a match page is not taken from the player for a tournament game (it may be showing the
  // result of the last one): it offers the next game instead.
  socket.on("matched", (msg) => app.navigate(`#/match/${msg.match_id}`));
  socket.on("tournament_round", (msg) => {
    if (!location.hash.startsWith("#/match/")) app.navigate(`#/match/${msg.match_id}`);
  });
  socket.on("retry", async ({ everWelcomed, attempt }) => {
    // A socket refused from the start while the server answers is a token the server no
    // longer knows (logged out elsewhere, expired, or a fresh database): log in again.
    if (everWelcomed || attempt < 2) return;
    const healthy = await fetch("/api/health").then((r) => r.ok, () => false);
    if (healthy && app.socket === socket && !socket.ready) endSession();
    else if (app.socket === socket) showStatus(t("connection.unreachable"));
  });
  const me = await socket.welcomed;
  await loadCatalog();
  if (app.socket !== socket) return;
  app.me = me;
  showMe();
  route();
}

function loginScreen() {
  const username = el("input", { name: "username", autocomplete: "username", "data-testid": "login-username", required: "" });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", "data-testid": "login-password", required: "" });
  const message = el("p", { class: "error", "data-testid": "login-error" });
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
    message,
    el("p", {}, el("a", { href: "#/rules/tafl", "data-testid": "login-rules" }, t("login.rules"))),
  );
  const enter = async (path, body) => {
    message.textContent = "";
    try {
      const session = await app.api.post(path, body);
      localStorage.setItem(TOKEN_KEY, session.token);
      await startSession();
    } catch (e) {
      message.textContent = e instanceof ServerError ? e.message : t("error.no-answer", { message: e.message });
    }
  };
  form.onsubmit = (e) => {
    e.preventDefault();
    enter("/api/login", { username: username.value, password: password.value });
  };
  register.onclick = () => {
    if (form.reportValidity()) enter("/api/register", { username: username.value, password: password.value });
  };
  guest.onclick = () => enter("/api/guest");
  root.replaceChildren(form);
}

window.addEventListener("hashchange", route);
await loadLanguage();
translateStatic();
// A new language picked in the settings menu redraws the header and the page.
document.getElementById("me").after(settingsMenu(() => {
  translateStatic();
  showMe();
  route();
}));
if (localStorage.getItem(TOKEN_KEY)) startSession();
route();

// The service worker keeps the client's files and shows an offline page when the server cannot
// be reached (see sw.js). Without it (an old browser, a page not on https or localhost) the
// client works the same, only online.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch((e) => console.warn(`no service worker: ${e.message}`));
}
