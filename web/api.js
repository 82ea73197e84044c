// The client's two channels to the server: REST (`Rest`), authenticated with the session token in
// its header, and the WebSocket (`Socket`), by the session cookie the server set with the token
// (without one, the socket is a visitor's). A token never goes in a URL, which would show in
// console errors and in proxies' logs. Failures are
// `ServerError`s carrying the protocol's error `code`, which callers act on (the message is for people).
import { t } from "./i18n.js";

// A refusal: the protocol's `code`, its finer `reason` with the reason's `params`, and as its
// message the reason's text in the reader's language (the server's English `message` for a
// reason this client does not know, or none).
export class ServerError extends Error {
  constructor(code, message, reason, params) {
    super(reason ? reasonText(reason, params, message) : message);
    this.code = code;
    // The server's own sentence, in English: what a page that quotes the engine's words shows
    // where the engine names no reason its catalog words.
    this.serverMessage = message;
    this.reason = reason;
    this.params = params ?? {};
    // Why the engine refused a move, in the reader's language (null where it names no reason).
    this.why = whyText(this.params);
  }
}

// The text of an error's reason, with its parameters put in; `message`, the server's English
// sentence, for a reason no catalog has. The reasons named after the codes, which have no finer
// words of their own, quote that sentence as `{message}`. An illegal move's text goes on with the
// engine's reason why, in English only where no catalog words that reason.
export function reasonText(reason, params = {}, message) {
  const text = t(`error.${reason}`, { ...params, message }, message);
  if (!params.why) return text;
  return `${text} ${whyText(params) ?? message}`;
}

// The engine's reason why an action is illegal (`why`, with its `why_params`), in the reader's
// language; null where the refusal names none or no catalog words it.
export function whyText(params) {
  return params?.why ? t(`why.${params.why}`, params.why_params ?? {}, null) : null;
}

// An error of the server's, as the REST body or the socket's `error` message carries it.
const refusal = (body) => new ServerError(body.code, body.message, body.reason, body.params);

export class Rest {
  constructor(token) {
    this.token = token;
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body) {
    return this.request("POST", path, body);
  }

  put(path, body) {
    return this.request("PUT", path, body);
  }

  delete(path) {
    return this.request("DELETE", path);
  }

  async request(method, path, body) {
    const headers = {};
    if (this.token()) headers.Authorization = `Bearer ${this.token()}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return null;
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      throw data?.code ? refusal(data) : new ServerError("internal", `HTTP ${response.status}`);
    }
    return data;
  }
}

// Delays between reconnection attempts: quick at first (a blip), then backing off to a few
// seconds (a server restart) and staying there.
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_MS = 25000;

// The shared WebSocket: says hello, numbers commands and matches their answers, hands every other
// message to the handlers registered for its type, and reconnects with backoff when the socket
// drops. Handlers of "open" run after every (re)connection's welcome, so pages can watch again
// (with `since`, to resume); handlers of "down" run when the socket drops. Without a session
// cookie the socket is a visitor's: it may watch, and `welcomed` resolves with no player.
export class Socket {
  constructor() {
    this.handlers = new Map();
    this.pending = new Map();
    this.counter = 0;
    this.idPrefix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.attempt = 0;
    // The player the server welcomed this socket as; null for a visitor's, and until welcomed.
    this.player = null;
    this.ready = false;
    this.everWelcomed = false;
    this.closed = false;
    this.welcomed = new Promise((resolve, reject) => {
      this.resolveWelcome = resolve;
      this.rejectWelcome = reject;
    });
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    // Protocol version 2: visitors (no session) are served only from version 2 on.
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", version: 2 }));
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = () => this.dropped(ws);
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.ready = true;
      this.everWelcomed = true;
      this.attempt = 0;
      this.player = msg.player ?? null;
      this.resolveWelcome(this.player);
      this.pinger = setInterval(() => this.raw({ type: "ping", nonce: Date.now() }), PING_MS);
      this.emit("open", msg);
      return;
    }
    if (msg.type === "shutdown") {
      // The server is restarting and says when to come back; the close follows.
      this.comeBackAfter = msg.reconnect_after_ms;
    }
    if ((msg.type === "ack" || msg.type === "error") && msg.id && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === "ack") resolve(msg);
      else reject(refusal(msg));
      return;
    }
    this.emit(msg.type, msg);
  }

  dropped(ws) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    const wasReady = this.ready;
    this.ready = false;
    for (const { reject } of this.pending.values()) {
      reject(new ServerError("disconnected", t("connection.dropped")));
    }
    this.pending.clear();
    if (this.closed) return;
    if (wasReady) this.emit("down", {});
    const delay = this.comeBackAfter ?? BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.comeBackAfter = undefined;
    this.attempt += 1;
    this.emit("retry", { attempt: this.attempt, delay, everWelcomed: this.everWelcomed });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  raw(msg) {
    if (this.ready) this.ws.send(JSON.stringify(msg));
  }

  // Sends a command; resolves with its ack, rejects with a ServerError (code "disconnected"
  // when the socket is down: nothing was sent, or its answer was lost with the connection).
  send(msg) {
    if (!this.ready) {
      return Promise.reject(new ServerError("disconnected", t("connection.none")));
    }
    this.counter += 1;
    // Unique across reloads and tabs: the server answers a command id it has already carried
    // out (same seat and action) with the original ack, as a resend.
    const id = `${this.idPrefix}-${this.counter}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  on(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(handler);
  }

  off(type, handler) {
    this.handlers.get(type)?.delete(handler);
  }

  emit(type, msg) {
    for (const handler of [...(this.handlers.get(type) ?? [])]) handler(msg);
  }

  // Closes for good (logging in or out replaces the socket): no reconnection, nothing more sent.
  close() {
    this.closed = true;
    this.ready = false;
    clearTimeout(this.retryTimer);
    clearInterval(this.pinger);
    this.ws.close();
  }
}
