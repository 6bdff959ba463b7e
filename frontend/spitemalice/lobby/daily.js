// #/spite-malice/daily: today's Spite & Malice daily, by your local date. Asking for it deals
// it the first time and returns the same match after that, so this starts it or carries it on.

import * as smApi from "../api.js";
import { h, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { redirect } from "../../lib/router.js";
import { t } from "../../i18n.js";
import { localDate } from "../../model/time.js";

export default async function daily(root, route, { signal }) {
  replace(root, h("p", { class: "loading", role: "status" }, t("sm.lobby.daily_starting")));
  try {
    const match = await smApi.smDailyStart(localDate());
    if (!signal.aborted) redirect(`/spite-malice/match/${match.id}`);
  } catch (error) {
    if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error), h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back")))));
  }
}
