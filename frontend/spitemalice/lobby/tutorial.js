// #/spite-malice/tutorial: six scripted moves on the real table (table-view.js, as a match
// draws it), each explained: an ace opens a centre stack, the pay-off pile's top plays, a king
// stands in for any rank, a side stack's top plays, and a discard ends the turn. The positions
// are written out below; nothing here decides a rule of a real match (the server does that, and
// the table shows what it allows): each step offers exactly its one move.

import { announce, h, replace } from "../../lib/dom.js";
import { loadStylesheet } from "../../lib/stylesheet.js";
import { t } from "../../i18n.js";
import { loadTableStrings } from "../i18n.js";
import { renderTable } from "../table-view.js";
import { RANKS } from "../model/table.js";

const TABLE_STYLES = new URL("../table.css", import.meta.url);
// The opponent across the table, as a few turns in.
const OPPONENT = { payoff: ["9C", 19], sides: [["QD"], [], ["6S", "5H"], []], hand: 5 };

const EMPTY_SIDES = [[], [], [], []];
const SIDES = [["4C"], [], [], []];
// Each step: the table before it, the one move it asks for ([source, target] in the API's
// notation), and the table after it.
export const STEPS = [
  { centre: [[], [], []], payoff: ["2H", 20], sides: SIDES, hand: ["AS", "7C", "9D", "KH", "JS"], move: ["AS", "C0"] },
  { centre: [["AS"], [], []], payoff: ["2H", 20], sides: SIDES, hand: ["7C", "9D", "KH", "JS"], move: ["P", "C0"], turned: "5D" },
  { centre: [["AS", "2H"], [], []], payoff: ["5D", 19], sides: SIDES, hand: ["7C", "9D", "KH", "JS"], move: ["KH", "C0"] },
  { centre: [["AS", "2H", "KH"], [], []], payoff: ["5D", 19], sides: SIDES, hand: ["7C", "9D", "JS"], move: ["S0", "C0"] },
  { centre: [["AS", "2H", "KH", "4C"], [], []], payoff: ["5D", 19], sides: EMPTY_SIDES, hand: ["7C", "9D", "JS"], move: ["P", "C0"], turned: "8S" },
  { centre: [["AS", "2H", "KH", "4C", "5D"], [], []], payoff: ["8S", 18], sides: EMPTY_SIDES, hand: ["7C", "9D", "JS"], move: ["JS", "S1"] },
];

/** The table after a step's move, from the step's own script. */
export function played(step) {
  const [source, target] = step.move;
  const card = source === "P" ? step.payoff[0] : source.startsWith("S") ? step.sides[Number(source[1])].at(-1) : source;
  const centre = step.centre.map((stack, index) => (target === `C${index}` ? [...stack, card] : stack));
  const sides = step.sides.map((stack, index) => {
    if (source === `S${index}`) return stack.slice(0, -1);
    return target === `S${index}` ? [...stack, card] : stack;
  });
  const payoff = source === "P" ? [step.turned, step.payoff[1] - 1] : step.payoff;
  return { centre, sides, payoff, hand: step.hand.filter((code) => code !== source) };
}

/** A step's table in the shape the match screen draws (model/table.js's viewOf), offering
 *  only the step's move (none once it is made). */
export function tutorialView(state, move) {
  return {
    you: 0,
    game: 1,
    status: "playing",
    turn: 0,
    stock: 38,
    target: 1,
    centre: state.centre.map((stack) => ({ size: stack.length, top: stack.at(-1) ?? null, next: RANKS[stack.length] ?? null })),
    seats: [
      { seat: 0, name: null, bot: null, score: 0, connected: null, payoff: state.payoff[1], payoffTop: state.payoff[0], hand: state.hand.length, sides: state.sides },
      { seat: 1, name: null, bot: null, score: 0, connected: null, payoff: OPPONENT.payoff[1], payoffTop: OPPONENT.payoff[0], hand: OPPONENT.hand, sides: OPPONENT.sides },
    ],
    hand: [...state.hand],
    legal: move ? [move] : [],
  };
}

export default async function tutorial(root) {
  await Promise.all([loadTableStrings(), loadStylesheet(TABLE_STYLES)]);
  let index = -1;
  let chosen = null;
  let done = false;
  const progress = h("p", { class: "subtle tutorial-progress" });
  const text = h("div", { class: "tutorial-text", "aria-live": "polite" });
  const stage = h("div", { class: "sm-tutorial-stage" });
  const actions = h("div", { class: "actions" });
  replace(root, h("section", { class: "page tutorial sm-tutorial", "aria-labelledby": "sm-tutorial-heading" },
    h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back"))),
    h("h1", { id: "sm-tutorial-heading" }, t("sm.tutorial.title")), progress, text, actions, stage));

  const button = (label, id, onClick, primary = true) => h("button", { type: "button", class: ["button", primary ? "primary" : null], id, on: { click: onClick } }, label);

  // The table's own buttons: the step's source, then its target. A tap on any other place
  // says which to tap.
  stage.addEventListener("click", (event) => {
    if (done || index < 0 || index >= STEPS.length) return;
    const step = STEPS[index];
    const source = event.target.closest("button[data-source]");
    const target = event.target.closest("button[data-target]");
    if (target && chosen) {
      done = true;
      draw();
      announce(t(`sm.tutorial.after${index + 1}`));
      actions.querySelector("button")?.focus();
    } else if (source && !chosen && source.dataset.source === step.move[0]) {
      chosen = source.dataset.source;
      draw();
      announce(t("sm.tutorial.now_target"));
      stage.querySelector("[data-target]")?.focus();
    } else if (event.target.closest("[data-place]")) {
      announce(t(chosen ? "sm.tutorial.wrong_target" : "sm.tutorial.wrong_source"));
    }
  });

  function draw() {
    if (index < 0 || index >= STEPS.length) {
      progress.textContent = "";
      replace(stage);
      if (index < 0) {
        replace(text, h("p", { class: "lead" }, t("sm.tutorial.intro")));
        replace(actions, button(t("sm.tutorial.begin"), "sm-tutorial-next", () => { index = 0; draw(); stage.querySelector("[data-source]")?.focus(); }));
      } else {
        replace(text, h("p", {}, t("sm.tutorial.end")));
        replace(actions, h("a", { class: "button primary", href: "#/spite-malice/play", id: "sm-tutorial-done" }, t("sm.bot.title")),
          h("a", { class: "button", href: "#/spite-malice/rules" }, t("sm.lobby.rules")));
        actions.querySelector("a").focus();
      }
      return;
    }
    const step = STEPS[index];
    progress.textContent = t("sm.tutorial.progress", { n: index + 1, total: STEPS.length });
    replace(text, h("p", {}, done ? t(`sm.tutorial.after${index + 1}`) : t(`sm.tutorial.step${index + 1}`)),
      done ? null : h("p", { class: "subtle" }, t(chosen ? "sm.tutorial.now_target" : "sm.tutorial.choose_source")));
    const view = tutorialView(done ? played(step) : step, done ? null : step.move);
    replace(stage, renderTable(view, { chosen: done ? null : chosen, live: !done }));
    replace(actions, done ? button(t("sm.tutorial.next"), "sm-tutorial-next", () => {
      index += 1; chosen = null; done = false; draw();
      stage.querySelector("[data-source]")?.focus();
    }) : null);
  }
  draw();
}
