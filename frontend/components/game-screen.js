// One game being played: the current card, the stock, the face-down meter and the board. Every
// placement goes to the server; what comes back is drawn as it is.

import * as api from "../api.js";
import { announce, h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { writeCapped, read } from "../prefs.js";
import { current, t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { findCell, layout, meter, moveAnnouncement } from "../model/grid.js";
import { focusBoard, renderBoard } from "./board.js";
import { cardFace } from "./card.js";

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

/**
 * Returns the screen's element. `onOver(game)` runs once when the game ends (or at once for a
 * game that is already over); `heading` is the screen's title.
 */
export function gameScreen(initial, { heading, subheading = "", onOver = () => {}, signal } = {}) {
  let game = initial;
  let focus = null;
  let busy = false;
  let finished = false;

  const panel = h("div", { class: "game-panel" });
  const boardSlot = h("div", { class: "board-wrap" });
  const messages = h("div", { class: "game-messages" });
  const hint = h("p", { class: "hint" });
  // The bot's suggestion, in practice only: the server refuses it for a ranked daily anyway.
  const suggestion = h("p", { class: "suggestion", id: "suggestion", "aria-live": "polite" });
  const askButton = initial.mode === "practice"
    ? h("button", { type: "button", class: "button", id: "ask-hint" }, t("hint.ask")) : null;
  askButton?.addEventListener("click", async () => {
    askButton.disabled = true;
    try {
      const answer = await api.hint(game.id);
      const [row, col] = answer.move;
      const cell = findCell(layout(game), row, col);
      const chance = answer.estimates.find((estimate) => estimate.move[0] === row && estimate.move[1] === col);
      replace(suggestion, t("hint.suggestion", {
        row: cell?.line ?? row, col: cell?.column ?? col,
        percent: current().percent(chance?.win_probability ?? 0),
      }));
      focus = { row, col };
      draw();
      focusBoard(boardSlot.firstElementChild);
    } catch (error) {
      replace(suggestion, problemView(error, { role: "status" }));
    } finally {
      askButton.disabled = game.status !== "playing";
    }
  });
  const result = h("div", { class: "result-slot" });
  const root = h("section", { class: "game", "aria-labelledby": "game-heading", dataset: { status: game.status } },
    h("div", { class: "game-head" },
      h("h1", { id: "game-heading" }, heading),
      subheading ? h("p", { class: "subtle" }, subheading) : null),
    h("div", { class: "game-body" }, panel, h("div", { class: "game-main" }, boardSlot, hint, askButton, suggestion, messages)),
    result);

  function drawPanel() {
    const fd = meter(game.face_down);
    const pips = Array.from({ length: fd.max }, (_, index) =>
      h("span", { class: ["pip", index < fd.value ? "pip-on" : null], "aria-hidden": "true" }));
    const playing = game.status === "playing";
    replace(panel,
      h("div", { class: "current", "aria-live": "off" },
        h("span", { class: "label", id: "current-label" }, playing ? t("game.current_card") : t("game.over")),
        playing && game.current_card
          ? h("div", { class: "current-card", "aria-labelledby": "current-label", dataset: { card: game.current_card } }, cardFace(game.current_card))
          : h("div", { class: ["current-card", "current-done", `status-${game.status}`] },
            h("span", { class: "done-mark" }, { won: "★", unfinished: "–" }[game.status] ?? "✕"),
            h("span", { class: "done-text" }, t(`result.${game.status}_short`)))),
      h("dl", { class: "counters" },
        h("div", { class: "counter" },
          h("dt", {}, t("game.stock")),
          h("dd", { class: "stock-value", "aria-label": t("game.stock_aria", { n: game.stock }) }, current().number(game.stock))),
        h("div", { class: ["counter", "meter", `meter-${fd.level}`] },
          h("dt", { id: "meter-label" }, t("game.face_down")),
          h("dd", {},
            h("span", {
              class: "meter-bar", role: "meter", "aria-labelledby": "meter-label",
              "aria-valuemin": "0", "aria-valuemax": String(fd.max), "aria-valuenow": String(fd.value),
              "aria-valuetext": t("meter.label", { n: fd.value, max: fd.max }),
            }, pips),
            h("span", { class: "meter-value" }, t("meter.short", { n: fd.value, max: fd.max }))))),
      fd.level === "danger" && playing
        ? h("p", { class: "meter-warning", role: "note" }, h("span", { "aria-hidden": "true" }, "⚠ "), t("meter.warning"))
        : null);
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
      animate,
    });
    replace(boardSlot, board);
    if (playing) {
      replace(hint, t(game.moves_played === 0 ? "game.hint_first" : "game.hint"));
      if (hadFocus) focusBoard(board);
    } else replace(hint);
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
      replace(messages);
      replace(suggestion);
      busy = false;
      draw({ animate: true });
      announce(moveAnnouncement(game, layout(game), t, (code) => cardName(code, t)));
      if (game.status !== "playing") finish();
    } catch (error) {
      busy = false;
      if (signal?.aborted) return;
      replace(messages, problemView(error));
      if (["stale_move", "game_over", "illegal_move"].includes(error.code)) {
        // The server knows better: show its state of the game.
        try {
          game = await api.game(game.id);
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
