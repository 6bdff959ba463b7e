// A challenge link (#/challenge/<deal>?by=Ada&r=won-9): the same deal as a practice game, and
// the friend's result to compare with at the end.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { writeCapped } from "../prefs.js";
import { redirect } from "../lib/router.js";
import { t } from "../i18n.js";
import { parseChallengeResult } from "../model/share.js";

export default async function challenge(root, route) {
  const deal = route.parts[1] ?? "";
  const by = (route.query.get("by") ?? "").slice(0, 24);
  const result = parseChallengeResult(route.query.get("r"));
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
    h("h1", { id: "challenge-heading" }, t("challenge.title", { name: who })),
    h("p", { class: "lead" }, t("challenge.intro", { name: who })),
    result ? h("p", {}, result.status === "won"
      ? t("challenge.their_won", { name: who, n: result.score })
      : t("challenge.their_lost", { name: who })) : null,
    h("div", { class: "actions" }, accept),
    problems));
}
