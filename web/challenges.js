// Challenges to and from the player, shown wherever they are in the client without changing the
// page: a notification in the app shell's corner (`#toasts`) for each challenge that stands, with
// its match, the time left, Accept and Decline for one sent to the player and Withdraw for their
// own. When one ends, the other player is told why for a moment; an accepted one takes both
// players to its match. The server sends every standing challenge again after each welcome, so
// the notifications are drawn afresh then.
import { el, errorLine, fill } from "./dom.js";
import { clockSpecText } from "./clock-text.js";
import { seatName } from "./catalog.js";
import { gameName, variantName } from "./names.js";
import { t } from "./i18n.js";

// How long the notice of a challenge that ended stays.
const NOTICE_MS = 8000;

// "1:45", the time left to answer, in whole seconds.
const timeLeft = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

// Shows the challenges of the player `socket` belongs to (a visitor's socket gets none).
export function showChallenges(app, socket) {
  const area = document.getElementById("toasts");
  area.replaceChildren();
  // The notification of each challenge standing, by id: its node and its challenge.
  const standing = new Map();
  let ticker = null;

  const go = (matchId) => {
    if (location.hash !== `#/match/${matchId}`) app.navigate(`#/match/${matchId}`);
  };

  const tick = () => {
    for (const { challenge, left } of standing.values()) {
      left.textContent = t("challenge.expires", { time: timeLeft(challenge.expires_ms - Date.now()) });
    }
    if (!standing.size) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  const forget = (id) => {
    standing.get(id)?.node.remove();
    standing.delete(id);
  };

  const button = (testid, text, onclick, cls) => {
    const b = el("button", { class: `small ${cls ?? ""}`, "data-testid": testid }, text);
    b.onclick = onclick;
    return b;
  };

  const draw = (c) => {
    const sent = c.from.id === socket.player?.id;
    const other = sent ? c.to : c.from;
    const error = errorLine(`challenge-error-${c.id}`);
    const left = el(sent ? "span" : "p", { class: "muted" });
    const send = (msg) => error.run(async () => {
      const ack = await socket.send(msg);
      if (ack.match_id) go(ack.match_id);
    });
    const buttons = sent
      ? [button(`challenge-withdraw-${c.id}`, t("challenge.withdraw"), () => send({ type: "withdraw_challenge", challenge_id: c.id }), "secondary")]
      : [button(`challenge-accept-${c.id}`, t("match.accept"), () => send({ type: "answer_challenge", challenge_id: c.id, accept: true })),
        button(`challenge-decline-${c.id}`, t("match.decline"), () => send({ type: "answer_challenge", challenge_id: c.id, accept: false }), "secondary")];
    const clock = t(c.rated ? "match.rated-clock" : "match.casual-clock", { clock: clockSpecText(c.clock) });
    // A rated match's takebacks are part of what is accepted (a casual one always allows them).
    const timed = c.rated && c.takebacks ? t("challenge.with-takebacks", { kind: clock }) : clock;
    const kind = c.two_games ? `${timed} · ${t("form.two-games")}` : timed;
    const terms = t("challenge.terms", { game: gameName(c.game), variant: variantName(c.game, c.variant), side: seatName(c.game, sent ? c.seat : 1 - c.seat), kind });
    // One's own challenge only waits: a line, so as to hide little of the page; its terms on
    // hovering it.
    const node = sent
      ? el("div", { class: "toast", title: terms, "data-testid": `challenge-${c.id}` },
        el("strong", {}, t("challenge.sent", { who: other.name })), el("div", { class: "row" }, left, ...buttons), error.node)
      : el("div", { class: "toast incoming", "data-testid": `challenge-${c.id}` },
        el("strong", {}, t("challenge.received", { who: other.name })), el("p", {}, terms), left, el("div", { class: "row" }, buttons), error.node);
    forget(c.id);
    standing.set(c.id, { challenge: c, node, left });
    area.append(node);
    tick();
    ticker ??= setInterval(tick, 1000);
  };

  // Why a challenge ended, for the player who did not end it; none for the one who did.
  const why = (c, reason) => {
    const sent = c.from.id === socket.player?.id;
    const who = (sent ? c.to : c.from).name;
    if (reason === "expired") return t(sent ? "challenge.expired-sent" : "challenge.expired-received", { who });
    if (reason === "declined" && sent) return t("challenge.declined", { who });
    if (reason === "withdrawn" && !sent) return t("challenge.withdrawn", { who });
    return null;
  };

  const ended = (msg) => {
    const shown = standing.get(msg.challenge_id);
    if (!shown) return;
    const text = why(shown.challenge, msg.reason);
    standing.delete(msg.challenge_id);
    if (msg.reason === "accepted") go(msg.match_id);
    if (!text) {
      shown.node.remove();
      return;
    }
    const dismiss = button(`challenge-dismiss-${msg.challenge_id}`, "\u00D7", () => shown.node.remove(), "secondary");
    dismiss.setAttribute("aria-label", t("challenge.dismiss"));
    shown.node.classList.remove("incoming");
    fill(shown.node, el("div", { class: "row notice-row" }, el("span", {}, text), dismiss));
    setTimeout(() => shown.node.remove(), NOTICE_MS);
  };

  // Welcomed (again): the server sends what stands now.
  socket.on("open", () => {
    for (const id of [...standing.keys()]) forget(id);
  });
  socket.on("challenge_open", (msg) => draw(msg.challenge));
  socket.on("challenge_ended", ended);
}
