// A finished race: where you came, every racer by the place the server gave (docs/API.md: winners
// by cards left, then time; then the others by cards placed, then time), the bot's score on the
// same deal, each racer's replay (GET /races/{id}/replays, once the race is over), and "Race
// again": the next race with the same people, made by the first to ask and joined by the others,
// in one tap.

import * as raceApi from "./api.js";
import { h, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { botLine, laneWords, minutesSeconds, ranking } from "./model/race.js";
import { clockText, racerName, settingsLine } from "./parts.js";

// While the bot's reference is being worked out, the race is read again this often, so many times.
const BOT_READ_MS = 3000;
const BOT_READS = 40;

/** The result's element, `update(race)` for a race read again (the bot's score, the next
 *  race), and `focus()` to take the focus to its heading. */
export function raceResult(race, me, { signal, game = null }) {
  let shown = race;
  let replays = null;
  const botSlot = h("p", { class: "race-bot", id: "race-bot" });
  const fairSlot = h("div", { class: "fair-slot" });
  const againSlot = h("div", { class: "actions race-again-actions" });
  const replaySlot = h("div", { class: "race-replay-slot", id: "race-replay" });
  const problems = h("div");
  const rows = ranking(race, me);
  const mine = rows.find((row) => row.you);
  const heading = h("h1", { id: "race-result-heading", tabIndex: -1 }, t("race.result_title"));

  async function replay(row, button) {
    const open = button.getAttribute("aria-expanded") === "true";
    for (const other of element.querySelectorAll(".race-replay-button")) other.setAttribute("aria-expanded", "false");
    if (open) {
      replace(replaySlot);
      return;
    }
    button.setAttribute("aria-expanded", "true");
    replace(replaySlot, h("p", { class: "subtle", role: "status" }, t("common.loading")));
    try {
      await replaysOnce();
    } catch (error) {
      replace(replaySlot, problemView(error));
      return;
    }
    const theirs = (replays.racers ?? []).find((item) => (item.player?.id ?? item.player) === row.id);
    if (!theirs) {
      replace(replaySlot);
      return;
    }
    const { renderReplay } = await import("../replay-view.js");
    // Your own game's flips were seen on this device (its id finds them); the others' boards
    // show their final faces.
    await renderReplay(replaySlot, { id: row.you ? shown.game : null, grid: row.board ?? (row.you ? game?.grid : null) ?? null }, {
      record: { deck: replays.deck, moves: theirs.moves },
      title: row.you ? t("race.replay_yours") : t("race.replay_of", { name: row.name }),
    });
    replaySlot.scrollIntoView?.({ block: "nearest" });
  }

  const list = h("ol", { class: "race-ranking", id: "race-ranking" }, rows.map((row) => {
    const words = laneWords(row);
    const button = h("button", { type: "button", class: "button race-replay-button", "aria-expanded": "false", dataset: { replay: row.id } },
      t("race.replay"));
    button.addEventListener("click", () => replay(row, button));
    return h("li", { class: ["race-rank", row.you ? "race-rank-you" : null, `race-rank-${row.status}`], dataset: { player: row.id, place: row.place ?? "", status: row.status } },
      h("span", { class: "race-rank-place", "aria-label": row.place ? t("race.place_aria", { place: row.place }) : null }, row.place ? current().number(row.place) : "–"),
      h("span", { class: "race-rank-who" }, racerName(row),
        h("span", { class: "race-rank-line subtle" }, current().list([
          t(words.key, words.params),
          row.seconds !== null ? t("race.in_time", { time: clockText(minutesSeconds(row.seconds)) }) : null,
        ]))),
      button);
  }));

  function fill(next) {
    const line = botLine(next);
    botSlot.textContent = t(line.key, line.params);
    botSlot.dataset.bot = next.bot?.status ?? "pending";
    const again = h("button", { type: "button", class: "button primary big", id: "race-again" }, t(next.next_race ? "race.again_join" : "race.again"));
    again.addEventListener("click", async () => {
      again.disabled = true;
      replace(problems);
      try {
        const fresh = await raceApi.raceAgain(next.id);
        navigate(`/races/${fresh.id}`);
      } catch (error) {
        again.disabled = false;
        replace(problems, problemView(error));
      }
    });
    const hadFocus = againSlot.contains(document.activeElement);
    replace(againSlot, mine ? again : null, h("a", { class: "button", href: "#/races" }, t("race.all")));
    if (hadFocus) againSlot.querySelector("button, a")?.focus();
  }

  const element = h("section", { class: "page race-page race-result", "aria-labelledby": "race-result-heading", dataset: { race: race.id } },
    heading,
    h("p", { class: "lead", id: "race-your-place" }, mine?.place
      ? t("race.your_place", { place: mine.place, n: rows.length }) : t("race.finished_line")),
    h("p", { class: "subtle" }, settingsLine(race)),
    againSlot,
    problems,
    list,
    botSlot,
    fairSlot,
    replaySlot);
  fill(race);
  // Its deal, from the seeds revealed with the ranking, checked against the replays' deck.
  const replaysOnce = async () => (replays ??= await raceApi.raceReplays(shown.id));
  import("../fairness.js").then(({ raceLine }) => signal?.aborted || replace(fairSlot, raceLine(race, replaysOnce, { signal })));

  // The bot's reference comes from a background job: read the race until it is there.
  let reads = 0;
  const timer = setInterval(async () => {
    if (shown.bot?.status || reads >= BOT_READS || signal?.aborted) {
      clearInterval(timer);
      return;
    }
    reads += 1;
    try {
      update(await raceApi.race(shown.id));
    } catch { /* the next read */ }
  }, BOT_READ_MS);
  signal?.addEventListener("abort", () => clearInterval(timer));

  function update(next) {
    if (next.id !== shown.id) return;
    const changed = next.next_race !== shown.next_race || next.bot?.status !== shown.bot?.status;
    shown = next;
    if (changed) fill(next);
  }

  return { element, update, focus: () => heading.focus({ preventScroll: false }) };
}
