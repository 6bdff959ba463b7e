// Any of your games by its id (#/game/<id>): practice, archive and challenge games live here, so
// a reload or a link comes back to them.

import * as api from "../api.js";
import { h, loading, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { write } from "../prefs.js";
import { current, t } from "../i18n.js";
import { focusBoard } from "./board.js";
import { gameScreen } from "./game-screen.js";
import { dailyHeading, showResult } from "./today.js";

export function gameHeading(game) {
  if (game.mode === "daily") return dailyHeading(game);
  if (game.mode === "archive") return t("game.archive_title", { number: game.number });
  return t("game.practice_title");
}

export default async function gamePage(root, route, { signal }) {
  const id = route.parts[1];
  replace(root, loading());
  let game;
  try {
    game = await api.game(id);
  } catch (error) {
    if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error), h("p", {}, h("a", { href: "#/practice" }, t("practice.title")))));
    return;
  }
  if (signal.aborted) return;
  if (game.mode !== "daily" && game.status === "playing") write("practice", game.id);
  const after = h("nav", { class: "after-game", "aria-label": t("practice.more") },
    h("a", { class: "button", href: "#/practice" }, t("practice.new")),
    h("a", { class: "button", href: "#/archive" }, t("archive.title")));
  const starting = !root.contains(document.activeElement) || document.activeElement === root;
  replace(root, gameScreen(game, {
    heading: gameHeading(game),
    subheading: game.date ? current().date(game.date) : t("game.practice_sub"),
    signal,
    onOver: (finished, slot) => {
      write("practice", null);
      showResult(slot, finished, { signal }).then(() => slot.append(after));
    },
  }));
  // A game opened by a button of the last screen (a new deal, an archive date, a challenge):
  // focus goes on to its board, not to <body>.
  if (starting && game.status === "playing") focusBoard(root.querySelector(".game .board"));
}
