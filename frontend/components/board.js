// The floating grid: piles from the API's `grid`, targets from its `legal_moves`, drawn in the
// smallest rectangle that holds them. Arrow keys move a single focus over the cells (the
// "roving tabindex" pattern) and Enter or Space places the current card on a target.

import { h } from "../lib/dom.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { cellLabel, key, layout, restingFocus, step } from "../model/grid.js";
import { cardBack, cardFace } from "./card.js";

/**
 * game: {grid, legal_moves, last_move?}. Options: onPlace(row, col) (omit for a read-only
 * board), focus {row, col} to start from, onFocus(position), label, and `animate` to play the
 * last move's landing and flips.
 */
export function renderBoard(game, { onPlace = null, focus = null, onFocus = () => {}, label, animate = false, highlight = null } = {}) {
  const grid = layout(game);
  const name = (code) => cardName(code, t);
  const landed = animate || highlight ? (highlight?.at ?? game.last_move?.at) : null;
  const flipped = new Set((animate || highlight ? (highlight?.flipped ?? game.last_move?.flipped ?? []) : []).map(([r, c]) => key(r, c)));
  let resting = restingFocus(grid, focus);

  const cells = new Map();
  const board = h("div", {
    class: ["board", onPlace ? "board-live" : "board-readonly"],
    role: "grid",
    "aria-label": label ?? t("board.label"),
    "aria-readonly": onPlace ? null : "true",
    style: { "--cols": grid.colCount, "--rows": grid.rowCount },
  }, grid.rows.map((line) => h("div", { class: "board-row", role: "row" }, line.map((cell) => {
    const pile = cell.pile;
    const isLanded = landed && landed[0] === cell.row && landed[1] === cell.col;
    const element = h("div", {
      class: [
        "cell",
        pile ? "cell-pile" : "cell-empty",
        pile && !pile.face_up ? "cell-down" : null,
        pile?.revealed ? "cell-revealed" : null,
        pile?.unknown ? "cell-unknown" : null,
        cell.target && onPlace ? "cell-target" : null,
        pile ? `height-${pile.height}` : null,
        // The last move stays marked (not only animated), for anyone who looked away or
        // prefers reduced motion: an outline on the card placed, a badge on each card turned.
        isLanded && animate ? "anim-land cell-last" : null,
        isLanded && !animate ? "cell-landed" : null,
        flipped.has(key(cell.row, cell.col)) ? (animate ? "anim-flip cell-flipped" : "cell-flipped") : null,
      ],
      role: "gridcell",
      tabindex: onPlace && resting && resting.row === cell.row && resting.col === cell.col ? "0" : "-1",
      "aria-label": cellLabel({ ...cell, target: cell.target && Boolean(onPlace) }, t, name),
      dataset: { row: cell.row, col: cell.col, target: cell.target && onPlace ? "true" : "false" },
    },
    pile ? cardView(pile) : cell.target && onPlace ? h("span", { class: "target-mark", "aria-hidden": "true" }, "+") : null,
    pile && pile.height > 1 ? h("span", { class: "height-badge", "aria-hidden": "true" }, current().number(pile.height)) : null,
    pile && cell.target && onPlace ? h("span", { class: "target-badge", "aria-hidden": "true" }, "+") : null);
    cells.set(key(cell.row, cell.col), element);
    return element;
  }))));

  if (!onPlace) return board;

  const moveFocus = (position) => {
    const from = cells.get(key(resting.row, resting.col));
    const to = cells.get(key(position.row, position.col));
    if (!to) return;
    if (from) from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
    resting = position;
    onFocus(position);
  };

  board.addEventListener("keydown", (event) => {
    if (!resting) return;
    if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(step(grid, resting, event.key, current().dir === "rtl"));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const cell = cells.get(key(resting.row, resting.col));
      if (cell?.dataset.target === "true") onPlace(resting.row, resting.col);
    }
  });
  board.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    const position = { row: Number(cell.dataset.row), col: Number(cell.dataset.col) };
    moveFocus(position);
    if (cell.dataset.target === "true") onPlace(position.row, position.col);
  });
  return board;
}

function cardView(pile) {
  if (pile.face_up && pile.card) return cardFace(pile.card, { label: false });
  if (pile.revealed && pile.card) return [cardFace(pile.card, { label: false }), h("span", { class: "revealed-mark", "aria-hidden": "true" })];
  return cardBack();
}

/** Puts keyboard focus back on the board's resting cell (after a redraw). */
export function focusBoard(board) {
  board?.querySelector('.cell[tabindex="0"]')?.focus();
}
