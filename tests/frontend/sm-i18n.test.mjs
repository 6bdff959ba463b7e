// Spite & Malice's match-screen tables (frontend/spitemalice/locales/<lang>.js): every language
// has every key, nothing empty or left in English, the same placeholders and plural forms, and
// every key the screen's code names exists in English.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { LANGUAGES, createTranslator } from "../../frontend/i18n.js";

const DIR = new URL("../../frontend/spitemalice/", import.meta.url).pathname;
const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, (await import(`../../frontend/spitemalice/locales/${code}.js`)).default])));
const english = tables.en;
// Notation that reads the same everywhere: a marker, a card index, a colon, a clock, an arrow
// (Persian points it the other way), a count of cards under a stack.
const SAME = new Set(["sm.centre_empty", "sm.prompt_target", "sm.stands_for", "sm.clock_minutes", "sm.log.from_to", "sm.under"]);

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
      if (!SAME.has(key)) {
        assert.notDeepEqual(value, english[key], `${code} ${key} is still English`);
        const latin = texts(value).join(" ").replace(/\{\w+\}/g, "");
        assert.doesNotMatch(latin, /[A-Za-z]{3,}/, `${code} ${key}: ${latin}`);
      }
      const wanted = new Set(texts(english[key]).map(names));
      const union = new Set(texts(english[key]).flatMap((text) => names(text).split(",")));
      for (const text of texts(value)) {
        if (typeof english[key] === "string") assert.ok(wanted.has(names(text)), `${code} ${key}: {${names(text)}}`);
        else for (const name of names(text).split(",").filter(Boolean)) assert.ok(union.has(name), `${code} ${key} invents {${name}}`);
      }
      assert.equal(typeof value, typeof english[key], `${code} ${key}: plural forms`);
      if (typeof value === "object") {
        assert.ok("other" in value);
        for (const category of new Intl.PluralRules(code).resolvedOptions().pluralCategories) {
          assert.ok(category in value || "other" in value, `${code} ${key} ${category}`);
        }
      }
    }
  });
}

test("Persian joins nothing with the dot that reads as its zero", () => {
  assert.doesNotMatch(Object.values(tables.fa).flatMap(texts).join(" "), /·/);
});

// The home page's part reads the lobby's table (sm-lobby-i18n.test.mjs), not this one.
const HOME = new Set(["home.js", "home-status.js"]);

test("every key the match screen names is in this table, the one it loads", () => {
  const files = [...readdirSync(DIR).filter((name) => name.endsWith(".js") && !HOME.has(name)).map((name) => DIR + name),
    ...readdirSync(`${DIR}model`).map((name) => `${DIR}model/${name}`)];
  const used = new Set();
  for (const path of files) {
    for (const match of readFileSync(path, "utf8").matchAll(/"(sm\.[a-z_]+(?:\.[a-z0-9_]+)*)"/g)) used.add(match[1]);
  }
  assert.ok(used.size > 80, `only ${used.size} keys found`);
  assert.deepEqual([...used].filter((key) => !(key in english)), []);
  // Ranks named from an event's "as" or a stack's "next": every rank code.
  for (const rank of "A23456789TJQK") assert.ok(`sm.rank.${rank}` in english);
});

test("the court cards have names in every language's card table", () => {
  for (const { code } of LANGUAGES) {
    const { t } = createTranslator(code, tables[code]);
    for (const value of [11, 12, 13]) assert.notEqual(t(`rank.${value}`), `rank.${value}`);
  }
});
