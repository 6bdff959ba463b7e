// Marks on a drawn board's cells, set from outside the board: where a move went and where the
// bot would put (or would have put) the card. A mark is a tag with a shape and a word, and the
// cell's name says it too, so it never rests on colour alone.

import { h } from "../lib/dom.js";
import { icon } from "../lib/icons.js";

/** Marks the cell at (row, col) of `board` as `who`'s ("you" or "bot"); false if none is there. */
export function markCell(board, [row, col], who, label) {
  const cell = board?.querySelector(`.cell[data-row="${row}"][data-col="${col}"]`);
  if (!cell) return false;
  cell.classList.add(`cell-mark-${who}`);
  cell.dataset.mark = who;
  cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}. ${label}`);
  cell.append(h("span", { class: ["cell-mark", `cell-mark-tag-${who}`], "aria-hidden": "true" }, icon(who), label));
  return true;
}
