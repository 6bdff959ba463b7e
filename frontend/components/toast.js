// A short message at the bottom of the screen, also read out by screen readers.

import { announce } from "../lib/dom.js";

let timer = null;

export function toast(text) {
  const element = document.getElementById("toast");
  announce(text);
  if (!element) return;
  element.textContent = text;
  element.classList.add("toast-shown");
  clearTimeout(timer);
  timer = setTimeout(() => element.classList.remove("toast-shown"), 2600);
}
