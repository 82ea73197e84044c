// A player's page: their ratings in every pool, a chart of their rating history (one line per
// pool, drawn here in SVG), and their recent matches, finished ones linking to their replays.
// To another player, the way to follow them and to challenge them (when they take challenges
// from the visitor's account); to the player themself, whom they take challenges from and whom
// they follow. A visitor sees none of it.
import { el, errorLine, svg, playerLink } from "../dom.js";
import { ServerError } from "../api.js";
import { SEAT_COLOURS } from "../boards/shared.js";
import { clockOf, seatName } from "../catalog.js";
import { playerName, poolIdName, poolName } from "../names.js";
import { t } from "../i18n.js";
import { reasonText } from "../results.js";
import { gamePicker, seatSelect, select, takebacksBox, timeOptions } from "../pickers.js";

const CHART_W = 640;
const CHART_H = 240;
const MARGIN = { left: 48, right: 12, top: 12, bottom: 28 };

export default async function render(root, params, app) {
  const id = Number(params.id);
  let profile;
  let matches;
  try {
    [profile, matches] = await Promise.all([
      app.api.get(`/api/players/${id}`),
      app.api.get(`/api/players/${id}/matches`),
    ]);
  } catch (e) {
    root.append(el("p", { class: "error", "data-testid": "player-error" }, e instanceof ServerError ? e.message : String(e)));
    return;
  }
  const pools = profile.ratings.map((r) => r.pool);
  const colour = (pool) => SEAT_COLOURS[Math.max(0, pools.indexOf(pool)) % SEAT_COLOURS.length];

  let own = [];
  try {
    own = !app.me ? [] : app.me.id === id ? await ownCards(app, profile) : await otherCards(app, profile);
  } catch (e) {
    own = [el("p", { class: "error" }, e.message)];
  }
  root.append(
    el("h1", { "data-testid": "player-name" }, playerName(profile.player.name), profile.player.guest ? el("span", { class: "muted" }, ` (${t("player.guest")})`) : null),
    ...own,
    el("div", { class: "card" },
      el("h2", {}, t("player.ratings")),
      profile.ratings.length
        ? el("table", { "data-testid": "ratings" },
          el("thead", {}, el("tr", {}, el("th", {}, t("player.pool")), el("th", {}, t("leaderboard.rating")), el("th", {}, t("leaderboard.games")))),
          el("tbody", {}, profile.ratings.map((r) => el("tr", {},
            el("td", {}, el("span", { class: "swatch", style: `background: ${colour(r.pool)}` }), el("a", { href: `#/leaderboard/${r.pool}` }, poolIdName(r.pool))),
            el("td", {}, r.rating.toFixed(0)),
            el("td", {}, String(r.games))))))
        : el("p", { class: "muted" }, t("player.no-rated-games")),
      profile.history.length ? historyChart(profile.history, pools, colour) : null),
    el("div", { class: "card" },
      el("h2", {}, t("player.recent-matches")),
      matches.length ? matchTable(matches, id) : el("p", { class: "muted" }, t("player.no-matches"))),
  );
}

