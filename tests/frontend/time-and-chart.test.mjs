// Dates for the daily and the countdown, and the bars of a score distribution.

import assert from "node:assert/strict";
import { test } from "node:test";

import { bars } from "../../frontend/model/chart.js";
import { addDays, datesBack, localDate, nextMidnight, until } from "../../frontend/model/time.js";

test("your daily is your local calendar date", () => {
  assert.equal(localDate(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
});

test("the next daily starts at the next local midnight", () => {
  const now = new Date(2026, 10, 29, 22, 30, 15);
  assert.deepEqual(nextMidnight(now), new Date(2026, 10, 30));
  assert.deepEqual(until(nextMidnight(now), now), { hours: 1, minutes: 29, seconds: 45 });
  assert.deepEqual(until(now, nextMidnight(now)), { hours: 0, minutes: 0, seconds: 0 });
});

test("archive dates run backwards and stop at the launch", () => {
  assert.deepEqual(datesBack("2026-11-01", "2026-11-03"), ["2026-11-03", "2026-11-02", "2026-11-01"]);
  assert.equal(datesBack("2026-01-01", "2026-11-03", 30).length, 30);
  assert.deepEqual(datesBack("2026-11-05", "2026-11-03"), []);
  assert.equal(addDays("2026-11-30", 1), "2026-12-01");
  assert.equal(addDays("2026-03-01", -1), "2026-02-28");
});

test("bars keep score order, keep three empty scores either side and mark yours", () => {
  const distribution = Object.fromEntries(Array.from({ length: 25 }, (_, score) => [score, 0]));
  Object.assign(distribution, { 8: 3, 9: 6, 12: 1 });
  const result = bars(distribution, 9);
  assert.deepEqual(result.map((b) => b.score), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  assert.deepEqual(result.filter((b) => b.count).map((b) => [b.score, b.share]), [[8, 0.5], [9, 1], [12, 1 / 6]]);
  assert.deepEqual(result.filter((b) => b.mine).map((b) => b.score), [9]);
  assert.deepEqual(bars({ 0: 1, 1: 0, 24: 0 }).map((b) => b.score), [0, 1]);
});

test("your own empty score still shows, and no wins at all shows nothing", () => {
  assert.deepEqual(bars({ 5: 0, 7: 2 }, 5).map((b) => b.score), [5, 7]);
  assert.deepEqual(bars({ 0: 0, 1: 0 }), []);
  assert.deepEqual(bars({}), []);
});
