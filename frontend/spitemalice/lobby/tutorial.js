// #/spite-malice/tutorial: six scripted moves on a small table, each explained: an ace opens a
// centre stack, the pay-off pile's top plays, a king stands in for any rank, a side stack's top
// plays, and a discard ends the turn. The positions are written out below; nothing here decides
// a rule of a real match (the server does that, and the table shows what it allows).

import { announce, h, replace } from "../../lib/dom.js";
import { t } from "../../i18n.js";
import { cardFace, cardSlot } from "../../components/card.js";
import { parseCard } from "../../model/cards.js";

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

const RANK_FACES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"];
const short = (code) => `${parseCard(code).face}${parseCard(code).symbol}`;

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

export default function tutorial(root) {
  let index = -1;
  let chosen = null;
  let done = false;
  const progress = h("p", { class: "subtle tutorial-progress" });
  const text = h("div", { class: "tutorial-text", "aria-live": "polite" });
  const stage = h("div");
  const actions = h("div", { class: "actions" });
  replace(root, h("section", { class: "page tutorial sm-tutorial", "aria-labelledby": "sm-tutorial-heading" },
    h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back"))),
    h("h1", { id: "sm-tutorial-heading" }, t("sm.tutorial.title")), progress, text, stage, actions));

  const button = (label, id, onClick, primary = true) => h("button", { type: "button", class: ["button", primary ? "primary" : null], id, on: { click: onClick } }, label);

  function pile({ id, label, content, caption }) {
    const step = STEPS[index];
    const isSource = !done && !chosen && step.move[0] === id;
    const isTarget = !done && Boolean(chosen) && step.move[1] === id;
    return h("div", { class: "sm-tutorial-pile" },
      h("button", {
        type: "button", class: "sm-tutorial-card", dataset: { place: id, target: String(isSource || isTarget), chosen: String(!done && chosen === id) },
        "aria-label": label, "aria-disabled": isSource || isTarget ? null : "true",
        on: { click: () => pick(id) },
      }, content),
      caption ? h("span", {}, caption) : null);
  }

  function pick(id) {
    const step = STEPS[index];
    if (done) return;
    if (!chosen && id === step.move[0]) {
      chosen = id;
      draw();
      announce(t("sm.tutorial.now_target"));
      stage.querySelector('[data-target="true"]')?.focus();
    } else if (chosen && id === step.move[1]) {
      done = true;
      draw();
      announce(t(`sm.tutorial.after${index + 1}`));
      actions.querySelector("button")?.focus();
    } else {
      announce(t(chosen ? "sm.tutorial.wrong_target" : "sm.tutorial.wrong_source"));
    }
  }

  function table(state) {
    const face = (code) => h("span", { class: "sm-tutorial-face" }, cardFace(code, { label: false }));
    const empty = () => h("span", { class: "sm-tutorial-face" }, cardSlot());
    const next = (stack) => (stack.length < 12 ? RANK_FACES[stack.length] : "");
    return h("div", {},
      h("p", { class: "sm-tutorial-row-label" }, t("sm.tutorial.centre")),
      h("div", { class: "sm-tutorial-table", dataset: { row: "centre" } }, state.centre.map((stack, i) => pile({
        id: `C${i}`,
        label: t("sm.tutorial.centre_stack", { n: i + 1, top: stack.length ? short(stack.at(-1)) : t("sm.tutorial.empty"), next: next(stack) }),
        content: stack.length ? face(stack.at(-1)) : empty(),
        caption: t("sm.tutorial.next_rank", { rank: next(stack) }),
      }))),
      h("p", { class: "sm-tutorial-row-label" }, t("sm.tutorial.yours")),
      h("div", { class: "sm-tutorial-table", dataset: { row: "yours" } },
        pile({ id: "P", label: t("sm.tutorial.payoff", { top: short(state.payoff[0]), n: state.payoff[1] }), content: face(state.payoff[0]), caption: t("sm.tutorial.payoff_left", { n: state.payoff[1] }) }),
        state.sides.map((stack, i) => pile({
          id: `S${i}`,
          label: t("sm.tutorial.side_stack", { n: i + 1, top: stack.length ? short(stack.at(-1)) : t("sm.tutorial.empty") }),
          content: stack.length ? face(stack.at(-1)) : empty(),
          caption: t("sm.tutorial.side", { n: i + 1 }),
        }))),
      h("p", { class: "sm-tutorial-row-label" }, t("sm.tutorial.hand")),
      h("div", { class: "sm-tutorial-table sm-tutorial-hand", dataset: { row: "hand" } }, state.hand.map((code) => pile({
        id: code, label: t("sm.tutorial.hand_card", { card: short(code) }), content: face(code),
      }))));
  }

  function draw() {
    if (index < 0 || index >= STEPS.length) {
      progress.textContent = "";
      replace(stage);
      if (index < 0) {
        replace(text, h("p", { class: "lead" }, t("sm.tutorial.intro")));
        replace(actions, button(t("sm.tutorial.begin"), "sm-tutorial-next", () => { index = 0; draw(); stage.querySelector('[data-target="true"]')?.focus(); }));
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
    replace(stage, table(done ? played(step) : step));
    replace(actions, done ? button(t("sm.tutorial.next"), "sm-tutorial-next", () => {
      index += 1; chosen = null; done = false; draw();
      stage.querySelector('[data-target="true"]')?.focus();
    }) : null);
  }
  draw();
}
