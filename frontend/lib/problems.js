// An ApiError as the player reads it: a sentence in their language chosen by the problem's
// `code`, with the server's own `detail` under it (it is written in English).

import { h } from "./dom.js";
import { current, t } from "../i18n.js";

export function problemSentence(error) {
  const known = `error.${error?.code}`;
  return current().has(known) ? t(known) : t("error.generic");
}

export function problemView(error, { role = "alert" } = {}) {
  const sentence = problemSentence(error);
  const detail = error?.code === "network" ? "" : error?.detail;
  return h("div", { class: "problem", role },
    h("p", { class: "problem-text" }, sentence),
    detail && detail !== sentence
      ? h("p", { class: "problem-detail", lang: "en", dir: "ltr", dataset: { code: error.code } }, detail)
      : null);
}
