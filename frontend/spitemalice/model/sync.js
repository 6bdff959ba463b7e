// The table a match screen shows, kept equal to the server's view of the seat however the
// events and reads reach it (docs/SPITE_MALICE.md, "The table model"). It holds the events it
// was handed (by number: one handed twice, or by the socket and the feed both, is one), the
// server's matches it was given (a read, an action's answer, the `table` of the draw that
// began your turn: each the match as it stood at its `event`), and the number the screen
// shows. The table at that number is always one of:
//   - a server's match at exactly that number (then its legal actions may be played), or
//   - a server's match at an earlier number with the events after it applied in order.
// An event is applied only once and only after the one before it; a match newer than the
// events shown waits until they reach it (or, past a gap no event fills, is jumped to). Pure:
// tested with node --test.

import { applyEvent } from "./events.js";
import { viewOf } from "./table.js";

// What the events cannot know, so a match and the events' table are compared without it.
const unlike = (a, b) => {
  const strip = (view) => ({ ...view, legal: [], seats: view.seats.map((seat) => ({ ...seat, connected: null, name: null, botAccount: null, bot: null })) });
  return JSON.stringify(strip(a)) !== JSON.stringify(strip(b));
};

export class TableSync {
  /** From the match the screen opened with (`GET /matches/{id}`). */
  constructor(match) {
    this.match = structuredClone(match); // the server's match the table stands on, as the events shown since moved its fields
    this.view = viewOf(match);
    this.shown = match.event; // the number of the last event the table shows
    this.exact = true; // the table is a server's match at `shown` (its legal actions hold)
    this.events = new Map(); // number -> event, for the numbers after `shown`
    this.tables = new Map(); // number -> the `table` of your turn's draw of that number
    this.latest = structuredClone(match); // the newest server's match given (maybe ahead of `shown`)
    this.disagreements = []; // the numbers where the events' table was not the server's
  }

  /** Takes events in any order, duplicates and ones already shown too. */
  receive(events = []) {
    for (const event of events) {
      if (event.number <= this.shown || this.events.has(event.number)) continue;
      this.events.set(event.number, event);
      // The draw that began your turn: what your match became at that event.
      if (event.table && event.seat === this.view.you) this.tables.set(event.number, event.table);
    }
  }

  /** Takes a server's match (a read, an action's answer): shown once the table reaches its
   *  number, at once if it is there. An older one than a match given already changes
   *  nothing; one read at the number shown replaces the table (the same, with fresher fields). */
  offer(match) {
    if (match.event < this.latest.event || match.event < this.shown) return;
    this.latest = structuredClone(match);
    if (match.event === this.shown) this.#adopt(this.latest);
  }

  /** The number of the newest event or match known. */
  get newest() {
    return Math.max(this.shown, this.latest.event, ...this.events.keys());
  }

  /** The event to show next (the one after `shown`), or null if it is not known yet. */
  peek() {
    return this.events.get(this.shown + 1) ?? null;
  }

  /** Events known after `shown` but not the next one: the feed must be read to fill it. */
  get gap() {
    return this.events.size > 0 && !this.events.has(this.shown + 1);
  }

  /** Whether nothing newer than the table is known and the table is the server's match. */
  get settled() {
    return this.exact && this.newest === this.shown;
  }

  /** Shows the next event (peek()): the table moves by it, and becomes the server's match at
   *  its number when one was given (a read's, an answer's, your turn's table). Returns it. */
  step() {
    const event = this.peek();
    if (!event) return null;
    this.events.delete(event.number);
    this.view = applyEvent(this.view, event);
    this.shown = event.number;
    this.exact = false;
    this.#follow(event);
    const table = this.tables.get(event.number);
    this.tables.delete(event.number);
    if (this.latest.event === event.number) this.#adopt(this.latest);
    else if (table) this.#adopt({ ...this.match, ...table, event: event.number });
    return event;
  }

  /** The newest server's match, at once, when the events known cannot reach it (a gap no
   *  event fills, or none to show): whether the table jumped there. */
  jump() {
    if (this.latest.event <= this.shown || this.peek()) return false;
    for (const number of [...this.events.keys()]) if (number <= this.latest.event) this.events.delete(number);
    for (const number of [...this.tables.keys()]) if (number <= this.latest.event) this.tables.delete(number);
    this.shown = this.latest.event;
    this.#adopt(this.latest, { compare: false });
    return true;
  }

  /** The match's own fields an event changes (its scores, its end). */
  #follow(event) {
    const match = this.match;
    if (event.scores) match.seats?.forEach((seat, index) => { seat.score = event.scores[index] ?? seat.score; });
    if (event.kind === "aborted") Object.assign(match, { status: "aborted", winner: null, reason: event.reason, abortable: false, deadline: null });
    if (event.kind === "match_over") Object.assign(match, { status: "finished", winner: event.winner, reason: event.reason, deadline: null });
    match.event = event.number;
  }

  #adopt(match, { compare = true } = {}) {
    const view = viewOf(match);
    if (compare && !this.exact && unlike(this.view, view)) this.disagreements.push(match.event);
    this.match = structuredClone(match);
    this.view = view;
    this.exact = true;
  }
}
