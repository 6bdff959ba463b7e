// Your statistics: dailies played, win rate, streaks, the distribution of your winning scores
// and your latest dailies.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { barChart } from "./bar-chart.js";
import { loading } from "./today.js";

export default async function stats(root, route, { signal }) {
  const body = h("div", {}, loading());
  replace(root, h("section", { class: "page", "aria-labelledby": "stats-heading" }, h("h1", { id: "stats-heading" }, t("stats.title")), body));
  if (!api.hasToken()) {
    replace(body, h("p", { class: "lead" }, t("stats.none")), h("p", {}, h("a", { class: "button primary", href: "#/" }, t("today.play"))));
    return;
  }
  let data;
  try {
    data = await api.stats();
  } catch (error) {
    if (!signal.aborted) replace(body, problemView(error));
    return;
  }
  if (signal.aborted) return;
  const { number, percent } = current();
  const tiles = [
    ["played", number(data.played)],
    ["win_rate", data.win_percent === null ? "–" : percent(data.win_percent / 100)],
    ["current_streak", number(data.current_win_streak)],
    ["best_streak", number(data.longest_win_streak)],
    ["played_streak", number(data.current_played_streak)],
    ["best_played_streak", number(data.longest_played_streak)],
  ];
  replace(body,
    h("dl", { class: "stat-tiles" }, tiles.map(([name, value]) =>
      h("div", { class: "stat-tile", dataset: { stat: name } }, h("dt", {}, t(`stats.${name}`)), h("dd", {}, value)))),
    data.played === 0 ? h("p", { class: "lead" }, t("stats.none")) : null,
    barChart(data.distribution ?? {}, { caption: t("stats.distribution") }),
    data.recent?.length ? [
      h("h2", {}, t("stats.recent")),
      h("ul", { class: "recent" }, data.recent.map((game) => h("li", {},
        h("span", { class: "recent-day" }, current().list([t("game.daily_title", { number: game.number }), current().date(game.date, "medium")])),
        " — ",
        h("span", { class: `recent-${game.status}` }, game.status === "won"
          ? t(game.rank ? "stats.recent_won_rank" : "stats.recent_won", { n: game.score, rank: game.rank ?? 0 })
          : t(`stats.recent_${game.status}`))))),
    ] : null);
  // The other game's statistics, under these (a module of its own, with its own strings).
  if (data.spite_malice) {
    const { spiteMaliceStats } = await import("../spitemalice/lobby/stats.js");
    const section = await spiteMaliceStats(data.spite_malice);
    if (signal.aborted) return;
    body.prepend(h("h2", { id: "fs-stats-heading" }, t("games.foursquare")));
    body.append(section);
  }
}
