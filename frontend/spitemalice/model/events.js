// What an event of the match's feed (docs/API.md, "Events") does to the table on screen, so the
// table can show each step as it happened before it shows the server's state again. It moves
// the cards the event names from where it says to where it says; it decides nothing (no rule,
// no legality): the server already did. Pure, tested with node --test.

import { RANKS, SIDES } from "./table.js";

const clone = (view) => ({
  ...view,
  centre: view.centre.map((stack) => ({ ...stack })),
  seats: view.seats.map((seat) => ({ ...seat, sides: seat.sides.map((stack) => [...stack]) })),
  hand: [...view.hand],
  legal: [],
});

// A hand as the server lists it: by rank, then suit (clubs, diamonds, hearts, spades).
const SUITS = "CDHS";
const handOrder = (a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]);

function removeOne(list, card) {
  const index = list.indexOf(card);
  if (index >= 0) list.splice(index, 1);
}

/** The view after `event`; nothing is offered to play while events are being shown. */
export function applyEvent(view, event) {
  const next = clone(view);
  const seat = next.seats[event.seat] ?? null;
  switch (event.kind) {
    case "dealt":
      next.game = event.game;
      next.status = "playing";
      next.turn = event.starts;
      next.winner = null;
      next.points = null;
      next.centre = [0, 1, 2].map(() => ({ size: 0, top: null, next: "A" }));
      next.hand = [];
      next.seats.forEach((s, index) => {
        s.payoff = event.payoff[index];
        s.payoffTop = event.payoff_tops[index];
        s.hand = 0;
        s.sides = [[], [], [], []];
      });
      next.stock = 104 - event.payoff[0] - event.payoff[1];
      break;
    case "draw":
      seat.hand += event.count;
      next.stock = event.stock;
      if (event.seat === next.you && event.cards) next.hand = [...next.hand, ...event.cards].sort(handOrder);
      next.turn = event.seat;
      break;
    case "play":
    case "discard": {
      takeFrom(next, seat, event);
      if (event.to.startsWith("C")) {
        const stack = next.centre[Number(event.to[1])];
        stack.size += 1;
        stack.top = event.card;
        stack.next = RANKS[stack.size] ?? null;
      } else {
        seat.sides[SIDES.indexOf(event.to)].push(event.card);
      }
      if (event.kind === "discard") next.turn = 1 - event.seat;
      else next.turn = event.seat;
      break;
    }
    case "completed": {
      const stack = next.centre[Number(event.stack[1])];
      Object.assign(stack, { size: 0, top: null, next: "A" });
      next.stock = event.stock;
      break;
    }
    case "game_over":
      next.status = event.status;
      next.winner = event.winner;
      next.points = event.points;
      next.turn = null;
      event.scores?.forEach((points, index) => { next.seats[index].score = points; });
      break;
    case "match_over":
    case "resigned":
    case "timeout":
    case "aborted":
      next.turn = null;
      event.scores?.forEach((points, index) => { next.seats[index].score = points; });
      break;
    default:
      break;
  }
  return next;
}

function takeFrom(view, seat, event) {
  if (event.from === "P") {
    seat.payoff -= 1;
    seat.payoffTop = event.payoff_top ?? null;
  } else if (SIDES.includes(event.from)) {
    seat.sides[SIDES.indexOf(event.from)].pop();
  } else {
    seat.hand -= 1;
    if (seat.seat === view.you) removeOne(view.hand, event.card);
  }
}

/** Where an event's card leaves from and lands, as the table's place names ("0:P", "1:S2",
 *  "C1", "stock", "0:hand"), for the animation; null for an event that moves no card. */
export function motion(event) {
  const at = (place) => (place.startsWith("C") ? place : `${event.seat}:${SIDES.includes(place) || place === "P" ? place : "hand"}`);
  switch (event.kind) {
    case "play":
    case "discard":
      return { from: at(event.from), to: at(event.to), card: event.card };
    case "draw":
      return { from: "stock", to: `${event.seat}:hand`, card: null, count: event.count };
    case "completed":
      return { from: event.stack, to: "stock", card: null };
    default:
      return null;
  }
}

