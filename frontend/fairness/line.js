// A result screen's fairness line: "Fair deal ✓: committed <time>" once the page has checked
// the deal itself (model.js: WebCrypto's SHA-256 and HMAC, and the game's deal() its caller
// hands in), or why it could not: committed and not revealed yet, committed late, or a check
// that failed and what failed. It links to the "How we prove it" page (#/fair). Its strings
// (locales/<lang>.js, fair.*) and styles come with it, so the first screen loads none of it.

import { h, replace } from "../lib/dom.js";
import { current, loadStrings, t } from "../i18n.js";
import { loadStylesheet } from "../lib/stylesheet.js";

// Literal import()s, which the hashed static files' manifest rewrites (server/core/storage.py).
const TABLES = {
  en: () => import("./locales/en.js"),
  ml: () => import("./locales/ml.js"),
  ka: () => import("./locales/ka.js"),
  fa: () => import("./locales/fa.js"),
  bn: () => import("./locales/bn.js"),
};
const STYLES = new URL("./fairness.css", import.meta.url);

/** The fairness strings and styles, in the current language (again after a switch). */
export const loadFairness = () => Promise.all([loadStrings(TABLES), loadStylesheet(STYLES)]);

/**
 * The line, empty until `check()` (a promise of model.js's `{state, reason, committedAt}`)
 * has answered; `kind` "daily" or "match" (a race's seeds are revealed as a match's are) says
 * when a seed not yet revealed will be.
 */
export function fairnessLine(check, { kind = "match", signal } = {}) {
  const line = h("p", { class: "fair-line", id: "fair-line", role: "status", dataset: { state: "checking" } });
  (async () => {
    await loadFairness();
    if (signal?.aborted) return;
    replace(line, t("fair.checking"));
    let result;
    try {
      result = await check();
    } catch {
      result = { state: "unavailable" };
    }
    if (!signal?.aborted) show(line, result, kind);
  })();
  return line;
}

function show(line, { state, reason, committedAt }, kind) {
  const time = committedAt ? current().dateTime(committedAt) : "";
  const words = {
    ok: () => t("fair.ok", { time }),
    committed: () => t(kind === "daily" ? "fair.committed_daily" : "fair.committed_match", { time }),
    late: () => t("fair.late", { time }),
    bad: () => t("fair.bad", { why: t(`fair.why.${reason}`) }),
  }[state] ?? (() => t("fair.unavailable"));
  line.dataset.state = state;
  if (reason) line.dataset.reason = reason;
  replace(line, h("span", { class: "fair-text" }, words()), " ", h("a", { class: "fair-how", href: "#/fair" }, t("fair.how")));
}

/** Tomorrow's commitment under the countdown (the result's fairness line above links to the
 *  page that explains it): its first and last hex digits, and when. */
export function tomorrowLine(item) {
  const code = `${item.commitment.slice(0, 8)}…${item.commitment.slice(-8)}`;
  return h("p", { class: "fair-tomorrow subtle", id: "fair-tomorrow", dataset: { commitment: item.commitment } },
    t("fair.tomorrow", { code: "\u2068" + code + "\u2069" }), " (", t("fair.tomorrow_time", { time: current().dateTime(item.committed_at) }), ")");
}