// To another player: follow or unfollow them, and challenge them to a two-player match (its
// notification, and theirs, say what becomes of it).
async function otherCards(app, profile) {
  const them = profile.player;
  const [mine, theirs] = await Promise.all([
    app.api.get(`/api/players/${app.me.id}/follows`),
    profile.challenges === "followed" ? app.api.get(`/api/players/${them.id}/follows`) : [],
  ]);
  // Under the buttons (challenge, follow): what the server refused.
  const error = errorLine("challenge-error");
  let following = mine.some((p) => p.id === them.id);
  // Guests do not follow: their accounts are thrown away.
  const follow = el("button", { class: "secondary", "data-testid": "follow", hidden: app.me.guest });
  const drawFollow = () => {
    follow.textContent = t(following ? "follow.unfollow" : "follow.follow");
  };
  drawFollow();
  follow.onclick = () => error.run(async () => {
    const path = `/api/players/${them.id}/follow`;
    await (following ? app.api.delete(path) : app.api.post(path));
    following = !following;
    drawFollow();
  });

  const takes = profile.challenges === "everyone" || theirs.some((p) => p.id === app.me.id);
  const title = el("h2", {}, t("challenge.title", { name: playerName(them.name) }));
  if (!takes) {
    const why = profile.challenges === "nobody" ? "challenge.nobody" : "challenge.followed-only";
    return [el("section", { class: "card challenge-card" }, title,
      el("p", { class: "muted", "data-testid": "challenge-refused" }, t(why, { name: playerName(them.name) })), el("div", { class: "row" }, follow), error.node)];
  }
  const picker = gamePicker("challenge", { twoSeatsOnly: true });
  const side = seatSelect(picker, "challenge-seat");
  const time = select("challenge-time", timeOptions(), "blitz");
  // Guests play casual games only, on either side.
  const casual = app.me.guest || them.guest;
  const rated = el("input", { type: "checkbox", checked: !casual, disabled: casual, "data-testid": "challenge-rated" });
  const twoGames = el("input", { type: "checkbox", "data-testid": "challenge-two-games" });
  const takebacks = takebacksBox(rated, "challenge-takebacks");
  const send = el("button", { "data-testid": "challenge-send" }, t("challenge.send"));
  send.onclick = () => error.run(async () => {
    const { game, variant } = picker.value();
    const msg = { type: "challenge", player: them.id, game, variant, seat: Number(side.value), rated: rated.checked, takebacks: takebacks.value(), two_games: twoGames.checked };
    const clock = clockOf(time.value);
    if (clock) msg.clock = clock;
    await app.socket.send(msg);
  });
  return [el("section", { class: "card challenge-card" }, title,
    el("div", { class: "challenge-form" }, ...picker.nodes, el("label", {}, t("lobby.your-side"), side), el("label", {}, t("form.time"), time),
      el("label", { class: "check" }, rated, t("form.rated")), takebacks.node, el("label", { class: "check" }, twoGames, t("form.two-games"))),
    el("div", { class: "row" }, send, follow), error.node)];
}

// To the player themself: whom they take challenges from, and whom they follow.
async function ownCards(app, profile) {
  const follows = await app.api.get(`/api/players/${app.me.id}/follows`);
  const saved = el("span", { class: "muted", "data-testid": "challenge-setting-saved" });
  const setting = select("challenge-setting", ["everyone", "followed", "nobody"].map((p) => [p, t(`challenge.setting.${p}`)]), profile.challenges);
  const error = errorLine("challenge-setting-error");
  setting.onchange = () => {
    saved.textContent = "";
    return error.run(async () => {
      await app.api.put("/api/settings", { challenges: setting.value });
      saved.textContent = t("challenge.setting-saved");
    });
  };
  return [el("section", { class: "card" },
    el("h2", {}, t("challenge.settings-title")),
    el("label", {}, t("challenge.setting"), setting), saved, error.node,
    el("h3", {}, t("follow.following")),
    follows.length
      ? el("ul", { class: "plain", "data-testid": "follows" }, follows.map((p) => el("li", {}, playerLink(p))))
      : el("p", { class: "muted" }, t("follow.none")))];
}

