// A short message at the bottom of the screen, also read out by screen readers. It belongs to
// the screen it was shown on: going to another screen takes it away, unless it was shown just
// now by the action that is going there ("League created." as its page opens).

import { announce } from "../lib/dom.js";

const SHOWN_MS = 2600;
const SAME_ACTION_MS = 400;

let timer = null;
let shownAt = 0;

function element() {
  return document.getElementById("toast");
}

export function hideToast() {
  clearTimeout(timer);
  element()?.classList.remove("toast-shown");
}

export function toast(text) {
  const box = element();
  announce(text);
  if (!box) return;
  box.textContent = text;
  box.classList.add("toast-shown");
  shownAt = Date.now();
  clearTimeout(timer);
  timer = setTimeout(hideToast, SHOWN_MS);
}

window.addEventListener("hashchange", () => {
  if (Date.now() - shownAt > SAME_ACTION_MS) hideToast();
});
