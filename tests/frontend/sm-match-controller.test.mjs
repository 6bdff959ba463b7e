// The match screen's controller against a stand-in api, socket and drawing: what may be chosen
// when, an action sent with its counts and its events caught up from the feed and shown in
// order before the server's match is drawn, the socket's events shown once each, a refusal
// that reads the match again, presence and the connection's state, the bot's hint, and an
// aborted or finished match. No DOM: the strings are the keys (no table is loaded).

import assert from "node:assert/strict";
import { test } from "node:test";

import { matchController } from "../../frontend/spitemalice/match-controller.js";

const MATCH = {
  id: "m1", mode: "bot", status: "playing", target: 50, you: 0, event: 9, deadline: null,
  seats: [{ seat: 0, player: { id: "p", name: "Ada" }, bot: null, score: 12 },
    { seat: 1, player: null, bot: "normal", score: 7 }],
  game: {
    number: 2, status: "playing", turn: 0, actions: 9, stock: 51,
    centre: [{ size: 2, top: "2S", next: "3" }, { size: 5, top: "KD", next: "6" }, { size: 0, top: null, next: "A" }],
    seats: [{ seat: 0, payoff: 19, payoff_top: "3D", hand: 5, sides: [["9S"], [], [], []] },
      { seat: 1, payoff: 20, payoff_top: "QH", hand: 4, sides: [[], ["4C", "8H"], [], []] }],
    hand: ["AC", "3S", "7H", "7H", "KD"],
    legal_actions: [["P", "C0"], ["S0", "C0"], ["AC", "C2"], ["3S", "C0"], ["3S", "S1"], ["KD", "S2"]],
    winner: null, points: null,
  },
};

const copy = (value) => structuredClone(value);
/** The match as the server has it after `changes` to the game. */
const later = (event, game = {}, rest = {}) => ({ ...copy(MATCH), event, ...rest, game: { ...copy(MATCH.game), ...game } });
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A controller on a stand-in api, socket and drawing, each recording what it was asked. */
function harness(match = MATCH, api = {}) {
  const calls = [];
  const asked = [];
  const ui = new Proxy({}, {
    get: (target, name) => {
      if (name === "placeOf") return () => null;
      return (...args) => { calls.push([name, ...args]); };
    },
  });
  let live = null;
  const follow = (id, options) => {
    live = { id, options, stopped: false, poked: 0, marks: [] };
    return { stop: () => { live.stopped = true; }, poke: () => { live.poked += 1; }, after: (n) => live.marks.push(n) };
  };
  const stand = {
    smAct: async (...args) => { asked.push(["act", ...args]); return later(12, { turn: 0, actions: 10 }); },
    smEvents: async (...args) => { asked.push(["events", ...args]); return { events: [], last: args[1] }; },
    smMatch: async (...args) => { asked.push(["match", ...args]); return later(12); },
    smHint: async (...args) => { asked.push(["hint", ...args]); return { action: ["3S", "S1"] }; },
    ...api,
  };
  const controller = matchController(copy(match), { api: stand, follow, wait: async () => {} });
  const named = (name) => calls.filter((call) => call[0] === name);
  return { controller, calls, asked, named, live: () => live, start: () => controller.start(ui) };
}

test("it draws the table once and follows the match from its last event", () => {
  const { controller, named, live, start } = harness();
  start();
  assert.equal(named("draw").length, 1);
  assert.equal(named("drawBanner").length, 1);
  assert.equal(live().id, "m1");
  assert.equal(live().options.after, 9);
  assert.equal(live().poked, 0); // your turn: nothing to wait for
  assert.equal(controller.interactive(), true);
  assert.deepEqual(controller.names(), ["sm.you", "sm.the_computer"]);
});

