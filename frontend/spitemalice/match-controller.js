// The match screen's state and how it answers the server: the match as the server last sent it,
// the table's view as the events shown so far have moved it, the source chosen, an action on
// its way, the events queued to be shown one by one, and the live connection's state. It reacts
// to the answer of an action, to the feed and to the socket's events, and asks `ui` (the
// drawing, match-view.js) to show each change; it touches no DOM, so node --test drives it with
// a stand-in api, socket and ui. The input (match-input.js) calls its commands.

import { t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { applyEvent, describe, motion } from "./model/events.js";
import { EventQueue, paceOf, pausable } from "./model/queue.js";
import { hasResult, isLegal, isOver, sourceCard, viewOf } from "./model/table.js";
import { emptyLog, logEvent, logOf, movedPlaces } from "./model/turn-log.js";

// How far back the feed is read when the screen opens, for the opponent's last turn.
const HISTORY = 100;

const nameOf = (code) => cardName(code, t);

// The refusals after which the page's idea of the match is out of date: it is read again.
const STALE = ["stale_action", "not_your_turn", "game_over", "illegal_action"];

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
export function matchController(initial, { api, follow, reducedMotion = () => false, wait = pausable }) {
  let match = initial;
  let view = viewOf(match);
  let chosen = null;
  let busy = false; // an action sent, not yet answered
  let hinted = null; // [source, target] the bot suggested, until the next action
  let pending = null; // a match the server answered, shown once the events before it are
  let turnTable = null; // {number, table} of the draw that began your turn (docs/API.md)
  let liveState = null;
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
      pending = answer;
      await catchUp(answer.event);
      busy = false;
      ui.acting(false);
      if (!queue.busy) settle();
    } catch (error) {
      busy = false;
      ui.acting(false);
      if (stopped) return;
      ui.showProblem(error);
      if (STALE.includes(error.code)) await reload();
      else ui.draw();
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
      pending = answer;
      await catchUp(answer.event);
    } finally {
      busy = false;
      ui.acting(false);
    }
    if (!queue.busy) await settle();
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

  /** The events up to `upTo`, from the feed (the answer to an action holds the match only). */
  async function catchUp(upTo = Infinity) {
    try {
      while (queue.last < upTo) {
        const answer = await api.smEvents(match.id, queue.last);
        if (!answer.events.length) break;
        queue.push(answer.events);
        follower?.after(answer.last);
        if (answer.last >= upTo || answer.events.length < 1000) break;
      }
    } catch { /* the follower catches up */ }
  }

  async function reload() {
    try {
      adopt(await api.smMatch(match.id));
    } catch { ui.draw(); }
  }

  /** Shows the server's state of the match (its legal actions) once no event is being shown. */
  function adopt(fresh, { live = true } = {}) {
    const wasOver = match.status === "finished";
    match = fresh;
    view = viewOf(match);
    if (match.event > queue.last) queue.last = match.event;
    chosen = null;
    ui.draw();
    if (isOver(match)) follower?.stop();
    if (match.status === "aborted") ui.showAborted(null, { live });
    if (match.status === "finished" && !wasOver) ui.showResult(view.game, null, { live });
    if (match.status === "finished") ui.showMatchResult(undefined, { live });
    if (hasResult(match, match.game)) ui.showResult(view.game, null, { live });
  }

  async function settle() {
    const answer = pending;
    pending = null;
    if (answer && answer.event >= queue.last) adopt(answer, { live: true });
    else if (turnTable && turnTable.number === queue.last && turnTable.number > match.event) {
      // Your turn began with the events just shown, and its draw brought what you play on.
      adopt({ ...match, ...turnTable.table, event: turnTable.number });
    } else if (queue.last > match.event) await reload();
    else ui.draw();
    // Without a socket the feed is polled faster while the opponent plays: time it anew.
    follower?.repace?.();
    if (view.turn === view.you && match.status === "playing") ui.announce(t("sm.say.your_turn"));
  }

  /** One event of the feed on the table: moved there, said, and its card flown. */
  async function showEvent(event, { instant }) {
    const move = motion(event);
    const from = move ? ui.placeOf(move.from) : null;
    if (event.table && event.seat === view.you) turnTable = { number: event.number, table: event.table };
    view = applyEvent(view, event);
    log = logEvent(log, event);
    shownSince?.push(event);
    if (event.seat === 1 - view.you && ["play", "discard"].includes(event.kind)) marking = true;
    if (event.kind === "dealt") marking = false;
    if (event.kind === "game_over") {
      match.seats.forEach((seat, index) => { seat.score = event.scores?.[index] ?? seat.score; });
    }
    ui.draw();
    const text = describe(event, { you: view.you, t, card: nameOf, names: names() });
    if (text) ui.announce(text);
    if (event.kind === "game_over") ui.showResult(event.game, event, { live: true });
    if (event.kind === "aborted") {
      // Nothing follows it: no game_over, no match_over, no winner.
      Object.assign(match, { status: "aborted", winner: null, reason: event.reason, abortable: false });
      ui.drawStatus();
      ui.showAborted(event.seat, { live: true });
    }
    if (event.kind === "match_over") {
      match.status = "finished";
      match.winner = event.winner;
      match.reason = event.reason;
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
    ui.draw();
    ui.drawBanner();
    if (hasResult(match, match.game)) ui.showResult(view.game);
    if (match.status === "finished") ui.showMatchResult();
    if (match.status === "aborted") ui.showAborted();
    follower = isOver(match) ? null : follow(match.id, {
      after: match.event,
      onEvents: (events) => {
        queue.push(events);
        if (queue.busy) ui.drawStatus();
      },
      onPresence: (seats) => {
        seats.forEach((connected, index) => { view.seats[index].connected = connected; match.seats[index].connected = connected; });
        if (!queue.busy) ui.draw();
      },
      onState: (state) => { liveState = state; ui.drawBanner(); },
      pollEvery: () => (queue.busy || view.turn === view.you ? 10000 : 2000),
    });
    // The bot may still be finishing a long turn in the background: its events follow.
    if (match.status === "playing" && view.turn !== view.you) follower?.poke();
  }

  /** The screen was left: nothing more is shown or asked for. */
  function stop() {
    stopped = true;
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
