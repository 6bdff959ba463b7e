// The rules page, from rules/<language>.js: a list of blocks, so each language writes its own
// sentences rather than filling a template.

import { h, replace } from "../lib/dom.js";
import { moduleIn, t } from "../i18n.js";
import { blockNodes } from "../components/blocks.js";

// Literal import()s, which the hashed static files' manifest rewrites (server/core/storage.py).
const PAGES = {
  en: () => import("./rules/en.js"),
  ml: () => import("./rules/ml.js"),
  ka: () => import("./rules/ka.js"),
  fa: () => import("./rules/fa.js"),
  bn: () => import("./rules/bn.js"),
};

export default async function rules(root) {
  const blocks = await moduleIn(PAGES);
  replace(root, h("article", { class: "page rules", "aria-labelledby": "rules-heading" },
    h("h1", { id: "rules-heading" }, t("rules.title")),
    h("p", { class: "actions" }, h("a", { class: "button primary", href: "#/tutorial" }, t("rules.tutorial")),
      h("a", { class: "button", href: "#/spite-malice/rules", id: "rules-spite-malice" }, t("rules.spite_malice")),
      h("a", { class: "button", href: "#/fair", id: "rules-fair" }, t("rules.fair"))),
    blockNodes(blocks)));
}
