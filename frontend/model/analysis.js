// The bot's review of a finished game, shaped for the screen: the win chance of each move
// played as a line over the moves, and how many moves got each verdict.

export const VERDICTS = ["best", "good", "inaccuracy", "mistake", "blunder"];

/**
 * The points of the win-chance line in a `width` × `height` box (y grows downwards): one point
 * per move, x spread evenly, y = 0 at the top for a sure win and `height` for no chance.
 */
export function winChancePoints(moves, { width = 300, height = 100 } = {}) {
  if (!moves.length) return [];
  const step = moves.length > 1 ? width / (moves.length - 1) : 0;
  return moves.map((move, index) => {
    const chance = Math.min(1, Math.max(0, Number(move.played_estimate?.win_probability) || 0));
    return [round(index * step), round((1 - chance) * height)];
  });
}

const round = (value) => Math.round(value * 10) / 10;

/** The `points` attribute of an SVG polyline. */
export const polylinePoints = (points) => points.map(([x, y]) => `${x},${y}`).join(" ");

/** How many moves got each verdict, in VERDICTS order, leaving out the ones none got. */
export function verdictTally(moves) {
  const counts = new Map(VERDICTS.map((verdict) => [verdict, 0]));
  for (const move of moves) if (counts.has(move.verdict)) counts.set(move.verdict, counts.get(move.verdict) + 1);
  return [...counts].filter(([, n]) => n > 0).map(([verdict, n]) => ({ verdict, n }));
}
