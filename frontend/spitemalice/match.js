// The Spite & Malice match screen, #/spite-malice/match/<id>: the table, acting on it (tap or
// click a source then a target, drag and drop, or the keyboard), the events shown one by one
// as they happened (the opponent's turn card by card, skippable), kept live by the socket or
// the feed, and each game's result (or, for a match aborted before the first turns were played,
// that it was). The state always comes from the server: a reload or another device shows
// exactly the same table.

import * as api from "../api.js";
import { announce, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { loadStylesheet } from "../lib/stylesheet.js";
import { current, t } from "../i18n.js";
import { markSection } from "../components/header.js";
import { loadTableStrings } from "./i18n.js";
import { activePlaces, nameOf, renderTable } from "./table-view.js";
import { applyEvent, describe, motion, placeName } from "./model/events.js";
import { EventQueue, paceOf, pausable } from "./model/queue.js";
import { clockParts, hasResult, isLegal, isOver, score, secondsLeft, showsUnrated, step, targetsOf, viewOf } from "./model/table.js";
import { follow } from "./live.js";
import { fly } from "./motion.js";
import { abortedResult, gameResult, matchResult } from "./after.js";

const STYLESHEET = new URL("./table.css", import.meta.url);

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export default async function show(main, route, { signal }) {
  await Promise.all([loadTableStrings(), loadStylesheet(STYLESHEET)]);
  const id = route.parts[2];
  replace(main, h("section", { class: "page" }, h("p", {}, t("common.loading"))));
  let match;
  try {
    match = await api.smMatch(id);
  } catch (error) {
    replace(main, h("section", { class: "page sm-page" }, h("h1", {}, t("sm.title")), problemView(error)));
    return;
  }
  if (signal.aborted) return;
  // A daily is today's game; any other match is among your matches.
  markSection(match.mode === "daily" ? "today" : "matches");
  if (match.status === "waiting") {
    match = await waitForJoin(main, match, { signal });
    if (!match || signal.aborted) return;
  }
  const screen = matchScreen(match, { signal });
  replace(main, screen);
  screen.querySelector("h1")?.focus({ preventScroll: true });
}

/** A match nobody has joined yet: says so, links to its invitation, and resolves with the
 *  match once the opponent has taken their seat (null if it was cancelled or left). */
function waitForJoin(main, match, { signal }) {
  replace(main, h("section", { class: "page sm-page", "aria-labelledby": "sm-heading" },
    h("h1", { id: "sm-heading", tabindex: "-1" }, t("sm.title")),
    h("p", { class: "sm-waiting", role: "status" }, t("sm.waiting")),
    h("p", {}, h("a", { href: `#/spite-malice/invite/${encodeURIComponent(match.id)}` }, t("sm.invitation")))));
  return new Promise((resolve) => {
    const timer = setInterval(async () => {
      try {
        const now = await api.smMatch(match.id);
        if (now.status === "waiting") return;
        clearInterval(timer);
        resolve(now.status === "cancelled" ? null : now);
        if (now.status === "cancelled") replace(main.querySelector(".sm-waiting"), t("sm.cancelled"));
      } catch { /* ask again at the next tick */ }
    }, 3000);
    signal?.addEventListener("abort", () => { clearInterval(timer); resolve(null); });
  });
}

function matchScreen(initial, { signal }) {
  let match = initial;
  let view = viewOf(match);
  let chosen = null;
  let busy = false;
  let hinted = null;
  let pending = null; // a match the server answered, shown once the events before it are
  let liveState = null;

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
  const hintButton = match.mode === "bot"
    ? h("button", { type: "button", class: "button sm-hint" }, t("sm.hint")) : null;
  const cancelButton = h("button", { type: "button", class: "button button-quiet sm-cancel", hidden: true }, t("sm.cancel"));

  const root = h("section", { class: "sm-screen", "aria-labelledby": "sm-heading", dataset: { match: match.id, mode: match.mode } },
    h("div", { class: "sm-head" }, heading, scoreLine, h("p", { class: "sm-status-row" }, statusLine, clock, unrated)),
    banner,
    results,
    h("div", { class: "sm-body" },
      tableSlot,
      h("div", { class: "sm-side-panel" }, prompt, h("div", { class: "sm-tools" }, cancelButton, hintButton, skipButton), suggestion, messages)));

  const names = () => view.seats.map((seat) => (seat.seat === view.you ? t("sm.you")
    : seat.bot ? t("sm.the_computer") : seat.name ?? t("sm.opponent")));

  const queue = new EventQueue({
    last: match.event,
    show: showEvent,
    wait: (ms, cancelled) => pausable(ms, cancelled),
    pace: (event) => paceOf(event, { you: view.you, reduced: reducedMotion() }),
    onIdle: settle,
  });

  const follower = isOver(match) ? null : follow(match.id, {
    after: match.event,
    onEvents: (events) => { queue.push(events); refresh(); },
    onPresence: (seats) => {
      seats.forEach((connected, index) => { view.seats[index].connected = connected; match.seats[index].connected = connected; });
      if (!queue.busy) draw();
    },
    onState: (state) => { liveState = state; drawBanner(); },
    pollEvery: () => (queue.busy || view.turn === view.you ? 10000 : 2000),
  });
  signal?.addEventListener("abort", () => { queue.stop(); follower?.stop(); clearInterval(ticker); });
  const ticker = setInterval(drawClock, 1000);

  function interactive() {
    return !busy && !queue.busy && match.status === "playing" && view.turn === view.you && view.legal.length > 0;
  }

  function drawHead() {
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
    else if (queue.busy) status = view.turn === view.you ? t("sm.showing_yours") : t("sm.showing_theirs", { who: names()[1 - view.you] });
    else if (view.turn === view.you) status = t("sm.your_turn");
    else status = t(opponent.bot ? "sm.bot_thinking" : "sm.their_turn", { who: names()[1 - view.you] });
    statusLine.textContent = status;
    unrated.hidden = !showsUnrated(match);
    root.dataset.turn = view.turn === null ? "none" : view.turn === view.you ? "you" : "them";
    root.dataset.status = match.status;
    root.dataset.game = String(view.game ?? "");
    root.dataset.actions = String(match.game?.actions ?? 0);
    root.dataset.event = String(match.event);
    root.dataset.animating = String(queue.busy);
    drawClock();
  }

  function drawClock() {
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
    banner.hidden = liveState !== "reconnecting";
    banner.textContent = liveState === "reconnecting" ? t("sm.reconnecting") : "";
    root.dataset.live = liveState ?? "";
  }

  function drawPrompt() {
    const live = interactive();
    cancelButton.hidden = !chosen || !live;
    skipButton.hidden = !queue.busy;
    if (hintButton) hintButton.hidden = !live || match.mode !== "bot";
    if (!live) { replace(prompt, queue.busy ? t("sm.prompt_watch") : ""); return; }
    if (!chosen) { replace(prompt, t("sm.prompt_source")); return; }
    const targets = targetsOf(view, chosen);
    const plays = targets.some((option) => !option.discard);
    const discards = targets.some((option) => option.discard);
    replace(prompt, h("span", {}, t("sm.prompt_target", { card: chosenName() })), " ",
      plays && discards ? t("sm.prompt_both") : discards ? t("sm.prompt_discard") : t("sm.prompt_play"));
  }

  function chosenName() {
    if (!chosen) return "";
    if (chosen === "P") return nameOf(view.seats[view.you].payoffTop);
    if (chosen.startsWith("S") && chosen.length === 2 && /\d/.test(chosen[1])) return nameOf(view.seats[view.you].sides[Number(chosen[1])].at(-1));
    return nameOf(chosen);
  }

  function draw({ focus = null } = {}) {
    const hadFocus = tableSlot.contains(document.activeElement);
    const focused = document.activeElement?.dataset ?? {};
    const table = renderTable(view, { chosen, live: interactive() });
    if (hinted) {
      table.querySelector(`[data-target="${hinted[1]}"]`)?.classList.add("sm-hinted");
    }
    replace(tableSlot, table);
    tableSlot.setAttribute("aria-busy", queue.busy || busy ? "true" : "false");
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

  function choose(source) {
    if (!interactive()) return;
    chosen = chosen === source ? null : source;
    draw({
      focus: (table) => (chosen
        ? (table.querySelector("[data-target]") ?? table.querySelector(`[data-source="${CSS.escape(chosen)}"]`))
        : table.querySelector(`[data-source="${CSS.escape(source)}"]`))?.focus(),
    });
    if (chosen) announce(t("sm.say.chosen", { card: chosenName() }));
  }

  async function act(source, target) {
    if (!interactive() || busy) return;
    if (!isLegal(view, source, target)) {
      // Not offered: nothing is sent, nothing moves (the places offered are the server's).
      return;
    }
    busy = true;
    root.classList.add("is-busy");
    replace(messages);
    replace(suggestion);
    hinted = null;
    chosen = null;
    draw();
    try {
      const answer = await api.smAct(match.id, { action: [source, target], game: match.game.number, actions: match.game.actions });
      pending = answer;
      await catchUp(answer.event);
      busy = false;
      root.classList.remove("is-busy");
      if (!queue.busy) settle();
    } catch (error) {
      busy = false;
      root.classList.remove("is-busy");
      if (signal?.aborted) return;
      replace(messages, problemView(error));
      announce(messages.textContent, { urgent: true });
      if (["stale_action", "not_your_turn", "game_over", "illegal_action"].includes(error.code)) {
        await reload();
      } else draw();
    }
  }

  /** The events up to `upTo`, from the feed (the answer to an action holds the match only). */
  async function catchUp(upTo = Infinity) {
    try {
      while (queue.last < upTo) {
        const answer = await api.smEvents(match.id, queue.last);
        if (!answer.events.length) break;
        queue.push(answer.events);
        follower?.after(answer.last);
        if (answer.last >= upTo || answer.events.length < 1000) break;
      }
    } catch { /* the follower catches up */ }
  }

  async function reload() {
    try {
      adopt(await api.smMatch(match.id));
    } catch { draw(); }
  }

  /** Shows the server's state of the match (its legal actions) once no event is being shown. */
  function adopt(fresh) {
    const wasOver = match.status === "finished";
    match = fresh;
    view = viewOf(match);
    if (match.event > queue.last) queue.last = match.event;
    chosen = null;
    draw();
    if (isOver(match)) follower?.stop();
    if (match.status === "aborted") showAborted();
    if (match.status === "finished" && !wasOver && !results.querySelector(`[data-game="${view.game}"]`)) showResult(view.game);
    if (match.status === "finished") showMatchResult();
    if (hasResult(match, match.game) && !results.querySelector(`[data-game="${view.game}"]`)) showResult(view.game);
  }

  async function settle() {
    const answer = pending;
    pending = null;
    if (answer && answer.event >= queue.last) adopt(answer);
    else if (queue.last > match.event) await reload();
    else draw();
    if (view.turn === view.you && match.status === "playing") announce(t("sm.say.your_turn"));
  }

  function refresh() {
    if (!queue.busy) return;
    drawHead();
    drawPrompt();
  }

  async function showEvent(event, { instant }) {
    const move = motion(event);
    const from = move ? rectOf(move.from) : null;
    view = applyEvent(view, event);
    if (event.kind === "game_over") {
      match.seats.forEach((seat, index) => { seat.score = event.scores?.[index] ?? seat.score; });
    }
    draw();
    const text = describe(event, { you: view.you, t, card: nameOf, names: names() });
    if (text) announce(text);
    if (event.kind === "game_over") showResult(event.game, event);
    if (event.kind === "aborted") {
      // Nothing follows it: no game_over, no match_over, no winner.
      Object.assign(match, { status: "aborted", winner: null, reason: event.reason, abortable: false });
      drawHead();
      showAborted(event.seat);
    }
    if (event.kind === "match_over") {
      match.status = "finished";
      match.winner = event.winner;
      match.reason = event.reason;
      drawHead();
      showMatchResult(event.scores);
    }
    if (!move || instant || reducedMotion()) return;
    const to = rectOf(move.to);
    if (from && to) await fly(from, to, move.card, { back: !move.card });
  }

  function rectOf(placeId) {
    const element = tableSlot.querySelector(`[data-place="${placeId}"]`);
    if (!element) return null;
    const target = placeId.endsWith(":hand") ? element.lastElementChild ?? element : element;
    return target.getBoundingClientRect();
  }

  /** A match of several games, or one a clock or a resignation ended, says how it ended. */
  function showMatchResult(scores = view.seats.map((seat) => seat.score)) {
    if (results.querySelector(".sm-match-result")) return;
    if (match.target === 1 && !["timeout", "resigned"].includes(match.reason)) return;
    results.prepend(matchResult({ match, you: view.you, names: names(), winner: match.winner, reason: match.reason, scores }));
  }

  function showAborted(seat = null) {
    if (results.querySelector(".sm-result-aborted")) return;
    results.prepend(abortedResult({ match, you: view.you, names: names(), reason: match.reason, seat }));
  }

  function showResult(number, event = null) {
    if (results.querySelector(`[data-game="${number}"]`)) return;
    results.prepend(gameResult({ match, view, number, event, names: names() }));
  }

  // --- Input: clicks and taps, drag and drop, keys -----------------------------------------

  let drag = null;
  let suppressClick = false;

  tableSlot.addEventListener("click", (clickEvent) => {
    if (suppressClick) { suppressClick = false; return; }
    const button = clickEvent.target.closest("button.sm-place");
    if (!button) return;
    if (button.dataset.target && chosen) act(chosen, button.dataset.target);
    else if (button.dataset.source) choose(button.dataset.source);
  });

  tableSlot.addEventListener("keydown", (keyEvent) => {
    if (keyEvent.key === "Escape" && chosen) {
      const was = chosen;
      chosen = null;
      draw({ focus: (table) => table.querySelector(`[data-source="${CSS.escape(was)}"]`)?.focus() });
      keyEvent.preventDefault();
      return;
    }
    const places = activePlaces(tableSlot);
    const ids = places.map((element, index) => index);
    const at = places.indexOf(document.activeElement);
    const next = step(ids, at < 0 ? 0 : at, keyEvent.key, { rtl: current().dir === "rtl" });
    if (next === null) return;
    keyEvent.preventDefault();
    places[next]?.focus();
  });

  tableSlot.addEventListener("pointerdown", (down) => {
    const button = down.target.closest("button.sm-place[data-source]");
    if (!button || !interactive() || down.button > 0) return;
    drag = { source: button.dataset.source, x: down.clientX, y: down.clientY, moving: false, ghost: null, card: button.querySelector(".card") };
  });

  window.addEventListener("pointermove", (move) => {
    if (!drag) return;
    if (!drag.moving) {
      if (Math.hypot(move.clientX - drag.x, move.clientY - drag.y) < 8) return;
      drag.moving = true;
      const rect = drag.card.getBoundingClientRect();
      drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("sm-drag-ghost");
      drag.ghost.style.setProperty("inline-size", `${rect.width}px`);
      drag.ghost.style.setProperty("block-size", `${rect.height}px`);
      document.body.append(drag.ghost);
      if (chosen !== drag.source) { chosen = drag.source; draw(); }
    }
    move.preventDefault();
    drag.ghost.style.setProperty("transform", `translate(${move.clientX - drag.offset.x}px, ${move.clientY - drag.offset.y}px)`);
    const over = document.elementFromPoint(move.clientX, move.clientY)?.closest("[data-target]");
    for (const element of tableSlot.querySelectorAll(".sm-drop-over")) element.classList.remove("sm-drop-over");
    over?.classList.add("sm-drop-over");
  }, { passive: false, signal });

  const endDrag = (up) => {
    if (!drag) return;
    const { moving, ghost, source } = drag;
    drag = null;
    if (!moving) return;
    ghost.remove();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 80);
    const over = up.type === "pointerup" ? document.elementFromPoint(up.clientX, up.clientY)?.closest("[data-target]") : null;
    if (over && isLegal(view, source, over.dataset.target)) act(source, over.dataset.target);
    else draw();
  };
  window.addEventListener("pointerup", endDrag, { signal });
  window.addEventListener("pointercancel", endDrag, { signal });

  cancelButton.addEventListener("click", () => { chosen = null; draw(); });
  skipButton.addEventListener("click", () => { queue.skip(); announce(t("sm.say.skipped")); });
  hintButton?.addEventListener("click", async () => {
    hintButton.disabled = true;
    try {
      const answer = await api.smHint(match.id);
      const [source, target] = answer.action;
      chosen = source;
      hinted = [source, target];
      draw({ focus: (table) => table.querySelector(`[data-target="${target}"]`)?.focus() });
      const text = t("sm.hint_line", { card: chosenName(), place: placeName(target, t) });
      replace(suggestion, text);
    } catch (error) {
      replace(suggestion, problemView(error, { role: "status" }));
    } finally {
      hintButton.disabled = false;
    }
  });

  draw();
  drawBanner();
  if (hasResult(match, match.game)) showResult(view.game);
  if (match.status === "finished") showMatchResult();
  if (match.status === "aborted") showAborted();
  // The bot may still be finishing a long turn in the background: its events follow.
  if (match.status === "playing" && view.turn !== view.you) follower?.poke();
  return root;
}
