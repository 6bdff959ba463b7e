// Each seat's latest turn, from the feed's events (docs/API.md, "Events"): which cards it moved,
// from where to where, and which plays completed a centre stack. The match screen shows the
// opponent's in words and card faces, and marks the cards it left on the table until you act.
// Pure, tested with node --test.

import { SIDES } from "./table.js";

const MOVING = new Set(["draw", "play", "discard"]);

/** No turn seen yet. */
export const emptyLog = () => ({ current: null, turns: [null, null] });

/**
 * The log after `event`. A turn begins with the first event of a seat after the other seat's;
 * a new deal forgets the last game's turns. Events that move no card change nothing.
 */
export function logEvent(log, event) {
  if (event.kind === "dealt") return emptyLog();
  if (event.kind === "completed") {
    const turn = log.current;
    const last = turn?.moves.at(-1);
    if (!last || last.to !== event.stack) return log;
    const moves = [...turn.moves.slice(0, -1), { ...last, completed: true }];
    return withTurn(log, { ...turn, moves });
  }
  if (!MOVING.has(event.kind) || (event.seat !== 0 && event.seat !== 1)) return log;
  const turn = log.current?.seat === event.seat
    ? log.current
    : { seat: event.seat, game: event.game ?? null, first: event.number, moves: [], ended: false };
  if (event.kind === "draw") return withTurn(log, turn);
  const move = { kind: event.kind, card: event.card, from: event.from, to: event.to, as: event.as ?? null, completed: false, number: event.number };
  return withTurn(log, { ...turn, moves: [...turn.moves, move], ended: event.kind === "discard" });
}

function withTurn(log, turn) {
  const turns = [...log.turns];
  turns[turn.seat] = turn;
  return { current: turn, turns };
}

/** The log of `events`, in order. */
export const logOf = (events, log = emptyLog()) => events.reduce(logEvent, log);

/**
 * The table's places (as table-view.js names them: "C1", "1:S2") where a card `turn` moved is
 * still on top: a centre stack since completed, or a side card covered since, is not marked.
 */
export function movedPlaces(turn, view) {
  const places = new Set();
  if (!turn) return places;
  for (const move of turn.moves) {
    if (move.to.startsWith("C")) {
      const stack = view.centre[Number(move.to[1])];
      if (!move.completed && stack?.top === move.card) places.add(move.to);
    } else if (SIDES.includes(move.to)) {
      const stack = view.seats[turn.seat]?.sides[SIDES.indexOf(move.to)] ?? [];
      if (stack.at(-1) === move.card) places.add(`${turn.seat}:${move.to}`);
    }
  }
  return places;
}
