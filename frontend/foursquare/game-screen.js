// One game being played: the current card, the stock, the face-down meter and the board. Every
// placement goes to the server; what comes back is drawn as it is.

import * as api from "../api.js";
import { announce, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { writeCapped, read } from "../prefs.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { cellPlace, layout, meter, moveAnnouncement, previewPhrases } from "./model/grid.js";
import { markCell } from "./cell-marks.js";
import { icon } from "../lib/icons.js";
import { focusBoard, renderBoard } from "./board.js";
import { cardFace, cardStack } from "../components/card.js";
import { markSection } from "../components/header.js";

/** Remembers which piles the server turned over at each move, for this device's replays. */
export function rememberFlips(game) {
  if (!game.last_move) return;
  const flips = read("flips", {})[game.id] ?? {};
  flips[game.moves_played - 1] = game.last_move.flipped;
  writeCapped("flips", game.id, flips);
}

export function rememberedFlips(gameId) {
  return read("flips", {})[gameId] ?? {};
}

/** Remembers the face-down count after each move, the story the share text tells. */
export function rememberStory(game) {
  if (!game.last_move) return;
  const story = read("story", {})[game.id] ?? {};
  story[game.moves_played - 1] = game.face_down;
  writeCapped("story", game.id, story);
}

/** The face-down count after every move of the game, if this device saw them all; else null. */
export function rememberedStory(game) {
  const story = read("story", {})[game.id] ?? {};
  const counts = Array.from({ length: game.moves_played }, (_, index) => story[index]);
  return counts.length && counts.every((n) => Number.isInteger(n)) ? counts : null;
}

/**
 * Returns the screen's element. `onOver(game)` runs once when the game ends (or at once for a
 * game that is already over); `onMove(game)` after each move the server took (or its state read
 * again after a refusal); `heading` is the screen's title.
 */
export function gameScreen(initial, { heading, subheading = "", onOver = () => {}, onMove = () => {}, signal } = {}) {
  let game = initial;
  let focus = null;
  let busy = false;
  let finished = false;
  let suggested = null; // the bot's suggested cell, marked on the board until the next move

  const panel = h("div", { class: "game-panel" });
  const boardSlot = h("div", { class: "board-wrap" });
  const messages = h("div", { class: "game-messages" });
  // One line under the board, always there (it never pushes anything): the hint, or what the
  // previewed placement would do.
  const hint = h("p", { class: "hint preview-line", id: "preview-line" });
  // The bot's suggestion, in practice only: the server refuses it for a ranked daily anyway.
  const suggestion = h("p", { class: "suggestion", id: "suggestion", "aria-live": "polite" });
  const askButton = initial.mode === "practice"
    ? h("button", { type: "button", class: "button", id: "ask-hint" }, t("hint.ask")) : null;
  askButton?.addEventListener("click", async () => {
    askButton.disabled = true;
    try {
      const answer = await api.hint(game.id);
      const [row, col] = answer.move;
      const chance = answer.estimates.find((estimate) => estimate.move[0] === row && estimate.move[1] === col);
      replace(suggestion, t("hint.suggestion", {
        ...cellPlace(row, col),
        percent: current().percent(chance?.win_probability ?? 0),
      }));
      focus = { row, col };
      suggested = [row, col];
      draw();
      focusBoard(boardSlot.firstElementChild);
    } catch (error) {
      replace(suggestion, problemView(error, { role: "status" }));
    } finally {
      askButton.disabled = game.status !== "playing";
    }
  });
  // The result comes first, above the table, once the game is over.
  const result = h("div", { class: "result-slot" });
  const root = h("section", { class: "game", "aria-labelledby": "game-heading", dataset: { status: game.status } },
    h("div", { class: "game-head" },
      h("h1", { id: "game-heading" }, heading),
      subheading ? h("p", { class: "subtle" }, subheading) : null),
    result,
    h("div", { class: "game-body" }, panel, h("div", { class: "game-main" }, boardSlot, hint, askButton, suggestion, messages)));
  markSection(initial.mode === "daily" ? "today" : "practice");

  function drawPanel() {
    const fd = meter(game.face_down);
    const playing = game.status === "playing";
    if (!playing) {
      // Over: the outcome only; no stock, no meter (the result above says the rest).
      replace(panel, h("div", { class: "current" },
        h("span", { class: "label", id: "current-label" }, t("game.over")),
        h("div", { class: ["current-card", "current-done", `status-${game.status}`] },
          h("span", { class: "done-mark", "aria-hidden": "true" }, icon({ won: "star", unfinished: "dash" }[game.status] ?? "cross")),
          h("span", { class: "done-text" }, t(`result.${game.status}_short`)))));
      panel.classList.add("game-panel-over");
      return;
    }
    panel.classList.remove("game-panel-over");
    const pips = Array.from({ length: fd.max }, (_, index) =>
      h("span", { class: ["pip", index < fd.value ? "pip-on" : null], "aria-hidden": "true" }));
    replace(panel,
      h("div", { class: "current", "aria-live": "off" },
        h("span", { class: "label", id: "current-label" }, t("game.current_card")),
        h("div", { class: "current-card", "aria-labelledby": "current-label", dataset: { card: game.current_card } },
          cardFace(game.current_card))),
      h("dl", { class: "counters" },
        h("div", { class: "counter counter-stock" },
          h("dt", {}, t("game.stock")),
          h("dd", { class: "stock-value", "aria-label": t("game.stock_aria", { n: game.stock }) },
            h("span", { class: "stock-pile", "aria-hidden": "true" }, cardStack(h("span", { class: "card card-back card-back-plain" }), { height: Math.min(game.stock + 1, 4) })),
            h("span", { class: "stock-number" }, current().number(game.stock)))),
        h("div", { class: ["counter", "meter", `meter-${fd.level}`] },
          h("dt", { id: "meter-label" }, t("game.face_down")),
          h("dd", {},
            h("span", {
              class: "meter-bar", role: "meter", "aria-labelledby": "meter-label",
              "aria-valuemin": "0", "aria-valuemax": String(fd.max), "aria-valuenow": String(fd.value),
              "aria-valuetext": t("meter.label", { n: fd.value, max: fd.max }),
            }, pips),
            h("span", { class: "meter-value" }, t("meter.short", { n: fd.value, max: fd.max }))))));
  }

  function showHint(preview = null, { armed = false, refused = false } = {}) {
    if (game.status !== "playing") { replace(hint); return; }
    if (refused) {
      replace(hint, h("span", { class: "preview-refused" }, t("preview.not_here")));
      // A click or Enter on a cell that takes no card is heard too, not only seen.
      announce(t("preview.not_here"));
      return;
    }
    if (!preview) {
      // At four face-down piles the line under the board warns instead: it is always there,
      // so the warning moves nothing, and a preview then says whether a move would lose.
      if (meter(game.face_down).level === "danger") {
        replace(hint, h("span", { class: "meter-warning", role: "note" },
          icon("mistake", { className: "warning-icon" }), " ", t("meter.warning")));
      } else replace(hint, t(game.moves_played === 0 ? "game.hint_first" : "game.hint_preview"));
      return;
    }
    const [turns, after] = previewPhrases(preview, t);
    replace(hint,
      h("span", { class: ["preview-chip", preview.flipped.length ? "chip-turns" : null] }, turns),
      h("span", { class: ["preview-chip", `chip-${preview.status === "playing" ? meter(preview.face_down).level : preview.status}`] }, after),
      armed ? h("span", { class: "preview-chip chip-again" }, t("preview.tap_again")) : null);
  }

  function draw({ animate = false } = {}) {
    root.dataset.status = game.status;
    root.dataset.moves = String(game.moves_played);
    drawPanel();
    const hadFocus = boardSlot.contains(document.activeElement);
    const playing = game.status === "playing";
    const board = renderBoard(game, {
      onPlace: playing ? place : null,
      focus,
      onFocus: (position) => { focus = position; },
      onPreview: showHint,
      animate,
    });
    replace(boardSlot, board);
    if (playing && suggested) markCell(board, suggested, "bot", t("analysis.bot"));
    showHint();
    if (playing && hadFocus) focusBoard(board);
    if (askButton) askButton.hidden = !playing;
    boardSlot.setAttribute("aria-busy", busy ? "true" : "false");
  }

  async function place(row, col) {
    if (busy || game.status !== "playing") return;
    busy = true;
    focus = { row, col };
    boardSlot.setAttribute("aria-busy", "true");
    root.classList.add("is-busy");
    try {
      game = await api.play(game.id, { row, col, move: game.moves_played });
      rememberFlips(game);
      rememberStory(game);
      replace(messages);
      replace(suggestion);
      suggested = null;
      busy = false;
      draw({ animate: true });
      announce(moveAnnouncement(game, layout(game), t, (code) => cardName(code, t)));
      onMove(game);
      if (game.status !== "playing") finish();
    } catch (error) {
      busy = false;
      if (signal?.aborted) return;
      replace(messages, problemView(error));
      // A race's game whose time ran out (409 out_of_time) is over too.
      if (["stale_move", "game_over", "illegal_move", "out_of_time"].includes(error.code)) {
        // The server knows better: show its state of the game.
        try {
          game = await api.game(game.id);
          onMove(game);
        } catch { /* keep what is on screen */ }
        draw();
        if (game.status !== "playing") finish();
      } else draw();
    } finally {
      root.classList.remove("is-busy");
    }
  }

  function finish() {
    if (finished) return;
    finished = true;
    onOver(game, result);
  }

  draw();
  if (game.status !== "playing") queueMicrotask(finish);
  return root;
}
