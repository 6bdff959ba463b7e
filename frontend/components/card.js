// A card face: the rank's index and the suit's symbol, named in words for screen readers.

import { h } from "../lib/dom.js";
import { cardName, parseCard } from "../model/cards.js";
import { t } from "../i18n.js";

export function cardFace(code, { label = true, className = "" } = {}) {
  const card = parseCard(code);
  return h("span", {
    class: ["card-face", `suit-${card.colour}`, className],
    role: label ? "img" : null,
    "aria-label": label ? cardName(code, t) : null,
    "aria-hidden": label ? null : "true",
    dataset: { card: code },
  },
  h("span", { class: "card-rank", "aria-hidden": "true" }, card.face),
  h("span", { class: "card-suit", "aria-hidden": "true" }, card.symbol));
}

/** The back of a card: a pattern and a written label, so it never relies on colour. */
export function cardBack() {
  return h("span", { class: "card-back", "aria-hidden": "true" },
    h("span", { class: "card-back-label" }, t("cell.face_down_short")));
}
