// A guided first game: five scripted placements from a real deal, each followed by what the
// rules made of it. The positions were produced by the engine (they are the first moves of the
// test vector v000); nothing here computes a rule.

import { announce, h, replace } from "../lib/dom.js";
import { write } from "../prefs.js";
import { t } from "../i18n.js";
import { parseCard } from "../model/cards.js";
import { meter } from "./model/grid.js";
import { renderBoard, focusBoard } from "./board.js";
import { cardFace } from "../components/card.js";

const pile = (row, col, card, height = 1) => ({ row, col, height, face_up: card !== null, card });

const STEPS = [
  { card: "4S", target: [0, 0], grid: [], after: [pile(0, 0, "4S")], flipped: [] },
  { card: "TC", target: [1, 0], grid: [pile(0, 0, "4S")], after: [pile(0, 0, null), pile(1, 0, "TC")], flipped: [[0, 0]] },
  { card: "3C", target: [0, -1], grid: [pile(0, 0, null), pile(1, 0, "TC")], after: [pile(0, -1, "3C"), pile(0, 0, "4S"), pile(1, 0, "TC")], flipped: [[0, 0]] },
  { card: "3D", target: [0, 0], grid: [pile(0, -1, "3C"), pile(0, 0, "4S"), pile(1, 0, "TC")], after: [pile(0, -1, "3C"), pile(0, 0, "3D", 2), pile(1, 0, null)], flipped: [[1, 0]] },
  { card: "7D", target: [-1, 0], grid: [pile(0, -1, "3C"), pile(0, 0, "3D", 2), pile(1, 0, null)], after: [pile(-1, 0, "7D"), pile(0, -1, "3C"), pile(0, 0, null, 2), pile(1, 0, "TC")], flipped: [[0, 0], [1, 0]] },
];

const short = (code) => {
  const card = parseCard(code);
  return `${card.face}${card.symbol}`;
};

export default function tutorial(root) {
  write("welcomed", true);
  let index = -1;
  let placed = false;

  const text = h("div", { class: "tutorial-text", "aria-live": "polite" });
  const stage = h("div", { class: "tutorial-stage" });
  const actions = h("div", { class: "actions" });
  const progress = h("p", { class: "subtle tutorial-progress" });
  replace(root, h("section", { class: "page tutorial", "aria-labelledby": "tutorial-heading" },
    h("h1", { id: "tutorial-heading" }, t("tutorial.title")), progress, text, stage, actions));

  const next = (label, onClick, primary = true) => {
    const button = h("button", { type: "button", class: ["button", primary ? "primary" : null], id: "tutorial-next" }, label);
    button.addEventListener("click", onClick);
    return button;
  };

  function faceDownCount(grid) {
    return grid.filter((p) => !p.face_up).length;
  }

  function draw() {
    if (index < 0) {
      progress.textContent = "";
      replace(text, h("p", { class: "lead" }, t("tutorial.intro")));
      replace(stage);
      replace(actions, next(t("tutorial.begin"), () => { index = 0; placed = false; draw(); }),
        h("a", { class: "button", href: "#/" }, t("tutorial.skip")));
      return;
    }
    if (index >= STEPS.length) {
      progress.textContent = "";
      replace(text, h("p", {}, t("tutorial.end_meter")), h("p", {}, t("tutorial.end_win")));
      replace(stage);
      replace(actions, h("a", { class: "button primary", href: "#/", id: "tutorial-done" }, t("tutorial.play")),
        h("a", { class: "button", href: "#/rules" }, t("tutorial.rules")));
      actions.querySelector("a").focus();
      return;
    }
    const step = STEPS[index];
    progress.textContent = t("tutorial.progress", { n: index + 1, total: STEPS.length });
    const grid = placed ? step.after : step.grid;
    const game = {
      grid,
      legal_moves: placed ? [] : [step.target],
      last_move: placed ? { card: step.card, at: step.target, flipped: step.flipped } : null,
    };
    const board = renderBoard(game, {
      onPlace: placed ? null : () => { placed = true; draw(); announce(t(`tutorial.after${index + 1}`)); },
      animate: placed,
      label: t("tutorial.board"),
    });
    const fd = meter(faceDownCount(grid));
    replace(stage,
      h("div", { class: "tutorial-side" },
        placed ? null : h("div", { class: "current" },
          h("span", { class: "label" }, t("game.current_card")),
          h("div", { class: "current-card" }, cardFace(step.card))),
        h("p", { class: `meter-${fd.level}` }, t("meter.label", { n: fd.value, max: fd.max }))),
      h("div", { class: "board-wrap" }, board));
    const params = { card: short(step.card) };
    replace(text, h("p", {}, placed ? t(`tutorial.after${index + 1}`, params) : t(`tutorial.step${index + 1}`, params)));
    replace(actions, placed ? next(t("tutorial.next"), () => { index += 1; placed = false; draw(); focusBoard(stage.querySelector(".board")); }) : null,
      h("a", { class: "button", href: "#/" }, t("tutorial.skip")));
    if (placed) actions.querySelector("button").focus();
  }
  draw();
}
