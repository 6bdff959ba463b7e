// The match screen's state and how it answers the server: the match as the server last sent it,
// the table's view as the events shown so far have moved it, the source chosen, an action on
// its way, the events queued to be shown one by one, and the live connection's state. It reacts
// to the answer of an action, to the feed and to the socket's events, and asks `ui` (the
// drawing, match-view.js) to show each change; it touches no DOM, so node --test drives it with
// a stand-in api, socket and ui. The input (match-input.js) calls its commands.

import { t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { describe, motion } from "./model/events.js";
import { EventQueue, paceOf, pausable } from "./model/queue.js";
import { TableSync } from "./model/sync.js";
import { hasResult, isLegal, isOver, sourceCard } from "./model/table.js";
import { emptyLog, logEvent, logOf, movedPlaces } from "./model/turn-log.js";

// How far back the feed is read when the screen opens, for the opponent's last turn.
const HISTORY = 100;

const nameOf = (code) => cardName(code, t);

// The refusals after which the page's idea of the match is out of date: it is read again.
const STALE = ["stale_action", "not_your_turn", "game_over", "illegal_action"];
// A hand never holds more (docs/SPITE_MALICE.md): a table that shows more is out of step.
const HAND_MAX = 5;
// How often an idle table checks that it can be played on, and how soon a read that found
// nothing new is tried again (ms).
const WATCH_EVERY = 3000;
const REREAD_AFTER = 1000;
// How long past the turn's deadline a table waits for the timeout before it reads the match.
const OVERDUE_GRACE = 1500;

/**
 * The controller of a match's screen, from the match `GET /matches/{id}` returned.
 * `api`: smAct, smEvents, smMatch, smHint, smResign, smPlayBot, smRematch (./api.js); `follow`: live.js's; `reducedMotion()`:
 * whether to skip the flights and shorten the pauses; `wait(ms, cancelled)`: a pause.
 *
 * `ui`, given to start(), draws: draw({focus}) the whole screen, drawStatus() the heading and
 * prompt only (while events are shown), drawBanner() the connection's state, acting(on),
 * clearMessages(), showProblem(error), announce(text), showResult(number, event, {live}),
 * showMatchResult(scores, {live}), showAborted(seat, {live}) (live: it just happened, so it is
 * brought into view), and for a card's flight placeOf(place) (an opaque box, or null) and
 * fly(from, to, move).
 */
export function matchController(initial, { api, follow, reducedMotion = () => false, wait = pausable, log: logTo = console }) {
  // The table shown and the server's matches and events it stands on (model/sync.js): every
  // event is applied once, in order, and a match read or answered is shown when the events
  // reach its number, never on top of events it already holds.
  const sync = new TableSync(initial);
  let match = sync.match;
  let view = sync.view;
  let chosen = null;
  let busy = false; // an action sent, not yet answered
  let hinted = null; // [source, target] the bot suggested, until the next action
  let liveState = null;
  let reading = null; // a read of the match on its way
  let readAt = -1; // the event number the last read of the match was asked at
  let disagreed = 0; // the disagreements reported to the console so far
  let watchdog = null;
  let ended = false; // the match's end was shown
  let log = emptyLog(); // each seat's latest turn, as the events shown so far tell it
  let marking = false; // the opponent's last turn is marked on the table until you act
  let shownSince = []; // the events shown while the history is being read (the log's newest part)
  let follower = null;
  let stopped = false;
  let ui = null;

  const names = () => view.seats.map((seat) => (seat.seat === view.you ? t("sm.you")
    : seat.bot ? t("sm.the_computer") : seat.name ?? t("sm.opponent")));

  const queue = new EventQueue({
    last: match.event,
    show: showEvent,
    wait,
    pace: (event) => paceOf(event, { you: view.you, reduced: reducedMotion() }),
    onIdle: settle,
  });

  /** The table and the match as the model has them now. */
  function refresh() {
    match = sync.match;
    view = sync.view;
    if (sync.disagreements.length > disagreed) {
      for (const number of sync.disagreements.slice(disagreed)) {
        logTo.warn?.(`Spite & Malice: the table differed from the server's at event ${number}; the server's is shown.`);
      }
      disagreed = sync.disagreements.length;
    }
  }

  /** Events from anywhere (the socket, the feed, an answer's catch-up): each is queued once,
   *  in number order, when the one before it is known. */
  function receive(events) {
    sync.receive(events);
    pump();
  }

  function pump() {
    const ready = [];
    for (let number = Math.max(queue.last, sync.shown) + 1; sync.events.has(number); number += 1) ready.push(sync.events.get(number));
    if (queue.last < sync.shown) queue.last = sync.shown;
    if (ready.length) queue.push(ready);
    else if (!queue.busy && !busy) settle();
  }

  function interactive() {
    return !busy && !queue.busy && match.status === "playing" && view.turn === view.you && view.legal.length > 0;
  }

  /** Chooses `source`, or puts it back if it was the one chosen; false when nothing may be
   *  chosen now. The caller draws (it knows where the focus goes). */
  function choose(source) {
    if (!interactive()) return false;
    chosen = chosen === source ? null : source;
    return true;
  }

  /** Makes `source` the chosen one (a card picked up to be dragged). */
  function pick(source) {
    if (!interactive()) return false;
    chosen = source;
    return true;
  }

  /** Puts the chosen card back; returns which it was (null if none). */
  function unchoose() {
    const was = chosen;
    chosen = null;
    return was;
  }

  async function act(source, target) {
    if (!interactive() || busy) return;
    if (!isLegal(view, source, target)) {
      // Not offered: nothing is sent, nothing moves (the places offered are the server's).
      return;
    }
    busy = true;
    ui.acting(true);
    ui.clearMessages();
    hinted = null;
    chosen = null;
    marking = false;
    ui.draw();
    try {
      const answer = await api.smAct(match.id, { action: [source, target], game: match.game.number, actions: match.game.actions });
      sync.offer(answer);
      refresh();
      await catchUp(answer.event);
      busy = false;
      ui.acting(false);
      pump();
    } catch (error) {
      busy = false;
      ui.acting(false);
      if (stopped) return;
      ui.showProblem(error);
      if (STALE.includes(error.code)) {
        logTo.warn?.(`Spite & Malice: an action was refused (${error.code}); the match is read again.`);
        await reload();
      } else ui.draw();
    }
  }

  /** Asks the bot (bot matches): its source becomes the chosen one and its target is marked.
   *  Resolves to [source, target]; the caller draws. */
  async function hint() {
    const answer = await api.smHint(match.id);
    const [source, target] = answer.action;
    chosen = source;
    hinted = [source, target];
    return [source, target];
  }

  /** Resigns (or, before both first turns are played, leaves) the match; what follows is shown
   *  as any answer is. Rejects with the server's problem. */
  async function resign() {
    busy = true;
    ui.acting(true);
    chosen = null;
    try {
      const answer = await api.smResign(match.id);
      sync.offer(answer);
      refresh();
      await catchUp(answer.event);
    } finally {
      busy = false;
      ui.acting(false);
    }
    pump();
  }

  /** A new match against the same bot, of the same length (a daily's is one game). */
  function playAgain() {
    const bot = view.seats[1 - view.you].bot;
    return api.smPlayBot({ level: bot, target: match.mode === "daily" ? 1 : match.target });
  }

  const rematch = () => api.smRematch(match.id);

  /** The opponent's turns already played when the screen opened, for the log (best effort). */
  async function loadHistory() {
    const opened = initial.event;
    if (opened <= 0) { shownSince = null; return; }
    try {
      const answer = await api.smEvents(match.id, Math.max(0, opened - HISTORY));
      const older = (answer.events ?? []).filter((event) => event.number <= opened);
      if (!older.length || stopped) return;
      // The events shown since the screen opened come after these.
      log = logOf(shownSince, logOf(older));
      if (!shownSince.length) marking = view.turn === view.you && log.turns[1 - view.you] !== null;
      if (!queue.busy) ui.draw();
    } catch { /* the log starts with the next turn */ } finally { shownSince = null; }
  }

  /** The events after those known in order, from the feed, up to `upTo` (the answer to an
   *  action holds the match only; a gap in the events pushed is filled the same way). */
  async function catchUp(upTo = Infinity) {
    try {
      for (let page = 0; page < 20; page += 1) {
        let after = sync.shown;
        while (sync.events.has(after + 1)) after += 1;
        if (after >= upTo) break;
        const answer = await api.smEvents(match.id, after);
        sync.receive(answer.events);
        if (answer.events.length) follower?.after(answer.last);
        if (!answer.more) break;
      }
    } catch { /* the follower catches up */ }
  }

  /** Reads the match: shown once the events reach its number (at once if they have). */
  async function reload() {
    if (reading) return reading;
    readAt = sync.shown;
    reading = (async () => {
      try {
        sync.offer(await api.smMatch(match.id));
        refresh();
      } catch { /* the next check reads it again */ }
    })();
    await reading;
    reading = null;
    if (stopped) return;
    pump();
  }

  /** Nothing is being shown: the table becomes the server's (a match given past a gap, the
   *  feed read to fill one, the match read when no match given covers the last event), then
   *  the match's end or the player's turn is shown. */
  async function settle() {
    if (stopped || busy || queue.busy) return;
    if (sync.jump()) {
      queue.last = Math.max(queue.last, sync.shown);
      chosen = null;
      refresh();
    }
    if (sync.gap) {
      await catchUp();
      pump();
      return;
    }
    if (!sync.exact || view.hand.length > HAND_MAX) {
      if (view.hand.length > HAND_MAX) logTo.warn?.(`Spite & Malice: the table showed ${view.hand.length} cards in hand; the match is read again.`);
      // Read at once; a read that found nothing newer is tried again a little later.
      if (readAt !== sync.shown) reload();
      else setTimeout(() => { if (!sync.exact && !stopped) { readAt = -1; pump(); } }, REREAD_AFTER)?.unref?.();
      ui.draw();
      return;
    }
    refresh();
    ui.draw();
    showEnd({ live: true });
    // Without a socket the feed is polled faster while the opponent plays: time it anew.
    follower?.repace?.();
    if (view.turn === view.you && match.status === "playing") ui.announce(t("sm.say.your_turn"));
  }

  /** A match that is over says how, once (its events may have said so already). */
  function showEnd({ live }) {
    if (!isOver(match)) return;
    follower?.stop();
    clearInterval(watchdog);
    if (ended) return;
    ended = true;
    if (match.status === "aborted") ui.showAborted(null, { live });
    if (hasResult(match, match.game)) ui.showResult(view.game, null, { live });
    if (match.status === "finished") ui.showMatchResult(undefined, { live });
  }

  /** One event of the feed on the table: moved there, said, and its card flown. */
  async function showEvent(event, { instant }) {
    // Queued before a jump past it: the table holds it already.
    if (sync.peek() !== event) return;
    const move = motion(event);
    const from = move ? ui.placeOf(move.from) : null;
    sync.step();
    refresh();
    log = logEvent(log, event);
    shownSince?.push(event);
    if (event.seat === 1 - view.you && ["play", "discard"].includes(event.kind)) marking = true;
    if (event.kind === "dealt") marking = false;
    // A game's end is shown first, where the player looks; the table after it. An event rushed
    // through (an ending or many more wait behind it) is drawn by the next one.
    if (event.kind === "game_over") ui.showResult(event.game, event, { live: true });
    if (!instant || !queue.pending.length) ui.draw();
    else ui.drawStatus();
    const text = describe(event, { you: view.you, t, card: nameOf, names: names() });
    if (text) ui.announce(text);
    if (event.kind === "aborted") {
      // Nothing follows it: no game_over, no match_over, no winner.
      ended = true;
      ui.drawStatus();
      ui.showAborted(event.seat, { live: true });
    }
    if (event.kind === "match_over") {
      ended = true;
      ui.drawStatus();
      ui.showMatchResult(event.scores, { live: true });
    }
    if (!move || instant || reducedMotion()) return;
    const to = ui.placeOf(move.to);
    if (from && to) await ui.fly(from, to, move);
  }

  /** Draws the table once and starts following the match. */
  function start(drawing) {
    ui = drawing;
    ended = isOver(match);
    ui.draw();
    ui.drawBanner();
    if (hasResult(match, match.game)) ui.showResult(view.game);
    if (match.status === "finished") ui.showMatchResult();
    if (match.status === "aborted") ui.showAborted();
    follower = isOver(match) ? null : follow(match.id, {
      after: match.event,
      onEvents: (events) => {
        receive(events);
        if (queue.busy) ui.drawStatus();
      },
      onPresence: (seats) => {
        seats.forEach((connected, index) => {
          for (const held of [sync.view, sync.match, sync.latest]) if (held.seats?.[index]) held.seats[index].connected = connected;
        });
        if (!queue.busy) ui.draw();
      },
      onState: (state) => { liveState = state; ui.drawBanner(); },
      pollEvery: () => (queue.busy || view.turn === view.you ? 10000 : 2000),
    });
    // The bot may still be finishing a long turn in the background: its events follow.
    if (match.status === "playing" && view.turn !== view.you) follower?.poke();
    // Never stuck: an idle table that cannot be played on though it is the player's turn (or
    // shows more cards in hand than a hand holds) reads the match again.
    if (!isOver(match)) {
      watchdog = setInterval(() => {
        if (stopped || busy || queue.busy || match.status !== "playing") return;
        const stuck = view.hand.length > HAND_MAX || (view.turn === view.you && !interactive());
        if (stuck) { logTo.warn?.("Spite & Malice: the table could not be played on; the match is read again."); readAt = -1; reload(); return; }
        // The turn's time is up and no timeout has come: a read of the match applies it (the
        // server ends a match on time on any read), and its events follow.
        if (match.deadline && Date.parse(match.deadline) + OVERDUE_GRACE < Date.now()) { readAt = -1; reload(); }
      }, WATCH_EVERY);
      watchdog?.unref?.(); // (node's tests: a timer that keeps nothing alive)
    }
  }

  /** The screen was left: nothing more is shown or asked for. */
  function stop() {
    stopped = true;
    clearInterval(watchdog);
    queue.stop();
    follower?.stop();
  }

  return {
    get match() { return match; },
    get view() { return view; },
    get chosen() { return chosen; },
    get hinted() { return hinted; },
    get busy() { return busy; },
    /** Events are being shown. */
    get animating() { return queue.busy; },
    /** The number of the last event the table shows. */
    get shown() { return sync.shown; },
    get liveState() { return liveState; },
    interactive,
    names,
    /** The opponent's latest turn (or null): what the log shows. */
    lastTurn: () => log.turns[1 - view.you],
    /** The places the opponent's last turn left its cards on, until you act. */
    moved: () => (marking ? movedPlaces(log.turns[1 - view.you], view) : new Set()),
    loadHistory,
    resign,
    playAgain,
    rematch,
    /** The chosen card's name ("" if none): the pay-off top, a side stack's top, or a hand card. */
    chosenName: () => (chosen ? nameOf(sourceCard(view, chosen)) : ""),
    choose,
    pick,
    unchoose,
    act,
    hint,
    skip: () => queue.skip(),
    start,
    stop,
  };
}
