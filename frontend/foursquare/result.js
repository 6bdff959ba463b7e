// The end of a game: won or lost, the score, where you stand among today's players, the day's
// scores, sharing, a challenge link, the countdown to the next daily, the replay and the bot's
// review of the game.

import * as api from "../api.js";
import { announce, copyText, h, replace } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import { problemView } from "../lib/problems.js";
import { read } from "../prefs.js";
import { current, t } from "../i18n.js";
import { challengeLink, compareResults, shareStrip, shareText } from "./model/share.js";
import { renderAnalysis } from "./analysis-view.js";
import { rememberedStory } from "./game-screen.js";
import { barChart } from "../components/bar-chart.js";
import { countdown } from "./countdown.js";
import { toast } from "../components/toast.js";
import { loadStylesheet } from "../lib/stylesheet.js";
import { loadMoreStrings } from "./strings.js";

// Not in the first load: the result's own styles and strings come with it.
const STYLES = new URL("./result.css", import.meta.url);

export async function renderResult(slot, game, { signal } = {}) {
  await Promise.all([loadStylesheet(STYLES), loadMoreStrings()]);
  if (signal?.aborted) return;
  const won = game.status === "won";
  const standing = h("div", { class: "standing" });
  const chart = h("div", { class: "chart-slot" });
  const replaySlot = h("div", { class: "replay-slot" });
  const analysisSlot = h("div", { class: "analysis-slot" });
  const ranked = game.mode === "daily";
  // A daily's deal (today's or an archive's) was committed before it was played: checked here.
  const fairSlot = game.date && (ranked || game.mode === "archive") ? h("div", { class: "fair-slot" }) : null;
  if (fairSlot) import("./fairness.js").then(({ dailyLine }) => signal?.aborted || replace(fairSlot, dailyLine(game, { signal })));

  const shareButton = h("button", { type: "button", class: "button primary", id: "share" },
    icon("share"), t("result.share"));
  shareButton.addEventListener("click", async () => {
    const text = shareText(game, t, `${location.origin}/`, rememberedStory(game));
    const copied = await copyText(text);
    toast(copied ? t("result.copied") : t("result.copy_failed"));
    if (!copied) replace(preview, h("textarea", { class: "share-text", readonly: true, rows: 7, "aria-label": t("result.share") }, text));
  });
  const preview = h("div", { class: "share-preview" });

  const challengeButton = game.mode === "daily" ? null : h("button", { type: "button", class: "button", id: "challenge" }, t("result.challenge"));
  challengeButton?.addEventListener("click", async () => {
    let name = "";
    try { name = (await api.me()).name; } catch { /* the link works without a name */ }
    const link = challengeLink(location.origin, game, name);
    const copied = await copyText(link);
    toast(copied ? t("result.challenge_copied") : t("result.copy_failed"));
    replace(preview, h("input", { class: "share-text", readonly: true, value: link, "aria-label": t("result.challenge") }));
  });

  const replayButton = h("button", { type: "button", class: "button", id: "replay", "aria-expanded": "false" }, t("result.replay"));
  replayButton.addEventListener("click", async () => {
    if (replayButton.getAttribute("aria-expanded") === "true") {
      replayButton.setAttribute("aria-expanded", "false");
      replace(replaySlot);
      return;
    }
    replayButton.setAttribute("aria-expanded", "true");
    const { renderReplay } = await import("./replay-view.js");
    await renderReplay(replaySlot, game);
  });

  const challenge = read("challenges", {})[game.id];
  const title = t(`result.${game.status}_title`);
  const line = won ? t("result.won_line", { n: game.score })
    : game.status === "unfinished" ? t("result.unfinished_line")
      : t("result.lost_line", { n: game.face_down, piles: game.grid.length });
  // A win gets a moment: cards tossed up (none with reduced motion) and a star by the title.
  const celebration = won ? h("div", { class: "celebration", "aria-hidden": "true" },
    Array.from({ length: 15 }, (_, index) => h("span", { style: { "--i": index } }))) : null;
  const section = h("section", { class: ["result", won ? "result-won" : "result-lost"], "aria-labelledby": "result-heading" },
    celebration,
    h("h2", { id: "result-heading" }, won ? h("span", { class: "won-star", "aria-hidden": "true" }, icon("star")) : null, title),
    h("p", { class: "result-line" }, line),
    challenge ? comparison(game, challenge) : null,
    ranked ? standing : null,
    ranked ? chart : null,
    h("div", { class: "actions" }, shareButton, challengeButton, replayButton),
    preview,
    shareStripView(game, rememberedStory(game)),
    fairSlot,
    ranked ? countdown(signal) : null,
    replaySlot,
    analysisSlot);
  replace(slot, section);
  announce(`${title}. ${won || game.status === "unfinished" ? line : ""}`);
  section.querySelector("h2").tabIndex = -1;
  section.querySelector("h2").focus({ preventScroll: true });
  // The result comes first: bring it into view from the game's heading (the board is below).
  slot.closest(".game")?.querySelector(".game-head")?.scrollIntoView?.({ block: "start" });

  renderAnalysis(analysisSlot, game, { signal });  // it polls on its own: not awaited
  if (!ranked) return;
  replace(standing, h("p", { class: "subtle" }, t("common.loading")));
  try {
    const [board, me] = await Promise.all([
      api.leaderboard({ period: "day", date: game.date, limit: 10, around: true }),
      game.ranked === false ? api.me().catch(() => null) : null,
    ]);
    if (signal?.aborted) return;
    replace(standing, standingView(board, game, { claimed: me ? !me.guest : false }));
    const counted = board.standing?.ranked !== false && game.ranked !== false;
    // Your score is marked on the chart even when it is not among the ranked bars.
    replace(chart, barChart(board.distribution ?? {}, {
      mine: won ? game.score : null,
      counted,
      caption: t("result.distribution", { date: current().date(game.date, "medium") }),
    }));
  } catch (error) {
    if (signal?.aborted) return;
    replace(standing, error.status === 404 ? h("p", { class: "subtle" }, t("boards.unavailable")) : problemView(error, { role: "status" }));
    replace(chart);
  }
}

