// Tournaments: the list and a form to create one (`#/tournaments`), and one tournament
// (`#/tournament/<id>`): entrants, registration, adding AI entrants and starting (its creator),
// the rounds' games and the standings, kept live by the socket's `tournament_standings` pushes.
// A visitor reads them all; creating and registering offer the way in first.
import { el, playerLink } from "../dom.js";
import { games, timeControls } from "../catalog.js";

const FORMATS = [["round_robin", "round robin"], ["double_round_robin", "double round robin"], ["swiss", "Swiss"], ["knockout", "knockout"]];

export default async function render(root, params, app) {
  return params.id ? details(root, Number(params.id), app) : list(root, app);
}

async function list(root, app) {
  const message = el("p", { class: "error" });
  const name = el("input", { "data-testid": "tournament-name", placeholder: "Friday cup", maxlength: 80 });
  const twoSeat = games.filter((g) => g.seats[0] === 2);
  const game = el("select", { "data-testid": "tournament-game" }, twoSeat.map((g) => el("option", { value: g.id }, g.name)));
  const variant = el("select", { "data-testid": "tournament-variant" });
  const refreshVariants = () => {
    variant.replaceChildren(...twoSeat.find((g) => g.id === game.value).variants.map((v) => el("option", { value: v }, v)));
  };
  game.onchange = refreshVariants;
  refreshVariants();
  const format = el("select", { "data-testid": "tournament-format" }, FORMATS.map(([v, t]) => el("option", { value: v }, t)));
  const rounds = el("input", { type: "number", min: 1, max: 30, value: 3, "data-testid": "tournament-rounds" });
  const roundsLabel = el("label", { hidden: true }, "Rounds", rounds);
  format.onchange = () => {
    roundsLabel.hidden = format.value !== "swiss";
  };
  // Tournament games always have a clock (an idle player would otherwise hold a round up for
  // ever): the server refuses correspondence and plays rapid when none is given.
  const clocked = timeControls.filter((t) => t !== "correspondence");
  const time = el("select", { "data-testid": "tournament-time" }, clocked.map((t) => el("option", { value: t }, t)));
  time.value = "rapid";
  const rated = el("input", { type: "checkbox", "data-testid": "tournament-rated" });
  const create = el("button", { "data-testid": "tournament-create" }, "Create");
  create.onclick = async () => {
    message.textContent = "";
    const body = { name: name.value.trim(), game: game.value, variant: variant.value, format: format.value, rated: rated.checked };
    if (format.value === "swiss") body.rounds = Number(rounds.value);
    body.time_control = time.value;
    try {
      const t = await app.api.post("/api/tournaments", body);
      app.navigate(`#/tournament/${t.summary.id}`);
    } catch (e) {
      message.textContent = e.message;
    }
  };

  const rows = el("tbody");
  root.append(
    el("h1", {}, "Tournaments"),
    el("div", { class: "grid" },
      el("section", { class: "card wide" },
        el("table", { "data-testid": "tournament-list" },
          el("thead", {}, el("tr", {}, ["Name", "Game", "Format", "Status", "Entrants"].map((h) => el("th", {}, h)))), rows)),
      el("section", { class: "card" }, el("h2", {}, "Create a tournament"), app.me
        ? [el("label", {}, "Name", name), el("label", {}, "Game", game), el("label", {}, "Variant", variant),
          el("label", {}, "Format", format), roundsLabel, el("label", {}, "Time", time),
          el("label", { class: "check" }, rated, "Rated"), el("div", { class: "row" }, create)]
        : app.playPrompt("Log in or play as a guest to create or enter a tournament."),
      message)),
  );

  const tournaments = await app.api.get("/api/tournaments").catch((e) => {
    message.textContent = e.message;
    return [];
  });
  rows.replaceChildren(...tournaments.map((t) => el("tr", {},
    el("td", {}, el("a", { href: `#/tournament/${t.id}` }, t.name)),
    el("td", {}, `${t.game} ${t.variant}`),
    el("td", {}, `${t.format.replaceAll("_", " ")}${t.rounds ? `, ${t.rounds} rounds` : ""}`),
    el("td", {}, t.status === "running" ? `round ${t.round}` : t.status),
    el("td", {}, String(t.entrants)))));
  if (!tournaments.length) rows.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No tournaments yet.")));
}

