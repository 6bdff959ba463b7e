// The lobby's pure logic (node tests): the choices a new match offers, what a match in the list
// says about itself and in which order the list shows them, and a turn's time left as a clock.
// Which matches may be joined, cancelled or rematched is the server's to say; this only reads
// the match objects it returns.

import { codeFromText } from "../../lib/codes.js";
import { invitedYou, isYourTurn, opponent } from "./turns.js";

export const LEVELS = ["easy", "normal", "hard", "expert"];
export const TARGETS = [1, 25, 50];
/** A friend match's clock: seconds for each turn (docs/API.md), the server's default first. */
export const CLOCKS = [60, 3600, 86400, 259200];
export const DEFAULTS = { level: "normal", botTarget: 50, clock: 86400, friendTarget: 1 };

/** Why an invitee may decline (docs/API.md, "Challenges and seeks"), the server's default first:
 *  each is said by the lobby's key sm.decline.<reason>. */
export const DECLINE_REASONS = ["generic", "later", "too_fast", "too_slow", "too_long", "too_short", "rated", "casual", "no_bot", "only_bot"];

/** Slow clocks (a day or more for a turn) make a long match take months: suggest one game. */
export const suggestsSingleGame = (turnSeconds) => turnSeconds >= 86400;

/**
 * Where a match stands for you: "invited" (a league mate's invitation to you), "waiting" (your
 * invitation, nobody joined yet), "your_turn", "their_turn", "won", "lost", "tied", "aborted"
 * (ended before each seat had played its first turn: no winner, no rating change) or
 * "cancelled" (reason says why: cancelled, expired).
 */
export function matchState(match) {
  if (match.status === "waiting") return invitedYou(match) ? "invited" : "waiting";
  if (match.status === "cancelled") return "cancelled";
  if (match.status === "aborted") return "aborted";
  if (match.status === "finished") {
    if (match.winner === null || match.winner === undefined) return "tied";
    return match.winner === match.you ? "won" : "lost";
  }
  return isYourTurn(match) ? "your_turn" : "their_turn";
}

const ORDER = ["invited", "your_turn", "their_turn", "waiting", "won", "lost", "tied", "aborted", "cancelled"];
const active = (state) => ORDER.indexOf(state) < 4;

/**
 * The list as it is shown: what waits for you first (invitations, your turns, soonest deadline
 * first), then the rest going on, then finished ones as the server ordered them (latest first).
 */
export function sortMatches(matches) {
  const deadline = (match) => (match.deadline ? Date.parse(match.deadline) : Infinity);
  return matches
    .map((match, index) => ({ match, index, state: matchState(match) }))
    .sort((a, b) => {
      const rank = ORDER.indexOf(a.state) - ORDER.indexOf(b.state);
      if (rank) return rank;
      if (active(a.state)) return deadline(a.match) - deadline(b.match) || a.index - b.index;
      return a.index - b.index;
    })
    .map(({ match }) => match);
}

export const isActive = (match) => active(matchState(match));

/** How an aborted match ended (its `reason`), as the list says it; no winner to name. */
export const ABORTED_LINES = {
  resigned: "sm.list.aborted_resigned",
  timeout: "sm.list.aborted_timeout",
  cancelled: "sm.list.aborted_cancelled",
};
export const abortedLine = (match) => ABORTED_LINES[match.reason] ?? "sm.list.aborted";

/** A finished friend match offers a rematch until one is made (then it links to that one); an
 *  aborted one does not (the server makes rematches of finished matches only). */
export const canRematch = (match) => match.mode === "friend" && match.status === "finished" && !match.rematch;

/** Scores as [yours, theirs], whichever seat you sit in. */
export function scores(match) {
  const you = match.you === 1 ? 1 : 0;
  return [match.seats?.[you]?.score ?? 0, match.seats?.[1 - you]?.score ?? 0];
}

/** Seconds left as clock parts, for a ticking "2:05:09" or "1 d 04:10". */
export function clockParts(seconds) {
  const left = Math.max(0, Math.floor(seconds));
  return {
    days: Math.floor(left / 86400),
    hours: Math.floor((left % 86400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

export { opponent };

/** An invitation's code as typed or pasted: the code, or the link that carries it. */
export const invitationCode = (text) => codeFromText(text, "spite-malice/join");
