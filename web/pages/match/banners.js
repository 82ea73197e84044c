// The match page's banners: the result (with the rating changes, the links on and the rematch),
// the two-game match's line, and a tournament's next game of the user's once its round starts.
import { button, el, fill, recordLink } from "../../dom.js";
import { seatName } from "../../catalog.js";
import { playerName } from "../../names.js";
import { t } from "../../i18n.js";
import { describeResult, list, playerAndSide, reasonText, winners } from "../../results.js";
import { playsAgainst } from "./state.js";

// "You win: the king escaped" to a player; the winners by player and side to anyone else (and
// in a hot-seat match, where the user plays every side).
export function resultText(m, r) {
  if (r.reason === "aborted") return t("result.aborted");
  const first = winners(r);
  if (playsAgainst(m) && first.length < r.places.length) {
    return t(first.some((s) => m.yourSeats.includes(s)) ? "result.you-win" : "result.you-lose", { reason: reasonText(r.reason) });
  }
  return describeResult(m.game, r, (s) => playerAndSide(m.game, s, m.seats[s].player));
}

// A seat's rating change: "anna, Defenders (white): 1500 → 1516 (+16.0)".
export function ratingText(m, r) {
  const delta = r.after - r.before;
  return `${playerAndSide(m.game, r.seat, m.seats[r.seat].player)}: ${Math.round(r.before)} → ${Math.round(r.after)} (${delta >= 0 ? "+" : ""}${delta.toFixed(1)})`;
}

// A two-game match's score, and its result once finished (null before).
export function scoreText(s) {
  return t("series.score", { first: s.players[0].name, a: s.score[0], b: s.score[1], second: s.players[1].name });
}

export function seriesResult(s) {
  if (s.status !== "finished") return null;
  if (s.winner === undefined) return t("series.drawn");
  const who = s.players[s.winner].name;
  return s.tiebreak ? t(`series.won-${s.tiebreak}`, { who }) : t("series.won", { who });
}

// The rematch as the page shows it: `text`, what stands, and `offer`, what the user may do:
// "withdraw" their agreement, "answer" another's offer, "offer" one, or null. `started` is the
// rematch's match, once there is one. `me` is the user's player, null for a visitor.
export function rematchLine(state, me) {
  const m = state.match;
  const name = (seat) => playerName(m.seats[seat].player?.name) ?? seatName(m.game, seat);
  // A tournament's games have none: the tournament pairs the next ones.
  const playing = Boolean(me) && m.yourSeats.length > 0 && m.seats.every((s) => s.player) && !m.tournament;
  const r = state.rematch ?? {};
  if (r.started) return { started: r.started, text: null, offer: null };
  if (r.agreed) {
    const agreed = m.yourSeats.every((s) => r.agreed.includes(s));
    const waiting = [...new Set(m.seats.map((_, i) => i).filter((i) => !r.agreed.includes(i)).map(name))];
    if (playing && agreed) return { text: t("rematch.waiting", { who: list(waiting) }), offer: "withdraw" };
    return { text: t("rematch.offered-by", { who: name(r.agreed[0]) }), offer: playing ? "answer" : null };
  }
  let text = null;
  if (r.declined !== undefined) text = t("rematch.declined", { who: name(r.declined) });
  if (r.lapsed !== undefined) text = t("rematch.lapsed", { who: name(r.lapsed) });
  const offer = playing && !m.yourSeats.some((s) => state.offeredBy.includes(s)) ? "offer" : null;
  return { text, offer };
}

// How long game 1's result stays in view, with the score, before its players are taken to game 2.
export const GAME_2_AFTER_MS = 8000;

