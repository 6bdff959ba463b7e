// #/fair, "How we prove it": commit and reveal, the players' client seeds, the signed log, what
// the result screens check, and the verify commands (docs/FAIRNESS.md). Each language writes
// its own page (pages/<lang>.js, a list of blocks), the commands as typed.

import { h, replace } from "../lib/dom.js";
import { moduleIn, t } from "../i18n.js";
import { blockNodes } from "../components/blocks.js";
import { addDays, localDate } from "../model/time.js";
import { loadFairness } from "./line.js";

// Literal import()s, which the hashed static files' manifest rewrites (server/core/storage.py).
const PAGES = {
  en: () => import("./pages/en.js"),
  ml: () => import("./pages/ml.js"),
  ka: () => import("./pages/ka.js"),
  fa: () => import("./pages/fa.js"),
  bn: () => import("./pages/bn.js"),
};

export default async function fairPage(root) {
  const [blocks] = await Promise.all([moduleIn(PAGES), loadFairness()]);
  const today = localDate();
  // The commands name this server and the fortnight around today.
  const filled = blocks.map(([kind, content]) => [kind, kind === "pre" ? content
    .replaceAll("{server}", location.origin).replaceAll("{from}", addDays(today, -7)).replaceAll("{to}", addDays(today, 7)) : content]);
  replace(root, h("article", { class: "page rules fair-page", "aria-labelledby": "fair-heading" },
    h("h1", { id: "fair-heading" }, t("fair.page_title")),
    blockNodes(filled)));
}
