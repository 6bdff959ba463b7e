// Today's daily: the same deal for everyone, by your local date. A game already started here or
// on another signed-in device is picked up where it was left.

import * as api from "../api.js";
import { h, loading, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { read, write } from "../prefs.js";
import { current, t } from "../i18n.js";
import { localDate } from "../model/time.js";
import { focusBoard } from "./board.js";
import { gameScreen } from "./game-screen.js";

export async function showResult(slot, game, options = {}) {
  const { renderResult } = await import("./result.js");
  await renderResult(slot, game, options);
}

function welcome(onDone) {
  if (read("welcomed")) return null;
  const card = h("aside", { class: "welcome", "aria-labelledby": "welcome-title" },
    h("h2", { id: "welcome-title" }, t("welcome.title")),
    h("p", {}, t("welcome.text")),
    h("div", { class: "actions" },
      h("a", { class: "button primary", href: "#/tutorial", on: { click: () => write("welcomed", true) } }, t("welcome.tour")),
      h("button", {
        type: "button", class: "button",
        on: { click: () => { write("welcomed", true); card.remove(); onDone?.(); } },
      }, t("welcome.dismiss"))));
  return card;
}

/** The other game's part of the home page, under Foursquare's (its own small module). */
function spiteMalice(root, signal) {
  import("../spitemalice/home.js").then(({ default: part }) => signal.aborted || root.append(part(signal)));
}

export function dailyHeading(game) {
  return game.number ? t("game.daily_title", { number: game.number }) : t("game.daily_title_plain");
}

export default async function today(root, route, { signal }) {
  const date = localDate();
  replace(root, loading());
  let info = null;
  let game = null;
  try {
    info = await api.daily(date);
  } catch (error) {
    if (error.status !== 404) {
      if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error)));
      return;
    }
  }
  try {
    if (info?.your_game) {
      const yours = info.your_game;
      game = yours.grid ? yours : await api.game(yours.id ?? yours);
    } else if (!info && api.hasToken()) {
      game = await api.startGame({ mode: "daily", date });
    }
  } catch (error) {
    if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error)));
    return;
  }
  if (signal.aborted) return;
  if (game) return showGame(root, game, signal);

  const start = h("button", { type: "button", class: "button primary big", id: "start-daily" }, t("today.play"));
  const problems = h("div");
  const rankingNote = h("p", { class: "ranking-note", id: "ranking-note" });
  start.addEventListener("click", async () => {
    start.disabled = true;
    write("welcomed", true); // a first visit is over once its player starts playing
    try {
      const started = await api.startGame({ mode: "daily", date });
      if (!signal.aborted) {
        showGame(root, started, signal);
        // The button that had focus is gone: focus goes on to the board, not to <body>.
        focusBoard(root.querySelector(".game .board"));
      }
    } catch (error) {
      start.disabled = false;
      replace(problems, problemView(error));
    }
  });
  const intro = h("section", { class: "page today-intro", "aria-labelledby": "today-heading" },
    h("h1", { id: "today-heading" }, info?.number ? t("game.daily_title", { number: info.number }) : t("game.daily_title_plain")),
    h("p", { class: "subtle" }, current().date(info?.date ?? date)),
    h("p", { class: "lead" }, t("today.intro")),
    info ? h("p", { class: "today-count" },
      h("span", {}, t("today.ranked_players", { n: info.players ?? 0 })),
      h("span", {}, t("today.winners", { n: info.winners ?? 0 }))) : null,
    h("div", { class: "actions" }, start, h("a", { class: "button", href: "#/rules" }, t("today.rules"))),
    problems,
    rankingNote);
  // "Just play" plays: it starts today's game, as the big button does.
  replace(root, welcome(() => start.click()), intro);
  spiteMalice(root, signal);
  // Before a first daily, a guest learns calmly how the global boards rank (not after a win).
  const guest = api.hasToken() ? await api.me().then((me) => me.guest, () => false) : true;
  if (guest && !signal.aborted) replace(rankingNote, t("today.ranking_note"));
}

function showGame(root, game, signal) {
  const screen = gameScreen(game, {
    heading: dailyHeading(game),
    subheading: game.date ? current().date(game.date) : "",
    signal,
    onOver: (finished, slot) => showResult(slot, finished, { signal }),
  });
  replace(root, welcome(() => focusBoard(screen.querySelector(".board"))), screen);
  spiteMalice(root, signal);
}
