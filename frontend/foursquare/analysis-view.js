// After a game: the bot's review. It is computed on the server in the background, so this asks
// again while the answer is "pending", then draws the win chance over the moves (with axes and
// the mistakes marked) and lists every move; choosing one opens its position, with your
// placement and the bot's choice marked on the board, as a chess site's game review does.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { markCell } from "./cell-marks.js";
import { icon } from "../lib/icons.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { MARKED_VERDICTS, chartMarkers, polylinePoints, positionBefore, verdictTally, winChancePoints } from "./model/analysis.js";
import { drawnPlace, replaySteps } from "./model/replay.js";
import { renderBoard } from "./board.js";
import { cardFace } from "../components/card.js";
import { rememberedFlips } from "./game-screen.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 3000;
const MAX_POLLS = 60;
// The chart's drawing box, and the margins its axis labels sit in.
const WIDTH = 300;
const HEIGHT = 100;
const LEFT = 34;
const BOTTOM = 18;
const TOP = 8;
const RIGHT = 8;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

const percent = (value) => current().percent(Number(value) || 0);
const oneDecimal = (value) => new Intl.NumberFormat(current().lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
const moveNumber = (move) => current().number(move.index + 1);

/** The win chance after each move, 0–100% up the side and the moves along the bottom, with a
 *  shape on every mistake and blunder and a line at the move being looked at. */
export function winChanceChart(analysis, { selected = null, onSelect = null } = {}) {
  const moves = analysis.moves;
  const points = winChancePoints(moves, { width: WIDTH, height: HEIGHT });
  const at = (point) => [point[0] + LEFT, point[1] + TOP];
  const shifted = points.map(at);
  const caption = t("analysis.chart_caption");
  const ticks = [0, 0.5, 1].map((share) => {
    const y = TOP + (1 - share) * HEIGHT;
    return [
      svg("line", { class: share === 0.5 ? "analysis-axis" : "analysis-grid", x1: LEFT, y1: y, x2: LEFT + WIDTH, y2: y }),
      svg("text", { class: "analysis-tick", x: LEFT - 4, y: y + 3.5, "text-anchor": "end" }, percent(share)),
    ];
  });
  const last = moves.length;
  const xTicks = last ? [...new Set([1, Math.max(1, Math.round(last / 2)), last])].map((n) => {
    const [x] = shifted[n - 1];
    return svg("text", { class: "analysis-tick", x, y: TOP + HEIGHT + 13, "text-anchor": "middle" }, current().number(n));
  }) : [];
  const markers = chartMarkers(moves).map(({ index, verdict }) => {
    const [x, y] = shifted[index];
    const title = svg("title", {}, `${t("analysis.move_n", { n: index + 1 })}: ${t(`analysis.verdict_${verdict}`)}`);
    const shape = verdict === "blunder"
      ? svg("path", { class: "analysis-marker marker-blunder", d: `M${x} ${y - 5}l5 5-5 5-5-5z` }, title)
      : svg("circle", { class: "analysis-marker marker-mistake", cx: x, cy: y, r: 4 }, title);
    shape.dataset.index = String(index);
    if (onSelect) shape.addEventListener("click", () => onSelect(index));
    return shape;
  });
  const lostAt = analysis.win_lost_at;
  const lost = lostAt !== null && lostAt !== undefined && shifted[lostAt]
    ? svg("line", { class: "analysis-lost-at", x1: shifted[lostAt][0], y1: TOP, x2: shifted[lostAt][0], y2: TOP + HEIGHT })
    : null;
  const cursor = selected !== null && shifted[selected]
    ? svg("line", { class: "analysis-cursor", x1: shifted[selected][0], y1: TOP, x2: shifted[selected][0], y2: TOP + HEIGHT })
    : null;
  const counts = verdictTally(moves).filter(({ verdict }) => MARKED_VERDICTS.includes(verdict));
  return h("figure", { class: "analysis-chart" },
    h("figcaption", {}, caption),
    svg("svg", {
      viewBox: `0 0 ${LEFT + WIDTH + RIGHT} ${TOP + HEIGHT + BOTTOM}`, role: "img",
      "aria-label": current().list([caption, ...counts.map(({ verdict, n }) => t(`analysis.count_${verdict}`, { n }))]),
    },
    ticks, xTicks, lost,
    svg("rect", { class: "analysis-frame", x: LEFT, y: TOP, width: WIDTH, height: HEIGHT }),
    svg("polyline", { class: "analysis-line", points: polylinePoints(shifted) }),
    cursor, markers),
    h("p", { class: "chart-axis subtle", "aria-hidden": "true" }, t("analysis.chart_axis")),
    counts.length || lost ? h("p", { class: "analysis-legend subtle", "aria-hidden": "true" },
      counts.some(({ verdict }) => verdict === "mistake") ? h("span", { class: "legend-item" }, h("span", { class: "legend-mistake" }), t("analysis.verdict_mistake")) : null,
      counts.some(({ verdict }) => verdict === "blunder") ? h("span", { class: "legend-item" }, h("span", { class: "legend-blunder" }), t("analysis.verdict_blunder")) : null,
      lost ? h("span", { class: "legend-item" }, h("span", { class: "legend-lost" }), t("analysis.legend_lost")) : null) : null);
}

/** What a move's verdict rests on: the value it gave away against the bot's choice. */
function lossText(move) {
  if (move.forced) return t("analysis.forced");
  if (move.verdict === "best") return t("analysis.as_bot");
  // Rounded down, as the thresholds are "under": 3.96 is a mistake and reads 3.9, never 4.0.
  const lost = Math.floor(Math.max(0, Number(move.value_lost) || 0) * 10 + 1e-9) / 10;
  return t("analysis.value_lost", { value: oneDecimal(lost) });
}

function moveList(analysis, onSelect) {
  return h("ol", { class: "analysis-moves", "aria-label": t("analysis.every_move") }, analysis.moves.map((move) =>
    h("li", { class: ["analysis-move", `verdict-${move.verdict}`], dataset: { verdict: move.verdict, index: move.index } },
      h("button", {
        type: "button", class: "analysis-move-button", "aria-pressed": "false",
        dataset: { index: move.index },
        on: { click: () => onSelect(move.index) },
      },
      h("span", { class: "analysis-number" }, `${moveNumber(move)}.`),
      h("span", { class: "analysis-card" }, cardName(move.card, t)),
      h("span", { class: "analysis-verdict" },
        MARKED_VERDICTS.includes(move.verdict) ? icon("mistake", { className: "verdict-icon" }) : null,
        t(`analysis.verdict_${move.verdict}`)),
      h("span", { class: "analysis-loss subtle" }, lossText(move))))));
}

/** One move's position: the board before it, the card in hand, where it went and where the bot
 *  would have put it, and the numbers behind the verdict. */
function positionView(analysis, steps, index, { onSelect }) {
  const move = analysis.moves[index];
  const step = positionBefore(steps, move);
  const board = renderBoard(step, { label: t("analysis.position_board", { n: index + 1 }), drawnPlaces: true });
  const same = move.played[0] === move.best[0] && move.played[1] === move.best[1];
  // Named as the grid beside the words is drawn: rows from its top, columns from its start.
  const where = ([row, col]) => t("cell.where", drawnPlace(step, row, col));
  markCell(board, move.played, "you", t("analysis.you"));
  if (!same) markCell(board, move.best, "bot", t("analysis.bot"));
  const estimate = (e) => t("analysis.estimate", { percent: percent(e.win_probability), cards: oneDecimal(Number(e.expected_score) || 0) });
  const total = analysis.moves.length;
  const nav = (name, label, target) => h("button", {
    type: "button", class: "button icon", "aria-label": label, title: label, disabled: target < 0 || target >= total,
    dataset: { control: name }, on: { click: () => onSelect(target, { focus: name }) },
  }, icon(name));
  return h("div", { class: "analysis-position", id: "analysis-position", dataset: { index } },
    h("h4", { id: "analysis-position-heading", tabindex: "-1" },
      t("analysis.position_title", { n: index + 1, total, card: cardName(move.card, t) })),
    h("div", { class: "analysis-position-body" },
      h("div", { class: "analysis-position-hand" },
        h("span", { class: "label" }, t("analysis.to_place")),
        h("div", { class: "current-card" }, cardFace(move.card))),
      h("div", { class: "board-wrap analysis-board" }, board)),
    h("dl", { class: "analysis-facts" },
      h("div", {}, h("dt", {}, icon("you"), t("analysis.you")), h("dd", {}, current().list([where(move.played), estimate(move.played_estimate)]))),
      same ? null : h("div", {}, h("dt", {}, icon("bot"), t("analysis.bot")), h("dd", {}, current().list([where(move.best), estimate(move.best_estimate)]))),
      h("div", {}, h("dt", {}, t(`analysis.verdict_${move.verdict}`)), h("dd", {}, lossText(move)))),
    h("div", { class: "replay-controls", role: "group", "aria-label": t("analysis.moves_nav") },
      nav("previous", t("replay.previous"), index - 1),
      nav("next", t("replay.next"), index + 1)));
}

export function analysisView(analysis, { steps = null } = {}) {
  const rating = analysis.rating;
  const bot = analysis.bot;
  const chartSlot = h("div", { class: "analysis-chart-slot" });
  const positionSlot = h("div", { class: "analysis-position-slot" });
  let list = null;
  let selected = null;

  function select(index, { focus = "heading" } = {}) {
    if (index < 0 || index >= analysis.moves.length) return;
    selected = index;
    replace(chartSlot, winChanceChart(analysis, { selected, onSelect: select }));
    replace(positionSlot, positionView(analysis, steps, index, { onSelect: select }));
    for (const button of list.querySelectorAll(".analysis-move-button")) {
      const on = Number(button.dataset.index) === index;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.closest("li").classList.toggle("analysis-move-selected", on);
    }
    if (focus === "heading") positionSlot.querySelector("h4")?.focus({ preventScroll: true });
    else positionSlot.querySelector(`[data-control="${focus}"]:not([disabled])`)?.focus();
    positionSlot.scrollIntoView?.({ block: "nearest" });
  }

  list = moveList(analysis, (index) => select(index));
  replace(chartSlot, winChanceChart(analysis, { onSelect: steps ? select : null }));
  if (!steps) for (const button of list.querySelectorAll("button")) button.disabled = true;
  return [
    h("p", { class: "analysis-rating", id: "analysis-rating" },
      t("analysis.accuracy", { percent: percent(rating.accuracy / 100), label: t(`analysis.label_${rating.label}`) })),
    h("p", { class: "subtle" }, current().list(verdictTally(analysis.moves).map(({ verdict, n }) => t(`analysis.count_${verdict}`, { n })))),
    analysis.win_lost_at !== null && analysis.win_lost_at !== undefined
      ? h("p", { class: "analysis-lost" }, t(analysis.win_lost_at_proven ? "analysis.lost_at" : "analysis.lost_at_estimate",
        { n: analysis.win_lost_at + 1 })) : null,
    bot ? h("p", { class: "subtle" }, bot.status === "won"
      ? t("analysis.bot_won", { n: bot.score }) : t("analysis.bot_lost")) : null,
    chartSlot,
    h("p", { class: "subtle analysis-value-note" }, t("analysis.value_note", {
      ten: current().number(10), good: oneDecimal(0.5), inaccuracy: oneDecimal(1.5), mistake: current().number(4),
    })),
    h("div", { class: "analysis-review" },
      h("div", { class: "analysis-list-wrap" }, h("h4", {}, t("analysis.every_move")), list),
      positionSlot),
  ];
}

const wait = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** The positions the review opens: the moves it lists over the cards they placed, with the
 *  flips this device saw and the server's finished grid. */
export function reviewSteps(analysis, game) {
  const record = { deck: analysis.moves.map((move) => move.card), moves: analysis.moves.map((move) => move.played) };
  return replaySteps(record, rememberedFlips(game.id), game.grid);
}

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
      // Another of this player's analyses is being computed: this one starts after it.
      if (error.code !== "analysis_pending") {
        if (!signal?.aborted) replace(body, problemView(error, { role: "status" }));
        return;
      }
    }
    if (signal?.aborted) return;
    if (answer?.status === "done") {
      // The review is drawn once; what is read out is its first line, not every move.
      body.setAttribute("aria-live", "off");
      replace(body, analysisView(answer, { steps: reviewSteps(answer, game) }));
      return;
    }
    await wait(POLL_MS, signal);
    if (signal?.aborted) return;
  }
  replace(body, h("p", { class: "subtle" }, t("analysis.later")));
}
