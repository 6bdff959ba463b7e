// Draws a Spite & Malice table from its view (model/table.js): the opponent's piles across,
// the stock and the three centre stacks between, your piles and your hand nearest. Each place
// carries data-place ("0:P", "1:S2", "C1", "stock", "0:hand") so animations find it; places
// you may choose now are buttons (data-source, or data-target once a source is chosen). It
// draws only what the view says: the choices are the API's legal_actions.

import { h } from "../lib/dom.js";
import { t } from "../i18n.js";
import { cardName } from "../model/cards.js";
import { cardBack, cardFace, cardSlot, cardSpread, cardStack, tableArea } from "../components/card.js";
import { centreShows, choices, seating, SIDES, targetsOf } from "./model/table.js";

export const nameOf = (code) => cardName(code, t);

function face(code, extra = {}) {
  return cardFace(code, { label: false, ...extra });
}

/** A place on the table: a button when it can be chosen, else a plain element. */
function place(id, { label, role = null, chosen = false, discard = false, className = "", data = {} }, ...children) {
  const interactive = role !== null;
  return h(interactive ? "button" : "div", {
    type: interactive ? "button" : null,
    class: ["sm-place", className, interactive ? `sm-${role}` : null, chosen ? "sm-chosen" : null, discard ? "sm-discard" : null],
    "aria-label": label,
    "aria-pressed": role === "source" ? String(chosen) : null,
    role: interactive ? null : "group",
    dataset: { place: id, ...data },
  }, children);
}

function payoffPile(seat, { role, chosen, mine }) {
  const top = seat.payoffTop;
  const label = top
    ? t(mine ? "sm.aria.your_payoff" : "sm.aria.their_payoff", { card: nameOf(top), n: seat.payoff })
    : t("sm.aria.payoff_empty");
  return h("div", { class: "sm-pile sm-payoff" },
    place(`${seat.seat}:P`, { label, role, chosen, className: "sm-card-box", data: role ? { [role]: "P" } : {} },
      top ? cardStack(face(top), { height: Math.min(seat.payoff, 4) }) : cardSlot()),
    h("span", { class: "sm-count", "aria-hidden": "true" }, t("sm.payoff_count", { n: seat.payoff })));
}

// A side stack is spread within a fixed height (table.css): up to this many cards show their
// ranks, the newest last; the older ones lie under a "+n" that opens the whole stack.
export const SPREAD_SHOWN = { near: 5, far: 4 };

function sideStack(seat, index, { role, chosen, discard, mine, moved, opened }) {
  const stack = seat.sides[index];
  const id = SIDES[index];
  const placeId = `${seat.seat}:${id}`;
  const limit = mine ? SPREAD_SHOWN.near : SPREAD_SHOWN.far;
  const under = stack.length > limit ? stack.length - (limit - 1) : 0;
  const shown = under ? stack.slice(under) : stack;
  const cards = shown.length ? shown.map((code) => face(code)) : [cardSlot()];
  const names = stack.map(nameOf).join(", ");
  let label = t(mine ? "sm.aria.your_side" : "sm.aria.their_side", { n: index + 1, cards: stack.length ? names : t("sm.aria.empty") });
  if (role === "target") label = discard ? t("sm.aria.discard_here", { tag: t("sm.discard_tag"), n: index + 1, cards: stack.length ? names : t("sm.aria.empty") }) : label;
  const isOpen = opened === placeId && under > 0;
  return h("div", { class: ["sm-pile", "sm-side", isOpen ? "sm-open" : null] },
    place(placeId, { label, role, chosen, discard, className: ["sm-spread-box", moved.has(placeId) ? "sm-moved" : null].join(" "), data: role ? { [role]: id } : {} },
      cardSpread(cards, { axis: "block", className: ["sm-side-spread", under ? "sm-side-spread-cut" : null].join(" ") }),
      discard ? h("span", { class: "sm-discard-tag", "aria-hidden": "true" }, t("sm.discard_tag")) : null),
    under ? h("button", {
      type: "button",
      class: "sm-under",
      "aria-expanded": String(isOpen),
      // Its name begins with what it shows ("+3"), as voice control reads it.
      "aria-label": `${t("sm.under", { n: under })}: ${t("sm.aria.open_stack", { n: under, cards: names })}`,
      dataset: { open: placeId },
    }, t("sm.under", { n: under })) : null,
    isOpen ? h("div", { class: "sm-stack-open", role: "group", "aria-label": label },
      cardSpread(stack.map((code) => face(code)), { axis: "block", className: "sm-open-spread" })) : null);
}

