// Your statistics, #/stats: each game's part, Foursquare's (../foursquare/stats.js) and under
// it Spite & Malice's once you have played it (a module of its own, with its own strings).

import * as api from "../api.js";
import { h, loading, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { t } from "../i18n.js";

export default async function stats(root, route, { signal }) {
  const body = h("div", {}, loading());
  replace(root, h("section", { class: "page", "aria-labelledby": "stats-heading" }, h("h1", { id: "stats-heading" }, t("stats.title")), body));
  if (!api.hasToken()) {
    replace(body, h("p", { class: "lead" }, t("stats.none")), h("p", {}, h("a", { class: "button primary", href: "#/" }, t("today.play"))));
    return;
  }
  let data;
  let foursquareStats;
  try {
    [data, { foursquareStats }] = await Promise.all([api.stats(), import("../foursquare/stats.js")]);
  } catch (error) {
    if (!signal.aborted) replace(body, problemView(error));
    return;
  }
  if (signal.aborted) return;
  replace(body, foursquareStats(data));
  if (data.spite_malice) {
    const { spiteMaliceStats } = await import("../spitemalice/lobby/stats.js");
    const section = await spiteMaliceStats(data.spite_malice);
    if (signal.aborted) return;
    body.prepend(h("h2", { id: "fs-stats-heading" }, t("games.foursquare")));
    body.append(section);
  }
}
