// The lesson player's logic, apart from the page (pages/learn.js) so that the Node tests can check
// it: the lessons there are, the request that asks the server for a step's position (the engine's
// own rules decide what is legal and what a move does: `POST /api/analysis/position`), whether a
// move is the step's answer, the engine's reason for a refused move, and the finished lessons kept
// in this browser.
//
// A lesson is data, `lessons/<game>.json`, read by this client and by the server's test
// (server/tests/lessons.rs), which plays every step's moves through the engine: { game, variant,
// seats?, steps: [step] }, a step { id, position? (the game's position notation, tafl's OpenTafl),
// to_move?, seed?, setup? ([seat, action] played first), seat (the learner's), marks (squares
// to outline), right ([actions], or "any") or wrong ([actions]; every other move is right),
// replies? ([seat, action] played after the learner's move, for games whose seats choose
// together), expect (what the listed moves do: for the test) }. Its texts are the messages
// `learn.<game>.<step>.goal`, `.right` and `.wrong`.

// Every lesson, tafl first.
export const LESSONS = ["tafl", "fox-geese", "hanoi", "tower-race", "tron", "driller"];

// The lesson of a game, fetched beside this module (so under its versioned path).
export async function loadLesson(game) {
  const response = await fetch(new URL(`./${game}.json`, import.meta.url));
  if (!response.ok) throw new Error(`the ${game} lesson: ${response.status}`);
  return response.json();
}

const played = (pairs) => (pairs ?? []).map(([seat, action]) => ({ seat, action }));

// The body of `POST /api/analysis/position` for a step with `moves` ([{seat, action}]) played
// after its setup. Before the learner's move it asks for the learner's legal moves; after it,
// for nobody's in particular (the service refuses a seat that need not act).
export function stepRequest(lesson, step, moves = []) {
  const body = { game: lesson.game, variant: lesson.variant, actions: [...played(step.setup), ...moves] };
  if (!moves.length) body.seat = step.seat;
  if (lesson.seats) body.seats = lesson.seats;
  if (step.seed !== undefined) body.seed = step.seed;
  if (step.position) {
    body.position = step.position;
    body.to_move = step.to_move ?? step.seat;
  }
  return body;
}

// The learner's move and the other seats' replies after it.
export function answerMoves(step, action) {
  return [{ seat: step.seat, action }, ...played(step.replies)];
}

// Whether a legal move answers the step: "right" or "wrong".
export function judge(step, action) {
  if (step.wrong) return step.wrong.includes(action) ? "wrong" : "right";
  return step.right === "any" || step.right.includes(action) ? "right" : "wrong";
}

// The engine's reason for refusing a move, without the analysis service's note of which action
// of the request it was (`action 3 (seat 1: d4-d9): `), which means nothing to a learner.
export function engineReason(message) {
  return message.replace(/^action \d+ \(seat \d+: [^)]*\): /, "");
}

// Where the lesson is: the step shown and the learner's answer to it ("right", "wrong",
// "illegal", or null before a move); past the last step the lesson is finished.
export function startAt(index = 0) {
  return { index, answer: null };
}

export function answered(state, answer) {
  return { ...state, answer };
}

// The next step, once the step is answered right.
export function next(state) {
  return state.answer === "right" ? startAt(state.index + 1) : state;
}

export function back(state) {
  return startAt(Math.max(0, state.index - 1));
}

export const finishedAll = (state, lesson) => state.index >= lesson.steps.length;

// The message key of one of a step's texts: "goal", "right" or "wrong".
export const stepText = (game, step, part) => `learn.${game}.${step.id}.${part}`;

// The lessons finished in this browser: a list of games in `storage` (localStorage).
const KEY = "tafl.lessons-finished";

export function finishedLessons(storage) {
  try {
    const list = JSON.parse(storage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((game) => LESSONS.includes(game)) : [];
  } catch {
    return [];
  }
}

export function markFinished(storage, game) {
  const list = finishedLessons(storage);
  if (!list.includes(game)) storage.setItem(KEY, JSON.stringify([...list, game]));
}
