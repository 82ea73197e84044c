// The words the match page and the other pages show, with the English catalog in use: clocks,
// results, rating changes, two-game matches, the rematch line, the turn line, the chat's rules,
// and the message catalogs' plurals and fallbacks.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { catalog, english } from "./messages.js";
import { t, useMessages } from "../web/i18n.js";
import { DAY_MS, clockSpecText, clockText, perMoveText, waitedText } from "../web/clock-text.js";
import { describeResult, list, playerAndSide, reasonText, winners } from "../web/results.js";
import { rematchLine, ratingText, resultText, scoreText, seriesResult } from "../web/pages/match/banners.js";
import { turnText } from "../web/pages/match/players.js";
import { chatAccess } from "../web/pages/match/chat.js";
import { fold, initial } from "../web/pages/match/state.js";
import { MATCH, acted, anna, bert, snapshot } from "./fixtures.js";

const stateOf = (...messages) => messages.reduce((state, msg) => fold(state, msg, 0).state, initial(MATCH));
const matchOf = (...messages) => stateOf(...messages).match;
const resigned = { places: [1, 0], reason: "resigned" };

describe("a clock's time", () => {
  it("reads m:ss, h:mm:ss past an hour, and tenths under ten seconds", () => {
    assert.equal(clockText(300000), "5:00");
    assert.equal(clockText(61000), "1:01");
    assert.equal(clockText(3723000), "1:02:03");
    assert.equal(clockText(9876), "0:09.8");
    assert.equal(clockText(10000), "0:10");
  });

  it("never reads below zero", () => {
    assert.equal(clockText(-1500), "0:00.0");
  });

  it("reads days and hours past a day", () => {
    assert.equal(clockText(DAY_MS * 2 + 5 * 3600000 + 59000), "2 d 5 h");
  });
});

describe("a wait", () => {
  it("counts up in whole seconds as m:ss, without tenths", () => {
    assert.equal(waitedText(0), "0:00");
    assert.equal(waitedText(7900), "0:07");
    assert.equal(waitedText(80000), "1:20");
    assert.equal(waitedText(-50), "0:00");
  });
});

describe("a time control", () => {
  it("reads as players write it", () => {
    assert.equal(clockSpecText({ base_ms: 900000, increment_ms: 10000 }), "15+10");
    assert.equal(clockSpecText({ base_ms: 30000, increment_ms: 0 }), "30s+0");
    assert.equal(clockSpecText(null), "no clock");
  });

  it("of correspondence reads as days a move, in the language's plural", () => {
    assert.equal(clockSpecText({ base_ms: 3 * DAY_MS, increment_ms: 0, per_move: true }), "3 days a move");
    assert.equal(perMoveText(DAY_MS), "1 day a move");
    assert.equal(perMoveText(DAY_MS + 3600000), "1 d 1 h a move");
  });
});

describe("a result", () => {
  it("names its winners by side, with the reason", () => {
    assert.deepEqual(winners(resigned), [1]);
    assert.equal(describeResult("tafl", resigned), "Defenders (white) won (resignation)");
    assert.equal(describeResult("tafl", { places: [0, 0], reason: "repetition" }), "Draw (repetition)");
    assert.equal(describeResult("tafl", { places: [0, 1] }), "Attackers (black) won");
    assert.equal(describeResult("tafl", null), "");
  });

  it("shows a reason the catalog lacks as it is", () => {
    assert.equal(reasonText("new_rule_met"), "new rule met");
    assert.equal(reasonText(undefined), "");
  });

  it("names seats by player and side, or side alone when free", () => {
    assert.equal(playerAndSide("tafl", 0, anna), "anna, Attackers (black)");
    assert.equal(playerAndSide("tafl", 1, null), "Defenders (white)");
    assert.equal(list(["Red", "Blue", "Green"]), "Red, Blue, and Green");
  });

  it("speaks to a player as won or lost, and to anyone else by names", () => {
    const player = matchOf(snapshot(3, { your_seats: [1] }));
    assert.equal(resultText(player, resigned), "You win: resignation.");
    assert.equal(resultText({ ...player, yourSeats: [0] }, resigned), "You lose: resignation.");
    assert.equal(resultText({ ...player, yourSeats: [] }, resigned), "bert, Defenders (white) won (resignation)");
    // In the hot seat the user played both sides.
    assert.equal(resultText({ ...player, yourSeats: [0, 1] }, resigned), "bert, Defenders (white) won (resignation)");
    assert.equal(resultText(player, { places: [0, 0], reason: "aborted" }), "The match was aborted.");
    assert.equal(resultText(player, { places: [0, 0], reason: "repetition" }), "Draw (repetition)");
  });

  it("lists a rating change with its sign", () => {
    const m = matchOf(snapshot(3));
    assert.equal(ratingText(m, { seat: 0, before: 1500, after: 1516.04 }), "anna, Attackers (black): 1500 → 1516 (+16.0)");
    assert.equal(ratingText(m, { seat: 1, before: 1500.4, after: 1484 }), "bert, Defenders (white): 1500 → 1484 (-16.4)");
  });
});

describe("a two-game match", () => {
  const series = { status: "finished", score: [1.5, 0.5], players: [anna, bert], winner: 0 };

  it("reads its score", () => {
    assert.equal(scoreText(series), "anna 1.5 – 0.5 bert");
  });

  it("reads its result once finished, with the tie-break that decided it", () => {
    assert.equal(seriesResult({ ...series, status: "playing" }), null);
    assert.equal(seriesResult(series), "anna wins the two-game match");
    assert.equal(seriesResult({ ...series, winner: 1, tiebreak: "less_time" }), "bert wins the two-game match on less time used");
    assert.equal(seriesResult({ ...series, winner: undefined }), "The two-game match is drawn");
  });
});

