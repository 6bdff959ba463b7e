// The Spite & Malice table's pure logic: the API's match laid out, the choices offered (only
// legal_actions), keyboard steps, the clock, the events moved onto the table and the replay's
// positions from a record.

import assert from "node:assert/strict";
import { test } from "node:test";

import { centreShows, choices, clockParts, isLegal, score, seating, secondsLeft, step, targetsOf, viewOf } from "../../frontend/spitemalice/model/table.js";
import { applyEvent, describe, motion } from "../../frontend/spitemalice/model/events.js";
import { asView, positions } from "../../frontend/spitemalice/model/replay.js";

const MATCH = {
  id: "m1", mode: "bot", status: "playing", target: 50, you: 0, event: 9, deadline: null,
  seats: [{ seat: 0, player: { id: "p", name: "Ada" }, bot: null, score: 12 },
    { seat: 1, player: null, bot: "normal", score: 7 }],
  game: {
    number: 2, status: "playing", turn: 0, actions: 9, stock: 51,
    centre: [{ size: 2, top: "2S", next: "3" }, { size: 5, top: "KD", next: "6" }, { size: 0, top: null, next: "A" }],
    seats: [{ seat: 0, payoff: 19, payoff_top: "3D", hand: 5, sides: [["9S"], [], [], []] },
      { seat: 1, payoff: 20, payoff_top: "QH", hand: 4, sides: [[], ["4C", "8H"], [], []] }],
    hand: ["AC", "3S", "7H", "7H", "KD"],
    legal_actions: [["P", "C0"], ["S0", "C0"], ["AC", "C2"], ["AC", "S0"], ["3S", "C0"], ["3S", "S1"],
      ["7H", "S0"], ["7H", "S3"], ["KD", "C0"], ["KD", "C1"], ["KD", "C2"], ["KD", "S2"]],
    winner: null, points: null,
  },
};

test("a match is laid out from the server's fields alone", () => {
  const view = viewOf(MATCH);
  assert.equal(view.you, 0);
  assert.equal(view.stock, 51);
  assert.deepEqual(view.seats[1].sides[1], ["4C", "8H"]);
  assert.equal(view.seats[1].hand, 4);
  assert.deepEqual(score(view), { mine: 12, theirs: 7, target: 50 });
  const { near, far } = seating(view);
  assert.equal(near.seat, 0);
  assert.equal(far.seat, 1);
  assert.equal(seating({ ...view, you: 1 }).near.seat, 1);
});

test("only the sources of legal_actions are offered, a card held twice once, in table order", () => {
  const view = viewOf(MATCH);
  const offered = choices(view);
  assert.deepEqual(offered.map((c) => c.source), ["P", "S0", "AC", "3S", "7H", "KD"]);
  assert.deepEqual(offered.find((c) => c.source === "KD").targets, ["C0", "C1", "C2", "S2"]);
  assert.equal(offered.find((c) => c.source === "P").card, "3D");
  assert.equal(offered.find((c) => c.source === "S0").card, "9S");
  const sevens = offered.find((c) => c.source === "7H");
  assert.ok(sevens.discards && !sevens.plays);
  assert.deepEqual(targetsOf(view, "3S"), [{ target: "C0", discard: false }, { target: "S1", discard: true }]);
  assert.ok(isLegal(view, "AC", "C2"));
  assert.ok(!isLegal(view, "AC", "C0"));
  assert.deepEqual(choices(viewOf({ ...MATCH, game: { ...MATCH.game, legal_actions: [] } })), []);
});

test("a King on a centre stack shows the rank it stands for", () => {
  const view = viewOf(MATCH);
  assert.equal(centreShows(view.centre[0]), "2");
  assert.equal(centreShows(view.centre[1]), "5");
  assert.equal(centreShows(view.centre[2]), null);
});

test("arrow keys step through the places, wrapping, mirrored right to left", () => {
  const places = ["a", "b", "c"];
  assert.equal(step(places, "a", "ArrowRight"), "b");
  assert.equal(step(places, "a", "ArrowLeft"), "c");
  assert.equal(step(places, "a", "ArrowRight", { rtl: true }), "c");
  assert.equal(step(places, "c", "ArrowDown"), "a");
  assert.equal(step(places, "b", "End"), "c");
  assert.equal(step(places, "b", "Enter"), null);
});

