// #/races/new: a race of 2 to 8 players on a clock of 3, 5 or 10 minutes, with league mates
// invited straight away if you like (POST /races); then its waiting room, where the link and
// code are to send. A player still under the name they were given is asked for one first: the
// others see it on their lanes.

import * as api from "../../api.js";
import * as raceApi from "./api.js";
import { h, replace } from "../../lib/dom.js";
import { redirect } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { form } from "../../components/form.js";
import { nameToAsk, playerNameField, saveName } from "../../components/player-name.js";
import { LIMITS } from "./model/race.js";
import { back, choice, page } from "./parts.js";

const DEFAULTS = { players: 4, minutes: 5 };

/** Everyone in your leagues but you, once each, by name. */
async function leagueMates(me) {
  const leagues = await api.leagues();
  const details = await Promise.all(leagues.map((league) => api.league(league.id).catch(() => null)));
  const mates = new Map();
  for (const league of details) {
    for (const { player } of league?.members ?? []) if (player.id !== me) mates.set(player.id, player);
  }
  return [...mates.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function matesField(mates) {
  if (!mates.length) return null;
  return h("fieldset", { class: "race-mates", id: "race-mates" },
    h("legend", {}, t("race.new_invite")),
    h("p", { class: "field-hint subtle" }, t("race.new_invite_hint")),
    h("ul", {}, mates.map((mate) => h("li", {}, h("label", {},
      h("input", { type: "checkbox", name: "invite", value: mate.id }), " ", h("bdi", {}, mate.name))))));
}

export default async function newRace(root, route, { signal }) {
  const [asked, me] = await Promise.all([
    nameToAsk(),
    api.hasToken() ? api.me().catch(() => null) : null,
  ]);
  const mates = me ? await leagueMates(me.id).catch(() => []) : [];
  if (signal.aborted) return;
  const element = form({
    id: "race-new-form",
    fields: [
      asked.ask ? playerNameField({ label: t("race.your_name"), hint: t("race.your_name_hint"), value: asked.name }) : null,
      choice({
        name: "players", legend: t("race.new_players"), value: DEFAULTS.players,
        options: Array.from({ length: LIMITS.maxPlayers - LIMITS.minPlayers + 1 }, (_, index) => {
          const n = LIMITS.minPlayers + index;
          return [n, current().number(n)];
        }),
        hint: t("race.new_players_hint"),
      }),
      choice({
        name: "minutes", legend: t("race.new_minutes"), value: DEFAULTS.minutes,
        options: LIMITS.minutes.map((n) => [n, t("race.minutes_n", { n })]),
      }),
      matesField(mates),
    ],
    submit: t("race.create"),
    action: async (values) => {
      await saveName(values, { current: asked.name });
      const invite = [...element.querySelectorAll("input[name=invite]:checked")].map((input) => input.value);
      const race = await raceApi.raceCreate({ players: Number(values.players), minutes: Number(values.minutes), invite });
      redirect(`/races/${race.id}`);
    },
  });
  element.querySelector("button[type=submit]").id = "race-create";
  replace(root, page("race-new-heading", "race-new",
    back(),
    h("h1", { id: "race-new-heading" }, t("race.new")),
    h("p", { class: "lead" }, t("race.new_intro")),
    element));
}
