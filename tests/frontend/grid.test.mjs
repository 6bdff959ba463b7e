// Laying out the API's game object: piles and targets in the smallest rectangle, keyboard
// movement (mirrored right to left), the face-down meter and what is announced.

import assert from "node:assert/strict";
import { test } from "node:test";

import { createTranslator } from "../../frontend/i18n.js";
import english from "../../frontend/locales/en.js";
import { cardName, parseCard } from "../../frontend/model/cards.js";
import { cellLabel, findCell, layout, meter, moveAnnouncement, restingFocus, step } from "../../frontend/foursquare/model/grid.js";

const { t } = createTranslator("en", english);
const name = (code) => cardName(code, t);

const pile = (row, col, card, height = 1) => ({ row, col, height, face_up: card !== null, card });
const game = (grid, legal, extra = {}) => ({ grid, legal_moves: legal, face_down: grid.filter((p) => !p.face_up).length, ...extra });

test("the first move shows a single target", () => {
  const grid = layout(game([], [[0, 0]]));
  assert.equal(grid.rowCount, 1);
  assert.equal(grid.colCount, 1);
  assert.deepEqual(grid.cells.map((c) => [c.row, c.col, c.target, c.pile]), [[0, 0, true, null]]);
});

test("the rectangle holds every pile and every target, row by row", () => {
  const grid = layout(game([pile(0, 0, "4S"), pile(1, 0, null)], [[-1, 0], [0, -1], [0, 1], [1, 1], [2, 0], [0, 0]]));
  assert.equal(grid.rowCount, 4);
  assert.equal(grid.colCount, 3);
  assert.deepEqual(grid.rows[0].map((c) => c.col), [-1, 0, 1]);
  const first = findCell(grid, 0, 0);
  assert.equal(first.pile.card, "4S");
  assert.equal(first.target, true);
  assert.deepEqual([first.line, first.column], [2, 2]);
  assert.equal(findCell(grid, 1, 0).pile.face_up, false);
  assert.equal(findCell(grid, -1, -1).target, false);
});

test("targets are exactly the API's legal moves", () => {
  const legal = [[0, 1], [1, 0]];
  const grid = layout(game([pile(0, 0, "AS", 4)], legal));
  assert.deepEqual(grid.cells.filter((c) => c.target).map((c) => [c.row, c.col]), legal);
  assert.equal(findCell(grid, 0, 0).target, false);
});

test("a finished game has no targets", () => {
  assert.equal(layout(game([pile(0, 0, "AS")], [])).cells.filter((c) => c.target).length, 0);
  assert.deepEqual(layout(game([], [])).cells, []);
});

test("arrow keys move one cell and stop at the edges", () => {
  const grid = layout(game([pile(0, 0, "4S")], [[-1, 0], [0, -1], [0, 1], [1, 0]]));
  assert.deepEqual(step(grid, { row: 0, col: 0 }, "ArrowRight"), { row: 0, col: 1 });
  assert.deepEqual(step(grid, { row: 0, col: 0 }, "ArrowUp"), { row: -1, col: 0 });
  assert.deepEqual(step(grid, { row: 0, col: 1 }, "ArrowRight"), { row: 0, col: 1 });
  assert.deepEqual(step(grid, { row: 0, col: 0 }, "Enter"), { row: 0, col: 0 });
});

test("right to left, ArrowRight moves towards lower columns, as the board is mirrored", () => {
  const grid = layout(game([pile(0, 0, "4S")], [[0, -1], [0, 1]]));
  assert.deepEqual(step(grid, { row: 0, col: 0 }, "ArrowRight", true), { row: 0, col: -1 });
  assert.deepEqual(step(grid, { row: 0, col: 0 }, "ArrowLeft", true), { row: 0, col: 1 });
});

test("focus rests where it was, else on the first target", () => {
  const grid = layout(game([pile(0, 0, "4S")], [[0, 1], [1, 0]]));
  assert.deepEqual(restingFocus(grid, { row: 0, col: 0 }), { row: 0, col: 0 });
  assert.deepEqual(restingFocus(grid, { row: 5, col: 5 }), { row: 0, col: 1 });
  assert.deepEqual(restingFocus(grid, null), { row: 0, col: 1 });
});

test("the meter warns at four face-down piles, before the fifth loses", () => {
  assert.deepEqual(meter(0), { value: 0, max: 4, level: "ok" });
  assert.equal(meter(2).level, "ok");
  assert.equal(meter(3).level, "caution");
  assert.equal(meter(4).level, "danger");
  assert.equal(meter(5).level, "over");
});

test("cells are named for screen readers by place, card, height and whether you can play there", () => {
  const grid = layout(game([pile(0, 0, "7H", 2), pile(0, 1, null, 3)], [[0, 0], [0, 2]]));
  assert.equal(cellLabel(findCell(grid, 0, 0), t, name), "Row 4, column 4: seven of hearts, 2 cards. You can place the card on this pile");
  assert.equal(cellLabel(findCell(grid, 0, 1), t, name), "Row 4, column 5: face down, 3 cards");
  assert.equal(cellLabel(findCell(grid, 0, 2), t, name), "Row 4, column 6: empty, you can place the card here");
});

test("a place keeps its name as the grid grows: the first card is row 4, column 4 for good", () => {
  const early = layout(game([pile(0, 0, "7H")], [[0, 1], [-1, 0]]));
  const later = layout(game([pile(-2, -1, "2C"), pile(0, 0, "7H")], [[0, 1], [-1, 0]]));
  for (const grid of [early, later]) {
    assert.match(cellLabel(findCell(grid, 0, 0), t, name), /^Row 4, column 4: seven of hearts/);
    assert.match(cellLabel(findCell(grid, 0, 1), t, name), /^Row 4, column 5: /);
  }
  assert.match(cellLabel(findCell(later, -2, -1), t, name), /^Row 2, column 3: two of clubs/);
});

test("a move is announced with its card, place, flips, the meter and the next card", () => {
  const after = game([pile(0, 0, null), pile(1, 0, "TC")], [[1, 1]], {
    status: "playing", current_card: "3C", last_move: { card: "TC", at: [1, 0], flipped: [[0, 0]] },
  });
  assert.equal(moveAnnouncement(after, layout(after), t, name),
    "ten of clubs placed at row 5, column 4. 1 card turned over. Face-down piles: 1 of 4. Next card: three of clubs.");
});

test("cards parse from the API's codes and refuse anything else", () => {
  assert.deepEqual(parseCard("TH"), { code: "TH", rank: "T", suit: "H", value: 10, face: "10", symbol: "♥", colour: "red" });
  assert.equal(parseCard("AS").value, 1);
  for (const bad of ["", "1H", "TX", "THH", null]) assert.throws(() => parseCard(bad));
});
