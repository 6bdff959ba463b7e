// Each seat's latest turn from the feed's events (frontend/spitemalice/model/turn-log.js): what
// the match screen's log says of the opponent's last turn, and which cards it marks.

import assert from "node:assert/strict";
import { test } from "node:test";

import { emptyLog, logEvent, logOf, movedPlaces } from "../../frontend/spitemalice/model/turn-log.js";

const TURN = [
  { number: 20, kind: "draw", game: 1, seat: 1, count: 2, stock: 40 },
  { number: 21, kind: "play", game: 1, seat: 1, card: "JH", from: "P", to: "C0", as: "J", payoff_top: "4C" },
  { number: 22, kind: "play", game: 1, seat: 1, card: "QS", from: "QS", to: "C0", as: "Q" },
  { number: 23, kind: "completed", game: 1, stack: "C0", stock: 52 },
  { number: 24, kind: "play", game: 1, seat: 1, card: "AD", from: "S2", to: "C1", as: "A" },
  { number: 25, kind: "discard", game: 1, seat: 1, card: "9C", from: "9C", to: "S0" },
];

const view = (overrides = {}) => ({
  you: 0,
  centre: [{ size: 0, top: null, next: "A" }, { size: 1, top: "AD", next: "2" }, { size: 0, top: null, next: "A" }],
  seats: [{ seat: 0, sides: [[], [], [], []] }, { seat: 1, sides: [["9C"], [], [], []] }],
  ...overrides,
});

test("a turn's moves are logged from where to where, its completion and its discard marked", () => {
  const log = logOf(TURN);
  const turn = log.turns[1];
  assert.equal(turn.seat, 1);
  assert.equal(turn.first, 20);
  assert.equal(turn.ended, true);
  assert.deepEqual(turn.moves.map((move) => [move.card, move.from, move.to, move.kind, move.completed]), [
    ["JH", "P", "C0", "play", false],
    ["QS", "QS", "C0", "play", true],
    ["AD", "S2", "C1", "play", false],
    ["9C", "9C", "S0", "discard", false],
  ]);
  assert.equal(log.turns[0], null);
});

test("the other seat's first event begins a new turn; a deal forgets the last game's", () => {
  let log = logOf(TURN);
  log = logEvent(log, { number: 26, kind: "draw", game: 1, seat: 0, count: 1, stock: 51 });
  log = logEvent(log, { number: 27, kind: "play", game: 1, seat: 0, card: "AS", from: "AS", to: "C0", as: "A" });
  assert.equal(log.current.seat, 0);
  assert.equal(log.turns[0].moves.length, 1);
  assert.equal(log.turns[1].moves.length, 4); // the opponent's turn is kept until its next
  log = logEvent(log, { number: 28, kind: "play", game: 1, seat: 1, card: "2D", from: "2D", to: "C1", as: "2" });
  assert.deepEqual(log.turns[1].moves.map((move) => move.card), ["2D"]);
  assert.equal(log.turns[1].ended, false);
  assert.deepEqual(logEvent(log, { number: 29, kind: "dealt", game: 2 }), emptyLog());
});

test("a completion that does not follow its play changes nothing", () => {
  const log = logOf(TURN.slice(0, 2));
  assert.equal(logEvent(log, { number: 30, kind: "completed", stack: "C2", stock: 50 }), log);
});

test("the marks are the places where a card the turn moved is still on top", () => {
  const turn = logOf(TURN).turns[1];
  // C0 was completed (its cards went to the stock); AD on C1 and 9C on side stack 1 remain.
  assert.deepEqual([...movedPlaces(turn, view())].sort(), ["1:S0", "C1"]);
  // Covered since: a 2 on the ace, another card on the side stack.
  const covered = view({
    centre: [{ size: 0, top: null, next: "A" }, { size: 2, top: "2S", next: "3" }, { size: 0, top: null, next: "A" }],
    seats: [{ seat: 0, sides: [[], [], [], []] }, { seat: 1, sides: [["9C", "8H"], [], [], []] }],
  });
  assert.deepEqual([...movedPlaces(turn, covered)], []);
  assert.deepEqual([...movedPlaces(null, view())], []);
});
