// #/races/<id>: one race from its waiting room to its result, kept current by the race's
// socket (live.js, or reading the race where there is none):
//   waiting    the link and code to send, the racers as they join, the host's Start;
//   countdown  the seconds to `starts_at`, the same for everyone (nothing of the deal shows yet);
//   race       your board, played as any game is (game-screen.js, the ordinary move endpoint),
//              the clock to `ends_at`, and a lane per opponent; once your game is over you may
//              open the others' boards;
//   result     the ranking, the bot's score on the deal, replays, and "Race again" (result.js).
// The clock only says when to look: what the race is comes from the server each time.

import * as api from "../../api.js";
import * as raceApi from "./api.js";
import { announce, copyText, h, loading, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { toast } from "../../components/toast.js";
import { gameScreen } from "../game-screen.js";
import { focusBoard } from "../board.js";
import {
  canStart, clock, isHost, isRacer, joinLink, lanes, laneWords, minutesSeconds, opponents, phase, progressOf, withProgress,
} from "./model/race.js";
import { followRace } from "./live.js";
import { COMPACT_FROM, lanesView } from "./lanes.js";
import { back, clockText, page, racerName, settingsLine } from "./parts.js";
import { raceResult } from "./result.js";

// Which view a phase is drawn in: the race's view stays up past the clock until the server
// has finished the race.
const OPEN_RETRY_MS = 250;
const OPEN_TRIES = 40;
const VIEWS = { waiting: "waiting", countdown: "countdown", playing: "race", closing: "race", finished: "result", cancelled: "cancelled" };
const TICK_MS = 250;
const CLOSING_READ_MS = 2000;

export default async function room(root, route, { signal }) {
  const id = route.parts[1];
  replace(root, loading());
  let race;
  let me;
  try {
    [race, me] = await Promise.all([raceApi.race(id), api.me()]);
  } catch (error) {
    if (!signal.aborted) replace(root, page("race-problem-heading", "race-problem", back(), h("h1", { id: "race-problem-heading" }, t("race.title")), problemView(error)));
    return;
  }
  if (signal.aborted) return;

  const you = me.id;
  let view = null;
  let game = null; // your game, once read
  let gamePending = null;
  let liveState = "connecting";
  let parts = {}; // the drawn view's pieces that change
  let lastRead = 0;
  let lastSecond = null;

  const screen = h("div", { class: "race-screen", dataset: { race: id } });
  replace(root, screen);

  function setRace(next) {
    // A message about another race (the next one, say) is not this screen's.
    if (next.id !== id) return;
    race = next;
    update();
  }

  const live = followRace(id, {
    onRace: setRace,
    onProgress: (message) => {
      const before = lanes(race, you).find((lane) => lane.id === message.player);
      race = withProgress(race, message);
      drawLanes();
      // An opponent's game ending is said; their every card is not (the lanes show it).
      const after = lanes(race, you).find((lane) => lane.id === message.player);
      if (before?.status === "playing" && after && !after.you && after.status !== "playing") {
        const words = laneWords(after);
        announce(`${after.name}: ${t(words.key, words.params)}`);
      }
    },
    onState: (state) => {
      liveState = state;
      screen.dataset.live = state;
      parts.connection?.replaceChildren(state === "reconnecting" ? t("race.reconnecting") : "");
    },
  });
  const ticker = setInterval(tick, TICK_MS);
  signal.addEventListener("abort", () => {
    live.stop();
    clearInterval(ticker);
  });

  function readGame() {
    if (game || !race.game) return Promise.resolve(game);
    gamePending ??= gameOnceOpen().then((value) => { game = value; return value; }).finally(() => { gamePending = null; });
    return gamePending;
  }

  // Until the race starts the server shows nothing of the deal (no current card, no legal
  // moves): a game read a moment early, by a clock ahead of the server's, is read again.
  async function gameOnceOpen() {
    for (let tries = 1; ; tries += 1) {
      const value = await api.game(race.game);
      if (value.status !== "playing" || value.current_card !== null || tries >= OPEN_TRIES || signal.aborted) return value;
      await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS));
    }
  }

  function update() {
    const now = Date.now();
    const next = VIEWS[phase(race, now)];
    screen.dataset.phase = phase(race, now);
    screen.dataset.status = race.status;
    if (next !== view) {
      view = next;
      parts = {};
      draw();
    } else refresh();
  }

  function draw() {
    if (view === "waiting") drawWaiting();
    else if (view === "countdown") drawCountdown();
    else if (view === "race") drawRace();
    else if (view === "result") drawResult();
    else drawCancelled();
  }

  function refresh() {
    if (view === "waiting") fillWaiting();
    else if (view === "race" || view === "countdown") drawLanes();
    else if (view === "result") parts.result?.update(race);
  }

  function tick() {
    if (signal.aborted) return;
    const now = Date.now();
    if (VIEWS[phase(race, now)] !== view) {
      update();
      return;
    }
    const state = clock(race, now);
    if (view === "countdown" && parts.count) {
      parts.count.textContent = current().number(Math.max(1, state.seconds));
      parts.count.dataset.seconds = String(state.seconds);
    }
    if (view === "race" && parts.clock) {
      const time = parts.clock.querySelector("time");
      time.textContent = state.phase === "closing" ? t("race.times_up") : clockText(minutesSeconds(state.seconds));
      parts.clock.classList.toggle("race-clock-low", state.low);
      parts.clock.dataset.seconds = String(state.seconds);
      if (state.seconds !== lastSecond && (state.seconds === 60 || state.seconds === 10)) announce(t("race.seconds_left", { n: state.seconds }));
      if (state.phase === "closing" && lastSecond !== 0) announce(t("race.times_up"));
      lastSecond = state.seconds;
      // The server finishes the race at its end (its socket says so); read it now and then
      // meanwhile, in case no socket does.
      if (state.phase === "closing" && now - lastRead > CLOSING_READ_MS) {
        lastRead = now;
        live.refresh();
      }
    }
  }

  // --- The waiting room -----------------------------------------------------------------------

  function drawWaiting() {
    const link = joinLink(location.origin, race);
    const linkInput = h("input", { id: "race-link", class: "race-link", readonly: true, value: link, dir: "ltr", "aria-label": t("race.link") });
    linkInput.addEventListener("focus", () => linkInput.select());
    const copy = h("button", { type: "button", class: "button primary", id: "race-copy" }, t("race.copy"));
    copy.addEventListener("click", async () => toast((await copyText(link)) ? t("race.copied") : t("race.copy_failed")));
    const shareData = { title: t("race.title"), text: t("race.share_text", { settings: settingsLine(race) }), url: link };
    const share = navigator.share && (!navigator.canShare || navigator.canShare(shareData))
      ? h("button", { type: "button", class: "button", id: "race-share" }, t("race.share")) : null;
    share?.addEventListener("click", () => navigator.share(shareData).catch(() => null));

    parts.racers = h("ul", { class: "race-racers", id: "race-racers" });
    parts.count = null;
    parts.heading = h("h2", { id: "race-racers-heading" });
    parts.invited = h("p", { class: "subtle", id: "race-invited" });
    parts.status = h("p", { class: "race-room-status", id: "race-room-status", role: "status" });
    parts.actions = h("div", { class: "actions race-room-actions" });
    parts.problems = h("div", { class: "race-problems" });
    parts.connection = h("p", { class: "race-connection", role: "status" });

    replace(screen, page("race-room-heading", "race-room",
      back(),
      h("h1", { id: "race-room-heading" }, t("race.room_title")),
      h("p", { class: "lead" }, settingsLine(race)),
      parts.connection,
      h("div", { class: "card-section race-invite" },
        h("label", { for: "race-link" }, t("race.link")),
        linkInput,
        h("div", { class: "actions" }, copy, share),
        h("p", { class: "subtle" }, t("race.code_line"), " ", h("code", { id: "race-code", dir: "ltr" }, race.code))),
      h("section", { "aria-labelledby": "race-racers-heading" }, parts.heading, parts.racers, parts.invited),
      parts.status,
      parts.actions,
      parts.problems));
    fillWaiting();
  }

  async function act(button, call, after) {
    button.disabled = true;
    replace(parts.problems);
    try {
      const answer = await call();
      if (signal.aborted) return;
      after?.(answer);
    } catch (error) {
      if (signal.aborted) return;
      button.disabled = false;
      replace(parts.problems, problemView(error));
    }
  }

  function fillWaiting() {
    const all = lanes(race, you);
    parts.heading.textContent = t("race.racers_n", { n: all.length, total: race.players });
    replace(parts.racers, all.map((lane) => h("li", { dataset: { player: lane.id } },
      racerName(lane), lane.host ? h("span", { class: "race-host-tag" }, t("race.host")) : null)));
    const joined = new Set(all.map((lane) => lane.id));
    const invited = (race.invited ?? []).filter((player) => !joined.has(player.id));
    replace(parts.invited, invited.length ? t("race.invited", { names: new Intl.ListFormat(current().lang, { type: "conjunction" }).format(invited.map((player) => player.name)) }) : "");

    const host = isHost(race, you);
    const racer = isRacer(race, you);
    parts.status.textContent = host
      ? t(canStart(race, you) ? "race.room_ready" : "race.room_need_two")
      : racer ? t("race.room_waiting_host", { name: race.host?.name ?? "" }) : t("race.room_invited", { name: race.host?.name ?? "" });
    const buttons = [];
    if (host) {
      const start = h("button", { type: "button", class: "button primary big", id: "race-start", disabled: !canStart(race, you) }, t("race.start"));
      start.addEventListener("click", () => act(start, () => raceApi.raceStart(id), setRace));
      buttons.push(start);
    }
    if (!racer) {
      const join = h("button", { type: "button", class: "button primary big", id: "race-join-invited" }, t("race.join_button"));
      join.addEventListener("click", () => act(join, () => raceApi.raceJoin(id), setRace));
      buttons.push(join);
    } else {
      const leave = h("button", { type: "button", class: "button", id: "race-leave" }, t(host ? "race.call_off" : "race.leave"));
      leave.addEventListener("click", () => {
        // Calling off a race ends it for everyone: the host's first tap asks.
        if (host && leave.dataset.armed !== "true") {
          leave.dataset.armed = "true";
          leave.classList.add("danger");
          leave.textContent = t("race.call_off_sure");
          return;
        }
        act(leave, () => raceApi.raceLeave(id), () => {
          toast(t(host ? "race.called_off" : "race.left"));
          navigate("/races");
        });
      });
      buttons.push(leave);
    }
    // Keep the focus on a button that is drawn again.
    const focused = document.activeElement?.id;
    replace(parts.actions, buttons);
    if (focused && parts.actions.querySelector(`#${focused}`)) parts.actions.querySelector(`#${focused}`).focus();
  }

  // --- The countdown --------------------------------------------------------------------------

  function drawCountdown() {
    const { seconds } = clock(race);
    parts.count = h("p", { class: "race-countdown", id: "race-countdown", dataset: { seconds: String(seconds) }, "aria-live": "off" },
      current().number(Math.max(1, seconds)));
    parts.lanes = h("div", { class: "race-lanes-slot" });
    replace(screen, page("race-countdown-heading", "race-get-ready",
      h("h1", { id: "race-countdown-heading" }, t("race.get_ready")),
      parts.count,
      h("p", { class: "lead" }, t("race.countdown_text", { n: race.minutes })),
      parts.lanes));
    announce(t("race.get_ready"));
    drawLanes();
  }

  // --- The race -------------------------------------------------------------------------------

  function drawLanes() {
    if (!parts.lanes) return;
    const watch = view === "race" && (game?.status ?? "playing") !== "playing";
    const list = view === "countdown" ? lanes(race, you) : opponents(race, you);
    // An opened board stays open when the lanes are drawn again.
    const open = new Set([...parts.lanes.querySelectorAll(".race-lane details[open]")].map((item) => item.closest(".race-lane").dataset.player));
    replace(parts.lanes, lanesView(list, { watch }));
    const raceGame = parts.lanes.closest(".race-game");
    raceGame?.style.setProperty("--lane-rows", String(Math.ceil(list.length / 2)));
    raceGame?.style.setProperty("--lane-rows-wide", String(Math.ceil(list.length / 6)));
    raceGame?.style.setProperty("--lane-height", list.length >= COMPACT_FROM ? "34px" : "88px");
    for (const item of parts.lanes.querySelectorAll(".race-lane")) {
      if (open.has(item.dataset.player)) item.querySelector("details")?.setAttribute("open", "");
    }
  }

  async function drawRace() {
    parts.lanes = h("div", { class: "race-lanes-slot" });
    parts.connection = h("p", { class: "race-connection", role: "status" });
    parts.clock = h("p", { class: "race-clock", id: "race-clock", role: "timer" },
      h("span", { class: "race-clock-label" }, t("race.time_left")), " ", h("time", {}, ""));
    if (!isRacer(race, you) || !race.game) {
      // An invitee who did not join watches the counts only.
      replace(screen, page("race-watch-heading", "race-watching",
        back(), h("h1", { id: "race-watch-heading" }, t("race.title")), parts.clock,
        h("p", { class: "lead" }, t("race.without_you")), parts.lanes, parts.connection));
      tick();
      drawLanes();
      return;
    }
    const thisView = parts;
    replace(screen, loading());
    let mine;
    try {
      mine = await readGame();
    } catch (error) {
      if (!signal.aborted && parts === thisView) replace(screen, page("race-problem-heading", "race-problem", back(), problemView(error)));
      return;
    }
    if (signal.aborted || parts !== thisView) return;
    const starting = !screen.contains(document.activeElement);
    const element = gameScreen(mine, {
      heading: t("race.title"),
      subheading: settingsLine(race),
      signal,
      onMove: (next) => {
        game = next;
        race = withProgress(race, { player: you, progress: progressOf(next) });
      },
      onOver: (over, slot) => {
        game = over;
        replace(slot, ownResult(over));
        drawLanes();
      },
    });
    element.classList.add("race-game");
    element.querySelector(".game-head").append(parts.clock);
    element.querySelector(".game-head").after(h("div", { class: "race-bar" }, parts.lanes, parts.connection));
    replace(screen, element);
    screen.dataset.live = liveState;
    tick();
    drawLanes();
    if (starting && mine.status === "playing") focusBoard(element.querySelector(".board"));
  }

  /** Your game is over and the race goes on: how it went, and that the others' boards open. */
  function ownResult(over) {
    const line = over.status === "won" ? t("race.own_won", { n: over.score ?? 0 })
      : over.status === "lost" ? t("race.own_lost", { n: over.moves_played })
        : t("race.own_out_of_time", { n: over.moves_played });
    announce(line);
    return h("section", { class: "race-own", id: "race-own", "aria-live": "polite", dataset: { status: over.status } },
      h("h2", {}, line),
      h("p", { class: "subtle" }, t("race.own_wait")));
  }

  // --- The result, or a race called off --------------------------------------------------------

  function drawResult() {
    parts.result = raceResult(race, you, { signal, game });
    replace(screen, parts.result.element);
    parts.result.focus();
  }

  function drawCancelled() {
    replace(screen, page("race-cancelled-heading", "race-cancelled",
      back(),
      h("h1", { id: "race-cancelled-heading" }, t("race.cancelled_title")),
      h("p", { class: "lead" }, t("race.cancelled_text")),
      h("div", { class: "actions" }, h("a", { class: "button primary", href: "#/races/new" }, t("race.new")))));
  }

  update();
}
