// The event animation queue: events shown once each, in number order, one at a time with a
// pause a person can follow (the opponent's slower than your own), skippable, reduced motion
// shorter, and idle() once all is shown.

import assert from "node:assert/strict";
import { test } from "node:test";

import { BEHIND_MS, catchUpPace, EventQueue, paceOf, pausable, rushed } from "../../frontend/spitemalice/model/queue.js";

function harness({ last = 0 } = {}) {
  const shown = [];
  const waits = [];
  let pending = [];
  const queue = new EventQueue({
    last,
    show: (event, { instant }) => { shown.push([event.number, instant]); },
    // A clock the test controls: each pause lasts until the test lets it go.
    wait: (ms) => new Promise((resolve) => { waits.push(ms); pending.push(resolve); }),
    pace: (event) => paceOf(event, { you: 0 }),
    onIdle: () => shown.push("idle"),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const next = async () => {
    const going = pending;
    pending = [];
    going.forEach((resolve) => resolve());
    await settle();
  };
  return { queue, shown, waits, settle, next };
}

const play = (number, seat) => ({ number, kind: "play", seat, card: "5H", from: "5H", to: "C0" });

test("events are shown once each, in number order, one pause after each", async () => {
  const { queue, shown, waits, settle, next } = harness({ last: 3 });
  assert.equal(queue.push([play(5, 1), play(4, 1), play(3, 1)]), 2);
  assert.equal(queue.push([play(5, 1)]), 0); // the same event again, from the socket and the feed
  await settle();
  assert.deepEqual(shown, [[4, false]]);
  assert.ok(queue.busy);
  await next();
  assert.deepEqual(shown, [[4, false], [5, false]]);
  await next();
  await queue.idle();
  assert.deepEqual(shown, [[4, false], [5, false], "idle"]);
  assert.deepEqual(waits, [900, 900]);
  assert.ok(!queue.busy);
});

test("skip shows the rest at once, without pauses", async () => {
  const { queue, shown, waits, settle, next } = harness();
  queue.push([play(1, 1), play(2, 1)]);
  await settle();
  queue.skip();
  await next(); // the pause under way ends (pausable() ends it early; see below)
  await queue.idle();
  assert.deepEqual(shown, [[1, false], [2, true], "idle"]);
  assert.deepEqual(waits, [Math.min(900, BEHIND_MS / 2)]); // a burst of two: each pause at most half the bound
  // After a skip the next events are paced again.
  queue.push([play(5, 1)]);
  await settle();
  assert.deepEqual(shown.at(-1), [5, false]);
  await next();
  await queue.idle();
});

test("a pause ends early once skipped", async () => {
  let skipped = false;
  const started = performance.now();  // a monotonic clock: a wall clock set back can't fail it
  const done = pausable(5000, () => skipped);
  setTimeout(() => { skipped = true; }, 20);
  await done;
  assert.ok(performance.now() - started < 1000);
});

test("the pace: the opponent's cards slower than yours, a game's end longest, reduced motion shorter", () => {
  const mine = paceOf(play(1, 0), { you: 0 });
  const theirs = paceOf(play(1, 1), { you: 0 });
  assert.ok(mine < theirs);
  assert.ok(theirs >= 600, "a person can follow the opponent's cards");
  const over = paceOf({ kind: "game_over" }, { you: 0 });
  assert.ok(over > theirs);
  assert.ok(paceOf(play(1, 1), { you: 0, reduced: true }) < theirs);
  assert.equal(paceOf({ kind: "joined" }, { you: 0 }), 0);
});

test("idle() resolves at once when nothing is queued", async () => {
  const { queue } = harness();
  await queue.idle();
  assert.ok(!queue.busy);
});

test("stop() drops what is queued: nothing more is shown, idle is not called, later events are refused", async () => {
  const { queue, shown, settle, next } = harness();
  queue.push([play(1, 1), play(2, 1), play(3, 1)]);
  await settle();
  assert.deepEqual(shown, [[1, false]]);
  queue.stop();
  await next();
  assert.deepEqual(shown, [[1, false]]);
  assert.equal(queue.busy, false);
  assert.equal(queue.push([play(4, 1)]), 0);
  await settle();
  assert.deepEqual(shown, [[1, false]]);
});

test("a fast opponent is followed: the pauses shrink so the whole queue is shown within BEHIND_MS", async () => {
  for (const count of [1, 2, 5, 20, 80]) {
    const { queue, waits, next } = harness();
    queue.push(Array.from({ length: count }, (_, index) => play(index + 1, 1)));
    while (queue.busy) await next();
    const behind = waits.reduce((sum, ms) => sum + ms, 0);
    assert.ok(behind <= BEHIND_MS, `${count} events: ${behind} ms of pauses`);
  }
  assert.equal(catchUpPace(900, []), 900); // alone, at a person's pace
  assert.equal(catchUpPace(900, [play(2, 1)]), Math.min(900, BEHIND_MS / 2));
  assert.equal(catchUpPace(900, [], 10), BEHIND_MS / 10); // the last of a burst of 10
});

test("an ending waiting in the queue is reached at once, the cards before it without flights", async () => {
  const over = { number: 4, kind: "game_over", status: "won", winner: 1 };
  assert.equal(catchUpPace(900, [play(3, 1), over]), 0);
  assert.ok(rushed([over]));
  assert.ok(!rushed([play(3, 1)]));
  assert.ok(rushed([play(3, 1), play(4, 1), play(5, 1)]));
  const { queue, shown, waits, next } = harness();
  queue.push([play(1, 1), play(2, 1), over, { number: 5, kind: "match_over", winner: 1, scores: [0, 1] }]);
  while (queue.busy) await next();
  assert.deepEqual(shown, [[1, true], [2, true], [4, true], [5, false], "idle"]);
  assert.deepEqual(waits, []); // the match is over: no pause after it either
});
