// The analysis screen's pure parts: the win-chance line and the verdict tally.

import assert from "node:assert/strict";
import { test } from "node:test";

import { polylinePoints, verdictTally, winChancePoints } from "../../frontend/model/analysis.js";

const move = (chance, verdict = "best") => ({ played_estimate: { win_probability: chance }, verdict });

test("the win-chance line spans the box, a sure win at the top", () => {
  const points = winChancePoints([move(1), move(0.5), move(0)], { width: 200, height: 100 });
  assert.deepEqual(points, [[0, 0], [100, 50], [200, 100]]);
  assert.equal(polylinePoints(points), "0,0 100,50 200,100");
});

test("a single move sits at the left edge, and nothing draws nothing", () => {
  assert.deepEqual(winChancePoints([move(0.25)], { width: 200, height: 100 }), [[0, 75]]);
  assert.deepEqual(winChancePoints([]), []);
});

test("odd estimates are kept inside the box", () => {
  assert.deepEqual(winChancePoints([move(1.5), move(-1), { verdict: "good" }], { width: 10, height: 10 }),
    [[0, 0], [5, 10], [10, 10]]);
});

test("the tally keeps the verdicts' order and leaves out the empty ones", () => {
  const moves = [move(1, "mistake"), move(1, "best"), move(1, "best"), move(1, "odd")];
  assert.deepEqual(verdictTally(moves), [{ verdict: "best", n: 2 }, { verdict: "mistake", n: 1 }]);
});
