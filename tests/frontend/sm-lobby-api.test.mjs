// spitemalice/api.js's calls for the lobby (and api.js's league board), against a stand-in fetch: the paths, the bodies
// the API takes (an invitation without an invitee leaves the field out), the idempotency keys.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const store = new Map([["fsd.token", JSON.stringify("tok")]]);
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};

let calls = [];
globalThis.fetch = async (url, init) => {
  calls.push({ url, method: init.method, headers: init.headers, body: init.body === undefined ? undefined : JSON.parse(init.body) });
  return new Response(JSON.stringify({ id: "m1" }), { status: 200, headers: { "Content-Type": "application/json" } });
};

const api = { ...(await import("../../frontend/api.js")), ...(await import("../../frontend/spitemalice/api.js")) };

beforeEach(() => { calls = []; });

const sent = () => calls.map(({ method, url, body }) => [method, url, body]);

test("a match against the computer and an invitation are POST /spite-malice/matches, once each", async () => {
  await api.smPlayBot({ level: "hard", target: 1 });
  await api.smInvite({ turnSeconds: 3600, target: 25 });
  await api.smInvite({ turnSeconds: 86400, target: 1, invitee: "p2" });
  await api.smInvite({ turnSeconds: 60, target: 50, rated: false });
  await api.smInvite({ turnSeconds: 60, target: 50, rated: true });
  // Each with a client seed the browser draws; against the bot, after the server committed to
  // its seed (the stand-in's answer has no commitment: the body leaves it out).
  const seeds = calls.filter(({ body }) => body?.client_seed).map(({ body }) => body.client_seed);
  assert.equal(seeds.length, 5);
  for (const seed of seeds) assert.match(seed, /^[0-9a-f]{32}$/);
  assert.equal(new Set(seeds).size, 5);
  const withSeed = (body, index) => ({ ...body, client_seed: seeds[index] });
  assert.deepEqual(sent(), [
    ["POST", "/api/v1/spite-malice/bot-commitment", undefined],
    ["POST", "/api/v1/spite-malice/matches", withSeed({ opponent: "bot", level: "hard", target: 1 }, 0)],
    ["POST", "/api/v1/spite-malice/matches", withSeed({ opponent: "friend", turn_seconds: 3600, target: 25 }, 1)],
    ["POST", "/api/v1/spite-malice/matches", withSeed({ opponent: "friend", turn_seconds: 86400, target: 1, invitee: "p2" }, 2)],
    ["POST", "/api/v1/spite-malice/matches", withSeed({ opponent: "friend", turn_seconds: 60, target: 50, rated: false }, 3)],
    ["POST", "/api/v1/spite-malice/matches", withSeed({ opponent: "friend", turn_seconds: 60, target: 50, rated: true }, 4)],
  ]);
  assert.deepEqual(JSON.parse(store.get("fsd.fairSeeds"))["match/m1"], { seed: seeds[4] });
  calls.shift();
  for (const call of calls) {
    assert.equal(call.headers.Authorization, "Bearer tok");
    assert.match(call.headers["Idempotency-Key"], /^[0-9a-f]{32}$/);
  }
  assert.notEqual(calls[0].headers["Idempotency-Key"], calls[1].headers["Idempotency-Key"]);
});

test("joining, cancelling and a rematch; cancel and rematch send no body", async () => {
  await api.smJoin("7K3M9QXA");
  await api.smCancel("m 1");
  await api.smRematch("m1");
  assert.deepEqual(sent(), [
    ["POST", "/api/v1/spite-malice/matches/join", { code: "7K3M9QXA", client_seed: calls[0].body.client_seed }],
    ["POST", "/api/v1/spite-malice/matches/m%201/cancel", undefined],
    ["POST", "/api/v1/spite-malice/matches/m1/rematch", undefined],
  ]);
});

test("an invitation's preview is GET /invitations/{code}, with the token if there is one, none made", async () => {
  await api.smInvitation("7K3M 9QXA");
  assert.deepEqual(sent(), [["GET", "/api/v1/spite-malice/invitations/7K3M%209QXA", undefined]]);
  assert.equal(calls[0].headers.Authorization, "Bearer tok");
  store.delete("fsd.token");
  try {
    calls = [];
    await api.smInvitation("7K3M9QXA");
    // Without a token it previews as a new guest would join, and makes no guest for it.
    assert.deepEqual(sent(), [["GET", "/api/v1/spite-malice/invitations/7K3M9QXA", undefined]]);
    assert.equal(calls[0].headers.Authorization, undefined);
  } finally {
    store.set("fsd.token", JSON.stringify("tok"));
  }
});

test("the lists and boards the lobby reads", async () => {
  await api.smMatches({ limit: 5 });
  await api.smDaily("2026-12-01");
  await api.smDailyBoard("2026-12-01", { limit: 5, around: true });
  await api.smRatings(50);
  await api.leagueBoard("L1", { period: "week", date: "2026-12-01", game: "spite-malice" });
  await api.leagueBoard("L1", { date: "2026-12-01" });
  assert.deepEqual(calls.map(({ method, url }) => `${method} ${url}`), [
    "GET /api/v1/spite-malice/matches?limit=5",
    "GET /api/v1/spite-malice/daily?date=2026-12-01",
    "GET /api/v1/spite-malice/daily/2026-12-01/leaderboard?limit=5&around=me",
    "GET /api/v1/spite-malice/ratings?limit=50",
    "GET /api/v1/leagues/L1/leaderboard?period=week&date=2026-12-01&limit=50&game=spite-malice",
    "GET /api/v1/leagues/L1/leaderboard?period=day&date=2026-12-01&limit=50",
  ]);
});