test("the bot's turn is asked for at once; a finished match is not followed", () => {
  const theirs = harness({ ...MATCH, game: { ...MATCH.game, turn: 1 } });
  theirs.start();
  assert.equal(theirs.live().poked, 1);
  assert.equal(theirs.controller.interactive(), false);
  assert.equal(theirs.live().options.pollEvery(), 2000); // often while the other seat plays

  const over = harness({ ...MATCH, status: "finished", winner: 0, reason: "points", game: { ...MATCH.game, status: "won", winner: 0 } });
  over.start();
  assert.equal(over.live(), null);
  assert.deepEqual(over.named("showResult").map((call) => call[1]), [2]);
  assert.equal(over.named("showMatchResult").length, 1);
});

test("a source is chosen and put back; only when it is your turn", () => {
  const { controller, start } = harness();
  start();
  assert.equal(controller.choose("3S"), true);
  assert.equal(controller.chosen, "3S");
  assert.equal(controller.chosenName(), "card.name"); // a hand card is named by its own code
  assert.equal(controller.choose("3S"), true);
  assert.equal(controller.chosen, null);
  controller.choose("P");
  assert.equal(controller.unchoose(), "P");
  assert.equal(controller.chosen, null);

  const theirs = harness({ ...MATCH, game: { ...MATCH.game, turn: 1 } });
  theirs.start();
  assert.equal(theirs.controller.choose("3S"), false);
  assert.equal(theirs.controller.pick("3S"), false);
  assert.equal(theirs.controller.chosen, null);
});

test("an action the server did not offer sends nothing", async () => {
  const { controller, asked, start } = harness();
  start();
  await controller.act("3S", "C2");
  assert.deepEqual(asked, []);
});

test("an action is sent with its counts, its events shown in order, then the server's match drawn", async () => {
  const events = [
    { number: 10, kind: "play", game: 2, seat: 0, card: "3S", from: "3S", to: "C0", as: "3" },
    { number: 11, kind: "discard", game: 2, seat: 0, card: "KD", from: "KD", to: "S2" },
    { number: 12, kind: "discard", game: 2, seat: 1, card: "4C", from: "S1", to: "S0" },
  ];
  const answer = later(12, { turn: 0, actions: 12, hand: ["AC", "7H", "7H", "9C", "2D"] });
  const { controller, asked, named, live, start } = harness(MATCH, {
    smAct: async (...args) => { asked.push(["act", ...args]); return answer; },
    smEvents: async (id, after) => { asked.push(["events", id, after]); return { events: events.filter((e) => e.number > after), last: 12 }; },
  });
  start();
  controller.choose("3S");
  const acting = controller.act("3S", "C0");
  assert.equal(controller.busy, true);
  assert.equal(controller.chosen, null);
  assert.equal(controller.interactive(), false);
  await acting;
  await flush();
  assert.deepEqual(asked[0], ["act", "m1", { action: ["3S", "C0"], game: 2, actions: 9 }]);
  assert.deepEqual(asked[1], ["events", "m1", 9]);
  assert.deepEqual(live().marks, [12]);
  // Each event said as it is shown, then the server's match: your turn again.
  const said = named("announce").map((call) => call[1]);
  assert.deepEqual(said, ["sm.say.you_played", "sm.say.you_discarded", "sm.say.they_discarded", "sm.say.your_turn"]);
  assert.deepEqual(named("acting").map((call) => call[1]), [true, false]);
  assert.equal(controller.busy, false);
  assert.equal(controller.animating, false);
  assert.deepEqual(controller.match, answer);
  assert.deepEqual(controller.view.hand, ["AC", "7H", "7H", "9C", "2D"]);
  assert.equal(controller.interactive(), true);
});

