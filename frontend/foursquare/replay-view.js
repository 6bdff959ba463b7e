// The replay of a finished game: step through the moves over the now-revealed deal.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { drawnPlace, replaySteps, stepAsGame } from "./model/replay.js";
import { icon } from "../lib/icons.js";
import { renderBoard } from "./board.js";
import { cardFace } from "../components/card.js";
import { rememberedFlips } from "./game-screen.js";

// How long each move shows while the replay plays.
const STEP_MS = 900;

/** Fills `slot` with the replay of a finished `game`, at its start (`at` opens another move).
 *  `record` ({deck, moves}) is given where the caller has it (a race's replays), else read;
 *  `title` names whose game it is. */
export async function renderReplay(slot, game, { at = 0, record: given = null, title = null } = {}) {
  replace(slot, h("p", { class: "subtle", role: "status" }, t("common.loading")));
  let record = given;
  try {
    record ??= await api.record(game.id);
  } catch (error) {
    replace(slot, problemView(error));
    return;
  }
  const steps = replaySteps(record, rememberedFlips(game.id), game.grid);
  const last = steps.length - 1;
  let index = Math.max(0, Math.min(last, at));
  let timer = null;

  const caption = h("p", { class: "replay-caption", "aria-live": "polite" });
  const boardSlot = h("div", { class: "board-wrap replay-board" });
  const deck = h("ol", { class: "deck", "aria-label": t("replay.deal") },
    record.deck.map((code, position) => h("li", { class: "deck-card", dataset: { index: position } },
      cardFace(code, { label: true }))));
  const note = h("p", { class: "subtle replay-note" });
  const button = (name, label, go) => h("button", {
    type: "button", class: "button icon", "aria-label": label, title: label, dataset: { control: name },
    on: { click: () => { stop(); show(go()); } },
  }, icon(name));
  const play = h("button", {
    type: "button", class: "button icon replay-play", "aria-label": t("replay.play"), title: t("replay.play"),
    "aria-pressed": "false", dataset: { control: "play" },
  }, icon("play"));
  play.addEventListener("click", () => (timer ? stop() : start()));
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    button("first", t("replay.first"), () => 0),
    button("previous", t("replay.previous"), () => index - 1),
    play,
    button("next", t("replay.next"), () => index + 1),
    button("last", t("replay.last"), () => last));
  const slider = h("input", {
    type: "range", min: "0", max: String(last), value: String(index), class: "replay-slider",
    "aria-label": t("replay.position"),
    on: { input: (event) => { stop(); show(Number(event.target.value)); } },
  });

  function setPlaying(playing) {
    play.setAttribute("aria-pressed", playing ? "true" : "false");
    const label = t(playing ? "replay.pause" : "replay.play");
    play.setAttribute("aria-label", label);
    play.title = label;
    replace(play, icon(playing ? "pause" : "play"));
  }

  function start() {
    // Played to the end already: ▶ plays it again from the start.
    if (index >= last) show(0);
    setPlaying(true);
    timer = setInterval(() => {
      if (!slot.isConnected || index >= last) {
        stop();
        return;
      }
      show(index + 1);
    }, STEP_MS);
  }

  function stop() {
    if (!timer) return;
    clearInterval(timer);
    timer = null;
    setPlaying(false);
  }

  function show(target) {
    index = Math.max(0, Math.min(last, target));
    const step = steps[index];
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", t("replay.step", { n: index, total: last }));
    const asGame = stepAsGame(step);
    if (step.card) {
      caption.textContent = `${t("replay.step", { n: index, total: last })}: ${t("replay.placed", {
        // Where the card went, as the board below draws this step.
        card: cardName(step.card, t), ...drawnPlace(asGame, step.at[0], step.at[1]),
      })} ${step.known ? (step.flipped.length ? t("announce.flipped", { n: step.flipped.length }) : t("announce.no_flip")) : ""}`;
    } else caption.textContent = t("replay.start");
    replace(boardSlot, step.piles.length
      ? renderBoard(asGame, { label: t("replay.board"), drawnPlaces: true, highlight: step.card ? { at: step.at, flipped: step.flipped } : null })
      : h("p", { class: "subtle replay-empty" }, t("replay.empty")));
    for (const item of deck.children) {
      const position = Number(item.dataset.index);
      item.classList.toggle("deck-used", position < index - 1);
      item.classList.toggle("deck-now", position === index - 1);
    }
    note.textContent = steps.every((s) => s.known) ? "" : t("replay.faces_unknown");
    slot.querySelector(".replay")?.setAttribute("data-step", String(index));
  }

  replace(slot, h("section", { class: "replay", "aria-labelledby": "replay-heading", dataset: { step: String(index) } },
    h("h3", { id: "replay-heading" }, title ?? t("replay.title")),
    controls, slider, caption, boardSlot, note,
    h("h4", {}, t("replay.deal")), deck));
  show(index);
}
