// The match screen's drawing: its heading, status and clock, the connection's banner, the table
// (table-view.js) with the chosen source and the bot's hint marked, the prompt beside it, the
// results above it, and the flight of a card between two places. It reads the state from the
// controller (match-controller.js) and decides nothing: the controller says when to draw what.

import { announce, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { activePlaces, renderTable } from "./table-view.js";
import { clockParts, score, secondsLeft, showsUnrated, targetsOf } from "./model/table.js";
import { fly } from "./motion.js";
import { abortedResult, gameResult, matchResult } from "./after.js";

/** The screen of `controller`'s match: `root` to put on the page, the elements the input
 *  listens to, and what the controller's `ui` asks for. */
export function matchView(controller) {
  const { match: initial } = controller;
  const heading = h("h1", { id: "sm-heading", tabindex: "-1" });
  const scoreLine = h("p", { class: "sm-screen-score" });
  const statusLine = h("p", { class: "sm-status", "aria-live": "off" });
  const clock = h("span", { class: "sm-clock" });
  // Small and quiet: the ratings are not what the table is about.
  const unrated = h("span", { class: "sm-unrated", id: "sm-unrated" }, t("sm.unrated"));
  const banner = h("p", { class: "sm-banner", role: "status", hidden: true });
  const results = h("div", { class: "sm-results" });
  const tableSlot = h("div", { class: "sm-table-slot" });
  const prompt = h("p", { class: "sm-prompt", id: "sm-prompt" });
  const messages = h("div", { class: "sm-messages" });
  const suggestion = h("p", { class: "sm-suggestion", "aria-live": "polite" });
  const skipButton = h("button", { type: "button", class: "button sm-skip", hidden: true }, t("sm.skip"));
  const hintButton = initial.mode === "bot"
    ? h("button", { type: "button", class: "button sm-hint" }, t("sm.hint")) : null;
  const cancelButton = h("button", { type: "button", class: "button button-quiet sm-cancel", hidden: true }, t("sm.cancel"));

  const root = h("section", { class: "sm-screen", "aria-labelledby": "sm-heading", dataset: { match: initial.id, mode: initial.mode } },
    h("div", { class: "sm-head" }, heading, scoreLine, h("p", { class: "sm-status-row" }, statusLine, clock, unrated)),
    banner,
    results,
    h("div", { class: "sm-body" },
      tableSlot,
      h("div", { class: "sm-side-panel" }, prompt, h("div", { class: "sm-tools" }, cancelButton, hintButton, skipButton), suggestion, messages)));

  const ticker = setInterval(drawClock, 1000);

  function drawHead() {
    const { match, view, animating } = controller;
    const names = controller.names();
    const opponent = view.seats[1 - view.you];
    heading.textContent = match.mode === "daily"
      ? t("sm.daily_title", { date: match.date ? current().date(match.date) : "" })
      : t(opponent.bot ? "sm.title_bot" : "sm.title_friend", {
        name: opponent.bot ? t(`sm.level.${opponent.bot}`) : opponent.name ?? t("sm.opponent"),
      });
    const s = score(view);
    scoreLine.textContent = match.target === 1 ? t("sm.single_game")
      : t("sm.score_line", { mine: s.mine, theirs: s.theirs, target: s.target, game: view.game ?? 1 });
    let status;
    if (match.status === "finished") status = t("sm.match_over");
    else if (match.status === "aborted") status = t("sm.match_aborted");
    else if (match.status === "waiting") status = t("sm.waiting");
    else if (animating) status = view.turn === view.you ? t("sm.showing_yours") : t("sm.showing_theirs", { who: names[1 - view.you] });
    else if (view.turn === view.you) status = t("sm.your_turn");
    else status = t(opponent.bot ? "sm.bot_thinking" : "sm.their_turn", { who: names[1 - view.you] });
    statusLine.textContent = status;
    unrated.hidden = !showsUnrated(match);
    root.dataset.turn = view.turn === null ? "none" : view.turn === view.you ? "you" : "them";
    root.dataset.status = match.status;
    root.dataset.game = String(view.game ?? "");
    root.dataset.actions = String(match.game?.actions ?? 0);
    root.dataset.event = String(match.event);
    root.dataset.animating = String(animating);
    drawClock();
  }

  function drawClock() {
    const { match, view } = controller;
    const left = match.status === "playing" ? secondsLeft(match.deadline) : null;
    if (left === null) { clock.hidden = true; return; }
    clock.hidden = false;
    const { days, hours, minutes, seconds } = clockParts(left);
    const { twoDigits, number } = current();
    const text = days > 0 ? t("sm.clock_days", { n: days, h: hours })
      : hours > 0 ? t("sm.clock_hours", { h: number(hours), m: twoDigits(minutes) })
        : t("sm.clock_minutes", { m: number(minutes), s: twoDigits(seconds) });
    clock.textContent = t(view.turn === view.you ? "sm.clock_yours" : "sm.clock_theirs", { time: text });
    clock.classList.toggle("sm-clock-low", left < 30 || (left < 600 && (match.turn_seconds ?? 0) > 600));
  }

  function drawBanner() {
    const { liveState } = controller;
    banner.hidden = liveState !== "reconnecting";
    banner.textContent = liveState === "reconnecting" ? t("sm.reconnecting") : "";
    root.dataset.live = liveState ?? "";
  }

  function drawPrompt() {
    const { match, view, chosen, animating } = controller;
    const live = controller.interactive();
    cancelButton.hidden = !chosen || !live;
    skipButton.hidden = !animating;
    if (hintButton) hintButton.hidden = !live || match.mode !== "bot";
    if (!live) { replace(prompt, animating ? t("sm.prompt_watch") : ""); return; }
    if (!chosen) { replace(prompt, t("sm.prompt_source")); return; }
    const targets = targetsOf(view, chosen);
    const plays = targets.some((option) => !option.discard);
    const discards = targets.some((option) => option.discard);
    replace(prompt, h("span", {}, t("sm.prompt_target", { card: controller.chosenName() })), " ",
      plays && discards ? t("sm.prompt_both") : discards ? t("sm.prompt_discard") : t("sm.prompt_play"));
  }

  /** The whole screen from the state. `focus(table)` puts the focus where an input asked for
   *  it; without one, a focus that was on the table stays on the same place. */
  function draw({ focus = null } = {}) {
    const { view, chosen, hinted, busy, animating } = controller;
    const hadFocus = tableSlot.contains(document.activeElement);
    const focused = document.activeElement?.dataset ?? {};
    const table = renderTable(view, { chosen, live: controller.interactive() });
    if (hinted) {
      table.querySelector(`[data-target="${hinted[1]}"]`)?.classList.add("sm-hinted");
    }
    replace(tableSlot, table);
    tableSlot.setAttribute("aria-busy", animating || busy ? "true" : "false");
    drawHead();
    drawPrompt();
    if (focus) focus(table);
    else if (hadFocus) {
      const again = (focused.target && table.querySelector(`[data-target="${focused.target}"]`))
        || (focused.source && table.querySelector(`[data-source="${CSS.escape(focused.source)}"]`))
        || activePlaces(table)[0];
      (again ?? tableSlot.querySelector(".sm-table"))?.focus?.();
    }
  }

  /** Where a place of the table is on the screen now (null if it is not drawn). */
  function placeOf(placeId) {
    const element = tableSlot.querySelector(`[data-place="${placeId}"]`);
    if (!element) return null;
    const target = placeId.endsWith(":hand") ? element.lastElementChild ?? element : element;
    return target.getBoundingClientRect();
  }

  /** A match of several games, or one a clock or a resignation ended, says how it ended. */
  function showMatchResult(scores = controller.view.seats.map((seat) => seat.score)) {
    const { match, view } = controller;
    if (results.querySelector(".sm-match-result")) return;
    if (match.target === 1 && !["timeout", "resigned"].includes(match.reason)) return;
    results.prepend(matchResult({ match, you: view.you, names: controller.names(), winner: match.winner, reason: match.reason, scores }));
  }

  function showAborted(seat = null) {
    const { match, view } = controller;
    if (results.querySelector(".sm-result-aborted")) return;
    results.prepend(abortedResult({ match, you: view.you, names: controller.names(), reason: match.reason, seat }));
  }

  /** Game `number`'s result, once. */
  function showResult(number, event = null) {
    const { match, view } = controller;
    if (results.querySelector(`[data-game="${number}"]`)) return;
    results.prepend(gameResult({ match, view, number, event, names: controller.names() }));
  }

  return {
    root,
    tableSlot,
    cancelButton,
    skipButton,
    hintButton,
    suggestion,
    draw,
    drawStatus() { drawHead(); drawPrompt(); },
    drawBanner,
    acting(on) { root.classList.toggle("is-busy", on); },
    clearMessages() { replace(messages); replace(suggestion); },
    showProblem(error) {
      replace(messages, problemView(error));
      announce(messages.textContent, { urgent: true });
    },
    announce: (text) => announce(text),
    showResult,
    showMatchResult,
    showAborted,
    placeOf,
    fly: (from, to, move) => fly(from, to, move.card, { back: !move.card }),
    stop() { clearInterval(ticker); },
  };
}