test("events from the socket and the feed are shown once each, and the match read again after them", async () => {
  const { controller, asked, named, live, start } = harness({ ...MATCH, game: { ...MATCH.game, turn: 1 } });
  start();
  const draw = { number: 10, kind: "draw", game: 2, seat: 1, count: 1, stock: 50 };
  const discard = { number: 11, kind: "discard", game: 2, seat: 1, card: "8H", from: "S1", to: "S3" };
  live().options.onEvents([draw, discard]);
  live().options.onEvents([discard]); // the same event again, from the feed
  assert.equal(controller.animating, true);
  assert.ok(named("drawStatus").length >= 1);
  assert.equal(live().options.pollEvery(), 10000); // seldom while events are shown
  await flush();
  await flush();
  assert.deepEqual(named("announce").map((call) => call[1]), ["sm.say.they_drew", "sm.say.they_discarded", "sm.say.your_turn"]);
  // The events went past the match it had: the server's state is read again.
  assert.deepEqual(asked.filter((call) => call[0] === "match"), [["match", "m1"]]);
  assert.equal(controller.match.event, 12);
});

test("a turn that begins with its table in the draw is played on without reading the match", async () => {
  const { controller, asked, named, live, start } = harness({ ...MATCH, mode: "friend", game: { ...MATCH.game, turn: 1 } });
  start();
  const table = {
    game: { ...copy(MATCH.game), turn: 0, actions: 11, hand: ["AC", "3S", "7H", "7H", "9D"], legal_actions: [["AC", "C2"], ["9D", "S0"]] },
    deadline: "2026-12-02T10:00:00Z", abortable: false,
  };
  const discard = { number: 10, kind: "discard", game: 2, seat: 1, card: "8H", from: "8H", to: "S3", action: 10 };
  const draw = { number: 11, kind: "draw", game: 2, seat: 0, count: 1, stock: 50, cards: ["9D"], table };
  live().options.onEvents([discard, draw]);
  await flush();
  await flush();
  assert.deepEqual(asked.filter((call) => call[0] === "match"), []); // no read
  assert.equal(controller.match.event, 11);
  assert.equal(controller.match.deadline, "2026-12-02T10:00:00Z");
  assert.deepEqual(controller.match.game.legal_actions, [["AC", "C2"], ["9D", "S0"]]);
  assert.equal(controller.interactive(), true);
  assert.equal(named("announce").at(-1)[1], "sm.say.your_turn");
});

test("a table older than the latest event shown is not played on: the match is read", async () => {
  const { asked, live, start } = harness({ ...MATCH, mode: "friend", game: { ...MATCH.game, turn: 1 } });
  start();
  const draw = { number: 10, kind: "draw", game: 2, seat: 0, count: 1, stock: 50, cards: ["9D"], table: { game: copy(MATCH.game), deadline: null, abortable: false } };
  const resigned = { number: 11, kind: "resigned", game: 2, seat: 1 };
  live().options.onEvents([draw, resigned]);
  await flush();
  await flush();
  assert.deepEqual(asked.filter((call) => call[0] === "match"), [["match", "m1"]]);
});

test("a refusal says the server's problem, and a stale one reads the match again", async () => {
  const stale = Object.assign(new Error("stale"), { code: "stale_action", status: 409 });
  const { controller, asked, named, start } = harness(MATCH, {
    smAct: async () => { throw stale; },
  });
  start();
  await controller.act("P", "C0");
  assert.deepEqual(named("showProblem").map((call) => call[1]), [stale]);
  assert.deepEqual(asked.map((call) => call[0]), ["match"]);
  assert.equal(controller.match.event, 12);
  assert.equal(controller.busy, false);

  const other = harness(MATCH, { smAct: async () => { throw Object.assign(new Error("x"), { code: "network" }); } });
  other.start();
  await other.controller.act("P", "C0");
  assert.deepEqual(other.asked, []);
  assert.equal(other.named("showProblem").length, 1);
});

