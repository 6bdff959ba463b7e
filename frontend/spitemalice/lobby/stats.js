// Spite & Malice's part of your statistics (GET /players/me/stats `spite_malice`): matches and
// games won, dailies, streaks, the rating from matches between people, the won dailies by points.
// The stats page and the profile show it under Foursquare's.

import { h } from "../../lib/dom.js";
import { current, t } from "../../i18n.js";
import { barChart } from "../../components/bar-chart.js";
import { loadLobbyStrings, lobbyStyles } from "./strings.js";

/** The rating as a sentence: what it is, how sure, from how many matches; or that there is none. */
export function ratingLine(rating) {
  if (!rating) return h("p", { class: "subtle", id: "sm-rating" }, t("sm.stats.no_rating"));
  return h("p", { id: "sm-rating" }, t(rating.provisional ? "sm.stats.rating_provisional" : "sm.stats.rating_line",
    { rating: rating.rating, deviation: rating.deviation, n: rating.matches }));
}

export async function spiteMaliceStats(sm) {
  await Promise.all([loadLobbyStrings(), lobbyStyles()]);
  const { number } = current();
  const tiles = [
    ["matches_played", number(sm.matches.played)],
    ["matches_won", number(sm.matches.won)],
    ["games_won", t("sm.stats.of", { n: sm.games.won, total: sm.games.played })],
    ["dailies_played", number(sm.dailies_played)],
    ["dailies_won", number(sm.dailies_won)],
    ["current_streak", number(sm.current_win_streak)],
    ["best_streak", number(sm.longest_win_streak)],
    ["rating", sm.rating ? number(sm.rating.rating) : "–"],
  ];
  const best = sm.best_daily;
  return h("section", { class: "sm-stats", id: "sm-stats", "aria-labelledby": "sm-stats-heading" },
    h("h2", { id: "sm-stats-heading" }, t("sm.lobby.title")),
    h("dl", { class: "stat-tiles" }, tiles.map(([name, value]) =>
      h("div", { class: "stat-tile", dataset: { stat: `sm-${name}` } }, h("dt", {}, t(`sm.stats.${name}`)), h("dd", {}, value)))),
    ratingLine(sm.rating),
    best ? h("p", { id: "sm-best-daily" }, t("sm.stats.best_daily", { number: best.number, date: current().date(best.date, "medium"), n: best.points })) : null,
    sm.dailies_won ? barChart(sm.distribution ?? {}, { caption: t("sm.stats.distribution") }) : null,
    h("p", { class: "actions" },
      h("a", { class: "button", href: "#/spite-malice" }, t("sm.lobby.yours")),
      h("a", { class: "button", href: "#/boards/spite-malice/ratings" }, t("sm.boards.ratings"))));
}
