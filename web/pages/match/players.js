// The match page's head: the game and its clock, the players with their clocks, whose turn it is,
// how many watch, and a private match's invitation while a seat is free.
import { el, playerLink, rulesLink, watchersText } from "../../dom.js";
import { clockSpecText, clockText } from "../../clock-text.js";
import { seatName } from "../../catalog.js";
import { playerName, poolName } from "../../names.js";
import { t } from "../../i18n.js";
import { list } from "../../results.js";
import { LOW_TIME_MS } from "./aids.js";
import { firstMoveLeft, runningClock, toActMine } from "./state.js";

// The turn line: the match over, waiting for players, the user's move, or who is to play (by
// player, or by side in a hot-seat match), with "(watching)" to a spectator.
export function turnText(m) {
  const toPlay = (name) => t("match.to-play", { who: list(m.toAct.map(name)) });
  let text;
  if (m.result) text = t("match.over");
  else if (!m.started) text = t("match.waiting-for-seats");
  else if (toActMine(m).length) text = m.yourSeats.length === m.seats.length ? toPlay((s) => seatName(m.game, s)) : t("title.your-move");
  else text = toPlay((s) => playerName(m.seats[s].player?.name) ?? seatName(m.game, s));
  return m.yourSeats.length ? text : `${text} (${t("match.watching")})`;
}

// `tick(ms)` sounds the user's own running clock under low time.
export function playersView(app, matchId, tick) {
  const header = el("div", { class: "match-head" });
  const players = el("div", { class: "players" });
  const turn = el("p", { class: "turn", "data-testid": "turn" });
  const watchers = el("p", { class: "muted", "data-testid": "watchers", hidden: true });
  const invite = el("p", { class: "invite", hidden: true });

  const drawSeats = (m, now) => {
    players.replaceChildren(...m.seats.map((s, i) => el("div", {
      class: `player${m.toAct.includes(i) ? " to-act" : ""}${m.yourSeats.includes(i) ? " mine" : ""}`,
      "data-testid": `player-${i}`,
    },
    el("span", { class: "side" }, seatName(m.game, i)), " ", playerLink(s.player),
    s.vacationUntil !== null
      ? el("span", { class: "muted", "data-testid": `vacation-${i}` }, ` (${t("match.on-vacation", { until: new Date(s.vacationUntil).toLocaleString() })})`)
      : null,
    // Who is away matters while the game is played; after it, nobody is told who comes and goes.
    s.player && !s.connected && s.vacationUntil === null && !m.result ? el("span", { class: "muted" }, ` (${t("match.away")})`) : null,
    s.clockMs !== null ? el("span", { class: "clock", "data-testid": `clock-${i}` }, clockText(runningClock(m, i, now))) : null,
    s.clockMs !== null ? el("span", { class: "first-move muted", "data-testid": `first-move-${i}` }) : null)));
  };

  // Before a seat's first move its clock stands still, shown as not started, with the time left
  // for that move while it is to play.
  const drawFirstMove = (m, i, now, clock) => {
    const note = players.querySelector(`[data-testid="first-move-${i}"]`);
    const left = m.result ? null : firstMoveLeft(m, i, now);
    clock.classList.toggle("not-started", left !== null);
    if (!note) return;
    note.hidden = left === null;
    if (left === null) return;
    note.textContent = m.toAct.includes(i)
      ? t("match.first-move-within", { time: clockText(left) })
      : t("match.clock-not-started");
  };

  const drawInvite = (m) => {
    const code = app.invites.get(matchId);
    const waiting = m.seats.some((s) => !s.player);
    invite.hidden = !(code && waiting);
    if (code && waiting) {
      const link = `${location.origin}/#/join/${code}`;
      invite.replaceChildren(`${t("match.invite-code")} `, el("code", { "data-testid": "invite-code" }, code),
        ` ${t("match.invite-link")} `, el("a", { href: link, "data-testid": "invite-link" }, link));
    }
  };

  // The clocks as they stand at `now`, counted down locally between the server's word.
  const drawClocks = (m, now) => {
    m.seats.forEach((_, i) => {
      const node = players.querySelector(`[data-testid="clock-${i}"]`);
      const ms = runningClock(m, i, now);
      if (!node || ms === null) return;
      node.textContent = clockText(ms);
      node.classList.toggle("low", ms < LOW_TIME_MS);
      drawFirstMove(m, i, now, node);
      if (m.yourSeats.includes(i) && m.started && !m.result && m.toAct.includes(i) && m.seats[i].firstMoveMs === null) tick(ms);
    });
  };

  return {
    header, players, turn, watchers, invite,
    draw(m, now) {
      header.replaceChildren(el("h1", {}, poolName(m.game, m.variant)),
        el("p", {}, rulesLink(m.game)),
        el("p", { class: "muted" }, t(m.rated ? "match.rated-clock" : "match.casual-clock", { clock: clockSpecText(m.clock) })));
      drawSeats(m, now);
      drawClocks(m, now);
      turn.textContent = turnText(m);
      drawInvite(m);
    },
    drawClocks,
    drawWatchers(count) {
      watchers.hidden = false;
      watchers.textContent = watchersText(count);
    },
  };
}
