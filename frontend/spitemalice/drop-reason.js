// Why a card dragged onto a place of the table went back: said in words beside the table, so a
// drop that snaps back never leaves the player guessing. It reads the view only (its centre
// stacks' next ranks, where the card came from); whether a move is legal is still the
// server's `legal_actions`, asked before this is.

import { t } from "../i18n.js";
import { nameOf } from "./table-view.js";
import { sourceCard, sourceKind } from "./model/table.js";

// A number rank is given to t() as a number, in the language's own digits (as table-view's).
const rankFace = (code) => (code === "T" ? 10 : /^[2-9]$/.test(code) ? Number(code) : code);

/** The sentence for `source` (a hand card's code, "P" or "S0"…) dropped on `placeId` (a
 *  data-place: "C0", "0:S2", "1:P", "stock"…) where it may not go; null off the table. */
export function dropReason(view, source, placeId) {
  if (!placeId) return null;
  const card = nameOf(sourceCard(view, source) ?? source);
  const centre = /^C(\d)$/.exec(placeId);
  const next = centre ? view.centre[Number(centre[1])]?.next : null;
  if (next) return t("sm.drop.centre", { card, n: Number(centre[1]) + 1, rank: rankFace(next) });
  if (placeId.startsWith(`${view.you}:S`) && sourceKind(source) !== "hand") return t("sm.drop.side");
  return t("sm.drop.nowhere", { card });
}
