// The pieces of a card table, for any card game the site plays: a card's face (corner indices
// and a prominent rank), its back (a pattern and a written label), a stack (edges for the cards
// underneath), a spread (overlapping cards that keep their indices in sight), an empty slot and
// a table area (the felt). They draw; they decide nothing about any game's rules. Sizes come
// from the CSS custom property --card-w of whatever holds them (table.css).

import { h } from "../lib/dom.js";
import { cardName, parseCard } from "../model/cards.js";
import { t } from "../i18n.js";

/**
 * A card face: the index (rank over suit) in the top and bottom corners, the rank large in the
 * middle. `label` names it for screen readers (false when a container names it).
 */
export function cardFace(code, { label = true, className = "" } = {}) {
  const card = parseCard(code);
  // The rank and suit are drawn by the style sheet (data-text): what is seen of a card is a
  // picture, so a button that holds one is named by its own label alone (voice control says
  // the label; there is no text in the button for it to contradict).
  const glyph = (className, text) => h("span", { class: className, "aria-hidden": "true", dataset: { text } });
  const index = (where) => h("span", { class: ["card-index", `card-index-${where}`], "aria-hidden": "true" },
    glyph("card-index-rank", card.face),
    glyph("card-index-suit", card.symbol));
  return h("span", {
    class: ["card", "card-face", `suit-${card.colour}`, className],
    role: label ? "img" : null,
    "aria-label": label ? cardName(code, t) : null,
    "aria-hidden": label ? null : "true",
    dataset: { card: code },
  },
  index("start"),
  glyph("card-rank", card.face),
  glyph("card-suit", card.symbol),
  index("end"));
}

/** The back of a card: a pattern and a written label, so it never relies on colour. */
export function cardBack({ label = t("cell.face_down_short"), className = "" } = {}) {
  return h("span", { class: ["card", "card-back", className], "aria-hidden": "true" },
    label ? h("span", { class: "card-back-label", dataset: { text: label } }) : null);
}

/**
 * A stack of `height` cards showing `top` (a cardFace or cardBack): the cards underneath show
 * as edges below it, one per card up to `shown` (a deep stock shows a few edges, not forty).
 */
export function cardStack(top, { height = 1, shown = 3, className = "" } = {}) {
  const depth = Math.max(0, Math.min(height - 1, shown));
  return h("span", { class: ["stack", `stack-depth-${depth}`, className], dataset: { height } },
    Array.from({ length: depth }, (_, index) =>
      h("span", { class: "stack-edge", "aria-hidden": "true", style: { "--edge": depth - index } })),
    top);
}

/**
 * Cards laid overlapping in a line (`axis` "block" down the table, "inline" across it, mirrored
 * right to left), each still showing its top corner index: a side stack spread out, or a hand.
 */
export function cardSpread(cards, { axis = "block", className = "" } = {}) {
  return h("span", { class: ["spread", `spread-${axis}`, className], style: { "--count": cards.length } }, cards);
}

/** An empty place on the table: a faint outline, optionally with a word ("discard"). */
export function cardSlot({ label = "", className = "" } = {}) {
  return h("span", { class: ["card-slot", className], "aria-hidden": "true" },
    label ? h("span", { class: "card-slot-label" }, label) : null);
}

/** A region of the table (the felt), named for screen readers. */
export function tableArea({ label, className = "", tag = "div", attrs = {} } = {}, ...children) {
  return h(tag, { class: ["table-area", className], "aria-label": label ?? null, ...attrs }, ...children);
}
