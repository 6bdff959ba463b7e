// The share text tells the result and gives no placement away; challenge links carry the deal
// and the challenger's game, whose result the server tells.

import assert from "node:assert/strict";
import { test } from "node:test";

import { createTranslator } from "../../frontend/i18n.js";
import english from "../../frontend/locales/en.js";
import { challengeLink, compareResults, picture, shareText } from "../../frontend/foursquare/model/share.js";

const { t } = createTranslator("en", english);
const pile = (row, col, up) => ({ row, col, height: 1, face_up: up, card: up ? "AS" : null });
const full = [];
for (let row = 0; row < 4; row += 1) for (let col = 0; col < 4; col += 1) full.push(pile(row, col, true));

test("a won daily: number, result, cards left and a full picture", () => {
  const text = shareText({ mode: "daily", number: 123, status: "won", score: 9, grid: full }, t, "https://example.org/");
  assert.equal(text, "Foursquare #123 · won · 9 left\n🟦🟦🟦🟦\n🟦🟦🟦🟦\n🟦🟦🟦🟦\n🟦🟦🟦🟦\nhttps://example.org/");
});

test("a lost game counts its piles and shows face-down ones, never where they were", () => {
  const grid = [pile(0, 0, true), pile(0, 1, false), pile(1, 1, true), pile(2, 1, false), pile(2, 2, false), pile(3, 2, false), pile(3, 3, false)];
  const text = shareText({ mode: "daily", number: 7, status: "lost", score: null, grid }, t);
  assert.equal(text, "Foursquare #7 · lost · 7/16 piles\n🟦🟦🟧🟧\n🟧🟧🟧⬜\n⬜⬜⬜⬜\n⬜⬜⬜⬜");
  // The same piles elsewhere on the grid give the same picture.
  const moved = grid.map((p, index) => ({ ...p, row: 3 - Math.floor(index / 4), col: index % 4 }));
  assert.equal(picture({ grid: moved }), picture({ grid }));
});

test("practice shares say so", () => {
  assert.match(shareText({ mode: "practice", number: null, status: "won", score: 0, grid: full }, t), /^Foursquare practice · won · 0 left/);
});

test("the share text names no card and no position", () => {
  const text = shareText({ mode: "daily", number: 1, status: "won", score: 3, grid: full }, t);
  assert.doesNotMatch(text, /\b(AS|[2-9TA][CDHS])\b|\(\d, ?\d\)/);
});

test("a challenge link carries the deal, the name and the game, never a result of its own", () => {
  const game = { id: "5b0c3a1e-0000-4000-8000-000000000001", deal: "k3m9x2p7q4rt", status: "won", score: 9 };
  const link = challengeLink("https://x.org", game, "Ada");
  assert.equal(link, "https://x.org/#/challenge/k3m9x2p7q4rt?by=Ada&g=5b0c3a1e-0000-4000-8000-000000000001");
  assert.doesNotMatch(link, /won|score|r=/);
});

test("a win beats a loss, more cards left beats fewer", () => {
  const won = (score) => ({ status: "won", score });
  const lost = { status: "lost", score: null };
  assert.equal(compareResults(won(0), lost), "you");
  assert.equal(compareResults(lost, won(2)), "them");
  assert.equal(compareResults(won(5), won(3)), "you");
  assert.equal(compareResults(won(3), won(3)), "tie");
  assert.equal(compareResults(lost, lost), "tie");
});

test("the Persian share text separates with its comma, not a dot that reads as zero", async () => {
  const fa = createTranslator("fa", (await import("../../frontend/locales/fa.js")).default);
  const text = shareText({ mode: "daily", number: 4, status: "won", score: 5, grid: [] }, fa.t);
  assert.doesNotMatch(text.split("\n")[0], /·/);
  assert.match(text.split("\n")[0], /۴، /);
});
