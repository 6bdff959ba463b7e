// A page of a leaderboard as a table; your row is marked with a label and an outline, not only
// a colour. Week and all-time boards add the number of wins.

import { h } from "../lib/dom.js";
import { current, t } from "../i18n.js";

export function leaderboardTable(entries, { me = null, period = "day", caption } = {}) {
  if (!entries.length) return h("p", { class: "subtle empty-board" }, t("boards.empty"));
  const myId = me?.player?.id ?? null;
  const totals = period !== "day";
  return h("table", { class: "leaderboard" },
    caption ? h("caption", { class: "visually-hidden" }, caption) : null,
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("boards.rank")),
      h("th", { scope: "col" }, t("boards.player")),
      h("th", { scope: "col", class: "num" }, totals ? t("boards.total") : t("boards.score")),
      totals ? h("th", { scope: "col", class: "num" }, t("boards.wins")) : null)),
    h("tbody", {}, entries.map((entry) => {
      const mine = myId !== null && entry.player?.id === myId;
      return h("tr", { class: mine ? "mine" : null, "aria-current": mine ? "true" : null, dataset: { player: entry.player?.id ?? "" } },
        h("td", { class: "rank-cell" }, current().number(entry.rank)),
        h("th", { scope: "row", class: "name-cell" }, h("bdi", {}, entry.player?.name ?? ""), mine ? h("span", { class: "you-tag" }, t("boards.you")) : null),
        h("td", { class: "num" }, current().number(entry.score)),
        totals ? h("td", { class: "num" }, current().number(entry.wins ?? 0)) : null);
    })));
}
