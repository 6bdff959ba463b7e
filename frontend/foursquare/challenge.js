// A challenge link (#/challenge/<deal>?by=Ada&g=<game id>): the same deal as a practice game,
// and the friend's result to compare with at the end. The result is the server's
// (GET /challenges/{game}), never the link's own say: a link whose game the server does not
// back (no game id, an old "r=won-9" link, a typo, a forgery) shows no claimed result and takes
// no words from the link either, not even its `by`: "Won with 24 left challenges you" would
// claim a result in the title. Such a page has a neutral title.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { writeCapped } from "../prefs.js";
import { redirect } from "../lib/router.js";
import { t } from "../i18n.js";
import { loadMoreStrings } from "./strings.js";

const GAME_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The challenger's game as the server has it, or null when the link names none it backs. */
export async function verifiedChallenge(deal, gameId) {
  if (!GAME_ID.test(gameId ?? "")) return null;
  try {
    const found = await api.challengeResult(gameId);
    return found?.deal === deal && ["won", "lost"].includes(found.status) ? found : null;
  } catch {
    return null;
  }
}

export default async function challenge(root, route, { signal } = {}) {
  const deal = route.parts[1] ?? "";
  const [verified] = await Promise.all([verifiedChallenge(deal, route.query.get("g")), loadMoreStrings()]);
  if (signal?.aborted) return;
  // The name shown is the server's, for a verified game only.
  const by = verified?.name ?? "";
  const result = verified ? { status: verified.status, score: verified.score } : null;
  const who = by || t("challenge.friend");
  const problems = h("div");
  const accept = h("button", { type: "button", class: "button primary big", id: "accept-challenge" }, t("challenge.accept"));
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    try {
      const game = await api.startGame({ mode: "practice", deal });
      if (result) writeCapped("challenges", game.id, { by, result });
      redirect(`/game/${game.id}`);
    } catch (error) {
      accept.disabled = false;
      replace(problems, problemView(error));
    }
  });
  replace(root, h("section", { class: "page", "aria-labelledby": "challenge-heading" },
    h("h1", { id: "challenge-heading" }, verified ? h("bdi", {}, t("challenge.title", { name: who })) : t("challenge.title_open")),
    h("p", { class: "lead" }, verified ? t("challenge.intro", { name: who }) : t("challenge.intro_open")),
    result ? h("p", { id: "challenger-result" }, result.status === "won"
      ? t("challenge.their_won", { name: who, n: result.score })
      : t("challenge.their_lost", { name: who })) : null,
    h("div", { class: "actions" }, accept),
    problems));
  accept.focus();
}
