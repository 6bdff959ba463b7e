// A card flying across the table from one place to another (Web Animations, no inline style
// sheet): a moment that shows where a card came from. Callers skip it with reduced motion.

import { h } from "../lib/dom.js";
import { cardBack, cardFace } from "../components/card.js";

const FLIGHT_MS = 320;

export function fly(from, to, code, { back = false } = {}) {
  const piece = back || !code ? cardBack({ label: "" }) : cardFace(code, { label: false });
  const ghost = h("div", { class: "sm-flying", "aria-hidden": "true" }, piece);
  const width = Math.min(from.width, to.width) || to.width;
  const height = width * 1.4;
  ghost.style.setProperty("inline-size", `${width}px`);
  ghost.style.setProperty("block-size", `${height}px`);
  document.body.append(ghost);
  const animation = ghost.animate([
    { transform: `translate(${from.left}px, ${from.top}px)` },
    { transform: `translate(${to.left}px, ${to.top}px)` },
  ], { duration: FLIGHT_MS, easing: "cubic-bezier(0.3, 0.7, 0.4, 1)" });
  return animation.finished.catch(() => null).finally(() => ghost.remove());
}