/// The rating after each rated match, oldest to newest left to right, one polyline per pool.
function historyChart(history, pools, colour) {
  const ratings = history.flatMap((h) => [h.before, h.after]);
  const low = Math.floor(Math.min(...ratings) / 50) * 50;
  const high = Math.max(low + 50, Math.ceil(Math.max(...ratings) / 50) * 50);
  const plotW = CHART_W - MARGIN.left - MARGIN.right;
  const plotH = CHART_H - MARGIN.top - MARGIN.bottom;
  // x is the match's place in the whole history, so pools share one time axis.
  const x = (i) => MARGIN.left + (history.length === 1 ? plotW / 2 : (i / (history.length - 1)) * plotW);
  const y = (rating) => MARGIN.top + (1 - (rating - low) / (high - low)) * plotH;

  const chart = svg("svg", {
    viewBox: `0 0 ${CHART_W} ${CHART_H}`, width: "100%", role: "img",
    "aria-label": t("player.rating-history"), "data-testid": "rating-chart", class: "chart", style: "max-width: 100%; height: auto",
  });
  const step = (high - low) / 4;
  for (let k = 0; k <= 4; k++) {
    const value = low + k * step;
    chart.append(
      svg("line", { x1: MARGIN.left, x2: CHART_W - MARGIN.right, y1: y(value), y2: y(value), class: "grid-line" }),
      svg("text", { x: MARGIN.left - 6, y: y(value) + 4, "text-anchor": "end", "font-size": 11 }, value.toFixed(0)));
  }
  chart.append(
    svg("text", { x: MARGIN.left, y: CHART_H - 8, "font-size": 11 }, new Date(history[0].at_ms).toLocaleDateString()),
    svg("text", { x: CHART_W - MARGIN.right, y: CHART_H - 8, "text-anchor": "end", "font-size": 11 },
      new Date(history[history.length - 1].at_ms).toLocaleDateString()));
  for (const pool of pools) {
    const points = history.map((h, i) => [h, i]).filter(([h]) => h.pool === pool);
    if (!points.length) continue;
    chart.append(svg("polyline", {
      points: points.map(([h, i]) => `${x(i).toFixed(1)},${y(h.after).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour(pool), "stroke-width": 2.5, "data-testid": `chart-${pool}`,
    }));
    for (const [h, i] of points) {
      chart.append(svg("circle", { cx: x(i), cy: y(h.after), r: 3.5, fill: colour(pool) },
        svg("title", {}, t("player.rating-change", { pool: poolIdName(pool), before: h.before.toFixed(0), after: h.after.toFixed(0), match: h.match_id }))));
    }
  }
  return chart;
}

// The player's matches, newest first: the game, every seat with its side, the player's own side
// and outcome, and a link to watch or replay.
function matchTable(matches, me) {
  const outcome = (m) => {
    if (!m.result) return t(`status.${m.status}`, {}, m.status);
    const seat = m.players.findIndex((p) => p && p.id === me);
    const places = m.result.places;
    const best = Math.min(...places);
    const reason = reasonText(m.result.reason);
    if (places.every((p) => p === best)) return t("player.drew", { reason });
    return t(places[seat] === best ? "player.won" : "player.lost", { reason, side: seatName(m.game, seat) });
  };
  // Each cell but the first and the link names its column, for the lines stacked on a phone.
  const [players, result] = [t("player.players"), t("player.result")];
  return el("table", { class: "stack", "data-testid": "player-matches" },
    el("thead", {}, el("tr", {}, el("th", {}, t("player.game")), el("th", {}, players), el("th", {}, result), el("th", {}, ""))),
    el("tbody", {}, matches.map((m) => el("tr", { "data-testid": `match-row-${m.id}` },
      el("td", {}, `${poolName(m.game, m.variant)}${m.rated ? ` (${t("match.rated")})` : ""}`),
      el("td", { "data-label": players }, m.players.flatMap((p, i) => [i ? ", " : "", playerLink(p), el("small", { class: "muted" }, ` (${seatName(m.game, i)})`)])),
      el("td", { "data-label": result }, outcome(m)),
      el("td", {}, m.status === "finished" || m.status === "aborted"
        ? el("a", { href: `#/replay/${m.id}`, "data-testid": `replay-link-${m.id}` }, t("player.replay"))
        : el("a", { href: `#/match/${m.id}` }, t(m.status === "live" ? "player.watch" : "player.open")))))));
}
