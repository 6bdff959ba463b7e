// #/races/join/<code>, what an invitation's link opens (/races/join/<code>): the code, a name
// for a guest or a player still under the name they were given, and Join (POST /races/join),
// then the race's waiting room. A code of a race you are already in goes straight to it.

import * as api from "../../api.js";
import * as raceApi from "./api.js";
import { h, replace, loading } from "../../lib/dom.js";
import { redirect } from "../../lib/router.js";
import { t } from "../../i18n.js";
import { form } from "../../components/form.js";
import { nameOffer, nameToAsk, playerNameField, saveName } from "../../components/player-name.js";
import { codeFrom } from "./model/race.js";
import { back, page } from "./parts.js";

// Why a join is refused, said in the screen's words; other problems go to the form.
const REFUSALS = { race_not_found: "race.join_unknown", not_found: "race.join_unknown", race_started: "race.join_started", race_full: "race.join_full" };

export default async function join(root, route, { signal }) {
  const code = codeFrom(route.parts[2] ?? "");
  replace(root, loading());
  const [asked, me, races] = await Promise.all([
    nameToAsk(),
    api.hasToken() ? api.me().catch(() => null) : null,
    api.hasToken() ? raceApi.raceList({ limit: 30 }).then((answer) => answer.results ?? [], () => []) : [],
  ]);
  if (signal.aborted) return;
  // Already one of its racers (the host opening their own link, a second tap): go in.
  const yours = me && races.find((race) => race.code?.toUpperCase() === code
    && (race.racers ?? []).some((racer) => racer.player?.id === me.id));
  if (yours) {
    redirect(`/races/${yours.id}`);
    return;
  }
  const problems = h("div", { id: "race-join-problem" });
  const element = form({
    id: "race-join-form",
    fields: asked.ask ? playerNameField({ label: t("race.your_name"), hint: t("race.your_name_hint"), value: asked.name }) : [],
    submit: t("race.join_button"),
    action: async (values) => {
      replace(problems);
      try {
        await saveName(values, { current: asked.name });
      } catch (error) {
        // A name someone has: the free one like it offered in one line, as a match's join does.
        if (error.code !== "name_taken") throw error;
        replace(problems, nameOffer(element, error, {
          name: values.player_name.trim(), id: "race-join-suggestion",
          taken: (name) => t("race.join_name_taken", { name }), takeLabel: (name) => t("race.join_as", { name }),
        }));
        problems.querySelector("button")?.focus();
        return;
      }
      try {
        const race = await raceApi.raceJoinCode(code);
        redirect(`/races/${race.id}`);
      } catch (error) {
        const key = REFUSALS[error.code] ?? (error.status === 404 ? "race.join_unknown" : null);
        if (!key) throw error;
        replace(problems, h("div", { class: "problem", role: "alert", dataset: { code: error.code } },
          h("p", { class: "problem-text" }, t(key)),
          h("p", {}, h("a", { class: "button", href: "#/races/new" }, t("race.new")))));
        element.querySelector("button[type=submit]").hidden = true;
      }
    },
  });
  const button = element.querySelector("button[type=submit]");
  button.id = "race-join";
  button.classList.add("big");
  replace(root, page("race-join-heading", "race-join today-intro",
    h("h1", { id: "race-join-heading" }, t("race.join_title")),
    h("p", { class: "lead" }, t("race.join_text")),
    h("p", { class: "subtle" }, t("race.code_line"), " ", h("code", { id: "race-join-code", dir: "ltr" }, code)),
    element,
    problems,
    back()));
}
