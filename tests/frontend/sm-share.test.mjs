// The Spite & Malice daily's share text: its number and how it ended, never a card.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, createTranslator } from "../../frontend/i18n.js";
import { shareText } from "../../frontend/spitemalice/model/share.js";

const translator = async (code) => {
  const app = (await import(`../../frontend/locales/${code}.js`)).default;
  const game = (await import(`../../frontend/spitemalice/locales/${code}.js`)).default;
  return createTranslator(code, { ...app, ...game }).t;
};

test("a won daily says by how many, in the issue's words", async () => {
  const t = await translator("en");
  assert.equal(shareText({ number: 12, status: "won", winner: 0, you: 0, points: 7 }, t), "Spite & Malice #12 · won by 7");
  assert.equal(shareText({ number: 12, status: "won", winner: 1, you: 0, points: 3 }, t), "Spite & Malice #12 · lost by 3");
  assert.equal(shareText({ number: 3, status: "tied", winner: null, you: 0, points: 0 }, t), "Spite & Malice #3 · tied");
  assert.equal(shareText({ number: 3, status: "resigned", winner: 1, you: 0, points: 0 }, t, "https://x.test/"),
    "Spite & Malice #3 · lost by 0\nhttps://x.test/");
});

test("every language says it with its own digits and separator, and no card", async () => {
  for (const { code } of LANGUAGES) {
    const t = await translator(code);
    const text = shareText({ number: 12, status: "won", winner: 0, you: 0, points: 7 }, t);
    assert.ok(text.includes(new Intl.NumberFormat(code).format(7)), `${code}: ${text}`);
    assert.doesNotMatch(text, /\b[A2-9TJQK][CDHS]\b|[♣♦♥♠]/);
  }
  const fa = await translator("fa");
  assert.doesNotMatch(shareText({ number: 12, status: "won", winner: 0, you: 0, points: 7 }, fa), /·/);
});
