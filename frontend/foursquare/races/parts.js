// What the race screens share: a page, the way back, a choice of a few values, the settings
// in words, and a racer's name.

import { h } from "../../lib/dom.js";
import { current, t } from "../../i18n.js";

export const page = (id, className, ...children) =>
  h("section", { class: ["page", "race-page", className], "aria-labelledby": id }, children);

export const back = () => h("p", { class: "race-back" }, h("a", { href: "#/races" }, t("race.back")));

/** "4 players · 5 minutes". */
export const settingsLine = (race) => current().list([t("race.players_n", { n: race.players }), t("race.minutes_n", { n: race.minutes })]);

/** A row of radio buttons in a fieldset: the chosen one marked by more than a colour. */
export function choice({ name, legend, options, value, hint = null }) {
  const hintLine = hint ? h("p", { class: "field-hint subtle", id: `race-${name}-hint` }, hint) : null;
  return h("fieldset", { class: "race-choice", id: `race-${name}`, "aria-describedby": hintLine?.id ?? null },
    h("legend", {}, legend),
    h("div", { class: "race-choice-options" }, options.map(([option, label]) => h("label", { class: "race-choice-option" },
      h("input", { type: "radio", name, value: String(option), checked: String(option) === String(value) }),
      h("span", {}, label)))),
    hintLine);
}

/** A racer's name, isolated for right-to-left pages, with "you" beside your own. */
export const racerName = (lane) => h("span", { class: "race-name" },
  h("bdi", {}, lane.name),
  lane.you ? h("span", { class: "race-you" }, t("race.you")) : null);

/** m:ss in the language's digits, kept left to right inside right-to-left text (an isolate:
 *  Persian's "۴:۰۵" would otherwise read as "۰۵:۴"). */
export function clockText([minutes, seconds]) {
  const { number, twoDigits } = current();
  return `\u2066${number(minutes)}:${twoDigits(seconds)}\u2069`;
}
