// A server's refusal as the player reads it: its reason's text from the page's catalog with the
// reason's parameters put in, the server's English sentence only for a reason no catalog has;
// and the plural forms of a language that has more than two (Russian).
import { describe, it, afterEach } from "node:test";
import assert from "node:assert/strict";
import { catalog, english } from "./messages.js";
import { t, useMessages } from "../web/i18n.js";
import { ServerError, reasonText } from "../web/api.js";

afterEach(() => useMessages("en", english));

describe("a server error", () => {
  it("reads in the page's language, with its parameters", () => {
    useMessages("sv", catalog("sv"), english);
    assert.equal(reasonText("seat_taken", { seat: 2 }, "seat 2 is taken"), "Plats 2 är upptagen.");
    assert.equal(reasonText("username_taken", { name: "astrid" }, "the name 'astrid' is taken"), "Namnet astrid är upptaget: välj ett annat.");
    useMessages("de", catalog("de"), english);
    assert.equal(reasonText("rate_limited", { seconds: 7 }, "slow down; try again in 7 s"), "Zu viele Anfragen: versuche es in 7 s wieder.");
  });

  it("quotes the server's sentence where its reason has no finer words", () => {
    useMessages("fr", catalog("fr"), english);
    assert.equal(reasonText("bad_request", {}, "tafl has no variant 'x'"), "Le serveur a refusé la requête : tafl has no variant 'x'");
  });

  it("of a reason no catalog has is the server's English sentence", () => {
    useMessages("nb", catalog("nb"), english);
    assert.equal(reasonText("a_reason_from_a_newer_server", { n: 1 }, "something new went wrong"), "something new went wrong");
  });

  it("carries its code, reason and parameters, and as its message the reason's text", () => {
    useMessages("ru", catalog("ru"), english);
    const e = new ServerError("not_found", "no match has that invite code", "join_code_unknown");
    assert.equal(e.message, "Ни у одной партии нет такого кода приглашения.");
    assert.deepEqual([e.code, e.reason, e.params], ["not_found", "join_code_unknown", {}]);
    // The server's own sentence is kept, for a page that quotes the engine's words.
    assert.equal(e.serverMessage, "no match has that invite code");
    // From an older server, without a reason: its sentence as it is.
    assert.equal(new ServerError("conflict", "the match is full").message, "the match is full");
  });
});

describe("an illegal move's refusal", () => {
  const sentence = "illegal action: d2 to e3 is not along a rank or a file";
  const params = { action: "d2-e3", why: "not_straight", why_params: { from: "d2", to: "e3" } };

  it("says the engine's reason why in the page's language, not the server's English", () => {
    useMessages("de", catalog("de"), english);
    const e = new ServerError("illegal_action", sentence, "illegal_move", params);
    assert.equal(e.message,
      "'d2-e3' ist hier kein erlaubter Zug. Der Zug von d2 nach e3 verläuft nicht entlang einer Reihe oder Linie.");
    assert.equal(e.why, "Der Zug von d2 nach e3 verläuft nicht entlang einer Reihe oder Linie.");
  });

  it("quotes the server's sentence for a reason no catalog words, and says nothing more without one", () => {
    useMessages("de", catalog("de"), english);
    const unknown = new ServerError("illegal_action", "illegal action: the stack is not yours", "illegal_move",
      { action: "c3ne", why: "a_rule_from_a_newer_server" });
    assert.equal(unknown.message, "'c3ne' ist hier kein erlaubter Zug. illegal action: the stack is not yours");
    assert.equal(unknown.why, null);
    const none = new ServerError("illegal_action", "no move 'zz'", "illegal_move", { action: "zz" });
    assert.equal(none.message, "'zz' ist hier kein erlaubter Zug.");
  });
});

describe("Russian counts", () => {
  it("with one, few and many", () => {
    useMessages("ru", catalog("ru"), english);
    assert.deepEqual([1, 3, 5, 21, 22, 11].map((count) => t("match.watchers", { count })),
      ["1 зритель", "3 зрителя", "5 зрителей", "21 зритель", "22 зрителя", "11 зрителей"]);
  });
});
