// The match the API returns, laid out for the table: whose piles go where, which places may be
// chosen now (only the sources and targets of the API's legal_actions) and what each place is
// called. Pure: no DOM, tested with node --test. It decides no rule: every choice offered comes
// from legal_actions, every count from the server.

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SIDES = ["S0", "S1", "S2", "S3"];
export const CENTRES = ["C0", "C1", "C2"];

/** The table's data from a match: what the renderer draws (and what events change). */
export function viewOf(match) {
  const game = match.game;
  const you = match.you ?? 0;
  const seats = [0, 1].map((seat) => {
    const info = match.seats?.[seat] ?? {};
    const table = game?.seats?.[seat] ?? {};
    return {
      seat,
      name: info.player?.name ?? null,
      botAccount: info.player?.bot === true,
      bot: info.bot ?? null,
      score: info.score ?? 0,
      connected: info.connected ?? null,
      payoff: table.payoff ?? 0,
      payoffTop: table.payoff_top ?? null,
      hand: table.hand ?? 0,
      sides: (table.sides ?? [[], [], [], []]).map((stack) => [...stack]),
    };
  });
  return {
    you,
    game: game?.number ?? null,
    status: game?.status ?? null,
    turn: game?.turn ?? null,
    stock: game?.stock ?? 0,
    centre: (game?.centre ?? []).map((stack) => ({ size: stack.size, top: stack.top, next: stack.next })),
    seats,
    hand: [...(game?.hand ?? [])],
    legal: (game?.legal_actions ?? []).map(([source, target]) => [source, target]),
    target: match.target,
    winner: game?.winner ?? null,
    points: game?.points ?? null,
  };
}

/** The rank a centre stack's top card counts as: its own, or for a King the one it stands for
 *  (a stack of n cards was built up to rank n). Null on an empty stack. */
export function centreShows(stack) {
  if (!stack.size || !stack.top) return null;
  return stack.top[0] === "K" ? RANKS[stack.size - 1] : stack.top[0];
}

export function sourceKind(source) {
  if (source === "P") return "payoff";
  if (SIDES.includes(source)) return "side";
  return "hand";
}

/** The card a source holds out: the pay-off pile's top, a side stack's top, or the hand card
 *  itself (a hand source is its card's code). */
export function sourceCard(view, source) {
  if (source === "P") return view.seats[view.you].payoffTop;
  if (SIDES.includes(source)) return view.seats[view.you].sides[SIDES.indexOf(source)].at(-1) ?? null;
  return source;
}

/** The sources offered now, each with its targets, in the order the table shows them: the
 *  pay-off pile, the side stacks, then the hand as it lies. A card held twice is one source. */
export function choices(view) {
  const targets = new Map();
  for (const [source, target] of view.legal) {
    if (!targets.has(source)) targets.set(source, []);
    targets.get(source).push(target);
  }
  const order = ["P", ...SIDES, ...view.hand];
  const seen = new Set();
  const sources = [];
  for (const source of order) {
    if (!targets.has(source) || seen.has(source)) continue;
    seen.add(source);
    const list = targets.get(source);
    sources.push({
      source,
      kind: sourceKind(source),
      card: sourceCard(view, source),
      targets: [...CENTRES, ...SIDES].filter((target) => list.includes(target)),
      plays: list.some((target) => target.startsWith("C")),
      discards: list.some((target) => target.startsWith("S")),
    });
  }
  return sources;
}

/** The targets a source may go to, each marked as a play or the discard that ends the turn. */
export function targetsOf(view, source) {
  const found = choices(view).find((choice) => choice.source === source);
  return (found?.targets ?? []).map((target) => ({ target, discard: target.startsWith("S") }));
}

export function isLegal(view, source, target) {
  return view.legal.some(([s, t]) => s === source && t === target);
}

/** Seats as the table draws them: the opponent across (top), you nearest (bottom). */
export function seating(view) {
  const opponent = 1 - view.you;
  return { near: view.seats[view.you], far: view.seats[opponent] };
}

/** Keyboard steps through a list of places (arrow keys): wraps around; in right-to-left the
 *  inline arrows are mirrored, as the table is. */
export function step(places, currentId, key, { rtl = false } = {}) {
  if (!places.length) return null;
  const index = Math.max(0, places.indexOf(currentId));
  let delta = 0;
  if (key === "ArrowDown") delta = 1;
  else if (key === "ArrowUp") delta = -1;
  else if (key === "ArrowRight") delta = rtl ? -1 : 1;
  else if (key === "ArrowLeft") delta = rtl ? 1 : -1;
  else if (key === "Home") return places[0];
  else if (key === "End") return places.at(-1);
  else return null;
  return places[(index + delta + places.length) % places.length];
}

/** The match score toward its target, e.g. {mine: 12, theirs: 7, target: 50}. */
export function score(view) {
  return { mine: view.seats[view.you].score, theirs: view.seats[1 - view.you].score, target: view.target };
}

/** Seconds left until `deadline` (ISO) at `now` (ms), never below 0; null without a clock. */
export function secondsLeft(deadline, now = Date.now()) {
  if (!deadline) return null;
  return Math.max(0, Math.floor((Date.parse(deadline) - now) / 1000));
}

/** {days, hours, minutes, seconds} of a count of seconds, for a clock's words. */
export function clockParts(total) {
  return {
    days: Math.floor(total / 86400),
    hours: Math.floor((total % 86400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** A match no event can follow: played out, aborted before the first turns, or cancelled. */
export const isOver = (match) => ["finished", "aborted", "cancelled"].includes(match.status);

/** Whether a game's result is shown: one that ended in play, not one cut off by an abort. */
export const hasResult = (match, game) =>
  match.status !== "aborted" && Boolean(game) && !["playing", "aborted"].includes(game.status);

/** A friend match the server says is unrated: the table says so, quietly, beside its status. */
export const showsUnrated = (match) => match.mode === "friend" && match.rated === false;
