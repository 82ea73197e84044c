// The lobby: "Play now" (the Copenhagen queue, with the AI offered after a wait), the games
// players posted for anyone to take in one click (seeks: public matches waiting for players) and
// the form to post one, how many wait in each queue, quick play (any queue), play the AI, private
// matches by invite code, hot-seat matches on one screen, live matches to watch (each with a
// small board of its position and how many watch it), and the way to leaderboards and
// tournaments, and the lobby's chat, which everyone reads and accounts write in. The seeks and
// the queue's counts come live over the socket. A visitor sees the seeks, the counts and the
// matches, and a prompt to log in or play as a guest in place of the forms. `#/join/<code>`
// lands here and joins the private match at once.
import { el, errorLine, playerLink, watchersText } from "../dom.js";
import { DAY_MS, clockSpecText, perMoveText, waitedText } from "../clock-text.js";
import { clockOf, games, seatName } from "../catalog.js";
import { gameName, poolName, timeName, variantName } from "../names.js";
import { t } from "../i18n.js";
import { boardFor, miniBoards } from "../boards/index.js";
import { chatPanel } from "../chat.js";
import { gamePicker, seatSelect, select, takebacksBox, timeOptions } from "../pickers.js";

// Play now's game: Copenhagen at blitz, the pool players are most likely waiting in.
const PLAY_NOW = { game: "tafl", variant: "copenhagen", time_control: "blitz" };

// How long Play now waits for a human before offering the AI: about as long as a player waits
// before wondering whether anyone is there, and twenty of the queue's pairing waves (one a
// second), in which its rating window widens towards whoever waits.
const AI_OFFER_AFTER_MS = 20000;

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
  const queued = (on) => {
    joinQueue.hidden = on;
    leaveQueue.hidden = !on;
    queueState.textContent = on ? t("lobby.waiting-for-opponent") : "";
  };
  const quickError = errorLine("queue-error");
  joinQueue.onclick = () => quickError.run(async () => {
    await app.socket.send({ type: "queue_join", ...quick.value(), time_control: quickTime.value, rated: quickRated.checked, two_games: quickTwoGames.checked });
    queued(true);
  });
  leaveQueue.onclick = async () => {
    await app.socket.send({ type: "queue_leave" }).catch(() => {});
    queued(false);
  };

  // A game posted for anyone to take (a seek): a public match waiting for its opponent.
  const seek = gamePicker("seek", { variant: suggested.main });
  const seekSeat = seatSelect(seek, "seek-seat");
  const seekTime = select("seek-time", [["", t("time.none")], ...timeOptions()], "blitz");
  const seekRated = ratedBox("seek-rated");
  const post = el("button", { "data-testid": "seek-post" }, t("lobby.post"));
  const seekError = errorLine("seek-error");
  post.onclick = () => seekError.run(async () => {
    const msg = { type: "create_match", ...seek.value(), visibility: "open", rated: seekRated.checked, seat: Number(seekSeat.value) };
    if (seekTime.value) msg.clock = clockOf(seekTime.value);
    app.seeks.add((await app.socket.send(msg)).match_id);
  });

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
        el("div", { class: "row" }, joinQueue, leaveQueue), quickError.node, queueState),
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
    // The fields side by side, the game's rules under them.
    seekForm: el("div", { class: "seek-form" }, el("h3", {}, t("lobby.post-game")),
      el("div", { class: "fields" }, ...seek.nodes.filter((n) => !n.classList.contains("rules-hint")),
        el("label", {}, t("form.time"), seekTime), el("label", {}, t("lobby.your-side"), seekSeat)),
      ...seek.nodes.filter((n) => n.classList.contains("rules-hint")),
      el("label", { class: "check" }, seekRated, t("form.rated")), el("p", { class: "muted" }, t("lobby.post-hint")),
      el("div", { class: "row" }, post), seekError.node),
    joinByCode,
  };
}

