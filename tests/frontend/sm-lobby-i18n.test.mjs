// The Spite & Malice lobby's tables (frontend/spitemalice/locales/lobby-<lang>.js): complete in
// every language, nothing empty or left in English, the same placeholders and plural forms, and
// every key the lobby's code asks for present; and its rules pages, in English's outline.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { LANGUAGES } from "../../frontend/i18n.js";

const LOBBY = new URL("../../frontend/spitemalice/lobby/", import.meta.url).pathname;
const load = async (path) => (await import(path)).default;
const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, await load(`../../frontend/spitemalice/locales/lobby-${code}.js`)])));
const english = tables.en;
const rules = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, await load(`../../frontend/spitemalice/rules/${code}.js`)])));
const outline = (blocks) => blocks.map(([kind, content]) => [kind, Array.isArray(content) ? content.length : 1]);

const texts = (value) => (typeof value === "string" ? [value] : Object.values(value));
const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(",");

for (const { code } of LANGUAGES.filter(({ code }) => code !== "en")) {
  test(`lobby ${code} has exactly the English keys`, () => {
    const missing = Object.keys(english).filter((key) => !(key in tables[code]));
    const extra = Object.keys(tables[code]).filter((key) => !(key in english));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test(`lobby ${code} leaves nothing empty or in English, and keeps the placeholders`, () => {
    for (const [key, value] of Object.entries(tables[code])) {
      for (const text of texts(value)) assert.ok(text.trim(), `${code} ${key} is empty`);
      assert.notDeepEqual(value, english[key], `${code} ${key} is still English`);
      const latin = texts(value).join(" ").replace(/\{\w+\}/g, "").replace(/Foursquare|Glicko-2/g, "");
      assert.doesNotMatch(latin, /[A-Za-z]{3,}/, `${code} ${key} has English words`);
      const wanted = new Set(texts(english[key]).map(names));
      for (const text of texts(value)) assert.ok(wanted.has(names(text)) || typeof english[key] === "object", `${code} ${key}: {${names(text)}}`);
      if (typeof english[key] === "object") {
        assert.equal(typeof value, "object", `${code} ${key} needs plural forms`);
        assert.ok("other" in value, `${code} ${key} has no "other" form`);
      }
    }
  });
}

for (const { code } of LANGUAGES) {
  test(`the Spite & Malice rules in ${code} keep English's outline, nothing empty`, () => {
    assert.deepEqual(outline(rules[code]), outline(rules.en));
    for (const [, content] of rules[code]) for (const text of [content].flat()) assert.ok(text.trim());
    if (code !== "en") assert.doesNotMatch(JSON.stringify(rules[code]), /[A-Za-z]{3,}/);
  });
}

test("every key the lobby's code and the home page's part name is in this table, the one they load", () => {
  const used = new Set();
  const sources = [...readdirSync(LOBBY).map((name) => join(LOBBY, name)), new URL("../../frontend/spitemalice/home-status.js", import.meta.url).pathname]
    .filter((path) => path.endsWith(".js"));
  for (const path of sources) {
    // Named anywhere, in a t() call or a table of keys (rated.js, model.js).
    for (const match of readFileSync(path, "utf8").matchAll(/"(sm\.[a-z_]+\.[a-z0-9_.]+)"/g)) used.add(match[1]);
    // Keys built from a value: t(`sm.bot.level_${level}`), t(`sm.clock.${seconds}`), t(`sm.list.${state}`).
    for (const match of readFileSync(path, "utf8").matchAll(/\bt\(\s*`(sm\.[a-z_]+\.[a-z0-9_]*)\$\{/g)) {
      assert.ok(Object.keys(english).some((key) => key.startsWith(match[1])), `no key starts with ${match[1]}`);
    }
  }
  assert.ok(used.size > 50, `found only ${used.size} keys`);
  assert.deepEqual([...used].filter((key) => !(key in english)), []);
});
