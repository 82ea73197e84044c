// Tournaments: the list and a form to create one (`#/tournaments`), and one tournament
// (`#/tournament/<id>`): entrants, registration, adding AI entrants and starting (its creator),
// the rounds' games and the standings, kept live by the socket's `tournament_standings` pushes.
// A visitor reads them all; creating and registering offer the way in first.
import { el, errorLine, playerLink } from "../dom.js";
import { games, timeControls } from "../catalog.js";
import { gameName, poolName, timeName, variantName } from "../names.js";
import { variantOptions } from "../pickers.js";
import { t } from "../i18n.js";
import { reasonText } from "../results.js";

const FORMATS = ["round_robin", "double_round_robin", "swiss", "knockout"];

// A tournament's format in words ("Swiss, 5 rounds").
function formatText(format, rounds) {
  const name = t(`tournament.format.${format}`, {}, format.replaceAll("_", " "));
  return rounds ? t("tournament.format-rounds", { format: name, count: rounds }) : name;
}

// Where a tournament stands: registering, round 2 of 5, finished.
function statusText(s) {
  if (s.status !== "running") return t(`tournament.status.${s.status}`, {}, s.status);
  return s.rounds ? t("tournament.round-of", { round: s.round, rounds: s.rounds }) : t("tournament.round", { round: s.round });
}

export default async function render(root, params, app) {
  return params.id ? details(root, Number(params.id), app) : list(root, app);
}

async function list(root, app) {
  // Under the create button (its refusals), and where the list could not be read.
  const message = errorLine("tournament-create-error");
  const name = el("input", { "data-testid": "tournament-name", placeholder: t("tournament.name-example"), maxlength: 80 });
  const twoSeat = games.filter((g) => g.seats[0] === 2);
  const game = el("select", { "data-testid": "tournament-game" }, twoSeat.map((g) => el("option", { value: g.id }, gameName(g.id))));
  const variant = el("select", { "data-testid": "tournament-variant" });
  const refreshVariants = () => {
    variant.replaceChildren(...variantOptions(game.value, twoSeat.find((g) => g.id === game.value).variants));
  };
  game.onchange = refreshVariants;
  refreshVariants();
  const format = el("select", { "data-testid": "tournament-format" }, FORMATS.map((f) => el("option", { value: f }, formatText(f))));
  const rounds = el("input", { type: "number", min: 1, max: 30, value: 3, "data-testid": "tournament-rounds" });
  const roundsLabel = el("label", { hidden: true }, t("tournament.rounds"), rounds);
  format.onchange = () => {
    roundsLabel.hidden = format.value !== "swiss";
  };
  // Tournament games always have a clock (an idle player would otherwise hold a round up for
  // ever): the server refuses correspondence and plays rapid when none is given.
  const clocked = timeControls.filter((c) => c !== "correspondence");
  const time = el("select", { "data-testid": "tournament-time" }, clocked.map((c) => el("option", { value: c }, timeName(c))));
  time.value = "rapid";
  const rated = el("input", { type: "checkbox", "data-testid": "tournament-rated" });
  const twoGames = el("input", { type: "checkbox", "data-testid": "tournament-two-games" });
  const create = el("button", { "data-testid": "tournament-create" }, t("tournament.create"));
  create.onclick = () => message.run(async () => {
    const body = { name: name.value.trim(), game: game.value, variant: variant.value, format: format.value, rated: rated.checked, two_games: twoGames.checked };
    if (format.value === "swiss") body.rounds = Number(rounds.value);
    body.time_control = time.value;
    const made = await app.api.post("/api/tournaments", body);
    app.navigate(`#/tournament/${made.summary.id}`);
  });

  const rows = el("tbody");
  const headings = ["tournament.name", "form.game", "tournament.format", "tournament.status", "tournament.entrants"].map((h) => t(h));
  // Each cell names its column, for the table's lines stacked on a phone (style.css).
  const cell = (column, ...content) => el("td", { "data-label": column ? headings[column] : null }, ...content);
  root.append(
    el("h1", {}, t("nav.tournaments")),
    el("div", { class: "grid" },
      el("section", { class: "card wide" },
        el("table", { class: "stack", "data-testid": "tournament-list" },
          el("thead", {}, el("tr", {}, headings.map((h) => el("th", {}, h)))), rows)),
      el("section", { class: "card" }, el("h2", {}, t("tournament.create-title")), app.me
        ? [el("label", {}, t("tournament.name"), name), el("label", {}, t("form.game"), game), el("label", {}, t("form.variant"), variant),
          el("label", {}, t("tournament.format"), format), roundsLabel, el("label", {}, t("form.time"), time),
          el("label", { class: "check" }, rated, t("form.rated")), el("label", { class: "check" }, twoGames, t("form.two-games")),
          el("div", { class: "row" }, create)]
        : app.playPrompt(t("visitor.prompt-tournament-create")),
      message.node)),
  );

  const tournaments = await app.api.get("/api/tournaments").catch((e) => {
    message.show(e);
    return [];
  });
  rows.replaceChildren(...tournaments.map((s) => el("tr", {},
    cell(0, el("a", { href: `#/tournament/${s.id}` }, s.name)),
    cell(1, poolName(s.game, s.variant)),
    cell(2, formatText(s.format, s.rounds)),
    cell(3, statusText(s)),
    cell(4, String(s.entrants)))));
  if (!tournaments.length) rows.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, t("tournament.none"))));
}