function seatRow(view, seat, { mine, chosen, sources, targets, moved, opened }) {
  const sourceOf = (id) => (mine && !chosen && sources.has(id) ? "source" : null);
  const payoffRole = chosen === "P" ? "source" : sourceOf("P");
  return h("div", { class: "sm-row sm-piles" },
    payoffPile(seat, { role: payoffRole, chosen: chosen === "P", mine }),
    h("div", { class: "sm-sides" },
      SIDES.map((id, index) => {
        const asTarget = mine && chosen && targets.has(id);
        const role = asTarget ? "target" : chosen === id ? "source" : sourceOf(id);
        return sideStack(seat, index, { role, chosen: chosen === id, discard: asTarget, mine, moved, opened });
      }),
      h("span", { class: "sm-area-label", "aria-hidden": "true" }, t("sm.label.sides"))));
}

function seatLabel(view, seat, { mine, live }) {
  const name = mine ? t("sm.you") : seat.bot ? t("sm.computer", { level: t(`sm.level.${seat.bot}`) }) : seat.name ?? t("sm.opponent");
  const turn = view.turn === seat.seat;
  const presence = !mine && !seat.bot && seat.connected !== null && seat.connected !== undefined
    ? h("span", { class: ["sm-presence", seat.connected ? "sm-online" : "sm-offline"], dataset: { connected: String(seat.connected) } },
      h("span", { class: "sm-dot", "aria-hidden": "true" }), t(seat.connected ? "sm.connected" : "sm.not_connected"))
    : null;
  // Before a seat's first turn its hand is empty: it fills at the turn's start (the rules).
  const waitsToDraw = seat.hand === 0 && !turn && view.status === "playing";
  return h("div", { class: ["sm-seat-label", turn ? "sm-turn" : null], dataset: { seat: seat.seat } },
    h("span", { class: "sm-name" }, name),
    h("span", { class: "sm-score", dataset: { score: seat.score } }, t("sm.points", { n: seat.score })),
    !mine ? h("span", { class: "sm-hand-size", dataset: { hand: seat.hand } },
      h("span", { class: "sm-mini-hand", "aria-hidden": "true" }, Array.from({ length: seat.hand }, () => cardBack({ label: "" }))),
      waitsToDraw ? t("sm.hand_draws_soon") : t("sm.hand_size", { n: seat.hand })) : null,
    turn && live ? h("span", { class: "sm-turn-mark" }, t(mine ? "sm.your_turn_short" : "sm.their_turn_short")) : null,
    // The turn's clock, on the seat whose turn it is: match-view.js keeps it ticking.
    turn && view.status === "playing" ? h("span", { class: "sm-seat-clock", hidden: true }) : null,
    presence);
}

function middle(view, { chosen, targets, moved }) {
  const stockLabel = t("sm.aria.stock", { n: view.stock });
  const low = view.stock > 0 && view.stock <= STOCK_LOW;
  return h("div", { class: "sm-row sm-middle" },
    h("div", { class: ["sm-pile", "sm-stock", low ? "sm-stock-low" : null] },
      place("stock", { label: stockLabel, className: "sm-card-box" },
        view.stock ? cardStack(cardBack({ label: "" }), { height: Math.min(view.stock, 4) }) : cardSlot()),
      h("span", { class: "sm-count sm-stock-count", "aria-hidden": "true", dataset: { stock: view.stock } }, t("sm.stock_count", { n: view.stock }))),
    h("div", { class: "sm-centres" }, view.centre.map((stack, index) => {
      const id = `C${index}`;
      const shows = centreShows(stack);
      const asTarget = chosen && targets.has(id);
      const standsFor = stack.top?.[0] === "K" ? shows : null;
      const label = t(stack.size ? "sm.aria.centre" : "sm.aria.centre_empty", {
        n: index + 1,
        card: stack.top ? nameOf(stack.top) : "",
        rank: t(`sm.rank.${stack.next}`),
        stands: standsFor ? t("sm.aria.stands_for", { rank: t(`sm.rank.${standsFor}`) }) : "",
      }).trim();
      return h("div", { class: "sm-pile sm-centre" },
        place(id, { label: asTarget ? t("sm.aria.play_here", { place: label }) : label, role: asTarget ? "target" : null, className: ["sm-card-box", moved.has(id) ? "sm-moved" : null].join(" "), data: asTarget ? { target: id } : {} },
          stack.top ? cardStack(face(stack.top), { height: Math.min(stack.size, 4) }) : cardSlot({ label: t("sm.centre_empty") }),
          standsFor ? h("span", { class: "sm-stands", "aria-hidden": "true" }, t("sm.stands_for", { rank: rankFace(standsFor) })) : null),
        h("span", { class: "sm-next", "aria-hidden": "true" }, stack.next ? t("sm.next", { rank: rankFace(stack.next) }) : ""));
    })),
    h("span", { class: "sm-area-label", "aria-hidden": "true" }, t("sm.label.centre")));
}

