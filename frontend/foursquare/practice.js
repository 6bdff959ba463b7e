// Practice: unlimited fresh deals, never ranked; pick up an unfinished one; the archive.

import * as api from "../api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { read } from "../prefs.js";
import { navigate } from "../lib/router.js";
import { t } from "../i18n.js";

export default async function practice(root, route, { signal }) {
  const problems = h("div");
  const newDeal = h("button", { type: "button", class: "button primary big", id: "new-practice" }, t("practice.new"));
  newDeal.addEventListener("click", async () => {
    newDeal.disabled = true;
    try {
      const game = await api.startGame({ mode: "practice" });
      navigate(`/game/${game.id}`);
    } catch (error) {
      newDeal.disabled = false;
      replace(problems, problemView(error));
    }
  });
  const resume = h("div", { class: "resume-slot" });
  replace(root, h("section", { class: "page", "aria-labelledby": "practice-heading" },
    h("h1", { id: "practice-heading" }, t("practice.title")),
    h("p", { class: "lead" }, t("practice.intro")),
    resume,
    h("div", { class: "actions" }, newDeal, h("a", { class: "button", href: "#/archive" }, t("archive.title"))),
    problems,
    h("h2", {}, t("practice.challenge_title")),
    h("p", {}, t("practice.challenge_text")),
    h("h2", {}, t("practice.race_title")),
    h("p", {}, t("practice.race_text")),
    h("div", { class: "actions" }, h("a", { class: "button", href: "#/races", id: "practice-races" }, t("practice.race")))));

  // An unfinished practice or archive game, from this device or, if signed in, another.
  if (!api.hasToken()) return;
  let unfinished = null;
  const remembered = read("practice");
  try {
    if (remembered) {
      const game = await api.game(remembered).catch(() => null);
      if (game?.status === "playing") unfinished = game;
    }
    if (!unfinished) {
      const page = await api.games(20);
      unfinished = page.results.find((game) => game.mode !== "daily" && game.status === "playing") ?? null;
    }
  } catch { /* nothing to resume */ }
  if (signal.aborted || !unfinished) return;
  replace(resume, h("p", { class: "resume" },
    h("a", { class: "button", href: `#/game/${unfinished.id}`, id: "resume-practice" },
      t("practice.resume", { n: unfinished.moves_played }))));
}
