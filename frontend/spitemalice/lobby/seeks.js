// The lobby's open seeks: others' offers of a match that the first taker joins (take one and
// the match begins at once), and a form to post your own (it then waits in your matches). The
// server decides who gets a seek two players take at once; the loser is told it is gone.

import * as smApi from "../api.js";
import { h, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { botBadge } from "../../components/bot-badge.js";
import { toast } from "../../components/toast.js";
import { choice } from "./choice.js";
import { CLOCKS, DEFAULTS, TARGETS } from "./model.js";
import { matchHref } from "./turns.js";
import { clockName, lengthName } from "./words.js";

const PAGE = 20;

function postForm(again) {
  const problems = h("div");
  const form = h("form", { class: "sm-seek-form", id: "sm-seek-form" },
    choice({ name: "turn_seconds", id: "sm-seek-clock", legend: t("sm.clock.label"), options: CLOCKS.map((seconds) => [seconds, clockName(seconds)]), value: DEFAULTS.clock }),
    choice({ name: "target", id: "sm-seek-length", legend: t("sm.length.label"), options: TARGETS.map((target) => [target, lengthName(target)]), value: DEFAULTS.friendTarget }),
    choice({ name: "rated", id: "sm-seek-rated", legend: t("sm.friend.rated_label"), options: [["true", t("sm.friend.rated")], ["false", t("sm.friend.casual")]], value: "true" }),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "button", id: "sm-seek-post" }, t("sm.seek.post"))),
    problems);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const values = Object.fromEntries(new FormData(form));
    try {
      await smApi.smSeek({ turnSeconds: Number(values.turn_seconds), target: Number(values.target), rated: values.rated !== "false" });
      toast(t("sm.seek.posted"));
      again();
    } catch (error) {
      button.disabled = false;
      replace(problems, problemView(error));
    }
  });
  return h("details", { class: "card-section sm-seek-post", id: "sm-seek-post-section" },
    h("summary", {}, t("sm.seek.post_title")), h("p", { class: "subtle" }, t("sm.seek.post_intro")), form);
}

function seekItem(seek) {
  const problems = h("div");
  const take = h("button", { type: "button", class: "button primary", dataset: { action: "take" } }, t("sm.seek.take"));
  take.addEventListener("click", async () => {
    take.disabled = true;
    try {
      const match = await smApi.smSeekTake(seek.id);
      navigate(matchHref(match).slice(1));
    } catch (error) {
      take.disabled = false;
      replace(problems, problemView(error));
    }
  });
  return h("li", { class: "sm-match sm-seek", dataset: { seek: seek.id } },
    h("p", { class: "sm-match-state" }, h("span", {}, h("strong", {}, h("bdi", {}, seek.from.name)), botBadge(seek.from)),
      seek.rating ? h("span", { class: "subtle" }, t("sm.seek.rating", { rating: seek.rating.rating })) : null),
    h("p", { class: "sm-match-detail subtle" }, current().list([
      t("sm.invite.clock", { clock: clockName(seek.turn_seconds) }),
      lengthName(seek.target),
      t(seek.rated ? "sm.rated.tag_rated" : "sm.rated.tag_unrated"),
    ])),
    h("div", { class: "actions" }, take),
    problems);
}

/** The open seeks section: others' seeks to take (paged on), and the form to post one. */
export function seeksSection({ again, signal }) {
  const body = h("div", { id: "sm-seeks" });
  const section = h("section", { class: "sm-seeks-section", "aria-labelledby": "sm-seeks-heading" },
    h("h2", { id: "sm-seeks-heading" }, t("sm.seek.title")),
    h("p", { class: "subtle" }, t("sm.seek.intro")),
    body, postForm(again));
  const list = h("ul", { class: "sm-matches", id: "sm-seek-list" });
  const more = h("button", { type: "button", class: "button", id: "sm-seek-more", hidden: true }, t("sm.seek.more"));
  let next = null;
  async function load() {
    let page;
    try {
      page = await smApi.smSeeks({ limit: PAGE, cursor: next ? new URL(next).searchParams.get("cursor") : undefined });
    } catch (error) {
      if (!signal.aborted) replace(body, problemView(error));
      return;
    }
    if (signal.aborted) return;
    list.append(...page.results.map(seekItem));
    next = page.next;
    more.hidden = !next;
    if (!list.children.length) replace(body, h("p", { class: "subtle", id: "sm-seeks-none" }, t("sm.seek.none")));
    else if (!body.contains(list)) replace(body, list, more);
  }
  more.addEventListener("click", load);
  load();
  return section;
}