test("defence in depth: a stale refusal, or a hand of more than 5 cards, is logged and the match read again", async (t) => {
  const warn = t.mock.method(console, "warn", () => {});
  const stale = Object.assign(new Error("stale"), { code: "stale_action", status: 409 });
  const refused = harness(MATCH, { smAct: async () => { throw stale; } });
  refused.start();
  await refused.controller.act("P", "C0");
  assert.match(warn.mock.calls.at(-1).arguments[0], /stale_action/);
  assert.deepEqual(refused.asked.map((call) => call[0]), ["match"]);

  // A table that somehow shows six cards in hand (the server's own match said so): read again.
  const crowded = { ...MATCH, game: { ...MATCH.game, hand: [...MATCH.game.hand, "QS"] } };
  const { controller, asked, live, start } = harness(crowded);
  start();
  live().options.onEvents([{ number: 10, kind: "joined", seat: 1, player: { id: "x", name: "Bo" } }]);
  await flush();
  await flush();
  assert.ok(warn.mock.calls.some((call) => /6 cards in hand/.test(call.arguments[0])));
  assert.ok(asked.some((call) => call[0] === "match"));
  assert.equal(controller.view.hand.length, 5); // the server's match, read again
  controller.stop();
});

test("a screen left while an action is on its way shows nothing more", async () => {
  let fail;
  const { controller, named, live, start } = harness(MATCH, {
    smAct: () => new Promise((resolve, reject) => { fail = reject; }),
  });
  start();
  const acting = controller.act("P", "C0");
  controller.stop();
  fail(Object.assign(new Error("x"), { code: "stale_action" }));
  await acting;
  assert.equal(named("showProblem").length, 0);
  assert.equal(live().stopped, true);
});

test("presence and the connection's state are drawn as they change", () => {
  const { controller, named, live, start } = harness();
  start();
  live().options.onPresence([true, false]);
  assert.equal(controller.view.seats[1].connected, false);
  assert.equal(controller.match.seats[1].connected, false);
  assert.equal(named("draw").length, 2);
  live().options.onState("reconnecting");
  assert.equal(controller.liveState, "reconnecting");
  assert.equal(named("drawBanner").length, 2);
});

test("the bot's hint chooses its source and marks its target until the next action", async () => {
  const { controller, start } = harness();
  start();
  assert.deepEqual(await controller.hint(), ["3S", "S1"]);
  assert.equal(controller.chosen, "3S");
  assert.deepEqual(controller.hinted, ["3S", "S1"]);
  await controller.act("3S", "S1");
  assert.equal(controller.hinted, null);
});

test("an aborted match says so and whose doing it was; nothing follows it", async () => {
  const aborted = later(10, { status: "aborted" }, { mode: "friend", status: "aborted", reason: "timeout" });
  const { controller, named, live, start } = harness({ ...MATCH, mode: "friend", game: { ...MATCH.game, turn: 1 } }, {
    smMatch: async () => aborted,
  });
  start();
  live().options.onEvents([{ number: 10, kind: "aborted", game: 2, seat: 1, reason: "timeout" }]);
  // Shown at once, whose doing it was from the event (the match read later only has the reason).
  assert.equal(controller.match.status, "aborted");
  assert.equal(controller.match.winner, null);
  // As it happens: brought into view (a match read later is not).
  assert.deepEqual(named("showAborted")[0], ["showAborted", 1, { live: true }]);
  assert.equal(named("announce")[0][1], "sm.say.aborted");
  await flush();
  await flush();
  assert.deepEqual(controller.match, aborted);
  assert.equal(live().stopped, true);
  assert.equal(named("showResult").length, 0); // no result for the game it cut off
});

test("a game's end and the match's are shown as they come, with the scores they carry", async () => {
  const finished = later(11, { status: "won", winner: 1, turn: null }, { status: "finished", winner: 1, reason: "points" });
  const { controller, named, live, start } = harness({ ...MATCH, game: { ...MATCH.game, turn: 1 } }, {
    smMatch: async () => finished,
  });
  start();
  const gameOver = { number: 10, kind: "game_over", game: 2, status: "won", winner: 1, points: 44, scores: [12, 51] };
  const matchOver = { number: 11, kind: "match_over", winner: 1, reason: "points", scores: [12, 51] };
  live().options.onEvents([gameOver]);
  assert.deepEqual(named("showResult")[0], ["showResult", 2, gameOver, { live: true }]);
  assert.deepEqual(controller.match.seats.map((seat) => seat.score), [12, 51]);
  live().options.onEvents([matchOver]);
  await flush();
  assert.deepEqual(named("showMatchResult")[0], ["showMatchResult", [12, 51], { live: true }]);
  await flush();
  assert.deepEqual(controller.match, finished);
  assert.equal(live().stopped, true);
});

