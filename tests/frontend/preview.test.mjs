// The server's move previews as the board uses them: keyed like cells, said in words, and read
// out with a target's name; and the share text's story of the face-down count.

import assert from "node:assert/strict";
import { test } from "node:test";

import { createTranslator } from "../../frontend/i18n.js";
import appEnglish from "../../frontend/locales/en.js";
import appPersian from "../../frontend/locales/fa.js";
import finishedEnglish from "../../frontend/foursquare/locales/en.js";
import finishedPersian from "../../frontend/foursquare/locales/fa.js";
import { cardName } from "../../frontend/model/cards.js";
import { cellLabel, findCell, key, layout, previewPhrases, previewsByCell } from "../../frontend/foursquare/model/grid.js";
import { shareText, story } from "../../frontend/foursquare/model/share.js";

// The app's tables and the ones a finished game's screens (the share text) add to them.
const english = { ...appEnglish, ...finishedEnglish };
const persian = { ...appPersian, ...finishedPersian };
const { t } = createTranslator("en", english);
const name = (code) => cardName(code, t);

const game = {
  grid: [{ row: 0, col: 0, height: 1, face_up: true, card: "5C" }, { row: 0, col: 1, height: 2, face_up: false, card: null }],
  legal_moves: [[0, 0], [0, 2], [1, 0]],
  previews: [
    { at: [0, 0], flipped: [[0, 1]], face_down: 0, status: "playing" },
    { at: [0, 2], flipped: [[0, 0], [0, 1]], face_down: 1, status: "playing" },
    { at: [1, 0], flipped: [], face_down: 5, status: "lost" },
  ],
  face_down: 1,
};

test("previews are keyed like the cells they are for", () => {
  const byCell = previewsByCell(game);
  assert.deepEqual([...byCell.keys()], [key(0, 0), key(0, 2), key(1, 0)]);
  assert.equal(byCell.get(key(0, 2)).flipped.length, 2);
  assert.equal(previewsByCell({ grid: [], legal_moves: [] }).size, 0);  // a replay's step has none
});

test("a preview in words: what turns, then the count after, a win or a loss", () => {
  assert.deepEqual(previewPhrases(game.previews[1], t), ["Turns 2 cards over", "1 face down after"]);
  assert.deepEqual(previewPhrases(game.previews[2], t), ["Turns nothing over", "This loses: 5 face down"]);
  assert.deepEqual(previewPhrases({ at: [0, 0], flipped: [[1, 1]], face_down: 0, status: "won" }, t),
    ["Turns 1 card over", "This wins the game"]);
  const fa = createTranslator("fa", persian).t;
  assert.match(previewPhrases(game.previews[1], fa)[0], /۲/);  // Persian digits
});

test("a target's name says what placing there would do", () => {
  const grid = layout(game);
  const byCell = previewsByCell(game);
  const cell = findCell(grid, 0, 2);
  assert.equal(cellLabel({ ...cell, preview: byCell.get(key(0, 2)) }, t, name),
    "Row 4, column 6: empty, you can place the card here. Turns 2 cards over. 1 face down after");
  // Not a target: no preview is read out, whatever is passed.
  const pile = findCell(grid, 0, 1);
  assert.equal(cellLabel({ ...pile, preview: byCell.get(key(0, 0)) }, t, name), "Row 4, column 5: face down, 2 cards");
});

test("the share story is a square per move by the face-down count, eight to a row", () => {
  assert.equal(story([0, 1, 2, 3, 4, 5, 0, 0, 1]), "🟩🟨🟨🟧🟥⬛🟩🟩\n🟨");
  const won = { mode: "daily", number: 4, status: "won", score: 20, grid: [] };
  const text = shareText(won, t, "https://example.org/", [0, 1, 0, 0]);
  assert.equal(text, "Foursquare #4 · won · 20 left\n🟩🟨🟩🟩\nhttps://example.org/");
  // Without the story (another device played part of it), the final grid's make-up.
  assert.match(shareText(won, t, "", null), /^Foursquare #4 · won · 20 left\n⬜⬜⬜⬜/);
});

test("lines of targets only, at the grid's edge, are slim; lines with a pile are full", () => {
  const grid = layout({
    grid: [{ row: 0, col: 0, height: 1, face_up: true, card: "5C" }],
    legal_moves: [[-1, 0], [0, -1], [0, 0], [0, 1], [1, 0]],
  });
  assert.deepEqual(grid.fullCols, [false, true, false]);
  assert.deepEqual(grid.fullRows, [false, true, false]);
  // The very first card: nothing on the table yet, the one target is a full cell.
  const first = layout({ grid: [], legal_moves: [[0, 0]] });
  assert.deepEqual([first.fullCols, first.fullRows], [[true], [true]]);
  assert.deepEqual(layout({ grid: [], legal_moves: [] }).fullCols, []);
});
