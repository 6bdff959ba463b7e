// The floating grid: piles from the API's `grid`, targets from its `legal_moves`, drawn in the
// smallest rectangle that holds them. Arrow keys move a single focus over the cells (the
// "roving tabindex" pattern) and Enter or Space places the current card on a target.
//
// What a placement would do is the server's `previews` (one per legal move): pointing at a
// target, or focusing it, shows the current card there and marks every pile it would turn
// over. On a touch screen the first tap on a target previews it and a second tap on the same
// target places the card; a mouse click places at once (hovering has already shown it).

import { h } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { cellLabel, key, layout, previewsByCell, restingFocus, step } from "./model/grid.js";
import { cardBack, cardFace, cardSlot, cardStack } from "../components/card.js";

/**
 * game: {grid, legal_moves, previews?, current_card?, last_move?}. Options: onPlace(row, col)
 * (omit for a read-only board), focus {row, col} to start from, onFocus(position),
 * onPreview(preview | null, {armed, refused}) when the previewed target changes, label,
 * `animate` to play the last move's landing and flips, `drawnPlaces` to name cells as drawn.
 */
export function renderBoard(game, {
  onPlace = null, focus = null, onFocus = () => {}, onPreview = () => {}, label, animate = false, highlight = null,
  drawnPlaces = false,
} = {}) {
  const grid = layout(game);
  const name = (code) => cardName(code, t);
  const previews = onPlace ? previewsByCell(game) : new Map();
  const landed = animate || highlight ? (highlight?.at ?? game.last_move?.at) : null;
  const flipped = new Set((animate || highlight ? (highlight?.flipped ?? game.last_move?.flipped ?? []) : []).map(([r, c]) => key(r, c)));
  let resting = restingFocus(grid, focus);

  const cells = new Map();
  const board = h("div", {
    class: ["board", onPlace ? "board-live" : "board-readonly"],
    role: "grid",
    "aria-label": label ?? t("board.label"),
    "aria-description": t(drawnPlaces ? "board.coordinates_drawn" : "board.coordinates"),
    "aria-readonly": onPlace ? null : "true",
    style: {
      "--cols": grid.colCount, "--rows": grid.rowCount,
      "--full-cols": grid.fullCols.filter(Boolean).length, "--slim-cols": grid.fullCols.filter((full) => !full).length,
      "--full-rows": grid.fullRows.filter(Boolean).length, "--slim-rows": grid.fullRows.filter((full) => !full).length,
      "grid-template-columns": grid.fullCols.map((full) => (full ? "var(--cell)" : "var(--cell-slim)")).join(" "),
      "grid-template-rows": grid.fullRows.map((full) => (full ? "var(--cell-h)" : "var(--cell-h-slim)")).join(" "),
    },
  }, grid.rows.map((line) => h("div", { class: "board-row", role: "row" }, line.map((cell) => {
    const pile = cell.pile;
    const here = key(cell.row, cell.col);
    const isLanded = landed && landed[0] === cell.row && landed[1] === cell.col;
    const isFlipped = flipped.has(here);
    const target = cell.target && Boolean(onPlace);
    const element = h("div", {
      class: [
        "cell",
        pile ? "cell-pile" : "cell-empty",
        grid.fullCols[cell.column - 1] && grid.fullRows[cell.line - 1] ? null : "cell-slim",
        pile && !pile.face_up ? "cell-down" : null,
        pile?.revealed ? "cell-revealed" : null,
        pile?.unknown ? "cell-unknown" : null,
        target ? "cell-target" : null,
        pile ? `height-${pile.height}` : null,
        // The last move stays marked (not only animated), for anyone who looked away or
        // prefers reduced motion: a tag on the card placed, a tag on each card turned.
        isLanded ? "cell-landed" : null,
        isLanded && animate ? "anim-land" : null,
        isFlipped ? "cell-flipped" : null,
        isFlipped && animate ? "anim-flip" : null,
      ],
      role: "gridcell",
      tabindex: onPlace && resting && resting.row === cell.row && resting.col === cell.col ? "0" : "-1",
      // The tags the cell shows are in its name too (what is seen is what is said).
      "aria-label": [cellLabel({ ...cell, target, preview: previews.get(here) ?? null }, t, name,
        drawnPlaces ? t("cell.where", { row: cell.line, col: cell.column }) : undefined),
      isLanded ? t("board.tag_placed") : null, isFlipped ? t("board.tag_turned") : null].filter(Boolean).join(". "),
      dataset: { row: cell.row, col: cell.col, target: target ? "true" : "false" },
    },
    pile ? cardStack(cardView(pile), { height: pile.height }) : cardSlot({ className: target ? "slot-target" : "" }),
    target && pile ? h("span", { class: "target-dot", "aria-hidden": "true" }) : null,
    isLanded ? h("span", { class: "cell-tag tag-placed", "aria-hidden": "true" }, t("board.tag_placed")) : null,
    isFlipped ? h("span", { class: "cell-tag tag-turned", "aria-hidden": "true" }, icon("turn"), " ", t("board.tag_turned")) : null);
    cells.set(here, element);
    return element;
  }))));

  if (!onPlace) return board;

  // --- The preview: one target at a time ----------------------------------------------------
  let shown = null; // key of the previewed target
  let armed = null; // key of the target a touch has previewed: the next tap on it places
  const marks = [];

  function clearPreview() {
    for (const mark of marks.splice(0)) mark.remove();
    for (const element of board.querySelectorAll(".cell-previewed, .cell-will-turn")) {
      element.classList.remove("cell-previewed", "cell-will-turn", "cell-will-hide", "cell-will-show");
      if (element.dataset.label) element.setAttribute("aria-label", element.dataset.label);
      delete element.dataset.label;
    }
    board.classList.remove("board-previewing");
    shown = null;
  }

  function showPreview(position, { touch = false, refused = false } = {}) {
    const here = position ? key(position.row, position.col) : null;
    const preview = here ? previews.get(here) ?? null : null;
    if (here === shown && !refused && (touch ? armed === here : true)) return;
    clearPreview();
    armed = touch && preview ? here : null;
    if (preview) {
      shown = here;
      board.classList.add("board-previewing");
      const cell = cells.get(here);
      cell.classList.add("cell-previewed");
      if (game.current_card) {
        const ghost = h("span", { class: "ghost", "aria-hidden": "true" }, cardFace(game.current_card, { label: false }));
        cell.append(ghost);
        marks.push(ghost);
      }
      for (const [row, col] of preview.flipped) {
        const other = cells.get(key(row, col));
        if (!other) continue;
        const up = other.classList.contains("cell-down");
        other.classList.add("cell-will-turn", up ? "cell-will-show" : "cell-will-hide");
        const mark = h("span", { class: "turn-mark", "aria-hidden": "true" },
          h("span", { class: "turn-mark-icon" }, icon("turn")), t(up ? "board.will_show" : "board.will_hide"));
        other.append(mark);
        marks.push(mark);
        // Its mark's words join its name while they show.
        other.dataset.label = other.getAttribute("aria-label");
        other.setAttribute("aria-label", `${other.dataset.label}. ${t(up ? "board.will_show" : "board.will_hide")}`);
      }
    }
    onPreview(preview, { armed: Boolean(armed), refused, touch });
  }

  const positionOf = (cell) => ({ row: Number(cell.dataset.row), col: Number(cell.dataset.col) });

  const moveFocus = (position) => {
    const from = cells.get(key(resting.row, resting.col));
    const to = cells.get(key(position.row, position.col));
    if (!to) return;
    if (from) from.tabIndex = -1;
    to.tabIndex = 0;
    resting = position;
    to.focus();
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
      else showPreview(resting, { refused: true });
    }
  });
  board.addEventListener("focusin", (event) => {
    // Focus put back after a redraw (focusBoard) is quiet: the last move's marks stay in view
    // until the player moves on.
    if (board.dataset.quiet) { delete board.dataset.quiet; return; }
    const cell = event.target.closest?.(".cell");
    if (cell && !pointerDown) showPreview(positionOf(cell));
  });
  board.addEventListener("focusout", (event) => {
    if (!board.contains(event.relatedTarget) && !hovering) { clearPreview(); onPreview(null, {}); }
  });

  let hovering = false;
  let pointerDown = false;
  let lastPointer = "mouse";
  // A moving pointer, not one resting where the last click was when the board is redrawn
  // under it: the last move's marks stay until the player looks elsewhere.
  board.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "mouse" && event.pointerType !== "pen") return;
    const cell = event.target.closest(".cell");
    if (!cell) return;
    hovering = true;
    showPreview(positionOf(cell));
  });
  board.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "mouse" && event.pointerType !== "pen") return;
    hovering = false;
    // Back to the keyboard's cell if the board has focus, else nothing.
    if (board.contains(document.activeElement)) showPreview(resting);
    else { clearPreview(); onPreview(null, {}); }
  });
  board.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
    pointerDown = true;
  });
  board.addEventListener("click", (event) => {
    pointerDown = false;
    const cell = event.target.closest(".cell");
    if (!cell) return;
    const position = positionOf(cell);
    const here = key(position.row, position.col);
    const touch = lastPointer === "touch";
    lastPointer = "mouse"; // a keyboard "click" that follows is not a touch
    moveFocus(position);
    if (cell.dataset.target !== "true") {
      showPreview(position, { touch, refused: true });
      return;
    }
    if (touch && armed !== here && previews.has(here)) {
      showPreview(position, { touch: true });  // first tap: see what it would do
      return;
    }
    onPlace(position.row, position.col);
  });
  return board;
}

function cardView(pile) {
  if (pile.face_up && pile.card) return cardFace(pile.card, { label: false });
  if (pile.revealed && pile.card) return cardFace(pile.card, { label: false, className: "card-revealed" });
  return cardBack();
}

/** Puts keyboard focus back on the board's resting cell (after a redraw), without a preview. */
export function focusBoard(board) {
  const cell = board?.querySelector('.cell[tabindex="0"]');
  if (!cell || cell === document.activeElement) return;
  board.dataset.quiet = "true";
  cell.focus();
  delete board.dataset.quiet;
}
