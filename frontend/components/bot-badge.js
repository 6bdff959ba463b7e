// The badge by the name of a bot account (a player whose `bot` is true: a program playing
// through the API), wherever players are named. Not the house bot, which has no name.

import { h } from "../lib/dom.js";
import { t } from "../i18n.js";

/** A small "BOT" badge for `player` if theirs is a bot account, else null. */
export function botBadge(player) {
  if (player?.bot !== true) return null;
  return h("span", { class: "bot-badge", title: t("player.bot_title") }, t("player.bot"));
}
