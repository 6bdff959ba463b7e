// The analysis screen's pure parts: the win-chance line and the verdict tally.

import assert from "node:assert/strict";
import { test } from "node:test";

import { polylinePoints, verdictTally, winChancePoints } from "../../frontend/foursquare/model/analysis.js";

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

test("the chart marks the mistakes and blunders, by their place in the game", async () => {
  const { chartMarkers } = await import("../../frontend/foursquare/model/analysis.js");
  const moves = ["best", "mistake", "good", "blunder", "inaccuracy"].map((verdict, index) => ({ index, verdict }));
  assert.deepEqual(chartMarkers(moves), [{ index: 1, verdict: "mistake" }, { index: 3, verdict: "blunder" }]);
});

test("a move's position is the grid before it, framed to hold its place and the bot's", async () => {
  const { positionBefore } = await import("../../frontend/foursquare/model/analysis.js");
  const { replaySteps } = await import("../../frontend/foursquare/model/replay.js");
  const steps = replaySteps({ deck: ["TH", "2C", "3D"], moves: [[0, 0], [0, 1], [1, 0]] }, { 0: [], 1: [], 2: [] });
  const position = positionBefore(steps, { index: 2, played: [1, 0], best: [0, 2] });
  assert.deepEqual(position.grid.map((pile) => [pile.row, pile.col, pile.card]), [[0, 0, "TH"], [0, 1, "2C"]]);
  assert.deepEqual(position.legal_moves, [[1, 0], [0, 2]]);
  const first = positionBefore(steps, { index: 0, played: [0, 0], best: [0, 0] });
  assert.deepEqual([first.grid, first.legal_moves], [[], [[0, 0]]]);
});
