// The archive: past dailies, replayed unranked once no time zone is still playing them.

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
  replace(root, h("section", { class: "page", "aria-labelledby": "archive-heading" },
    h("h1", { id: "archive-heading" }, t("archive.title")),
    h("p", { class: "lead" }, t("archive.intro")),
    problems, list, h("div", { class: "actions" }, more)));

  let today = { date: localDate(), number: null };
  try {
    const info = await api.daily(today.date);
    today = { date: info.date, number: info.number };
  } catch { /* without the daily's number, the list still works; the server says what is open */ }
  if (signal.aborted) return;
  // Dailies are archived once the date has ended everywhere on Earth (UTC−12 included).
  const oldestCurrent = new Date(Date.now() - 12 * 3600 * 1000).toISOString().slice(0, 10);
  const launch = today.number ? addDays(today.date, 1 - today.number) : addDays(oldestCurrent, -365);
  let newest = addDays(oldestCurrent, -1);

  const numberOf = (date) => (today.number ? today.number - Math.round((Date.parse(today.date) - Date.parse(date)) / 86400000) : null);
  function page() {
    const dates = datesBack(launch, newest, PAGE);
    for (const date of dates) {
      const number = numberOf(date);
      const button = h("button", { type: "button", class: "archive-item", dataset: { date } },
        h("span", { class: "archive-number" }, number ? t("game.daily_title", { number }) : ""),
        h("span", { class: "archive-date" }, current().date(date)));
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
