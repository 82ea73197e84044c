// The player's ongoing games on one page (`GET /api/me/games`): each with its board, its
// opponents, whose move it is and until when, and who is on vacation; the player's own moves
// first, correspondence games before the others, as the server orders them. Drawn again when the
// socket says it is the player's move somewhere, when a move is played on the socket, and every
// half minute (for the time left). A visitor is offered the way in.
import { el, errorLine, playerLink } from "../dom.js";
import { clockSpecText, clockText } from "../clock-text.js";
import { seatName } from "../catalog.js";
import { playerName, poolName } from "../names.js";
import { t } from "../i18n.js";
import { list } from "../results.js";
import { miniBoards } from "../boards/index.js";

export default async function render(root, params, app) {
  root.append(el("h1", {}, t("games.title")));
  if (!app.me) {
    root.append(app.playPrompt(t("games.prompt")));
    return;
  }
  const games = el("ul", { class: "plain matches live games", "data-testid": "games" });
  // The list's own reading, the page's one request: refused, it says why above the list.
  const error = errorLine("games-error");
  root.append(error.node, el("section", { class: "card" }, games));
  const minis = miniBoards();

  // Whose move, in words: the player's, the others' by name (or side), or nobody's yet.
  const turn = (m) => {
    if (m.status === "waiting") return el("span", { class: "muted" }, t("games.waiting-for-players"));
    if (m.to_act.some((s) => m.your_seats.includes(s))) return el("strong", { class: "your-move" }, t("title.your-move"));
    const names = m.to_act.map((s) => m.players[s]?.name ?? seatName(m.game, s));
    return el("span", {}, t("match.to-play", { who: list(names) }));
  };

  const line = async (m) => {
    const others = m.players.map((p, i) => [p, i]).filter(([, i]) => !m.your_seats.includes(i));
    const away = m.on_vacation ?? [];
    const board = await minis.box(m, { "aria-label": poolName(m.game, m.variant), "data-testid": `game-board-${m.id}` });
    const left = m.deadline_ms ? t("notice.time-left", { time: clockText(m.deadline_ms - Date.now()) }) : null;
    return el("li", { class: "live-match", "data-testid": `game-${m.id}` }, board,
      el("div", {},
        el("a", { href: `#/match/${m.id}`, "data-testid": `game-link-${m.id}` }, poolName(m.game, m.variant)),
        m.rated ? ` (${t("match.rated")})` : "",
        others.length ? [" ", t("games.against"), " ", ...others.flatMap(([p, i], k) => [k ? ", " : "", playerLink(p)])] : null),
      el("div", { "data-testid": `game-turn-${m.id}` },
        el("div", {}, turn(m)),
        el("div", { class: "muted" }, left ? [el("span", { class: "nowrap" }, left), " · "] : null, clockSpecText(m.clock)),
        away.length ? el("div", { class: "muted" }, t("games.on-vacation", { who: list(away.map((s) => m.players[s]?.name ?? seatName(m.game, s))) })) : null));
  };

  const draw = async () => {
    let ongoing;
    try {
      ongoing = await app.api.get("/api/me/games");
      error.show(null);
    } catch (e) {
      error.show(e);
      return;
    }
    const lines = await Promise.all(ongoing.map(line));
    minis.keep(ongoing.map((m) => m.id));
    games.replaceChildren(...lines);
    if (!ongoing.length) {
      games.append(el("li", { class: "muted", "data-testid": "games-none" }, t("games.none"), " ", el("a", { href: "#/" }, t("games.to-lobby"))));
    }
  };

  let timer = null;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(draw, 250);
  };
  const onEvent = (msg) => {
    if (msg.event.kind === "acted" || msg.event.kind === "finished") soon();
  };
  app.socket.on("your_move", soon);
  app.socket.on("event", onEvent);
  await draw();
  const ticker = setInterval(draw, 30000);
  return () => {
    clearTimeout(timer);
    clearInterval(ticker);
    app.socket.off("your_move", soon);
    app.socket.off("event", onEvent);
    minis.destroy();
  };
}
