// The table model (model/sync.js) on small cases: events applied once each and in order
// whatever way they come, a server's match waiting for the events that reach it (the hand
// drawn twice of issue #35), a jump past a gap, and a table unlike the events' one noted.

import assert from "node:assert/strict";
import { test } from "node:test";

import { TableSync } from "../../frontend/spitemalice/model/sync.js";

const game = (changes = {}) => ({
  number: 1, status: "playing", turn: 1, actions: 3, stock: 40,
  centre: [{ size: 0, top: null, next: "A" }, { size: 0, top: null, next: "A" }, { size: 0, top: null, next: "A" }],
  seats: [{ seat: 0, payoff: 20, payoff_top: "9C", hand: 0, sides: [[], [], [], []] },
    { seat: 1, payoff: 20, payoff_top: "4D", hand: 5, sides: [[], [], [], []] }],
  hand: [], legal_actions: [], winner: null, points: null, ...changes,
});
const match = (event, changes = {}, rest = {}) => ({
  id: "m", mode: "friend", status: "playing", target: 1, you: 0, event, deadline: null,
  seats: [{ seat: 0, player: null, bot: null, score: 0 }, { seat: 1, player: null, bot: null, score: 0 }],
  game: game(changes), ...rest,
});

// Seat 1 discards (event 11), then seat 0's turn begins with a draw of five (12, with its table).
const discard = { number: 11, kind: "discard", game: 1, action: 3, seat: 1, card: "7H", from: "7H", to: "S0" };
const turnGame = {
  turn: 0, actions: 4, stock: 35, hand: ["2C", "3D", "5S", "9H", "KC"],
  seats: [{ seat: 0, payoff: 20, payoff_top: "9C", hand: 5, sides: [[], [], [], []] },
    { seat: 1, payoff: 20, payoff_top: "4D", hand: 4, sides: [["7H"], [], [], []] }],
  legal_actions: [["KC", "C0"], ["2C", "S0"]],
};
const draw = {
  number: 12, kind: "draw", game: 1, seat: 0, count: 5, stock: 35, cards: ["2C", "3D", "5S", "9H", "KC"],
  table: { game: game(turnGame), deadline: null, abortable: false, your_turn: true },
};
const after = match(12, turnGame);

test("a match read while older events are still to be shown waits for them: no card twice", () => {
  const sync = new TableSync(match(10));
  sync.receive([discard, draw]);
  sync.offer(after); // the read's answer, taken after the draw, arrives before it is shown
  assert.deepEqual(sync.view.hand, []); // not yet: the discard is shown first
  assert.equal(sync.step().number, 11);
  assert.equal(sync.exact, false);
  assert.equal(sync.step().number, 12);
  assert.deepEqual(sync.view.hand, ["2C", "3D", "5S", "9H", "KC"]);
  assert.deepEqual(sync.view.legal, [["KC", "C0"], ["2C", "S0"]]);
  assert.ok(sync.settled);
  assert.deepEqual(sync.disagreements, []);
});

test("events come in any order and any number of times, and are applied once each, in order", () => {
  const sync = new TableSync(match(10));
  sync.receive([draw]);
  assert.equal(sync.peek(), null);
  assert.ok(sync.gap); // 12 without 11: the feed is to be read
  sync.receive([discard, discard, draw]);
  assert.equal(sync.step().number, 11);
  sync.receive([discard]); // again, after it was shown
  assert.equal(sync.step().number, 12);
  assert.equal(sync.step(), null);
  assert.equal(sync.view.hand.length, 5);
  assert.ok(sync.settled); // the draw's table is the server's match at 12
});

test("past a gap no event fills, the newest match is jumped to", () => {
  const sync = new TableSync(match(10));
  sync.offer(after);
  assert.equal(sync.peek(), null);
  assert.ok(sync.jump());
  assert.equal(sync.shown, 12);
  assert.ok(sync.settled);
  assert.equal(sync.view.hand.length, 5);
  sync.offer(match(11)); // an older read, answered late, changes nothing
  assert.equal(sync.shown, 12);
  assert.equal(sync.view.hand.length, 5);
});

test("a table unlike the one the events built is noted, and the server's is shown", () => {
  const sync = new TableSync(match(10));
  sync.receive([discard, { ...draw, table: { ...draw.table, game: game({ ...turnGame, stock: 34 }) } }]);
  sync.step();
  sync.step();
  assert.deepEqual(sync.disagreements, [12]);
  assert.equal(sync.view.stock, 34);
});

test("the match's end moves the match's own fields", () => {
  const sync = new TableSync(match(10));
  sync.receive([
    { number: 11, kind: "resigned", game: 1, seat: 1 },
    { number: 12, kind: "game_over", game: 1, status: "resigned", winner: 0, points: 0, scores: [0, 0] },
    { number: 13, kind: "match_over", winner: 0, reason: "resigned", scores: [0, 0] },
  ]);
  while (sync.step());
  assert.equal(sync.match.status, "finished");
  assert.equal(sync.match.reason, "resigned");
  assert.equal(sync.view.turn, null);
  assert.equal(sync.view.status, "resigned");
});
