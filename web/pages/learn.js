// Learn to play: `#/learn` lists a lesson for each game, `#/learn/<game>` plays one. Each step is
// a small position with a goal; the learner moves on the game's own board (or types the move),
// and the server plays it under the engine's rules (`POST /api/analysis/position`, with the
// step's position, its setup and the move), so what is legal, what is captured and who wins are
// the engine's. A right move is answered with why it works, a wrong one with why not and a way to
// try again, a refused one with the engine's reason. A visitor needs no session: the server
// answers positions to anyone, so many a minute per address. The lessons' logic and data are in
// lessons/.
import { button, el, fill, rulesLink, svg } from "../dom.js";
import { boardFor } from "../boards/index.js";
import { variantRules } from "../catalog.js";
import { gameName } from "../names.js";
import { t } from "../i18n.js";
import { typedAction } from "./match/move-box.js";
import {
  LESSONS, answerMoves, answered, back, engineReason, finishedAll, finishedLessons, judge,
  loadLesson, markFinished, next, startAt, stepRequest, stepText,
} from "../lessons/player.js";

export default async function render(root, params, app) {
  if (!params.game) return lessonList(root);
  if (!LESSONS.includes(params.game)) {
    root.append(el("p", { class: "error", "data-testid": "learn-error" }, t("learn.none", { game: params.game })), allLink());
    return;
  }
  const game = params.game;
  const heading = el("h1", {}, t("learn.lesson", { game: gameName(game) }));
  const [lesson, module] = await Promise.all([loadLesson(game), boardFor(game)]);
  let state = startAt();
  let board = null;
  let legal = [];
  // Requests answered after a newer one began are dropped.
  let asked = 0;

  const counter = el("p", { class: "muted", "data-testid": "learn-counter" });
  const meter = el("progress", { max: lesson.steps.length, value: 0 });
  const goal = el("p", { class: "learn-goal", "data-testid": "learn-goal" });
  const answer = el("div", { class: "learn-answer", "data-testid": "learn-answer", "aria-live": "polite" });
  const boardBox = el("div", { class: "board-box", "data-testid": "board" });
  const typed = el("input", {
    type: "text", "data-testid": "move-input", autocomplete: "off", spellcheck: "false",
    "aria-label": t("move.type"), placeholder: t("move.placeholder", { example: module.moveExample }),
  });
  const form = el("form", { class: "move-form" }, typed, el("button", { type: "submit", "data-testid": "move-submit" }, t("move.play")));
  form.onsubmit = (e) => {
    e.preventDefault();
    const text = typed.value.trim();
    if (!text) return;
    typed.value = "";
    play(typedAction(text, legal) ?? text);
  };
  const backButton = button("learn-back", t("learn.back"), () => show(back(state)), "secondary");
  const retry = button("learn-retry", t("learn.retry"), () => show(startAt(state.index)), "secondary");
  const onward = button("learn-next", t("learn.next"), () => show(next(state)));
  // The step's goal beside the board (above it on a phone, with the heading), the answer and
  // the ways on under it.
  const side = el("aside", { class: "match-side card learn-side" },
    answer, el("div", { class: "row" }, backButton, retry, onward),
    el("p", {}, rulesLink(game), " · ", allLink()));
  heading.classList.add("learn-heading");
  const playArea = el("div", { class: "match learn" },
    el("div", { class: "match-info" }, heading, el("div", { class: "card learn-step" }, counter, meter, goal),
      el("p", { class: "muted" }, t(`learn.${game}.intro`))),
    el("div", { class: "match-board" }, boardBox, form),
    side);
  root.append(playArea);

  const step = () => lesson.steps[state.index];
  const ask = (moves) => app.api.post("/api/analysis/position", stepRequest(lesson, step(), moves));

  // Draws a position: `open` while the learner is to move.
  function draw(position, open, last = null) {
    legal = open ? position.legal : [];
    board.update({
      view: position.view, toAct: position.to_act, mySeats: open ? [step().seat] : [], legal,
      log: [], last, result: null,
    });
    outline(step().marks ?? []);
    form.hidden = !open;
  }

  // The step's squares (the goal, the pieces it is about), each framed: in a board drawn in SVG
  // by a frame of its own drawn last in the square's group, inside the square so that no
  // neighbour covers it and above the piece, which it lets clicks through to.
  function outline(squares) {
    for (const node of boardBox.querySelectorAll(".lesson-frame")) node.remove();
    for (const node of boardBox.querySelectorAll(".lesson-mark")) node.classList.remove("lesson-mark");
    for (const square of squares) {
      const node = boardBox.querySelector(`[data-testid="sq-${square}"]`);
      if (!(node instanceof SVGGraphicsElement)) {
        node?.classList.add("lesson-mark");
        continue;
      }
      const box = node.getBBox();
      const inset = Math.min(box.width, box.height) * 0.06;
      node.parentNode.append(svg("rect", {
        class: "lesson-frame", "data-mark": square, x: box.x + inset, y: box.y + inset,
        width: box.width - 2 * inset, height: box.height - 2 * inset, rx: inset,
      }));
    }
  }

  async function show(to) {
    state = to;
    const ticket = ++asked;
    if (finishedAll(state, lesson)) return finish();
    const current = step();
    fill(counter, t("learn.step", { n: state.index + 1, count: lesson.steps.length }));
    meter.value = state.index;
    fill(goal, t(stepText(game, current, "goal")));
    fill(answer);
    backButton.disabled = state.index === 0;
    retry.hidden = true;
    onward.hidden = true;
    const position = await ask([]).catch((e) => e);
    if (ticket !== asked) return;
    if (position instanceof Error) return fill(answer, el("p", { class: "error" }, position.message));
    draw(position, true);
  }

  // The learner's move: refused with the engine's reason, or played with the step's replies and
  // answered.
  async function play(action) {
    const current = step();
    const ticket = ++asked;
    if (!legal.includes(action)) {
      // Asked only for the engine's reason: a move that is not legal here is refused.
      const refused = await ask(answerMoves(current, action).slice(0, 1)).then(() => null, (e) => e);
      if (ticket !== asked) return;
      state = answered(state, "illegal");
      fill(answer, el("p", { class: "learn-illegal", "data-testid": "learn-illegal" },
        t("learn.illegal", { move: action, reason: refused ? refused.why ?? engineReason(refused.serverMessage ?? refused.message) : t("learn.not-now") })));
      // On a phone the answer sits below the board and the move box: brought into view.
      answer.scrollIntoView({ block: "nearest" });
      return;
    }
    const verdict = judge(current, action);
    const moves = answerMoves(current, action);
    const position = await ask(moves).catch((e) => e);
    if (ticket !== asked) return;
    if (position instanceof Error) return fill(answer, el("p", { class: "error" }, position.message));
    draw(position, false, moves[0]);
    state = answered(state, verdict);
    const last = state.index === lesson.steps.length - 1;
    fill(answer, el("div", { class: `learn-${verdict}`, "data-testid": `learn-${verdict}` },
      el("strong", {}, t(verdict === "right" ? "learn.right" : "learn.wrong")), " ",
      t(stepText(game, current, verdict))));
    retry.hidden = verdict === "right";
    onward.hidden = verdict !== "right";
    fill(onward, t(last ? "learn.finish" : "learn.next"));
    (verdict === "right" ? onward : retry).focus();
  }

  function finish() {
    markFinished(localStorage, game);
    board?.destroy();
    board = null;
    playArea.replaceWith(el("section", { class: "card learn-done", "data-testid": "learn-finished" },
      el("h1", {}, t("learn.finished-title")),
      el("p", {}, t("learn.finished", { game: gameName(game) })),
      el("p", { class: "row" },
        el("a", { href: "#/", class: "button", "data-testid": "learn-play" }, t("learn.play")),
        allLink(), rulesLink(game))));
  }

  // The board's element: created once, kept across steps.
  const target = el("div", { class: "board" });
  boardBox.replaceChildren(target);
  board = module.create(target, {
    game, variant: lesson.variant, rules: variantRules(game, lesson.variant),
    seats: lesson.seats ?? 2, perspective: null, onAction: play,
  });
  await show(state);
  return () => board?.destroy();
}

const allLink = () => el("a", { href: "#/learn", "data-testid": "learn-all" }, t("learn.all"));

// Every lesson, with its introduction and whether this browser has finished it.
function lessonList(root) {
  const done = finishedLessons(localStorage);
  root.append(el("h1", {}, t("learn.title")), el("p", {}, t("learn.intro")),
    el("div", { class: "grid" }, LESSONS.map((game) => el("section", { class: "card learn-card", "data-testid": `lesson-${game}` },
      el("h2", {}, gameName(game), done.includes(game) ? el("span", { class: "learn-done-mark", "data-testid": `lesson-done-${game}` }, ` ✓ ${t("learn.done")}`) : null),
      el("p", {}, t(`learn.${game}.intro`)),
      el("p", { class: "row" },
        el("a", { href: `#/learn/${game}`, class: "button", "data-testid": `learn-${game}` }, t(done.includes(game) ? "learn.again" : "learn.begin")),
        rulesLink(game))))));
}
