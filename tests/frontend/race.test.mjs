// A race read for the screens (frontend/foursquare/races/model/race.js): its phase by the
// clock, the time left, the lanes, a progress message applied, the ranking the server settled.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  botLine, canStart, clock, codeFrom, joinLink, lanes, laneWords, minutesSeconds, opponents, phase,
  progressOf, ranking, withProgress, yourGameOver,
} from "../../frontend/foursquare/races/model/race.js";

const T0 = Date.parse("2026-12-03T10:00:00Z");
const at = (seconds) => new Date(T0 + seconds * 1000).toISOString();
const ada = { id: "a", name: "Ada" };
const bo = { id: "b", name: "Bo" };
const cy = { id: "c", name: "Cy" };
const progress = (placed, extra = {}) => ({ placed, stock: 40 - placed - 1, face_down: 0, status: "playing", score: null, seconds: null, ...extra });

function race(status = "playing", extra = {}) {
  return {
    id: "r1", code: "ABCD2345", link: "/races/join/ABCD2345", host: ada, players: 3, minutes: 5, status,
    created_at: at(-60), started_at: at(-5), starts_at: at(0), ends_at: at(300), finished_at: null,
    racers: [
      { player: ada, place: null, progress: progress(3) },
      { player: bo, place: null, progress: progress(5) },
      { player: cy, place: null, progress: progress(0) },
    ],
    invited: [], game: "g1", next_race: null, bot: null, ...extra,
  };
}

test("a started race counts down to starts_at, then plays until ends_at", () => {
  const started = race("countdown");
  assert.equal(phase(started, T0 - 3500), "countdown");
  assert.deepEqual(clock(started, T0 - 3500), { phase: "countdown", seconds: 4, low: false });
  assert.equal(phase(started, T0), "playing");
  assert.deepEqual(clock(started, T0 + 1000), { phase: "playing", seconds: 299, low: false });
  assert.deepEqual(clock(started, T0 + 270_000), { phase: "playing", seconds: 30, low: true });
  assert.equal(phase(started, T0 + 300_000), "closing");
  assert.equal(clock(started, T0 + 301_000).seconds, 0);
});

test("waiting, finished and cancelled races are what the server says, whatever the clock", () => {
  for (const status of ["waiting", "finished", "cancelled"]) assert.equal(phase(race(status), T0 + 10), status);
  assert.deepEqual(minutesSeconds(299), [4, 59]);
  assert.deepEqual(minutesSeconds(0), [0, 0]);
});

test("a lane per racer in the race's order, yours marked; the others' are the opponents", () => {
  const all = lanes(race(), "b");
  assert.deepEqual(all.map((lane) => [lane.name, lane.you, lane.host, lane.placed]),
    [["Ada", false, true, 3], ["Bo", true, false, 5], ["Cy", false, false, 0]]);
  assert.deepEqual(opponents(race(), "b").map((lane) => lane.id), ["a", "c"]);
});

test("a progress message replaces one racer's counts; a board comes only where it is sent", () => {
  const before = race();
  const after = withProgress(before, { player: "c", progress: progress(7, { face_down: 2 }) });
  assert.equal(lanes(after, "a")[2].placed, 7);
  assert.equal(lanes(after, "a")[2].faceDown, 2);
  assert.equal(lanes(after, "a")[2].board, null);
  assert.equal(lanes(before, "a")[2].placed, 0, "the race it was given is left as it was");
  const grid = [{ row: 0, col: 0, height: 1, face_up: true, card: "7H" }];
  const watched = withProgress(after, { player: "c", progress: progress(8), board: grid });
  assert.deepEqual(lanes(watched, "a")[2].board, grid);
  assert.deepEqual(lanes(watched, "a")[2].board, lanes(withProgress(watched, { player: "c", progress: progress(9) }), "a")[2].board);
  assert.equal(withProgress(before, { player: "z", progress: progress(1) }), before);
});

test("your progress from your game, in the socket's words", () => {
  assert.deepEqual(progressOf({ moves_played: 12, stock: 27, face_down: 3, status: "playing", score: null }),
    { placed: 12, stock: 27, face_down: 3, status: "playing", score: null });
  assert.equal(progressOf({ moves_played: 30, stock: 9, face_down: 5, status: "unfinished" }).status, "out_of_time");
});

test("the ranking is the server's places; a racer without one comes last, in join order", () => {
  const finished = race("finished", {
    racers: [
      { player: ada, place: 3, progress: progress(30, { status: "lost" }) },
      { player: bo, place: null, progress: progress(5) },
      { player: cy, place: 1, progress: progress(31, { status: "won", score: 9 }) },
    ],
  });
  assert.deepEqual(ranking(finished, "a").map((lane) => lane.name), ["Cy", "Ada", "Bo"]);
  assert.deepEqual(laneWords(ranking(finished, "a")[0]), { key: "race.lane.won", params: { n: 9 } });
  assert.deepEqual(laneWords(ranking(finished, "a")[1]), { key: "race.lane.lost", params: { n: 30 } });
  assert.equal(yourGameOver(finished, "a"), true);
  assert.equal(yourGameOver(finished, "b"), false);
});

test("only the host starts a waiting race, and only with two racers or more", () => {
  assert.equal(canStart(race("waiting"), "a"), true);
  assert.equal(canStart(race("waiting"), "b"), false);
  assert.equal(canStart(race("waiting", { racers: [{ player: ada, progress: progress(0) }] }), "a"), false);
  assert.equal(canStart(race("countdown"), "a"), false);
});

test("a code from what was typed or pasted, and the link on this origin", () => {
  assert.equal(codeFrom(" abcd-2345 "), "ABCD2345");
  assert.equal(codeFrom("https://example.org/races/join/abcd2345"), "ABCD2345");
  assert.equal(codeFrom("https://example.org/#/races/join/ABCD2345?x=1"), "ABCD2345");
  assert.equal(joinLink("https://example.org", race()), "https://example.org/races/join/ABCD2345");
});

test("the bot's reference line: pending, a win's score, or a loss", () => {
  assert.equal(botLine(race()).key, "race.bot.pending");
  assert.deepEqual(botLine(race("finished", { bot: { status: "won", score: 11 } })), { key: "race.bot.won", params: { n: 11 } });
  assert.equal(botLine(race("finished", { bot: { status: "lost", score: null } })).key, "race.bot.lost");
});
