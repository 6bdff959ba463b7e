// After a game: the bot's review. It is computed on the server in the background, so this asks
// again while the answer is "pending", then draws the win chance over the moves as a small SVG
// line chart and lists each move's verdict.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { polylinePoints, verdictTally, winChancePoints } from "../model/analysis.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 3000;
const MAX_POLLS = 60;
const WIDTH = 320;
const HEIGHT = 100;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children.filter(Boolean));
  return element;
}

const percent = (value) => current().percent(Number(value) || 0);

export function winChanceChart(analysis) {
  const points = winChancePoints(analysis.moves, { width: WIDTH, height: HEIGHT });
  const lostAt = analysis.win_lost_at;
  const marker = lostAt !== null && lostAt !== undefined && points[lostAt]
    ? svg("circle", { class: "analysis-lost-at", cx: points[lostAt][0], cy: points[lostAt][1], r: 4 })
    : null;
  const caption = t("analysis.chart_caption");
  return h("figure", { class: "analysis-chart" },
    h("figcaption", {}, caption),
    svg("svg", { viewBox: `-6 -6 ${WIDTH + 12} ${HEIGHT + 12}`, role: "img", "aria-label": caption, preserveAspectRatio: "none" },
      svg("line", { class: "analysis-axis", x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }),
      svg("rect", { class: "analysis-frame", x: 0, y: 0, width: WIDTH, height: HEIGHT }),
      svg("polyline", { class: "analysis-line", points: polylinePoints(points) }),
      marker),
    h("p", { class: "chart-axis subtle", "aria-hidden": "true" }, t("analysis.chart_axis")));
}

function moveList(analysis) {
  return h("ol", { class: "analysis-moves" }, analysis.moves.map((move) =>
    h("li", { class: ["analysis-move", `verdict-${move.verdict}`], dataset: { verdict: move.verdict } },
      h("span", { class: "analysis-card" }, t("analysis.move", { n: move.index + 1, card: move.card })),
      " ",
      h("strong", { class: "analysis-verdict" }, t(`analysis.verdict_${move.verdict}`)),
      " ",
      h("span", { class: "subtle" }, move.played[0] === move.best[0] && move.played[1] === move.best[1]
        ? t("analysis.chance", { percent: percent(move.played_estimate.win_probability) })
        : t("analysis.chance_vs_best", {
          percent: percent(move.played_estimate.win_probability),
          best: percent(move.best_estimate.win_probability),
        })))));
}

export function analysisView(analysis) {
  const rating = analysis.rating;
  const bot = analysis.bot;
  return [
    h("p", { class: "analysis-rating", id: "analysis-rating" },
      t("analysis.accuracy", { percent: percent(rating.accuracy / 100), label: t(`analysis.label_${rating.label}`) })),
    h("p", { class: "subtle" }, verdictTally(analysis.moves)
      .map(({ verdict, n }) => t(`analysis.count_${verdict}`, { n })).join(current().separator)),
    analysis.win_lost_at !== null && analysis.win_lost_at !== undefined
      ? h("p", { class: "analysis-lost" }, t(analysis.win_lost_at_proven ? "analysis.lost_at" : "analysis.lost_at_estimate",
        { n: analysis.win_lost_at + 1 })) : null,
    bot ? h("p", { class: "subtle" }, bot.status === "won"
      ? t("analysis.bot_won", { n: bot.score }) : t("analysis.bot_lost")) : null,
    winChanceChart(analysis),
    h("details", { class: "analysis-details" },
      h("summary", {}, t("analysis.every_move")),
      moveList(analysis)),
  ];
}

const wait = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** Fills `slot` with the game's analysis, asking again while the server is still at it. */
export async function renderAnalysis(slot, game, { signal } = {}) {
  const body = h("div", { class: "analysis-body", "aria-live": "polite" }, h("p", { class: "subtle" }, t("analysis.pending")));
  replace(slot, h("section", { class: "analysis", id: "analysis", "aria-labelledby": "analysis-heading" },
    h("h3", { id: "analysis-heading" }, t("analysis.title")), body));
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    let answer;
    try {
      answer = await api.analysis(game.id);
    } catch (error) {
      if (!signal?.aborted) replace(body, problemView(error, { role: "status" }));
      return;
    }
    if (signal?.aborted) return;
    if (answer?.status === "done") {
      replace(body, analysisView(answer));
      return;
    }
    await wait(POLL_MS, signal);
    if (signal?.aborted) return;
  }
  replace(body, h("p", { class: "subtle" }, t("analysis.later")));
}
