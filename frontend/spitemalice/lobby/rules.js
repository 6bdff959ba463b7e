// #/spite-malice/rules: the rules page, from ../rules/<language>.js (a list of blocks, as
// Foursquare's rules page is), each language writing its own sentences.

import { h, replace } from "../../lib/dom.js";
import { moduleIn, t } from "../../i18n.js";
import { blockNodes } from "../../components/blocks.js";

// Literal import()s, which the hashed static files' manifest rewrites (server/core/storage.py).
const PAGES = {
  en: () => import("../rules/en.js"),
  ml: () => import("../rules/ml.js"),
  ka: () => import("../rules/ka.js"),
  fa: () => import("../rules/fa.js"),
  bn: () => import("../rules/bn.js"),
};

export default async function rules(root) {
  const blocks = await moduleIn(PAGES);
  replace(root, h("article", { class: "page rules sm-rules", "aria-labelledby": "sm-rules-heading" },
    h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back"))),
    h("h1", { id: "sm-rules-heading" }, t("sm.rules.title")),
    h("p", { class: "actions" },
      h("a", { class: "button primary", href: "#/spite-malice/tutorial", id: "sm-rules-tutorial" }, t("sm.lobby.tutorial")),
      h("a", { class: "button", href: "#/spite-malice/play" }, t("sm.bot.title"))),
    blockNodes(blocks),
    h("p", {}, h("a", { href: "#/rules" }, t("sm.rules.foursquare")))));
}