// Play now: one button that queues the player for Copenhagen, the wait counting up beside it;
// after AI_OFFER_AFTER_MS the AI at the level nearest their rating is offered (the queue says
// which when it takes them), the player staying in the queue until they take it. `sizes`: the
// queue's counts, shown under it. `leave()`, when the page goes: the wait ends with it.
function playNowCard(app, sizes) {
  const rated = !app.me.guest;
  const start = el("button", { class: "big", "data-testid": "play-now" }, t("lobby.play-now"));
  const startRow = el("div", { class: "row" }, start);
  const cancel = el("button", { class: "secondary", "data-testid": "play-now-cancel", hidden: true }, t("lobby.leave-queue"));
  const what = el("p", { class: "muted" }, t(rated ? "lobby.play-now-rated" : "lobby.play-now-casual", {
    pool: poolName(PLAY_NOW.game, PLAY_NOW.variant), time: timeName(PLAY_NOW.time_control),
  }));
  const wait = el("p", { class: "wait", "data-testid": "play-now-wait", "aria-live": "polite", hidden: true });
  const offer = el("p", { "data-testid": "play-now-offer", hidden: true }, t("lobby.play-now-nobody"));
  const ai = el("button", { "data-testid": "play-now-ai", hidden: true });
  const error = errorLine("play-now-error");
  let since = null;
  let level = null;
  let ticker = null;
  const show = () => {
    const waiting = since !== null;
    const waited = waiting ? Date.now() - since : 0;
    startRow.hidden = waiting;
    cancel.hidden = wait.hidden = !waiting;
    wait.textContent = waiting ? t("lobby.play-now-waiting", { time: waitedText(waited) }) : "";
    const offering = waiting && level !== null && waited >= AI_OFFER_AFTER_MS;
    offer.hidden = ai.hidden = !offering;
    if (offering) ai.textContent = t("lobby.play-now-ai", { level });
  };
  const stop = () => {
    clearInterval(ticker);
    since = level = null;
    show();
  };
  const leave = () => app.socket.send({ type: "queue_leave" }).catch(() => {});
  // A socket that drops leaves the queue: the wait is over, and Play now may be pressed again.
  app.socket.on("down", stop);
  start.onclick = () => error.run(async () => {
    const ack = await app.socket.send({ type: "queue_join", ...PLAY_NOW, rated });
    since = Date.now();
    level = ack.ai_level ?? null;
    // Four times a second, so that the count never skips a second.
    ticker = setInterval(show, 250);
    show();
  });
  cancel.onclick = () => {
    stop();
    leave();
  };
  ai.onclick = () => error.run(async () => {
    const chosen = level;
    stop();
    await leave();
    // Either side: the player chose neither.
    const seat = Math.floor(Math.random() * 2);
    const msg = { type: "play_ai", game: PLAY_NOW.game, variant: PLAY_NOW.variant, level: chosen, seat, time_control: PLAY_NOW.time_control, rated };
    app.navigate(`#/match/${(await app.socket.send(msg)).match_id}`);
  });
  const node = el("section", { class: "card play-now" }, el("h2", {}, t("lobby.play-now")), what,
    startRow, wait, offer, el("div", { class: "row" }, ai, cancel), error.node,
    el("h3", {}, t("lobby.waiting-now")), sizes);
  return {
    node,
    leave: () => {
      app.socket.off("down", stop);
      if (since !== null) leave();
      stop();
    },
  };
}

