// Foursquare's tables for a finished game's screens (frontend/foursquare/locales/<lang>.js):
// every language has every key, nothing empty or left in English, the same placeholders, and
// numbers in the language's digits. (i18n.test.mjs checks that the code's keys exist and that
// no key is in two tables.)

import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, createTranslator } from "../../frontend/i18n.js";

const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, (await import(`../../frontend/foursquare/locales/${code}.js`)).default])));
const english = tables.en;
// The game's name with its daily's number reads the same everywhere.
const SAME = new Set(["share.daily_name"]);
const texts = (value) => (typeof value === "string" ? [value] : Object.values(value));
const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(",");

for (const { code } of LANGUAGES.filter(({ code }) => code !== "en")) {
  test(`${code}: exactly the English keys`, () => {
    const missing = Object.keys(english).filter((key) => !(key in tables[code]));
    const extra = Object.keys(tables[code]).filter((key) => !(key in english));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test(`${code}: nothing empty, nothing in English, every placeholder kept`, () => {
    for (const [key, value] of Object.entries(tables[code])) {
      for (const text of texts(value)) assert.ok(text.trim(), `${code} ${key} is empty`);
      if (!SAME.has(key)) assert.notDeepEqual(value, english[key], `${code} ${key} is still English`);
      assert.doesNotMatch(texts(value).join(" ").replace(/\{\w+\}|Foursquare/g, ""), /[A-Za-z]{3,}/, `${code} ${key}`);
      assert.equal(typeof value, typeof english[key], `${code} ${key}: plural forms`);
      const wanted = new Set(texts(english[key]).map(names));
      for (const text of texts(value)) assert.ok(wanted.has(names(text)), `${code} ${key}: {${names(text)}}`);
    }
  });
}

test("the key's numbers are written in each language's digits", () => {
  for (const { code } of LANGUAGES) {
    const { t } = createTranslator(code, tables[code]);
    const digits = new Intl.NumberFormat(code).format(4);
    assert.ok(t("share.key_four", { n: 4 }).includes(digits), `${code}: ${t("share.key_four", { n: 4 })}`);
  }
});
