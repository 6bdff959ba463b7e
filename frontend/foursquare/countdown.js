// "Next daily in 7:04:31", ticking until the next local midnight, then a way to the new one;
// under it, the next daily's commitment, published a week ahead (docs/FAIRNESS.md).

import { h, replace } from "../lib/dom.js";
import { navigate } from "../lib/router.js";
import { current, t } from "../i18n.js";
import { addDays, localDate, nextMidnight, until } from "../model/time.js";

export function countdown(signal) {
  const target = nextMidnight();
  const clock = h("time", { class: "countdown-clock" });
  const tick = () => {
    const left = until(target);
    const { number, twoDigits } = current();
    clock.textContent = `${number(left.hours)}:${twoDigits(left.minutes)}:${twoDigits(left.seconds)}`;
    if (left.hours + left.minutes + left.seconds === 0) {
      clearInterval(timer);
      replace(line, h("button", { type: "button", class: "button primary", on: { click: () => navigate("/") } }, t("result.new_daily")));
    }
  };
  const line = h("p", { class: "countdown" }, h("span", {}, t("result.next_daily")), " ", clock);
  const timer = setInterval(tick, 1000);
  signal?.addEventListener("abort", () => clearInterval(timer));
  tick();
  // The next daily's deal is committed already (a week ahead): its commitment, under the clock.
  const tomorrowSlot = h("div", { class: "countdown-commitment" });
  import("./fairness.js").then(({ tomorrow }) => tomorrow(addDays(localDate(), 1)))
    .then((shown) => signal?.aborted || !shown || replace(tomorrowSlot, shown)).catch(() => {});
  return h("div", { class: "countdown-block" }, line, tomorrowSlot);
}
