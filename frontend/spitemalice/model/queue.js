// The order and pace in which the table shows what happened: events are queued by number
// (one seen twice, from the socket and from the feed, is shown once), played one at a time,
// each followed by a pause a person can follow: the opponent's cards slower than your own,
// a game's end longest. When events wait behind the one shown, the pauses shrink so that the
// whole queue is shown within BEHIND_MS (a fast opponent is followed), and an ending waiting in
// the queue is reached without pauses. skip() shows the rest at once. Pure apart from the
// `wait` it is given, so the tests drive it with a clock of their own.

const PACE = {
  // [your own, the opponent's] in milliseconds
  play: [260, 900],
  discard: [260, 900],
  draw: [200, 500],
  completed: [700, 900],
  dealt: [500, 500],
  game_over: [1400, 1400],
  // Nothing follows a match's end: the screen is idle, and its result shown, at once.
  match_over: [0, 0],
};
// The most the table lags behind the events it was given, in all (ms).
export const BEHIND_MS = 2000;
// The events that end a game or a match: once one waits, everything before it goes at once.
const ENDINGS = ["game_over", "match_over", "aborted", "resigned", "timeout"];
// So many events waiting make each shown without its card's flight.
const RUSH_FROM = 3;
// With reduced motion nothing flies: the table changes in place, still one step at a time.
const REDUCED = 0.35;

/** How long to linger after showing `event`, in milliseconds. */
export function paceOf(event, { you = 0, reduced = false } = {}) {
  const pair = PACE[event.kind];
  if (!pair) return 0;
  const base = pair[event.seat === undefined || event.seat === you ? 0 : 1];
  return Math.round(reduced ? base * REDUCED : base);
}

/** The pause after an event, given the events still `waiting` behind it and `burst`, the most
 *  events queued at once since the queue was last idle: its own pace, cut so that a burst's
 *  pauses take at most BEHIND_MS together, and none when an ending waits. */
export function catchUpPace(pause, waiting = [], burst = waiting.length + 1) {
  if (waiting.some((event) => ENDINGS.includes(event.kind))) return 0;
  if (burst <= 1) return pause;
  return Math.min(pause, Math.floor(BEHIND_MS / burst));
}

/** Whether an event is shown without its flight: many wait behind it, or an ending does. */
export function rushed(waiting = []) {
  return waiting.length >= RUSH_FROM || waiting.some((event) => ENDINGS.includes(event.kind));
}

export class EventQueue {
  /**
   * show(event, {instant}) draws one event (may return a promise); wait(ms) resolves after ms;
   * pace(event) is the pause after it; onIdle() runs when the queue has emptied.
   */
  constructor({ show, wait, pace = () => 0, onIdle = () => {}, last = 0 }) {
    this.show = show;
    this.wait = wait;
    this.pace = pace;
    this.onIdle = onIdle;
    this.last = last; // the newest event number queued or shown
    this.pending = [];
    this.running = false;
    this.skipping = false;
    this.stopped = false;
    this.waiters = [];
    this.burst = 0; // the most events queued at once (the one shown too) since last idle
  }

  get busy() {
    return this.running || this.pending.length > 0;
  }

  /** Queues the events newer than any queued before, in number order; returns how many. */
  push(events = []) {
    const fresh = events.filter((event) => event.number > this.last).sort((a, b) => a.number - b.number);
    const added = [];
    for (const event of fresh) {
      if (event.number <= this.last) continue;
      this.last = event.number;
      added.push(event);
    }
    if (this.stopped) return 0;
    this.pending.push(...added);
    this.burst = Math.max(this.burst, this.pending.length + (this.running ? 1 : 0));
    if (added.length && !this.running) this.run();
    return added.length;
  }

  /** Shows whatever is queued at once, without pauses. */
  skip() {
    if (this.busy) this.skipping = true;
  }

  /** Drops what is queued and shows nothing more, not even the idle callback: the screen it
   *  drew on has been left. */
  stop() {
    this.stopped = true;
    this.pending.length = 0;
  }

  /** Resolves once nothing is queued or being shown. */
  idle() {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async run() {
    this.running = true;
    try {
      while (this.pending.length) {
        const event = this.pending.shift();
        if (this.stopped) break;
        const instant = this.skipping || rushed(this.pending);
        await this.show(event, { instant });
        const pause = this.skipping ? 0 : catchUpPace(this.pace(event), this.pending, this.burst);
        if (pause > 0 && !this.skipping) await this.wait(pause, () => this.skipping);
      }
    } finally {
      this.running = false;
      this.skipping = false;
      this.burst = 0;
      if (!this.stopped) this.onIdle();
      for (const resolve of this.waiters.splice(0)) resolve();
    }
  }
}

/** A wait that ends early once `cancelled()` is true (checked every 50 ms): a skip cuts the
 *  current pause short. */
export function pausable(ms, cancelled = () => false) {
  return new Promise((resolve) => {
    const started = performance.now();  // monotonic: a wall clock set meanwhile changes nothing
    const tick = () => {
      if (cancelled() || performance.now() - started >= ms) resolve();
      else setTimeout(tick, Math.min(50, ms));
    };
    setTimeout(tick, Math.min(50, ms));
  });
}