describe("the rematch line", () => {
  const over = (yourSeats) => stateOf(snapshot(9, { your_seats: yourSeats, to_act: [], result: resigned }));
  const told = (state, msg) => fold(state, { match_id: MATCH, ...msg }, 0).state;

  it("offers a rematch to a player, not to a visitor or a spectator", () => {
    assert.deepEqual(rematchLine(over([0]), anna), { text: null, offer: "offer" });
    assert.deepEqual(rematchLine(over([0]), null), { text: null, offer: null });
    assert.deepEqual(rematchLine(over([]), anna), { text: null, offer: null });
  });

  it("offers none after a tournament's game", () => {
    const game = stateOf(snapshot(9, { your_seats: [0], to_act: [], result: resigned, tournament: true }));
    assert.deepEqual(rematchLine(game, anna), { text: null, offer: null });
  });

  it("lets the other player answer, and the one who offered wait or withdraw", () => {
    const offered = told(over([1]), { type: "rematch_offered", agreed: [0] });
    assert.deepEqual(rematchLine(offered, bert), { text: "anna offers a rematch.", offer: "answer" });
    const mine = told(over([0]), { type: "rematch_offered", agreed: [0] });
    assert.deepEqual(rematchLine(mine, anna), { text: "Rematch offered: waiting for bert.", offer: "withdraw" });
    const watching = told(over([]), { type: "rematch_offered", agreed: [0] });
    assert.deepEqual(rematchLine(watching, null), { text: "anna offers a rematch.", offer: null });
  });

  it("says a decline or a lapse, and offers again only to who has not offered", () => {
    const offered = told(over([0]), { type: "rematch_offered", agreed: [0] });
    const declined = told(offered, { type: "rematch_declined", seat: 1 });
    assert.deepEqual(rematchLine(declined, anna), { text: "bert declined the rematch.", offer: null });
    const lapsed = told(over([1]), { type: "rematch_lapsed", seat: 0 });
    assert.deepEqual(rematchLine(lapsed, bert), { text: "anna left: the rematch offer lapsed.", offer: "offer" });
  });

  it("links to the rematch once started", () => {
    assert.equal(rematchLine(told(over([0]), { type: "rematch_started", rematch: 12 }), anna).started, 12);
  });
});

describe("the turn line", () => {
  it("tells the user it is their move, or who is to play", () => {
    assert.equal(turnText(matchOf(snapshot(3, { your_seats: [0], to_act: [0] }))), "Your move");
    assert.equal(turnText(matchOf(snapshot(3, { your_seats: [0], to_act: [1] }))), "bert to play");
    assert.equal(turnText(matchOf(snapshot(3, { your_seats: [], to_act: [1] }))), "bert to play (watching)");
  });

  it("names sides in the hot seat, and says when the match waits or is over", () => {
    assert.equal(turnText(matchOf(snapshot(3, { your_seats: [0, 1], to_act: [1] }))), "Defenders (white) to play");
    assert.equal(turnText(matchOf(snapshot(1, { to_act: [] }))), "Waiting for every seat to be taken…");
    assert.equal(turnText(matchOf(snapshot(3, { to_act: [], result: resigned }), acted(4, 0, "a4-a5"))), "The match is over.");
  });
});

describe("the match's chat", () => {
  const guest = { id: 3, name: "guest-1", guest: true };

  it("has players write to the players, and accounts following to the spectators", () => {
    assert.deepEqual(chatAccess(matchOf(snapshot(3, { your_seats: [0] })), anna),
      { writes: "players", hint: "Only the players read this until the game is over." });
    assert.deepEqual(chatAccess(matchOf(snapshot(3, { your_seats: [] })), anna),
      { writes: "spectators", hint: "The players do not read this until the game is over." });
  });

  it("says nothing of who reads once the game is over", () => {
    assert.deepEqual(chatAccess(matchOf(snapshot(3, { to_act: [], result: resigned })), anna), { writes: "players", hint: null });
  });

  it("lets visitors and guests following others' matches read only", () => {
    assert.deepEqual(chatAccess(matchOf(snapshot(3, { your_seats: [] })), null), { writes: null, hint: "Log in to chat." });
    assert.equal(chatAccess(matchOf(snapshot(3, { your_seats: [] })), guest).writes, null);
    assert.equal(chatAccess(matchOf(snapshot(3, { your_seats: [0] })), guest).writes, "players");
  });
});

describe("the message catalogs", () => {
  after(() => useMessages("en", english));

  it("fill placeholders and pick plurals", () => {
    assert.equal(t("match.to-play", { who: "anna" }), "anna to play");
    assert.equal(t("time.days-a-move", { count: 1 }), "1 day a move");
    assert.equal(t("time.days-a-move", { count: 4 }), "4 days a move");
  });

  it("give a fallback, else the key, for a key they lack", () => {
    assert.equal(t("no.such.key", {}, "fallback"), "fallback");
    const warn = console.warn;
    console.warn = () => {};
    try {
      assert.equal(t("no.such.key"), "no.such.key");
    } finally {
      console.warn = warn;
    }
  });

  it("read another language, English filling its gaps", () => {
    useMessages("sv", { ...catalog("sv"), "match.over": undefined }, english);
    assert.equal(t("title.your-move"), "Ditt drag");
    assert.equal(describeResult("tafl", { places: [0, 0] }), "Remi");
    assert.equal(t("match.over"), "The match is over.");
    assert.equal(list(["a", "b"]), "a och b");
  });
});
