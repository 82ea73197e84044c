// The lobby: quick play (the matchmaking queue), play the AI, private matches by invite code,
// hot-seat matches on one screen, open challenges to join, live matches to watch (each with a
// small board of its position and how many watch it), and the way to leaderboards and
// tournaments, and the lobby's chat, which everyone reads and accounts write in. A visitor sees
// the matches and a prompt to log in or play as a guest in place of the forms. `#/join/<code>`
// lands here and joins the private match at once.
import { el, errorLine, playerLink, watchersText } from "../dom.js";
import { DAY_MS, perMoveText } from "../clock-text.js";
import { clockOf, games } from "../catalog.js";
import { gameName, poolName, timeName, variantName } from "../names.js";
import { t } from "../i18n.js";
import { boardFor, miniBoards } from "../boards/index.js";
import { chatPanel } from "../chat.js";
import { gamePicker, seatSelect, select, takebacksBox, timeOptions } from "../pickers.js";

// The forms that play, for a player: quick play, the AI, a friend and the hot seat. Returns their
// cards, what refreshes them, and how to join a private match by its code (an error shown in
// `error`, or beside the code's box when none is given).
async function playCards(app, { goTo }) {
  // The variants the pickers start on, as the first game's board suggests them.
  const suggested = (await boardFor(games[0]?.id).catch(() => null))?.lobbyVariants ?? {};

  // Quick play.
  const quick = gamePicker("queue", { variant: suggested.main });
  const quickTime = select("queue-time", timeOptions(), "blitz");
  // Guests play casual games only: the server refuses them anything rated.
  const ratedBox = (testid) => el("input", {
    type: "checkbox", checked: !app.me.guest, disabled: app.me.guest, "data-testid": testid,
    title: app.me.guest ? t("lobby.guest-casual") : undefined,
  });
  const quickRated = ratedBox("queue-rated");
  const quickTwoGames = el("input", { type: "checkbox", "data-testid": "queue-two-games" });
  const queueState = el("p", { class: "muted", "data-testid": "queue-state" });
  const joinQueue = el("button", { "data-testid": "queue-join" }, t("lobby.find-opponent"));
  const leaveQueue = el("button", { class: "secondary", "data-testid": "queue-leave", hidden: true }, t("lobby.leave-queue"));
  const sizes = el("ul", { class: "plain", "data-testid": "queue-sizes" });
  const queued = (on) => {
    joinQueue.hidden = on;
    leaveQueue.hidden = !on;
    queueState.textContent = on ? t("lobby.waiting-for-opponent") : "";
  };
  const quickError = errorLine("queue-error");
  joinQueue.onclick = () => quickError.run(async () => {
    await app.socket.send({ type: "queue_join", ...quick.value(), time_control: quickTime.value, rated: quickRated.checked, two_games: quickTwoGames.checked });
    queued(true);
    refreshQueue();
  });
  leaveQueue.onclick = async () => {
    await app.socket.send({ type: "queue_leave" }).catch(() => {});
    queued(false);
    refreshQueue();
  };
  const refreshQueue = async () => {
    const pools = await app.api.get("/api/queue").catch(() => []);
    sizes.replaceChildren(...pools.map((p) =>
      el("li", {}, t(p.rated ? "lobby.pool-rated" : "lobby.pool", {
        game: gameName(p.game), variant: variantName(p.game, p.variant), seats: p.seats, time: timeName(p.time_control), count: p.waiting,
      }))));
    if (!pools.length) sizes.append(el("li", { class: "muted" }, t("lobby.nobody-waiting")));
  };

  // Play the AI.
  const ai = gamePicker("ai", { variant: suggested.short });
  const aiLevel = select("ai-level", [1, 2, 3, 4, 5].map((l) => [String(l), t("lobby.level", { level: l })]), "1");
  const aiSeat = seatSelect(ai, "ai-seat");
  const aiTime = select("ai-time", [["", t("time.none")], ...timeOptions()], "");
  const aiRated = ratedBox("ai-rated");
  aiRated.checked = false;
  const playAi = el("button", { "data-testid": "ai-play" }, t("lobby.play-ai"));
  const aiError = errorLine("ai-error");
  playAi.onclick = () => aiError.run(async () => {
    const { game, variant, seats } = ai.value();
    const msg = { type: "play_ai", game, variant, seats, level: Number(aiLevel.value), seat: Number(aiSeat.value), rated: aiRated.checked };
    if (aiTime.value) msg.time_control = aiTime.value;
    goTo((await app.socket.send(msg)).match_id);
  });

  // A private match, and joining one by its code.
  const priv = gamePicker("private", { variant: suggested.main });
  const privSeat = seatSelect(priv, "private-seat");
  // Fischer clocks, then correspondence: days a move.
  const privTime = select("private-time", [["", t("time.none")], ["bullet", "1+0"], ["blitz", "5+3"], ["rapid", "15+10"], ["classical", "30+20"],
    ...[1, 3, 7, 14].map((days) => [`days-${days}`, perMoveText(days * DAY_MS)])], "");
  const privRated = ratedBox("private-rated");
  const privTakebacks = takebacksBox(privRated, "private-takebacks");
  // A custom variant, for a game whose board declares `customRules` (tafl: any OpenTafl rules
  // string the server's engine accepts), previewed as it is typed, with the engine's own error
  // naming what it refuses. Casual only.
  const custom = el("textarea", { rows: 3, spellcheck: "false", "data-testid": "custom-rules" });
  const customError = el("p", { class: "error", "data-testid": "custom-error" });
  const customPreview = el("div", { class: "preview", "data-testid": "custom-preview" });
  const customTitle = el("summary", {});
  const customBox = el("details", { class: "custom", hidden: true }, customTitle, custom, customError, customPreview);
  let previewBoard = null;
  let previewTimer = null;
  const showPreview = async () => {
    const rules = custom.value.trim();
    previewBoard?.destroy();
    previewBoard = null;
    customError.textContent = "";
    customPreview.replaceChildren();
    privRated.disabled = app.me.guest || rules !== "";
    if (rules) privRated.checked = false;
    privRated.dispatchEvent(new Event("change"));
    if (!rules) return;
    const { game } = priv.value();
    try {
      const preview = await app.api.get(`/api/games/${encodeURIComponent(game)}/preview?variant=${encodeURIComponent(rules)}`);
      if (custom.value.trim() !== rules) return;
      const target = el("div", { class: "board" });
      customPreview.append(target);
      previewBoard = (await boardFor(game)).create(target, { game, variant: rules, rules: preview.rules, seats: preview.seats, perspective: null, onAction: () => {} });
      previewBoard.update({ view: preview.view, toAct: [], mySeats: [], legal: [], log: [], last: null, result: null });
    } catch (e) {
      if (custom.value.trim() === rules) customError.textContent = e.message;
    }
  };
  custom.oninput = () => {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(showPreview, 250);
  };
  // The box shows for the picked game when its board takes custom rules.
  const showCustom = async () => {
    const { game } = priv.value();
    const options = (await boardFor(game).catch(() => null))?.customRules;
    if (priv.value().game !== game) return;
    customBox.hidden = !options;
    if (!options) return;
    customTitle.textContent = options.label;
    custom.placeholder = options.placeholder ?? "";
  };
  priv.nodes.forEach((n) => n.addEventListener("change", showCustom));
  await showCustom();
  const createPrivate = el("button", { "data-testid": "private-create" }, t("lobby.create-private"));
  const privateError = errorLine("private-error");
  createPrivate.onclick = () => privateError.run(async () => {
    const msg = { type: "create_match", ...priv.value(), visibility: "private", rated: privRated.checked, takebacks: privTakebacks.value(), seat: Number(privSeat.value) };
    if (!customBox.hidden && custom.value.trim()) msg.variant = custom.value.trim();
    if (privTime.value) msg.clock = clockOf(privTime.value);
    const ack = await app.socket.send(msg);
    app.invites.set(ack.match_id, ack.invite);
    goTo(ack.match_id);
  });
  const code = el("input", { placeholder: t("lobby.invite-code"), "data-testid": "join-code", autocomplete: "off" });
  const join = el("button", { "data-testid": "join-submit" }, t("lobby.join"));
  const joinError = errorLine("join-error");
  const joinByCode = (invite, error = joinError) => error.run(async () => {
    goTo((await app.socket.send({ type: "join_match", invite: invite.trim() })).match_id);
  });
  join.onclick = () => joinByCode(code.value);

  // Hot seat.
  const hot = gamePicker("hotseat", { variant: suggested.short });
  const hotPlay = el("button", { "data-testid": "hotseat-create" }, t("lobby.start-hotseat"));
  const hotError = errorLine("hotseat-error");
  hotPlay.onclick = () => hotError.run(async () => {
    goTo((await app.socket.send({ type: "create_match", ...hot.value(), hotseat: true })).match_id);
  });

  return {
    cards: [
      el("section", { class: "card" }, el("h2", { "data-testid": "quick-title" }, t("lobby.quick-play")), ...quick.nodes,
        el("label", {}, t("form.time"), quickTime), el("label", { class: "check" }, quickRated, t("form.rated")),
        el("label", { class: "check" }, quickTwoGames, t("form.two-games")),
        el("div", { class: "row" }, joinQueue, leaveQueue), quickError.node, queueState, el("h3", {}, t("lobby.waiting-now")), sizes),
      el("section", { class: "card" }, el("h2", {}, t("lobby.play-ai")), ...ai.nodes,
        el("label", {}, t("lobby.level-label"), aiLevel), el("label", {}, t("lobby.your-side"), aiSeat), el("label", {}, t("form.time"), aiTime),
        el("label", { class: "check" }, aiRated, t("form.rated")), el("div", { class: "row" }, playAi), aiError.node),
      el("section", { class: "card" }, el("h2", {}, t("lobby.play-friend")), ...priv.nodes,
        el("label", {}, t("lobby.your-side"), privSeat), el("label", {}, t("form.time"), privTime),
        el("label", { class: "check" }, privRated, t("form.rated")), privTakebacks.node, customBox, el("div", { class: "row" }, createPrivate),
        privateError.node, el("h3", {}, t("lobby.join-by-code")), el("div", { class: "row" }, code, join), joinError.node),
      el("section", { class: "card" }, el("h2", {}, t("lobby.hot-seat")), el("p", { class: "muted" }, t("lobby.hot-seat-hint")),
        ...hot.nodes, el("div", { class: "row" }, hotPlay), hotError.node),
    ],
    refresh: refreshQueue,
    joinByCode,
  };
}

