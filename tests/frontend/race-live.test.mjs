// The race's socket (frontend/foursquare/races/live.js) against a stand-in WebSocket and fetch:
// the token in the first message (never the URL), the race and each progress handed on,
// "reconnecting" when a live socket drops and the race read meanwhile, and the race read alone
// where no socket opens.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { FakeSocket, sockets, standInStorage } from "./stand-ins.mjs";

globalThis.localStorage = standInStorage([["fsd.token", JSON.stringify("tok")]]);
globalThis.location = { protocol: "https:", host: "cards.test" };

const asked = [];
globalThis.fetch = async (url) => {
  asked.push(String(url));
  return new Response(JSON.stringify({ id: "r-1", status: "playing", racers: [] }),
    { status: 200, headers: { "Content-Type": "application/json" } });
};

const { followRace } = await import("../../frontend/foursquare/races/live.js");
const flush = () => new Promise((resolve) => setImmediate(resolve));

test("a live socket: auth first, the race and each racer's progress handed on, then reconnecting", async () => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  try {
    sockets.length = 0;
    asked.length = 0;
    const races = [];
    const progress = [];
    const states = [];
    const live = followRace("r-1", {
      onRace: (race) => races.push(race.id),
      onProgress: (message) => progress.push(message),
      onState: (state) => states.push(state),
      WebSocketClass: FakeSocket,
    });
    const socket = sockets[0];
    assert.equal(socket.url, "wss://cards.test/ws/races/r-1");
    socket.emit("open", {});
    assert.deepEqual(socket.sent, [{ type: "auth", token: "tok" }]);
    socket.receive({ type: "ready", race: { id: "r-1" } });
    socket.receive({ type: "progress", player: "p-2", progress: { placed: 3 } });
    socket.receive({ type: "race", race: { id: "r-1", status: "finished" } });
    socket.receive({ type: "pong" });
    assert.deepEqual(races, ["r-1", "r-1"]);
    assert.deepEqual(progress, [{ type: "progress", player: "p-2", progress: { placed: 3 } }]);
    assert.deepEqual(states, ["live"]);
    assert.deepEqual(asked, [], "nothing is read while the socket is live");

    // Dropped: reconnecting, the race read meanwhile, a new socket after a second.
    socket.close();
    assert.deepEqual(states, ["live", "reconnecting"]);
    await flush();
    assert.deepEqual(asked, ["/api/v1/races/r-1"]);
    assert.equal(races.length, 3);
    mock.timers.tick(1000);
    assert.equal(sockets.length, 2);
    sockets[1].emit("open", {});
    sockets[1].receive({ type: "ready", race: { id: "r-1" } });
    assert.equal(states.at(-1), "live");
    mock.timers.tick(10000);
    await flush();
    assert.equal(asked.length, 1, "reading stops once live again");
    live.stop();
  } finally {
    mock.timers.reset();
  }
});

test("no socket at all: the race is read every two seconds", async () => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  try {
    asked.length = 0;
    const states = [];
    const live = followRace("r-1", { onRace: () => {}, onState: (state) => states.push(state), WebSocketClass: null });
    assert.deepEqual(states, ["polling"]);
    await flush();
    mock.timers.tick(2000);
    await flush();
    mock.timers.tick(2000);
    await flush();
    assert.equal(asked.length, 3);
    live.stop();
    mock.timers.tick(4000);
    await flush();
    assert.equal(asked.length, 3);
  } finally {
    mock.timers.reset();
  }
});
