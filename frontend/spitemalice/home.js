// Spite & Malice on the home page, under Foursquare's: its daily and the ways to start a match.
// Every first visit downloads this, so it is small: the daily's result and the matches waiting
// for you (home-status.js) load only for a player who has any, the lobby on first use.

import { hasToken } from "../api.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n.js";

export default function spiteMaliceHome(signal) {
  const section = h("section", { class: "card-section page sm-home", id: "sm-home", "aria-labelledby": "sm-home-heading" },
    h("h2", { id: "sm-home-heading" }, t("smhome.title")),
    h("p", { class: "subtle" }, t("smhome.intro")),
    h("p", { class: "sm-daily", dataset: { status: "new" } }, h("a", { href: "#/spite-malice/daily", id: "sm-daily" }, t("smhome.daily"))),
    h("div", { class: "actions" },
      h("a", { class: "button primary", href: "#/spite-malice/play", id: "sm-play-bot" }, t("smhome.play_bot")),
      h("a", { class: "button", href: "#/spite-malice/friend", id: "sm-play-friend" }, t("smhome.play_friend")),
      h("a", { href: "#/spite-malice", id: "sm-matches" }, t("smhome.matches"))));
  if (hasToken()) import("./home-status.js").then(({ default: fill }) => signal.aborted || fill(section, signal));
  return section;
}
