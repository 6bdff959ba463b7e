// The property that the table shown is the server's: two match screens (match-controller.js,
// one per seat) follow whole matches the server's own code recorded (sm_table_fixtures.py:
// games of the shared vectors and fresh engine-made matches), each seat acting through the
// stand-in API when its turn comes, while every event reaches them as a seeded generator
// decides: pushed `events` messages split into batches, duplicated, overlapping, held back
// until after a later push or after the feed read that covered them, lost and read again
// after the gap, a socket reconnecting with `after=`, answers of reads and actions late. At
// every event a screen shows at a step's end, its table equals the seat's `player_view` as
// the server computes it; whenever nothing is left in flight, exactly (the legal actions
// too), and the seat to act can play the recorded action at once.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { matchController } from "../../frontend/spitemalice/match-controller.js";
import { viewOf } from "../../frontend/spitemalice/model/table.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const FIXTURES = join(HERE, ".generated", "sm-matches.json");
const RUNS = Number(process.env.SM_SYNC_RUNS ?? 2); // deliveries tried per recorded match
const SEED = Number(process.env.SM_SYNC_SEED ?? 35);

/** The recorded matches: made by the server's code (`make test-js` writes them first). */
function recorded() {
  if (!existsSync(FIXTURES)) {
    const python = existsSync(join(ROOT, ".venv", "bin", "python")) ? join(ROOT, ".venv", "bin", "python") : "python3";
    const made = spawnSync(python, [join(HERE, "sm_table_fixtures.py"), FIXTURES], { cwd: ROOT, encoding: "utf8" });
    assert.equal(made.status, 0, `sm_table_fixtures.py failed:\n${made.stderr}`);
  }
  return JSON.parse(readFileSync(FIXTURES, "utf8")).matches;
}

/** A seeded generator (mulberry32): the same seed, the same deliveries. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
  };
}

/** Time in ticks: what is due runs in order, and promises settle between ticks. */
class Clock {
  constructor() { this.now = 0; this.tasks = []; }
  at(delay, run) { this.tasks.push({ at: this.now + delay, run, order: this.tasks.length + this.now * 1e6 }); }
  get pending() { return this.tasks.length; }
  async tick() {
    this.now += 1;
    const due = this.tasks.filter((task) => task.at <= this.now).sort((a, b) => a.at - b.at || a.order - b.order);
    this.tasks = this.tasks.filter((task) => task.at > this.now);
    for (const task of due) task.run();
    await settleMicrotasks();
  }
}

const settleMicrotasks = async () => { for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve)); };

/** The match object the server answers with, from a recorded seat's view. */
const asMatch = (view) => ({
  ...structuredClone(view), id: "m", mode: "friend", turn_seconds: null, deadline: null, abortable: false,
  seats: view.seats.map((seat) => ({ ...seat, player: null, bot: null, connected: true })),
});

/** The recorded match, played on as the seats act: its events and each seat's view. */
class Server {
  constructor(match) { this.match = match; this.step = 0; }
  get steps() { return this.match.steps; }
  view(seat) { return this.steps[this.step].views[seat]; }
  events(seat, after = 0, upTo = this.step) {
    const events = [];
    for (let index = 0; index <= upTo; index += 1) events.push(...this.steps[index].events[seat]);
    return events.filter((event) => event.number > after);
  }
  get over() { return this.step === this.steps.length - 1; }
  get next() { return this.steps[this.step + 1]; }
  /** Whose turn it is now (null when the recorded match is over). */
  get turn() { return this.over ? null : this.view(0).game.turn; }
}

