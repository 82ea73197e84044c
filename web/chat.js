// A chat panel (docs/protocol.md, "Chat"), under a heading of the page's: the messages of the
// channels the user reads, a tab for each when there are two (a match's players and spectators,
// once it is over), then the box to write in the user's channel, or a line saying why they may
// not. Each message shows its author and its text, set as text, never as HTML (a message is
// whatever someone typed), and, to a player, the way to mute its author (for them alone, kept on
// the server) or to report it to the admins. Pages give it the history (REST) and the live
// messages (the socket's `chat`); it keeps each message once, by id, in the order written.
import { el, errorLine, fill, playerLink } from "./dom.js";
import { t } from "./i18n.js";

// The longest message the server takes, in characters.
const MAX_CHARS = 500;

// `send(text)` writes a message (a promise, rejected with the server's error); a panel without it
// only reads (a replay).
export function chatPanel(app, { send } = {}) {
  const messages = new Map();
  // Whom the user muted, by id (player refs), and the messages they reported.
  const muted = new Map();
  const reported = new Set();
  let channels = [];
  let shown = null;
  let writes = null;

  const tabs = el("div", { class: "chat-tabs", role: "tablist" });
  const list = el("ol", { class: "chat-messages", "data-testid": "chat-messages", "aria-live": "polite" });
  const hint = el("p", { class: "muted chat-hint", "data-testid": "chat-hint", hidden: true });
  const input = el("input", { maxlength: MAX_CHARS, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder"), "data-testid": "chat-input" });
  const form = el("form", { class: "chat-form", hidden: true }, input, el("button", { "data-testid": "chat-send" }, t("chat.send")));
  const error = errorLine("chat-error");
  const mutes = el("details", { class: "chat-muted", hidden: true });
  const node = el("section", { class: "chat", "data-testid": "chat" }, tabs, list, hint, form, error.node, mutes);

  form.onsubmit = (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.run(async () => {
      await send(text);
      input.value = "";
    });
  };

  const mine = (m) => app.me && m.author.id === app.me.id;

  // A message's actions: mute its author, report it (with a reason typed in place).
  const actions = (m) => {
    if (!app.me || mine(m)) return null;
    if (reported.has(m.id)) return el("span", { class: "chat-actions muted" }, t("chat.reported"));
    const mute = el("button", { type: "button", class: "link", "data-testid": `chat-mute-${m.id}`, "aria-label": t("chat.mute-who", { name: m.author.name }) }, t("chat.mute"));
    mute.onclick = () => setMuted(m.author, true);
    const report = el("button", { type: "button", class: "link", "data-testid": `chat-report-${m.id}` }, t("chat.report"));
    const box = el("span", { class: "chat-actions" }, mute, " · ", report);
    report.onclick = () => {
      const reason = el("input", { maxlength: MAX_CHARS, placeholder: t("chat.report-reason"), "aria-label": t("chat.report-reason"), "data-testid": `chat-report-reason-${m.id}` });
      const file = el("form", { class: "chat-report" }, reason, el("button", { class: "small", "data-testid": `chat-report-send-${m.id}` }, t("chat.report-send")));
      file.onsubmit = async (e) => {
        e.preventDefault();
        try {
          await app.api.post(`/api/chat/${m.id}/report`, { reason: reason.value });
          reported.add(m.id);
          draw();
        } catch (err) {
          error.show(err);
        }
      };
      box.replaceWith(file);
      reason.focus();
    };
    return box;
  };

  const line = (m) => el("li", { "data-testid": `chat-message-${m.id}`, title: new Date(m.at_ms).toLocaleString() },
    el("span", { class: "chat-author" }, playerLink(m.author)), " ",
    el("span", { class: "chat-text" }, m.text), " ", actions(m));

  const draw = () => {
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    fill(tabs, channels.length > 1 ? channels.map((c) => {
      const tab = el("button", { type: "button", role: "tab", class: c === shown ? "" : "secondary", "aria-selected": String(c === shown), "data-testid": `chat-tab-${c}` }, t(`chat.channel.${c}`));
      tab.onclick = () => {
        shown = c;
        draw();
      };
      return tab;
    }) : null);
    const lines = [...messages.values()]
      .filter((m) => m.channel === shown && !muted.has(m.author.id))
      .sort((a, b) => a.id - b.id)
      .map(line);
    list.replaceChildren(...(lines.length ? lines : [el("li", { class: "muted" }, t("chat.empty"))]));
    if (atEnd) list.scrollTop = list.scrollHeight;
    form.hidden = !send || writes === null || writes !== shown;
    fill(mutes, muted.size ? [el("summary", {}, t("chat.muted", { count: muted.size })),
      el("ul", { class: "plain" }, [...muted.values()].map((p) => {
        const unmute = el("button", { type: "button", class: "link", "data-testid": `chat-unmute-${p.id}` }, t("chat.unmute"));
        unmute.onclick = () => setMuted(p, false);
        return el("li", {}, p.name, " ", unmute);
      }))] : null);
    mutes.hidden = muted.size === 0;
  };

  const setMuted = async (player, on) => {
    try {
      await app.api.request(on ? "POST" : "DELETE", `/api/mutes/${player.id}`);
      if (on) muted.set(player.id, player);
      else muted.delete(player.id);
      draw();
    } catch (err) {
      error.show(err);
    }
  };

  if (app.me) {
    app.api.get("/api/mutes").then((players) => {
      for (const p of players) muted.set(p.id, p);
      draw();
    }, () => {});
  }
  draw();

  return {
    node,
    // What the user reads and writes: the channels they read (the history says), the one they
    // write in (null: none) and a line about it (why they may not write, who reads what).
    set(options) {
      if (options.channels) channels = options.channels;
      if ("writes" in options) writes = options.writes;
      if ("hint" in options) {
        hint.hidden = !options.hint;
        hint.textContent = options.hint ?? "";
      }
      if (!channels.includes(shown)) shown = channels.includes(writes) ? writes : channels[0] ?? null;
      draw();
    },
    // Messages from the history or the socket; those already held are kept once.
    add(more) {
      for (const m of more) messages.set(m.id, m);
      draw();
    },
  };
}
