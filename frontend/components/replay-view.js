// The replay of a finished game: step through the moves over the now-revealed deal.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { layout, findCell } from "../model/grid.js";
import { replaySteps, stepAsGame } from "../model/replay.js";
import { renderBoard } from "./board.js";
import { cardFace } from "./card.js";
import { rememberedFlips } from "./game-screen.js";

export async function renderReplay(slot, game) {
  replace(slot, h("p", { class: "subtle", role: "status" }, t("common.loading")));
  let record;
  try {
    record = await api.record(game.id);
  } catch (error) {
    replace(slot, problemView(error));
    return;
  }
  const steps = replaySteps(record, rememberedFlips(game.id), game.grid);
  const last = steps.length - 1;
  let index = last;

  const caption = h("p", { class: "replay-caption", "aria-live": "polite" });
  const boardSlot = h("div", { class: "board-wrap replay-board" });
  const deck = h("ol", { class: "deck", "aria-label": t("replay.deal") },
    record.deck.map((code, position) => h("li", { class: "deck-card", dataset: { index: position } },
      cardFace(code, { label: true }))));
  const note = h("p", { class: "subtle replay-note" });
  const button = (label, symbol, go) => h("button", {
    type: "button", class: "button icon", "aria-label": label, title: label, on: { click: () => show(go()) },
  }, h("span", { "aria-hidden": "true" }, symbol));
  const rtl = current().dir === "rtl";
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    button(t("replay.first"), rtl ? "⏭" : "⏮", () => 0),
    button(t("replay.previous"), rtl ? "▶" : "◀", () => index - 1),
    button(t("replay.next"), rtl ? "◀" : "▶", () => index + 1),
    button(t("replay.last"), rtl ? "⏮" : "⏭", () => last));
  const slider = h("input", {
    type: "range", min: "0", max: String(last), value: String(index), class: "replay-slider",
    "aria-label": t("replay.position"),
    on: { input: (event) => show(Number(event.target.value)) },
  });

  function show(target) {
    index = Math.max(0, Math.min(last, target));
    const step = steps[index];
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", t("replay.step", { n: index, total: last }));
    const asGame = stepAsGame(step);
    const grid = layout(asGame);
    if (step.card) {
      const cell = findCell(grid, step.at[0], step.at[1]);
      caption.textContent = `${t("replay.step", { n: index, total: last })}: ${t("replay.placed", {
        card: cardName(step.card, t), row: cell.line, col: cell.column,
      })} ${step.known ? (step.flipped.length ? t("announce.flipped", { n: step.flipped.length }) : t("announce.no_flip")) : ""}`;
    } else caption.textContent = t("replay.start");
    replace(boardSlot, step.piles.length
      ? renderBoard(asGame, { label: t("replay.board"), highlight: step.card ? { at: step.at, flipped: step.flipped } : null })
      : h("p", { class: "subtle" }, t("replay.empty")));
    for (const item of deck.children) {
      const position = Number(item.dataset.index);
      item.classList.toggle("deck-used", position < index - 1);
      item.classList.toggle("deck-now", position === index - 1);
    }
    note.textContent = steps.every((s) => s.known) ? "" : t("replay.faces_unknown");
  }

  replace(slot, h("section", { class: "replay", "aria-labelledby": "replay-heading" },
    h("h3", { id: "replay-heading" }, t("replay.title")),
    controls, slider, caption, boardSlot, note,
    h("h4", {}, t("replay.deal")), deck));
  show(index);
}
