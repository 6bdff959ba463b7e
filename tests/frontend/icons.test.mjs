// The replay's controls are told apart by their shapes: playing is a solid triangle, stepping
// a chevron, so ▶ and "next move" never look alike.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ICON_DRAWINGS } from "../../frontend/lib/icons.js";

// How many commands with numbers draw each of a drawing's paths: a triangle takes three (a move
// and two lines; the close has none), a chevron more.
function commands(name) {
  return ICON_DRAWINGS[name].filter(([tag]) => tag === "path")
    .map(([, { d }]) => d.split(/[a-zA-Z]/).filter((part) => part.trim()).length);
}

test("play is a lone triangle and no step control is", () => {
  assert.deepEqual(ICON_DRAWINGS.play.map(([tag]) => tag), ["path"]);
  assert.deepEqual(commands("play"), [3]);
  for (const name of ["first", "previous", "next", "last"]) {
    assert.ok(commands(name).every((n) => n !== 3), `${name} is not a triangle like play`);
    assert.notDeepEqual(ICON_DRAWINGS[name], ICON_DRAWINGS.play);
  }
});

test("the five replay controls are five different drawings", () => {
  const drawings = ["first", "previous", "play", "next", "last"].map((name) => JSON.stringify(ICON_DRAWINGS[name]));
  assert.equal(new Set(drawings).size, 5);
});
