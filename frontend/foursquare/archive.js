// The archive: past dailies, replayed unranked once no time zone is still playing them. It says
// when the newest missing day joins (a date over here may still be today elsewhere), and marks
// the dailies you played, as a daily or from the archive.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { navigate } from "../lib/router.js";
import { current, t } from "../i18n.js";
import { addDays, datesBack, localDate } from "../model/time.js";

const PAGE = 30;

export default async function archive(root, route, { signal }) {
  const list = h("ul", { class: "archive-list" });
  const problems = h("div");
  const more = h("button", { type: "button", class: "button" }, t("common.more"));
  const pending = h("p", { class: "subtle archive-pending", id: "archive-pending" });
  replace(root, h("section", { class: "page", "aria-labelledby": "archive-heading" },
    h("h1", { id: "archive-heading" }, t("archive.title")),
    h("p", { class: "lead" }, t("archive.intro")),
    pending,
    problems, list, h("div", { class: "actions" }, more)));

  let today = { date: localDate(), number: null };
  try {
    const info = await api.daily(today.date);
    today = { date: info.date, number: info.number };
  } catch { /* without the daily's number, the list still works; the server says what is open */ }
  const played = await playedDailies();
  if (signal.aborted) return;
  // Dailies are archived once the date has ended everywhere on Earth (UTC−12 included).
  const oldestCurrent = new Date(Date.now() - 12 * 3600 * 1000).toISOString().slice(0, 10);
  // The oldest date still being played somewhere joins when it ends at UTC−12: 12:00 UTC the
  // day after it.
  const joins = new Date(Date.parse(`${addDays(oldestCurrent, 1)}T12:00:00Z`));
  replace(pending, t("archive.pending", { date: current().date(oldestCurrent), time: current().dateTime(joins.toISOString()) }));
  const launch = today.number ? addDays(today.date, 1 - today.number) : addDays(oldestCurrent, -365);
  let newest = addDays(oldestCurrent, -1);

  const numberOf = (date) => (today.number ? today.number - Math.round((Date.parse(today.date) - Date.parse(date)) / 86400000) : null);
  function page() {
    const dates = datesBack(launch, newest, PAGE);
    for (const date of dates) {
      const number = numberOf(date);
      const mine = played.get(date);
      const button = h("button", { type: "button", class: ["archive-item", mine ? `archive-played-${mine.status}` : null], dataset: mine ? { date, played: mine.status } : { date } },
        h("span", { class: "archive-number" }, number ? t("game.daily_title", { number }) : ""),
        h("span", { class: "archive-date" }, current().date(date)),
        mine ? h("span", { class: "archive-played" }, h("span", { class: "archive-played-mark", "aria-hidden": "true" }),
          mine.status === "won" ? t("archive.played_won", { n: mine.score })
            : t(`archive.played_${mine.status}`)) : null);
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const game = await api.startGame({ mode: "archive", date });
          navigate(`/game/${game.id}`);
        } catch (error) {
          button.disabled = false;
          replace(problems, problemView(error));
        }
      });
      list.append(h("li", {}, button));
    }
    newest = addDays(dates.at(-1) ?? launch, -1);
    more.hidden = dates.length < PAGE || newest < launch;
    if (!list.children.length) list.replaceWith(h("p", { class: "subtle" }, t("archive.empty")));
  }
  more.addEventListener("click", page);
  page();
}

/** Your dailies by date, as a daily or from the archive: the best result of each (a win over a
 *  loss, a finished game over one still being played). Nothing for a visitor without a token. */
async function playedDailies() {
  const byDate = new Map();
  if (!api.hasToken()) return byDate;
  let page;
  try {
    page = await api.games(100);
  } catch {
    return byDate;
  }
  const rank = (game) => ({ won: 3 + (game.score ?? 0) / 100, lost: 2, unfinished: 1, playing: 0 }[game.status] ?? 0);
  for (const game of page.results ?? []) {
    if (!game.date || (game.mode !== "daily" && game.mode !== "archive")) continue;
    const known = byDate.get(game.date);
    if (!known || rank(game) > rank(known)) byDate.set(game.date, { status: game.status, score: game.score });
  }
  return byDate;
}
