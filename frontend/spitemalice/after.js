// After a game: who won it and by how many points, the match score, the whole deal laid open
// (the record's deal, final hands and stock), a replay with its review (the turns you ended
// while your pay-off card could still be played: the server's engine says where), and after a daily its
// rank on the day's board, the points chart and a share text that spoils nothing. A match
// aborted before the first turns were played has no result: it says so, and why.

import * as smApi from "./api.js";
import { announce, copyText, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { icon } from "../lib/icons.js";
import { barChart } from "../components/bar-chart.js";
import { cardFace } from "../components/card.js";
import { nameOf, renderTable } from "./table-view.js";
import { asView, positions, turnEnds, turnStep } from "./model/replay.js";
import { shareText } from "./model/share.js";
import { abortedWhy, placeName } from "./model/events.js";

/** The result of game `number` (from its game_over `event`, or the view of a finished game). */
export function gameResult({ match, view, number, event = null, names }) {
  const you = view.you;
  const status = event?.status ?? view.status;
  const winner = event?.winner ?? view.winner;
  const points = event?.points ?? view.points ?? 0;
  const scores = event?.scores ?? view.seats.map((seat) => seat.score);
  const won = status !== "tied" && winner === you;
  const title = status === "tied" ? t("sm.result.tied_title")
    : won ? t("sm.result.won_title") : t("sm.result.lost_title", { who: names[winner] ?? "" });
  const lines = [];
  if (status === "tied") lines.push(t("sm.result.tied_line"));
  else if (status === "resigned") lines.push(t(won ? "sm.result.they_resigned" : "sm.result.you_resigned"));
  else if (status === "timeout") {
    // A clock ended it: no pay-off pile was emptied, so no points were scored for it.
    lines.push(t(won ? "sm.say.they_timed_out" : "sm.say.you_timed_out", { who: names[1 - you] }));
    lines.push(t("sm.result.no_points"));
  } else lines.push(t(won ? "sm.result.won_line" : "sm.result.lost_line", { n: points, who: names[winner] ?? "" }));
  if (match.target > 1) {
    lines.push(t("sm.result.match_score", { mine: scores[you], theirs: scores[1 - you], target: match.target }));
  }
  const detail = h("div", { class: "sm-after" });
  const fairSlot = h("div", { class: "fair-slot" });
  const dailyPart = match.mode === "daily" ? h("div", { class: "sm-daily-result" }) : null;
  const revealButton = h("button", { type: "button", class: "button", dataset: { action: "reveal" } }, t("sm.result.reveal"));
  const replayButton = h("button", { type: "button", class: "button", dataset: { action: "replay" } }, t("sm.result.replay"));
  const box = h("section", {
    class: ["result", "sm-result", won ? "sm-result-won" : status === "tied" ? "sm-result-tied" : "sm-result-lost"],
    dataset: { game: number, status, winner: winner ?? "", points },
    "aria-labelledby": `sm-result-${number}`,
  },
  h("h2", { id: `sm-result-${number}` }, won ? h("span", { class: "won-star", "aria-hidden": "true" }, icon("star")) : null,
    match.target > 1 ? t("sm.result.game_n", { n: number, title }) : title),
  lines.map((line) => h("p", { class: "sm-result-line" }, line)),
  dailyPart,
  fairSlot,
  h("div", { class: "sm-result-actions" }, revealButton, replayButton),
  detail);

  let record = null;
  async function loadRecord() {
    record ??= await smApi.smRecord(match.id, number);
    return record;
  }
  revealButton.addEventListener("click", async () => {
    try {
      replace(detail, reveal(await loadRecord(), { you, names }));
      detail.querySelector("h3")?.focus();
    } catch (error) { replace(detail, problemView(error)); }
  });
  replayButton.addEventListener("click", async () => {
    try {
      replace(detail, replay(await loadRecord(), { you, names, scores }));
      detail.querySelector(".sm-replay-step")?.focus();
    } catch (error) { replace(detail, problemView(error)); }
  });
  if (dailyPart) daily(dailyPart, { match, won, points, status, winner, you });
  // The game's deal, checked by the page from its record's seeds (or its date's commitment).
  import("./fairness.js").then(({ gameLine }) => replace(fairSlot, gameLine(match, number, loadRecord)));
  return box;
}

/** The end of a match of several games, or of one ended by a clock or a resignation. */
export function matchResult({ match, you, names, winner, reason, scores }) {
  const won = winner === you;
  const lines = [];
  if (reason === "timeout") lines.push(t(won ? "sm.say.they_timed_out" : "sm.say.you_timed_out", { who: names[1 - you] }));
  if (reason === "resigned") lines.push(t(won ? "sm.say.they_resigned" : "sm.say.you_resigned", { who: names[1 - you] }));
  // A single game's match has no score worth saying ("0 to 0"): only who won it.
  const title = winner === null || winner === undefined ? t("sm.say.match_tied")
    : match.target === 1 ? (won ? t("sm.result.won_title") : t("sm.result.lost_title", { who: names[winner] ?? "" }))
      : t(won ? "sm.say.match_won" : "sm.say.match_lost", { who: names[winner] ?? "", mine: scores[you], theirs: scores[1 - you] });
  return h("section", { class: ["result", "sm-result", "sm-match-result", won ? "sm-result-won" : "sm-result-lost"], dataset: { match: match.id, winner: winner ?? "", reason: reason ?? "" }, role: "status" },
    h("h2", {}, won ? h("span", { class: "won-star", "aria-hidden": "true" }, icon("star")) : null, title),
    lines.map((line) => h("p", { class: "sm-result-line" }, line)));
}

/** A match that ended before each seat had played its first turn: no winner, no rating change.
 *  `seat` is whose doing it was, where known (the live event names it; a match read later
 *  gives only the reason). */
export function abortedResult({ match, you, names, reason, seat = null }) {
  return h("section", { class: ["result", "sm-result", "sm-match-result", "sm-result-aborted"], dataset: { match: match.id, status: "aborted", reason: reason ?? "" }, role: "status" },
    h("h2", {}, t("sm.aborted.title")),
    h("p", { class: "sm-result-line" }, t(abortedWhy({ reason, seat, you }), { who: names[1 - you] })),
    h("p", { class: "sm-result-line" }, t("sm.aborted.no_result")));
}

const chips = (cards) => h("span", { class: "sm-chips" }, cards.map((code) =>
  h("span", { class: "sm-chip", role: "img", "aria-label": nameOf(code) }, cardFace(code, { label: false }))));

/** The whole deal: each pay-off pile as dealt (top first), each hand at the end, the stock. */
export function reveal(record, { you, names }) {
  const seats = [you, 1 - you];
  const left = (seat) => record.final.payoff[seat].length;
  return h("div", { class: "sm-reveal" },
    h("h3", { tabindex: "-1" }, t("sm.reveal.title")),
    seats.map((seat) => h("div", { class: "sm-reveal-seat", dataset: { seat } },
      h("h4", {}, names[seat]),
      h("p", { class: "subtle" }, t("sm.reveal.payoff", { n: left(seat) })),
      chips(record.deal.payoff[seat]),
      h("p", { class: "subtle" }, t("sm.reveal.hand_end")),
      record.final.hands[seat].length ? chips(record.final.hands[seat]) : h("p", {}, t("sm.reveal.none")))),
    h("div", { class: "sm-reveal-stock" },
      h("h4", {}, t("sm.reveal.stock", { n: record.final.stock.length })),
      record.final.stock.length ? chips(record.final.stock) : h("p", {}, t("sm.reveal.none"))));
}

// One action a step when the replay plays itself.
const AUTOPLAY_MS = 700;

/** The game again, on a table that only shows: action by action or turn by turn, dragged along
 *  a slider, or played by itself; each action said in words, from where to where. */
export function replay(record, { you, names, scores }) {
  const list = positions(record, you);
  const ends = turnEnds(record);
  let index = 0;
  let timer = null;
  const slot = h("div", { class: "sm-replay-table" });
  const caption = h("p", { class: "sm-replay-caption", "aria-live": "polite" });
  const slider = h("input", {
    type: "range", class: "sm-replay-slider", min: "0", max: String(list.length - 1), step: "1", value: "0",
    "aria-label": t("sm.replay.slider"),
  });
  const button = (name, label, onClick, { text = null } = {}) => {
    const element = h("button", { type: "button", class: ["button", "sm-replay-step", text ? "sm-replay-turn" : null], "aria-label": text ? null : label, dataset: { step: name } },
      text ?? icon(name));
    element.addEventListener("click", () => { if (name !== "auto") stop(); onClick(); });
    return element;
  };
  const go = (to) => {
    index = Math.max(0, Math.min(list.length - 1, to));
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", index === 0 ? t("sm.replay.start") : t("sm.replay.slider_at", { n: index, total: record.actions.length }));
    replace(slot, renderTable(asView(list[index], { you, names, scores }), { live: false }));
    const step = record.steps[index - 1];
    const [from, to2] = record.actions[index - 1] ?? [];
    replace(caption, index === 0 ? t("sm.replay.start")
      : t("sm.replay.step", {
        n: index, total: record.actions.length, who: names[step.seat], card: nameOf(step.card),
        from: placeName(from, t), to: placeName(to2, t),
      }));
    if (index >= list.length - 1) stop();
  };
  const auto = button("auto", t("sm.replay.play"), () => (timer ? stop() : play()));
  function play() {
    if (index >= list.length - 1) go(0);
    timer = setInterval(() => {
      if (!root.isConnected) { stop(); return; }
      go(index + 1);
    }, AUTOPLAY_MS);
    replace(auto, icon("pause"));
    auto.setAttribute("aria-label", t("sm.replay.pause"));
    auto.dataset.playing = "true";
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    replace(auto, icon("play"));
    auto.setAttribute("aria-label", t("sm.replay.play"));
    auto.dataset.playing = "false";
  }
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  // The review: each turn you ended with a discard while your pay-off top could still play.
  const misses = record.steps.map((step, at) => ({ step, at }))
    .filter(({ step }) => step.seat === you && step.payoff_missed?.length);
  const review = h("section", { class: "sm-review", "aria-labelledby": "sm-review-title" },
    h("h4", { id: "sm-review-title" }, t("sm.review.title")),
    misses.length
      ? h("ol", { class: "sm-review-list" }, misses.map(({ step, at }) => {
        const show = h("button", { type: "button", class: "button button-quiet sm-review-miss", dataset: { at: String(at) } },
          t("sm.review.miss", {
            n: at + 1, card: nameOf(step.card), payoff: nameOf(list[at].piles[you][0]),
            to: placeName(step.payoff_missed[0][1], t),
          }));
        show.addEventListener("click", () => { stop(); go(at); slot.scrollIntoView({ block: "nearest" }); });
        return h("li", {}, show);
      }))
      : h("p", { class: "subtle" }, t("sm.review.none")));
  // The replay's table first, its controls right under it (kept in reach on a phone: table.css).
  const root = h("div", { class: "sm-replay" },
    h("h3", {}, t("sm.replay.title")),
    review,
    slot,
    caption,
    slider,
    h("div", { class: "sm-replay-controls" },
      button("first", t("sm.replay.first"), () => go(0)),
      button("turn-back", "", () => go(turnStep(ends, index, -1)), { text: t("sm.replay.turn_back") }),
      button("previous", t("sm.replay.back"), () => go(index - 1)),
      auto,
      button("next", t("sm.replay.forward"), () => go(index + 1)),
      button("turn-on", "", () => go(turnStep(ends, index, 1)), { text: t("sm.replay.turn_on") }),
      button("last", t("sm.replay.end"), () => go(list.length - 1))));
  go(0);
  stop();
  return root;
}

/** How many played the day and won: the global board's players; a game not on that board
 *  (a new account's) says whose counts they are, and never "0 players" right after playing. */
function dailyCounts(board, match) {
  const n = board.players ?? 0;
  const winners = board.winners ?? 0;
  if (board.standing?.ranked !== false) return t("sm.daily.counts", { n, winners });
  return n ? t("sm.daily.counts_board", { n, winners }) : t("sm.daily.counts_board_none");
}

async function daily(part, { match, won, points, status, winner, you }) {
  replace(part, h("p", { class: "subtle" }, t("common.loading")));
  try {
    const [board, info] = await Promise.all([smApi.smDailyBoard(match.date, { around: true, limit: 10 }), smApi.smDaily(match.date)]);
    const standing = board.standing ?? {};
    const rank = won && standing.rank
      ? h("p", { class: "rank", id: "sm-rank" }, t("sm.daily.rank", { rank: standing.rank, n: board.winners }))
      : h("p", { class: "subtle", id: "sm-rank" }, won ? t("sm.daily.unranked") : t("sm.daily.no_rank"));
    const text = shareText({ number: info.number, status, winner, points, you }, t);
    const share = h("button", { type: "button", class: "button button-primary", id: "sm-share" }, icon("share"), " ", t("sm.daily.share"));
    const shown = h("pre", { class: "sm-share-text", id: "sm-share-text" }, text);
    const note = h("p", { class: "subtle", role: "status" });
    share.addEventListener("click", async () => {
      if (navigator.share) {
        try { await navigator.share({ text }); return; } catch { /* fall back to copying */ }
      }
      const copied = await copyText(text);
      note.textContent = t(copied ? "sm.daily.copied" : "sm.daily.copy_failed");
      announce(note.textContent);
    });
    replace(part,
      rank,
      h("p", { class: "subtle", id: "sm-daily-counts" }, dailyCounts(board, match)),
      barChart(board.distribution ?? {}, {
        mine: won ? points : null,
        counted: standing.ranked !== false,
        caption: t("sm.daily.chart", { date: current().date(match.date, "medium") }),
      }),
      share, shown, note);
  } catch (error) {
    replace(part, problemView(error, { role: "status" }));
  }
}
