// The Spite & Malice match screen, #/spite-malice/match/<id>: the table, acting on it (tap or
// click a source then a target, drag and drop, or the keyboard), the events shown one by one
// as they happened (the opponent's turn card by card, skippable), kept live by the socket or
// the feed, and each game's result (or, for a match aborted before the first turns were played,
// that it was). The state always comes from the server: a reload or another device shows
// exactly the same table. This module loads the screen and puts its three parts together:
// match-controller.js (the state and its reactions to the server, no DOM), match-view.js (the
// drawing) and match-input.js (clicks, drag and drop, keys).

import * as smApi from "./api.js";
import { h, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { loadStylesheet } from "../lib/stylesheet.js";
import { t } from "../i18n.js";
import { loadTableStrings } from "./i18n.js";
import { follow } from "./live.js";
import { matchController } from "./match-controller.js";
import { matchView } from "./match-view.js";
import { bindInput } from "./match-input.js";

const STYLESHEET = new URL("./table.css", import.meta.url);

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export default async function show(main, route, { signal }) {
  await Promise.all([loadTableStrings(), loadStylesheet(STYLESHEET)]);
  const id = route.parts[2];
  replace(main, h("section", { class: "page" }, h("p", {}, t("common.loading"))));
  let match;
  try {
    match = await smApi.smMatch(id);
  } catch (error) {
    replace(main, h("section", { class: "page sm-page" }, h("h1", {}, t("sm.title")), problemView(error)));
    return;
  }
  if (signal.aborted) return;
  if (match.status === "waiting") {
    match = await waitForJoin(main, match, { signal });
    if (!match || signal.aborted) return;
  }
  const screen = matchScreen(match, { signal });
  replace(main, screen);
  screen.querySelector("h1")?.focus({ preventScroll: true });
  // A phone gives the table the whole screen: the site's header is scrolled out of sight.
  if (window.matchMedia?.("(max-width: 899px)").matches) screen.scrollIntoView({ block: "start" });
}

/** A match nobody has joined yet: says so, links to its invitation, and resolves with the
 *  match once the opponent has taken their seat (null if it was cancelled or left). Its
 *  socket brings the `joined` or `cancelled` event at once; the match is also read every 3 s
 *  (a socket may not be had). */
function waitForJoin(main, match, { signal }) {
  replace(main, h("section", { class: "page sm-page", "aria-labelledby": "sm-heading" },
    h("h1", { id: "sm-heading", tabindex: "-1" }, t("sm.title")),
    h("p", { class: "sm-waiting", role: "status" }, t("sm.waiting")),
    h("p", {}, h("a", { href: `#/spite-malice/invite/${encodeURIComponent(match.id)}` }, t("sm.invitation")))));
  return new Promise((resolve) => {
    let done = false;
    let live = null;
    const finish = (value) => {
      done = true;
      clearInterval(timer);
      live?.stop();
      resolve(value);
    };
    const check = async () => {
      if (done) return;
      try {
        const now = await smApi.smMatch(match.id);
        if (now.status === "waiting" || done) return;
        if (now.status === "cancelled") {
          const line = main.querySelector(".sm-waiting");
          if (line) {
            replace(line, t("sm.cancelled"));
            line.dataset.status = "cancelled";
            line.setAttribute("tabindex", "-1");
            line.focus();
          }
        }
        finish(now.status === "cancelled" ? null : now);
      } catch { /* ask again at the next tick */ }
    };
    const timer = setInterval(check, 3000);
    live = follow(match.id, {
      after: match.event,
      onEvents: (events) => { if (events.some((event) => ["joined", "cancelled"].includes(event.kind))) check(); },
      onState: (state) => {
        const line = main.querySelector(".sm-waiting");
        if (line) line.dataset.following = state;
      },
    });
    signal?.addEventListener("abort", () => finish(null));
  });
}

/** The table of `match`: the controller holds its state, the view draws it, the input acts. */
function matchScreen(match, { signal }) {
  const controller = matchController(match, { api: smApi, follow, reducedMotion });
  const screen = matchView(controller);
  bindInput(screen, controller, { signal });
  signal?.addEventListener("abort", () => { controller.stop(); screen.stop(); });
  controller.start(screen);
  if (match.status === "playing") controller.loadHistory();
  return screen.root;
}
