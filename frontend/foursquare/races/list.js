// #/races: what a race is, a new one, a code to join, and your races (GET /races: those you
// race in or are invited to), open ones first.

import * as api from "../../api.js";
import * as raceApi from "./api.js";
import { h, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { form, field } from "../../components/form.js";
import { codeFrom, listSections } from "./model/race.js";
import { page, settingsLine } from "./parts.js";

function raceItem(race) {
  return h("li", { class: "race-item", dataset: { race: race.id, status: race.status } },
    h("a", { href: `#/races/${race.id}` },
      h("span", { class: "race-item-title" }, t(`race.status.${race.status}`)),
      h("span", { class: "subtle" }, current().list([settingsLine(race), t("race.host_is", { name: race.host?.name ?? "" }), current().dateTime(race.created_at)]))));
}

export default async function list(root, route, { signal }) {
  const yours = h("div", { class: "race-list-slot" });
  const joinForm = form({
    id: "race-code-form",
    fields: [field(t("race.code"), h("input", {
      name: "code", required: true, autocapitalize: "characters", spellcheck: "false", dir: "ltr", maxlength: "80", autocomplete: "off",
    }), { hint: t("race.code_hint") })],
    submit: t("race.join_button"),
    action: async ({ code }) => {
      navigate(`/races/join/${encodeURIComponent(codeFrom(code))}`);
    },
  });
  joinForm.querySelector("button[type=submit]").id = "race-code-join";
  replace(root, page("races-heading", "race-list",
    h("h1", { id: "races-heading" }, t("race.list_title")),
    h("p", { class: "lead" }, t("race.intro")),
    h("div", { class: "actions" }, h("a", { class: "button primary big", href: "#/races/new", id: "race-new" }, t("race.new"))),
    h("section", { class: "card-section", "aria-labelledby": "race-code-heading" },
      h("h2", { id: "race-code-heading" }, t("race.join_title")), joinForm),
    h("section", { "aria-labelledby": "race-yours-heading" },
      h("h2", { id: "race-yours-heading" }, t("race.yours")), yours)));
  if (!api.hasToken()) {
    replace(yours, h("p", { class: "subtle" }, t("race.none")));
    return;
  }
  replace(yours, h("p", { class: "subtle" }, t("common.loading")));
  try {
    const answer = await raceApi.raceList({ limit: 30 });
    if (signal.aborted) return;
    const { open, done } = listSections(answer.results ?? answer ?? []);
    replace(yours, open.length || done.length
      ? [open.length ? h("ul", { class: "race-items", id: "race-open" }, open.map(raceItem)) : null,
        done.length ? h("ul", { class: "race-items", id: "race-done" }, done.map(raceItem)) : null]
      : h("p", { class: "subtle" }, t("race.none")));
  } catch (error) {
    if (!signal.aborted) replace(yours, problemView(error, { role: "status" }));
  }
}
