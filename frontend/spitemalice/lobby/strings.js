// What every lobby screen loads before it draws, so a Foursquare visitor downloads neither: the
// lobby's strings (its match list, new matches, invitations, boards, stats, rules and tutorial:
// ../locales/lobby-<lang>.js, keys sm.*, read with t() from ../../i18n.js) and its styles.

import { loadStrings } from "../../i18n.js";
import { loadStylesheet } from "../../lib/stylesheet.js";

// Literal import()s: only these are rewritten to the hashed file names (server/core/storage.py).
const TABLES = {
  en: () => import("../locales/lobby-en.js"),
  ml: () => import("../locales/lobby-ml.js"),
  ka: () => import("../locales/lobby-ka.js"),
  fa: () => import("../locales/lobby-fa.js"),
  bn: () => import("../locales/lobby-bn.js"),
};

/** Adds the lobby's strings in the current language (again after a switch). */
export const loadLobbyStrings = () => loadStrings(TABLES);

/** The lobby's styles, beside its modules; resolves once they apply. */
export const lobbyStyles = () => loadStylesheet(new URL("./lobby.css", import.meta.url));
