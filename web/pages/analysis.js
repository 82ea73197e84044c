// The analysis board: `#/analysis/match/<id>/<ply>` (a finished match's position) or
// `#/analysis/game/<game>/<variant>` (a variant's start, or a position typed in the game's
// notation for a board that declares `positionNotation`). Every side's moves are played freely on
// the game's own board or typed; after each one the server gives the position again
// (`POST /api/analysis/position`: legal moves, and for tafl the king's escape routes and the
// pieces under threat, marked on the board and listed), and on request the AI's evaluation and
// the line it expects (`POST /api/analysis`, bounded in time and rate).
import { el, errorLine, fill, numberedLine, rulesLink } from "../dom.js";
import { boardFor } from "../boards/index.js";
import { boardZoom } from "../boards/zoom.js";
import { seatName, variantRules } from "../catalog.js";
import { poolName } from "../names.js";
import { t } from "../i18n.js";
import { list } from "../results.js";
import { moveBox } from "./match/move-box.js";
import { explorerPanel } from "../explorer.js";

export default async function render(root, params, app) {
  const heading = el("h1", {}, t("analysis.title"));
  if (!app.me) {
    root.append(heading, app.playPrompt(t("analysis.prompt")));
    return;
  }
  // Where the position starts, and what has been played from there.
  let base = params.source === "match"
    ? { match_id: Number(params.a), ply: Number(params.b) || 0 }
    : { game: params.a || "tafl", variant: params.b || undefined };
  let actions = [];
  let shown = null;
  let game = null;
  let board = null;
  let flip = false;

  // Under the buttons (evaluate, undo, reset); a refused move shows under the move box and a
  // refused position under its form.
  const message = errorLine("analysis-error");
  const boardBox = el("div", { class: "board-box", "data-testid": "board" });
  const moves = el("ol", { class: "moves", "data-testid": "analysis-moves" });
  const verdict = el("div", { class: "analysis-verdict", "data-testid": "analysis-result", "aria-live": "polite" });
  const insights = el("div", { class: "analysis-insights", "data-testid": "analysis-insights" });
  const typed = moveBox((action) => play(action));
  const button = (testid, text, onclick, cls = "secondary") => {
    const node = el("button", { type: "button", class: cls, "data-testid": testid }, text);
    node.onclick = onclick;
    return node;
  };
  const evaluate = button("analysis-evaluate", t("analysis.evaluate"), () => ask(), null);
  const undo = button("analysis-undo", t("analysis.undo"), () => {
    actions.pop();
    refresh();
  });
  const reset = button("analysis-reset", t("analysis.reset"), () => {
    actions = [];
    refresh();
  });
  const flipper = button("flip-board", t("board.flip"), () => {
    flip = !flip;
    board?.setFlip?.(flip);
  });
  const setup = el("div");
  // The moves played from here in finished games: a pick plays it on the board.
  const explorer = explorerPanel(app, { onPick: (action) => play(action) });
  const side = el("aside", { class: "match-side card" },
    el("div", { class: "row", "data-testid": "analysis-controls" }, evaluate, undo, reset), verdict, message.node, insights,
    setup, el("h3", {}, t("match.moves")), moves, explorer.node);
  root.append(el("div", { class: "match" },
    el("div", { class: "match-info" }, heading, el("p", { "data-testid": "analysis-source" })),
    el("div", { class: "match-board" }, boardBox, boardZoom(boardBox).node, typed.node),
    side));

  // The request for the position shown: where it starts and the moves played from there.
  const request = (extra = {}) => ({ ...base, actions, ...extra });

  // `refused(error)` shows the server's refusal beside the control that asked (null clears it).
  async function refresh(refused = message.show) {
    refused(null);
    let next;
    try {
      next = await app.api.post("/api/analysis/position", request());
    } catch (e) {
      // A move the server refuses is not kept.
      refused(e);
      if (actions.length && shown) actions.pop();
      return false;
    }
    const first = !shown;
    shown = next;
    if (first) await mount();
    fill(heading, `${t("analysis.title")}: ${poolName(shown.game, shown.variant)}`);
    fill(root.querySelector("[data-testid=analysis-source]"), rulesLink(shown.game), " ",
      base.match_id ? el("a", { href: `#/replay/${base.match_id}` }, t("analysis.from-match", { match: base.match_id, ply: base.ply })) : null);
    const everyone = Array.from({ length: shown.seats }, (_, seat) => seat);
    board.update({
      view: shown.view, toAct: shown.to_act, mySeats: everyone, legal: shown.legal,
      log: actions, last: actions.at(-1) ?? null, result: null,
    });
    typed.update(shown.legal, true);
    undo.disabled = reset.disabled = actions.length === 0;
    evaluate.disabled = shown.to_act.length === 0;
    verdict.replaceChildren(shown.to_act.length ? "" : t("analysis.over"));
    moves.replaceChildren(...actions.map((a, i) => numberedLine(i + 1, {}, `${seatName(shown.game, a.seat)}: ${a.action}`)));
    // A game over has nothing left to look out for.
    drawInsights(shown.to_act.length ? shown.insights : null);
    explorer.update(shown.to_act.length && typeof shown.view.position === "string"
      ? { game: shown.game, variant: shown.variant, position: shown.view.position, toMove: shown.to_act[0] }
      : null);
    return true;
  }

  // The board of the game, drawn once: every side's moves are the user's.
  async function mount() {
    game = await boardFor(shown.game);
    typed.example(game.moveExample);
    const target = el("div", { class: "board" });
    boardBox.replaceChildren(target);
    board = game.create(target, {
      game: shown.game, variant: shown.variant, rules: variantRules(shown.game, shown.variant),
      seats: shown.seats, perspective: null, flip, onAction: play,
    });
    if (board.setFlip) side.querySelector(".row").append(flipper);
    if (game.positionNotation && !base.match_id) setup.replaceChildren(positionForm(game.positionNotation));
  }

  function play(action) {
    actions.push({ seat: shown.seat, action });
    refresh(typed.refused);
  }

  // The king's ways out and the pieces one move from capture: marked on their squares (an
  // outline, dashed for an escape) and listed in words, so that no mark is colour alone.
  function drawInsights(found) {
    for (const node of boardBox.querySelectorAll(".escape, .threatened")) node.classList.remove("escape", "threatened");
    if (!found) {
      insights.replaceChildren();
      return;
    }
    const mark = (square, cls) => boardBox.querySelector(`[data-testid="sq-${square}"]`)?.classList.add(cls);
    found.escapes.forEach((route) => mark(route.actions.at(-1).split("-").at(-1), "escape"));
    found.threatened.forEach((piece) => mark(piece.square, "threatened"));
    insights.replaceChildren(
      el("p", { "data-testid": "analysis-escapes" }, found.escapes.length
        ? t("analysis.escapes", { routes: list(found.escapes.map((r) => r.actions.join(" "))) })
        : t("analysis.no-escapes")),
      el("p", { "data-testid": "analysis-threats" }, found.threatened.length
        ? t("analysis.threatened", {
          pieces: list(found.threatened.map((p) => t("analysis.threat", { square: p.square, side: seatName(shown.game, p.seat), moves: list(p.by) }))),
        })
        : t("analysis.no-threats")));
  }

  // The AI's evaluation of the position shown and the line it expects.
  async function ask() {
    evaluate.disabled = true;
    verdict.replaceChildren(t("analysis.thinking"));
    message.show(null);
    try {
      const found = await app.api.post("/api/analysis", request({ seat: shown.seat }));
      const percent = Math.round(found.score * 100);
      verdict.replaceChildren(
        el("meter", { min: 0, max: 100, value: percent, "aria-label": t("analysis.score-label") }),
        el("p", { "data-testid": "analysis-score" }, t("analysis.score", { side: seatName(found.game, found.seat), percent })),
        el("p", { "data-testid": "analysis-line" }, found.line.length
          ? t("analysis.line", { line: found.line.map((a) => a.action).join(" ") })
          : t("analysis.no-line")),
        el("p", { class: "muted" }, t("analysis.work", { nodes: found.nodes.toLocaleString(), seconds: (found.elapsed_ms / 1000).toFixed(1) })));
    } catch (e) {
      verdict.replaceChildren();
      message.show(e);
    } finally {
      evaluate.disabled = false;
    }
  }

  // A position typed in the game's notation, with the side to move: the analysis starts there.
  function positionForm(notation) {
    const text = el("textarea", { rows: 2, spellcheck: "false", placeholder: notation.placeholder, "data-testid": "analysis-position" });
    const mover = el("select", { "data-testid": "analysis-to-move" },
      Array.from({ length: shown.seats }, (_, seat) => el("option", { value: seat }, seatName(shown.game, seat))));
    const error = errorLine("analysis-position-error");
    const set = button("analysis-set", t("analysis.set"), async () => {
      const previous = { base, actions };
      base = { game: shown.game, variant: shown.variant, position: text.value.trim(), to_move: Number(mover.value) };
      actions = [];
      if (!(await refresh(error.show))) ({ base, actions } = previous);
    });
    return el("details", { class: "custom" }, el("summary", {}, notation.label), text,
      el("label", {}, t("analysis.to-move"), mover), el("div", { class: "row" }, set), error.node);
  }

  await refresh();
  return () => board?.destroy();
}
