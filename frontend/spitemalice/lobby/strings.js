// The lobby's strings (its match list, new matches, invitations, boards, stats, rules and
// tutorial), in tables of their own (../locales/lobby-<lang>.js) that load with the first lobby
// screen, so a Foursquare visitor never downloads them. lt(key, params) reads the table of the
// app's current language.

import { createTranslator, current, moduleIn } from "../../i18n.js";
import { loadStylesheet } from "../../lib/stylesheet.js";

// Literal import()s: only these are rewritten to the hashed file names (server/core/storage.py).
const TABLES = {
  en: () => import("../locales/lobby-en.js"),
  ml: () => import("../locales/lobby-ml.js"),
  ka: () => import("../locales/lobby-ka.js"),
  fa: () => import("../locales/lobby-fa.js"),
  bn: () => import("../locales/lobby-bn.js"),
};

let active = null;

/** Loads the current language's table (again after a switch). */
export async function loadLobbyStrings(lang = current().lang) {
  if (active?.lang !== lang) active = createTranslator(lang, await moduleIn(TABLES, lang));
  return active;
}

export function lt(key, params) {
  return active ? active.t(key, params) : key;
}

/** The lobby's styles, beside its modules; resolves once they apply. */
export const lobbyStyles = () => loadStylesheet(new URL("./lobby.css", import.meta.url));
