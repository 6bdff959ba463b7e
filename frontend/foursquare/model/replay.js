// Steps through a finished game's record (the deal and the moves, RULES.md "Game records").
// Which piles turned over at each move is what the server reported for that move while it was
// played (`last_move.flipped`, remembered on this device); the browser never works flips out.
// The final picture is the server's finished grid. Steps whose flips were not seen here show
// their cards without a face state.

import { findCell, key, layout } from "./grid.js";

/**
 * steps[0] is the empty grid; steps[k] is the grid after move k: piles with their cards
 * (bottom first), `faceUp` true/false, or null when unknown.
 */
export function replaySteps(record, flipsByMove = {}, finalGrid = null) {
  const piles = new Map();
  let known = true;
  const steps = [{ move: 0, card: null, at: null, flipped: [], piles: [], known: true, next: record.deck[0] ?? null }];
  record.moves.forEach(([row, col], index) => {
    const card = record.deck[index];
    const here = key(row, col);
    const pile = piles.get(here) ?? { row, col, cards: [], faceUp: true };
    pile.cards = [...pile.cards, card];
    pile.faceUp = known ? true : null;
    piles.set(here, pile);
    const flipped = flipsByMove[index] ?? null;
    if (flipped === null) known = false;
    for (const [r, c] of flipped ?? []) {
      const other = piles.get(key(r, c));
      if (other && other.faceUp !== null) other.faceUp = !other.faceUp;
    }
    if (!known) for (const p of piles.values()) p.faceUp = null;
    steps.push({
      move: index + 1,
      card,
      at: [row, col],
      flipped: flipped ?? [],
      known,
      piles: [...piles.values()].map((p) => ({ ...p, cards: [...p.cards] })),
      next: record.deck[index + 1] ?? null,
    });
  });
  if (finalGrid && steps.length > 1) {
    const last = steps[steps.length - 1];
    const faces = new Map(finalGrid.map((p) => [key(p.row, p.col), p.face_up]));
    last.piles = last.piles.map((p) => ({ ...p, faceUp: faces.get(key(p.row, p.col)) ?? p.faceUp }));
    last.known = true;
  }
  return steps;
}

/** A place as the board drawing `game` counts it, from 1: its row from the top of the grid and
 *  its column from its start. A board that stands still (a review's position, a replay's step)
 *  is named so, so its words and its picture agree; the live board keeps the fixed frame. */
export function drawnPlace(game, row, col) {
  const cell = findCell(layout(game), row, col);
  return cell ? { row: cell.line, col: cell.column } : null;
}

/** A step as a game-like object the board can draw: grid cells and no targets. */
export function stepAsGame(step) {
  return {
    grid: step.piles.map((p) => ({
      row: p.row,
      col: p.col,
      height: p.cards.length,
      face_up: p.faceUp !== false,
      card: p.cards[p.cards.length - 1],
      revealed: p.faceUp === false,
      unknown: p.faceUp === null,
    })),
    legal_moves: [],
  };
}