/**
 * What the event says in words, for the live region. `names` gives [seat 0's, seat 1's] as the
 * sentences read them ("You", "Ada", "The computer"); `card(code)` names a card.
 */
export function describe(event, { you, t, card, names }) {
  const who = names[event.seat] ?? "";
  const mine = event.seat === you;
  const place = (target) => placeName(target, t);
  switch (event.kind) {
    case "dealt":
      return t("sm.say.dealt", { game: event.game, who: names[event.starts] });
    case "draw":
      return mine && event.cards
        ? t("sm.say.you_drew", { n: event.count, cards: event.cards.map(card).join(", ") })
        : t("sm.say.they_drew", { who, n: event.count });
    case "play":
      return t(mine ? "sm.say.you_played" : "sm.say.they_played", {
        who, card: card(event.card), from: place(event.from), to: place(event.to),
        rank: t(`sm.rank.${event.as}`),
      });
    case "discard":
      return t(mine ? "sm.say.you_discarded" : "sm.say.they_discarded", { who, card: card(event.card), to: place(event.to) });
    case "completed":
      return t("sm.say.completed", { stack: place(event.stack), n: event.stock });
    case "game_over":
      if (event.status === "tied") return t("sm.say.game_tied", { game: event.game });
      return t(event.winner === you ? "sm.say.game_won" : "sm.say.game_lost", {
        game: event.game, n: event.points ?? 0, who: names[event.winner] ?? "",
        mine: event.scores?.[you] ?? 0, theirs: event.scores?.[1 - you] ?? 0,
      });
    case "match_over":
      if (event.winner === null || event.winner === undefined) return t("sm.say.match_tied");
      return t(event.winner === you ? "sm.say.match_won" : "sm.say.match_lost", {
        who: names[event.winner] ?? "", mine: event.scores?.[you] ?? 0, theirs: event.scores?.[1 - you] ?? 0,
      });
    case "resigned":
      return t(mine ? "sm.say.you_resigned" : "sm.say.they_resigned", { who });
    case "timeout":
      return t(mine ? "sm.say.you_timed_out" : "sm.say.they_timed_out", { who });
    case "joined":
      return t("sm.say.joined", { who: names[1] ?? "" });
    case "aborted":
      return t("sm.say.aborted", { why: t(abortedWhy({ reason: event.reason, seat: event.seat, you }), { who }) });
    default:
      return "";
  }
}

// How a match was aborted (before each seat had played its first turn), by its reason and
// whose doing it was: the `aborted` event names the seat, a match read later only the reason.
const ABORTED = {
  resigned: ["sm.aborted.you_resigned", "sm.aborted.they_resigned", "sm.aborted.resigned"],
  timeout: ["sm.aborted.you_timeout", "sm.aborted.they_timeout", "sm.aborted.timeout"],
  cancelled: ["sm.aborted.you_cancelled", "sm.aborted.they_cancelled", "sm.aborted.cancelled"],
};

/** The key of the sentence that says why a match was aborted; {who} names the other seat. */
export function abortedWhy({ reason, seat = null, you }) {
  const keys = ABORTED[reason];
  if (!keys) return "sm.aborted.other";
  if (seat === null || seat === undefined) return keys[2];
  return seat === you ? keys[0] : keys[1];
}

/** A place's name in words: "centre stack 2", "side stack 3", "pay-off pile", "hand". */
export function placeName(place, t) {
  if (place === "P") return t("sm.place.payoff");
  if (place.startsWith("C")) return t("sm.place.centre", { n: Number(place[1]) + 1 });
  if (SIDES.includes(place)) return t("sm.place.side", { n: Number(place[1]) + 1 });
  return t("sm.place.hand");
}