test("the clock counts down to the deadline and never below zero", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  assert.equal(secondsLeft("2026-12-01T12:01:05Z", now), 65);
  assert.equal(secondsLeft("2026-12-01T11:00:00Z", now), 0);
  assert.equal(secondsLeft(null, now), null);
  assert.deepEqual(clockParts(90061), { days: 1, hours: 1, minutes: 1, seconds: 1 });
});

test("events move the cards they name and offer nothing while shown", () => {
  let view = viewOf(MATCH);
  view = applyEvent(view, { number: 10, kind: "play", game: 2, seat: 0, card: "3D", from: "P", to: "C0", as: "3", payoff_top: "5C" });
  assert.deepEqual([view.seats[0].payoff, view.seats[0].payoffTop], [18, "5C"]);
  assert.deepEqual(view.centre[0], { size: 3, top: "3D", next: "4" });
  assert.deepEqual(view.legal, []);
  view = applyEvent(view, { number: 11, kind: "play", game: 2, seat: 0, card: "7H", from: "7H", to: "C0", as: "4" });
  assert.deepEqual(view.hand, ["AC", "3S", "7H", "KD"]);
  assert.equal(view.seats[0].hand, 4);
  view = applyEvent(view, { number: 12, kind: "discard", game: 2, seat: 0, card: "3S", from: "3S", to: "S1" });
  assert.deepEqual(view.seats[0].sides[1], ["3S"]);
  assert.equal(view.turn, 1);
  view = applyEvent(view, { number: 13, kind: "draw", game: 2, seat: 1, count: 1, stock: 50 });
  assert.equal(view.seats[1].hand, 5);
  assert.equal(view.stock, 50);
  assert.deepEqual(view.hand, ["AC", "7H", "KD"]); // the opponent's cards never join yours
  view = applyEvent(view, { number: 14, kind: "play", game: 2, seat: 1, card: "8H", from: "S1", to: "C1", as: "6" });
  assert.deepEqual(view.seats[1].sides[1], ["4C"]);
  view = applyEvent(view, { number: 15, kind: "completed", game: 2, stack: "C1", stock: 62 });
  assert.deepEqual(view.centre[1], { size: 0, top: null, next: "A" });
  assert.equal(view.stock, 62);
  view = applyEvent(view, { number: 16, kind: "draw", game: 2, seat: 0, count: 2, stock: 60, cards: ["2C", "9D"] });
  assert.deepEqual(view.hand, ["AC", "2C", "7H", "9D", "KD"]); // as the server lists a hand: by rank, then suit
  view = applyEvent(view, { number: 17, kind: "game_over", game: 2, status: "won", winner: 0, points: 9, scores: [21, 7] });
  assert.deepEqual([view.status, view.winner, view.points, view.seats[0].score, view.turn], ["won", 0, 9, 21, null]);
  view = applyEvent(view, { number: 18, kind: "dealt", game: 3, starts: 1, payoff: [20, 20], payoff_tops: ["4S", "JD"] });
  assert.deepEqual([view.game, view.turn, view.stock, view.hand.length, view.seats[1].payoffTop], [3, 1, 64, 0, "JD"]);
  assert.ok(view.centre.every((stack) => stack.size === 0));
});

test("an event's motion names the places on the table", () => {
  assert.deepEqual(motion({ kind: "play", seat: 1, card: "8H", from: "S1", to: "C1" }), { from: "1:S1", to: "C1", card: "8H" });
  assert.deepEqual(motion({ kind: "discard", seat: 0, card: "3S", from: "3S", to: "S1" }), { from: "0:hand", to: "0:S1", card: "3S" });
  assert.deepEqual(motion({ kind: "play", seat: 0, card: "3D", from: "P", to: "C0" }), { from: "0:P", to: "C0", card: "3D" });
  assert.equal(motion({ kind: "game_over" }), null);
});

