// Foursquare races' tables (frontend/foursquare/races/locales/<lang>.js): every language has
// every key, nothing empty or left in English, the same placeholders and plural forms, and
// every key the race screens name is in this table, the one they load.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { sources } from "./code-files.mjs";
import { LANGUAGES } from "../../frontend/i18n.js";

const RACES = new URL("../../frontend/foursquare/races/", import.meta.url).pathname;
const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, (await import(`../../frontend/foursquare/races/locales/${code}.js`)).default])));
const english = tables.en;
const texts = (value) => (typeof value === "string" ? [value] : Object.values(value));
const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(",");

for (const { code } of LANGUAGES.filter(({ code }) => code !== "en")) {
  test(`races ${code}: exactly the English keys`, () => {
    const missing = Object.keys(english).filter((key) => !(key in tables[code]));
    const extra = Object.keys(tables[code]).filter((key) => !(key in english));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test(`races ${code}: nothing empty, nothing in English, every placeholder and plural kept`, () => {
    for (const [key, value] of Object.entries(tables[code])) {
      for (const text of texts(value)) assert.ok(text.trim(), `${code} ${key} is empty`);
      assert.notDeepEqual(value, english[key], `${code} ${key} is still English`);
      assert.doesNotMatch(texts(value).join(" ").replace(/\{\w+\}|Foursquare/g, ""), /[A-Za-z]{3,}/, `${code} ${key}`);
      assert.equal(typeof value, typeof english[key], `${code} ${key}: plural forms`);
      if (typeof value === "object") assert.ok("other" in value, `${code} ${key} has no "other" form`);
      const wanted = new Set(texts(english[key]).map(names));
      for (const text of texts(value)) assert.ok(wanted.has(names(text)), `${code} ${key}: {${names(text)}}`);
    }
  });
}

test("Persian's race strings never use the dot that reads as its zero", () => {
  assert.doesNotMatch(Object.values(tables.fa).flatMap(texts).join(" "), /·/);
});

test("every race key the race screens name is in this table", () => {
  const used = new Set();
  for (const path of sources(RACES)) {
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/"(race\.[a-z_]+(?:\.[a-z0-9_]+)*)"/g)) used.add(match[1]);
    for (const match of text.matchAll(/\bt\(\s*`(race\.[a-z_.]*)\$\{/g)) {
      assert.ok(Object.keys(english).some((key) => key.startsWith(match[1])), `no key starts with ${match[1]}`);
    }
  }
  assert.ok(used.size > 60, `found only ${used.size} keys`);
  assert.deepEqual([...used].filter((key) => !(key in english)), []);
});
