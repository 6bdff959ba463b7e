// Spite & Malice's own strings, in tables of their own (locales/<lang>.js) loaded only when a
// Spite & Malice screen opens, so a Foursquare visitor never downloads them. st(key, params)
// reads this game's table and falls back to the app's (card names, ranks and suits, errors).

import { createTranslator, current, moduleIn, t } from "../i18n.js";

// Spelled out, not a template: only a literal import() is rewritten to the hashed file names
// (server/core/storage.py).
const TABLES = {
  en: () => import("./locales/en.js"),
  ml: () => import("./locales/ml.js"),
  ka: () => import("./locales/ka.js"),
  fa: () => import("./locales/fa.js"),
  bn: () => import("./locales/bn.js"),
};

let active = createTranslator("en", {});

/** Loads the table of the app's current language (again after a switch); resolves to st. */
export async function loadTable(lang = current().lang) {
  if (active.lang !== lang || !active.has("sm.loaded")) {
    active = createTranslator(lang, await moduleIn(TABLES, lang));
  }
  return st;
}

/** A string of this game's table, else of the app's. */
export function st(key, params) {
  return active.has(key) ? active.t(key, params) : t(key, params);
}

/** The active translator of this game's table (numbers, lists). */
export function sm() {
  return active;
}
