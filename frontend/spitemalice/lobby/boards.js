// Spite & Malice's boards, #/boards/spite-malice[/day|/ratings][?around=me]: the day's daily
// board (the same shape as Foursquare's: winners by points) and the ratings board (established
// players ranked, provisional ones apart, where you stand, and the bots beside the people).

import * as api from "../../api.js";
import * as smApi from "../api.js";
import { h, loading, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { current, t } from "../../i18n.js";
import { localDate } from "../../model/time.js";
import { barChart } from "../../components/bar-chart.js";
import { boardSpan, gameSwitch, standingLine } from "../../components/board-parts.js";
import { leaderboardTable } from "../../components/leaderboard-table.js";
import { botBadge } from "../../components/bot-badge.js";
import { loadLobbyStrings, lobbyStyles } from "./strings.js";

const VIEWS = ["day", "ratings"];

function moreButton(next, onPage) {
  const more = h("button", { type: "button", class: "button", id: "board-more", hidden: !next }, t("common.more"));
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const page = await api.leaderboardNext(next);
      next = page.next;
      onPage(page);
      more.hidden = !next;
    } catch (error) {
      more.after(problemView(error));
    } finally {
      more.disabled = false;
    }
  });
  return h("div", { class: "actions" }, more);
}

/** What the day board offers of today's daily: to play it, to carry on, or to see it again. */
const dailyLink = (status) => (status === "playing" ? "sm.boards.resume_daily"
  : ["won", "lost", "unfinished"].includes(status) ? "sm.boards.your_daily" : "sm.boards.play_daily");

async function dayBoard(body, { around, signal }) {
  const date = localDate();
  const board = await smApi.smDailyBoard(date, { limit: 20, around });
  if (signal.aborted) return;
  const table = h("div", { class: "table-slot" }, leaderboardTable(board.entries, { me: board.me, period: "day", caption: boardSpan(board) }));
  replace(body,
    h("p", { class: "board-span" }, boardSpan(board)),
    h("p", { class: "subtle" }, t("boards.counts", { n: board.players, winners: board.winners })),
    standingLine(board.standing, { players: board.players }),
    table,
    moreButton(board.next, (page) => table.querySelector("tbody")?.append(
      ...leaderboardTable(page.entries, { me: board.me, period: "day" }).querySelectorAll("tbody tr"))),
    barChart(board.distribution ?? {}, { mine: board.me?.score ?? null, caption: t("sm.boards.distribution", { date: current().date(board.date, "medium") }) }),
    h("p", {}, h("a", { class: "button", href: "#/spite-malice/daily", id: "sm-board-daily" }, t(dailyLink(board.standing?.status)))));
}

/** The day's Spite & Malice board in short, beside Foursquare's day board: its top five. */
export async function dayAside(date) {
  const [board] = await Promise.all([smApi.smDailyBoard(date, { limit: 5 }), loadLobbyStrings(), lobbyStyles()]);
  return h("section", { class: "card-section sm-day-aside", id: "sm-day-aside", "aria-labelledby": "sm-day-aside-heading" },
    h("h2", { id: "sm-day-aside-heading" }, t("sm.boards.aside_title")),
    h("p", { class: "subtle" }, t("boards.counts", { n: board.players, winners: board.winners })),
    leaderboardTable(board.entries, { me: board.me, period: "day", caption: t("sm.boards.aside_title") }),
    h("p", {}, h("a", { href: "#/boards/spite-malice/day", id: "sm-day-aside-more" }, t("sm.boards.aside_more"))));
}

/** A ratings table: rank (established players only), player, rating ± deviation, matches. */
export function ratingsTable(entries, { me = null, ranked = true, caption } = {}) {
  if (!entries.length) return h("p", { class: "subtle empty-board" }, t("boards.empty"));
  const myId = me?.player?.id ?? null;
  const { number } = current();
  return h("table", { class: "leaderboard sm-ratings" },
    caption ? h("caption", { class: "visually-hidden" }, caption) : null,
    h("thead", {}, h("tr", {},
      ranked ? h("th", { scope: "col" }, t("boards.rank")) : null,
      h("th", { scope: "col" }, t("boards.player")),
      h("th", { scope: "col", class: "num" }, t("sm.boards.rating")),
      h("th", { scope: "col", class: "num" }, t("sm.boards.matches")))),
    h("tbody", {}, entries.map((entry) => {
      const mine = myId !== null && entry.player?.id === myId;
      return h("tr", { class: mine ? "mine" : null, "aria-current": mine ? "true" : null, dataset: { player: entry.player?.id ?? "" } },
        ranked ? h("td", { class: "rank-cell" }, number(entry.rank)) : null,
        h("th", { scope: "row", class: "name-cell" }, h("bdi", {}, entry.player?.name ?? ""), mine ? h("span", { class: "you-tag" }, t("boards.you")) : null),
        h("td", { class: "num" }, h("span", { "aria-label": t("sm.boards.rating_aria", { rating: entry.rating, deviation: entry.deviation }) },
          number(entry.rating), h("span", { class: "subtle", "aria-hidden": "true" }, ` ±${number(entry.deviation)}`))),
        h("td", { class: "num" }, number(entry.matches)));
    })));
}

