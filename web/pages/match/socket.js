// The match page's glue to the shared socket (api.js): the messages it listens to, handed on as
// they come, and the commands it sends, each naming the match. No rule of the page lives here.

// What the fold of state.js reads.
const FOLDED = ["snapshot", "event", "watchers", "series_finished", "rematch_offered", "rematch_declined", "rematch_lapsed", "rematch_started"];

// Follows match `matchId` on `socket`: `receive(msg)` gets every message the fold reads, `chat`
// the chat messages, `round` a tournament's round starting, `open` each welcome (the first and
// after every reconnection), `down` a dropped connection.
export function follow(socket, matchId, { receive, chat, round, open, down }) {
  const handlers = [...FOLDED.map((type) => [type, receive]), ["chat", chat], ["tournament_round", round], ["open", open], ["down", down]];
  for (const [type, handler] of handlers) socket.on(type, handler);
  return {
    get ready() {
      return socket.ready;
    },
    // A command about the match; resolves with its ack, rejects with the server's error.
    send: (msg) => socket.send({ match_id: matchId, ...msg }),
    stop() {
      for (const [type, handler] of handlers) socket.off(type, handler);
      if (socket.ready) socket.send({ type: "unwatch", match_id: matchId }).catch(() => {});
    },
  };
}