test("the opponent's turn is logged and its cards marked until you act", async () => {
  const events = [
    { number: 10, kind: "discard", game: 2, seat: 0, card: "KD", from: "KD", to: "S2" },
    { number: 11, kind: "draw", game: 2, seat: 1, count: 1, stock: 50 },
    { number: 12, kind: "play", game: 2, seat: 1, card: "3H", from: "3H", to: "C0", as: "3" },
    { number: 13, kind: "discard", game: 2, seat: 1, card: "5C", from: "5C", to: "S1" },
  ];
  const { controller, live, start } = harness({ ...MATCH, game: { ...MATCH.game, turn: 1 } }, {
    smMatch: async () => later(13, { turn: 0, actions: 12 }),
  });
  start();
  live().options.onEvents(events);
  await flush();
  await flush();
  const turn = controller.lastTurn();
  assert.equal(turn.seat, 1);
  assert.deepEqual(turn.moves.map((move) => [move.card, move.to]), [["3H", "C0"], ["5C", "S1"]]);
  // The server's table after the turn (MATCH's) holds neither card on top: nothing to mark.
  assert.deepEqual([...controller.moved()], []);
  controller.view.centre[0].top = "3H";
  assert.deepEqual([...controller.moved()], ["C0"]);
  controller.choose("3S");
  await controller.act("3S", "C0");
  assert.deepEqual([...controller.moved()], []); // acting clears the marks, not the log
  assert.equal(controller.lastTurn().seat, 1);
});

test("the history read when the screen opens fills the log with the turns before it", async () => {
  const older = [
    { number: 7, kind: "draw", game: 2, seat: 1, count: 5, stock: 52 },
    { number: 8, kind: "play", game: 2, seat: 1, card: "2S", from: "P", to: "C0", as: "2" },
    { number: 9, kind: "discard", game: 2, seat: 1, card: "8H", from: "8H", to: "S1" },
  ];
  const { controller, asked, start } = harness(MATCH, {
    smEvents: async (id, after) => { asked.push(["events", id, after]); return { events: older, last: 9 }; },
  });
  start();
  await controller.loadHistory();
  assert.deepEqual(asked, [["events", "m1", 0]]);
  assert.deepEqual(controller.lastTurn().moves.map((move) => move.card), ["2S", "8H"]);
  // Your turn now: the opponent's cards still on top are marked (2S on centre stack 1, 8H on
  // their side stack 2).
  assert.deepEqual([...controller.moved()], ["C0", "1:S1"]);
});

test("resigning sends it and shows what follows; playing again asks for the same bot and length", async () => {
  const resigned = later(10, { status: "resigned", winner: 1, turn: null }, { status: "finished", winner: 1, reason: "resigned" });
  const { controller, asked, named, start } = harness(MATCH, {
    smResign: async (id) => { asked.push(["resign", id]); return resigned; },
    smPlayBot: async (body) => { asked.push(["bot", body]); return { id: "m2" }; },
  });
  start();
  await controller.resign();
  assert.deepEqual(asked[0], ["resign", "m1"]);
  assert.deepEqual(controller.match, resigned);
  assert.deepEqual(named("showMatchResult").at(-1).slice(2), [{ live: true }]);
  assert.deepEqual(await controller.playAgain(), { id: "m2" });
  assert.deepEqual(asked.at(-1), ["bot", { level: "normal", target: 50 }]);
});