async function details(root, id, app) {
  const message = el("p", { class: "error", "data-testid": "tournament-error" });
  const head = el("div");
  const actions = el("div", { class: "row" });
  const entrants = el("ul", { class: "plain", "data-testid": "tournament-entrants" });
  const standings = el("tbody", { "data-testid": "tournament-standings" });
  const rounds = el("div");
  root.append(head, message, actions,
    el("div", { class: "grid" },
      el("section", { class: "card" }, el("h2", {}, "Entrants"), entrants),
      el("section", { class: "card wide" }, el("h2", {}, "Standings"),
        el("table", {}, el("thead", {}, el("tr", {}, ["#", "Player", "Points", "Buchholz", "S-B", "Games"].map((h) => el("th", {}, h)))), standings)),
      el("section", { class: "card wide" }, el("h2", {}, "Rounds"), rounds)));

  let t = null;
  const run = async (promise) => {
    message.textContent = "";
    try {
      t = await promise;
      draw();
    } catch (e) {
      message.textContent = e.message;
    }
  };

  const drawStandings = (rows) => {
    standings.replaceChildren(...rows.map((s) => el("tr", {},
      el("td", {}, String(s.rank)), el("td", {}, playerLink(s.player)), el("td", {}, String(s.points)),
      el("td", {}, String(s.buchholz)), el("td", {}, String(s.sonneborn_berger)), el("td", {}, String(s.games)))));
  };

  const draw = () => {
    const s = t.summary;
    head.replaceChildren(el("h1", {}, s.name), el("p", { class: "muted", "data-testid": "tournament-status" },
      `${s.game} ${s.variant}, ${s.format.replaceAll("_", " ")}${s.rated ? ", rated" : ""}: ${s.status === "running" ? `round ${s.round}${s.rounds ? ` of ${s.rounds}` : ""}` : s.status}${s.reason ? ` (${s.reason})` : ""}`));
    const entered = t.entrants.some((e) => e.player.id === app.me?.id);
    const creator = s.creator.id === app.me?.id;
    const buttons = [];
    if (s.status === "registering" && !app.me) {
      buttons.push(app.playPrompt("Log in or play as a guest to enter this tournament."));
    } else if (s.status === "registering" && !entered) {
      const register = el("button", { "data-testid": "tournament-register" }, "Register");
      register.onclick = () => run(app.api.post(`/api/tournaments/${id}/register`));
      buttons.push(register);
    }
    if (s.status === "registering" && creator) {
      const level = el("select", { "data-testid": "tournament-ai-level" }, [1, 2, 3, 4, 5].map((l) => el("option", { value: l }, `AI level ${l}`)));
      const addAi = el("button", { class: "secondary", "data-testid": "tournament-add-ai" }, "Add");
      addAi.onclick = () => run(app.api.post(`/api/tournaments/${id}/entrants`, { ai_level: Number(level.value) }));
      const start = el("button", { "data-testid": "tournament-start" }, "Start now");
      start.onclick = () => run(app.api.post(`/api/tournaments/${id}/start`));
      buttons.push(level, addAi, start);
    }
    actions.replaceChildren(...buttons);
    entrants.replaceChildren(...t.entrants.map((e) => el("li", {}, playerLink(e.player), e.rating !== undefined ? ` (${Math.round(e.rating)})` : "")));
    drawStandings(t.standings);
    const name = (n) => playerLink(t.entrants.find((e) => e.entrant === n)?.player);
    rounds.replaceChildren(...t.rounds.map((r) => el("div", {},
      el("h3", {}, `Round ${r.round}`),
      el("ul", { class: "plain" }, ...r.games.map((g) => el("li", {},
        name(g.seats[0]), " v ", name(g.seats[1]), g.decider ? " (decider) " : " ",
        g.outcome ? `: ${g.outcome === "win" ? "1-0" : g.outcome === "loss" ? "0-1" : "½-½"} (${g.reason.replaceAll("_", " ")}) ` : "",
        el("a", { href: `#/match/${g.match_id}` }, g.outcome ? "replay" : "watch"))),
        (r.byes ?? []).map((b) => el("li", {}, name(b), ": bye"))))));
  };

  // Pushed standings change the table at once; the rest (rounds, status) is fetched again.
  const onStandings = async (msg) => {
    if (msg.tournament_id !== id) return;
    drawStandings(msg.standings);
    await run(app.api.get(`/api/tournaments/${id}`));
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
