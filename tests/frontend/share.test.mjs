// The share text tells the result and gives no placement away; challenge links carry the deal
// and the challenger's game, whose result the server tells.

import assert from "node:assert/strict";
import { test } from "node:test";

import { createTranslator } from "../../frontend/i18n.js";
import english from "../../frontend/locales/en.js";
import finished from "../../frontend/foursquare/locales/en.js";
import { PICTURE_KEY, STORY_KEY, challengeLink, compareResults, picture, shareStrip, shareText } from "../../frontend/foursquare/model/share.js";

// The app's table and the one a finished game's screens add to it.
const { t } = createTranslator("en", { ...english, ...finished });
const pile = (row, col, up) => ({ row, col, height: 1, face_up: up, card: up ? "AS" : null });
const full = [];
for (let row = 0; row < 4; row += 1) for (let col = 0; col < 4; col += 1) full.push(pile(row, col, true));

test("a won daily: number, result, cards left and a full picture", () => {
  const text = shareText({ mode: "daily", number: 123, status: "won", score: 9, grid: full }, t, "https://example.org/");
  assert.equal(text, "Foursquare #123 · won · 9 left\n🟦🟦🟦🟦\n🟦🟦🟦🟦\n🟦🟦🟦🟦\n🟦🟦🟦🟦\nhttps://example.org/");
});

test("a lost game says how far it went and shows face-down piles, never where they were", () => {
  const grid = [pile(0, 0, true), pile(0, 1, false), pile(1, 1, true), pile(2, 1, false), pile(2, 2, false), pile(3, 2, false), pile(3, 3, false)];
  const text = shareText({ mode: "daily", number: 7, status: "lost", score: null, moves_played: 9, grid }, t);
  assert.equal(text, "Foursquare #7 · lost after 9 cards\n🟦🟦🟧🟧\n🟧🟧🟧⬜\n⬜⬜⬜⬜\n⬜⬜⬜⬜");
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
  const fa = createTranslator("fa", {
    ...(await import("../../frontend/locales/fa.js")).default,
    ...(await import("../../frontend/foursquare/locales/fa.js")).default,
  });
  const text = shareText({ mode: "daily", number: 4, status: "won", score: 5, grid: [] }, fa.t);
  assert.doesNotMatch(text.split("\n")[0], /·/);
  assert.match(text.split("\n")[0], /۴، /);
});

test("a loss on a full grid reads as a loss, not as a full score of piles", () => {
  const grid = full.map((p, index) => ({ ...p, face_up: index >= 5 }));
  const line = shareText({ mode: "practice", status: "lost", score: null, moves_played: 31, grid }, t).split("\n")[0];
  assert.equal(line, "Foursquare practice · lost after 31 cards");
  assert.doesNotMatch(line, /16|piles/);
  // Without a count from the server, the cards on the grid are the cards placed.
  assert.match(shareText({ mode: "practice", status: "lost", score: null, grid: [pile(0, 0, false)] }, t), /lost after 1 card\n/);
  const closed = shareText({ mode: "daily", number: 3, status: "unfinished", score: null, moves_played: 4, grid: [] }, t);
  assert.match(closed, /^Foursquare #3 · unfinished · 4 cards placed\n/);
});

test("every square the share text shows has a line in the key", () => {
  const counts = [0, 1, 2, 3, 4, 5];
  const storyText = shareText({ mode: "daily", number: 1, status: "lost", score: null, moves_played: 6, grid: [] }, t, "", counts);
  const storySymbols = new Set([...storyText.split("\n").slice(1).join("")]);
  assert.deepEqual([...storySymbols].filter((symbol) => !STORY_KEY.some((entry) => entry.symbol === symbol)), []);
  const pictureText = shareText({ mode: "daily", number: 1, status: "won", score: 2, grid: [pile(0, 0, true), pile(0, 1, false)] }, t);
  const pictureSymbols = new Set([...pictureText.split("\n").slice(1).join("")]);
  assert.deepEqual([...pictureSymbols].filter((symbol) => !PICTURE_KEY.some((entry) => entry.symbol === symbol)), []);
  // The key's words, with their numbers in the language's digits.
  assert.deepEqual(STORY_KEY.map((entry) => t(entry.key, entry.params)),
    ["no pile face down", "1 or 2 face down", "3 face down", "4 face down: one more loses", "5 or more face down: lost"]);
  assert.deepEqual(PICTURE_KEY.map((entry) => t(entry.key, entry.params)), ["a face-up pile", "a face-down pile", "an empty place"]);
});

test("the strip drawn on the page is the share text's squares, with their counts", async () => {
  const counts = [0, 1, 2, 3, 4, 3, 2, 1, 0, 5];
  const strip = shareStrip({ grid: [] }, counts);
  assert.equal(strip.kind, "story");
  assert.deepEqual(strip.rows.map((row) => row.length), [8, 2]);
  assert.deepEqual(strip.rows.flat().map((square) => square.count), counts);
  const squares = shareText({ mode: "practice", status: "lost", moves_played: 10, grid: [] }, t, "", counts).split("\n").slice(1).join("");
  const symbolOf = ["🟩", "🟨", "🟨", "🟧", "🟥", "⬛"];
  assert.deepEqual(strip.rows.flat().map((square) => symbolOf[square.level]), [...squares]);
  const drawn = shareStrip({ grid: [pile(0, 0, true), pile(0, 1, false)] }, null);
  assert.equal(drawn.kind, "picture");
  assert.deepEqual(drawn.rows.flat().map((square) => square.kind).slice(0, 3), ["up", "down", "empty"]);
  const fa = createTranslator("fa", (await import("../../frontend/foursquare/locales/fa.js")).default);
  assert.equal(fa.t(STORY_KEY[1].key, STORY_KEY[1].params), "۱ یا ۲ دستهٔ رو به پایین");
});
