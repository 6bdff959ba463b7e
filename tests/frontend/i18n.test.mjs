// The translation tables: complete in every language, nothing empty, nothing left in English,
// the same placeholders and plural forms, and every key the code asks for exists.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { sources } from "./code-files.mjs";
import { LANGUAGES, createTranslator, direction, hasDateData, matchLanguage } from "../../frontend/i18n.js";

const FRONTEND = new URL("../../frontend/", import.meta.url).pathname;
const tables = Object.fromEntries(await Promise.all(LANGUAGES.map(async ({ code }) =>
  [code, (await import(`../../frontend/locales/${code}.js`)).default])));
const english = tables.en;
// The tables that join the app's (loadStrings): Spite & Malice's table and its lobby's, and
// Foursquare's for a finished game's screens and its races', and the fairness line's.
const load = async (path) => (await import(path)).default;
const gameTables = {
  "foursquare/locales/en.js": await load("../../frontend/foursquare/locales/en.js"),
  "spitemalice/locales/en.js": await load("../../frontend/spitemalice/locales/en.js"),
  "spitemalice/locales/lobby-en.js": await load("../../frontend/spitemalice/locales/lobby-en.js"),
  "foursquare/races/locales/en.js": await load("../../frontend/foursquare/races/locales/en.js"),
  "fairness/locales/en.js": await load("../../frontend/fairness/locales/en.js"),
};

// Values that are the same in every language: names, and pure notation.
const UNTRANSLATED = new Set(["app.name", "meter.short", "list.separator", "games.foursquare"]);

