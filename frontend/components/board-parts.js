// The pieces every board page shares (Foursquare's, Spite & Malice's, a league's): the line
// that says what a board covers, where you stand, the bot's reference line, and the switch
// between the two games' boards. A module of its own, so no two board modules import each
// other (hashed names allow no cycle).

import { h } from "../lib/dom.js";
import { current, t } from "../i18n.js";

/** The periods of Foursquare's boards, global and a league's. */
export const PERIODS = ["day", "week", "all"];

/** The line under a board's title: which day, week or span it covers. */
export function boardSpan(board) {
  if (board.period === "day") return current().list([t("game.daily_title", { number: board.number }), current().date(board.date)]);
  if (board.period === "week") return t("boards.week_of", { date: current().date(board.start) });
  return t("boards.since", { date: current().date(board.start) });
}

/** Where you stand: your rank and share of players behind you, or why you have no rank. */
export function standingLine(standing, { claimed = false, players = null } = {}) {
  if (!standing) return null;
  // Played, but not counted here: a global board ranks only trusted accounts' dailies.
  // A saved account is not told to save itself: only that its next dailies will rank.
  const why = t(claimed ? "boards.unranked_claimed" : "boards.unranked");
  if (standing.ranked === false && standing.would_rank && players !== null) {
    // An unranked win on a day's board: where it would stand first, then why it is not listed.
    return h("div", { class: "standing-line", id: "standing", dataset: { wouldRank: String(standing.would_rank) } },
      h("p", { class: "rank-would" }, players ? t("result.would_rank", { rank: standing.would_rank, n: players }) : t("result.would_lead")),
      h("p", { class: "subtle" }, why));
  }
  if (standing.ranked === false) return h("p", { class: "standing-line subtle", id: "standing" }, why);
  if (standing.rank) {
    const parts = [t("boards.your_rank", { rank: standing.rank })];
    if (standing.better_than_percent) {
      parts.push(t("boards.better_than", { percent: current().percent(standing.better_than_percent / 100) }));
    }
    return h("p", { class: "standing-line", id: "standing" }, current().list(parts));
  }
  return h("p", { class: "standing-line subtle", id: "standing" }, t(`boards.standing_${standing.status}`));
}

/** The bot's result on a day's board: a reference line without a rank, not a player. */
export function referenceLine(reference) {
  if (!reference?.status) return null;
  return h("p", { class: "reference-line", id: "board-reference" },
    h("span", { class: "reference-tag" }, t("boards.reference")), " ",
    h("bdi", {}, reference.name), current().separator,
    reference.status === "won" ? t("boards.reference_won", { n: reference.score }) : t("boards.reference_lost"));
}

/** Which game's boards: Foursquare's (#/boards/...) or Spite & Malice's (#/boards/spite-malice/...). */
export function gameSwitch(game, { foursquare = "#/boards/day", spiteMalice = "#/boards/spite-malice" } = {}) {
  return h("nav", { class: "segmented game-switch", "aria-label": t("boards.game") },
    h("a", { href: foursquare, "aria-current": game === "foursquare" ? "page" : null, dataset: { game: "foursquare" } }, t("games.foursquare")),
    h("a", { href: spiteMalice, "aria-current": game === "spite-malice" ? "page" : null, dataset: { game: "spite-malice" } }, t("smhome.title")));
}
