// Spite & Malice's table strings (locales/<lang>.js, keys sm.* and the court cards' rank.11 to
// rank.13), loaded with the match screen so a Foursquare visitor never downloads them. They join
// the app's strings (card names, suits, errors), and every module reads both with t() from
// ../i18n.js. The lobby's strings load the same way (lobby/strings.js).

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
export const loadTableStrings = () => loadStrings(TABLES);