/** At or below this many cards in the stock the table warns that an empty one ties the game. */
export const STOCK_LOW = 12;

// A number rank goes to t() as a number, so each language writes it in its own digits.
const rankFace = (code) => (code === "T" ? 10 : /^[2-9]$/.test(code) ? Number(code) : code);

function hand(view, { chosen, sources }) {
  const seen = new Set();
  const cards = view.hand.map((code) => {
    const first = !seen.has(code);
    seen.add(code);
    // Every copy of a card held twice is offered (either is that card); the first shows chosen.
    const offer = !chosen ? sources.get(code) : null;
    const isChosen = chosen === code && first;
    const role = isChosen || offer ? "source" : null;
    // A card that fits a centre stack is marked apart from one that can only be discarded.
    const fit = offer ? (offer.plays ? "sm-plays" : "sm-discard-only") : null;
    return place(`${view.you}:hand`, {
      label: offer ? t(offer.plays ? "sm.aria.hand_plays" : "sm.aria.hand_discard_only", { card: nameOf(code) }) : nameOf(code),
      role,
      chosen: isChosen,
      className: ["sm-hand-card", fit].filter(Boolean).join(" "),
      data: { card: code, ...(role ? { source: code } : {}) },
    }, face(code));
  });
  const empty = !view.hand.length && view.status === "playing"
    ? h("p", { class: "sm-hand-empty" }, t(view.turn === view.you ? "sm.hand_empty" : "sm.hand_draws_at_turn"))
    : null;
  // What the marks on the cards say (each card's own label says it to a screen reader).
  const marked = chosen ? [] : [...sources.values()].filter((offer) => view.hand.includes(offer.source));
  const key = (kind, words) => h("span", { class: ["sm-key", `sm-key-${kind}`] }, words);
  const legend = marked.length ? h("span", { class: "sm-legend", id: "sm-hand-legend" },
    marked.some((offer) => offer.plays) ? key("plays", t("sm.legend.plays")) : null,
    marked.some((offer) => !offer.plays) ? key("discard", t("sm.legend.discard")) : null) : null;
  return h("div", { class: "sm-hand", role: "group", "aria-label": t("sm.aria.your_hand", { n: view.hand.length }), dataset: { place: `${view.you}:hand` } },
    h("span", { class: "sm-hand-head", "aria-hidden": "true" }, legend, h("span", { class: "sm-area-label" }, t("sm.label.hand"))), cards, empty);
}

function farHand(cards) {
  return h("div", { class: "sm-hand sm-hand-far", role: "group", "aria-label": t("sm.aria.their_hand_shown", { cards: cards.map(nameOf).join(", ") || t("sm.aria.empty") }) },
    cards.map((code) => h("div", { class: "sm-place sm-hand-card" }, face(code))));
}

/**
 * The table. `chosen` is the source picked so far (or null); `live` false draws it without
 * choices (events being shown, a replay, a game over). `moved`: the places whose top card the
 * opponent's last turn put there (marked until you act); `opened`: a side stack shown whole.
 */
export function renderTable(view, { chosen = null, live = true, moved = new Set(), opened = null } = {}) {
  const offered = live ? choices(view) : [];
  const sources = new Map(offered.map((choice) => [choice.source, choice]));
  const targets = new Set(chosen ? targetsOf(view, chosen).map((option) => option.target) : []);
  const { near, far } = seating(view);
  // tabindex -1: focus waits on the table while events are shown, for the keyboard's next turn.
  const table = tableArea({ label: t("sm.aria.table"), className: "sm-table", attrs: { tabindex: "-1", dataset: { chosen: chosen ?? "" } } },
    h("div", { class: "sm-seat sm-far", dataset: { seat: far.seat } },
      seatLabel(view, far, { mine: false, live }),
      view.farHand ? farHand(view.farHand) : null,
      seatRow(view, far, { mine: false, chosen: null, sources: new Map(), targets: new Set(), moved, opened })),
    middle(view, { chosen, targets, moved }),
    h("div", { class: "sm-seat sm-near", dataset: { seat: near.seat } },
      seatRow(view, near, { mine: true, chosen, sources, targets, moved, opened }),
      hand(view, { chosen, sources }),
      seatLabel(view, near, { mine: true, live })));
  return table;
}

/** The buttons that may be chosen now, in the table's order (for arrow keys). */
export function activePlaces(table) {
  return [...table.querySelectorAll("button.sm-place")];
}