export default async function render(root, params, app) {
  // What no control of the page caused (an invite link followed) shows at its top.
  const message = errorLine("lobby-error");
  const goTo = (matchId) => app.navigate(`#/match/${matchId}`);
  const play = app.me ? await playCards(app, { goTo }) : null;

  // The queue's counts, for everyone: pushed as they change, read at first and now and then.
  const sizes = el("ul", { class: "plain", "data-testid": "queue-sizes" });
  const drawPools = (pools) => {
    sizes.replaceChildren(...pools.map((p) =>
      el("li", {}, t(p.rated ? "lobby.pool-rated" : "lobby.pool", {
        game: gameName(p.game), variant: variantName(p.game, p.variant), seats: p.seats, time: timeName(p.time_control), count: p.waiting,
      }))));
    if (!pools.length) sizes.append(el("li", { class: "muted" }, t("lobby.nobody-waiting")));
  };
  const refreshPools = async () => drawPools(await app.api.get("/api/queue").catch(() => []));
  const playNow = app.me ? playNowCard(app, sizes) : null;

  const players = (m) => m.players.flatMap((p, i) => (i ? [t("match.versus"), playerLink(p)] : [playerLink(p)]));
  const matchLine = (m, prefix, label, onclick) => {
    const go = el("button", { class: "small", "data-testid": `${prefix}-${m.id}` }, label);
    go.onclick = onclick;
    return el("div", {}, go, ` ${poolName(m.game, m.variant)}${m.rated ? ` (${t("match.rated")})` : ""}: `, ...players(m));
  };
  const isMine = (m) => m.players.some((p) => p && p.id === app.me?.id);

  // The seeks: games posted for anyone to take in one click (a visitor is offered the way in
  // first), each with its game, clock, rating and who waits on which side; the player's own with
  // the button that withdraws it. Pushed as they change, read at first and now and then.
  const open = el("ul", { class: "plain matches seeks", "data-testid": "open-matches" });
  const openError = errorLine("open-error");
  const seekFacts = (m) => [poolName(m.game, m.variant), clockSpecText(m.clock), t(m.rated ? "match.rated" : "lobby.casual")].join(" · ");
  const posters = (m) => m.players.flatMap((p, seat) => (p ? [el("span", {}, playerLink(p), " ", t("lobby.plays-side", { side: seatName(m.game, seat) }))] : []));
  // The player's own seeks, and those they withdrew: one of theirs gone from the list otherwise
  // was taken, and takes them to its match.
  let mySeeks = [];
  const withdrawn = new Set();
  const take = (m) => {
    if (!app.me) return app.login();
    return openError.run(async () => {
      await app.socket.send({ type: "join_match", match_id: m.id });
      goTo(m.id);
    });
  };
  const withdraw = (m) => openError.run(async () => {
    withdrawn.add(m.id);
    await app.socket.send({ type: "abort", match_id: m.id, seat: m.players.findIndex((p) => p?.id === app.me.id) });
  });
  const seekLine = (m) => {
    const mine = isMine(m);
    const go = el("button", { class: mine ? "small secondary" : "small", "data-testid": `${mine ? "withdraw" : "open"}-${m.id}` },
      t(mine ? "lobby.withdraw" : "lobby.accept"));
    go.onclick = () => (mine ? withdraw(m) : take(m));
    return el("li", { class: "seek" }, go, el("span", { class: "seek-facts" }, seekFacts(m)), el("span", { class: "muted" }, ...posters(m)));
  };
  const drawOpen = (waiting) => {
    const listed = new Set(waiting.map((m) => m.id));
    for (const id of mySeeks.filter((id) => !listed.has(id) && !withdrawn.has(id))) {
      app.api.get(`/api/matches/${id}`).then((m) => m.summary.status === "live" && location.hash !== `#/match/${id}` && goTo(id), () => {});
    }
    mySeeks = waiting.filter(isMine).map((m) => m.id);
    open.replaceChildren(...waiting.map(seekLine));
    if (!waiting.length) open.append(el("li", { class: "muted" }, t("lobby.no-open")));
  };
  const onSeeks = (msg) => drawOpen(msg.seeks);
  const onPools = (msg) => drawPools(msg.pools);
  app.socket.on("seeks", onSeeks);
  app.socket.on("queue_pools", onPools);

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

  const openCard = el("section", { class: "card seeks-card" }, el("h2", {}, t("lobby.open-challenges")), open, openError.node,
    ...(play ? [play.seekForm] : []));

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
    ? [playNow.node, openCard, ...play.cards, learnCard, chatCard, liveCard, boardsCard]
    : [el("section", { class: "card wide" }, app.playPrompt(t("visitor.prompt-lobby"))),
      openCard, el("section", { class: "card" }, el("h2", {}, t("lobby.waiting-now")), sizes), learnCard, liveCard, chatCard, boardsCard];
  root.append(el("h1", {}, app.me ? t("lobby.welcome-player", { name: app.me.name }) : t("lobby.welcome")), message.node, el("div", { class: "grid" }, cards));

  if (params.invite) play?.joinByCode(params.invite, message);
  refreshPools();
  refreshLive();
  const timer = setInterval(() => {
    refreshPools();
    refreshLive();
  }, 5000);
  return () => {
    clearInterval(timer);
    minis.destroy();
    playNow?.leave();
    app.socket.off("seeks", onSeeks);
    app.socket.off("queue_pools", onPools);
    app.socket.off("chat", onChat);
    app.socket.off("open", followChat);
    if (app.socket.ready) app.socket.send({ type: "unwatch_lobby" }).catch(() => {});
  };
}