async function details(root, id, app) {
  // Under the buttons (register, add an AI entrant, start): what the server refused.
  const message = errorLine("tournament-error");
  const head = el("div");
  const actions = el("div", { class: "row" });
  const entrants = el("ul", { class: "plain", "data-testid": "tournament-entrants" });
  const standings = el("tbody", { "data-testid": "tournament-standings" });
  const rounds = el("div");
  root.append(head, actions, message.node,
    el("div", { class: "grid" },
      el("section", { class: "card" }, el("h2", {}, t("tournament.entrants")), entrants),
      el("section", { class: "card wide" }, el("h2", {}, t("tournament.standings")),
        el("table", {}, el("thead", {}, el("tr", {}, ["#", t("leaderboard.player"), t("tournament.points"), t("tournament.buchholz"), t("tournament.sonneborn-berger"), t("leaderboard.games")].map((h) => el("th", {}, h)))), standings)),
      el("section", { class: "card wide" }, el("h2", {}, t("tournament.rounds")), rounds)));

  let tour = null;
  // The player's acts clear the error line first; a refresh the server's push asks for does not,
  // so that a refusal stays shown until the player acts again.
  const run = (promise) => message.run(() => redraw(promise));
  const redraw = async (promise) => {
    tour = await promise;
    draw();
  };

  const drawStandings = (rows) => {
    standings.replaceChildren(...rows.map((s) => el("tr", {},
      el("td", {}, String(s.rank)), el("td", {}, playerLink(s.player)), el("td", {}, String(s.points)),
      el("td", {}, String(s.buchholz)), el("td", {}, String(s.sonneborn_berger)), el("td", {}, String(s.games)))));
  };

  const draw = () => {
    const s = tour.summary;
    head.replaceChildren(el("h1", {}, s.name), el("p", { class: "muted", "data-testid": "tournament-status" },
      t(s.rated ? "tournament.summary-rated" : "tournament.summary", { game: gameName(s.game), variant: variantName(s.game, s.variant), format: formatText(s.format), status: statusText(s) }),
      s.reason ? ` (${s.reason})` : ""));
    const entered = tour.entrants.some((e) => e.player.id === app.me?.id);
    const creator = s.creator.id === app.me?.id;
    const buttons = [];
    if (s.status === "registering" && !app.me) {
      buttons.push(app.playPrompt(t("visitor.prompt-tournament-enter")));
    } else if (s.status === "registering" && !entered) {
      const register = el("button", { "data-testid": "tournament-register" }, t("login.register"));
      register.onclick = () => run(app.api.post(`/api/tournaments/${id}/register`));
      buttons.push(register);
    }
    if (s.status === "registering" && creator) {
      const level = el("select", { "data-testid": "tournament-ai-level" }, [1, 2, 3, 4, 5].map((l) => el("option", { value: l }, t("ai.level", { level: l }))));
      const addAi = el("button", { class: "secondary", "data-testid": "tournament-add-ai" }, t("tournament.add"));
      addAi.onclick = () => run(app.api.post(`/api/tournaments/${id}/entrants`, { ai_level: Number(level.value) }));
      const start = el("button", { "data-testid": "tournament-start" }, t("tournament.start"));
      start.onclick = () => run(app.api.post(`/api/tournaments/${id}/start`));
      buttons.push(level, addAi, start);
    }
    actions.replaceChildren(...buttons);
    entrants.replaceChildren(...tour.entrants.map((e) => el("li", {}, playerLink(e.player), e.rating !== undefined ? ` (${Math.round(e.rating)})` : "")));
    drawStandings(tour.standings);
    const name = (n) => playerLink(tour.entrants.find((e) => e.entrant === n)?.player);
    rounds.replaceChildren(...tour.rounds.map((r) => el("div", {},
      el("h3", {}, t("tournament.round-title", { round: r.round })),
      el("ul", { class: "plain" }, ...r.games.map((g) => el("li", {},
        name(g.seats[0]), t("match.versus"), name(g.seats[1]), g.decider ? ` (${t("tournament.decider")}) ` : " ",
        g.outcome ? `: ${g.outcome === "win" ? "1-0" : g.outcome === "loss" ? "0-1" : "½-½"} (${reasonText(g.reason)}) ` : "",
        el("a", { href: `#/match/${g.match_id}` }, t(g.outcome ? "player.replay" : "player.watch")))),
        (r.byes ?? []).map((b) => el("li", {}, name(b), `: ${t("tournament.bye")}`))))));
  };

  // Pushed standings change the table at once; the rest (rounds, status) is fetched again.
  const onStandings = async (msg) => {
    if (msg.tournament_id !== id) return;
    drawStandings(msg.standings);
    await redraw(app.api.get(`/api/tournaments/${id}`)).catch(message.show);
  };
  const follow = () => app.socket.send({ type: "watch_tournament", tournament_id: id }).catch(() => {});
  app.socket.on("tournament_standings", onStandings);
  app.socket.on("open", follow);
  await run(app.api.get(`/api/tournaments/${id}`));
  follow();
  return () => {
    app.socket.off("tournament_standings", onStandings);
    app.socket.off("open", follow);
  };
}
