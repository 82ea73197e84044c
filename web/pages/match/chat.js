// The match's chat (chat.js draws it): a player writes to the players, anyone else following to
// the spectators, and each reads only their own channel until the game is over, then both. The
// history is read over REST after every watch (and when the game ends, which opens the other
// channel); new messages come on the socket.
import { chatPanel } from "../../chat.js";
import { t } from "../../i18n.js";

// Where the user writes and what the panel says of it: `writes`, the channel ("players",
// "spectators") or null; `hint`, who reads it while the game goes on, or why the user may not
// write (a visitor; a guest, who writes only to the players of their own matches). `me` is the
// user's player, null for a visitor.
export function chatAccess(m, me) {
  const seated = m.yourSeats.length > 0;
  if (!me) return { writes: null, hint: t("chat.visitor") };
  if (!seated && me.guest) return { writes: null, hint: t("chat.guest-spectators") };
  const hint = m.result !== null ? null : t(seated ? "chat.players-only" : "chat.spectators-only");
  return { writes: seated ? "players" : "spectators", hint };
}

// `send(text)` writes a message to the match's chat.
export function matchChat(app, matchId, send) {
  const panel = chatPanel(app, { send });
  return {
    node: panel.node,
    // What was said before, as the user may read it now; merged with what the socket brought.
    // `closed()` says whether the page is gone by the time the history comes.
    async load(closed) {
      const invite = app.invites.get(matchId);
      const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
      const history = await app.api.get(`/api/matches/${matchId}/chat${query}`).catch(() => null);
      if (!history || closed()) return;
      panel.set({ channels: history.channels });
      panel.add(history.messages);
    },
    draw(m) {
      panel.set(chatAccess(m, app.me));
    },
    // A message from the socket, shown when it is this match's.
    told(msg) {
      if (msg.message.match_id === matchId) panel.add([msg.message]);
    },
  };
}
