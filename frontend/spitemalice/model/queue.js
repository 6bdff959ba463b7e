// The order and pace in which the table shows what happened: events are queued by number
// (one seen twice, from the socket and from the feed, is shown once), played one at a time,
// each followed by a pause a person can follow: the opponent's cards slower than your own,
// a game's end longest. skip() shows the rest at once. Pure apart from the `wait` it is given,
// so the tests drive it with a clock of their own.

const PACE = {
  // [your own, the opponent's] in milliseconds
  play: [260, 900],
  discard: [260, 900],
  draw: [200, 500],
  completed: [700, 900],
  dealt: [500, 500],
  game_over: [1400, 1400],
  match_over: [1400, 1400],
};
// With reduced motion nothing flies: the table changes in place, still one step at a time.
const REDUCED = 0.35;

/** How long to linger after showing `event`, in milliseconds. */
export function paceOf(event, { you = 0, reduced = false } = {}) {
  const pair = PACE[event.kind];
  if (!pair) return 0;
  const base = pair[event.seat === undefined || event.seat === you ? 0 : 1];
  return Math.round(reduced ? base * REDUCED : base);
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
        const instant = this.skipping;
        await this.show(event, { instant });
        const pause = instant ? 0 : this.pace(event);
        if (pause > 0 && !this.skipping) await this.wait(pause, () => this.skipping);
      }
    } finally {
      this.running = false;
      this.skipping = false;
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
