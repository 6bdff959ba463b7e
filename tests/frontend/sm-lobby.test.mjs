// The Spite & Malice lobby's pure logic: whose turn a match is, who the opponent is, time left,
// the list's order, the new-match choices.

import assert from "node:assert/strict";
import { test } from "node:test";

import { CLOCKS, DECLINE_REASONS, DEFAULTS, LEVELS, TARGETS, canRematch, clockParts, invitationCode, isActive, matchState, scores, sortMatches, suggestsSingleGame } from "../../frontend/spitemalice/lobby/model.js";
import { dueIn, invitedYou, isYourTurn, matchHref, opponent } from "../../frontend/spitemalice/lobby/turns.js";

const person = (name) => ({ id: `id-${name}`, name });
const match = ({ id = "m", mode = "friend", status = "playing", you = 0, turn = 0, deadline = null, winner = null, seats, ...rest } = {}) => ({
  id, mode, status, you, winner, deadline, target: 25, turn_seconds: mode === "friend" ? 3600 : null,
  seats: seats ?? [{ seat: 0, player: person("Ada"), bot: null, score: 3 }, { seat: 1, player: person("Bo"), bot: null, score: 9 }],
  game: status === "playing" ? { turn } : null,
  ...rest,
});

test("it is your turn only in a match being played with the turn at your seat", () => {
  assert.equal(isYourTurn(match({ you: 0, turn: 0 })), true);
  assert.equal(isYourTurn(match({ you: 1, turn: 0 })), false);
  assert.equal(isYourTurn(match({ you: 1, turn: 1 })), true);
  assert.equal(isYourTurn(match({ status: "finished" })), false);
  assert.equal(isYourTurn(match({ status: "waiting" })), false);
});

test("a waiting match is an invitation to you unless you made it (seat 0)", () => {
  assert.equal(invitedYou(match({ status: "waiting", you: 1 })), true);
  assert.equal(invitedYou(match({ status: "waiting", you: 0 })), false);
  assert.equal(invitedYou(match({ status: "playing", you: 1 })), false);
});

test("the opponent is the other seat's person, the bot's level, or the invitee before they join", () => {
  assert.deepEqual(opponent(match({ you: 0 })), { name: "Bo" });
  assert.deepEqual(opponent(match({ you: 1 })), { name: "Ada" });
  const bot = match({ mode: "bot", seats: [{ seat: 0, player: person("Ada") }, { seat: 1, player: null, bot: "hard" }] });
  assert.deepEqual(opponent(bot), { bot: "hard" });
  const waiting = match({ status: "waiting", seats: [{ seat: 0, player: person("Ada") }, { seat: 1, player: null, bot: null }] });
  assert.equal(opponent(waiting), null);
  assert.deepEqual(opponent({ ...waiting, invitee: person("Cy") }), { name: "Cy" });
  // A bot account (a program playing through the API) is a person's seat, marked as such.
  assert.deepEqual(opponent({ ...waiting, invitee: { ...person("Robo"), bot: true } }), { name: "Robo", botAccount: true });
  assert.deepEqual(opponent(match({ seats: [{ seat: 0, player: person("Ada") }, { seat: 1, player: { ...person("Robo"), bot: true }, bot: null }] })),
    { name: "Robo", botAccount: true });
  assert.equal(matchHref(match({ id: "abc" })), "#/spite-malice/match/abc");
});

test("time left is said in its largest whole unit, never below zero", () => {
  const now = Date.parse("2026-12-01T10:00:00Z");
  assert.deepEqual(dueIn("2026-12-03T11:00:00Z", now), { value: 2, unit: "day", seconds: 176400 });
  assert.deepEqual(dueIn("2026-12-01T13:59:59Z", now), { value: 3, unit: "hour", seconds: 14399 });
  assert.deepEqual(dueIn("2026-12-01T10:00:59Z", now), { value: 59, unit: "second", seconds: 59 });
  assert.deepEqual(dueIn("2026-12-01T10:01:00Z", now), { value: 1, unit: "minute", seconds: 60 });
  assert.deepEqual(dueIn("2026-12-01T09:00:00Z", now), { value: 0, unit: "second", seconds: 0 });
  assert.deepEqual(clockParts(90061.7), { days: 1, hours: 1, minutes: 1, seconds: 1 });
  assert.deepEqual(clockParts(-5), { days: 0, hours: 0, minutes: 0, seconds: 0 });
});

