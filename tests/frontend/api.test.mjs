// api.js against a stand-in fetch: guests, Bearer tokens, problem+json, retries.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};

let calls = [];
let answers = [];
globalThis.fetch = async (url, init) => {
  calls.push({ url, method: init.method, headers: init.headers, body: init.body && JSON.parse(init.body) });
  const answer = answers.shift();
  if (answer instanceof Error) throw answer;
  const [status, body, type = "application/json"] = answer;
  return new Response(body === null ? null : JSON.stringify(body), { status, headers: { "Content-Type": type } });
};

const api = await import("../../frontend/api.js");

beforeEach(() => {
  store.clear();
  calls = [];
  answers = [];
});

test("the first call that needs a player makes a guest and keeps its token", async () => {
  answers = [[201, { id: "p1", name: "Player X", token: "tok" }], [201, { id: "g1" }]];
  await api.startGame({ mode: "daily", date: "2026-11-29" });
  assert.deepEqual(calls.map((call) => `${call.method} ${call.url}`), ["POST /api/v1/players", "POST /api/v1/games"]);
  assert.equal(calls[1].headers.Authorization, "Bearer tok");
  assert.deepEqual(calls[1].body, { mode: "daily", date: "2026-11-29" });
  assert.equal(api.token(), "tok");
});

test("a problem+json answer becomes an ApiError with the server's code and detail", async () => {
  store.set("fsd.token", JSON.stringify("tok"));
  answers = [[409, { type: "/api/problems/stale_move", title: "The game has moved on", status: 409,
    detail: "You sent move 1, but 2 moves have been played.", code: "stale_move" }, "application/problem+json"]];
  await assert.rejects(api.play("g1", { row: 0, col: 0, move: 1 }), (error) => {
    assert.ok(error instanceof api.ApiError);
    assert.equal(error.status, 409);
    assert.equal(error.code, "stale_move");
    assert.equal(error.detail, "You sent move 1, but 2 moves have been played.");
    return true;
  });
});

test("a move lost on the network is sent again with the same Idempotency-Key", async () => {
  store.set("fsd.token", JSON.stringify("tok"));
  answers = [new TypeError("Failed to fetch"), [200, { id: "g1", moves_played: 1 }]];
  const game = await api.play("g1", { row: 0, col: 0, move: 0 });
  assert.equal(game.moves_played, 1);
  assert.equal(calls.length, 2);
  assert.ok(calls[0].headers["Idempotency-Key"]);
  assert.equal(calls[1].headers["Idempotency-Key"], calls[0].headers["Idempotency-Key"]);
});

test("a network failure that lasts is reported as such", async () => {
  store.set("fsd.token", JSON.stringify("tok"));
  answers = [new TypeError("offline"), new TypeError("offline"), new TypeError("offline")];
  await assert.rejects(api.play("g1", { row: 0, col: 0, move: 0 }), { code: "network", status: 0 });
});

test("a token revoked elsewhere is replaced by a fresh guest once", async () => {
  store.set("fsd.token", JSON.stringify("old"));
  answers = [
    [401, { code: "not_authenticated", status: 401, title: "Authentication is required", detail: "Invalid or revoked token." }, "application/problem+json"],
    [201, { id: "p2", name: "Player Y", token: "new" }],
    [200, { id: "p2", name: "Player Y", guest: true }],
  ];
  const me = await api.me();
  assert.equal(me.id, "p2");
  assert.equal(calls[2].headers.Authorization, "Bearer new");
});

test("public boards send a token only if there is one", async () => {
  answers = [[200, { entries: [] }]];
  await api.leaderboard({ period: "week", date: "2026-11-29", limit: 20 });
  assert.equal(calls[0].url, "/api/v1/leaderboard?period=week&date=2026-11-29&limit=20");
  assert.equal(calls[0].headers.Authorization, undefined);
  store.set("fsd.token", JSON.stringify("tok"));
  answers = [[200, { entries: [] }]];
  await api.leaderboard({ period: "day", date: "2026-11-29", limit: 10, around: true });
  assert.equal(calls[1].url, "/api/v1/daily/2026-11-29/leaderboard?limit=10&around=me");
  assert.equal(calls[1].headers.Authorization, "Bearer tok");
});

test("signing in keeps the new token; signing out forgets it and tells the server", async () => {
  answers = [[201, { id: "p1", name: "Ada", token: "t2" }], [204, null]];
  await api.signIn("ada", "secret words");
  assert.equal(api.token(), "t2");
  await api.signOut();
  assert.equal(api.token(), null);
  assert.equal(calls[1].method, "DELETE");
  assert.equal(calls[1].headers.Authorization, "Bearer t2");
});
