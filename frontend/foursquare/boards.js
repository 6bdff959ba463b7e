// Foursquare's leaderboards, #/boards/day|week|all[?around=me]: a daily, its week, all time.
// Your row is marked; "around me" shows the players just above and below you; "show more"
// pages on. Spite & Malice's boards (#/boards/spite-malice/...) are its own screen.

import * as api from "../api.js";
import { h, loading, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { localDate } from "../model/time.js";
import { barChart } from "../components/bar-chart.js";
import { PERIODS, boardSpan, gameSwitch, referenceLine, standingLine } from "../components/board-parts.js";
import { leaderboardTable } from "../components/leaderboard-table.js";

const PAGE = 20;

export default async function boards(root, route, { signal }) {
  const period = PERIODS.includes(route.parts[1]) ? route.parts[1] : "day";
  const date = route.query.get("date") ?? localDate();
  const around = route.query.get("around") === "me" && api.hasToken();
  const tabs = h("nav", { class: "segmented", "aria-label": t("boards.periods") }, PERIODS.map((name) =>
    h("a", { href: `#/boards/${name}${around ? "?around=me" : ""}`, "aria-current": name === period ? "page" : null, dataset: { period: name } }, t(`boards.${name}`))));
  const view = api.hasToken() ? h("div", { class: "segmented", role: "group", "aria-label": t("boards.view") },
    h("a", { href: `#/boards/${period}`, "aria-current": around ? null : "page", id: "board-top" }, t("boards.top")),
    h("a", { href: `#/boards/${period}?around=me`, "aria-current": around ? "page" : null, id: "board-around" }, t("boards.around"))) : null;
  const body = h("div", { class: "board-body" }, loading());
  replace(root, h("section", { class: "page", "aria-labelledby": "boards-heading" },
    h("h1", { id: "boards-heading" }, t("boards.title")), gameSwitch("foursquare"), h("div", {}, tabs, " ", view), body));

  let board;
  try {
    board = await api.leaderboard({ period, date, limit: PAGE, around });
  } catch (error) {
    if (!signal.aborted) replace(body, error.status === 404 && error.code === "not_found" && !error.detail ? h("p", {}, t("boards.unavailable")) : problemView(error));
    return;
  }
  const claimed = board.standing?.ranked === false ? await api.me().then((me) => !me.guest, () => false) : false;
  if (signal.aborted) return;
  const table = h("div", { class: "table-slot" }, leaderboardTable(board.entries, { me: board.me, period, caption: boardSpan(board) }));
  const more = h("button", { type: "button", class: "button", id: "board-more", hidden: !board.next }, t("common.more"));
  let next = board.next;
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const page = await api.leaderboardNext(next);
      next = page.next;
      const rows = leaderboardTable(page.entries, { me: board.me, period }).querySelectorAll("tbody tr");
      table.querySelector("tbody")?.append(...rows);
      more.hidden = !next;
    } catch (error) {
      more.after(problemView(error));
    } finally {
      more.disabled = false;
    }
  });
  replace(body,
    h("p", { class: "board-span" }, boardSpan(board)),
    h("p", { class: "subtle" }, t("boards.counts", { n: board.players, winners: board.winners })),
    // A day's unranked win is shown where it would stand before it is told why it is not listed.
    standingLine(board.standing, { claimed, players: period === "day" ? board.players : null }),
    table,
    period === "day" ? referenceLine(board.reference) : null,
    h("div", { class: "actions" }, more),
    period === "day" ? barChart(board.distribution ?? {}, { mine: board.me?.score ?? null, caption: t("result.distribution", { date: current().date(board.date, "medium") }) }) : null);
  // The same day's Spite & Malice board, in short, beside this one.
  if (period === "day") {
    const { dayAside } = await import("../spitemalice/lobby/boards.js");
    const aside = await dayAside(board.date).catch(() => null);
    if (aside && !signal.aborted) body.append(aside);
  }
}