/** One seat's screen, with its stand-in API and socket driven by `rng` on `clock`. */
function seatScreen(server, seat, { rng, clock, checked }) {
  let follower = null;
  let mark = 0; // what the socket would reconnect after: the last number it handed on
  const late = (value) => new Promise((resolve, reject) => {
    clock.at(rng.int(4), () => (value instanceof Error ? reject(value) : resolve(value)));
  });
  const api = {
    smEvents: (id, after) => {
      const events = server.events(seat, after);
      return late({ events, last: events.at(-1)?.number ?? after, more: false });
    },
    smMatch: () => late(asMatch(server.view(seat))),
    smAct: (id, { action, game, actions }) => {
      const now = server.view(seat).game;
      if (game !== now.number || actions !== now.actions) {
        return late(Object.assign(new Error("stale"), { code: "stale_action" }));
      }
      assert.deepEqual(action, server.next.action, `seat ${seat} played what the record did not`);
      server.step += 1;
      for (const screen of server.screens) screen.pushed(server.step);
      return late(asMatch(server.view(seat)));
    },
    smHint: async () => ({ action: null }),
  };
  const follow = (id, options) => {
    follower = options;
    mark = options.after;
    return { stop() {}, poke() { feedRead(); }, repace() {}, after(n) { mark = Math.max(mark, n); } };
  };
  const hand = (events) => {
    if (!events.length) return;
    mark = Math.max(mark, ...events.map((event) => event.number));
    follower?.onEvents(structuredClone(events), events.at(-1).number);
  };
  /** A read of the feed after an older mark than needed, so it overlaps what was shown. */
  function feedRead() {
    const after = Math.max(0, mark - rng.int(6));
    const events = server.events(seat, after);
    clock.at(rng.int(4), () => hand(events));
  }
  /** A reconnect: the socket sends everything after the last number it handed on. */
  function reconnect() {
    clock.at(1 + rng.int(3), () => hand(server.events(seat, mark)));
  }
  // Each step's last event, by number: a table drawn at one must be the server's then.
  const ends = new Map(server.steps.map((step, index) => [step.views[seat].event, index]));
  const warnings = [];
  const ui = new Proxy({}, {
    get: (target, name) => {
      if (name === "placeOf") return () => null;
      if (name === "draw") {
        return () => {
          const index = ends.get(controller.shown);
          if (index === undefined || index > server.step) return;
          const strip = (view) => ({ ...view, legal: null });
          assert.deepEqual(strip(controller.view), strip(viewOf(asMatch(server.steps[index].views[seat]))),
            `${server.match.name}: seat ${seat}'s table at event ${controller.shown} (step ${index}) differs from the server's`);
          checked.count += 1;
        };
      }
      return () => {};
    },
  });
  const log = { warn: (text) => warnings.push(text) };
  // The pause after each event shown takes a tick or two: reads and pushes land mid-animation.
  const wait = () => new Promise((resolve) => clock.at(1 + rng.int(2), resolve));
  const controller = matchController(asMatch(server.view(seat)), { api, follow, wait, log });
  controller.start(ui);
  return {
    controller,
    seat,
    /** The server stored step `index`: its notice reaches this seat some way or other. */
    pushed(index) {
      const events = server.steps[index].events[seat];
      const plan = rng.int(6);
      if (plan === 0) {
        // Lost: found again by a feed read after the gap, or by a reconnect.
        if (rng.chance(0.5)) clock.at(2 + rng.int(6), feedRead); else reconnect();
        return;
      }
      const batches = [];
      let rest = [...events];
      while (rest.length) {
        const size = 1 + rng.int(rest.length);
        batches.push(rest.slice(0, size));
        rest = rest.slice(size);
      }
      for (const batch of batches) {
        // Some overlap with what came before; some come twice; some late.
        const overlap = rng.chance(0.3) ? server.events(seat, Math.max(0, batch[0].number - 1 - rng.int(4)), index).filter((e) => e.number < batch[0].number) : [];
        const message = [...overlap, ...batch];
        const delay = plan === 1 ? 0 : rng.int(plan === 5 ? 12 : 4);
        clock.at(delay, () => hand(message));
        if (rng.chance(0.15)) clock.at(delay + 1 + rng.int(8), () => hand(message));
      }
      if (plan === 4) clock.at(rng.int(3), feedRead);
    },
    warnings,
  };
}

/** The table as the server has it for `seat`, as the screen lays it out. */
const expected = (server, seat) => viewOf(asMatch(server.view(seat)));

async function play(match, seed) {
  const rng = generator(seed);
  const clock = new Clock();
  const server = new Server(match);
  const checked = { count: 0 };
  server.screens = [];
  server.screens.push(...[0, 1].map((seat) => seatScreen(server, seat, { rng, clock, checked })));
  const quiet = async () => {
    for (let i = 0; i < 400 && (clock.pending || server.screens.some((s) => s.controller.animating || s.controller.busy)); i += 1) await clock.tick();
    await clock.tick();
  };
  let steps = 0;
  while (!server.over) {
    steps += 1;
    // The seat to act does so as soon as its table lets it, whatever the other screen is
    // still showing or reading: a fast opponent does not wait for anyone.
    const screen = server.screens[server.turn];
    for (let ticks = 0; !screen.controller.interactive(); ticks += 1) {
      assert.ok(ticks < 200, `${match.name} seed ${seed}: seat ${screen.seat} cannot move at step ${server.step}`
        + ` (its hand: ${screen.controller.view.hand.join(" ")})`);
      await clock.tick();
    }
    assert.deepEqual(screen.controller.view, expected(server, screen.seat),
      `${match.name} seed ${seed}: seat ${screen.seat}'s table differs from the server's at step ${server.step}`);
    const [source, target] = server.next.action;
    screen.controller.act(source, target); // answered on the clock, as the loop ticks it
    await clock.tick();
  }
  await quiet();
  for (const screen of server.screens) {
    assert.deepEqual(screen.controller.view, expected(server, screen.seat), `${match.name}: the end differs for seat ${screen.seat}`);
    // The events' table was never unlike the server's, nor held more than a hand.
    assert.deepEqual(screen.warnings, [], `${match.name} seed ${seed}: seat ${screen.seat}`);
    screen.controller.stop();
  }
  assert.ok(checked.count >= steps, `${match.name}: only ${checked.count} tables compared`);
  return checked.count;
}

test("each table equals the seat's view after every step, however the events arrive", async () => {
  const matches = recorded();
  assert.ok(matches.length >= 4);
  let compared = 0;
  for (const [index, match] of matches.entries()) {
    for (let run = 0; run < RUNS; run += 1) compared += await play(match, SEED * 1000 + index * 10 + run);
  }
  assert.ok(compared > 1000);
});
