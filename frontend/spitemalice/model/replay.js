// A finished game's positions, one per action, from its record (the deal, each action and what
// each step moved and drew, as the server laid it open: docs/API.md, "Records and hints"). It
// only moves the cards the record names; the rules were the server's. Pure, tested.

import { RANKS, SIDES } from "./table.js";

/** The table after the deal, in the shape viewOf() gives, both hands in sight. */
function start(record, you) {
  const { deal } = record;
  return {
    you,
    status: "playing",
    turn: null,
    stock: deal.stock.length,
    centre: [0, 1, 2].map(() => ({ size: 0, top: null, next: "A" })),
    piles: deal.payoff.map((pile) => [...pile]),
    hands: deal.hands.map((hand) => [...hand]),
    sides: [0, 1].map(() => [[], [], [], []]),
  };
}

function apply(position, action, step) {
  const next = {
    ...position,
    centre: position.centre.map((stack) => ({ ...stack })),
    piles: position.piles.map((pile) => [...pile]),
    hands: position.hands.map((hand) => [...hand]),
    sides: position.sides.map((stacks) => stacks.map((stack) => [...stack])),
  };
  const [source, target] = action;
  const seat = step.seat;
  if (source === "P") next.piles[seat].shift();
  else if (SIDES.includes(source)) next.sides[seat][SIDES.indexOf(source)].pop();
  else next.hands[seat].splice(next.hands[seat].indexOf(step.card), 1);
  if (target.startsWith("C")) {
    const stack = next.centre[Number(target[1])];
    if (step.completed) {
      next.stock += stack.size + 1;
      Object.assign(stack, { size: 0, top: null, next: "A" });
    } else {
      stack.size += 1;
      stack.top = step.card;
      stack.next = RANKS[stack.size] ?? null;
    }
  } else next.sides[seat][SIDES.indexOf(target)].push(step.card);
  step.drawn.forEach((cards, drawer) => {
    next.hands[drawer].push(...cards);
    next.stock -= cards.length;
  });
  next.turn = target.startsWith("C") ? seat : 1 - seat;
  return next;
}

/** Every position of the game: [after the deal, after action 1, ...]. */
export function positions(record, you = 0) {
  const list = [start(record, you)];
  record.actions.forEach((action, index) => list.push(apply(list.at(-1), action, record.steps[index])));
  const last = list.at(-1);
  last.status = record.status;
  last.turn = null;
  return list;
}

/** A position in the table's view shape, both hands shown face up. */
export function asView(position, { you = 0, names = [null, null], scores = [0, 0] } = {}) {
  return {
    you,
    status: position.status,
    turn: position.turn,
    stock: position.stock,
    centre: position.centre,
    seats: [0, 1].map((seat) => ({
      seat,
      name: names[seat],
      bot: null,
      score: scores[seat],
      connected: null,
      payoff: position.piles[seat].length,
      payoffTop: position.piles[seat][0] ?? null,
      hand: position.hands[seat].length,
      sides: position.sides[seat],
    })),
    hand: position.hands[you],
    farHand: position.hands[1 - you],
    legal: [],
  };
}

/** The positions where a turn has ended (after a discard, or the game's last action), in
 *  order: the replay's turn-by-turn steps. Position 0, the deal, comes before them all. */
export function turnEnds(record) {
  const ends = [];
  record.steps.forEach((step, index) => {
    const next = record.steps[index + 1];
    if (!next || next.seat !== step.seat) ends.push(index + 1);
  });
  return ends;
}

/** The position a turn step lands on from `index`: the next turn's end, or the one before. */
export function turnStep(ends, index, direction) {
  if (direction > 0) return ends.find((end) => end > index) ?? ends.at(-1) ?? index;
  return [...ends].reverse().find((end) => end < index) ?? 0;
}
