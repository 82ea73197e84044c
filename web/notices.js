// The notification centre in the bar, for a player: a bell with the number of matches waiting
// for their move and a list of them, each a link to its page, from `GET /api/me/waiting`. The
// list is fetched again when the socket says it is the player's move somewhere (`your_move`, a
// correspondence match), when a move is played or a match ends on the socket, when the page
// changes and when the tab comes back into view. While the tab is hidden, a `your_move` also
// shows one of the browser's notifications, once the player has allowed them: asked from a click
// in the list, never on load.
import { el, svg } from "./dom.js";
import { clockText } from "./clock-text.js";
import { playerName, poolName } from "./names.js";
import { t } from "./i18n.js";

// The names of a match's other players, as a list in the reader's language.
const opponents = (players, me) => players.filter((p) => p && p.id !== me).map((p) => playerName(p.name)).join(", ");

export function noticeCentre(app) {
  const count = el("span", { class: "bell-count", "data-testid": "bell-count", hidden: true });
  // Drawn, not a character: not every system's fonts have a bell.
  const bell = svg("svg", { viewBox: "0 0 24 24", width: "1.1em", height: "1.1em", "aria-hidden": "true", class: "bell-icon" },
    svg("path", { fill: "currentColor", d: "M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6v-5a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" }));
  const summary = el("summary", { "data-testid": "bell" }, bell, count);
  const panel = el("div", { class: "menu-panel notices", "data-testid": "notices" });
  const menu = el("details", { class: "bell", hidden: true }, summary, panel);
  let waiting = [];
  let socket = null;
  let timer = null;

  // The browser's notifications: offered until the player has said yes or no.
  const permission = () => {
    if (!("Notification" in window)) return null;
    if (Notification.permission === "granted") return el("p", { class: "muted" }, t("notice.browser-on"));
    if (Notification.permission === "denied") return el("p", { class: "muted" }, t("notice.browser-blocked"));
    const ask = el("button", { class: "small secondary", "data-testid": "notice-permission" }, t("notice.browser-ask"));
    ask.onclick = () => Notification.requestPermission().then(draw, draw);
    return ask;
  };

  const entry = (m) => {
    const left = m.deadline_ms ? t("notice.time-left", { time: clockText(m.deadline_ms - Date.now()) }) : t("title.your-move");
    return el("li", {},
      el("a", { href: `#/match/${m.id}`, "data-testid": `notice-${m.id}` },
        el("strong", {}, poolName(m.game, m.variant)), " ", t("notice.against", { who: opponents(m.players, app.me?.id) })),
      el("div", { class: "muted" }, left, m.on_vacation?.length ? ` · ${t("notice.opponent-away")}` : ""));
  };

  function draw() {
    const n = waiting.length;
    count.hidden = n === 0;
    count.textContent = String(n);
    summary.title = t("notice.title", { count: n });
    summary.setAttribute("aria-label", summary.title);
    panel.replaceChildren(
      el("h3", {}, t("notice.heading")),
      n ? el("ul", { class: "plain", "data-testid": "notice-list" }, waiting.map(entry))
        : el("p", { class: "muted", "data-testid": "notice-none" }, t("notice.none")),
      el("p", {}, el("a", { href: "#/games", "data-testid": "notice-all-games" }, t("notice.all-games"))),
      permission());
  }

  const refresh = async () => {
    if (!app.me) return;
    waiting = await app.api.get("/api/me/waiting").catch(() => waiting);
    draw();
  };
  // Several reasons to look again often come together (a move, then the page it leads to).
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };

  const onYourMove = (msg) => {
    soon();
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    const shown = new Notification(t("notice.your-move", { game: poolName(msg.game, msg.variant) }), {
      body: t("notice.against", { who: msg.opponents.map((p) => playerName(p.name)).join(", ") }),
      tag: `match-${msg.match_id}`,
    });
    shown.onclick = () => {
      window.focus();
      app.navigate(`#/match/${msg.match_id}`);
      shown.close();
    };
  };
  const onEvent = (msg) => {
    if (msg.event.kind === "acted" || msg.event.kind === "finished") soon();
  };
  window.addEventListener("hashchange", () => {
    menu.open = false;
    soon();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) soon();
  });
  document.addEventListener("click", (e) => {
    if (menu.open && !menu.contains(e.target)) menu.open = false;
  });

  return {
    node: menu,
    // A new socket (a session starting or ending): a player's bell follows it; a visitor has none.
    follow(next) {
      socket?.off("your_move", onYourMove);
      socket?.off("event", onEvent);
      socket?.off("open", soon);
      socket = next;
      waiting = [];
      menu.hidden = !app.me;
      draw();
      if (!app.me) return;
      socket.on("your_move", onYourMove);
      socket.on("event", onEvent);
      socket.on("open", soon);
      refresh();
    },
    draw,
  };
}