/**
 * Rank and percentile for a win; for a loss, where the player stands without a rank. A game not
 * on the global board says where its score would stand among the ranked players, then, calmly
 * and last, why it is not ranked (`claimed`: the account is saved, so it is not told to save it).
 */
export function standingView(board, game, { claimed = false } = {}) {
  const standing = board.standing ?? {};
  const rows = [];
  const percent = standing.better_than_percent;
  const unranked = standing.ranked === false || game.ranked === false;
  if (unranked) {
    if (game.status === "won" && standing.would_rank) {
      rows.push(h("p", { class: "rank rank-would", id: "would-rank" }, board.players
        ? t("result.would_rank", { rank: standing.would_rank, n: board.players }) : t("result.would_lead")));
      if (standing.would_better_than_percent !== null && standing.would_better_than_percent !== undefined) {
        rows.push(h("p", { class: "percentile", id: "percentile" },
          t("result.would_percentile", { percent: current().percent(standing.would_better_than_percent / 100) })));
      }
    } else if (game.status !== "won") {
      rows.push(h("p", { class: "rank no-rank", id: "rank" }, t("result.no_rank")));
    }
  } else if (game.status === "won" && standing.rank) {
    rows.push(h("p", { class: "rank", id: "rank" }, t("result.rank", { rank: standing.rank, n: board.winners })));
    // "Better than 0%" reads like a loss: a shared first place says so instead.
    if (percent) rows.push(h("p", { class: "percentile", id: "percentile" }, t("result.percentile", { percent: current().percent(percent / 100) })));
    else if (standing.rank === 1) rows.push(h("p", { class: "percentile", id: "percentile" }, t("result.top")));
  } else {
    rows.push(h("p", { class: "rank no-rank", id: "rank" }, t("result.no_rank")));
    if (percent) rows.push(h("p", { class: "percentile", id: "percentile" }, t("result.percentile_lost", { percent: current().percent(percent / 100) })));
  }
  rows.push(h("p", { class: "subtle today-counts" }, t("result.ranked_counts", { n: board.players, winners: board.winners })));
  if (unranked) {
    rows.push(h("p", { class: "subtle unranked-note", id: "unranked" },
      t(claimed ? "result.unranked_claimed" : "result.unranked_guest")));
  }
  return rows;
}

/** The squares the share text shows, drawn (not as emoji, which need a font) with a key that
 *  says what each one means; each square of the story carries its face-down count as well. */
export function shareStripView(game, counts) {
  const strip = shareStrip(game, counts);
  const story = strip.kind === "story";
  const intro = t(story ? "share.strip_story" : "share.strip_picture");
  const square = (item) => (story
    ? h("span", { class: ["share-square", `share-level-${item.level}`] }, current().number(item.count))
    : h("span", { class: ["share-square", `share-${item.kind}`] }));
  return h("figure", { class: "share-strip", id: "share-strip", dataset: { kind: strip.kind } },
    h("figcaption", {}, h("span", { class: "share-strip-title" }, t("share.strip_title")), " ", h("span", { class: "subtle" }, intro)),
    // The text's first line as it will be sent, the squares under it.
    h("p", { class: "share-line" }, shareText(game, t, "", counts).split("\n")[0]),
    h("div", { class: "share-squares", role: "img", "aria-label": intro },
      strip.rows.map((row) => h("div", { class: "share-row" }, row.map(square)))),
    h("ul", { class: "share-key" }, strip.key.map((entry) => h("li", { dataset: { symbol: entry.symbol } },
      h("span", { class: ["share-square", "share-swatch", story ? `share-level-${entry.level}` : `share-${entry.kind}`], "aria-hidden": "true" }),
      t(entry.key, entry.params)))));
}

function comparison(game, challenge) {
  const mine = { status: game.status, score: game.score };
  const verdict = compareResults(mine, challenge.result);
  const who = challenge.by || t("challenge.friend");
  const theirs = challenge.result.status === "won" ? t("challenge.their_won", { name: who, n: challenge.result.score }) : t("challenge.their_lost", { name: who });
  return h("div", { class: ["comparison", `verdict-${verdict}`], id: "comparison" },
    h("p", {}, theirs),
    h("p", { class: "verdict" }, t(`challenge.verdict_${verdict}`, { name: who })));
}
