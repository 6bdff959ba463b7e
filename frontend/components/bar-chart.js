// A score distribution as a bar chart. Your bar is marked by a pattern and a "you" label, not by
// colour alone, and every bar has its numbers in words for screen readers. A score that is not
// among the bars' counts (`counted` false: an unranked win) is still marked, as "you (unranked)".

import { h } from "../lib/dom.js";
import { current, t } from "../i18n.js";
import { bars } from "../model/chart.js";

export function barChart(distribution, { mine = null, counted = true, caption }) {
  const data = bars(distribution, mine);
  if (data.length === 0) return h("p", { class: "subtle" }, t("chart.empty"));
  return h("figure", { class: "chart" },
    h("figcaption", {}, caption),
    h("ol", { class: "bars", style: { "--bars": data.length } }, data.map((bar) =>
      h("li", {
        class: ["bar", bar.mine ? "bar-mine" : null, bar.mine && !counted ? "bar-unranked" : null],
        "aria-label": t(bar.mine ? (counted ? "chart.bar_mine" : "chart.bar_mine_unranked") : "chart.bar", { n: bar.count, score: bar.score }),
        dataset: { score: bar.score, count: bar.count },
      },
      h("span", { class: "bar-count", "aria-hidden": "true" }, bar.count ? current().number(bar.count) : ""),
      h("span", { class: "bar-fill", style: { "--share": bar.share.toFixed(3) }, "aria-hidden": "true" }),
      h("span", { class: ["bar-score", data.length > 13 && bar.score % 4 !== 0 && !bar.mine ? "bar-score-minor" : null], "aria-hidden": "true" }, current().number(bar.score)),
      bar.mine ? h("span", { class: "bar-you", "aria-hidden": "true" }, t(counted ? "chart.you" : "chart.you_unranked")) : null))),
    h("p", { class: "chart-axis subtle", "aria-hidden": "true" }, t("chart.axis")));
}
