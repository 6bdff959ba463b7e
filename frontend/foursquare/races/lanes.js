// A compact lane per racer: the name, a track filling as cards are placed (40 in a deal), the
// stock left, the face-down piles, the status and, once the race is settled, the place. Counts
// only: a lane never shows another racer's card while your own game goes on. Once yours is
// over (or the race is), a racer's board the server sends can be opened under their lane.

import { h } from "../../lib/dom.js";
import { current, t } from "../../i18n.js";
import { renderBoard } from "../board.js";
import { laneWords } from "./model/race.js";
import { racerName } from "./parts.js";

const DECK = 40;

// More opponents than this and the lanes go compact: their figures as bare numbers, read by
// the key above them, so eight racers leave the board its room on a phone.
export const COMPACT_FROM = 4;

/** The lane's figures, each a number with its word (so no colour or icon says it alone);
 *  compact, the numbers alone in the key's order, named in full for screen readers. */
function figures(lane, compact) {
  const { number, list } = current();
  if (compact) {
    const named = [
      `${number(lane.placed)} ${t("race.lane.placed")}`,
      lane.stock === null ? null : `${number(lane.stock)} ${t("race.lane.stock")}`,
      `${number(lane.faceDown)} ${t("race.lane.down")}`,
    ];
    return h("span", { class: "race-figures race-figures-compact", role: "img", "aria-label": list(named) },
      list([number(lane.placed), lane.stock === null ? null : number(lane.stock), number(lane.faceDown)]));
  }
  const figure = (name, key, n) => h("span", { class: ["race-figure", `race-${name}`], dataset: { figure: name } },
    h("b", {}, number(n)), " ", t(key, { n }));
  return h("span", { class: "race-figures" },
    figure("placed", "race.lane.placed", lane.placed),
    lane.stock === null ? null : figure("stock", "race.lane.stock", lane.stock),
    figure("down", "race.lane.down", lane.faceDown));
}

/** One racer's lane; `watch` adds their board (where the race sends one) to open below. */
export function laneView(lane, { watch = false, compact = false } = {}) {
  const words = laneWords(lane);
  const done = Math.min(1, lane.placed / DECK);
  const status = lane.status === "playing" ? null
    : h("span", { class: ["race-status", `race-status-${lane.status}`] }, t(words.key, words.params));
  const place = lane.place ? h("span", { class: "race-place", "aria-label": t("race.place_aria", { place: lane.place }) },
    t("race.place_short", { place: lane.place })) : null;
  const board = watch && lane.board && !lane.you ? h("details", { class: "race-watch" },
    h("summary", {}, t("race.watch", { name: lane.name })),
    h("div", { class: "board-wrap race-watch-board" },
      renderBoard({ grid: lane.board, legal_moves: [] }, { label: t("race.board_of", { name: lane.name }), drawnPlaces: true }))) : null;
  return h("li", {
    class: ["race-lane", lane.you ? "race-lane-you" : null, `race-lane-${lane.status}`],
    dataset: { player: lane.id, placed: lane.placed, stock: lane.stock ?? "", faceDown: lane.faceDown, status: lane.status, place: lane.place ?? "" },
  },
  h("div", { class: "race-lane-head" }, place, racerName(lane), status),
  h("div", {
    class: "race-track", role: "img", "aria-label": t("race.track_aria", { name: lane.name, n: lane.placed, total: DECK }),
  }, h("span", { class: "race-fill", style: { "--done": done } })),
  figures(lane, compact),
  board);
}

/** The lanes of `list`, as a list labelled for screen readers (compact for many, with the
 *  key to their numbers above). */
export function lanesView(list, options = {}) {
  const compact = list.length >= COMPACT_FROM;
  return [
    compact ? h("p", { class: "race-lanes-key subtle", "aria-hidden": "true" }, t("race.lanes_key")) : null,
    h("ul", { class: ["race-lanes", compact ? "race-lanes-compact" : null], id: "race-lanes", "aria-label": t("race.lanes"), style: { "--lanes": list.length } },
      list.map((lane) => laneView(lane, { ...options, compact }))),
  ];
}
