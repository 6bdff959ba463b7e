// The bot's review of a finished game, shaped for the screen: the win chance of each move
// played as a line over the moves, and how many moves got each verdict.

import { stepAsGame } from "./replay.js";

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

/** The verdicts the chart marks and the list flags: the moves that cost a lot. */
export const MARKED_VERDICTS = ["mistake", "blunder"];

/** The chart's markers: each mistake or blunder, by its index in the game. */
export function chartMarkers(moves) {
  return moves.filter((move) => MARKED_VERDICTS.includes(move.verdict)).map((move) => ({ index: move.index, verdict: move.verdict }));
}

/**
 * The position a move was played from, as a game-like object the board can draw: the grid of
 * replay step `move.index` (replay.js: steps[k] is the grid after k moves), and the two cells
 * that matter, where the card went and where the bot would have put it, so the board's
 * rectangle holds both.
 */
export function positionBefore(steps, move) {
  const step = steps[move.index] ?? { piles: [] };
  const cells = [move.played, move.best].filter(Boolean);
  const unique = cells.filter((cell, i) => cells.findIndex((other) => other[0] === cell[0] && other[1] === cell[1]) === i);
  return {
    ...stepAsGame(step),
    legal_moves: unique.map(([row, col]) => [row, col]),
  };
}
