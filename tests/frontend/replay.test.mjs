// The replay applies the flips the server reported move by move; checked against the engine's
// test vectors, whose every move lists its flips and the face-down count.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { replaySteps, stepAsGame } from "../../frontend/foursquare/model/replay.js";

const VECTORS = new URL("../foursquare/vectors/", import.meta.url).pathname;
// Vectors with an "error_at" pin an illegal move instead; they have no per-move results.
const vectors = readdirSync(VECTORS).filter((name) => name.endsWith(".json"))
  .map((name) => [name, JSON.parse(readFileSync(VECTORS + name, "utf8"))])
  .filter(([, vector]) => vector.expect);

test("with every move's flips known, each step's face-down count matches the engine", () => {
  for (const [name, vector] of vectors) {
    const flips = Object.fromEntries(vector.expect.map((move, index) => [index, move.flipped]));
    const steps = replaySteps({ deck: vector.deck, moves: vector.moves }, flips);
    assert.equal(steps.length, vector.moves.length + 1, name);
    vector.expect.forEach((move, index) => {
      const step = steps[index + 1];
      assert.equal(step.card, move.card, name);
      assert.deepEqual(step.at, move.at, name);
      assert.equal(step.piles.filter((p) => p.faceUp === false).length, move.face_down, `${name} move ${index}`);
    });
  }
});

test("piles keep their cards in order and show the top one", () => {
  const record = { deck: ["4S", "TC", "3D"], moves: [[0, 0], [1, 0], [0, 0]] };
  const steps = replaySteps(record, { 0: [], 1: [[0, 0]], 2: [[1, 0]] });
  const last = stepAsGame(steps[3]);
  const top = last.grid.find((p) => p.row === 0 && p.col === 0);
  assert.deepEqual([top.height, top.card, top.face_up], [2, "3D", true]);
  const ten = last.grid.find((p) => p.row === 1);
  assert.deepEqual([ten.card, ten.face_up, ten.revealed], ["TC", false, true]);
  assert.equal(steps[0].piles.length, 0);
  assert.equal(steps[0].next, "4S");
});

test("moves whose flips this device did not see show no face state, except the final grid", () => {
  const record = { deck: ["4S", "TC", "3D"], moves: [[0, 0], [1, 0], [0, 0]] };
  const steps = replaySteps(record, { 0: [] }, [
    { row: 0, col: 0, face_up: true }, { row: 1, col: 0, face_up: false },
  ]);
  assert.equal(steps[1].known, true);
  assert.equal(steps[2].known, false);
  assert.ok(steps[2].piles.every((p) => p.faceUp === null));
  assert.equal(steps[3].known, true);
  assert.deepEqual(steps[3].piles.map((p) => p.faceUp), [true, false]);
  assert.equal(stepAsGame(steps[2]).grid[0].unknown, true);
});
