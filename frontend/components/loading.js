// The line a screen shows while it waits for the server.

import { h } from "../lib/dom.js";
import { t } from "../i18n.js";

export function loading() {
  return h("p", { class: "loading", role: "status" }, t("common.loading"));
}
