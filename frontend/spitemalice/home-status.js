// The home page's Spite & Malice part for a player who has played: today's daily as it stands
// (going on, or its result) and the matches waiting for you, each with its turn's deadline.

import * as smApi from "./api.js";
import { h, replace } from "../lib/dom.js";
import { current, t } from "../i18n.js";
import { localDate } from "../model/time.js";
import { dueIn, invitedYou, matchHref, opponent, waitingForYou } from "./lobby/turns.js";
import { loadLobbyStrings } from "./lobby/strings.js";

/** "ends in 3 hours", from Intl in the page's language. */
function dueText(deadline) {
  const { value, unit } = dueIn(deadline);
  return t("sm.home.due", { when: new Intl.RelativeTimeFormat(current().lang, { numeric: "always" }).format(value, unit) });
}

function dailyStatus(mine) {
  if (mine.status !== "finished") return "playing";
  if (mine.winner === mine.you) return "won";
  return ["unfinished", "tied"].includes(mine.reason) ? mine.reason : "lost";
}

export default async function fill(section, signal) {
  const [info, page] = await Promise.all([
    smApi.smDaily(localDate()).catch(() => null),
    smApi.smMatches({ limit: 10 }).catch(() => ({ results: [] })),
    loadLobbyStrings(),
  ]);
  if (signal.aborted) return;
  const line = section.querySelector(".sm-daily");
  const mine = info?.your_match;
  if (mine && line) {
    const status = dailyStatus(mine);
    line.dataset.status = status;
    replace(line, h("a", { href: matchHref(mine), id: "sm-daily" }, t("sm.home.daily"),
      current().separator, t(`sm.home.daily_${status}`, { n: mine.seats?.[mine.you]?.score ?? 0 })));
  }
  const waiting = waitingForYou(page.results);
  if (!waiting.length || !line) return;
  line.after(h("ul", { class: "sm-due" }, waiting.map((match) => {
    const invited = invitedYou(match);
    const name = opponent(match)?.name ?? t("sm.home.computer");
    return h("li", { dataset: { match: match.id } },
      h("a", { href: invited ? `#/spite-malice/join/${match.invite?.code ?? ""}` : matchHref(match) },
        t(invited ? "sm.home.invited" : "sm.home.your_turn", { name })),
      match.deadline ? h("span", { class: "subtle" }, current().separator, dueText(match.deadline)) : null);
  })));
}
