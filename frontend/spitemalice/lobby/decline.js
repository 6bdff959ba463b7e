// Declining a challenge to you, saying why: "Decline" opens the server's reasons to choose from
// (docs/API.md, "Challenges and seeks"), sent with the decline; the challenger reads it. Used by
// the match list and the join screen.

import * as smApi from "../api.js";
import { h, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { t } from "../../i18n.js";
import { DECLINE_REASONS } from "./model.js";

/** "Decline", which opens the reasons to choose from (sent with the decline), and that box. */
export function declinePicker(match, { problems, done }) {
  const id = `sm-decline-${match.id}`;
  const select = h("select", { id, name: "reason" }, DECLINE_REASONS.map((reason) => h("option", { value: reason }, t(`sm.decline.${reason}`))));
  const send = h("button", { type: "button", class: "button danger", dataset: { action: "decline-send" } }, t("sm.decline.send"));
  const box = h("div", { class: "sm-decline", hidden: true, dataset: { decline: match.id } },
    h("p", { class: "field" }, h("label", { for: id }, t("sm.decline.label")), select),
    h("div", { class: "actions" }, send));
  const open = h("button", { type: "button", class: "button", dataset: { action: "decline" }, "aria-expanded": "false", "aria-controls": id }, t("sm.join.decline"));
  open.addEventListener("click", () => {
    box.hidden = !box.hidden;
    open.setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) select.focus();
  });
  send.addEventListener("click", async () => {
    send.disabled = true;
    try {
      await smApi.smDecline(match.id, select.value);
    } catch (error) {
      send.disabled = false;
      replace(problems, problemView(error));
      return;
    }
    done();
  });
  return { open, box };
}