export default async function render(root, params, app) {
  // What no control of the page caused (an invite link followed) shows at its top.
  const message = errorLine("lobby-error");
  const goTo = (matchId) => app.navigate(`#/match/${matchId}`);
  const play = app.me ? await playCards(app, { goTo }) : null;

  // Open challenges (matches waiting for players) to join; a visitor who would join is offered
  // the way in first.
  const players = (m) => m.players.flatMap((p, i) => (i ? [t("match.versus"), playerLink(p)] : [playerLink(p)]));
  const matchLine = (m, prefix, label, onclick) => {
    const go = el("button", { class: "small", "data-testid": `${prefix}-${m.id}` }, label);
    go.onclick = onclick;
    return el("div", {}, go, ` ${poolName(m.game, m.variant)}${m.rated ? ` (${t("match.rated")})` : ""}: `, ...players(m));
  };
  const isMine = (m) => m.players.some((p) => p && p.id === app.me?.id);
  const open = el("ul", { class: "plain matches", "data-testid": "open-matches" });
  const openError = errorLine("open-error");
  const drawOpen = (waiting) => {
    open.replaceChildren(...waiting.map((m) => el("li", {}, matchLine(m, "open", t(isMine(m) ? "player.open" : "lobby.join"), () => {
      if (!app.me) return app.login();
      return openError.run(async () => {
        if (!isMine(m)) await app.socket.send({ type: "join_match", match_id: m.id });
        goTo(m.id);
      });
    }))));
    if (!waiting.length) open.append(el("li", { class: "muted" }, t("lobby.no-open")));
  };

  // Live matches to watch, each with its board, drawn again only when its position changed.
  const live = el("ul", { class: "plain matches live", "data-testid": "live-matches" });
  const minis = miniBoards();
  const miniOf = (m) => minis.box(m, { "aria-label": poolName(m.game, m.variant), "data-testid": `live-board-${m.id}` });
  const drawLive = async (playing) => {
    const boxes = await Promise.all(playing.map(miniOf));
    minis.keep(playing.map((m) => m.id));
    live.replaceChildren(...playing.map((m, i) => el("li", { class: "live-match" }, boxes[i],
      matchLine(m, "live", t(isMine(m) ? "move.play" : "player.watch"), () => goTo(m.id)),
      el("div", { class: "muted", "data-testid": `live-watchers-${m.id}` }, watchersText(m.watchers)))));
    if (!playing.length) live.append(el("li", { class: "muted" }, t("lobby.no-live")));
  };

  const refreshLive = async () => {
    const [waiting, playing] = await Promise.all([
      app.api.get("/api/matches/open").catch(() => []),
      app.api.get("/api/matches/live").catch(() => []),
    ]);
    drawOpen(waiting);
    await drawLive(playing);
  };

  // The lobby's chat: followed on the socket (again after every reconnection), with the history
  // read after each follow. Guests and visitors read it.
  const chat = chatPanel(app, { send: (text) => app.socket.send({ type: "chat", text }) });
  const writer = app.me && !app.me.guest;
  chat.set({ channels: ["lobby"], writes: writer ? "lobby" : null, hint: writer ? null : t(app.me ? "chat.guest-lobby" : "chat.visitor") });
  const followChat = async () => {
    await app.socket.send({ type: "watch_lobby" }).catch(() => {});
    const history = await app.api.get("/api/chat/lobby").catch(() => null);
    if (history) chat.add(history.messages);
  };
  const onChat = (msg) => {
    if (msg.message.channel === "lobby") chat.add([msg.message]);
  };
  app.socket.on("chat", onChat);
  app.socket.on("open", followChat);
  if (app.socket.ready) followChat();

  const leaderboards = el("ul", { class: "plain links" }, games.flatMap((g) =>
    g.variants.map((v) => el("li", {}, el("a", { href: `#/leaderboard/${g.id}/${v}` }, poolName(g.id, v))))));

  const openCard = el("section", { class: "card wide" }, el("h2", {}, t("lobby.open-challenges")), open, openError.node);
  const liveCard = el("section", { class: "card wide" }, el("h2", { "data-testid": "live-title" }, t("lobby.live-matches")), live);
  const chatCard = el("section", { class: "card wide" }, el("h2", {}, t("chat.title")), chat.node);
  const boardsCard = el("section", { class: "card wide" }, el("h2", {}, t("nav.leaderboards")), leaderboards,
    el("p", {}, el("a", { href: "#/tournaments", "data-testid": "tournaments-link" }, `${t("nav.tournaments")} →`)));
  const learnCard = el("section", { class: "card wide", "data-testid": "lobby-learn" }, el("h2", {}, t("learn.title")),
    el("p", {}, t("learn.lobby")), el("p", { class: "row" },
      el("a", { href: "#/learn/tafl", class: "button", "data-testid": "lobby-learn-link" }, t("learn.begin")),
      el("a", { href: "#/learn", "data-testid": "lobby-learn-all" }, t("learn.all"))));
  // A visitor sees what is being played first, under the way in and the way to learn.
  const cards = play
    ? [...play.cards, learnCard, chatCard, openCard, liveCard, boardsCard]
    : [el("section", { class: "card wide" }, app.playPrompt(t("visitor.prompt-lobby"))),
      learnCard, liveCard, chatCard, openCard, boardsCard];
  root.append(el("h1", {}, app.me ? t("lobby.welcome-player", { name: app.me.name }) : t("lobby.welcome")), message.node, el("div", { class: "grid" }, cards));

  if (params.invite) play?.joinByCode(params.invite, message);
  play?.refresh();
  refreshLive();
  const timer = setInterval(() => {
    play?.refresh();
    refreshLive();
  }, 5000);
  return () => {
    clearInterval(timer);
    minis.destroy();
    app.socket.off("chat", onChat);
    app.socket.off("open", followChat);
    if (app.socket.ready) app.socket.send({ type: "unwatch_lobby" }).catch(() => {});
  };
}
