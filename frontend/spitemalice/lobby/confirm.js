// A step between a button that undoes something and the undoing: the button gives way to the
// question, "Yes" and "Keep it"; "Keep it" (or Escape) puts the button back.

import { h } from "../../lib/dom.js";
import { t } from "../../i18n.js";

/** `button` asks `question` before `run()`; `run()` answering false (it failed, and said
 *  so) brings the button back too. */
export function confirmFirst(button, { question, yes }, run) {
  button.addEventListener("click", () => {
    const answer = h("button", { type: "button", class: "button danger", dataset: { confirm: "yes" } }, yes);
    const keep = h("button", { type: "button", class: "button", dataset: { confirm: "keep" } }, t("sm.confirm.keep"));
    const box = h("div", { class: "sm-confirm", role: "group", "aria-label": question },
      h("p", { class: "sm-confirm-question" }, question), h("div", { class: "actions" }, answer, keep));
    const back = () => { box.replaceWith(button); button.focus(); };
    keep.addEventListener("click", back);
    box.addEventListener("keydown", (event) => { if (event.key === "Escape") back(); });
    answer.addEventListener("click", async () => {
      answer.disabled = keep.disabled = true;
      if ((await run()) === false) box.replaceWith(button);
    });
    button.replaceWith(box);
    keep.focus();
  });
}
