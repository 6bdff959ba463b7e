// The rules page says the same things in every language: same sections, same list lengths.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES } from "../../frontend/i18n.js";

const pages = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, (await import(`../../frontend/foursquare/rules/${code}.js`)).default])));
const shape = (blocks) => blocks.map(([kind, content]) => (Array.isArray(content) ? `${kind}:${content.length}` : kind));

for (const { code } of LANGUAGES) {
  test(`the ${code} rules follow the English outline and are written out`, () => {
    assert.deepEqual(shape(pages[code]), shape(pages.en));
    for (const [, content] of pages[code]) {
      for (const text of [content].flat()) assert.ok(text.trim().length > 1);
    }
    if (code !== "en") {
      const text = pages[code].flatMap(([, content]) => [content].flat()).join(" ");
      assert.doesNotMatch(text.replace(/Foursquare|Poker Squares|Reversi|Lights Out|Wil Su|\bEnter\b|\bTab\b/g, ""), /[A-Za-z]{4,}/);
    }
  });
}
