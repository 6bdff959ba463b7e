// The match screen's drawing: its heading, status and clock, the connection's banner, the table
// (table-view.js) with the chosen source, the bot's hint and the opponent's last turn marked,
// the prompt, tools and the last turn in words beside it (above it on a phone), the results
// above it, and the flight of a card between two places. It reads the state from the
// controller (match-controller.js) and decides nothing: the controller says when to draw what.

import { announce, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { navigate } from "../lib/router.js";
import { activePlaces, nameOf, renderTable, STOCK_LOW } from "./table-view.js";
import { clockParts, score, secondsLeft, showsUnrated, targetsOf } from "./model/table.js";
import { placeName } from "./model/events.js";
import { cardFace } from "../components/card.js";
import { fly } from "./motion.js";
import { abortedResult, gameResult, matchResult } from "./after.js";
import { botBadge } from "../components/bot-badge.js";

// Below this many seconds a turn's clock turns urgent (and at a tenth of a long clock).
const CLOCK_LOW = 30;
const CLOCK_URGENT = 10;

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
  const resignButton = h("button", { type: "button", class: "button button-quiet sm-resign", hidden: true, "aria-haspopup": "true" }, t("sm.resign"));
  // Named from the start (askResign says which: resign, or leave before the first turns).
  const confirmYes = h("button", { type: "button", class: "button button-danger sm-resign-yes" }, t("sm.resign_yes"));
  const confirmNo = h("button", { type: "button", class: "button sm-resign-no" }, t("sm.resign_keep"));
  const confirmText = h("p", { class: "sm-confirm-text", id: "sm-confirm-text" });
  const confirm = h("div", { class: "sm-confirm", role: "group", "aria-labelledby": "sm-confirm-text", hidden: true },
    confirmText, h("div", { class: "sm-tools" }, confirmYes, confirmNo));
  const stockWarning = h("p", { class: "sm-stock-warning", role: "status", hidden: true });
  const logSummary = h("summary", { class: "sm-log-summary" });
  const logList = h("ol", { class: "sm-log-list" });
  // Open beside a desktop's table; one tap away above a phone's.
  const logBox = h("details", { class: "sm-log", hidden: true, open: window.matchMedia?.("(min-width: 900px)").matches ?? true }, logSummary, logList);
  let opened = null; // a side stack shown whole ("1:S2"), until the table changes

  const root = h("section", { class: "sm-screen", "aria-labelledby": "sm-heading", dataset: { match: initial.id, mode: initial.mode } },
    h("div", { class: "sm-head" }, heading, scoreLine, h("p", { class: "sm-status-row" }, statusLine, clock, unrated)),
    banner,
    results,
    h("div", { class: "sm-body" },
      h("div", { class: "sm-side-panel" },
        prompt,
        h("div", { class: "sm-tools" }, cancelButton, hintButton, skipButton, resignButton),
        confirm, suggestion, messages, stockWarning, logBox),
      tableSlot));

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
    // A bot account (a program playing through the API) is named with its badge.
    if (match.mode !== "daily" && opponent.botAccount) heading.append(botBadge({ bot: true }));
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
    const seatClock = tableSlot.querySelector(".sm-seat-clock");
    if (left === null) {
      clock.hidden = true;
      if (seatClock) seatClock.hidden = true;
      return;
    }
    const { days, hours, minutes, seconds } = clockParts(left);
    const { twoDigits, number } = current();
    const yours = view.turn === view.you;
    // At zero the turn is over: the server's timeout follows (an event), not a "0:00".
    const text = left === 0 ? t("sm.clock_up")
      : days > 0 ? t("sm.clock_days", { n: days, h: hours })
        : hours > 0 ? t("sm.clock_hours", { h: number(hours), m: twoDigits(minutes) })
          : t("sm.clock_minutes", { m: number(minutes), s: twoDigits(seconds) });
    const low = left < CLOCK_LOW || (left < 600 && (match.turn_seconds ?? 0) > 600);
    const urgent = left < CLOCK_URGENT;
    clock.hidden = false;
    clock.textContent = left === 0 ? text : t(yours ? "sm.clock_yours" : "sm.clock_theirs", { time: text });
    clock.dataset.left = String(left);
    for (const element of [clock, seatClock].filter(Boolean)) {
      element.classList.toggle("sm-clock-low", low);
      element.classList.toggle("sm-clock-urgent", urgent);
    }
    if (seatClock) {
      seatClock.hidden = false;
      seatClock.textContent = text;
    }
  }

  function drawWarnings() {
    const { match, view } = controller;
    const low = match.status === "playing" && view.status === "playing" && view.stock <= STOCK_LOW;
    stockWarning.hidden = !low;
    stockWarning.textContent = low ? t(view.stock ? "sm.stock_low" : "sm.stock_empty", { n: view.stock }) : "";
  }

  /** The opponent's latest turn, in card faces and "from → to" words. */
  function drawLog() {
    const { view } = controller;
    const turn = controller.lastTurn();
    logBox.hidden = !turn || !turn.moves.length;
    if (logBox.hidden) return;
    const who = controller.names()[turn.seat];
    const chip = (code) => h("span", { class: "sm-chip sm-log-chip", "aria-hidden": "true" }, cardFace(code, { label: false }));
    const mine = turn.seat === view.you;
    // A turn the game's (or the match's) end cut short is over too: never "so far".
    const ended = turn.ended || view.status !== "playing" || controller.match.status !== "playing";
    replace(logSummary,
      h("span", { class: "sm-log-title" }, t(mine ? "sm.log.your_turn" : ended ? "sm.log.their_turn" : "sm.log.their_turn_now", { who })),
      h("span", { class: "sm-chips sm-log-chips" }, turn.moves.map((move) => chip(move.card))));
    replace(logList, turn.moves.map((move) => h("li", { class: ["sm-log-move", move.kind === "discard" ? "sm-log-discard" : null], dataset: { card: move.card, to: move.to } },
      chip(move.card),
      h("span", { class: "sm-log-words" },
        h("span", { class: "sm-log-card" }, nameOf(move.card)), " ",
        t("sm.log.from_to", { from: placeName(move.from, t), to: placeName(move.to, t) }),
        move.kind === "discard" ? h("span", { class: "sm-log-tag" }, t("sm.log.discard")) : null,
        move.completed ? h("span", { class: "sm-log-tag sm-log-completed" }, t("sm.log.completed")) : null))));
  }

  function drawResign() {
    const { match } = controller;
    const can = match.status === "playing" && !controller.busy;
    resignButton.hidden = !can || !confirm.hidden;
    resignButton.textContent = t(match.abortable ? "sm.leave" : "sm.resign");
    if (!can) confirm.hidden = true;
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
    const table = renderTable(view, { chosen, live: controller.interactive(), moved: controller.moved(), opened });
    if (hinted) {
      table.querySelector(`[data-target="${hinted[1]}"]`)?.classList.add("sm-hinted");
    }
    replace(tableSlot, table);
    tableSlot.setAttribute("aria-busy", animating || busy ? "true" : "false");
    drawHead();
    drawPrompt();
    drawLog();
    drawWarnings();
    drawResign();
    if (focus) focus(table);
    else if (hadFocus) {
      const again = (focused.open && table.querySelector(`[data-open="${focused.open}"]`))
        || (focused.target && table.querySelector(`[data-target="${focused.target}"]`))
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

  /** A result just added is where the player looks: scrolled to and focused. */
  function bringIntoView(box, { live }) {
    // "Play again" stays first, above the newest result.
    const again = results.querySelector(".sm-again");
    if (again && results.firstElementChild !== again) results.prepend(again);
    if (!live || !box.isConnected) return;
    const title = box.querySelector("h2");
    title?.setAttribute("tabindex", "-1");
    results.scrollIntoView({ block: "start" });
    // Focused, so a screen reader reads it; its event was already said in the live region.
    title?.focus({ preventScroll: true });
  }

  /** A match of several games says how it ended, above its last game's result. */
  function showMatchResult(scores = controller.view.seats.map((seat) => seat.score), { live = false } = {}) {
    const { match, view } = controller;
    showAgain();
    if (results.querySelector(".sm-match-result")) return;
    // A single game's own result already says how it ended (points, a clock, a resignation).
    if (match.target === 1) return;
    const box = matchResult({ match, you: view.you, names: controller.names(), winner: match.winner, reason: match.reason, scores });
    results.prepend(box);
    bringIntoView(box, { live });
  }

  function showAborted(seat = null, { live = false } = {}) {
    const { match, view } = controller;
    showAgain();
    if (results.querySelector(".sm-result-aborted")) return;
    const box = abortedResult({ match, you: view.you, names: controller.names(), reason: match.reason, seat });
    results.prepend(box);
    bringIntoView(box, { live });
  }

  /** Game `number`'s result, once. */
  function showResult(number, event = null, { live = false } = {}) {
    const { match, view } = controller;
    if (results.querySelector(`[data-game="${number}"]`)) return;
    const box = gameResult({ match, view, number, event, names: controller.names() });
    results.prepend(box);
    bringIntoView(box, { live });
  }

  /** Once the match is over: one tap to the next one (the same level and length against the
   *  computer, a rematch with a friend), at the top of the results. */
  function showAgain() {
    const { match, view } = controller;
    if (results.querySelector(".sm-again") || !["finished", "aborted"].includes(match.status)) return;
    const opponent = view.seats[1 - view.you];
    const note = h("p", { class: "sm-again-note", role: "status" });
    let button = null;
    if (opponent.bot) {
      button = h("button", { type: "button", class: "button button-primary", dataset: { action: "again" } },
        t(match.mode === "daily" ? "sm.again_after_daily" : "sm.again", { level: t(`sm.level.${opponent.bot}`) }));
      button.addEventListener("click", () => start(() => controller.playAgain(), (next) => navigate(`/spite-malice/match/${next.id}`)));
    } else if (match.status === "finished" && !match.rematch) {
      button = h("button", { type: "button", class: "button button-primary", dataset: { action: "rematch" } }, t("sm.rematch"));
      button.addEventListener("click", () => start(() => controller.rematch(), (next) => navigate(`/spite-malice/invite/${next.id}`)));
    } else if (match.rematch) {
      button = h("a", { class: "button button-primary", href: `#/spite-malice/invite/${encodeURIComponent(match.rematch)}`, dataset: { action: "rematch" } }, t("sm.rematch_open"));
    }
    if (!button) return;
    async function start(make, go) {
      button.disabled = true;
      replace(note);
      try { go(await make()); } catch (error) { replace(note, problemView(error, { role: "status" })); button.disabled = false; }
    }
    results.prepend(h("div", { class: "sm-again" }, button, note));
    results.scrollIntoView({ block: "nearest" });
  }

  /** Asks before resigning (or leaving a match whose first turns are not both played). */
  function askResign() {
    const { match } = controller;
    confirmText.textContent = t(match.abortable ? "sm.leave_confirm" : "sm.resign_confirm");
    confirmYes.textContent = t(match.abortable ? "sm.leave_yes" : "sm.resign_yes");
    confirm.hidden = false;
    resignButton.hidden = true;
    confirmNo.focus();
  }

  /** Closes the question; the focus goes back to the resign button only if it was on the
   *  question still. A resignation's answer closes it after its events may already have shown
   *  the result and focused it (the socket's can come first): taking the focus back then left
   *  it on a button that the match's end hides a moment later, and the result unread. (A
   *  focus on nothing counts as the question's: its button, disabled while it waits, drops it.) */
  function closeResign() {
    const active = document.activeElement;
    const hadFocus = !active || active === document.body || confirm.contains(active);
    confirm.hidden = true;
    drawResign();
    if (hadFocus && !resignButton.hidden) resignButton.focus();
  }

  function toggleStack(placeId) {
    opened = opened === placeId ? null : placeId;
    draw({ focus: (table) => table.querySelector(`[data-open="${placeId}"]`)?.focus() });
  }

  return {
    root,
    tableSlot,
    cancelButton,
    skipButton,
    hintButton,
    suggestion,
    resignButton,
    confirmYes,
    confirmNo,
    draw,
    drawStatus() { drawHead(); drawPrompt(); drawLog(); drawResign(); },
    askResign,
    closeResign,
    toggleStack,
    closeStack() { if (opened) { opened = null; return true; } return false; },
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