test("every event is said in words, yours and the opponent's", () => {
  const t = (key, params = {}) => `${key}(${Object.entries(params).map(([k, v]) => `${k}=${v}`).join(",")})`;
  const say = (event) => describe(event, { you: 0, t, card: (code) => code, names: ["You", "Bot"] });
  assert.match(say({ kind: "play", seat: 1, card: "8H", from: "S1", to: "C1", as: "6" }), /^sm\.say\.they_played\(.*who=Bot.*card=8H/);
  assert.match(say({ kind: "draw", seat: 0, count: 2, cards: ["2C", "9D"] }), /you_drew\(.*cards=2C, 9D/);
  assert.match(say({ kind: "draw", seat: 1, count: 5 }), /they_drew\(who=Bot,n=5\)/);
  assert.match(say({ kind: "game_over", status: "won", winner: 1, points: 4, scores: [0, 4] }), /game_lost/);
  assert.match(say({ kind: "match_over", winner: 0, scores: [50, 3] }), /match_won/);
  assert.match(say({ kind: "completed", stack: "C2", stock: 30 }), /completed/);
});

// A record as the server lays it open: seat 0 starts with five cards, plays its pay-off top,
// then a King from the hand that completes a centre stack of eleven, then discards; seat 1
// draws five.
const RECORD = {
  status: "won", winner: 0, points: 3,
  actions: [["P", "C0"], ["KS", "C1"], ["2H", "S3"]],
  deal: { payoff: [["AD", "5C", "6C"], ["9H", "TD", "JD"]], stock: ["QS", "2C", "3C", "4C", "5D", "6D", "7D"], hands: [["2H", "KS", "8C", "8D", "9C"], []] },
  steps: [
    { seat: 0, card: "AD", as: "A", completed: false, drawn: [[], []] },
    { seat: 0, card: "KS", as: "Q", completed: true, drawn: [[], []] },
    { seat: 0, card: "2H", as: null, completed: false, drawn: [[], ["2C", "3C", "4C", "5D", "QS"]] },
  ],
  final: { payoff: [["5C", "6C"], ["9H", "TD", "JD"]], stock: [], hands: [[], []] },
};

test("the replay's positions move the record's cards action by action", () => {
  const list = positions({ ...RECORD, deal: { ...RECORD.deal } }, 0);
  assert.equal(list.length, 4);
  assert.deepEqual(list[0].piles[0], ["AD", "5C", "6C"]);
  assert.equal(list[1].centre[0].top, "AD");
  assert.deepEqual(list[1].piles[0], ["5C", "6C"]);
  // A completion empties the stack, the completing card with it, into the stock (here the
  // stack held nothing before, for brevity: one card goes back).
  const second = positions({ ...RECORD }, 0)[2];
  assert.deepEqual(second.centre[1], { size: 0, top: null, next: "A" });
  assert.equal(second.stock, 7 + 1);
  const last = list[3];
  assert.deepEqual(last.sides[0][3], ["2H"]);
  assert.deepEqual(last.hands[1], ["2C", "3C", "4C", "5D", "QS"]);
  assert.equal(last.stock, 8 - 5);
  assert.equal(last.status, "won");
  const view = asView(last, { you: 0, names: ["Ada", "Bot"] });
  assert.deepEqual(view.farHand, ["2C", "3C", "4C", "5D", "QS"]);
  assert.equal(view.seats[0].payoffTop, "5C");
  assert.deepEqual(view.legal, []);
  assert.deepEqual(RECORD.deal.payoff[0], ["AD", "5C", "6C"]); // the record itself is left as it was
});

test("the replay's turn steps land where each turn ended", async () => {
  const { turnEnds, turnStep } = await import("../../frontend/spitemalice/model/replay.js");
  // Seat 0 plays twice then discards, seat 1 discards, seat 0 plays once (the last action).
  const record = { steps: [{ seat: 0 }, { seat: 0 }, { seat: 0 }, { seat: 1 }, { seat: 0 }] };
  const ends = turnEnds(record);
  assert.deepEqual(ends, [3, 4, 5]);
  assert.equal(turnStep(ends, 0, 1), 3);
  assert.equal(turnStep(ends, 3, 1), 4);
  assert.equal(turnStep(ends, 5, 1), 5); // the end stays the end
  assert.equal(turnStep(ends, 2, -1), 0);
  assert.equal(turnStep(ends, 4, -1), 3);
});