/** The bots beside the people (the house bot's levels and the bot accounts, on the same
 * scale, unranked): who, rating ± deviation (provisional ones marked), matches. */
function botsTable(bots) {
  if (!bots.length) return h("p", { class: "subtle empty-board" }, t("boards.empty"));
  const { number } = current();
  return h("table", { class: "leaderboard sm-ratings sm-bots" },
    h("caption", { class: "visually-hidden" }, t("sm.boards.bots")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("boards.player")),
      h("th", { scope: "col", class: "num" }, t("sm.boards.rating")),
      h("th", { scope: "col", class: "num" }, t("sm.boards.matches")))),
    h("tbody", {}, bots.map((bot) => h("tr", { dataset: { player: bot.player.id, level: bot.level ?? "" } },
      h("th", { scope: "row", class: "name-cell" },
        bot.level ? t("sm.boards.house_level", { level: t(`sm.bot.level_${bot.level}`) }) : h("bdi", {}, bot.player.name),
        " ", botBadge({ bot: true }),
        bot.provisional ? h("span", { class: "subtle provisional-tag" }, ` ${t("sm.boards.provisional_tag")}`) : null),
      h("td", { class: "num" }, h("span", { "aria-label": t("sm.boards.rating_aria", { rating: bot.rating, deviation: bot.deviation }) },
        number(bot.rating), h("span", { class: "subtle", "aria-hidden": "true" }, ` ±${number(bot.deviation)}`))),
      h("td", { class: "num" }, number(bot.matches))))));
}

function myRating(me) {
  if (!me) return h("p", { class: "standing-line subtle", id: "standing" }, t(api.hasToken() ? "sm.boards.no_rating" : "sm.boards.no_rating_guest"));
  const text = me.provisional
    ? t("sm.boards.my_rating_provisional", { rating: me.rating, deviation: me.deviation, n: me.matches })
    : t("sm.boards.my_rating", { rank: me.rank, rating: me.rating, deviation: me.deviation, n: me.matches });
  return h("p", { class: "standing-line", id: "standing" }, text);
}

async function ratingsBoard(body, { signal }) {
  const board = await smApi.smRatings(50);
  if (signal.aborted) return;
  const ranked = h("div", { class: "table-slot", id: "sm-ratings" }, ratingsTable(board.results, { me: board.me, caption: t("sm.boards.ratings") }));
  const provisional = h("div", { class: "table-slot", id: "sm-provisional" }, ratingsTable(board.provisional, { me: board.me, ranked: false, caption: t("sm.boards.provisional") }));
  replace(body,
    h("p", { class: "subtle" }, t("sm.boards.ratings_intro")),
    myRating(board.me),
    ranked,
    h("h2", { class: "sm-provisional" }, t("sm.boards.provisional")),
    h("p", { class: "subtle" }, t("sm.boards.provisional_text")),
    provisional,
    moreButton(board.next, (page) => {
      ranked.querySelector("tbody")?.append(...ratingsTable(page.results, { me: board.me }).querySelectorAll("tbody tr"));
      provisional.querySelector("tbody")?.append(...ratingsTable(page.provisional, { me: board.me, ranked: false }).querySelectorAll("tbody tr"));
    }),
    h("h2", { class: "sm-bots" }, t("sm.boards.bots")),
    h("p", { class: "subtle" }, t("sm.boards.bots_text")),
    h("div", { class: "table-slot", id: "sm-bots" }, botsTable(board.bots ?? [])));
}

export default async function spiteMaliceBoards(root, route, { signal }) {
  await Promise.all([loadLobbyStrings(), lobbyStyles()]);
  if (signal.aborted) return;
  const view = VIEWS.includes(route.parts[2]) ? route.parts[2] : "day";
  const around = view === "day" && route.query.get("around") === "me" && api.hasToken();
  const base = `#/boards/spite-malice/${view}`;
  const tabs = h("nav", { class: "segmented", "aria-label": t("boards.periods") }, VIEWS.map((name) =>
    h("a", { href: `#/boards/spite-malice/${name}`, "aria-current": name === view ? "page" : null, dataset: { period: name } }, t(`sm.boards.view_${name}`))));
  const aroundSwitch = view === "day" && api.hasToken() ? h("div", { class: "segmented", role: "group", "aria-label": t("boards.view") },
    h("a", { href: base, "aria-current": around ? null : "page", id: "board-top" }, t("boards.top")),
    h("a", { href: `${base}?around=me`, "aria-current": around ? "page" : null, id: "board-around" }, t("boards.around"))) : null;
  const body = h("div", { class: "board-body" }, loading());
  replace(root, h("section", { class: "page", "aria-labelledby": "boards-heading" },
    h("h1", { id: "boards-heading" }, t("boards.title")), gameSwitch("spite-malice"), h("div", {}, tabs, " ", aroundSwitch), body));
  try {
    await (view === "ratings" ? ratingsBoard(body, { signal }) : dayBoard(body, { around, signal }));
  } catch (error) {
    if (!signal.aborted) replace(body, error.status === 404 && error.code === "not_found" ? h("p", {}, t("boards.unavailable")) : problemView(error));
  }
}