test("a match's state from your side", () => {
  assert.equal(matchState(match({ turn: 0 })), "your_turn");
  assert.equal(matchState(match({ turn: 1 })), "their_turn");
  assert.equal(matchState(match({ status: "waiting", you: 0 })), "waiting");
  assert.equal(matchState(match({ status: "waiting", you: 1 })), "invited");
  assert.equal(matchState(match({ status: "finished", winner: 0 })), "won");
  assert.equal(matchState(match({ status: "finished", winner: 0, you: 1 })), "lost");
  assert.equal(matchState(match({ status: "finished", winner: null })), "tied");
  assert.equal(matchState(match({ status: "cancelled", reason: "expired" })), "cancelled");
  assert.equal(isActive(match({ turn: 1 })), true);
  assert.equal(isActive(match({ status: "finished", winner: 1 })), false);
});

test("the list shows what waits for you first, soonest deadline first, finished last in the server's order", () => {
  const list = [
    match({ id: "done-late", status: "finished", winner: 0 }),
    match({ id: "theirs", turn: 1, deadline: "2026-12-01T10:00:00Z" }),
    match({ id: "mine-later", turn: 0, deadline: "2026-12-02T10:00:00Z" }),
    match({ id: "waiting", status: "waiting" }),
    match({ id: "mine-soon", turn: 0, deadline: "2026-12-01T11:00:00Z" }),
    match({ id: "bot", mode: "bot", turn: 0 }),
    match({ id: "done-early", status: "finished", winner: 1 }),
    match({ id: "invited", status: "waiting", you: 1 }),
    match({ id: "cancelled", status: "cancelled" }),
  ];
  assert.deepEqual(sortMatches(list).map((m) => m.id),
    ["invited", "mine-soon", "mine-later", "bot", "theirs", "waiting", "done-late", "done-early", "cancelled"]);
});

test("a finished friend match offers a rematch until one exists", () => {
  assert.equal(canRematch(match({ status: "finished", winner: 0 })), true);
  assert.equal(canRematch(match({ status: "finished", winner: 0, rematch: "next" })), false);
  assert.equal(canRematch(match({ mode: "bot", status: "finished", winner: 0 })), false);
  assert.equal(canRematch(match({ status: "playing" })), false);
});

test("scores read from your seat", () => {
  assert.deepEqual(scores(match({ you: 0 })), [3, 9]);
  assert.deepEqual(scores(match({ you: 1 })), [9, 3]);
});

test("the choices are the API's, with its defaults, and slow clocks suggest a single game", () => {
  assert.deepEqual(LEVELS, ["easy", "normal", "hard", "expert"]);
  assert.deepEqual(TARGETS, [1, 25, 50]);
  assert.deepEqual(CLOCKS, [60, 3600, 86400, 259200]);
  assert.ok(CLOCKS.includes(DEFAULTS.clock) && LEVELS.includes(DEFAULTS.level));
  assert.deepEqual(CLOCKS.map(suggestsSingleGame), [false, false, true, true]);
});

test("the tutorial's script holds together: each step starts where the last one left the table", async () => {
  const { STEPS, played } = await import("../../frontend/spitemalice/lobby/tutorial.js");
  assert.equal(STEPS.length, 6);
  for (let index = 1; index < STEPS.length; index += 1) {
    const { centre, sides, payoff, hand } = STEPS[index];
    assert.deepEqual(played(STEPS[index - 1]), { centre, sides, payoff, hand }, `step ${index + 1}`);
  }
  // Checked against docs/SPITE_MALICE.md by hand, and held here: every play goes on the rank a
  // centre stack takes next (a king in its place), and the last move is a hand card's discard.
  const rank = (code) => "A23456789TJQK".indexOf(code[0]) + 1;
  for (const step of STEPS) {
    const [source, target] = step.move;
    const card = source === "P" ? step.payoff[0] : source.startsWith("S") ? step.sides[Number(source[1])].at(-1) : source;
    if (target.startsWith("C")) assert.ok(rank(card) === 13 || rank(card) === step.centre[Number(target[1])].length + 1, `${card} on ${target}`);
    else assert.ok(step.hand.includes(source), `a discard from the hand: ${source}`);
  }
  assert.ok(STEPS.at(-1).move[1].startsWith("S"));
});

test("each reason a challenge may be declined for is said in the lobby's words", async () => {
  const english = (await import("../../frontend/spitemalice/locales/lobby-en.js")).default;
  assert.equal(DECLINE_REASONS[0], "generic");  // the server's default, first in the picker
  assert.equal(new Set(DECLINE_REASONS).size, 10);
  for (const reason of DECLINE_REASONS) assert.ok(english[`sm.decline.${reason}`], reason);
});

test("an invitation's code from what was typed or pasted", () => {
  assert.equal(invitationCode(" k7m2-q9xa "), "K7M2Q9XA");
  assert.equal(invitationCode("https://example.org/spite-malice/join/k7m2q9xa"), "K7M2Q9XA");
  assert.equal(invitationCode("https://example.org/#/spite-malice/join/K7M2Q9XA?x=1"), "K7M2Q9XA");
});