// `answer(accept)` answers the rematch, `offer()` offers it; `navigate(hash)` follows a link.
export function bannersView(app, matchId, { answer, offer, navigate }) {
  const banner = el("div", { class: "banner", "data-testid": "result", hidden: true });
  const seriesLine = el("p", { class: "notice", "data-testid": "series", hidden: true });
  const nextGame = el("p", { class: "notice", hidden: true });
  // Game 2 of a two-game match, once game 1 is over: {match, at: when its players go there}.
  let game2 = null;
  let counting = null;

  // Game 1's players see its result and the score for a few seconds, counted, before they are
  // taken to game 2 (at once with "Go on"); anyone else is offered the way there.
  const goOn = () => {
    const line = el("div", { class: "row rematch", "data-testid": "series-next" });
    if (!game2.at) {
      line.append(el("a", { href: `#/match/${game2.match}`, "data-testid": "rematch-link" }, t("series.watch-game-2")));
      return line;
    }
    const left = el("span", { "data-testid": "series-count" });
    const count = () => {
      const secs = Math.max(0, Math.ceil((game2.at - performance.now()) / 1000));
      left.textContent = t("series.game-2-in", { secs });
      if (secs === 0) go();
    };
    const go = () => {
      clearInterval(counting);
      counting = null;
      navigate(`#/match/${game2.match}`);
    };
    clearInterval(counting);
    counting = setInterval(count, 250);
    count();
    line.append(left, button("series-go-on", t("series.go-on"), go));
    return line;
  };

  const rematch = (state) => {
    if (game2) return goOn();
    const line = rematchLine(state, app.me);
    if (line.started) {
      return el("div", { class: "rematch" }, el("a", { href: `#/match/${line.started}`, "data-testid": "rematch-link" }, t("rematch.watch")));
    }
    const buttons = {
      withdraw: () => [button("rematch-take-back", t("rematch.take-back"), () => answer(false), "secondary")],
      answer: () => [button("rematch-accept", t("match.accept"), () => answer(true)), button("rematch-decline", t("match.decline"), () => answer(false), "secondary")],
      offer: () => [button("rematch", t("rematch.offer"), offer)],
    }[line.offer]?.() ?? [];
    if (!line.text && !buttons.length) return null;
    return el("div", { class: "row rematch", "data-testid": "rematch-box" }, line.text ? el("span", { "data-testid": "rematch-text" }, line.text) : null, ...buttons);
  };

  const drawBanner = (state) => {
    const m = state.match;
    banner.hidden = !m.result;
    if (!m.result) return;
    const ratings = (m.result.ratings ?? []).map((r) => el("li", { "data-testid": `rating-${r.seat}` }, ratingText(m, r)));
    const decided = m.series?.game === 2 && state.series ? seriesResult(state.series) : null;
    const score = m.series?.game === 1 && state.series ? t("series.score-after-1", { score: scoreText(state.series) }) : null;
    fill(banner,
      el("strong", { "data-testid": "result-text" }, resultText(m, m.result)),
      decided ? el("p", { "data-testid": "series-result" }, `${decided} · ${scoreText(state.series)}`) : null,
      score ? el("p", { "data-testid": "series-score" }, score) : null,
      ratings.length ? el("ul", { class: "plain" }, ratings) : null,
      el("div", {}, el("a", { href: `#/replay/${matchId}` }, t("player.replay")), " · ",
        el("a", { href: `#/analysis/match/${matchId}/${m.log.length}`, "data-testid": "analyse-link" }, t("analysis.open")), " · ",
        recordLink(matchId, app.invites.get(matchId)),
        " · ", el("a", { href: "#/" }, t("match.back-to-lobby"))),
      rematch(state),
    );
  };

  return {
    banner, seriesLine, nextGame,
    drawBanner,
    // Game 1 is over and game 2 has started: its players are taken there after the count.
    seriesGoesOn(state, match, playing) {
      game2 = { match, at: playing ? performance.now() + GAME_2_AFTER_MS : null };
      drawBanner(state);
      // In view, where the banner may be out of sight (under the board on a phone), once the
      // page has laid it out.
      requestAnimationFrame(() => banner.querySelector("[data-testid=series-next]")?.scrollIntoView({ block: "center" }));
    },
    stop() {
      clearInterval(counting);
    },
    drawSeries(state) {
      const m = state.match;
      seriesLine.hidden = !m.series;
      if (!m.series) return;
      fill(seriesLine, t("series.game-of", { game: m.series.game }), state.series ? ` · ${scoreText(state.series)}` : "");
      drawBanner(state);
    },
    // Our next tournament game has started: the page stays on what it shows (the result of the
    // last game, most likely) and offers the way there.
    drawNextGame(round, next) {
      nextGame.hidden = false;
      fill(nextGame, `${t("match.round-begun", { round })} `, button("next-round", t("match.next-round"), () => navigate(`#/match/${next}`)));
    },
  };
}
