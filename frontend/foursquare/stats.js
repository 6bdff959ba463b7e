// Foursquare's part of your statistics (GET /players/me/stats): dailies played, win rate,
// streaks, the distribution of your winning scores and your latest dailies; then your races
// (run, won, your best place).

import { h } from "../lib/dom.js";
import { current, t } from "../i18n.js";
import { barChart } from "../components/bar-chart.js";

export function foursquareStats(data) {
  const { number, percent } = current();
  const tiles = [
    ["played", number(data.played)],
    ["win_rate", data.win_percent === null ? "–" : percent(data.win_percent / 100)],
    ["current_streak", number(data.current_win_streak)],
    ["best_streak", number(data.longest_win_streak)],
    ["played_streak", number(data.current_played_streak)],
    ["best_played_streak", number(data.longest_played_streak)],
  ];
  return [
    h("dl", { class: "stat-tiles" }, tiles.map(([name, value]) =>
      h("div", { class: "stat-tile", dataset: { stat: name } }, h("dt", {}, t(`stats.${name}`)), h("dd", {}, value)))),
    data.played === 0 ? h("p", { class: "lead" }, t("stats.none")) : null,
    barChart(data.distribution ?? {}, { caption: t("stats.distribution") }),
    data.races?.played ? [
      h("h2", {}, t("stats.races")),
      h("dl", { class: "stat-tiles", id: "race-stats" }, [
        ["races_played", number(data.races.played)],
        ["races_won", number(data.races.won)],
        ["races_best", data.races.best ? number(data.races.best) : "–"],
      ].map(([name, value]) => h("div", { class: "stat-tile", dataset: { stat: name } }, h("dt", {}, t(`stats.${name}`)), h("dd", {}, value)))),
    ] : null,
    data.recent?.length ? [
      h("h2", {}, t("stats.recent")),
      h("ul", { class: "recent" }, data.recent.map((game) => h("li", {},
        h("span", { class: "recent-day" }, current().list([t("game.daily_title", { number: game.number }), current().date(game.date, "medium")])),
        " — ",
        h("span", { class: `recent-${game.status}` }, game.status === "won"
          ? t(game.rank ? "stats.recent_won_rank" : "stats.recent_won", { n: game.score, rank: game.rank ?? 0 })
          : t(`stats.recent_${game.status}`))))),
    ] : null,
  ];
}
