// live.js against a stand-in WebSocket and fetch: the token in the first message (never the
// URL), ?after=N, events handed on once each, "reconnecting" and backoff when a live socket
// drops, and the feed polled alone where no socket opens.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { FakeSocket, sockets, standInStorage } from "./stand-ins.mjs";

globalThis.localStorage = standInStorage([["fsd.token", JSON.stringify("tok")]]);
globalThis.location = { protocol: "https:", host: "cards.test" };

let feed = [];
const asked = [];
globalThis.fetch = async (url) => {
  asked.push(url);
  const after = Number(new URL(url, "https://cards.test").searchParams.get("after"));
  const events = feed.filter((event) => event.number > after);
  return new Response(JSON.stringify({ events, last: Math.max(after, ...events.map((e) => e.number)) }),
    { status: 200, headers: { "Content-Type": "application/json" } });
};

globalThis.WebSocket = FakeSocket;

const { follow } = await import("../../frontend/spitemalice/live.js");
const flush = () => new Promise((resolve) => setImmediate(resolve));

test("a live socket: auth first, catch-up from N, events once each, presence, reconnecting", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    sockets.length = 0;
    const got = [];
    const states = [];
    const seats = [];
    const live = follow("m-1", {
      after: 4,
      onEvents: (events) => got.push(...events.map((event) => event.number)),
      onPresence: (value) => seats.push(value),
      onState: (state) => states.push(state),
    });
    const socket = sockets[0];
    assert.equal(socket.url, "wss://cards.test/ws/spite-malice/matches/m-1?after=4");
    assert.doesNotMatch(socket.url, /tok/);
    socket.emit("open", {});
    assert.deepEqual(socket.sent, [{ type: "auth", token: "tok" }]);
    socket.receive({ type: "ready", seat: 0, last: 4 });
    socket.receive({ type: "presence", seats: [true, true] });
    socket.receive({ type: "events", events: [{ number: 5 }, { number: 6 }], last: 6 });
    socket.receive({ type: "events", events: [{ number: 6 }], last: 6 }); // seen already
    assert.deepEqual(got, [5, 6]);
    assert.deepEqual(seats, [[true, true]]);
    assert.deepEqual(states, ["live"]);

    // Dropped: it says so, reads the feed meanwhile, and opens a socket from the last event.
    feed = [{ number: 7 }];
    socket.emit("close", {});
    assert.equal(states.at(-1), "reconnecting");
    await flush();
    assert.deepEqual(got, [5, 6, 7]);
    mock.timers.tick(1000);
    assert.equal(sockets.length, 2);
    assert.equal(sockets[1].url, "wss://cards.test/ws/spite-malice/matches/m-1?after=7");
    sockets[1].emit("open", {});
    sockets[1].receive({ type: "ready", seat: 0, last: 7 });
    assert.equal(states.at(-1), "live");
    live.stop();
  } finally {
    mock.timers.reset();
  }
});

test("where no socket opens, the feed alone keeps the table current", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    sockets.length = 0;
    asked.length = 0;
    feed = [{ number: 1 }, { number: 2 }];
    const got = [];
    const states = [];
    const live = follow("m-2", { after: 0, onEvents: (events) => got.push(...events.map((e) => e.number)),
      onState: (state) => states.push(state), pollEvery: () => 2000 });
    sockets[0].emit("close", {}); // the server has no socket here
    assert.deepEqual(states, ["polling"]);
    await flush();
    assert.deepEqual(got, [1, 2]);
    assert.match(asked[0], /\/api\/v1\/spite-malice\/matches\/m-2\/events\?after=0$/);
    feed.push({ number: 3 });
    mock.timers.tick(2000);
    await flush();
    assert.deepEqual(got, [1, 2, 3]);
    assert.match(asked.at(-1), /after=2$/);
    live.stop();
  } finally {
    mock.timers.reset();
  }
});

test("when the turn passes the next poll is timed at the new pace, not the old one", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    sockets.length = 0;
    asked.length = 0;
    feed = [{ number: 1 }];
    let every = 10000; // your turn: the feed is asked rarely
    const got = [];
    const live = follow("m-3", { after: 0, onEvents: (events) => got.push(...events.map((e) => e.number)),
      pollEvery: () => every });
    sockets[0].emit("close", {});
    await flush();
    assert.deepEqual(got, [1]);
    every = 2000; // you ended your turn: the opponent's plays are asked for often
    live.repace();
    feed.push({ number: 2 });
    mock.timers.tick(2000);
    await flush();
    assert.deepEqual(got, [1, 2]);
    live.stop();
  } finally {
    mock.timers.reset();
  }
});
