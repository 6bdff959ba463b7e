// A race as the API returns it (docs/API.md, "Foursquare races"), read for the screens: which
// phase it is in by the clock, the time left, a lane per racer, the progress a socket message
// or your own move brings, and the ranking the server settled. Pure: no DOM, no fetch. The
// server decides everything here; this only lays out what it said.

import { codeFromText } from "../../../lib/codes.js";

export const LIMITS = { minPlayers: 2, maxPlayers: 8, minutes: [3, 5, 10] };
// The clock turns to a warning in the race's last 30 seconds.
export const LOW_SECONDS = 30;

const ms = (iso) => (iso ? Date.parse(iso) : NaN);

/**
 * "waiting" (for racers and the host's start), "countdown" (started, before `starts_at`),
 * "playing", "closing" (past `ends_at`, the server not yet heard to have finished it),
 * "finished" or "cancelled".
 */
export function phase(race, now = Date.now()) {
  if (["waiting", "finished", "cancelled"].includes(race.status)) return race.status;
  if (now < ms(race.starts_at)) return "countdown";
  if (now >= ms(race.ends_at)) return "closing";
  return "playing";
}

/** Whole seconds from now to `iso`, rounded up (a clock shows 0:01 until the very end), ≥ 0. */
export function secondsUntil(iso, now = Date.now()) {
  const left = ms(iso) - now;
  return Number.isFinite(left) ? Math.max(0, Math.ceil(left / 1000)) : 0;
}

/** The race's clock: what it counts to and the whole seconds left, and whether to warn. */
export function clock(race, now = Date.now()) {
  const current = phase(race, now);
  if (current === "countdown") return { phase: current, seconds: secondsUntil(race.starts_at, now), low: false };
  if (current === "playing" || current === "closing") {
    const seconds = secondsUntil(race.ends_at, now);
    return { phase: current, seconds, low: seconds <= LOW_SECONDS };
  }
  return { phase: current, seconds: 0, low: false };
}

/** Minutes and seconds: [m, ss] as numbers, for the language's digits. */
export function minutesSeconds(seconds) {
  const whole = Math.max(0, Math.round(seconds ?? 0));
  return [Math.floor(whole / 60), whole % 60];
}

const playerId = (racer) => racer.player?.id ?? racer.player;

/** The racer's board as a grid: the API's `board` is a grid (a list of piles), or a view
 *  holding one; absent while the viewer may not watch. */
export function boardGrid(board) {
  if (!board) return null;
  if (Array.isArray(board)) return board;
  return Array.isArray(board.grid) ? board.grid : null;
}

/** One lane per racer, in the race's order (who joined first): `you` marks yours. */
export function lanes(race, me) {
  return (race.racers ?? []).map((racer, index) => {
    const progress = racer.progress ?? {};
    return {
      id: playerId(racer),
      name: racer.player?.name ?? "",
      you: playerId(racer) === me,
      host: playerId(racer) === race.host?.id,
      order: index,
      placed: progress.placed ?? 0,
      stock: progress.stock ?? null,
      faceDown: progress.face_down ?? 0,
      status: progress.status ?? "playing",
      score: progress.score ?? null,
      seconds: progress.seconds ?? null,
      place: racer.place ?? null,
      board: boardGrid(racer.board),
    };
  });
}

/** The others' lanes, as the race screen shows them beside your board. */
export const opponents = (race, me) => lanes(race, me).filter((lane) => !lane.you);

/**
 * The race with one racer's progress (and board, where the message carries one) replaced: a
 * socket's `progress` message, or your own game after a move. Unknown players are ignored (a
 * message from before a join the screen has not read yet: the next `race` message has them).
 */
export function withProgress(race, { player, progress, board }) {
  let found = false;
  const racers = (race.racers ?? []).map((racer) => {
    if (playerId(racer) !== player) return racer;
    found = true;
    const next = { ...racer, progress: { ...racer.progress, ...progress } };
    if (board !== undefined && board !== null) next.board = board;
    return next;
  });
  return found ? { ...race, racers } : race;
}

/** Your own progress from your game as the move endpoint returned it, in the socket's words. */
export function progressOf(game) {
  const status = game.status === "unfinished" ? "out_of_time" : game.status;
  return {
    placed: game.moves_played ?? 0,
    stock: game.stock ?? 0,
    face_down: game.face_down ?? 0,
    status,
    score: game.score ?? null,
  };
}

/** The racers by the place the server gave them when the race finished (docs/API.md, the
 *  ranking rule); any without a place yet last, in the race's order. */
export function ranking(race, me) {
  return lanes(race, me).sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity) || a.order - b.order);
}

/** What a lane says of a racer, as keys and parameters of the race's strings. */
export function laneWords(lane) {
  if (lane.status === "won") return { key: "race.lane.won", params: { n: lane.score ?? 0 } };
  if (lane.status === "lost") return { key: "race.lane.lost", params: { n: lane.placed } };
  if (lane.status === "out_of_time") return { key: "race.lane.out_of_time", params: { n: lane.placed } };
  return { key: "race.lane.playing", params: { n: lane.placed } };
}

/** Whether `me` is one of the race's racers (an invitee watching the waiting room is not). */
export const isRacer = (race, me) => (race.racers ?? []).some((racer) => playerId(racer) === me);
export const isHost = (race, me) => race.host?.id === me;
/** Whether the host may start it now: waiting, with at least two racers. */
export const canStart = (race, me) => isHost(race, me) && race.status === "waiting"
  && (race.racers ?? []).length >= LIMITS.minPlayers;
export const isFull = (race) => (race.racers ?? []).length >= race.players;
/** Whether your own game is over (you may watch the others' boards). */
export const yourGameOver = (race, me) => {
  const lane = lanes(race, me).find((item) => item.you);
  return Boolean(lane && lane.status !== "playing");
};

/** The invitation's link on this origin: the race's `link`, /races/join/<code>, a path the
 *  server sends on to the join screen (/#/races/join/<code>). */
export const joinLink = (origin, race) => (race.link ? new URL(race.link, origin).href : "");

/** A code as typed or pasted: a whole link gives its code; spaces and dashes go, letters are
 *  capitals (the server reads the rest of Crockford's alphabet itself). */
export const codeFrom = (text) => codeFromText(text, "races/join");

/** The bot's reference on the race's deal: "pending" until its job is done. */
export function botLine(race) {
  const bot = race.bot;
  if (!bot || !bot.status) return { key: "race.bot.pending", params: {} };
  if (bot.status === "won") return { key: "race.bot.won", params: { n: bot.score ?? 0 } };
  return { key: "race.bot.lost", params: {} };
}

/** A list of races (GET /races) split for the list screen: open ones first, then the rest. */
export function listSections(races) {
  const open = races.filter((race) => ["waiting", "countdown", "playing"].includes(race.status));
  const done = races.filter((race) => !open.includes(race));
  return { open, done };
}