const placeholders = (value) => {
  const texts = typeof value === "string" ? [value] : Object.values(value);
  return texts.map((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(","));
};

for (const { code } of LANGUAGES.filter(({ code }) => code !== "en")) {
  test(`${code} has exactly the English keys`, () => {
    const missing = Object.keys(english).filter((key) => !(key in tables[code]));
    const extra = Object.keys(tables[code]).filter((key) => !(key in english));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test(`${code} leaves nothing empty or in English`, () => {
    for (const [key, value] of Object.entries(tables[code])) {
      const texts = typeof value === "string" ? [value] : Object.values(value);
      for (const text of texts) assert.ok(text.trim(), `${code} ${key} is empty`);
      if (!UNTRANSLATED.has(key)) {
        assert.notDeepEqual(value, english[key], `${code} ${key} is still English`);
        // No Latin words left over: placeholders, "Foursquare" and the names printed on keys
        // (Enter) stay as they are.
        const latin = texts.join(" ").replace(/\{\w+\}/g, "").replace(/Foursquare|\bEnter\b|\d+/g, "");
        assert.doesNotMatch(latin, /[A-Za-z]{3,}/, `${code} ${key} has English words: ${texts}`);
      }
    }
  });

  test(`${code} keeps every placeholder`, () => {
    for (const [key, value] of Object.entries(tables[code])) {
      const wanted = new Set(placeholders(english[key]));
      for (const found of placeholders(value)) {
        assert.ok(wanted.has(found) || (typeof english[key] === "object"), `${code} ${key}: {${found}} vs {${[...wanted]}}`);
      }
      if (typeof english[key] === "object") {
        assert.equal(typeof value, "object", `${code} ${key} needs plural forms`);
        assert.ok("other" in value, `${code} ${key} has no "other" form`);
        const union = new Set(placeholders(english[key]).flatMap((names) => names.split(",")));
        for (const names of placeholders(value)) for (const name of names.split(",").filter(Boolean)) {
          assert.ok(union.has(name), `${code} ${key} invents {${name}}`);
        }
      }
    }
  });

  test(`${code} has a plural form for every category its language uses`, () => {
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const [key, value] of Object.entries(tables[code])) {
      if (typeof value !== "object") continue;
      for (const category of categories) assert.ok(category in value || "other" in value, `${code} ${key} ${category}`);
    }
  });
}

test("every key the code names exists in English, in the app's table or a game's", () => {
  const every = Object.assign({}, english, ...Object.values(gameTables));
  const used = new Set();
  for (const path of sources(FRONTEND)) {
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/\bt\(\s*"([a-z_]+\.[a-z0-9_.]+)"/g)) used.add(match[1]);
    // Keys built from a value: t(`stats.${name}`), t(`sm.clock.${seconds}`).
    for (const match of text.matchAll(/\bt\(\s*`([a-z_]+\.[a-z0-9_.]*)\$\{/g)) {
      assert.ok(Object.keys(every).some((key) => key.startsWith(match[1])), `no key starts with ${match[1]}`);
    }
  }
  assert.ok(used.size > 300, `found only ${used.size} keys`);
  const missing = [...used].filter((key) => !(key in every));
  assert.deepEqual(missing, []);
});

test("no key is in two tables, so a game's table joining the app's hides none", () => {
  const owners = new Map(Object.keys(english).map((key) => [key, "locales/en.js"]));
  const twice = [];
  for (const [name, table] of Object.entries(gameTables)) {
    for (const key of Object.keys(table)) {
      if (owners.has(key)) twice.push(`${key}: ${owners.get(key)}, ${name}`);
      else owners.set(key, name);
    }
  }
  assert.deepEqual(twice, []);
});

test("the browser's language picks a supported one, else English", () => {
  assert.equal(matchLanguage(["fa-IR", "en-US"]), "fa");
  assert.equal(matchLanguage(["de-DE", "bn-BD"]), "bn");
  assert.equal(matchLanguage(["ka"]), "ka");
  assert.equal(matchLanguage(["ml_IN"]), "ml");
  assert.equal(matchLanguage(["de", "fr"]), "en");
  assert.equal(matchLanguage([]), "en");
});

test("Persian is right to left; the others left to right", () => {
  assert.equal(direction("fa"), "rtl");
  for (const code of ["en", "ml", "ka", "bn"]) assert.equal(direction(code), "ltr");
});

test("a translator fills placeholders, picks plurals and formats numbers in its language", () => {
  const en = createTranslator("en", english);
  assert.equal(en.t("game.stock_aria", { n: 1 }), "1 card left in the stock");
  assert.equal(en.t("game.stock_aria", { n: 23 }), "23 cards left in the stock");
  assert.equal(en.t("no.such.key"), "no.such.key");
  const fa = createTranslator("fa", tables.fa);
  assert.equal(fa.number(123), "۱۲۳");
  assert.match(fa.t("game.daily_title", { number: 12 }), /۱۲/);
  const bn = createTranslator("bn", tables.bn);
  assert.equal(bn.number(7), "৭");
  assert.equal(en.percent(0.25), "25%");
  assert.equal(en.date("2026-11-29"), "November 29, 2026");
});

test("the card names read naturally in every language", () => {
  for (const { code } of LANGUAGES) {
    const { t } = createTranslator(code, tables[code]);
    const name = t("card.name", { rank: t("rank.7"), suit: t("suit.H") });
    assert.ok(name.includes(t("rank.7")) && name.includes(t("suit.H")), `${code}: ${name}`);
  }
});

test("Persian joins values with its own comma, never the dot that reads as its zero", () => {
  const fa = createTranslator("fa", tables.fa);
  assert.equal(fa.list([fa.number(4), fa.number(5), fa.number(7)]), "۴، ۵، ۷");
  assert.doesNotMatch(Object.values(tables.fa).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v))).join(" "), /·/);
  const en = createTranslator("en", english);
  assert.equal(en.list(["4", null, "5"]), "4 · 5");
});

test("a browser without a language's calendar data gets the table's dates, not English ones", () => {
  // A stand-in for a browser whose Intl lacks Georgian: it resolves every locale to en-US.
  const EnglishOnly = function () { return { resolvedOptions: () => ({ locale: "en-US" }) }; };
  assert.equal(hasDateData("ka", EnglishOnly), false);
  assert.equal(hasDateData("ka"), true);
  const ka = createTranslator("ka", tables.ka, { dateData: false });
  assert.equal(ka.date("2026-11-29"), "29 ნოემბერი, 2026");
  assert.equal(ka.date("2026-01-05", "medium"), "5 იანვარი, 2026");
  const fa = createTranslator("fa", tables.fa, { dateData: false });
  assert.equal(fa.date("2026-11-29"), "۲۹ نوامبر ۲۰۲۶");
  for (const { code } of LANGUAGES) {
    assert.equal(tables[code]["date.months"].split("|").length, 12, code);
    assert.match(createTranslator(code, tables[code], { dateData: false }).date("2026-03-09"), /\S/);
  }
});

test("a game's table joins the app's strings in the active language; a switch drops it until it loads again", async () => {
  const { loadLanguage, loadStrings, t } = await import("../../frontend/i18n.js");
  // Georgian has no module here: it gets English's, as moduleIn() gives any missing language.
  const GAME = {
    en: () => import("../../frontend/spitemalice/locales/en.js"),
    fa: () => import("../../frontend/spitemalice/locales/fa.js"),
  };
  const persian = await load("../../frontend/spitemalice/locales/fa.js");
  await loadLanguage("en");
  assert.equal(t("sm.you"), "sm.you"); // not loaded: the key itself
  await loadStrings(GAME);
  assert.equal(t("sm.you"), "You");
  assert.equal(t("app.name"), english["app.name"]);
  assert.equal(t("card.name", { rank: t("rank.12"), suit: t("suit.H") }), "queen of hearts"); // the app's words and the game's
  await loadLanguage("fa");
  assert.equal(t("sm.you"), "sm.you");
  await loadStrings(GAME);
  assert.equal(t("sm.you"), persian["sm.you"]);
  assert.equal(t("app.skip"), tables.fa["app.skip"]);
  await loadLanguage("ka");
  await loadStrings(GAME);
  assert.equal(t("sm.you"), "You");
  assert.equal(t("no.such.key"), "no.such.key");
});
