// A new match: against the computer (#/spite-malice/play: its level and the match's length,
// then straight to the table) or an invitation to a friend (#/spite-malice/friend: the clock
// for each turn, the length and whether it is rated, then the invitation's link).
// ?invitee=<id>&name=<name> invites a league mate directly.

import * as smApi from "../api.js";
import { h, replace } from "../../lib/dom.js";
import { navigate, redirect } from "../../lib/router.js";
import { t } from "../../i18n.js";
import { form } from "../../components/form.js";
import { CLOCKS, DEFAULTS, LEVELS, TARGETS, suggestsSingleGame } from "./model.js";
import { choice, choose } from "./choice.js";
import { clockName, lengthName } from "./words.js";

const back = () => h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back")));

const lengthChoice = (value) => choice({
  name: "target", legend: t("sm.length.label"), value,
  options: TARGETS.map((target) => [target, lengthName(target)]),
  hint: t("sm.length.hint"),
});

function botPage(root) {
  const element = form({
    id: "sm-bot-form",
    fields: [
      choice({ name: "level", legend: t("sm.bot.level"), value: DEFAULTS.level,
        options: LEVELS.map((level) => [level, t(`sm.bot.level_${level}`)]), hint: t("sm.bot.level_hint") }),
      lengthChoice(DEFAULTS.botTarget),
    ],
    submit: t("sm.bot.start"),
    action: async ({ level, target }) => {
      const match = await smApi.smPlayBot({ level, target: Number(target) });
      navigate(`/spite-malice/match/${match.id}`);
    },
  });
  element.querySelector("button[type=submit]").id = "sm-bot-start";
  replace(root, h("section", { class: "page sm-lobby", "aria-labelledby": "sm-bot-heading" },
    back(),
    h("h1", { id: "sm-bot-heading" }, t("sm.bot.title")),
    h("p", { class: "lead" }, t("sm.bot.intro")),
    element));
}

function friendPage(root, route) {
  const invitee = route.query.get("invitee") ?? undefined;
  const name = route.query.get("name") ?? "";
  const slow = h("p", { class: "sm-suggestion", id: "sm-slow-hint", role: "status" });
  let lengthTouched = false;
  const element = form({
    id: "sm-friend-form",
    fields: [
      choice({ name: "turn_seconds", legend: t("sm.clock.label"), value: DEFAULTS.clock,
        options: CLOCKS.map((seconds) => [seconds, clockName(seconds)]), hint: t("sm.clock.hint") }),
      lengthChoice(DEFAULTS.friendTarget),
      slow,
      // Rated unless asked otherwise; the invitation then says whether it is in fact rated.
      choice({ name: "rated", legend: t("sm.friend.rated_label"), value: "true",
        options: [["true", t("sm.friend.rated")], ["false", t("sm.friend.casual")]], hint: t("sm.friend.rated_hint") }),
    ],
    submit: t("sm.friend.create"),
    action: async ({ turn_seconds: seconds, target, rated }) => {
      const match = await smApi.smInvite({ turnSeconds: Number(seconds), target: Number(target), invitee, rated: rated !== "false" });
      redirect(`/spite-malice/invite/${match.id}`);
    },
  });
  element.querySelector("button[type=submit]").id = "sm-invite-create";
  // A slow clock suggests a single game (and picks it, unless the player chose a length).
  const suggest = () => {
    const seconds = Number(new FormData(element).get("turn_seconds"));
    slow.textContent = suggestsSingleGame(seconds) ? t("sm.friend.slow_hint", { clock: clockName(seconds) }) : "";
    if (!lengthTouched) choose(element, "target", suggestsSingleGame(seconds) ? 1 : 50);
  };
  // A length picked is kept, even the one already shown (a click on the checked option
  // changes nothing, so "change" alone would miss it).
  const touchLength = (event) => { if (event.target.name === "target") lengthTouched = true; };
  element.addEventListener("click", touchLength);
  element.addEventListener("change", (event) => {
    touchLength(event);
    if (event.target.name === "turn_seconds") suggest();
  });
  suggest();
  replace(root, h("section", { class: "page sm-lobby", "aria-labelledby": "sm-friend-heading" },
    back(),
    h("h1", { id: "sm-friend-heading" }, t("sm.friend.title")),
    h("p", { class: "lead" }, invitee ? t("sm.friend.invitee_intro", { name }) : t("sm.friend.intro")),
    element));
}

export default function newMatch(root, route) {
  return route.parts[1] === "friend" ? friendPage(root, route) : botPage(root);
}
