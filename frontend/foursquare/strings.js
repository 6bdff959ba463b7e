// Foursquare's strings that the first screen does not need (locales/<lang>.js): loaded by the
// result and a challenge link's page, so the first load carries only what it shows.

import { loadStrings } from "../i18n.js";

// Spelled out, not a template: only a literal import() is rewritten to the hashed file names
// (server/core/storage.py).
const TABLES = {
  en: () => import("./locales/en.js"),
  ml: () => import("./locales/ml.js"),
  ka: () => import("./locales/ka.js"),
  fa: () => import("./locales/fa.js"),
  bn: () => import("./locales/bn.js"),
};

/** Adds the table's strings in the current language (again after a switch). */
export const loadMoreStrings = () => loadStrings(TABLES);
