// The fairness line's and page's strings (frontend/fairness/locales/<lang>.js) and the "How we
// prove it" page in every language (frontend/fairness/pages/<lang>.js): every key, nothing empty
// or left in English, the same placeholders; each page in English's outline, its commands as
// typed; and every fair.* key the code names is in this table.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { sources } from "./code-files.mjs";
import { LANGUAGES } from "../../frontend/i18n.js";
import { COMMANDS } from "../../frontend/fairness/pages/commands.js";

const FRONTEND = new URL("../../frontend/", import.meta.url).pathname;
const load = async (kind, code) => (await import(`../../frontend/fairness/${kind}/${code}.js`)).default;
const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) => [code, await load("locales", code)])));
const pages = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) => [code, await load("pages", code)])));
const english = tables.en;
const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(",");
// Names and notation that stay as they are in every script.
const NOTATION = /\{\w+\}|SHA-256|HMAC-SHA256|Ed25519|UTC−12/g;

for (const { code } of LANGUAGES.filter(({ code }) => code !== "en")) {
  test(`fairness ${code}: exactly the English keys, nothing empty or in English, every placeholder`, () => {
    assert.deepEqual(Object.keys(tables[code]).sort(), Object.keys(english).sort());
    for (const [key, value] of Object.entries(tables[code])) {
      assert.ok(value.trim(), `${code} ${key} is empty`);
      assert.notEqual(value, english[key], `${code} ${key} is still English`);
      assert.doesNotMatch(value.replace(NOTATION, ""), /[A-Za-z]{3,}/, `${code} ${key}`);
      assert.equal(names(value), names(english[key]), `${code} ${key}`);
    }
  });

  test(`"How we prove it" in ${code} keeps English's outline, in its own words`, () => {
    assert.deepEqual(pages[code].map(([kind, content]) => [kind, Array.isArray(content) ? content.length : 1]),
      pages.en.map(([kind, content]) => [kind, Array.isArray(content) ? content.length : 1]));
    for (const [index, [kind, content]] of pages[code].entries()) {
      if (kind === "pre") continue;
      const text = [content].flat().join(" ");
      assert.notEqual(text, [pages.en[index][1]].flat().join(" "), `${code} block ${index} is still English`);
      assert.doesNotMatch(text.replace(NOTATION, ""), /[A-Za-z]{3,}/, `${code} block ${index}`);
    }
  });
}

test("every page shows the verify commands as typed, for this server and these dates", () => {
  for (const { code } of LANGUAGES) {
    assert.deepEqual(pages[code].filter(([kind]) => kind === "pre").map(([, content]) => content), [COMMANDS], code);
  }
  assert.match(COMMANDS, /^python -m foursquare verify --server \{server\} --from \{from\} --to \{to\}$/m);
  assert.match(COMMANDS, /^python -m spitemalice verify --record game\.json$/m);
});

test("Persian's fairness strings never use the dot that reads as its zero", () => {
  assert.doesNotMatch(Object.values(tables.fa).join(" ") + pages.fa.flat(2).join(" "), /·/);
});

test("every fair.* key the code names is in this table", () => {
  const used = new Set();
  for (const path of sources(FRONTEND)) {
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/"(fair\.[a-z_]+(?:\.[a-z0-9_]+)*)"/g)) used.add(match[1]);
    for (const match of text.matchAll(/\bt\(\s*`(fair\.[a-z_.]*)\$\{/g)) {
      assert.ok(Object.keys(english).some((key) => key.startsWith(match[1])), `no key starts with ${match[1]}`);
    }
  }
  assert.ok(used.size >= 10, `found only ${used.size} keys`);
  assert.deepEqual([...used].filter((key) => !(key in english)), []);
  // Every reason the check can give has its words (fairness/model.js).
  const model = readFileSync(new URL("../../frontend/fairness/model.js", import.meta.url), "utf8");
  for (const [, reason] of model.matchAll(/reason: "([a-z_]+)"/g)) assert.ok(`fair.why.${reason}` in english, reason);
});
