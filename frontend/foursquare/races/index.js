// Foursquare races, #/races/...: your races and a code to join (#/races), a new race
// (#/races/new), an invitation's link (#/races/join/<code>) and a race itself (#/races/<id>:
// its waiting room, countdown, race and result). None of it is in the first load: app.js
// reaches this by a literal import(), and the strings and styles come with the first screen.

import { loadStrings } from "../../i18n.js";
import { loadStylesheet } from "../../lib/stylesheet.js";
import { loadMoreStrings } from "../strings.js";

// Literal import()s, so the hashed file names are rewritten (server/core/storage.py).
const TABLES = {
  en: () => import("./locales/en.js"),
  ml: () => import("./locales/ml.js"),
  ka: () => import("./locales/ka.js"),
  fa: () => import("./locales/fa.js"),
  bn: () => import("./locales/bn.js"),
};
const STYLES = new URL("./races.css", import.meta.url);

const SCREENS = {
  "": () => import("./list.js"),
  new: () => import("./new.js"),
  join: () => import("./join.js"),
};

export default async function races(root, route, context) {
  const screen = SCREENS[route.parts[1] ?? ""] ?? (() => import("./room.js"));
  // The race screen shows a finished game's pieces too (its result's words, a still board's).
  const [module] = await Promise.all([screen(), loadStrings(TABLES), loadMoreStrings(), loadStylesheet(STYLES)]);
  if (context.signal.aborted) return;
  await module.default(root, route, context);
}
